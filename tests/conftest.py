"""Settings for the whole suite.

Hypothesis's 200 ms deadline per example measures the machine, not the code: on a shared 2-core
box a property that takes 20 ms can take 300 ms, and the test then fails for nothing. Speed is
measured by ``bench/``, never by tests, so the deadline is off everywhere.

The torch fixtures are for the tests that hold ``core.torchmath`` (and the pages' float32 paths)
against torch on this very host. ``host_kernels`` calibrates once per session
(``tests/torch_kernels.py``): it runs a fixed set of torch ops and picks the ``core.torchmath``
profile that reproduces them. Torch test modules run
under that profile with ``pytestmark = pytest.mark.usefixtures("host_profile")`` and compare
through the ``torch_exact`` fixture.

On a CPU no profile reproduces, ``torch_exact`` checks to a few float32 ulps instead of bit for
bit, and a test that passed only that way is reported as skipped with the reason (after its
tolerance checks ran), so an unknown host neither fails on last bits nor silently passes
nothing. Nothing here imports torch unless a torch test asks for these fixtures.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator, Iterator

import numpy as np
import pytest
from hypothesis import settings

from bench.pages import scan_components_once
from core import torchmath
from tests.torch_kernels import HostKernels, calibrate, same_bits, within_ulps

_INEXACT = pytest.StashKey[str]()


@pytest.fixture(scope="session", autouse=True)
def classroom_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The class database's directory for the whole session (``CLASSROOM_DATA_DIR``): a temporary
    one, so a test that opens the Class page or the tour never writes data/classroom.db into the
    checkout. A server the session starts (tests/e2e/conftest.py) inherits it."""
    where = str(tmp_path_factory.mktemp("classroom"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CLASSROOM_DATA_DIR", where)
        yield where


@pytest.fixture(autouse=True)
def _torch_grad_mode_kept() -> Iterator[None]:
    """Each test starts with torch's grad mode on, as a fresh process has it: a Reproduce script's
    lines run in the test's own process (``torch.set_grad_enabled(False)``, the scripts' first
    line) switch it off for the whole process, and the next test of that worker that trains
    (Learning's gradients against autograd) then met "does not require grad"."""
    yield
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_grad_enabled(True)


@pytest.fixture(scope="session")
def host_kernels() -> HostKernels:
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the probes are tiny: single-threaded in torch anyway
    try:
        return calibrate(torch)
    finally:
        torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def host_profile(host_kernels: HostKernels) -> Iterator[str]:
    """Run a module under the profile calibration chose (the default one if none matched)."""
    with torchmath.use_profile(host_kernels.profile or torchmath.get_profile()) as name:
        yield name


class TorchExact:
    """Bit-exact comparison with torch where the host has a profile, else a flagged ulp check."""

    def __init__(self, kernels: HostKernels, node: pytest.Item) -> None:
        self.kernels = kernels
        self._node = node

    @property
    def exact(self) -> bool:
        return self.kernels.exact

    def downgrade(self) -> None:
        """Record that this test could not check bit for bit (reported as a skip if it passes)."""
        self._node.stash[_INEXACT] = self.kernels.reason

    def check(
        self, ours: np.ndarray, theirs: np.ndarray, msg: object = "", *, scale: np.ndarray | None = None
    ) -> None:
        """Assert ``ours`` is ``theirs`` bit for bit, or within the ulp tolerance on an unknown host.

        ``scale``: the magnitude the result was summed from (see ``within_ulps``).
        """
        ours, theirs = np.asarray(ours), np.asarray(theirs)
        if self.exact:
            assert same_bits(ours, theirs), msg
        else:
            self.downgrade()
            assert within_ulps(ours, theirs, scale), msg


@pytest.fixture
def torch_exact(host_kernels: HostKernels, request: pytest.FixtureRequest) -> TorchExact:
    return TorchExact(host_kernels, request.node)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A test that passed only to the ulp tolerance is shown as skipped, with the reason."""
    report = yield
    reason = item.stash.get(_INEXACT, None)
    if reason and report.when == "call" and report.passed:
        report.outcome = "skipped"
        report.longrepr = (str(item.path), (item.location[1] or 0) + 1, f"Skipped: {reason}")
    return report


settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# Each AppTest session would otherwise scan the installed packages again (bench.pages): about 90 ms.
scan_components_once()


# --- scheduling across pytest-xdist's workers ----------------------------------------------------
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the machine has cores (pyproject.toml caps it at four).
    A browser test spends part of its time waiting on Chromium and the server, which run in
    processes of their own; with one worker a core, a 2-core machine sat idle 6% of the suite, and
    a third worker fills those waits (the suite took 480 s instead of 503 s, for the same CPU)."""
    return (os.cpu_count() or 1) + 1


# pyproject.toml runs the suite with ``--dist loadgroup --no-loadscope-reorder``: a worker takes one
# work unit at a time, in the order below. Outside tests/e2e a unit is a whole module, so a module's
# fixtures (an AppTest run, a Reproduce oracle's batch of scripts in a fresh interpreter) run once,
# not once per worker that happens to get one of its tests. A browser test is a unit of its own, so
# the per-page visits spread over the workers; the longest start first, so no worker is left with
# a long test at the end while the others wait.
E2E_FIRST = (  # the longest browser tests, longest first (about 60 s to 15 s each on a loaded box)
    "tests/e2e/test_chart_contrast.py",  # two pixel sweeps: started last, such sweeps ran alone at the end
    "tests/e2e/test_charts_whole.py",  # five sweeps of where texts land
    "tests/e2e/test_load.py",
    "tests/e2e/test_memory.py",
    "tests/e2e/test_read_along.py",
    "tests/e2e/test_read_along_progress.py",
    "tests/e2e/test_sentence.py",
    "tests/e2e/test_browser.py::test_a_sample_of_hostile_urls",
    "tests/e2e/test_browser.py",
    "tests/e2e/test_phone.py",
)
MODULES_FIRST = ("_reproduce", "tests/read_along/", "tests/app/", "_page.py")  # slow modules, by kind


def _rank(nodeid: str, module_size: int) -> tuple[int, int, int]:
    if nodeid.startswith("tests/e2e/"):
        first = [i for i, prefix in enumerate(E2E_FIRST) if nodeid.startswith(prefix)]
        return (0, first[0] if first else len(E2E_FIRST), 0)
    module = nodeid.split("::")[0]
    kind = [i for i, part in enumerate(MODULES_FIRST) if part in module]
    return (1, kind[0] if kind else len(MODULES_FIRST), -module_size)


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadgroup`` (pyproject.toml), with a module outside tests/e2e as one work unit.

    xdist's loadgroup reads a test's ``xdist_group`` mark into its node id (``item._nodeid``),
    which pytest 9 no longer reads (``Node.nodeid`` comes from ``_id``): no group reached the
    scheduler, every test was a unit of its own, and a module's tests spread over the workers,
    each building the module's fixtures again (Learning's Reproduce batch, about 55 s, three times
    a run). So the units are named here, by xdist's own hook for a scheduler, in the way its
    loadfile and loadgroup schedulers name theirs (``_split_scope``): outside tests/e2e the
    module, in tests/e2e each test (the per-page visits spread over the workers)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class ModuleOrTest(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if nodeid.startswith("tests/e2e/") else nodeid.split("::")[0]

    return ModuleOrTest(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    sizes: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        sizes[module] = sizes.get(module, 0) + 1
    # A stable sort: within a rank, the collection's own order (a module's tests stay together).
    items.sort(key=lambda item: _rank(item.nodeid, sizes[item.nodeid.split("::")[0]]))
