"""Settings for the whole suite.

Hypothesis's 200 ms deadline per example measures the machine, not the code: on a shared 2-core
box a property that takes 20 ms can take 300 ms, and the test then fails for nothing. Speed is
measured by ``bench/``, never by tests, so the deadline is off everywhere.
"""

from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
