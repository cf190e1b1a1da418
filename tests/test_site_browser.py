"""The site in a real browser (Playwright + Debian's Chromium): search, walk, quiz, marks, display
settings, file://, offline, and axe-core's accessibility rules on every kind of page in both themes."""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO, eval_queries
from floorcall.engines.lookup import rank
from floorcall.publish import sitegen

CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps trying to reach Google from a closed network (tech-notes).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE = REPO / "tests" / "browser-deps" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
KEYBOARD_UP = {"width": 390, "height": 508}  # the 844 px phone screen with its on-screen keyboard open
TARGET_PX = 44

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


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every `page` and `context` is a phone (390 x 844, touch): the site is used at the table."""
    return {**browser_context_args, **PHONE}


@pytest.fixture(scope="module")
def site(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser-site") / "_site"
    sitegen.build_site(corpus, out, REPO)
    return out


@pytest.fixture(scope="module")
def url(site):
    """file:// addresses of the built site: the way a phone opens a downloaded copy."""
    return lambda path: f"{site.as_uri()}/{path}"


@pytest.fixture
def phone(browser):
    """A page in a phone-sized touch browser (390 x 844 CSS px), closed after the test."""
    contexts = []

    def open_page(**options):
        context = browser.new_context(**{**PHONE, **options})
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


# ---------------------------------------------------------------- a small web server, flaky on request

class SiteServer:
    """A loopback http server for one folder, in a thread. `fail[path] = n` answers 503 to the first n
    requests for path, `missing` answers 404, `slow[path] = s` waits s seconds first; `requests` logs paths."""

    def __init__(self, folder: Path):
        self.fail: dict[str, int] = {}
        self.missing: set[str] = set()
        self.slow: dict[str, float] = {}
        self.requests: list[str] = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?", 1)[0].lstrip("/")
                server.requests.append(path)
                time.sleep(server.slow.get(path, 0))
                if path in server.missing:
                    return self.send_error(404)
                if server.fail.get(path, 0) > 0:
                    server.fail[path] -= 1
                    return self.send_error(503)
                return super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(site):
    running = SiteServer(site)
    yield running
    running.stop()


def watch_errors(page) -> list[str]:
    """Console errors and uncaught exceptions (a CSP violation is a console error)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def top_path(corpus, query: str) -> str:
    """Where the first search result should point: lookup.rank's top situation."""
    return sitegen.situation_path(rank(corpus["index"], query).situations[0].id)


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


def test_search_address_restores_the_query(page, url, corpus):
    """A shared #q= address fills the box and shows the results."""
    page.goto(url("index.html#q=overchip"))
    expect(page.locator("#q")).to_have_value("overchip")
    expect(page.locator("#results .hits a").first).to_have_attribute("href", top_path(corpus, "overchip"))


def test_half_typed_word_matches_and_four_results_show_above_the_keyboard(phone, url):
    """On a phone with the keyboard up, "…out of tu" already puts the out-of-turn situation first, the
    intro gives way, and at least four results show whole above the keyboard."""
    page = phone()
    page.goto(url("index.html"))
    page.set_viewport_size(KEYBOARD_UP)
    page.locator("#q").tap()
    page.locator("#q").press_sequentially("player raised out of tu")
    expect(page.locator("#results .hits a.hit").first).to_have_attribute("href", "situations/action-out-of-turn.html")
    expect(page.locator(".hero")).to_be_hidden()
    bottoms = page.locator("#results .hits a.hit").evaluate_all("links => links.map(a => a.getBoundingClientRect().bottom)")
    assert sum(1 for bottom in bottoms if bottom <= KEYBOARD_UP["height"]) >= 4, bottoms


def test_a_synonym_finds_the_exposed_card_and_its_preview_rules_in_one_tap(phone, url, corpus):
    """"dealer showed a card" finds the exposed hole card first; its preview's answers, compact enough that four
    results still show above the keyboard, open the page on each ruling."""
    situation = corpus["situations"]["dealer-exposed-holecard"]
    question = situation["questions"][situation["start"]]
    answer_id, answer = list(question["answers"].items())[1]
    page = phone()
    page.goto(url("index.html"))
    page.set_viewport_size(KEYBOARD_UP)
    page.locator("#q").fill("dealer showed a card")
    expect(page.locator("#results .preview-answer").first).to_be_visible()
    bottoms = page.locator("#results .hits a.hit").evaluate_all("links => links.map(a => a.getBoundingClientRect().bottom)")
    assert sum(1 for bottom in bottoms if bottom <= KEYBOARD_UP["height"]) >= 4, bottoms
    page.set_viewport_size(PHONE["viewport"])
    expect(page.locator("#results .hits a.hit").first).to_have_attribute("href", "situations/dealer-exposed-holecard.html")
    previews = page.locator("#results .preview-answer")
    expect(previews).to_have_count(len(question["answers"]))
    expect(previews.nth(1).locator(".preview-ruling")).to_have_text(situation["outcomes"][answer["next"]]["ruling"])
    previews.nth(1).tap()
    expect(page).to_have_url(re.compile(re.escape(f"#{situation['start']}={answer_id}") + "$"))
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(situation["outcomes"][answer["next"]]["ruling"])


@pytest.mark.parametrize(
    "typed, rule_id",
    [("44", "tda-2024:44"), ("53-B", "tda-2024:53-B"), ("rule 35e", "tda-2024:35-E"), ("rp 10 h", "tda-2024:RP-10-H"),
     ("2019 rp-5", "tda-2019:RP-5"), ("rp-4", "tda-2024:RP-4")],
)
def test_a_rule_number_jumps_to_the_rule(page, url, corpus, typed, rule_id):
    """A rule number lists that rule first (then the situations citing it); Enter opens it, a part at its anchor."""
    page.goto(url("index.html"))
    page.locator("#q").fill(typed)
    first = page.locator("#results a").first
    expect(first).to_have_attribute("href", sitegen.rule_path(rule_id))
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(re.escape(sitegen.rule_path(rule_id)) + "$"))
    rule = corpus["rules"][rule_id]
    expect(page.locator("h1")).to_have_text(corpus["rules"].get(rule.get("parent"), rule)["title"])
    if rule.get("parent"):
        expect(page.locator(f'section.part[data-rule-part="{rule_id}"]')).to_be_in_viewport()


def test_a_weak_or_out_of_scope_query_says_so(page, url):
    """A query about another game says no situation fits (and why) and shows the closest rules first."""
    page.goto(url("index.html"))
    page.locator("#q").fill("blackjack payout")
    expect(page.locator("#results .weak")).to_contain_text("'blackjack' is outside what these rules decide")
    expect(page.locator("#results .results-head").first).to_have_text("Closest rules")


def test_every_page_has_a_search_box_in_its_header(page, url, corpus):
    """On a rule page the header's box searches too: results open under the header and Enter goes to the first."""
    page.goto(url("rules/tda-2024/44.html"))
    expect(page.locator("#results")).to_be_hidden()
    page.locator("#q").fill("overchip")
    expect(page.locator("#results")).to_be_visible()
    expect(page.locator("#results .hits a").first).to_have_attribute("href", "../../" + top_path(corpus, "overchip"))
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(re.escape(top_path(corpus, "overchip")) + "$"))


def test_the_search_box_takes_typing_before_the_scripts_arrive(page, server, corpus):
    """With the index slow to arrive, the box is usable at once; what was typed is searched when it lands."""
    server.slow["static/search-index.js"] = 1.5
    page.goto(server.base + "index.html", wait_until="commit")
    box = page.locator("#q")
    box.wait_for()
    expect(box).to_be_enabled()
    box.press_sequentially("overchip", delay=10)
    assert page.evaluate("() => typeof window.FLOOR_INDEX") == "undefined"  # typed before the index arrived
    expect(page.locator("#results .hits a").first).to_have_attribute("href", top_path(corpus, "overchip"))


# ---------------------------------------------------------------- walking a situation and the ruling screen

def test_walk_reaches_a_ruling_and_its_rule_link_opens(page, url, corpus):
    """Pressing answers reaches the ruling; the governing rule's link opens its page."""
    situation = corpus["situations"]["overchip-facing-bet"]
    silent = situation["questions"]["declared"]["answers"]["silent"]
    outcome = situation["outcomes"][silent["next"]]
    page.goto(url("situations/overchip-facing-bet.html"))
    page.get_by_role("button", name=silent["label"], exact=True).click()
    expect(page).to_have_url(re.compile(r"#declared=silent$"))
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(outcome["ruling"])
    page.locator("#walker .governing-head a").click()
    expect(page).to_have_url(re.compile(re.escape(sitegen.rule_path(outcome["cite"][0])) + "$"))
    expect(page.locator("h1")).to_have_text(corpus["rules"][outcome["cite"][0]]["title"])


def test_walk_back_restart_and_shared_address(page, url, corpus):
    """An answered address opens on its ruling; Back returns to the question; Restart to the start."""
    situation = corpus["situations"]["overchip-facing-bet"]
    page.goto(url("situations/overchip-facing-bet.html#declared=said-raise"))
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(situation["outcomes"]["raise-max"]["ruling"])
    page.locator("#walker button.back").click()
    expect(page.locator("#walker h2.ask")).to_have_text(situation["questions"]["declared"]["ask"])
    expect(page.locator("#walker button.answer-button")).to_have_count(len(situation["questions"]["declared"]["answers"]))
    page.go_back()
    expect(page.locator("#walker .verdict").first).to_have_text(situation["outcomes"]["raise-max"]["ruling"])
    page.locator("#walker button.restart").click()
    expect(page.locator("#walker h2.ask")).to_have_text(situation["questions"]["declared"]["ask"])


def test_pure_tda_toggle_shows_the_tda_ruling(page, url, corpus):
    """Where the house and TDA 2024 differ, the toggle switches the applied ruling and keeps it in the address."""
    situation, scenario = next((s, sc) for s in corpus["situations"].values() for sc in s.get("scenarios") or []
                               if (s["outcomes"][sc["expect"]].get("tda") or {}).get("ruling"))
    outcome = situation["outcomes"][scenario["expect"]]
    answers = "&".join(f"{q}={a}" for q, a in scenario["given"].items())
    page.goto(url(f"{sitegen.situation_path(situation['id'])}#{answers}"))
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(outcome["ruling"])
    expect(page.locator("#walker .position.other .verdict")).to_have_text(outcome["tda"]["ruling"])
    expect(page.locator("#walker .house-line")).to_contain_text(outcome["tda"]["ruling"])
    page.locator("#walker a.switch").click()
    expect(page).to_have_url(re.compile(r"house=none$"))
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(outcome["tda"]["ruling"])


def test_the_ruling_screen_puts_the_ruling_first(phone, url, corpus):
    """Verdict, the house-vs-TDA line, Back/Restart/Share, the governing rule's words, then the rest folded;
    on a phone the verdict, the line and the actions are all on the first screen."""
    page = phone()
    page.goto(url("situations/dealer-exposed-holecard.html#which-card=second-card"))
    order = page.locator("#walker .walk-ruling > *").evaluate_all("nodes => nodes.map(n => n.className)")
    assert order[:5] == ["ruling-head", "position applied", "house-line", "controls", "governing"], order
    assert order.index("more") > order.index("governing")
    for selector in (".walk-ruling > .position.applied .verdict", ".walk-ruling .house-line", "button.share", "button.back"):
        expect(page.locator(f"#walker {selector}")).to_be_in_viewport()
    expect(page.locator("#walker details.more")).not_to_have_attribute("open", "")
    expect(page.locator("#walker .cite-summary").first).to_be_hidden()
    situation = corpus["situations"]["dealer-exposed-holecard"]
    expect(page.locator("#walker .siblings a")).to_have_count(len(situation["siblings"]))


def test_an_opening_only_quote_is_followed_by_our_summary(page, url, corpus):
    """Where the governing rule is quoted only by its opening, the ruling screen follows the quote with our
    summary of the whole rule, as the terminal's first screen does (the deciding clause often comes later)."""
    situation, scenario, rule = next(
        (s, sc, corpus["rules"][s["outcomes"][sc["expect"]]["cite"][0]])
        for s in sorted(corpus["situations"].values(), key=lambda s: s["id"]) for sc in s.get("scenarios") or []
        if sitegen.governing_words(corpus["rules"][s["outcomes"][sc["expect"]]["cite"][0]]).get("summary"))
    answers = "&".join(f"{q}={a}" for q, a in scenario["given"].items())
    page.goto(url(f"{sitegen.situation_path(situation['id'])}#{answers}"))
    words = page.locator("#walker .walk-ruling > .governing .words")
    expect(words.first).to_have_text(rule["text"])
    expect(words.nth(1)).to_have_text("In our words: " + rule["summary"])


def test_share_copies_the_link_and_says_so(context, server):
    """Without Web Share, Share copies the ruling's address to the clipboard and shows "Link copied."."""
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base.rstrip("/"))
    page = context.new_page()
    page.goto(server.base + "situations/overchip-facing-bet.html#declared=silent")
    page.evaluate("() => { delete Navigator.prototype.share; }")
    page.locator("#walker button.share").click()
    expect(page.locator("#walker .share-status")).to_have_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url


def test_share_uses_web_share_where_the_browser_has_it(page, url):
    """Where the browser has Web Share, Share hands it the ruling's title, verdict and address."""
    page.add_init_script("navigator.share = data => { window.sharedWith = data; return Promise.resolve(); };")
    page.goto(url("situations/overchip-facing-bet.html#declared=silent"))
    page.locator("#walker button.share").click()
    expect(page.locator("#walker .share-status")).to_have_text("Shared.")
    shared = page.evaluate("() => window.sharedWith")
    assert shared["url"] == page.url and shared["text"].startswith("One oversized chip")


def test_focus_moves_to_the_next_question_then_to_the_ruling(page, url, corpus):
    """After each answer focus is on the new question, then on the ruling's heading, never back on the page."""
    situation = corpus["situations"]["action-out-of-turn"]
    page.goto(url("situations/action-out-of-turn.html"))
    page.get_by_role("button", name=situation["questions"]["oot-action"]["answers"]["acted"]["label"], exact=True).click()
    focused = page.locator(":focus")
    expect(focused).to_have_class("ask")
    expect(focused).to_have_text(situation["questions"]["correct-player"]["ask"])
    page.get_by_role("button", name=situation["questions"]["correct-player"]["answers"]["no-change"]["label"], exact=True).click()
    expect(page.locator(":focus")).to_have_class("ruling-head")


def test_keyboard_only_walk_with_space_and_enter(page, url, corpus):
    """With the keyboard alone: Tab to the answers, Space presses one, Tab, Enter presses the next: the ruling."""
    situation = corpus["situations"]["action-out-of-turn"]
    page.goto(url("situations/action-out-of-turn.html"))
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('answer-button')"):
            break
    first = situation["questions"]["oot-action"]["answers"]
    expect(page.locator(":focus")).to_have_text(list(first.values())[0]["label"])
    page.keyboard.press("Tab")  # the second answer: "acted" leads on to the next question
    page.keyboard.press("Space")
    expect(page.locator(":focus")).to_have_text(situation["questions"]["correct-player"]["ask"])
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    outcome = situation["outcomes"][situation["questions"]["correct-player"]["answers"]["no-change"]["next"]]
    expect(page.locator("#walker .walk-ruling > .position.applied .verdict")).to_have_text(outcome["ruling"])
    expect(page.locator(":focus")).to_have_class("ruling-head")


def test_without_javascript_the_tree_shows_every_ruling(browser, url, corpus):
    """With JavaScript off the walk is hidden and the nested details hold every question and ruling."""
    context = browser.new_context(**PHONE, java_script_enabled=False)
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


# ---------------------------------------------------------------- quiz

SHOWN_ITEM = """() => {
  const data = window.FLOOR_QUIZ, id = document.getElementById("quiz-item").getAttribute("data-item");
  const row = data.items.find((r) => r[0] === id), f = (n) => row[data.fields.indexOf(n)];
  return {id: id, answers: f("answers"), choices: f("choices").length, kind: f("kind"), ref: f("ref"), topic: f("topic")};
}"""
ALL_LOADED = "() => !window.FLOOR_QUIZ.rest && window.FLOOR_QUIZ.exam.papers.length > 0 && !!window.FSRS"


def stored(page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('floorcall:quiz'))")


def answer_right(page) -> dict:
    """Choose the right answer(s) of the question on screen; returns what was shown."""
    shown = page.evaluate(SHOWN_ITEM)
    if shown["kind"] == "select-all":
        for n in shown["answers"]:
            page.locator("#quiz-item .choice").nth(n).click()
        page.locator("#quiz-item .check").click()
    else:
        page.locator("#quiz-item .choice").nth(shown["answers"][0]).click()
    return shown


def test_practice_schedules_by_fsrs_and_keeps_it(page, url):
    """A right answer: feedback citing the rule, its walk, when it comes back (FSRS: 10 minutes); the card is the terminal's; a reload keeps it."""
    from datetime import datetime

    from floorcall.engines import schedule

    page.goto(url("quiz/index.html"))
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r"^Due now: 0 · new left today: 20 · seen 0/\d+$"))
    shown = answer_right(page)
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


def test_quiz_marks_answers_in_words_and_moves_focus(page, url):
    """The right choice and a wrong pick are marked in words, not colour alone; focus goes to the verdict
    after an answer and to the next question after Next."""
    page.goto(url("quiz/index.html"))
    page.wait_for_function(ALL_LOADED)
    answer_right(page)
    expect(page.locator(":focus")).to_have_class("verdict")
    expect(page.locator(":focus")).to_have_text("✓ Right.")
    expect(page.locator("#quiz-item .choice.correct .choice-mark").first).to_have_text("✓ Right answer, yours")
    page.locator(".feedback .next").click()
    expect(page.locator(":focus")).to_have_class("prompt")
    shown = page.evaluate(SHOWN_ITEM)
    wrong = next(n for n in range(shown["choices"]) if n not in shown["answers"])
    page.locator("#quiz-item .choice").nth(wrong).click()
    if shown["kind"] == "select-all":
        page.locator("#quiz-item .check").click()
    expect(page.locator("#quiz-item .choice.chosen-wrong .choice-mark")).to_have_text("✗ Your answer")
    expect(page.locator("#quiz-item .choice.correct .choice-mark").first).to_have_text("✓ Right answer")


def test_quiz_shows_a_question_before_the_rest_arrives(browser, site, server):
    """The first question needs only the small first file (with the scheduler): it shows while the rest
    of the questions is still on its way, and the rest joins on behind it."""
    page = browser.new_context(**PHONE, service_workers="block").new_page()
    server.slow[sitegen.QUIZ_REST_SCRIPT] = 2.0
    page.goto(server.base + "quiz/index.html", wait_until="commit")
    expect(page.locator("#quiz-item .choice").first).to_be_visible(timeout=1500)
    assert page.evaluate("() => window.FLOOR_QUIZ_REST === undefined && !!window.FLOOR_QUIZ.rest")
    first = page.evaluate(SHOWN_ITEM)["id"]
    page.wait_for_function(ALL_LOADED, timeout=10_000)
    assert page.evaluate(SHOWN_ITEM)["id"] == first  # the question on screen keeps its place
    total = page.evaluate("() => window.FLOOR_QUIZ.total")
    expect(page.locator("#quiz-score")).to_have_text(re.compile(rf" · seen 0/{total}$"))
    page.context.close()


def test_an_answer_before_the_scheduler_arrives_waits_for_it(browser, server):
    """ts-fsrs loads behind the first question: an answer tapped before it is here is scheduled once it lands."""
    context = browser.new_context(**PHONE, service_workers="block")
    server.slow["static/fsrs.js"] = 1.5
    page = context.new_page()
    page.goto(server.base + "quiz/index.html", wait_until="commit")
    expect(page.locator("#quiz-item .choice").first).to_be_visible(timeout=1500)
    assert page.evaluate("() => window.FSRS === undefined")
    shown = answer_right(page)
    expect(page.locator(".feedback.right")).to_be_visible(timeout=10_000)
    assert stored(page)["cards"][shown["id"]]["seen"] == 1
    context.close()


def test_saved_progress_waits_for_the_questions_it_names(browser, site, server):
    """A browser whose progress names a question of the second file shows it once that file is in, not another."""
    rest = (site / sitegen.QUIZ_REST_SCRIPT).read_text(encoding="utf-8")
    later = json.loads(rest.removeprefix("window.FLOOR_QUIZ_REST = ").rstrip().rstrip(";"))["items"][-1][0]
    # A fresh context (nothing cached, no offline copy to hand the second file over at once) whose
    # saved progress is on that question.
    context = browser.new_context(**PHONE, service_workers="block")
    store = json.dumps({"version": 2, "cards": {}, "current": later})
    context.add_init_script(f"localStorage.setItem('floorcall:quiz', {json.dumps(store)})")
    server.slow[sitegen.QUIZ_REST_SCRIPT] = 1.0
    page = context.new_page()
    page.goto(server.base + "quiz/index.html", wait_until="commit")
    expect(page.locator("#quiz-item .loading")).to_have_text("Loading your progress…")
    expect(page.locator("#quiz-item")).to_have_attribute("data-item", later, timeout=10_000)
    context.close()


def test_quiz_starts_anywhere_and_never_dwells_on_one_situation(browser, url):
    """Fresh sessions start on different items; a session goes round the topics and never serves one situation twice in six."""
    firsts = set()
    for _ in range(4):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(url("quiz/index.html"))
        expect(page.locator("#quiz-item .choice").first).to_be_visible()
        firsts.add(page.locator("#quiz-item").get_attribute("data-item"))
        context.close()
    assert len(firsts) > 1
    page = browser.new_page(**PHONE)
    page.goto(url("quiz/index.html"))
    page.wait_for_function(ALL_LOADED)
    page.locator("#quiz-new").fill("50")  # more new questions a day than the test asks
    page.locator("#quiz-new").dispatch_event("change")
    served = []
    for _ in range(24):
        served.append(answer_right(page))  # right answers: nothing falls due again within the test
        page.locator(".feedback .next").click()
    refs = [item["ref"] for item in served]
    assert all(len(set(refs[i:i + 6])) == 6 for i in range(len(refs) - 5)), refs
    topics = len({row[0] for row in page.evaluate("() => window.FLOOR_QUIZ.items.map((r) => [r[window.FLOOR_QUIZ.fields.indexOf('topic')]])")})
    assert len({item["topic"] for item in served[:topics]}) == topics
    page.close()


def test_start_over_asks_before_wiping_progress(page, url):
    """Start over first asks, naming how many questions' progress would go; Keep changes nothing; Yes wipes it
    (and keeps the record of exams)."""
    page.goto(url("quiz/index.html"))
    page.wait_for_function(ALL_LOADED)
    answer_right(page)
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r" · seen 1/\d+ · right 100%$"))
    page.locator("#quiz-reset").click()
    expect(page.locator("#quiz-confirm-text")).to_have_text(
        "Wipe your progress on 1 question saved in this browser? Your exam results are kept. This cannot be undone.")
    expect(page.locator(":focus")).to_have_id("quiz-reset-no")
    page.locator("#quiz-reset-no").click()
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r" · seen 1/\d+ · right 100%$"))
    page.locator("#quiz-reset").click()
    page.locator("#quiz-reset-yes").click()
    expect(page.locator("#quiz-score")).to_have_text(re.compile(r" · seen 0/\d+$"))
    assert stored(page)["cards"] == {}


# ---------------------------------------------------------------- marks, Hold'em mode, display settings

def test_reading_marks_count_per_edition(page, url, corpus):
    """Opening a rule marks it (and the parts printed on its page); its source page counts and ticks them; unmarking works."""
    total = sum(1 for r in corpus["rules"].values() if r["source"] == "tda-2024")
    page.goto(url("rules/tda-2024/44.html"))
    expect(page.locator(".mark-state")).to_contain_text("Marked as viewed")
    page.goto(url("rules/tda-2024/35.html"))
    page.goto(url("rules/tda-2024/index.html"))
    expect(page.locator(".viewed")).to_have_text(f"Viewed · {2 + len(corpus['rules']['tda-2024:35']['parts'])}/{total}")
    expect(page.locator('li[data-rule-id="tda-2024:44"]')).to_have_class(re.compile(r"\bseen\b"))
    expect(page.locator('li[data-rule-id="tda-2024:35-E"]')).to_have_class(re.compile(r"\bseen\b"))
    page.goto(url("rules/index.html"))
    expect(page.locator('[data-viewed-source="dttf"]')).to_have_text(re.compile(r"^Viewed · 0/"))
    page.goto(url("rules/tda-2024/35.html"))
    page.locator("#mark-toggle").click()
    expect(page.locator(".mark-state")).to_contain_text("Not marked")
    page.goto(url("rules/tda-2024/index.html"))
    expect(page.locator(".viewed")).to_have_text(f"Viewed · 1/{total}")


def test_holdem_mode_groups_other_games_apart(page, url, corpus):
    """Hold'em mode hides stud/draw-only rules from their sections and shows them grouped at the end, and is remembered."""
    other = next(r for r in corpus["rules"].values() if not sitegen._holdem_relevant(r) and not r.get("parent"))
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


def background(page, selector: str = "body") -> tuple[int, int, int]:
    return tuple(int(n) for n in re.findall(r"\d+", page.locator(selector).first.evaluate("el => getComputedStyle(el).backgroundColor"))[:3])


def luminance(rgb) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_dark_mode_follows_the_system(browser, url):
    """With the system in dark mode the page is dark; in light mode it is light."""
    for scheme, dark in (("dark", True), ("light", False)):
        context = browser.new_context(**PHONE, color_scheme=scheme)
        page = context.new_page()
        page.goto(url("index.html"))
        assert (luminance(background(page)) < 0.05) is dark
        context.close()


def test_theme_and_text_size_are_chosen_and_remembered(phone, url):
    """Display settings: Dark over a light system and a larger text size hold across pages and reloads; System follows the system again."""
    page = phone(color_scheme="light")
    page.goto(url("index.html"))
    default = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    page.locator("#settings-toggle").tap()
    page.locator('[data-theme-choice="dark"]').tap()
    page.locator('[data-size-step="1"]').tap()
    page.locator('[data-size-step="1"]').tap()
    expect(page.locator("#size-value")).to_have_text("125 %")
    assert luminance(background(page)) < 0.05
    page.goto(url("rules/tda-2024/44.html"))
    assert luminance(background(page)) < 0.05
    assert page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)") == pytest.approx(default * 1.25, abs=0.1)
    assert page.locator('meta[name="theme-color"]').first.get_attribute("content") == sitegen.THEME_COLOR_DARK
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.locator("#settings-toggle").tap()
    page.locator('[data-theme-choice="system"]').tap()
    assert luminance(background(page)) > 0.5


def test_dark_header_is_no_brighter_than_the_content(browser, url):
    """In the dark theme the header bar is no brighter than the cards below it."""
    context = browser.new_context(**PHONE, color_scheme="dark")
    page = context.new_page()
    page.goto(url("index.html"))
    assert luminance(background(page, ".top")) <= luminance(background(page, ".tile"))
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_rings_stand_out_three_to_one(browser, url, scheme):
    """The keyboard focus ring is at least 3:1 against the page, a card and the header, in both themes."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(url("index.html"))
    rings = {}
    for selector in (".brand", ".try a", ".tile"):
        page.locator(selector).first.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # a keyboard focus, so :focus-visible applies
        rings[selector] = tuple(int(n) for n in re.findall(r"\d+", page.locator(":focus").evaluate("el => getComputedStyle(el).outlineColor"))[:3])
    assert contrast(rings[".brand"], background(page, ".top")) >= 3
    assert contrast(rings[".try a"], background(page)) >= 3
    assert contrast(rings[".tile"], background(page, ".tile")) >= 3 and contrast(rings[".tile"], background(page)) >= 3
    context.close()


# What a thumb has to hit, page by page (inline links inside running text are exempt, as in WCAG 2.5.8).
TARGETS = {
    "index.html": ".nav a, .brand, #settings-toggle, .try a, .tile, #q",
    "situations/action-out-of-turn.html#oot-action=acted": "#walker button, #walker a, .crumbs a",
    "situations/dealer-exposed-holecard.html#which-card=second-card": "#walker button, .governing-head a, #walker summary, .siblings a",
    "rules/tda-2024/35.html": ".crumbs a, #mark-toggle, .part-toc a, .pager a, .relations a",
    "rules/tda-2024/index.html": ".rule-list a, #holdem-toggle",
    "quiz/index.html": "#quiz-topic, #quiz-reset, .choice",
}


def small_targets(page, selector: str) -> list:
    """The visible elements matching selector under TARGET_PX either way (and fails if none is visible)."""
    sizes = page.locator(selector).evaluate_all("""els => els.filter(e => e.getClientRects().length)
        .map(e => { const r = e.getBoundingClientRect(); return [e.className || e.id || e.tagName, e.textContent.trim().slice(0, 30), r.width, r.height]; })""")
    assert sizes, selector
    return [s for s in sizes if s[2] < TARGET_PX - 0.5 or s[3] < TARGET_PX - 0.5]


@pytest.mark.parametrize("path", list(TARGETS))
def test_touch_targets_are_at_least_44_px(phone, url, path):
    """On a phone every button, menu and stand-alone link is at least 44 x 44 CSS px."""
    page = phone()
    page.goto(url(path))
    page.locator("#settings-toggle").wait_for()
    assert small_targets(page, TARGETS[path]) == []


def test_quiz_and_exam_controls_are_at_least_44_px(phone, url):
    """The quiz's controls in each state: practice, the feedback with its ratings, the exam's start and its questions."""
    page = phone()
    page.goto(url("quiz/index.html"))
    page.wait_for_function(ALL_LOADED)
    assert small_targets(page, "#quiz-topic, #quiz-new, #quiz-reset, .mode-button, .choice") == []
    answer_right(page)
    assert small_targets(page, ".rate, .feedback .next, .feedback .cites a, .feedback .walk a") == []
    page.locator("#mode-exam").tap()
    assert small_targets(page, ".start-exam") == []
    page.locator(".start-exam").tap()
    assert small_targets(page, "#quiz-item .choice, #quiz-item .next, .hand-in") == []


# ---------------------------------------------------------------- accessibility (axe-core from npm)

AXE_PAGES = {
    "home": ("index.html", None),
    "home-results": ("index.html#q=dealer+exposed+a+card", None),
    "home-rule-number": ("index.html#q=53-B", None),
    "home-settings": ("index.html", "#settings-toggle"),
    "situation-start": ("situations/action-out-of-turn.html", None),
    "situation-mid": ("situations/action-out-of-turn.html#oot-action=acted", None),
    "situation-ruling": ("situations/dealer-exposed-holecard.html#which-card=second-card", "#walker details.more summary"),
    "situations": ("situations/index.html", None),
    "rule-parts": ("rules/tda-2024/35.html#E", None),
    "rule-dttf": ("rules/dttf/exposed-holecard.html", None),
    "rules": ("rules/index.html", None),
    "source": ("rules/tda-2024/index.html", None),
    "quiz": ("quiz/index.html", None),
    "quiz-answered": ("quiz/index.html", "#quiz-item .choice"),
    "quiz-exam": ("quiz/index.html", "#mode-exam, .start-exam"),
    "compare-house": ("compare/dttf-vs-tda-2024.html", None),
    "compare-editions": ("compare/tda-2019-to-2024.html", None),
    "offline": ("offline.html", None),
}


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        message = f"axe-core is not installed at {AXE} (npm ci --prefix tests/browser-deps)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(AXE_PAGES))
def test_axe_finds_no_wcag_a_or_aa_violation(browser, url, axe_source, name, scheme):
    """axe-core reports no WCAG 2.2 A/AA violation on every kind of page, in both themes."""
    path, click = AXE_PAGES[name]
    context = browser.new_context(**PHONE, color_scheme=scheme, bypass_csp=True)  # axe is injected: the CSP would refuse it
    page = context.new_page()
    page.goto(url(path))
    page.locator("#settings-toggle").wait_for()
    if path.startswith("quiz/"):
        page.wait_for_function(ALL_LOADED)
    for selector in (click or "").split(", ") if click else []:  # one click after another
        page.locator(selector).first.click()
    page.wait_for_timeout(100)  # let a click's rendering settle
    page.add_script_tag(content=axe_source)
    violations = page.evaluate("""tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})
        .then(r => r.violations.map(v => [v.id, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' '))]))""", AXE_TAGS)
    context.close()
    assert violations == []


# ---------------------------------------------------------------- file:// and offline

def test_file_protocol_pages_run_without_errors(page, url):
    """Opened from disk, every kind of page runs its scripts with no console error or CSP violation."""
    errors = watch_errors(page)
    for path in ("index.html#q=overchip", "situations/index.html", "situations/overchip-facing-bet.html#declared=silent",
                 "rules/index.html", "rules/tda-2024/index.html", "rules/tda-2024/44.html", "rules/dttf/exposed-holecard.html",
                 "rules/tda-2024/35.html#E", "compare/dttf-vs-tda-2024.html", "compare/tda-2019-to-2024.html", "offline.html",
                 "quiz/index.html"):
        page.goto(url(path))
        page.wait_for_load_state("load")
    expect(page.locator("#quiz")).to_be_visible()
    page.locator("#q").fill("44")
    expect(page.locator("#results a").first).to_be_visible()
    assert errors == []
    assert page.evaluate("() => location.protocol") == "file:"
    expect(page.locator("#offline-status")).to_contain_text("Opened from a folder")


def test_a_part_address_forwards_to_its_anchor(page, url):
    """The permanent address of a part id opens its rule's page at the part."""
    page.goto(url("rules/tda-2024/35-E.html"))
    expect(page).to_have_url(re.compile(r"rules/tda-2024/35\.html#E$"))
    expect(page.locator('section.part[data-rule-part="tda-2024:35-E"]')).to_be_in_viewport()


def status_lines(page) -> list[str]:
    return page.evaluate("() => window.offlineLines || []")


RECORD_STATUS = """new MutationObserver(() => {
    const line = document.getElementById('offline-status');
    if (line) (window.offlineLines = window.offlineLines || []).push(line.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});"""


def test_service_worker_saves_the_site_and_serves_it_offline(context, site, server, corpus):
    """Over http the worker saves every file, counting up ("Saving for offline: n / N"), says "Ready offline"
    only at the end; with the network off and the server gone pages still load, and an unknown address gets the offline page."""
    files = json.loads(re.search(r"var FILES = (\[.*?\]);", (site / "sw.js").read_text(), re.S).group(1))
    context.add_init_script(RECORD_STATUS)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "index.html")
    expect(page.locator("#offline-status")).to_contain_text(f"Ready offline: all {len(files)} files saved", timeout=30_000)
    expect(page.locator("#offline-status")).not_to_contain_text("updated")  # a first copy is not an update
    lines = status_lines(page)
    assert any(re.match(rf"Saving for offline: \d+ / {len(files)} files…", line) for line in lines), lines
    assert not any(line.startswith("✓ Ready") for line in lines[:-1] if "Saving" in lines[-1])
    cached = page.evaluate("""async () => {
        const names = (await caches.keys()).filter(n => n.startsWith("floorcall-"));
        return [names.length, (await (await caches.open(names[0])).keys()).length];
    }""")
    assert cached == [1, len(files) + 1]  # the files and the list of what the copy holds
    server.stop()
    context.set_offline(True)
    page.reload()
    page.locator("#q").fill("overchip")
    expect(page.locator("#results .hits a").first).to_have_attribute("href", top_path(corpus, "overchip"))
    page.goto(server.base + "rules/wpa/oversized-chip.html")  # never visited online
    expect(page.locator("h1")).to_have_text(corpus["rules"]["wpa:oversized-chip"]["title"])
    page.goto(server.base)  # a folder address is its index.html
    expect(page.locator("#q")).to_be_visible()
    page.goto(server.base + "rules/no-such-page.html")
    expect(page.locator("h1")).to_have_text("This page is not in the offline copy")
    assert errors == []


def test_offline_copy_survives_a_flaky_network(context, site):
    """A file that fails twice is fetched on a retry; a file the server lacks leaves the copy at N-1 / N,
    never "ready", and the copy completes on a later visit once the file is there."""
    files = json.loads(re.search(r"var FILES = (\[.*?\]);", (site / "sw.js").read_text(), re.S).group(1))
    flaky = SiteServer(site)
    flaky.fail[sitegen.QUIZ_REST_SCRIPT] = 2
    flaky.missing.add("rules/wpa/oversized-chip.html")
    try:
        page = context.new_page()
        page.goto(flaky.base + "index.html")
        expect(page.locator("#offline-status")).to_contain_text(f"Saved for offline: {len(files) - 1} / {len(files)} files. 1 could not",
                                                                timeout=30_000)
        assert flaky.requests.count(sitegen.QUIZ_REST_SCRIPT) == 3
        flaky.missing.clear()
        page.reload()
        expect(page.locator("#offline-status")).to_contain_text(f"Ready offline: all {len(files)} files saved", timeout=30_000)
    finally:
        flaky.stop()


def test_a_new_build_updates_the_copy_fetching_only_what_changed(context, corpus, tmp_path):
    """When a new build is published the worker replaces itself, copies unchanged files from the old copy,
    fetches only the changed ones, and keeps a single complete copy."""
    import copy

    out = tmp_path / "_site"
    sitegen.build_site(corpus, out, REPO)
    served = SiteServer(out)
    try:
        page = context.new_page()
        page.goto(served.base + "index.html")
        expect(page.locator("#offline-status")).to_contain_text("Ready offline", timeout=30_000)
        old_version = page.evaluate("async () => (await caches.keys()).find(n => n.startsWith('floorcall-'))")
        changed = copy.deepcopy(corpus)
        changed["rules"]["tda-2024:44"]["summary"] += " (Edited for the test.)"
        before = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        sitegen.build_site(changed, out, REPO)
        different = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and before.get(p.relative_to(out).as_posix()) != p.read_bytes()}
        assert "rules/tda-2024/44.html" in different
        served.requests.clear()
        page.reload()
        expect(page.locator("#offline-status")).to_contain_text("updated", timeout=30_000)
        names = page.evaluate("async () => (await caches.keys()).filter(n => n.startsWith('floorcall-'))")
        assert len(names) == 1 and names[0] != old_version
        fetched = set(served.requests) - {"index.html", "sw.js", "", "manifest.webmanifest"}
        assert fetched <= different | {"offline.html", "static/style.css", "static/site.js", "static/finder.js", "static/icon.svg",
                                       "static/search-index.js", "static/search-labels.js", "static/search.js",
                                       "static/search-previews.js", "static/icon-192.png"}, fetched - different
        assert page.evaluate("async () => (await (await caches.match('rules/tda-2024/44.html')).text()).includes('Edited for the test')")
    finally:
        served.stop()


# ---------------------------------------------------------------- the print card

CITE_CHARS = 25  # a short cite on the card ("TDA 2024 Rule 45-B; ") is about this long


def test_the_largest_situation_prints_as_one_page_card(page, url, corpus):
    """Printed, the biggest tree (by the text its card carries, questions, answers, rulings of both
    houses and cites) is one A4 page showing only its card."""
    def card_text(situation):
        asked = sum(len(q["ask"]) + sum(len(a["label"]) for a in q["answers"].values()) for q in situation["questions"].values())
        ruled = sum(len(o["ruling"]) + len((o.get("tda") or {}).get("ruling", "")) + CITE_CHARS * len(o["cite"])
                    for o in situation["outcomes"].values())
        return asked + ruled
    biggest = max(corpus["situations"].values(), key=card_text)
    page.goto(url(sitegen.situation_path(biggest["id"])))
    page.emulate_media(media="print")
    expect(page.locator(".card")).to_be_visible()
    expect(page.locator("#walker")).to_be_hidden()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
