#!/usr/bin/env python3
"""Timings of the ruling log: `floor log` and friends over a 10,000-record log, and saving one record.

Builds a throwaway log of N records (default 10,000: about a hundred nights of a busy league, the
latest night holding ~100 rulings), then runs the installed entry point (.venv/bin/floor) the way a
floorperson does, R times each, beside the same venv's `python -c pass`; and times the library's
save (`save_ruling`, one committed transaction with synchronous=FULL) in-process. Usage:

    uv sync --compile-bytecode && uv run python bench/log_bench.py [--records 10000] [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchlib import installed_floor

REPO = Path(__file__).resolve().parent.parent
SITUATION = "overchip-facing-bet"
PER_NIGHT = 100  # rulings on a busy night: a 200-player event has a floor call every few minutes
PLAYERS = [f"Player {n:03d}" for n in range(400)] + ["Ann Lee"]


def scenario_rulings(one_situation: bool) -> list:
    """A ruling per scenario of every situation that loads (or of the overchip situation only)."""
    from floorcall.content import corpus as corpus_module
    from floorcall.engines.walk import Ruling, advance

    situations = corpus_module.load(REPO)["situations"]
    chosen = [situations[SITUATION]] if one_situation else list(situations.values())
    rulings = [advance(s, dict(case["given"])) for s in chosen for case in s.get("scenarios") or []]
    return [r for r in rulings if isinstance(r, Ruling)]


def build_log(path: Path, records: int, one_situation: bool = False) -> None:
    """N records through the store's own save, one transaction each, spread over nights ending tonight
    and over the situations' scenarios (or all on one situation: precedent's worst case)."""
    from floorcall.engines.ruling_facts import make_facts
    from floorcall.store.ruling_log import SqliteRulingLog, draft_of

    rulings = scenario_rulings(one_situation)
    tonight = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=2)
    nights = (records + PER_NIGHT - 1) // PER_NIGHT
    moments = iter([tonight - timedelta(days=nights - 1 - n // PER_NIGHT) + timedelta(seconds=20 * (n % PER_NIGHT))
                    for n in range(records)])
    with SqliteRulingLog(path, clock=lambda: next(moments)) as log:
        # Setup only: the timed saves below run with the store's own synchronous=FULL.
        log.file.connection.execute("PRAGMA synchronous = OFF")
        for n in range(records):
            penalty = "warning" if n % 7 == 0 else ("1 round" if n % 31 == 0 else None)
            facts = make_facts(event=f"Night {n // PER_NIGHT:03d}", floorperson=("Dee", "Eve")[n % 2], table=str(1 + n % 20),
                               seats=[str(1 + n % 9)], players=[PLAYERS[n % len(PLAYERS)]], penalty=penalty,
                               note=f"chip landed before he spoke, hand {n}")
            log.save(draft_of(rulings[n % len(rulings)], facts, "0.1.0", "sha256:bench"))


def measure(argv: list[str], runs: int, env: dict) -> tuple[float, float]:
    """(median, max) wall ms over `runs` runs of argv, output discarded."""
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=env, check=False)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), max(walls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    installed = installed_floor()
    if installed is None:
        return 2
    venv_bin, floor = installed
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "rulings.sqlite3"
        start = time.perf_counter()
        build_log(db, args.records)
        size = db.stat().st_size / 1e6
        print(f"built a log of {args.records:,} records ({size:.1f} MB) in {time.perf_counter() - start:.1f} s")
        env = dict(os.environ, FLOORCALL_DB=str(db), FLOORCALL_NAME="Bench", NO_COLOR="1")
        subprocess.run([str(floor), "situations"], capture_output=True, cwd=REPO, env=env)  # warm the corpus cache
        last_night = f"Night {(args.records - 1) // PER_NIGHT:03d}"
        cases = [
            ("python -c pass", [str(venv_bin / "python"), "-c", "pass"]),
            ("floor log (tonight)", [str(floor), "log"]),
            ("floor log --all (every record)", [str(floor), "log", "--all"]),
            ("floor log --all --json", [str(floor), "log", "--all", "--json"]),
            ('floor log --all --player "Ann Lee"', [str(floor), "log", "--all", "--player", "Ann Lee"]),
            ('floor log --all --text "hand 9999"', [str(floor), "log", "--all", "--text", "hand 9999"]),
            ('floor penalty "Ann Lee" --since all', [str(floor), "penalty", "Ann Lee", "--since", "all"]),
            ("floor log show 5000", [str(floor), "log", "show", "5000"]),
            ("floor walk … (no --log)", [str(floor), "walk", SITUATION, "-a", "declared=silent"]),
            ("floor walk … --log (saves one)", [str(floor), "walk", SITUATION, "-a", "declared=silent", "--log", "--table", "3",
                                               "--player", "Bench Player", "--event", last_night]),
        ]
        figures = {}
        for label, argv in cases:
            median, worst = measure(argv, args.runs, env)
            figures[label] = median
            print(f"{label:<38} median {median:7.1f} ms   max {worst:7.1f} ms   ({args.runs} runs)")
        print(f"{'--log adds (save, precedent, ladder)':<38} {figures['floor walk … --log (saves one)'] - figures['floor walk … (no --log)']:+7.1f} ms")

        from floorcall.content import corpus as corpus_module
        from floorcall.engines.ruling_facts import make_facts
        from floorcall.engines.walk import advance
        from floorcall.store.ruling_log import SqliteRulingLog, precedent_line, save_ruling

        ruling = advance(corpus_module.load(REPO)["situations"][SITUATION], {"declared": "silent"})
        facts = make_facts(table="3", players=["Ann Lee"], penalty="warning", event=last_night)
        saves, opens, lines = [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            save_ruling(db, ruling, facts, REPO)
            saves.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            SqliteRulingLog(db).close()
            opens.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            precedent_line(db, ruling)
            lines.append((time.perf_counter() - start) * 1000)
        print(f"{'save_ruling() in-process':<38} median {statistics.median(saves):7.1f} ms   max {max(saves):7.1f} ms"
              "   (open + quick_check + fingerprint + one FULL-sync commit)")
        print(f"{'open the log (checks included)':<38} median {statistics.median(opens):7.1f} ms")
        print(f"{'precedent_line() in-process':<38} median {statistics.median(lines):7.1f} ms"
              f"   ({len(scenario_rulings(False))} scenarios share the records)")
        worst = Path(folder) / "one-situation.sqlite3"
        build_log(worst, args.records, one_situation=True)
        lines = []
        for _ in range(args.runs):
            start = time.perf_counter()
            precedent_line(worst, ruling)
            lines.append((time.perf_counter() - start) * 1000)
        print(f"{'precedent_line(), all on one situation':<38} median {statistics.median(lines):7.1f} ms   (the worst case)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
