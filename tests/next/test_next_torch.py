"""Figure 07 against PyTorch: the book's chapter 3-4 modules, built from the same configuration.

Modules are built on the ``meta`` device: parameters have shapes and counts but no memory, so
GPT-2 XL costs nothing. Skipped where torch cannot be imported.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import tokens, weights
from tests.strategies import sentences
from topics.next import block, equivariance, limits, view
from topics.next.block import BlockConfig

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402

from core.reproduce.book_classes import CausalAttention, MultiHeadAttention  # noqa: E402


class LayerNorm(nn.Module):
    """Chapter 4's LayerNorm: a learnable scale and shift of width emb_dim."""

    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))


class FeedForward(nn.Module):
    """Chapter 4's FeedForward, with the 4 made a parameter."""

    def __init__(self, cfg, mult=4):
        super().__init__()
        d = cfg["emb_dim"]
        self.layers = nn.Sequential(
            nn.Linear(d, mult * d), nn.GELU(approximate="tanh"), nn.Linear(mult * d, d)
        )


class TransformerBlock(nn.Module):
    """Chapter 4's TransformerBlock."""

    def __init__(self, cfg, mult=4):
        super().__init__()
        self.att = MultiHeadAttention(
            d_in=cfg["emb_dim"],
            d_out=cfg["emb_dim"],
            context_length=cfg["context_length"],
            num_heads=cfg["n_heads"],
            dropout=cfg["drop_rate"],
            qkv_bias=cfg["qkv_bias"],
        )
        self.ff = FeedForward(cfg, mult)
        self.norm1 = LayerNorm(cfg["emb_dim"])
        self.norm2 = LayerNorm(cfg["emb_dim"])
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])


GPT_CONFIG_124M = {
    "vocab_size": 50257,
    "context_length": 1024,
    "emb_dim": 768,
    "n_heads": 12,
    "n_layers": 12,
    "drop_rate": 0.1,
    "qkv_bias": False,
}


def count(module) -> int:
    return sum(p.numel() for p in module.parameters())


def torch_block(cfg: BlockConfig) -> TransformerBlock:
    book_cfg = GPT_CONFIG_124M | {
        "emb_dim": cfg.emb_dim,
        "n_heads": cfg.n_heads,
        "context_length": cfg.context_length,
        "qkv_bias": cfg.qkv_bias,
    }
    with torch.device("meta"):
        return TransformerBlock(book_cfg, cfg.ff_mult)


def test_the_books_gpt_config_124m_prints_the_posts_counts():
    tb = torch_block(BlockConfig())
    assert count(tb.att) == 2_360_064
    assert count(tb.ff) == 4_722_432


@pytest.mark.parametrize("name", list(block.GPT2_PRESETS))
@pytest.mark.parametrize("qkv_bias", [False, True])
def test_every_preset_equals_the_torch_block(name, qkv_bias):
    cfg = BlockConfig(**{**block.GPT2_PRESETS[name].__dict__, "qkv_bias": qkv_bias})
    tb, mine = torch_block(cfg), block.block_params(cfg)
    assert count(tb.att) == mine.attention
    assert count(tb.ff) == mine.feed_forward
    assert count(tb.norm1) + count(tb.norm2) == mine.layer_norms
    assert count(tb) == mine.total
    att = tb.att
    assert [count(m) for m in (att.W_query, att.W_key, att.W_value, att.out_proj)] == [
        mine.w_query,
        mine.w_key,
        mine.w_value,
        mine.out_proj,
    ]
    assert [count(tb.ff.layers[0]), count(tb.ff.layers[2])] == [mine.ff_in, mine.ff_out]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 64).flatmap(lambda h: st.tuples(st.just(h), st.integers(1, 64).map(lambda k: h * k))),
    st.booleans(),
    st.integers(1, 8),
    st.integers(1, 64),
)
def test_any_config_equals_the_torch_block(heads_width, qkv_bias, mult, context):
    heads, width = heads_width
    cfg = BlockConfig(emb_dim=width, n_heads=heads, context_length=context, qkv_bias=qkv_bias, ff_mult=mult)
    assert count(torch_block(cfg)) == block.block_params(cfg).total


@pytest.mark.parametrize(("dtype", "nbytes"), [("float32", 4), ("bfloat16", 2), ("float16", 2), ("int8", 1)])
@pytest.mark.parametrize("name", list(block.GPT2_PRESETS))
def test_kv_cache_equals_the_bytes_of_torch_key_value_tensors(name, dtype, nbytes):
    cfg, batch, n = block.GPT2_PRESETS[name], 3, 4096
    shape = (batch, cfg.n_heads, n, cfg.head_dim)  # how MultiHeadAttention holds keys after .transpose(1, 2)
    with torch.device("meta"):
        cache = [torch.empty(shape, dtype=getattr(torch, dtype)) for _ in range(2 * cfg.n_layers)]
    total = sum(t.numel() * t.element_size() for t in cache)
    assert block.kv_cache_bytes(cfg.n_layers, n, cfg.emb_dim, nbytes, batch) == total


def book_causal(ws) -> CausalAttention:
    ca = CausalAttention(3, 2, 6, 0.0).double()
    with torch.no_grad():
        for lin, w in ((ca.W_query, ws.w_query), (ca.W_key, ws.w_key), (ca.W_value, ws.w_value)):
            lin.weight.copy_(torch.from_numpy(w.astype(np.float64).T))
    return ca


@pytest.mark.parametrize("ws", [weights.section_3_4(), weights.section_3_5()], ids=["3.4", "3.5"])
def test_causal_self_attention_equals_the_books_causal_attention(ws):
    x = tokens.inputs()
    theirs = book_causal(ws)(torch.from_numpy(x)[None])[0].detach().numpy()
    np.testing.assert_allclose(equivariance.causal_self_attention(x, ws).context, theirs, rtol=0, atol=1e-15)


def test_torch_shows_the_same_permutation_gaps():
    x, ws, perm = tokens.inputs(), weights.section_3_4(), [5, 4, 3, 2, 1, 0]
    ca = book_causal(ws)
    xt = torch.from_numpy(x)[None]
    masked = (ca(xt)[0][perm] - ca(xt[:, perm])[0]).abs().max().item()
    mine = equivariance.permutation_test(x, ws, perm, causal=True)
    assert mine.gap == pytest.approx(masked, abs=1e-15)
    assert masked > 0.1


def torch_causal(x, w):
    """One causal self-attention layer in PyTorch with square weights ``w = (query, key, value)``."""
    q, k, v = x @ w[0], x @ w[1], x @ w[2]
    mask = torch.triu(torch.ones(len(x), len(x)), diagonal=1).bool()
    return torch.softmax((q @ k.T).masked_fill(mask, -torch.inf) / k.shape[-1] ** 0.5, dim=-1) @ v


def test_two_stacked_layers_drawn_one_after_the_other_in_torch():
    """Issue #24, item 10: the page's "two stacked layers" are two layers, each its own weights,
    drawn after torch.manual_seed(123) one after the other (0.1436), not one layer twice (0.1800)."""
    torch.manual_seed(limits.STACK_SEED)
    layers = [[torch.rand(3, 3).double() for _ in range(3)] for _ in range(2)]
    x, order = torch.from_numpy(tokens.inputs()), list(view.PREFIX_ORDER)
    one = (torch_causal(x, layers[0])[-1] - torch_causal(x[order], layers[0])[-1]).abs().max().item()
    stacked = [torch_causal(torch_causal(z, layers[0]), layers[1])[-1] for z in (x, x[order])]
    mine = view.build(view.Settings()).prefix
    theirs = (stacked[0] - stacked[1]).abs().max().item()
    assert theirs == pytest.approx(mine.two_layers, abs=1e-12)  # two layers of rounding apart, at most
    assert one <= mine.limit and mine.one_layer <= mine.limit  # both rounding, under the stated bound


@settings(max_examples=25, deadline=None)
@given(sentences(max_tokens=16), st.data())
def test_torchs_unmasked_gap_is_under_the_pages_bound(s, data):
    """Issue #24, item 3: the bound the page states holds for PyTorch's summation order too."""
    n = len(s.labels)
    perm = data.draw(st.permutations(range(n)))
    v = view.build(view.Settings(s.labels, s.embeddings, perm=tuple(perm)))
    ws, x = v.shuffle.weights, torch.tensor(np.asarray(s.embeddings, dtype=np.float64))
    q, k, val = (x @ torch.from_numpy(w.astype(np.float64)) for w in (ws.w_query, ws.w_key, ws.w_value))

    def attend(q, k, val):
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ val

    gap = (attend(q, k, val)[perm] - attend(q[perm], k[perm], val[perm])).abs().max().item()
    assert gap <= v.shuffle.limit
