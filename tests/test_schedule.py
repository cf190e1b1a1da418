"""FSRS scheduling: due dates and ratings against the fsrs package's own examples, and the site's
scheduler (ts-fsrs + static/schedule.js, run in node) giving the same due dates as the terminal's."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta

import pytest

from conftest import REPO
from floorcall.engines import schedule
from floorcall.engines.schedule import AGAIN, EASY, GOOD, HARD, LEARNING, RELEARNING, REVIEW

# The package's own example (py-fsrs tests/test_basic.py, test_review_card): these ratings, each
# given when the card falls due, from 2022-11-29 12:30 UTC, with fuzz off.
PACKAGE_START = datetime(2022, 11, 29, 12, 30, tzinfo=UTC)
PACKAGE_RATINGS = (GOOD, GOOD, GOOD, GOOD, GOOD, GOOD, AGAIN, AGAIN, GOOD, GOOD, GOOD, GOOD, GOOD)
PACKAGE_INTERVAL_DAYS = [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]


def _intervals(review) -> list[int]:
    card, when, days = None, PACKAGE_START, []
    for rating in PACKAGE_RATINGS:
        card = review(card, rating, when)
        days.append((card.due - card.last_review).days)
        when = card.due
    return days


def test_due_dates_follow_the_packages_own_example():
    """Reviewed at each due date, the intervals are the package's own: 0, 2, 11, 46, 163, 498 days, then a lapse and relearning."""
    assert _intervals(schedule.review) == PACKAGE_INTERVAL_DAYS


def test_memory_state_follows_the_packages_own_example():
    """Again, then Good five times at 0, 1, 3, 8 and 21 days (py-fsrs test_memo_state): stability 53.62691, difficulty 6.3574867."""
    when, card = PACKAGE_START, None
    for rating, wait in zip((AGAIN, GOOD, GOOD, GOOD, GOOD, GOOD), (0, 0, 1, 3, 8, 21), strict=True):
        when += timedelta(days=wait)
        card = schedule.review(card, rating, when)
    assert card.stability == pytest.approx(53.62691, abs=1e-4)
    assert card.difficulty == pytest.approx(6.3574867, abs=1e-4)


@pytest.mark.parametrize(
    "ratings, state, step, wait",
    [
        ((GOOD,), LEARNING, 1, timedelta(minutes=10)),
        ((AGAIN,), LEARNING, 0, timedelta(minutes=1)),
        ((HARD,), LEARNING, 0, timedelta(minutes=5, seconds=30)),
        ((EASY,), REVIEW, None, timedelta(days=8)),
        ((GOOD, GOOD), REVIEW, None, timedelta(days=2)),
        ((GOOD, GOOD, AGAIN), RELEARNING, 0, timedelta(minutes=10)),
        ((GOOD, GOOD, AGAIN, GOOD), REVIEW, None, timedelta(days=1)),
    ],
)
def test_each_rating_at_each_step(ratings, state, step, wait):
    """A new card: good waits the 10-minute step, again 1 minute, hard 5.5 minutes, easy graduates; a lapse relearns for 10 minutes."""
    card, when = None, PACKAGE_START
    for rating in ratings:
        card = schedule.review(card, rating, when)
        last, when = when, card.due
    assert (card.state, card.step, card.due - last) == (state, step, wait)


@pytest.mark.parametrize(
    "correct, said, rating",
    [(True, None, GOOD), (False, None, AGAIN), (True, HARD, HARD), (True, EASY, EASY), (True, AGAIN, AGAIN), (False, EASY, AGAIN)],
)
def test_rating_from_the_answer(correct, said, rating):
    """Wrong is always 'again'; right is 'good' unless the trainee says hard, easy or a guess."""
    assert schedule.rating_for(correct, said) == rating


def test_replay_is_reviewing_in_order():
    """Replaying a history (in any order given) is the same as reviewing it answer by answer."""
    history = [(PACKAGE_START + timedelta(days=d), r) for d, r in ((0, GOOD), (1, AGAIN), (3, GOOD), (9, EASY))]
    card = None
    for when, rating in history:
        card = schedule.review(card, rating, when)
    assert schedule.replay(list(reversed(history))) == card and schedule.replay([]) is None


@pytest.mark.parametrize(
    "local_hour, same_day_as_previous_evening",
    [(23, True), (2, True), (3, True), (4, False), (10, False)],
)
def test_a_study_day_starts_at_four(local_hour, same_day_as_previous_evening, monkeypatch):
    """A session at 1 a.m. belongs to the evening before: the study day runs from 4 a.m. to 4 a.m."""
    monkeypatch.setenv("TZ", "UTC")
    import time

    time.tzset()
    evening = datetime(2025, 3, 10, 20, 0, tzinfo=UTC)
    when = datetime(2025, 3, 10 if local_hour >= 12 else 11, local_hour, 0, tzinfo=UTC)
    assert (schedule.day_start(when) == schedule.day_start(evening)) is same_day_as_previous_evening
    assert schedule.day_end(evening) == datetime(2025, 3, 11, 4, 0, tzinfo=UTC)
    assert schedule.day_end(evening, 7) == datetime(2025, 3, 17, 4, 0, tzinfo=UTC)


def test_retrievability_falls_with_time():
    """Retention now: 0 before any review, then FSRS's forgetting curve, lower the longer it has been."""
    card = schedule.replay([(PACKAGE_START, GOOD), (PACKAGE_START + timedelta(minutes=10), GOOD)])
    later = [schedule.retrievability(card, PACKAGE_START + timedelta(days=d)) for d in (0, 2, 10, 60)]
    assert later[0] == 1.0 and later == sorted(later, reverse=True) and 0 < later[-1] < 0.9


# ---------------------------------------------------------------- the browser's scheduler

NODE = shutil.which("node")
SITE_STATIC = REPO / "site" / "static"
RUNNER = r"""
const vm = require("vm"), fs = require("fs");
const sandbox = {}; sandbox.globalThis = sandbox; vm.createContext(sandbox);
for (const file of process.argv.slice(1).filter((a) => a.endsWith(".js"))) vm.runInContext(fs.readFileSync(file, "utf8"), sandbox);
vm.runInContext("globalThis.FloorSchedule = FloorSchedule;", sandbox);
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
console.log(JSON.stringify(cases.map(([start, steps]) => {
  let card = null; const t0 = new Date(start).getTime();
  return steps.map(([minutes, rating]) => {
    const now = new Date(t0 + minutes * 60000);
    card = sandbox.FloorSchedule.review(card, rating, now);
    return [card.state, card.step, card.stability, card.difficulty, card.due,
            sandbox.FloorSchedule.retrievability(card, new Date(now.getTime() + 5 * 86400000))];
  });
})));
"""
# Histories: (start, [(minutes after the start, rating)]): on time, early, late, across midnight, lapses, every rating.
HISTORIES = [
    ("2024-11-30T12:00:00Z", [(0, 3), (10, 3), (2880, 3), (2880 + 60 * 24 * 9, 4), (2880 + 60 * 24 * 40, 1), (2880 + 60 * 24 * 40 + 10, 3)]),
    ("2024-03-09T23:30:00Z", [(0, 1), (1, 1), (11, 2), (30, 3), (60 * 24 * 3 + 7, 3), (60 * 24 * 20, 2)]),
    ("2024-06-01T08:00:00Z", [(0, 4), (60 * 24 * 15, 3), (60 * 24 * 15 + 30, 1), (60 * 24 * 16, 3)]),
    ("2025-01-31T22:45:00Z", [(0, 2), (3, 2), (9, 3), (60 * 26, 3), (60 * 24 * 5 + 90, 1), (60 * 24 * 5 + 95, 2), (60 * 24 * 6, 4)]),
]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_site_schedules_exactly_as_the_terminal():
    """ts-fsrs through static/schedule.js gives every card the state, step, due time, stability and difficulty the Python package gives."""
    result = subprocess.run([NODE, "-e", RUNNER, "--", str(SITE_STATIC / "fsrs.js"), str(SITE_STATIC / "schedule.js")],
                            input=json.dumps(HISTORIES), capture_output=True, text=True, check=True, timeout=60)
    browser = json.loads(result.stdout)
    for (start, steps), rows in zip(HISTORIES, browser, strict=True):
        card, t0 = None, datetime.fromisoformat(start.replace("Z", "+00:00"))
        for (minutes, rating), (state, step, stability, difficulty, due, recall) in zip(steps, rows, strict=True):
            when = t0 + timedelta(minutes=minutes)
            card = schedule.review(card, rating, when)
            assert (state, step) == (card.state, card.step), (start, minutes)
            assert datetime.fromisoformat(due.replace("Z", "+00:00")) == card.due, (start, minutes)
            # ts-fsrs rounds stability and difficulty to 8 decimals at each review; due times are equal to the second
            assert stability == pytest.approx(card.stability, rel=1e-6) and difficulty == pytest.approx(card.difficulty, rel=1e-6)
            assert recall == pytest.approx(schedule.retrievability(card, when + timedelta(days=5)), rel=1e-6)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_site_follows_the_packages_own_example():
    """The browser's scheduler gives the package's own example intervals too."""
    steps, minutes, card = [], 0, None
    for rating in PACKAGE_RATINGS:  # the times come from the Python side, which the test above holds equal
        steps.append((minutes, rating))
        card = schedule.review(card, rating, PACKAGE_START + timedelta(minutes=minutes))
        minutes = int((card.due - PACKAGE_START).total_seconds() // 60)
    result = subprocess.run([NODE, "-e", RUNNER, "--", str(SITE_STATIC / "fsrs.js"), str(SITE_STATIC / "schedule.js")],
                            input=json.dumps([[PACKAGE_START.isoformat(), steps]]), capture_output=True, text=True, check=True, timeout=60)
    rows = json.loads(result.stdout)[0]
    days = [(datetime.fromisoformat(due.replace("Z", "+00:00")) - (PACKAGE_START + timedelta(minutes=m))).days
            for (m, _r), (_s, _st, _sta, _d, due, _rec) in zip(steps, rows, strict=True)]
    assert days == PACKAGE_INTERVAL_DAYS
