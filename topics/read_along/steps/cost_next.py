"""Read-along steps (being written)."""

from __future__ import annotations

from topics.read_along.step import StepDef

STEPS: tuple[StepDef, ...] = ()
