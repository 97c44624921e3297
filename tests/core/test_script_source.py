"""The shared script helpers (core.reproduce.source): exact numbers, safe file names.

Each page's scripts are tested in its own folder (tests/<topic>/), against the page's view.
"""

from __future__ import annotations

import ast
import re

import numpy as np

from core.reproduce.source import filename, float32_text, is_float32, tensor_literal


def test_embeddings_are_written_exactly():
    """float32 embeddings in their shortest digits (read back through float64, as torch.tensor does);
    anything else as float64 repr with dtype=torch.float64."""
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal(2000).astype(np.float32)
    assert all(np.float32(float(float32_text(v))) == v for v in f32)
    f64 = rng.standard_normal((4, 5))
    lines = "\n".join(tensor_literal("inputs", f64))
    assert not is_float32(f64) and "dtype=torch.float64" in lines
    values = ast.literal_eval(lines.split("(", 1)[1].rsplit(",", 2)[0].strip())
    assert np.array_equal(np.array(values), f64)


def test_file_names_are_safe_whatever_the_settings():
    assert filename("masking", "step-4", "fill--inf") == "masking_step-4_fill-inf.py"
    for hostile in ("../../etc/passwd", "a/b\\c", ".hidden", "x" * 500, "🙂", "", "..", "con:"):
        name = filename("recap", hostile)
        assert re.fullmatch(r"[a-z0-9][a-z0-9._-]*\.py", name) and ".." not in name, name
        assert len(name) <= 103
