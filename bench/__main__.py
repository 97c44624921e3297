"""``python -m bench [--quick] [name ...]``: run every ``bench/bench_*.py`` and print its figures."""

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
    args = parser.parse_args(argv)
    modules = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    for name in modules:
        module = importlib.import_module(f"bench.{name}")
        for fig in module.run(quick=args.quick):
            print(fig.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
