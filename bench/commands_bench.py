#!/usr/bin/env python3
"""Median wall time of the table commands beside the same venv's `python -c pass` (issue: ≤ 5×), and
the time `floor quiz` takes to show its first question beside the lookup's median (issue: ≤ 3×).

Runs the installed entry point (.venv/bin/floor) N times per command, output discarded, stdin
closed, after a warm-up that builds the corpus and quiz caches. The quiz is timed from its start
to the moment its first "Your answer (" prompt reaches the pipe, then told `q`. Usage:

    uv sync --compile-bytecode && uv run python bench/commands_bench.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = [
    ["lookup", "tossed one big chip in, said nothing"],
    ["walk", "overchip-facing-bet", "--answer", "declared=silent"],
    ["walk", "overchip-facing-bet", "--answer", "declared=silent", "--json"],
    ["rule", "tda-2024:44"],
    ["rule", "35-E", "--json"],
    ["situations"],
    ["calc", "chips", "--facing", "600", "--min-raise", "600", "--chips", "5000"],
    ["calc", "penalty", "--players", "8", "--rounds", "1"],
    ["quiz", "--json", "--count", "10", "--seed", "1"],
    ["--help"],
]


def median_ms(argv: list[str], runs: int) -> float:
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=REPO)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls)


FIRST_QUESTION = ["quiz", "--seed", "1"]
LOOKUP = COMMANDS[0]
PROMPT = b"Your answer ("


def first_question_ms(argv: list[str], runs: int) -> float:
    """Median time from starting `floor quiz` to its first answer prompt on stdout."""
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO)
        seen = b""
        while PROMPT not in seen:
            chunk = proc.stdout.read1(65536)
            if not chunk:
                break
            seen += chunk
        walls.append((time.perf_counter() - start) * 1000)
        proc.communicate(b"q\n", timeout=30)
        if PROMPT not in seen:
            raise SystemExit(f"no question from {' '.join(argv)}")
    return statistics.median(walls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    venv_bin = Path(sys.prefix) / "bin"
    floor = str(venv_bin / "floor")
    import floorcall

    subprocess.run([str(venv_bin / "python"), "-m", "compileall", "-q", str(Path(floorcall.__file__).parent)], check=True)
    for command in COMMANDS:
        subprocess.run([floor, *command], capture_output=True, cwd=REPO, stdin=subprocess.DEVNULL)  # warm the caches
    base = median_ms([str(venv_bin / "python"), "-c", "pass"], args.runs)
    print(f"{'python -c pass':<70} {base:6.1f} ms   1.0x")
    for command in COMMANDS:
        ms = median_ms([floor, *command], args.runs)
        print(f"{'floor ' + ' '.join(command):<70} {ms:6.1f} ms {ms / base:5.1f}x")
    subprocess.run([floor, *FIRST_QUESTION], input=b"q\n", capture_output=True, cwd=REPO)  # warm the item cache
    lookup = median_ms([floor, *LOOKUP], args.runs)
    quiz = first_question_ms([floor, *FIRST_QUESTION], args.runs)
    print(f"{'floor quiz: first question on screen':<70} {quiz:6.1f} ms {quiz / base:5.1f}x   "
          f"= {quiz / lookup:.1f}x the lookup's {lookup:.1f} ms (issue: at most 3x)")
    print(f"({args.runs} runs each; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
