#!/usr/bin/env python3
"""Median wall time and peak memory of `floor lookup` (and `floor rule`), beside the same venv's `python -c pass`.

Runs the installed entry point (.venv/bin/floor) the way a floorperson does, N times each, after
one warm-up run that builds the corpus cache. Usage:

    uv sync --compile-bytecode && uv run python bench/lookup_bench.py [--runs 20] [--query "oot raise"]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

from benchlib import installed_floor

REPO = Path(__file__).resolve().parent.parent
QUERIES = ["tossed one big chip in, said nothing", "turn came out b4 the last guy acted", "oot raise", "chopped blinds", "rabbit hunt"]


def measure(argv: list[str], runs: int) -> tuple[float, float]:
    """(median wall ms, max RSS MB) over `runs` runs of argv, output discarded."""
    walls, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
        _pid, _status, usage = os.wait4(proc.pid, 0)
        walls.append((time.perf_counter() - start) * 1000)
        peaks.append(usage.ru_maxrss / 1024)  # KB on Linux
    return statistics.median(walls), max(peaks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    installed = installed_floor()
    if installed is None:
        return 2
    venv_bin, floor = installed
    subprocess.run([str(floor), "lookup", QUERIES[0]], capture_output=True, cwd=REPO)  # build the cache
    base_ms, base_mb = measure([str(venv_bin / "python"), "-c", "pass"], args.runs)
    print(f"python -c pass            median {base_ms:6.1f} ms   max RSS {base_mb:5.1f} MB   ({args.runs} runs)")
    results = []
    for query in QUERIES:
        ms, mb = measure([str(floor), "lookup", query], args.runs)
        results.append((ms, mb))
        print(f"floor lookup {query[:28]!r:<31} median {ms:6.1f} ms   max RSS {mb:5.1f} MB")
    rule_ms, rule_mb = measure([str(floor), "rule", "tda-2024:44"], args.runs)
    print(f"floor rule tda-2024:44 (typer path)  median {rule_ms:6.1f} ms   max RSS {rule_mb:5.1f} MB")
    overall = statistics.median(ms for ms, _ in results)
    print(f"floor lookup (median over queries) {overall:.1f} ms; peak RSS {max(mb for _, mb in results):.1f} MB; "
          f"python -c pass {base_ms:.1f} ms; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
