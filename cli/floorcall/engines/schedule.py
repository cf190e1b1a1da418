"""Scheduling by memory: FSRS (the `fsrs` package, Anki's scheduler) decides when each item comes back.

Pure: a card and an answer in, the next card out; nothing here reads the clock unless no time is
given, and nothing is stored (store.quiz_store keeps the cards). The site schedules with the same
algorithm in the browser (ts-fsrs, bundled in site/static): the same default parameters, the same
learning steps, no fuzz, so a card answered the same way at the same times falls due at the same
minute in both (tests/test_schedule.py holds the two to each other).

What a card is: FSRS's memory state of one item for one person (learning step, stability,
difficulty, due time, last review) plus our own counts (answers, right answers, when first seen).
Ratings are FSRS's four: 1 again (wrong, or a guess), 2 hard, 3 good, 4 easy. A wrong answer is
always "again"; a right one is "good" unless the trainee says it was hard or easy (or a guess).
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4
RATING_NAMES = {AGAIN: "again", HARD: "hard", GOOD: "good", EASY: "easy"}
# One key after the answer number ("2h"): w wrong/guessed, h hard, g good, e easy.
RATING_KEYS = {"w": AGAIN, "h": HARD, "g": GOOD, "e": EASY}
# FSRS states (the package's numbering; ts-fsrs adds 0 for a card never reviewed).
LEARNING, REVIEW, RELEARNING = 1, 2, 3
STATE_NAMES = {LEARNING: "learning", REVIEW: "review", RELEARNING: "relearning"}

# Fuzz spreads long intervals by a random day or two so cards learnt together do not all fall due
# together. It is off here and in the browser: with it, the terminal and the site would disagree
# about the same history, and the tests could not pin a due date. Everything else is the default.
ENABLE_FUZZING = False
# Tournaments run past midnight: a "day" of study starts at 4 a.m. local time (Anki's own default),
# so a session at 1 a.m. still counts towards the evening it belongs to.
DAY_STARTS_AT_HOUR = 4
# New items introduced per day unless `--new N` says otherwise: Anki's default pace. At twenty a
# day the whole bank of a little over two thousand items is met in about three and a half months.
DEFAULT_NEW_PER_DAY = 20
WEEK_DAYS = 7


class Card:
    """One person's memory of one item. Times are aware UTC datetimes."""

    __slots__ = ("state", "step", "stability", "difficulty", "due", "last_review", "seen", "right", "introduced")

    def __init__(self, state: int, step: int | None, stability: float | None, difficulty: float | None,
                 due: datetime, last_review: datetime | None, seen: int = 0, right: int = 0,
                 introduced: datetime | None = None):
        self.state, self.step = state, step
        self.stability, self.difficulty = stability, difficulty
        self.due, self.last_review = due, last_review
        self.seen, self.right = seen, right
        self.introduced = introduced if introduced is not None else last_review

    def __eq__(self, other):
        return isinstance(other, Card) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self):
        return (f"Card({STATE_NAMES.get(self.state, self.state)}, step={self.step}, S={self.stability}, "
                f"D={self.difficulty}, due={self.due.isoformat()}, seen={self.seen}, right={self.right})")

    def as_json(self) -> dict:
        return {"state": STATE_NAMES.get(self.state, str(self.state)), "step": self.step, "stability": self.stability,
                "difficulty": self.difficulty, "due": iso(self.due), "last_review": iso(self.last_review),
                "seen": self.seen, "right": self.right, "introduced": iso(self.introduced)}


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def parse_time(text: str | None) -> datetime | None:
    """An ISO time as stored ('…+00:00'); a time without a zone is read as UTC."""
    if not text:
        return None
    moment = datetime.fromisoformat(str(text))
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def now_utc() -> datetime:
    return datetime.now(UTC)


@functools.cache
def scheduler():
    """The FSRS scheduler: the package's default parameters, retention 0.9 and steps, fuzz off."""
    import fsrs

    return fsrs.Scheduler(enable_fuzzing=ENABLE_FUZZING)


def rating_for(correct: bool, said: int | None = None) -> int:
    """The rating an answer records: wrong is always 'again'; right is 'good' unless the trainee said otherwise."""
    if not correct:
        return AGAIN
    return said if said in RATING_NAMES else GOOD


def review(card: Card | None, rating: int, when: datetime | None = None) -> Card:
    """The card after one answer rated `rating` at `when` (a new item when `card` is None)."""
    import fsrs

    if rating not in RATING_NAMES:
        raise ValueError(f"unknown rating {rating!r}")
    when = (when or now_utc()).astimezone(UTC)
    if card is None:
        before = fsrs.Card(card_id=0, due=when)
    else:
        before = fsrs.Card(card_id=0, state=fsrs.State(card.state), step=card.step, stability=card.stability,
                           difficulty=card.difficulty, due=card.due, last_review=card.last_review)
    after, _log = scheduler().review_card(before, fsrs.Rating(rating), review_datetime=when)
    return Card(int(after.state), after.step, after.stability, after.difficulty, after.due, after.last_review,
                seen=(card.seen if card else 0) + 1, right=(card.right if card else 0) + int(rating != AGAIN),
                introduced=card.introduced if card else when)


def replay(reviews: list[tuple[datetime, int]]) -> Card | None:
    """The card a history of (time, rating) reviews leaves, oldest first: how old progress is carried forward."""
    card = None
    for when, rating in sorted(reviews, key=lambda r: r[0]):
        card = review(card, rating, when)
    return card


def retrievability(card: Card, when: datetime | None = None) -> float:
    """FSRS's predicted chance of recalling the item now (0 before it has a stability)."""
    import fsrs

    if card.last_review is None or card.stability is None:
        return 0.0
    shaped = fsrs.Card(card_id=0, state=fsrs.State(card.state), step=card.step, stability=card.stability,
                       difficulty=card.difficulty, due=card.due, last_review=card.last_review)
    return float(scheduler().get_card_retrievability(shaped, (when or now_utc()).astimezone(UTC)))


def is_due(card: Card, when: datetime) -> bool:
    return card.due <= when


def day_start(when: datetime) -> datetime:
    """The start (UTC) of the study day holding `when`: DAY_STARTS_AT_HOUR local time."""
    local = when.astimezone()
    start = local.replace(hour=DAY_STARTS_AT_HOUR, minute=0, second=0, microsecond=0)
    if local < start:
        start -= timedelta(days=1)
    return start.astimezone(UTC)


def day_end(when: datetime, days: int = 1) -> datetime:
    """When the study day holding `when` ends (or the `days`-th day from it)."""
    start = day_start(when).astimezone()
    # Local arithmetic (a naive local time is read as local by astimezone): a day across a clock
    # change is still one calendar day, 4 a.m. to 4 a.m.
    return (start.replace(tzinfo=None) + timedelta(days=days)).astimezone(UTC)


def introduced_today(cards: dict[str, Card], when: datetime) -> int:
    """How many items were seen for the first time during the study day holding `when`."""
    start = day_start(when)
    return sum(1 for card in cards.values() if card.introduced is not None and card.introduced >= start)


def describe_wait(card: Card, when: datetime) -> str:
    """'now', 'in 10 min', 'in 3 h', 'in 4 days': when an item comes back, for a person."""
    seconds = (card.due - when).total_seconds()
    if seconds <= 0:
        return "now"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"in {max(minutes, 1)} min"
    hours = round(seconds / 3600)
    if hours < 36:
        return f"in {hours} h"
    days = round(seconds / 86400)
    return f"in {days} days"
