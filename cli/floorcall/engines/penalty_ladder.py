"""The penalty ladder: a player's warnings and penalties, and the next step Floorcall suggests.

TDA 71-A lists the enforcement options — verbal warnings, missed-hand and missed-round penalties,
disqualification — and has a repeat offence draw a heavier penalty; it fixes no sequence.
Floorcall's suggestion climbs those options in that order, one step above the most severe
penalty already given, with the missed-round length from the same arithmetic as
`floor calc penalty` (one hand per player at the table, the offender included, per round).

Under the house (DTTF) the steps are DTTF's own words and nothing more: a violator "may be
verbally warned, suspended from play for a specified length of time, or disqualified", and
misconduct may be punished by "being dealt out for a length of time", a severe infraction by
"eviction from the tournament". DTTF sets no length and says nothing about repeats, so the
escalation is TDA 71-A's (TDA governs where the house is silent) and a deal-out may be measured
the TDA way, in missed hands.

Pure: penalty entries in, a `Ladder` out. The TD decides; the suggestion says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from floorcall.engines.calc import MAX_PENALTY_ROUNDS, R_HOUSE_PENALTIES, R_PENALTIES, missed_hand_penalty
from floorcall.engines.ruling_facts import DISQUALIFICATION, HANDS, MINUTES, ROUNDS, WARNING, Penalty

R_HOUSE_CONDUCT = "dttf:conduct-and-hand-discussion"


@dataclass(frozen=True)
class Rung:
    step: int
    name: str
    says: str  # what the rules say of this step, in our words
    cites: tuple[str, ...]


TDA_LADDER = (
    Rung(1, "verbal warning", "71-A lists verbal warnings first among the enforcement options", (R_PENALTIES,)),
    Rung(2, "missed hands", "one or more missed hands, fewer than a round", (R_PENALTIES,)),
    Rung(3, "missed rounds", "one hand per player at the table (the offender included) per round", (R_PENALTIES,)),
    Rung(4, "disqualification", "the player's chips are removed from play (71-D)", (R_PENALTIES,)),
)
HOUSE_LADDER = (
    Rung(1, "verbal warning", "DTTF: a violator may be verbally warned", (R_HOUSE_CONDUCT,)),
    Rung(2, "dealt out for a length of time",
         "DTTF: suspended from play, or dealt out, for a length of time; DTTF sets no length", (R_HOUSE_PENALTIES, R_HOUSE_CONDUCT)),
    Rung(3, "disqualification (eviction)",
         "DTTF: eviction for a severe infraction such as abusive or disruptive behaviour; the chips are removed from play",
         (R_HOUSE_PENALTIES, R_HOUSE_CONDUCT)),
)
ESCALATION = ("TDA 71-A has a repeat offence draw a heavier penalty; the rules list the penalties and "
              "fix no sequence: the TD decides.")
HOUSE_ESCALATION = ("DTTF lists its penalties and is silent on repeats, so TDA 71-A's escalation applies; "
                    "the rules fix no sequence: the TD decides.")


def ladder_of(house: str) -> tuple[Rung, ...]:
    return HOUSE_LADDER if house == "dttf" else TDA_LADDER


def step_of(penalty: Penalty, house: str) -> int:
    """Where a penalty stands on the house's ladder."""
    if penalty.kind == WARNING:
        return 1
    if penalty.kind == DISQUALIFICATION:
        return len(ladder_of(house))
    if house == "dttf":
        return 2  # any deal-out, however measured
    return 3 if penalty.kind == ROUNDS else 2  # a timed deal-out (logged under the house) counts as less than a round


@dataclass(frozen=True)
class Entry:
    """One penalty on record for the player."""

    record_id: int
    when: str  # local 'YYYY-MM-DD HH:MM'
    event: str
    table: str
    seat: int | None
    situation: str
    title: str
    penalty: Penalty
    house: str

    def as_json(self) -> dict:
        return {"id": self.record_id, "when": self.when, "event": self.event, "table": self.table, "seat": self.seat,
                "situation": self.situation, "title": self.title, "penalty": self.penalty.as_json(), "house": self.house}


@dataclass
class Suggestion:
    step: int | None  # the rung suggested, None once disqualified
    text: str
    hands: int | None = None  # the penalty's length in hands, when the players at the table are known
    rounds: int | None = None


@dataclass
class Ladder:
    player: str
    house: str
    scope: str  # "event 'Friday NLH'", "tonight (since …)"
    entries: list[Entry]
    rungs: list[tuple[Rung, list[int]]]  # each rung and the records that reached it
    top: int  # the most severe step reached (0: nothing on record)
    next: Suggestion
    caveat: str
    rule_ids: list[str]
    players_at_table: int | None = None
    named_without_penalty: int = 0
    lines: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "player": self.player, "house": self.house, "scope": self.scope,
            "entries": [e.as_json() for e in self.entries],
            "ladder": [{"step": r.step, "name": r.name, "says": r.says, "cites": list(r.cites), "records": ids}
                       for r, ids in self.rungs],
            "top": self.top,
            "next": {"step": self.next.step, "text": self.next.text, "hands": self.next.hands, "rounds": self.next.rounds},
            "caveat": self.caveat, "rule_ids": self.rule_ids, "players_at_table": self.players_at_table,
            "named_without_penalty": self.named_without_penalty,
        }


def _round_text(rounds: int, players: int | None) -> tuple[str, int | None]:
    """'2 missed rounds = 16 hands at 8 players' (the calc's arithmetic), or the rule when the count is unknown."""
    unit = f"{rounds} missed round{'s' if rounds != 1 else ''}"
    if players is None:
        return f"{unit} (one hand per player at the table per round)", None
    hands = missed_hand_penalty(players, rounds).hands
    return f"{unit} = {hands} hands at {players} players", hands


def _rounds_beyond(hands: int, players: int | None) -> int:
    """The fewest whole rounds longer than `hands` missed hands (one round when the table is unknown)."""
    return 1 if players is None else hands // players + 1


def suggest(entries: list[Entry], house: str, players: int | None = None) -> tuple[int, Suggestion, str]:
    """(the top step reached, the next step, a caveat)."""
    if players is not None:
        missed_hand_penalty(players, 1)  # the calc's own check of the table size, its own message
    top_entries = sorted(entries, key=lambda e: (step_of(e.penalty, house), e.record_id))
    top = step_of(top_entries[-1].penalty, house) if entries else 0
    rungs = ladder_of(house)
    if top == len(rungs):
        last = top_entries[-1]
        return top, Suggestion(None, f"already disqualified (#{last.record_id}): nothing further; the chips are removed from play"), ""
    if house == "dttf":
        return top, *_suggest_house(top, top_entries, players)
    return top, *_suggest_tda(top, top_entries, players)


def _suggest_tda(top: int, ordered: list[Entry], players: int | None) -> tuple[Suggestion, str]:
    if top == 0:
        return (Suggestion(1, "verbal warning"),
                "For soft play, abuse, disruptive behaviour, dodging blinds or cheating, 71-B calls for a penalty, not a warning.")
    if top == 1:
        limit = f" (a round is {players} hands at {players} players)" if players else ""
        return Suggestion(2, f"missed hands: one or more, fewer than a round{limit}"), ""
    if top == 2:
        longest = max((e.penalty.count or 0) for e in ordered if e.penalty.kind == HANDS) if any(
            e.penalty.kind == HANDS for e in ordered) else 0
        rounds = _rounds_beyond(longest, players)
        text, hands = _round_text(rounds, players)
        return Suggestion(3, text, hands, rounds), ""
    most = max(e.penalty.count or 1 for e in ordered if e.penalty.kind == ROUNDS)
    if most + 1 > MAX_PENALTY_ROUNDS:
        return Suggestion(4, "disqualification"), ""
    text, hands = _round_text(most + 1, players)
    return Suggestion(3, f"{text}, or disqualification", hands, most + 1), ""


def _suggest_house(top: int, ordered: list[Entry], players: int | None) -> tuple[Suggestion, str]:
    severe = "DTTF: a severe infraction such as abusive or disruptive behaviour may be punished by eviction at once."
    if top == 0:
        return Suggestion(1, "verbal warning"), severe
    if top == 1:
        text, hands = _round_text(1, players)
        return (Suggestion(2, f"dealt out for a length of time — DTTF sets no length; measured the TDA way, {text}", hands, 1),
                severe)
    last = [e for e in ordered if step_of(e.penalty, "dttf") == 2][-1].penalty
    if last.kind == MINUTES:
        return Suggestion(2, f"dealt out for longer than the last deal-out ({last.text}), or eviction"), severe
    rounds = (last.count or 1) + 1 if last.kind == ROUNDS else _rounds_beyond(last.count or 0, players)
    if rounds > MAX_PENALTY_ROUNDS:
        return Suggestion(3, "disqualification (eviction)"), ""
    text, hands = _round_text(rounds, players)
    return Suggestion(2, f"dealt out longer than the last deal-out ({last.text}): {text}, or eviction", hands, rounds), severe


def build_ladder(player: str, entries: list[Entry], house: str, scope: str, players: int | None = None,
                 named_without_penalty: int = 0) -> Ladder:
    """The player's ladder under `house` ('dttf' or 'none') from the penalties on record in `scope`."""
    rungs = ladder_of(house)
    reached = [(rung, [e.record_id for e in entries if step_of(e.penalty, house) == rung.step]) for rung in rungs]
    top, suggestion, caveat = suggest(entries, house, players)
    rule_ids = list(dict.fromkeys(c for rung in rungs for c in rung.cites)) + ([R_PENALTIES] if house == "dttf" else [])
    ladder = Ladder(player, house, scope, sorted(entries, key=lambda e: e.record_id), reached, top, suggestion, caveat,
                    list(dict.fromkeys(rule_ids)), players, named_without_penalty)
    ladder.lines = ladder_lines(ladder)
    return ladder


def ladder_lines(ladder: Ladder) -> list[str]:
    """The ladder as the terminal shows it."""
    rules = "house rules (DTTF)" if ladder.house == "dttf" else "TDA 2024 (no house rules)"
    lines = [f"{ladder.player} — {ladder.scope}, under {rules}"]
    if not ladder.entries:
        lines.append("  No warnings or penalties on record.")
    for e in ladder.entries:
        where = " ".join(x for x in (f"table {e.table}" if e.table else "", f"seat {e.seat}" if e.seat else "") if x)
        lines.append(f"  #{e.record_id:<5} {e.when}  {e.penalty.text:<22} {e.title}" + (f"  ({where})" if where else ""))
    if ladder.named_without_penalty:
        n = ladder.named_without_penalty
        lines.append(f"  (also named in {n} ruling{'s' if n != 1 else ''} without a penalty)")
    lines.append("Ladder:")
    for rung, ids in ladder.rungs:
        mark = "✓" if ids else "·"
        reached = f"  {', '.join(f'#{i}' for i in ids)}" if ids else ""
        lines.append(f"  {mark} {rung.step}. {rung.name}{reached}")
    lines.append(f"Next step Floorcall suggests: {ladder.next.text}.")
    if ladder.next.rounds is not None and ladder.players_at_table is None:
        lines.append("  (give --players N, the players at the table now, for the length in hands)")
    if ladder.caveat:
        lines.append(ladder.caveat)
    lines.append(HOUSE_ESCALATION if ladder.house == "dttf" else ESCALATION)
    lines.append("Rules: " + ", ".join(ladder.rule_ids))
    return lines
