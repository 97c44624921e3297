"""Run many generated scripts in one Python process, each as if it were fresh.

Usage: ``python -m tests.reproduce.runner < scripts.json > results.json``, where the input is a
list of ``{"name": ..., "code": ...}``. Importing torch costs seconds; this pays it once. Before
each script the state a script may change is put back as a fresh interpreter has it (grad mode,
default dtype), and each runs in a fresh ``__main__`` namespace with its stdout captured.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import traceback


def main() -> None:
    scripts = json.load(sys.stdin)
    try:
        import torch
    except ImportError:  # the NumPy and Python scripts run without it
        torch = None
    results = []
    for s in scripts:
        if torch is not None:
            torch.set_grad_enabled(True)
            torch.set_default_dtype(torch.float32)
            torch.set_num_threads(1)  # tiny tensors; and a loaded CI box spins threads badly
            torch.set_printoptions(profile="default")  # a script may set its own print options
        out, error = io.StringIO(), None
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(s["code"], s["name"], "exec"), {"__name__": "__main__"})
        except BaseException:  # report every failure, keep running the others
            error = traceback.format_exc()
        results.append({"name": s["name"], "stdout": out.getvalue(), "error": error})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
