"""Measure the static site: build time, search index size, total size, in-browser search time.

    uv run python bench/site_bench.py [--runs 5] [--searches 50] [--keep DIR]

Figures are printed, never asserted (tests check budgets by size, not by time). The browser part
drives Debian's Chromium through Playwright, as the browser tests do, and is skipped without it.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "cli"))

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# Three-word queries as typed at the table: plain, slangy, and one with a typo (typo expansion is the costly path).
QUERIES = ["tossed big chip", "acted out turn", "overchpi facing bet"]
BUDGETS = {"build_s": 3.0, "index_gzip_kb": 60.0, "search_ms": 50.0}


def median(values):
    return statistics.median(values)


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def measure_build(runs: int, out: Path) -> dict:
    from floorcall.content import corpus as corpus_module
    from floorcall.publish.sitegen import build_site

    corpus = corpus_module.load(REPO)
    library = []
    report = None
    for _ in range(runs):
        started = time.perf_counter()
        report = build_site(corpus, out, REPO)
        library.append(time.perf_counter() - started)
    # The whole command as a user runs it: interpreter start, corpus cache, render, write.
    command = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "floorcall", "site", "build", "--out", str(out)], cwd=REPO,
                       check=True, capture_output=True)
        command.append(time.perf_counter() - started)
    return {"report": report, "library_s": library, "command_s": command}


def site_sizes(out: Path) -> dict:
    files = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")]
    raw = sum(p.stat().st_size for p in files)
    compressed = sum(len(gzip.compress(p.read_bytes(), 9, mtime=0)) for p in files)
    index = (out / "static" / "search-index.js").read_bytes()
    return {"files": len(files), "pages": sum(1 for p in files if p.suffix == ".html"), "raw": raw, "gzip": compressed,
            "index_raw": len(index), "index_gzip": len(gzip.compress(index, 9, mtime=0))}


def measure_search(out: Path, searches: int) -> dict | None:
    if not CHROMIUM.exists():
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        figures = page.evaluate("""([queries, runs]) => {
            const t0 = performance.now();
            const ranker = FloorSearch.load(window.FLOOR_INDEX);
            const load = performance.now() - t0;
            const rank = {}, typed = {};
            const box = document.getElementById("q");
            for (const q of queries) {
                for (let i = 0; i < 5; i++) ranker.rank(q, 8, 5);  // warm the JIT like a second keystroke would
                rank[q] = [];
                for (let i = 0; i < runs; i++) {
                    const s = performance.now(); ranker.rank(q, 8, 5); rank[q].push(performance.now() - s);
                }
                // As typed: the input event, ranking and drawing the result list.
                typed[q] = [];
                for (let i = 0; i < runs; i++) {
                    box.value = i % 2 ? q : q + " ";
                    const s = performance.now(); box.dispatchEvent(new Event("input")); typed[q].push(performance.now() - s);
                }
            }
            return {load, rank, typed};
        }""", [QUERIES, searches])
        browser.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="builds to time (default 5)")
    parser.add_argument("--searches", type=int, default=50, help="searches per query to time (default 50)")
    parser.add_argument("--keep", type=Path, help="build into this folder and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = (args.keep or Path(tmp) / "_site").resolve()
        build = measure_build(args.runs, out)
        sizes = site_sizes(out)
        search = measure_search(out, args.searches)
    report = build["report"]
    print(f"site: {sizes['pages']} pages, {sizes['files']} files; quiz {report.quiz_items} items ({report.quiz_source})")
    print(f"build (build_site, warm corpus): median {median(build['library_s']):.2f} s, max {max(build['library_s']):.2f} s over {args.runs}"
          f"   [budget {BUDGETS['build_s']} s]")
    print(f"build (`python -m floorcall site build`): median {median(build['command_s']):.2f} s, max {max(build['command_s']):.2f} s")
    print(f"search index: {sizes['index_raw'] / 1024:.1f} KB raw, {sizes['index_gzip'] / 1024:.1f} KB gzipped"
          f"   [budget {BUDGETS['index_gzip_kb']:.0f} KB gzipped]")
    print(f"total site: {sizes['raw'] / 1024 / 1024:.2f} MB raw, {sizes['gzip'] / 1024 / 1024:.2f} MB gzipped file by file")
    if search is None:
        print("in-browser search: skipped (no /usr/bin/chromium)")
        return 0
    print(f"in-browser: index parsed and ranker built in {search['load']:.1f} ms")
    for query in QUERIES:
        rank, typed = search["rank"][query], search["typed"][query]
        print(f"in-browser search '{query}': rank median {median(rank):.2f} ms, p95 {p95(rank):.2f} ms, max {max(rank):.2f} ms; "
              f"as typed (rank + draw) median {median(typed):.2f} ms, p95 {p95(typed):.2f} ms   [budget {BUDGETS['search_ms']:.0f} ms]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
