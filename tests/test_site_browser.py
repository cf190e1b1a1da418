"""The site in a real browser (Playwright + Debian's Chromium): search, walk, quiz, marks, file:// and offline."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import REPO, eval_queries
from floorcall.engines.lookup import rank
from floorcall.publish import sitegen

CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps trying to reach Google from a closed network (tech-notes).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is not at /usr/bin/chromium "
                       "(apt-get install chromium; never `playwright install`)"),
    # pytest-playwright 0.10's base_url fixture trips a pytest 9 deprecation (tech-notes); not ours to fix.
    pytest.mark.filterwarnings("ignore::pytest.PytestRemovedIn10Warning"),
]
expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def site(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser-site") / "_site"
    sitegen.build_site(corpus, out, REPO)
    return out


@pytest.fixture(scope="module")
def url(site):
    """file:// addresses of the built site: the way a phone opens a downloaded copy."""
    return lambda path: f"{site.as_uri()}/{path}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path):
    """`python -m http.server` on a free loopback port; returns (process, base url)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("http.server exited at start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("http.server did not start")


def stop_server(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()


def watch_errors(page) -> list[str]:
    """Console errors and uncaught exceptions (a CSP violation is a console error)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


# ---------------------------------------------------------------- search

def test_search_finds_the_situation_as_you_type(page, url):
    """Typing a few words lists the right situation first, with its primary rule; Enter opens it."""
    page.goto(url("index.html"))
    page.locator("#q").press_sequentially("tossed one big chip in")
    first = page.locator("#results .hits a").first
    expect(first).to_have_attribute("href", "situations/overchip-facing-bet.html")
    expect(first.locator(".hit-cite")).to_contain_text("TDA 2024 Rule 44")
    expect(page).to_have_url(re.compile(r"#q=tossed\+one\+big\+chip\+in$"))
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(r"situations/overchip-facing-bet\.html$"))


def test_search_in_the_browser_matches_python_on_every_dev_case(page, url, corpus):
    """Chromium's run of search.js puts the same situation first as lookup.rank for every dev case."""
    queries = eval_queries()
    page.goto(url("index.html"))
    tops = page.evaluate("""queries => {
        const ranker = FloorSearch.load(window.FLOOR_INDEX);
        return queries.map(q => { const r = ranker.rank(q, 5, 3); return r.situations.length ? r.situations[0].id : null; });
    }""", queries)
    expected = [(rank(corpus["index"], q).situations or [None])[0] for q in queries]
    assert tops == [hit.id if hit else None for hit in expected]


def top_path(corpus, query: str) -> str:
    """Where the first search result should point: lookup.rank's top situation."""
    return sitegen.situation_path(rank(corpus["index"], query).situations[0].id)


def test_search_address_restores_the_query(page, url, corpus):
    """A shared #q= address fills the box and shows the results."""
    page.goto(url("index.html#q=overchip"))
    expect(page.locator("#q")).to_have_value("overchip")
    expect(page.locator("#results .hits a").first).to_have_attribute("href", top_path(corpus, "overchip"))


# ---------------------------------------------------------------- walking a situation

def test_walk_reaches_a_ruling_and_its_rule_link_opens(page, url, corpus):
    """Clicking answers reaches the ruling; its first citation opens the rule's page."""
    situation = corpus["situations"]["overchip-facing-bet"]
    silent = situation["questions"]["declared"]["answers"]["silent"]
    outcome = situation["outcomes"][silent["next"]]
    page.goto(url("situations/overchip-facing-bet.html"))
    page.get_by_role("link", name=silent["label"], exact=True).click()
    expect(page).to_have_url(re.compile(r"#declared=silent$"))
    expect(page.locator("#walker .position.applied .verdict")).to_have_text(outcome["ruling"])
    page.locator("#walker .position.applied .cites a").first.click()
    expect(page).to_have_url(re.compile(re.escape(sitegen.rule_path(outcome["cite"][0])) + "$"))
    expect(page.locator("h1")).to_have_text(corpus["rules"][outcome["cite"][0]]["title"])


def test_walk_back_restart_and_shared_address(page, url, corpus):
    """An answered address opens on its ruling; Back returns to the question; Restart to the start."""
    situation = corpus["situations"]["overchip-facing-bet"]
    page.goto(url("situations/overchip-facing-bet.html#declared=said-raise"))
    expect(page.locator("#walker .position.applied .verdict")).to_have_text(situation["outcomes"]["raise-max"]["ruling"])
    page.locator("#walker a.back").click()
    expect(page.locator("#walker h2.ask")).to_have_text(situation["questions"]["declared"]["ask"])
    expect(page.locator("#walker a.answer-button")).to_have_count(len(situation["questions"]["declared"]["answers"]))
    page.go_back()
    expect(page.locator("#walker .verdict").first).to_have_text(situation["outcomes"]["raise-max"]["ruling"])
    page.locator("#walker a.restart").click()
    expect(page.locator("#walker h2.ask")).to_have_text(situation["questions"]["declared"]["ask"])


def test_pure_tda_toggle_shows_the_tda_ruling(page, url, corpus):
    """Where the house and TDA 2024 differ, the toggle switches the applied ruling and keeps it in the address."""
    situation, scenario = next((s, sc) for s in corpus["situations"].values() for sc in s.get("scenarios") or []
                               if (s["outcomes"][sc["expect"]].get("tda") or {}).get("ruling"))
    outcome = situation["outcomes"][scenario["expect"]]
    answers = "&".join(f"{q}={a}" for q, a in scenario["given"].items())
    page.goto(url(f"{sitegen.situation_path(situation['id'])}#{answers}"))
    expect(page.locator("#walker .position.applied .verdict")).to_have_text(outcome["ruling"])
    expect(page.locator("#walker .position.other .verdict")).to_have_text(outcome["tda"]["ruling"])
    page.locator("#walker a.switch").click()
    expect(page).to_have_url(re.compile(r"house=none$"))
    expect(page.locator("#walker .position.applied .verdict")).to_have_text(outcome["tda"]["ruling"])


def test_without_javascript_the_tree_shows_every_ruling(browser, url, corpus):
    """With JavaScript off the walk is hidden and the nested details hold every question and ruling."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    situation = corpus["situations"]["overchip-facing-bet"]
    page.goto(url("situations/overchip-facing-bet.html"))
    expect(page.locator("#walker")).to_be_hidden()
    expect(page.locator("#tree .ask").first).to_have_text(situation["questions"]["declared"]["ask"])
    page.locator("#tree summary").first.click()
    expect(page.locator("#tree details[open] .verdict").first).to_be_visible()
    tree_text = page.locator("#tree").text_content()
    assert all(o["ruling"] in tree_text for o in situation["outcomes"].values())
    context.close()


# ---------------------------------------------------------------- quiz, marks, Hold'em mode

FIELD = "(name) => window.FLOOR_QUIZ.fields.indexOf(name)"
SHOWN_ITEM = """() => {
  const data = window.FLOOR_QUIZ, id = document.getElementById("quiz-item").getAttribute("data-item");
  const row = data.items.find((r) => r[0] === id), f = (n) => row[data.fields.indexOf(n)];
  return {id: id, answers: f("answers"), choices: f("choices").length, kind: f("kind")};
}"""


def stored(page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('floorcall:quiz'))")


def test_practice_schedules_by_fsrs_and_keeps_it(page, url):
    """A right answer: feedback citing the rule, its walk, when it comes back (FSRS: 10 minutes); the card is the terminal's; a reload keeps it."""
    from datetime import datetime

    from floorcall.engines import schedule

    page.goto(url("quiz/index.html"))
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r"^Due now: 0 · new left today: 20 · seen 0/\d+$"))
    shown = page.evaluate(SHOWN_ITEM)
    if shown["kind"] == "select-all":
        for n in shown["answers"]:
            page.locator("#quiz-item .choice").nth(n).click()
        page.locator("#quiz-item .check").click()
    else:
        page.locator("#quiz-item .choice").nth(shown["answers"][0]).click()
    expect(page.locator(".feedback.right")).to_be_visible()
    expect(page.locator(".feedback .cites a").first).to_have_attribute("href", re.compile(r"^\.\./rules/"))
    expect(page.locator(".feedback .walk code")).to_contain_text("floor ")
    expect(page.locator(".feedback .due")).to_have_text("Comes back in 10 min.")
    card = stored(page)["cards"][shown["id"]]
    when = datetime.fromisoformat(card["last_review"].replace("Z", "+00:00"))
    expected = schedule.review(None, schedule.GOOD, when)
    assert datetime.fromisoformat(card["due"].replace("Z", "+00:00")) == expected.due and card["state"] == expected.state
    page.locator('.rate[data-rating="4"]').click()  # it was easy
    expect(page.locator(".feedback .due")).to_have_text(re.compile(r"^Comes back in \d+ days\.$"))
    easy = schedule.review(None, schedule.EASY, when)
    assert datetime.fromisoformat(stored(page)["cards"][shown["id"]]["due"].replace("Z", "+00:00")) == easy.due
    page.reload()
    expect(page.locator(".feedback.right")).to_be_visible()
    page.locator(".feedback .next").click()
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r" · seen 1/\d+ · right 100%$"))
    assert page.evaluate(SHOWN_ITEM)["id"] != shown["id"]


def test_a_wrong_answer_comes_back_in_a_minute(page, url):
    """A miss shows the right answer and is due again after the first learning step."""
    page.goto(url("quiz/index.html"))
    shown = page.evaluate(SHOWN_ITEM)
    wrong = next(n for n in range(shown["choices"]) if n not in shown["answers"])
    page.locator("#quiz-item .choice").nth(wrong).click()
    if shown["kind"] == "select-all":
        page.locator("#quiz-item .check").click()
    expect(page.locator(".feedback.wrong")).to_be_visible()
    expect(page.locator(".feedback .verdict")).to_contain_text("Not quite: the answer is")
    expect(page.locator(".feedback .due")).to_have_text("Comes back in 1 min.")
    expect(page.locator(".feedback .rate")).to_have_count(0)


def test_old_progress_is_carried_forward(page, url):
    """A browser with the old quiz store ({answers}) keeps every answer: each becomes an FSRS card, the old answers kept too."""
    page.goto(url("quiz/index.html"))
    first = page.evaluate("() => { const d = window.FLOOR_QUIZ; return [d.items[0][0], d.items[0][d.fields.indexOf('answer')]]; }")
    page.evaluate("(v) => localStorage.setItem('floorcall:quiz', JSON.stringify({answers: {[v[0]]: v[1]}, topic: ''}))", first)
    page.reload()
    data = stored(page)
    assert data["version"] == 2 and data["v1"] == {first[0]: first[1]}
    assert data["cards"][first[0]]["seen"] == 1 and data["log"][0][2] == 3


EXAM_ANSWER = """() => {
  const data = window.FLOOR_QUIZ, run = JSON.parse(localStorage.getItem('floorcall:quiz')).exam;
  const paper = data.exam.papers.find((p) => p.seed === run.seed), row = paper.items[run.position];
  const item = data.items[row[0]], answers = item[data.fields.indexOf("answers")];
  return answers.map((a) => row[1].indexOf(a));
}"""


def test_the_exam_counts_down_and_grades_at_the_end(page, url):
    """The exam: 40 questions, a countdown from 1:40:00, no feedback while it runs, a reload keeps the place; then PASS and each topic."""
    page.goto(url("quiz/index.html"))
    page.locator("#mode-exam").click()
    page.locator(".start-exam").click()
    expect(page.locator("#exam-clock")).to_have_text(re.compile(r"^1:(40:00|39:5\d) left$"))
    expect(page.locator("#quiz-item .topic")).to_contain_text("Question 1 of 40")
    for number in range(40):
        if number == 2:
            page.reload()
            expect(page.locator("#quiz-item .topic")).to_contain_text("Question 3 of 40")
        for choice in page.evaluate(EXAM_ANSWER):
            page.locator("#quiz-item .choice").nth(choice).click()
        assert page.locator(".feedback").count() == 0
        page.locator("#quiz-item .next").click()
    expect(page.locator(".exam-score")).to_have_text("Exam score: 40 of 40 (100%) — PASS (pass mark 90%)")
    expect(page.locator("table.by-topic tr")).to_have_count(9)  # the heading and eight topics
    expect(page.locator(".missed")).to_have_count(0)
    assert stored(page)["exams"][0]["passed"] is True


def test_an_exam_out_of_time_is_graded_as_it_stands(page, url):
    """Come back after the time is up: the exam is over, graded with what was answered, and says the time ran out."""
    page.goto(url("quiz/index.html"))
    page.locator("#mode-exam").click()
    page.locator(".start-exam").click()
    page.evaluate("""() => { const p = JSON.parse(localStorage.getItem('floorcall:quiz'));
      p.exam.started = new Date(Date.now() - 101 * 60000).toISOString(); localStorage.setItem('floorcall:quiz', JSON.stringify(p)); }""")
    page.reload()
    expect(page.locator(".exam-score")).to_have_text("Exam score: 0 of 40 (0%) — FAIL (pass mark 90%)")
    expect(page.locator("#quiz-item")).to_contain_text("(time ran out)")
    expect(page.locator(".missed")).to_have_count(40)
    expect(page.locator(".missed .cites a").first).to_have_attribute("href", re.compile(r"^\.\./rules/"))


def test_reading_marks_count_per_edition(page, url, corpus):
    """Opening a rule marks it; its source page counts it (Viewed · 1/N) and ticks it; unmarking works."""
    total = sum(1 for r in corpus["rules"].values() if r["source"] == "tda-2024")
    page.goto(url("rules/tda-2024/44.html"))
    expect(page.locator(".mark-state")).to_contain_text("Marked as viewed")
    page.goto(url("rules/tda-2024/index.html"))
    expect(page.locator(".viewed")).to_have_text(f"Viewed · 1/{total}")
    expect(page.locator('li[data-rule-id="tda-2024:44"]')).to_have_class(re.compile(r"\bseen\b"))
    page.goto(url("rules/index.html"))
    expect(page.locator('[data-viewed-source="dttf"]')).to_have_text(re.compile(r"^Viewed · 0/"))
    page.goto(url("rules/tda-2024/44.html"))
    page.locator("#mark-toggle").click()
    expect(page.locator(".mark-state")).to_contain_text("Not marked")
    page.goto(url("rules/tda-2024/index.html"))
    expect(page.locator(".viewed")).to_have_text(f"Viewed · 0/{total}")


def test_holdem_mode_groups_other_games_apart(page, url, corpus):
    """Hold'em mode hides stud/draw-only rules from their sections and shows them grouped at the end, and is remembered."""
    other = next(r for r in corpus["rules"].values() if not sitegen._holdem_relevant(r))
    page.goto(url(sitegen.source_path(other["source"])))
    in_section = page.locator(f'.group:not(.other-games) li[data-rule-id="{other["id"]}"]')
    grouped = page.locator(f'#other-games li[data-rule-id="{other["id"]}"]')
    expect(in_section).to_be_visible()
    expect(grouped).to_be_hidden()
    page.locator("#holdem-toggle").click()
    expect(page.locator("#holdem-toggle")).to_have_attribute("aria-pressed", "true")
    expect(in_section).to_be_hidden()
    expect(grouped).to_be_visible()
    page.reload()
    expect(grouped).to_be_visible()


# ---------------------------------------------------------------- file:// and offline

def test_file_protocol_pages_run_without_errors(page, url):
    """Opened from disk, every kind of page runs its scripts with no console error or CSP violation."""
    errors = watch_errors(page)
    for path in ("index.html#q=overchip", "situations/index.html", "situations/overchip-facing-bet.html#declared=silent",
                 "rules/index.html", "rules/tda-2024/index.html", "rules/tda-2024/44.html", "rules/dttf/exposed-holecard.html",
                 "compare/dttf-vs-tda-2024.html", "compare/tda-2019-to-2024.html", "quiz/index.html"):
        page.goto(url(path))
        page.wait_for_load_state("load")
    expect(page.locator("#quiz")).to_be_visible()
    assert errors == []
    assert page.evaluate("() => location.protocol") == "file:"


def test_service_worker_serves_the_site_with_the_network_off(context, site, corpus):
    """Over http the service worker precaches every file; with the network off and the server gone, pages still load."""
    process, base = start_server(site)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(base + "index.html")
        cached = page.evaluate("""async () => {
            await navigator.serviceWorker.ready;
            const names = await caches.keys();
            const cache = await caches.open(names.find(n => n.startsWith("floorcall-")));
            return (await cache.keys()).length;
        }""")
        precache = re.search(r"var FILES = (\[.*?\]);", (site / "sw.js").read_text(), re.S).group(1)
        assert cached == len(yaml.safe_load(precache))
    finally:
        stop_server(process)
    context.set_offline(True)
    page.reload()
    page.locator("#q").fill("overchip")
    expect(page.locator("#results .hits a").first).to_have_attribute("href", top_path(corpus, "overchip"))
    page.goto(base + "rules/wpa/oversized-chip.html")  # never visited online
    expect(page.locator("h1")).to_have_text(corpus["rules"]["wpa:oversized-chip"]["title"])
    page.goto(base)  # a folder address is its index.html
    expect(page.locator("#q")).to_be_visible()
    assert errors == []


# ---------------------------------------------------------------- layout: dark mode and the print card

def test_dark_mode_follows_the_system(browser, url):
    """With the system in dark mode the page is dark; in light mode it is light."""
    backgrounds = {}
    for scheme in ("dark", "light"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(url("index.html"))
        backgrounds[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        context.close()
    darkness = {k: sum(int(n) for n in re.findall(r"\d+", v)[:3]) for k, v in backgrounds.items()}
    assert darkness["dark"] < 150 < darkness["light"]


def test_the_largest_situation_prints_as_one_page_card(page, url, corpus):
    """Printed, the biggest tree is one A4 page showing only its card."""
    biggest = max(corpus["situations"].values(), key=lambda s: len(s["questions"]) * 2 + len(s["outcomes"]))
    page.goto(url(sitegen.situation_path(biggest["id"])))
    page.emulate_media(media="print")
    expect(page.locator(".card")).to_be_visible()
    expect(page.locator("#walker")).to_be_hidden()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
