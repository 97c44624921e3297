"""The two multi-head classes against the book's PyTorch code, bit for bit in float32.

``core.torchmath`` replays torch 2.13's CPU float32 kernels exactly inside a proven domain (its
module docstring), which depends on the kernel profile matching this host (chosen by calibration,
tests/conftest.py); the forward passes inherit that domain. Where every matmul of a forward
sits inside it, the outputs must be identical; elsewhere (wide projections, long contractions)
they must agree to 1e-6 relative, a bound ~4× above the largest difference seen over 800 random
configurations and at GPT-2's 768 width (3.9e-7 and 4.7e-7 of the output's largest entry).
Skipped without torch.
"""

import numpy as np
import pytest

from core import multihead as mh
from core import tokens, torchmath
from core.config import GPT2_SMALL, AttentionConfig
from core.torchgen import TorchGenerator

torch = pytest.importorskip("torch")
from core.reproduce.book_classes import (  # noqa: E402  (needs torch)
    CausalAttention,
    MultiHeadAttention,
    MultiHeadAttentionWrapper,
)

INPUTS = torch.tensor(tokens.inputs(), dtype=torch.float32)  # the book's inputs, float32 as printed
BATCH = torch.stack((INPUTS, INPUTS))  # the book's batch, (2, 6, 3)

RTOL = 1e-6
pytestmark = pytest.mark.usefixtures("host_profile")


def _torch_module(kind, cfg, seed, dropout=0.0):
    torch.manual_seed(seed)
    cls = MultiHeadAttentionWrapper if kind == "wrapper" else MultiHeadAttention
    return cls(
        cfg.d_in, cfg.d_out, cfg.context_length, dropout, num_heads=cfg.num_heads, qkv_bias=cfg.qkv_bias
    )


def exact_domain(kind: mh.Kind, cfg: AttentionConfig, b: int, n: int, profile: str | None = None) -> bool:
    """Whether every product in the forward is inside torchmath's bit-exact domain for ``profile``
    (default: the running one): the projections (``nn.Linear`` on ``b * n`` rows), QKᵀ and AV
    (torch's own bmm loop), and the split class's ``out_proj``."""
    rows = b * n
    width = mh.head_width(kind, cfg)  # the contraction of QKᵀ, the output width of AV
    ok = torchmath.linear_is_proven(rows, cfg.d_in, cfg.d_out, profile=profile)
    ok = ok and torchmath.bmm_is_proven(n, width, n)
    if kind == "split":
        ok = ok and torchmath.linear_is_proven(rows, cfg.d_out, cfg.d_out, profile=profile)
    return ok


def _compare(kind, cfg, seed, x, exact, torch_exact):
    """Parameters equal, then the forward bit for bit if ``exact`` (ulp-checked and reported as
    skipped on a host without a profile), else to RTOL."""
    module = _torch_module(kind, cfg, seed)
    params = mh.init_params(kind, cfg, seed)
    for name, theirs in module.state_dict().items():
        if name.endswith("mask"):
            continue
        mine = _param(params, name)
        np.testing.assert_array_equal(mine, theirs.numpy(), err_msg=name)
    with torch.no_grad():
        ref = module(torch.from_numpy(x)).numpy()
    out = mh.forward(x, params, mh.FLOAT32_TORCH).output
    assert out.dtype == np.float32 and out.shape == ref.shape
    if exact and torch_exact.exact:
        np.testing.assert_array_equal(out, ref)
    else:
        if exact:
            torch_exact.downgrade()
        assert np.max(np.abs(out - ref)) <= RTOL * np.max(np.abs(ref))
    return out, ref


def _param(params, name):
    """A torch state_dict name (``heads.1.W_key.weight``, ``out_proj.bias``) in our parameters."""
    parts = name.split(".")
    if parts[0] == "heads":
        proj = params.heads[int(parts[1])]
        parts = parts[2:]
    elif parts[0] == "out_proj":
        return getattr(params.out_proj, parts[1])
    else:
        proj = params.qkv
    role = {"W_query": "query", "W_key": "key", "W_value": "value"}[parts[0]]
    return getattr(getattr(proj, role), parts[1])


@pytest.mark.parametrize(
    ("kind", "cfg"),
    [("wrapper", AttentionConfig()), ("wrapper", AttentionConfig(d_out=1)), ("split", AttentionConfig())],
    ids=["wrapper-book", "exercise-3.2", "split-book"],
)
def test_the_books_settings_bit_for_bit(kind, cfg, torch_exact):
    x = mh.example_batch(3)
    assert all(exact_domain(kind, cfg, 2, 6, profile) for profile in torchmath.PROFILES)
    _compare(kind, cfg, 123, x, exact=True, torch_exact=torch_exact)


def test_causal_attention_bit_for_bit(torch_exact):
    torch.manual_seed(123)
    ca = CausalAttention(3, 2, 6, 0.0)
    with torch.no_grad():
        ref = ca(BATCH).numpy()
    cfg = AttentionConfig()
    out, _ = mh.causal_attention(
        mh.example_batch(3), mh.init_causal_attention(cfg, 123), cfg, mh.FLOAT32_TORCH
    )
    torch_exact.check(out, ref)


def _book_sized_configs():
    """Every configuration of the book's size: d_in and d_out up to 8, up to 16 heads."""
    for kind in mh.KINDS:
        for heads in range(1, 17):
            for d_in in range(1, 9):
                for d_out in range(1, 9):
                    cfg = AttentionConfig(d_in, d_out, heads, 6)
                    if kind == "wrapper" or cfg.divisible:
                        yield kind, cfg


def test_the_books_sizes_are_inside_every_profiles_domain():
    """The claim in core/torchmath.py's docstring, as the domain code states it: every forward of
    the book's size on its batch of 2 × 6 tokens is bit-exact under either profile."""
    configs = list(_book_sized_configs())
    for profile in torchmath.PROFILES:
        for kind, cfg in configs:
            assert exact_domain(kind, cfg, 2, 6, profile), (profile, kind, cfg)


def _sample_book_sized(per_kind: int = 6, seed: int = 16):
    rng = np.random.default_rng(seed)
    out = []
    for kind in mh.KINDS:
        pool = [c for c in _book_sized_configs() if c[0] == kind]
        out += [pool[i] for i in sorted(rng.choice(len(pool), per_kind, replace=False))]
    return out


BOOK_SIZED = _sample_book_sized()


@pytest.mark.parametrize(("kind", "cfg"), BOOK_SIZED)
def test_book_sized_configurations_bit_for_bit(kind, cfg, torch_exact):
    _compare(kind, cfg, 7, mh.example_batch(cfg.d_in), exact=True, torch_exact=torch_exact)


def _random_configs(count: int, seed: int = 2026, d_in: tuple[int, int] = (1, 33)):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        kind = ("wrapper", "split")[int(rng.integers(2))]
        heads, hd = int(rng.integers(1, 6)), int(rng.integers(1, 9))
        d_out = hd if kind == "wrapper" else hd * heads
        cfg = AttentionConfig(int(rng.integers(*d_in)), d_out, heads, 12, bool(rng.integers(2)))
        out.append((kind, cfg, int(rng.integers(2**31)), int(rng.integers(1, 4)), int(rng.integers(1, 11))))
    return out


RANDOM = _random_configs(50)
# Inputs wider than any proven domain (the AVX-512 one reaches d_in 40, where most of RANDOM is
# inside): so the within-RTOL side is exercised under every profile.
WIDE = _random_configs(10, seed=2027, d_in=(41, 65))


def test_the_random_configurations_cover_both_sides_of_the_exact_line():
    inside = sum(exact_domain(kind, cfg, b, n) for kind, cfg, _, b, n in RANDOM + WIDE)
    assert 15 <= inside <= len(RANDOM + WIDE) - 10, inside
    assert not any(
        exact_domain(kind, cfg, b, n, p) for kind, cfg, _, b, n in WIDE for p in torchmath.PROFILES
    )


@pytest.mark.parametrize(("kind", "cfg", "seed", "b", "n"), RANDOM)
def test_fifty_random_configurations(kind, cfg, seed, b, n, torch_exact):
    x = TorchGenerator(seed + 1).rand(b, n, cfg.d_in)
    _compare(kind, cfg, seed, x, exact=exact_domain(kind, cfg, b, n), torch_exact=torch_exact)


@pytest.mark.parametrize(("kind", "cfg", "seed", "b", "n"), WIDE)
def test_ten_wide_random_configurations(kind, cfg, seed, b, n, torch_exact):
    x = TorchGenerator(seed + 1).rand(b, n, cfg.d_in)
    _compare(kind, cfg, seed, x, exact=False, torch_exact=torch_exact)


@pytest.mark.parametrize("kind", ["wrapper", "split"])
def test_dropout_in_training_mode_draws_the_same_masks(kind, torch_exact):
    # torch.manual_seed(123), build the module, run it in training mode: the dropout masks are the
    # draws that follow the weights, one head after another for the wrapper.
    cfg = AttentionConfig(dropout=0.5)
    module = _torch_module(kind, cfg, 123, dropout=0.5)
    with torch.no_grad():
        ref = module(BATCH).numpy()
    gen = TorchGenerator(123)
    params = mh.init_params(kind, cfg, gen)
    out = mh.forward(mh.example_batch(3), params, mh.FLOAT32_TORCH, gen=gen).output
    torch_exact.check(out, ref)


def test_gpt2_small_to_a_millionth_and_its_parameter_count():
    module = _torch_module("split", GPT2_SMALL, 123)
    assert sum(p.numel() for p in module.parameters()) == 2_360_064
    x = mh.example_batch(768)
    params = mh.init_split(GPT2_SMALL, 123)
    with torch.no_grad():
        ref = module(torch.from_numpy(x)).numpy()
    for arith in (mh.FLOAT32_TORCH, mh.FLOAT64):
        out = mh.forward(x, params, arith).output
        assert np.max(np.abs(out - ref)) <= RTOL * np.max(np.abs(ref)), arith.name


class _CausalAttentionDim1(CausalAttention):
    """The chapter's CausalAttention before commit d4754f1: ``softmax(..., dim=1)``."""

    def forward(self, x):
        _, num_tokens, _ = x.shape
        keys, queries, values = self.W_key(x), self.W_query(x), self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=1)
        return self.dropout(attn_weights) @ values


def test_the_stale_exercise_3_2_solution_is_the_wrapper_with_softmax_over_dim_1():
    # Issue 13, item 7: the official solution's print comes from softmax(dim=1).
    from core import book

    torch.manual_seed(123)
    heads = [_CausalAttentionDim1(3, 1, 6, 0.0) for _ in range(2)]
    with torch.no_grad():
        theirs = torch.cat([h(BATCH) for h in heads], dim=-1).numpy()
    ours, weights = mh.exercise_3_2_as_printed()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    printed = ["[" + ", ".join(f"{v:.4e}" for v in row) + "]" for row in theirs[0]]
    assert tuple(printed) == book.EXERCISE_3_2_SOLUTION
    np.testing.assert_allclose(weights.sum(axis=-2), 1.0, rtol=1e-12)  # columns, not rows, sum to 1
    torch.manual_seed(123)
    with torch.no_grad():
        now = MultiHeadAttentionWrapper(3, 1, 6, 0.0, num_heads=2)(BATCH).numpy()
    assert not np.allclose(now, theirs, atol=1e-2)  # the fixed code prints other numbers
