"""What compiling a game spec costs: the generated module's size, the CPU time to write it
and to load the whole game (check, generate, Python's compile, exec), and the peak memory
of the process.

    python benchmarks/bench_compile_size.py game_specs/chess.yaml [--set NAME=VALUE ...]

Measured 2026-11-28 on game_specs/chess.yaml (one run each, a loaded 2-core machine; CPU
time, so the load matters less than for wall-clock time):

    before compact code (commit d9aabb4): 4,793,718 characters, 31,760 lines; generate
        4.69 s CPU; load 7.26 s CPU; peak RSS 561 MB
    after (compiler/outline.py, k_leaves2 bounded): 466,979 characters, 7,021 lines;
        generate 0.57 s CPU; load 0.54 s CPU; peak RSS 71 MB
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> None:
    from framework.checker import check
    from framework.cli.common import parse_sets
    from framework.compiler import Compiler
    from framework.loader import compile_spec, parse_spec
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args(argv)
    options = parse_sets(args.set)
    start = time.process_time()
    source = Compiler(check(parse_spec(args.spec), options)).module()
    written = time.process_time()
    compile_spec(parse_spec(args.spec), options)
    loaded = time.process_time()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"source {len(source):,} characters, {source.count(chr(10)):,} lines; generate "
          f"{written - start:.2f} s CPU; load (check+generate+compile+exec) {loaded - written:.2f} s CPU; "
          f"peak RSS {peak} MB")


if __name__ == "__main__":
    main()
