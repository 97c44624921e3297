"""Which ``core.torchmath`` kernel profile reproduces torch on this host, found by calibration.

torch's float32 CPU results depend on the CPU: ATen picks its vector width when the process starts
(``torch.backends.cpu.get_cpu_capability()``) and MKL picks its sgemm/sgemv kernels by instruction
set (``MKL_VERBOSE=1`` names them), and each kernel adds in its own order. So the oracle tests
cannot assume the profile the app uses: they run the fixed probes below through torch and through
every profile, and take the profile that reproduces all of them bit for bit. The probes touch each
kind of kernel the profiles tell apart: a plain ``x @ W``, ``nn.Linear`` (MKL's transposed path, the
thin dot kernel and the wide one, with a bias), sgemv both ways, and softmax rows shorter and longer
than one 8- and one 16-lane vector; every one lies inside every profile's proven domain, so the
profile of the host that fitted it is sure to match there.

Nothing here imports torch: callers pass the module in, so the NumPy half runs without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from core import torchmath

F32 = np.float32
ULPS = 8  # tolerance off the bit-exact domain: 2× the worst seen between two profiles' orders


@dataclass(frozen=True)
class Probe:
    """One calibration op: ``kind`` in {"matmul", "linear", "softmax"} on fixed inputs."""

    name: str
    kind: str
    args: tuple[np.ndarray, ...]

    def model(self, profile: str) -> np.ndarray:
        if self.kind == "matmul":
            return torchmath.matmul_f32(*self.args, profile=profile)
        if self.kind == "linear":
            return torchmath.linear_f32(*self.args, profile=profile)
        (x,) = self.args
        return torchmath.softmax_f32(x, profile=profile)

    def proven(self, profile: str) -> bool:
        """Whether the op is inside ``profile``'s bit-exact domain (it must be, to calibrate)."""
        if self.kind == "matmul":
            (n, k), m = self.args[0].shape, self.args[1].shape[1]
            return torchmath.mm_is_proven(n, k, m, profile=profile)
        if self.kind == "linear":
            (rows, k), m = self.args[0].shape, self.args[1].shape[0]
            return torchmath.linear_is_proven(rows, k, m, profile=profile)
        return True  # softmax: any row length

    def torch_result(self, torch: ModuleType) -> np.ndarray:
        t = [torch.from_numpy(np.ascontiguousarray(a)) for a in self.args]
        with torch.no_grad():
            if self.kind == "matmul":
                return (t[0] @ t[1]).numpy()
            if self.kind == "linear":
                return torch.nn.functional.linear(*t).numpy()
            return torch.softmax(t[0], dim=-1).numpy()


def probes() -> tuple[Probe, ...]:
    """The fixed calibration set (seeded, so every run and every host sees the same inputs)."""
    rng = np.random.default_rng(20260)

    def randn(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(F32)

    return (
        Probe("x @ W, 6×3 @ 3×2 (SelfAttention_v1)", "matmul", (randn(6, 3), randn(3, 2))),
        Probe("x @ W, 12×8 @ 8×12", "matmul", (randn(12, 8), randn(8, 12))),
        Probe("nn.Linear(3, 2) on 12 rows", "linear", (randn(12, 3), randn(2, 3))),
        Probe("nn.Linear(8, 6) with bias on 12 rows", "linear", (randn(12, 8), randn(6, 8), randn(6))),
        Probe("nn.Linear(5, 9) on 3 rows", "linear", (randn(3, 5), randn(9, 5))),
        Probe("sgemv, 8×20 @ 20×1", "matmul", (randn(8, 20), randn(20, 1))),
        Probe("sgemv, 1×12 @ 12×16", "matmul", (randn(1, 12), randn(12, 16))),
        Probe("softmax, rows of 6", "softmax", ((randn(4, 6) * 3).astype(F32),)),
        Probe("softmax, rows of 9", "softmax", ((randn(4, 9) * 3).astype(F32),)),
        Probe("softmax, rows of 33", "softmax", ((randn(4, 33) * 3).astype(F32),)),
    )


def same_bits(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Equal float32 bit patterns (so NaN == NaN and -0.0 != 0.0 are judged like the hardware)."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    return (
        ours.dtype == theirs.dtype == F32
        and ours.shape == theirs.shape
        and np.array_equal(ours.view(np.uint32), theirs.view(np.uint32))
    )


def within_ulps(
    ours: np.ndarray, theirs: np.ndarray, scale: np.ndarray | None = None, ulps: int = ULPS
) -> bool:
    """``|ours - theirs| <= ulps`` float32 spacings of ``scale``, elementwise; NaNs must coincide.

    ``scale`` is the magnitude a result was summed from (``|a| @ |b|`` for a product: a change of
    summation order moves a sum by a few ulps of that, not of the possibly cancelled result); by
    default the largest ``|theirs|``.
    """
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    if ours.shape != theirs.shape:
        return False
    nan, inf = np.isnan(theirs), np.isinf(theirs)
    if not (np.array_equal(np.isnan(ours), nan) and np.array_equal(ours[inf], theirs[inf])):
        return False
    finite = ~nan & ~inf
    if scale is None:
        scale = np.max(np.abs(theirs[finite]), initial=0.0)
    tol = ulps * np.spacing(np.broadcast_to(np.asarray(scale, F32), theirs.shape)).astype(np.float64)
    return bool(np.all(np.abs(ours - theirs)[finite] <= tol[finite]))


@dataclass(frozen=True)
class HostKernels:
    """The calibration's verdict: the matching profile (None if none) and what each one missed."""

    capability: str
    profile: str | None
    misses: dict[str, tuple[str, ...]]

    @property
    def exact(self) -> bool:
        return self.profile is not None

    @property
    def reason(self) -> str:
        """Why bit-exact comparisons are skipped here (only meaningful when ``not exact``)."""
        missed = ", ".join(f"{p} missed {len(names)}" for p, names in self.misses.items())
        return (
            f"no core.torchmath profile reproduces torch on this host (CPU capability "
            f"{self.capability}; of {len(probes())} calibration ops {missed}): bit-exact checks "
            f"skipped, compared to {ULPS} float32 ulps instead"
        )

    @property
    def details(self) -> str:
        """Which calibration ops each profile missed, by name."""
        return "; ".join(f"{p}: {', '.join(names) or 'none'}" for p, names in self.misses.items())


def calibrate(torch: ModuleType) -> HostKernels:
    """Run every probe through torch and each profile; the first profile matching all wins."""
    ops = probes()
    found = {p.name: p.torch_result(torch) for p in ops}
    misses = {
        profile: tuple(p.name for p in ops if not same_bits(p.model(profile), found[p.name]))
        for profile in torchmath.PROFILES
    }
    matching = [profile for profile, missed in misses.items() if not missed]
    return HostKernels(torch.backends.cpu.get_cpu_capability(), matching[0] if matching else None, misses)
