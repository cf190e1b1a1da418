"""Measure the static site: build time, sizes, in-browser search time, and the table-side figures
on a slow phone: home first paint and search-ready time, keystrokes + taps (and time) to two rulings,
the quiz's first question, and gzipped page weights per page type.

    uv run python bench/site_bench.py [--runs 5] [--searches 50] [--phone-runs 3] [--keep DIR]

Figures are printed, never asserted (tests check budgets by size, not by time). The browser part
drives Debian's Chromium through Playwright, as the browser tests do, and is skipped without it.

The phone figures use the slow-mobile profile Lighthouse simulates (RTT 150 ms, 1.6 Mbit/s down,
750 kbit/s up, CPU 4x slower), applied through the DevTools protocol
(Network.emulateNetworkConditions + Emulation.setCPUThrottlingRate), on a 390 x 844 touch screen,
from a loopback server that gzips like a normal web host, with no service worker (a cold first visit).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "cli"))

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# Three-word queries as typed at the table: plain, slangy, and one with a typo (typo expansion is the costly path).
QUERIES = ["tossed big chip", "acted out turn", "overchpi facing bet"]
BUDGETS = {"build_s": 3.0, "index_gzip_kb": 70.0, "search_ms": 50.0, "quiz_first_s": 1.0}
# Lighthouse's slow-mobile ("Slow 4G") profile, applied per request by DevTools.
SLOW_MOBILE = {"latency_ms": 150, "down_kbps": 1600, "up_kbps": 750, "cpu_slowdown": 4}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}
# The two table-side tasks of the site review: what the floorperson types, where the ruling is, the answers to tap.
TASKS = [
    {"query": "player raised out of turn", "situation": "action-out-of-turn",
     "answers": [["oot-action", "acted"], ["correct-player", "no-change"]]},
    {"query": "dealer exposed a card while dealing", "situation": "dealer-exposed-holecard",
     "answers": [["which-card", "second-card"]]},
]
PAGE_TYPES = {
    "home": "index.html", "situation": "situations/dealer-exposed-holecard.html", "rule": "rules/tda-2024/35.html",
    "situations index": "situations/index.html", "source index": "rules/tda-2024/index.html",
    "quiz": "quiz/index.html", "compare": "compare/dttf-vs-tda-2024.html", "offline page": "offline.html",
}


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


# ---------------------------------------------------------------- the phone at the table

class GzipServer:
    """A loopback http server for the built site that gzips every response, as a web host would."""

    def __init__(self, folder: Path):
        packed: dict[str, bytes] = {}

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def handle(self):
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the browser closed the page before the answer was sent

            def do_GET(self):
                path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
                file = folder / path
                if path.endswith("/"):
                    file = file / "index.html"
                if "gzip" not in self.headers.get("Accept-Encoding", "") or not file.is_file():
                    return super().do_GET()
                if path not in packed:
                    packed[path] = gzip.compress(file.read_bytes(), 6, mtime=0)
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(file)))
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(packed[path])))
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                self.wfile.write(packed[path])

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# Times (ms since navigation start) at which things first appear, recorded in the page itself.
WATCH = """(() => {
  const seen = window.benchSeen = {};
  const marks = {results: '#results .hits a', choice: '#quiz-item .choice', verdict: '#walker .walk-ruling .verdict'};
  new MutationObserver(() => {
    for (const [name, selector] of Object.entries(marks)) if (!seen[name] && document.querySelector(selector)) seen[name] = performance.now();
  }).observe(document, {subtree: true, childList: true});
})();"""


def slow_phone(browser):
    """A fresh phone context and page under the slow-mobile profile (no service worker: a first visit)."""
    context = browser.new_context(**PHONE, service_workers="block")
    context.add_init_script(WATCH)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": SLOW_MOBILE["latency_ms"],
        "downloadThroughput": SLOW_MOBILE["down_kbps"] * 1000 / 8, "uploadThroughput": SLOW_MOBILE["up_kbps"] * 1000 / 8})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_MOBILE["cpu_slowdown"]})
    return context, page


def home_figures(browser, base: str) -> dict:
    """First contentful paint, and when a word typed at first paint shows its results (search ready)."""
    context, page = slow_phone(browser)
    page.goto(base + "index.html", wait_until="commit")
    page.locator("#q").wait_for()
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
    fcp = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    enabled = page.evaluate("() => !document.getElementById('q').disabled")
    page.locator("#q").tap()
    page.keyboard.type("overchip")
    page.wait_for_function("() => window.benchSeen.results")
    ready = page.evaluate("() => window.benchSeen.results")
    context.close()
    return {"fcp_ms": fcp, "search_ready_ms": ready, "usable_at_first_paint": enabled}


def task_figures(browser, base: str, task: dict) -> dict:
    """Keystrokes and taps from the home page to the ruling, typing until the situation is first,
    then taking the shortest way there (a preview's answer when the result offers one); and the time."""
    context, page = slow_phone(browser)
    page.goto(base + "index.html")
    page.wait_for_function("() => typeof FloorSearch !== 'undefined' && window.FLOOR_PREVIEWS")
    target = f"situations/{task['situation']}.html"
    started = time.perf_counter()
    page.locator("#q").tap()
    taps, keys = 1, 0
    for char in task["query"]:
        page.keyboard.type(char)
        keys += 1
        first = page.locator("#results .hits a.hit").first
        if first.count() and first.get_attribute("href") == target:
            break
    else:
        context.close()
        return {"found": False, "keys": keys}
    start_question, start_answer = task["answers"][0]
    preview = page.locator(f'#results a.preview-answer[href="{target}#{start_question}={start_answer}"]')
    if preview.count():
        preview.tap()
        taps += 1
        remaining = task["answers"][1:]
    else:
        page.locator("#results .hits a.hit").first.tap()
        taps += 1
        remaining = task["answers"]
    page.wait_for_url(f"**/{target}*")
    for question, answer in remaining:
        page.wait_for_selector("#walker button.answer-button")
        hash_before = page.evaluate("() => location.hash")
        page.locator(f'#walker button.answer-button[data-step="{question}={answer}"]').tap()
        page.wait_for_function("h => location.hash !== h", arg=hash_before)
        taps += 1
    page.locator("#walker .walk-ruling .verdict").first.wait_for()
    seconds = time.perf_counter() - started
    verdict_top = page.locator("#walker .walk-ruling .verdict").first.evaluate("el => el.getBoundingClientRect().top")
    context.close()
    return {"found": True, "keys": keys, "taps": taps, "typed": task["query"][:keys], "machine_s": seconds, "verdict_top": verdict_top}


def quiz_figures(browser, base: str) -> dict:
    context, page = slow_phone(browser)
    page.goto(base + "quiz/index.html", wait_until="commit")
    page.wait_for_function("() => window.benchSeen && window.benchSeen.choice", timeout=60_000)
    first = page.evaluate("() => window.benchSeen.choice")
    item = page.locator("#quiz-item").get_attribute("data-item")
    context.close()
    return {"first_question_ms": first, "item": item}


def page_weights(browser, base: str, out: Path) -> dict:
    """Per page type: what a first visit downloads until the page has loaded (and its idle follow-ups), gzipped."""
    weights = {}
    for name, path in PAGE_TYPES.items():
        context = browser.new_context(**PHONE, service_workers="block")
        page = context.new_page()
        fetched: list[str] = []
        page.on("request", lambda request, fetched=fetched: fetched.append(request.url))
        page.goto(base + path, wait_until="networkidle")
        files = sorted({u.split("#", 1)[0].split("?", 1)[0].removeprefix(base) or "index.html" for u in fetched if u.startswith(base)})
        sizes = [(f, (out / f).stat().st_size, len(gzip.compress((out / f).read_bytes(), 6, mtime=0))) for f in files if (out / f).is_file()]
        weights[name] = {"requests": len(sizes), "raw": sum(s[1] for s in sizes), "gzip": sum(s[2] for s in sizes),
                         "html_gzip": sizes[[s[0] for s in sizes].index(path)][2] if path in [s[0] for s in sizes] else 0}
        context.close()
    return weights


def attempt(measure, *args) -> dict:
    """A figure, or why it could not be taken (an older build lacks what the step looks for)."""
    try:
        return measure(*args)
    except Exception as error:  # a bench reports every failure and carries on
        return {"found": False, "error": str(error).splitlines()[0][:120]}


def measure_phone(out: Path, runs: int) -> dict | None:
    if not CHROMIUM.exists():
        return None
    from playwright.sync_api import sync_playwright

    server = GzipServer(out)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            figures = {
                "home": [attempt(home_figures, browser, server.base) for _ in range(runs)],
                "tasks": [[attempt(task_figures, browser, server.base, task) for _ in range(runs)] for task in TASKS],
                "quiz": [attempt(quiz_figures, browser, server.base) for _ in range(runs)],
                "weights": page_weights(browser, server.base, out),
            }
            browser.close()
    finally:
        server.stop()
    return figures


def print_phone(phone: dict | None, runs: int) -> None:
    if phone is None:
        print("phone at the table: skipped (no /usr/bin/chromium)")
        return
    p = SLOW_MOBILE
    print(f"phone at the table (390x844 touch, slow mobile: {p['latency_ms']} ms RTT, {p['down_kbps'] / 1000} Mbit/s down, "
          f"CPU {p['cpu_slowdown']}x; gzip; first visit; median of {runs}):")
    home = [h for h in phone["home"] if "error" not in h]
    if not home:
        print(f"  home: not measurable ({phone['home'][0]['error']})")
    else:
        print(f"  home: first contentful paint {median([h['fcp_ms'] for h in home]):.0f} ms; search box usable at first paint: "
              f"{all(h['usable_at_first_paint'] for h in home)}; results for a word typed at first paint at "
              f"{median([h['search_ready_ms'] for h in home]):.0f} ms (search ready)")
    for task, results in zip(TASKS, phone["tasks"], strict=True):
        found = [r for r in results if r["found"]]
        if not found:
            print(f"  '{task['query']}': not measured ({results[0].get('error') or task['situation'] + ' never came first'})")
            continue
        r = found[0]
        print(f"  '{task['query']}' -> {task['situation']}: {r['keys']} keystrokes ('{r['typed']}') + {r['taps']} taps; "
              f"machine time {median([x['machine_s'] for x in found]):.2f} s; verdict top at y={r['verdict_top']:.0f} of 844")
    quiz = [q for q in phone["quiz"] if "error" not in q]
    if quiz:
        print(f"  quiz: first question at {median([q['first_question_ms'] for q in quiz]):.0f} ms   [budget {BUDGETS['quiz_first_s'] * 1000:.0f} ms]; "
              f"first items: {', '.join(str(q['item']) for q in quiz)}")
    print("  page weights on a first visit (every file the page fetches until the network is idle):")
    for name, w in phone["weights"].items():
        print(f"    {name:17s} {w['requests']:2d} requests, {w['raw'] / 1024:7.1f} KB raw, {w['gzip'] / 1024:6.1f} KB gzipped "
              f"(page itself {w['html_gzip'] / 1024:.1f} KB)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="builds to time (default 5)")
    parser.add_argument("--searches", type=int, default=50, help="searches per query to time (default 50)")
    parser.add_argument("--phone-runs", type=int, default=3, help="slow-phone runs per figure (default 3; 0 skips them)")
    parser.add_argument("--keep", type=Path, help="build into this folder and keep it")
    parser.add_argument("--site", type=Path, help="only the phone figures, of a site already built there (an older build, to compare)")
    args = parser.parse_args()
    if args.site:
        print_phone(measure_phone(args.site.resolve(), max(1, args.phone_runs)), max(1, args.phone_runs))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = (args.keep or Path(tmp) / "_site").resolve()
        build = measure_build(args.runs, out)
        sizes = site_sizes(out)
        search = measure_search(out, args.searches)
        phone = measure_phone(out, args.phone_runs) if args.phone_runs else None
    report = build["report"]
    print(f"site: {sizes['pages']} pages, {sizes['files']} files; quiz {report.quiz_items} items ({report.quiz_source})")
    print(f"build (build_site, warm corpus): median {median(build['library_s']):.2f} s, max {max(build['library_s']):.2f} s over {args.runs}"
          f"   [budget {BUDGETS['build_s']} s]")
    print(f"build (`python -m floorcall site build`): median {median(build['command_s']):.2f} s, max {max(build['command_s']):.2f} s")
    print(f"search index: {sizes['index_raw'] / 1024:.1f} KB raw, {sizes['index_gzip'] / 1024:.1f} KB gzipped"
          f"   [budget {BUDGETS['index_gzip_kb']:.0f} KB gzipped]")
    print(f"total site: {sizes['raw'] / 1024 / 1024:.2f} MB raw, {sizes['gzip'] / 1024 / 1024:.2f} MB gzipped file by file")
    print_phone(phone, args.phone_runs)
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
