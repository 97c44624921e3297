"""The torch fixtures of ``tests/core/conftest.py`` (the host's kernel profile, bit-exact
comparison), for this folder's oracle tests against PyTorch."""

from tests.core.conftest import host_kernels, host_profile, pytest_runtest_makereport, torch_exact

__all__ = ["host_kernels", "host_profile", "pytest_runtest_makereport", "torch_exact"]
