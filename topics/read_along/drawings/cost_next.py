"""Read-along drawings (being written)."""

from __future__ import annotations

from topics.read_along.drawings.drawn import Draw

DRAWINGS: dict[str, Draw] = {}
