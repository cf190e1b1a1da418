"""Measure `floor import` on rules documents you have (the TDA's PDF, .docx, short or long form):
what it finds, how long it takes, and how each edition maps to TDA 2024.

    uv run python bench/import_bench.py FILE… [--runs 3]

Nothing is saved: each file is read and parsed in memory (the store's atomic write is not timed).
Figures are printed, never asserted. Keep the TDA's documents out of the repository.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "cli"))

from floorcall.content.documents import read_document  # noqa: E402
from floorcall.content.imported import compile_edition  # noqa: E402
from floorcall.engines import editions as engine  # noqa: E402


def measure(path: Path, runs: int) -> tuple[dict, dict]:
    read_s, parse_s = [], []
    edition: dict = {}
    for _ in range(runs):
        started = time.perf_counter()
        document = read_document(path)
        read_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        edition = engine.parse_edition(document.lines, document.name)
        parse_s.append(time.perf_counter() - started)
    edition["file"] = {"name": path.name, "sha256": document.sha256}
    return edition, {"kind": document.kind, "pages": document.pages, "read_s": statistics.median(read_s),
                     "parse_s": statistics.median(parse_s), "furniture": len(document.furniture)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    editions = []
    print(f"{'file':<58} {'kind':<5} {'pages':>5} {'rules':>5} {'parts':>5} {'RPs':>4} {'RP parts':>8} {'addendum':>8} "
          f"{'examples':>8} {'unplaced':>8} {'read s':>7} {'parse s':>7}")
    for path in args.files:
        edition, figures = measure(path, args.runs)
        editions.append(edition)
        c = engine.counts(edition)
        print(f"{path.name[:58]:<58} {figures['kind']:<5} {figures['pages']:>5} {c['rules']:>5} {c['parts']:>5} "
              f"{c['procedures']:>4} {c['procedure_parts']:>8} {c['addendum']:>8} {c['examples']:>8} {c['unplaced']:>8} "
              f"{figures['read_s']:>7.2f} {figures['parse_s']:>7.3f}")
    by_year: dict[str, dict] = {}
    for edition in editions:
        by_year.setdefault(edition["year"], edition)
    base = by_year.get("2024")
    for year, edition in sorted(by_year.items()):
        if year == "2024" or base is None:
            continue
        older = int(year) < 2024
        a, b = (edition, base) if older else (base, edition)
        started = time.perf_counter()
        mapping = engine.map_rules(a["rules"] + a["procedures"], b["rules"] + b["procedures"])
        seconds = time.perf_counter() - started
        print(f"\nmapping TDA {a['year']} → TDA {b['year']} ({seconds:.2f} s): {engine.mapping_counts(mapping)}")
        print(f"  not compared (one side has none): {mapping['not_compared'] or 'nothing'}")
        for pair in mapping["pairs"]:
            if pair["renumbered"] or pair.get("anchored") or pair["score"] < 70:
                print(f"  {pair['old']:>5} → {pair['new']:<5} score {pair['score']:5.1f} (title {pair['title_score']:.0f}, "
                      f"text {pair['text_score'] if pair['text_score'] is not None else '-'})"
                      + ("  rewritten in place" if pair.get("anchored") else ""))
        changes = engine.diff_editions(compile_edition(a), compile_edition(b), mapping)
        print(f"  changed wording: {len(changes['changed'])}, unchanged: {changes['unchanged']}, "
              f"added: {[r['b'] for r in changes['added']]}, removed: {[r['a'] for r in changes['removed']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
