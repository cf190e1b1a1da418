"""Precedent: how a situation was ruled before in the log, in one line, with a consistency flag.

Pure: earlier records in, a summary out. Consistency is judged only between rulings that should
agree — the same situation, the same answers, the same rules in force (house or pure TDA) — and
only among current records (a superseded record was corrected, so it is no precedent). A different
outcome on the same answers means the tree or the floor changed its mind. Penalties are compared
only between first offences: a player who already had a penalty this event is on the ladder, and a
heavier penalty is the escalation TDA 71-A asks for, not an inconsistency (the store marks those
records `repeat`). The line names the records that differ; the TD judges them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import tzinfo

from floorcall.engines.ruling_facts import local_time

NO_PENALTY = "none"
MAX_IDS_SHOWN = 3  # a line names at most this many records; the log has the rest


@dataclass(frozen=True)
class Earlier:
    """What precedent needs of one logged ruling."""

    id: int
    recorded_at: str  # UTC ISO 8601
    situation: str
    path_key: str
    outcome: str
    house: str
    penalty: str = NO_PENALTY  # the penalty's text, or 'none'
    fingerprint: str = ""
    superseded: bool = False
    repeat: bool = False  # its penalty went to a player who already had one this event


@dataclass
class Precedent:
    total: int  # earlier current rulings of this situation, any answers, any rules in force
    last_id: int | None
    last_when: str  # local 'YYYY-MM-DD HH:MM', '' when none
    same: int  # on the same answers under the same rules in force
    other_house: int  # on the same answers under the other rules in force
    outcomes: dict[str, int]
    penalties: dict[str, int]
    outcome_differs: list[int] = field(default_factory=list)  # records on these answers with another outcome
    penalty_differs: list[int] = field(default_factory=list)
    other_content: list[int] = field(default_factory=list)  # of outcome_differs: ruled on other content
    repeats: list[int] = field(default_factory=list)  # records on these answers that were repeat offences
    repeat: bool = False  # the ruling at hand penalises a repeat offence
    consistent: bool = True
    line: str = ""

    def as_json(self) -> dict:
        return {"total": self.total, "last_id": self.last_id, "last_when": self.last_when, "same_answers": self.same,
                "other_house": self.other_house, "outcomes": self.outcomes, "penalties": self.penalties,
                "outcome_differs": self.outcome_differs, "penalty_differs": self.penalty_differs,
                "repeats": self.repeats, "repeat": self.repeat, "consistent": self.consistent, "line": self.line}


def _ids(ids: list[int]) -> str:
    shown = ", ".join(f"#{i}" for i in ids[:MAX_IDS_SHOWN])
    return shown + (f" and {len(ids) - MAX_IDS_SHOWN} more" if len(ids) > MAX_IDS_SHOWN else "")


def _counts(counter: Counter) -> str:
    return ", ".join(f"{name} ×{n}" for name, n in counter.most_common())


def precedent(earlier: list[Earlier], situation: str, path_key: str, outcome: str, house: str,
              penalty: str | None = None, fingerprint: str = "", tz: tzinfo | None = None, repeat: bool = False) -> Precedent:
    """The precedent for a ruling about to be given (or just given): `penalty` is its penalty's text,
    'none', or None when not decided yet (then earlier penalties are compared with each other);
    `repeat` when that penalty goes to a player who already has one this event."""
    current = sorted((e for e in earlier if e.situation == situation and not e.superseded), key=lambda e: e.id)
    same = [e for e in current if e.path_key == path_key and e.house == house]
    other_house = sum(1 for e in current if e.path_key == path_key and e.house != house)
    outcomes = Counter(e.outcome for e in same)
    first_offences = [e for e in same if not e.repeat]
    penalties = Counter(e.penalty for e in first_offences)
    outcome_differs = [e.id for e in same if e.outcome != outcome]
    other_content = [e.id for e in same if e.outcome != outcome and fingerprint and e.fingerprint and e.fingerprint != fingerprint]
    if repeat:
        penalty_differs: list[int] = []
    elif penalty is None:
        usual = penalties.most_common(1)[0][0] if penalties else NO_PENALTY
        penalty_differs = [e.id for e in first_offences if e.penalty != usual] if len(penalties) > 1 else []
    else:
        penalty_differs = [e.id for e in first_offences if e.penalty != penalty]
    last = current[-1] if current else None
    result = Precedent(
        total=len(current), last_id=last.id if last else None,
        last_when=f"{local_time(last.recorded_at, tz):%Y-%m-%d %H:%M}" if last else "",
        same=len(same), other_house=other_house, outcomes=dict(outcomes), penalties=dict(penalties),
        outcome_differs=outcome_differs, penalty_differs=penalty_differs, other_content=other_content,
        repeats=[e.id for e in same if e.repeat], repeat=repeat, consistent=not outcome_differs and not penalty_differs,
    )
    result.line = precedent_text(result, outcome, penalty)
    return result


def precedent_text(p: Precedent, outcome: str, penalty: str | None) -> str:
    if not p.total:
        return "Precedent: none — the first ruling on this situation in this log."
    head = f"Precedent: {p.total} earlier in this log (last {p.last_when}, #{p.last_id})"
    others = f" (+{p.other_house} under the other rules in force)" if p.other_house else ""
    if not p.same:
        return f"{head}; none on these answers{others}."
    counted = _counts(Counter(p.penalties)) or "only repeat offences"
    repeats = f", repeat offences {_ids(p.repeats)} aside" if p.repeats else ""
    ladder = "; this penalty is a repeat offence's: see the ladder" if p.repeat else ""
    if p.consistent:
        return (f"{head}; {p.same} on these answers{others}, all '{outcome}', first-offence penalties: {counted}{repeats}"
                f"{ladder} — consistent.")
    problems = []
    if p.outcome_differs:
        differing = Counter({o: n for o, n in p.outcomes.items() if o != outcome})
        content = " (on other content)" if p.other_content and len(p.other_content) == len(p.outcome_differs) else ""
        problems.append(f"other outcome {_counts(differing)} ({_ids(p.outcome_differs)}){content}")
    if p.penalty_differs:
        against = f"; this one: {penalty}" if penalty is not None else ""
        problems.append(f"first-offence penalties differ: {counted}{against} ({_ids(p.penalty_differs)})")
    return f"{head}; {p.same} on these answers{others}{ladder} — CHECK: " + "; ".join(problems) + "."


def consistency_flags(records: list[Earlier]) -> dict[int, list[str]]:
    """For each current record, how it differs from the earlier current records on the same situation,
    answers and rules in force (the report's flags; penalties between first offences only); records
    that agree are left out."""
    flags: dict[int, list[str]] = {}
    seen: dict[tuple[str, str, str], list[Earlier]] = {}
    for record in sorted(records, key=lambda e: e.id):
        if record.superseded:
            continue
        key = (record.situation, record.path_key, record.house)
        before = seen.setdefault(key, [])
        notes = []
        other = [e.id for e in before if e.outcome != record.outcome]
        if other:
            notes.append(f"same answers reached another outcome in {_ids(other)}")
        differing = [] if record.repeat else [e.id for e in before if e.penalty != record.penalty and not e.repeat]
        if differing:
            notes.append(f"same answers, another first-offence penalty in {_ids(differing)}")
        if notes:
            flags[record.id] = notes
        before.append(record)
    return flags
