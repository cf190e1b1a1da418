"""The certification-style exam: which items, how long, what passes.

Modelled on the TDA's own Level 1 certification: 40 questions (multiple choice, true/false,
select-all-that-apply, "which is the correct ruling" scenarios), 100 minutes, 90 % to pass, and no
feedback until the end. Pure: items and a seed in, the paper out; the clock is passed in.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from floorcall.core.errors import FloorError
from floorcall.engines.quiz import TOPICS, Item, _pool, groups_of, present

EXAM_COUNT = 40
EXAM_MINUTES = 100
EXAM_PASS = 90.0  # percent; a floorperson who misses one ruling in ten is not ready to rule alone
MAX_MINUTES = 24 * 60  # a typo guard: no sitting lasts a day
# The mix of a 40-question paper, by kind: mostly "which is the correct ruling" scenarios, as in
# the certification, then true/false and select-all, then the rest. Scaled for other lengths.
KIND_SHARES = {
    "scenario": 13, "true-false": 6, "select-all": 5, "which-part": 5, "house": 4,
    "arithmetic": 3, "addendum": 3, "rule": 1,
}


def shares(total: int, weights: dict[str, int]) -> dict[str, float]:
    whole = sum(weights.values())
    return {k: total * w / whole for k, w in weights.items()}


def compose(items: list[Item], seed: int, count: int = EXAM_COUNT, topic: str | None = None,
            source: str | None = None) -> list[Item]:
    """`count` items, balanced across topics (and across kinds by KIND_SHARES), never two drawing on
    one situation or rule; in a seeded order, each with its choices in the paper's order."""
    if count < 1:
        raise FloorError(f"--count must be at least 1, not {count}")
    pool = _pool(items, topic, source)
    rng = random.Random(f"exam:{seed}")
    buckets: dict[tuple[str, str], list[Item]] = {}
    for item in pool:
        buckets.setdefault((item.topic, item.kind), []).append(item)
    for bucket in buckets.values():
        rng.shuffle(bucket)
    topics_here = [t for t in TOPICS if any(k[0] == t for k in buckets)]
    topic_target = dict.fromkeys(topics_here, count / len(topics_here))
    kind_target = shares(count, {k: w for k, w in KIND_SHARES.items() if any(b[1] == k for b in buckets)})
    topic_n = dict.fromkeys(topics_here, 0)
    kind_n: dict[str, int] = {}
    keys = sorted(buckets)
    rng.shuffle(keys)
    paper: list[Item] = []
    used: set[str] = set()
    while len(paper) < count:
        best, best_score = None, None
        for key in keys:
            bucket = buckets[key]
            while bucket and set(groups_of(bucket[-1])) & used:
                bucket.pop()  # it shares a situation with an item on the paper; `used` only grows
            if not bucket:
                continue
            subject, kind = key
            score = (topic_n[subject] / topic_target[subject], kind_n.get(kind, 0) / kind_target.get(kind, 0.01))
            if best_score is None or score < best_score:
                best, best_score = key, score
        if best is None:
            break  # fewer distinct situations than questions asked for: a shorter paper, never a repeat
        item = buckets[best].pop()
        paper.append(item)
        used |= set(groups_of(item))
        topic_n[best[0]] += 1
        kind_n[best[1]] = kind_n.get(best[1], 0) + 1
    rng.shuffle(paper)
    return [present(item, seed) for item in paper]


def check_minutes(minutes: float) -> float:
    if not 0 < minutes <= MAX_MINUTES:
        raise FloorError(f"--minutes is the time allowed, from 1 to {MAX_MINUTES}, not {minutes:g}")
    return minutes


def deadline(started: datetime, minutes: float) -> datetime:
    return started + timedelta(minutes=minutes)


def seconds_left(ends: datetime, now: datetime) -> int:
    return max(0, int((ends - now).total_seconds()))


def countdown(seconds: int) -> str:
    """'1:39:05', '59:59', '0:07': the time left, as a clock shows it."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
