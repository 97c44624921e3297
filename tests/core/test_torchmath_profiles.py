"""core.torchmath's kernel profiles without torch: selection, the domain claims, the calibration set.

The comparisons with torch itself are in test_torchmath.py; these run everywhere.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core import torchmath
from tests.torch_kernels import probes, same_bits

F32 = np.float32


def test_the_app_runs_the_default_profile() -> None:
    assert torchmath.get_profile() == torchmath.DEFAULT_PROFILE == "avx2"
    assert set(torchmath.PROFILES) == {"avx2", "avx512"}


def test_profiles_are_set_for_a_block_and_restored() -> None:
    before = torchmath.get_profile()
    with torchmath.use_profile("avx512") as name:
        assert name == torchmath.get_profile() == "avx512"
        with pytest.raises(ValueError, match="unknown kernel profile"):
            torchmath.set_profile("sse2")
        assert torchmath.get_profile() == "avx512"
    assert torchmath.get_profile() == before
    with pytest.raises(ValueError, match="unknown kernel profile"):
        torchmath.matmul_f32(np.ones((2, 2), F32), np.ones((2, 2), F32), profile="neon")


def test_an_explicit_profile_overrides_the_setting() -> None:
    """softmax over 9 values: one 8-lane vector plus a masked one, or a single 16-lane fold."""
    x = (np.random.default_rng(1).standard_normal((64, 9)) * 3).astype(F32)
    with torchmath.use_profile("avx2"):
        wide = torchmath.softmax_f32(x, profile="avx512")
        narrow = torchmath.softmax_f32(x)
    with torchmath.use_profile("avx512"):
        assert same_bits(torchmath.softmax_f32(x), wide)
    assert not same_bits(wide, narrow)
    np.testing.assert_allclose(wide, narrow, rtol=1e-6)


def test_the_calibration_probes_tell_every_two_profiles_apart() -> None:
    """Otherwise calibration could pick a profile by luck."""
    outputs = {p: [probe.model(p) for probe in probes()] for p in torchmath.PROFILES}
    names = list(outputs)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            differ = [
                probe.name
                for probe, x, y in zip(probes(), outputs[first], outputs[second], strict=True)
                if not same_bits(x, y)
            ]
            assert len(differ) >= 3, (first, second, differ)


@pytest.mark.parametrize("profile", ["avx2", "avx512"])
def test_every_calibration_probe_is_inside_every_domain(profile: str) -> None:
    """Else the host a profile was fitted on could fail its own calibration."""
    for probe in probes():
        assert probe.proven(profile), (profile, probe.name)


@pytest.mark.parametrize("profile", ["avx2", "avx512"])
def test_the_books_products_are_inside_every_domain(profile: str) -> None:
    """What chapter 3 multiplies: x @ W (6 × 3 @ 3 × 2, batched into 12 rows), nn.Linear(3, 2)
    on 6 or 12 rows, exercise 3.2's nn.Linear(3, 1), the 2 × 2 out_proj, weights @ values as an
    mm, and QKᵀ / AV in torch's own bmm loop."""
    for n, k, m in ((6, 3, 2), (12, 3, 2), (6, 6, 2)):
        assert torchmath.mm_is_proven(n, k, m, profile=profile)
    for rows, d_in, d_out in ((6, 3, 2), (12, 3, 2), (12, 3, 1), (12, 2, 2), (12, 2, 1)):
        assert torchmath.linear_is_proven(rows, d_in, d_out, profile=profile)
    assert torchmath.bmm_is_proven(6, 2, 6) and torchmath.bmm_is_proven(6, 6, 2)
    assert not torchmath.bmm_is_proven(10, 4, 10)
    assert not torchmath.mm_is_proven(0, 3, 2, profile=profile)


def test_the_avx512_domain_stops_at_the_probed_box() -> None:
    assert torchmath.mm_is_proven(32, 40, 40, profile="avx512")
    assert not torchmath.mm_is_proven(33, 4, 4, profile="avx512")
    assert not torchmath.mm_is_proven(6, 41, 4, profile="avx512")
    assert not torchmath.linear_is_proven(6, 4, 41, profile="avx512")
    assert torchmath.linear_is_proven(6, 31, 2, profile="avx512")  # the dot kernel, one accumulator
    assert not torchmath.linear_is_proven(6, 32, 2, profile="avx512")
    assert torchmath.mm_is_proven(6, 32, 1, profile="avx512")  # sgemv
    assert not torchmath.mm_is_proven(6, 33, 1, profile="avx512")


def test_importing_core_leaves_torch_alone() -> None:
    code = "import sys, core, core.torchmath, core.multihead; sys.exit('torch' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0
