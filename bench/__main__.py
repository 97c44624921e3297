"""``python -m bench [--quick] [name ...]``: run every ``bench/bench_*.py`` and print its figures.

A bench with flags of its own (``bench class --learners 10``) defines ``add_options(parser)``
and takes the parsed options as ``run(quick, options)``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import bench


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help="run only these modules (e.g. scaling dropout)")
    parser.add_argument("--quick", action="store_true", help="smaller grids, for a smoke run")
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    pre = argparse.ArgumentParser(add_help=False)  # import only the benches asked for
    pre.add_argument("names", nargs="*")
    chosen = pre.parse_known_args(argv)[0].names
    if chosen:
        names = [n for n in names if n.removeprefix("bench_") in chosen]
    modules = [importlib.import_module(f"bench.{name}") for name in names]
    for module in modules:
        if hasattr(module, "add_options"):
            module.add_options(parser)
    args = parser.parse_args(argv)
    for module in modules:
        extra = {"options": args} if hasattr(module, "add_options") else {}
        for fig in module.run(quick=args.quick, **extra):
            print(fig.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
