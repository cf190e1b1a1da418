"""The facts a floorperson keeps with a ruling, checked: table, seats, players, penalty, note, event.

Pure: text in, checked values out, `FloorError` with one line naming the flag for bad input. The
store saves what this module has accepted; the CLI and the interactive session both build their
facts here, so a name, a penalty or a date means the same wherever it was typed.

A value given as `None` was not given; a value given as an empty string is an error (`--player ""`
is a slip, not a wish to record nobody). A prompt that was left empty passes `None`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo

from floorcall.core.errors import FloorError
from floorcall.core.textnorm import fold
from floorcall.engines.calc import MAX_PENALTY_ROUNDS, MAX_SEAT_NUMBER, MAX_SEATS

MAX_NAME = 80  # a player's or floorperson's name; longer is a paste gone wrong
MAX_PLAYERS = MAX_SEATS  # the players one ruling can name: one table's worth
MAX_TABLE = 20  # "12", "Feature A", "Outer 3": a table's name is short
MAX_EVENT = 80
MAX_NOTE = 500  # one line of what happened; a longer account belongs in the incident report
MAX_PENALTY_HANDS = MAX_SEATS * MAX_PENALTY_ROUNDS  # the longest missed-round penalty, counted in hands
MAX_PENALTY_MINUTES = 240  # DTTF's "length of time": no deal-out lasts four hours, a bigger number is a typo
SHOWN_WIDTH = 80  # an error echoes at most this much of what was typed
# A night's play runs past midnight: "tonight" starts at this local hour, so a ruling at 01:30 is
# still part of the evening that began at 19:00, and nobody is on last night's event at 06:00.
NIGHT_STARTS_AT_HOUR = 6

# ---------------------------------------------------------------- penalties

WARNING = "warning"
HANDS = "hands"
ROUNDS = "rounds"
MINUTES = "minutes"  # DTTF only: "dealt out for a length of time" / "suspended … for a specified length of time"
DISQUALIFICATION = "disqualification"
PENALTY_KINDS = (WARNING, HANDS, ROUNDS, MINUTES, DISQUALIFICATION)

_WARNING_WORDS = {"warning", "warn", "warned", "verbal", "verbal warning", "a warning", "a verbal warning"}
_DQ_WORDS = {"dq", "dqd", "dq'd", "disqualification", "disqualified", "disqualify", "eviction", "evicted", "evict"}
_NO_PENALTY_WORDS = {"none", "no", "no penalty", "nothing"}
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_UNITS = {"hand": HANDS, "hands": HANDS, "round": ROUNDS, "rounds": ROUNDS, "orbit": ROUNDS, "orbits": ROUNDS,
          "m": MINUTES, "min": MINUTES, "mins": MINUTES, "minute": MINUTES, "minutes": MINUTES}
_MEASURED = re.compile(
    r"(?:(?:dealt|deal|sat|sit)\s+out\s+(?:for\s+)?|suspended\s+(?:for\s+)?|suspension\s+(?:of\s+)?)?"
    r"(\d+|a|an|one|two|three|four|five)?\s*(?:missed\s+|penalty\s+)?"
    r"(hands?|rounds?|orbits?|m|mins?|minutes?)(?:\s+penalty|\s+suspension)?")
PENALTY_HELP = "warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"


@dataclass(frozen=True)
class Penalty:
    kind: str  # one of PENALTY_KINDS
    count: int | None = None  # hands, rounds or minutes; None for a warning or a disqualification

    @property
    def text(self) -> str:
        """'verbal warning', '3 missed hands', '1 missed round', 'dealt out 20 minutes', 'disqualification'."""
        if self.kind == WARNING:
            return "verbal warning"
        if self.kind == DISQUALIFICATION:
            return "disqualification"
        if self.kind == MINUTES:
            return f"dealt out {self.count} minute{'s' if self.count != 1 else ''}"
        unit = "hand" if self.kind == HANDS else "round"
        return f"{self.count} missed {unit}{'s' if self.count != 1 else ''}"

    def as_json(self) -> dict:
        return {"kind": self.kind, "count": self.count, "text": self.text}


def shown(text, width: int = SHOWN_WIDTH) -> str:
    """What the user typed, for an error line: at most `width` characters, control characters made visible."""
    visible = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return visible if len(visible) <= width else visible[:width - 1] + "…"


def parse_penalty(text, flag: str = "--penalty") -> Penalty | None:
    """A penalty as a floorperson types it; None for 'none'."""
    raw = str(text)
    said = " ".join(fold(raw).split())
    if not said:
        raise FloorError(f"{flag} is empty — give {PENALTY_HELP}")
    if said in _NO_PENALTY_WORDS:
        return None
    if said in _WARNING_WORDS:
        return Penalty(WARNING)
    if said in _DQ_WORDS:
        return Penalty(DISQUALIFICATION)
    match = _MEASURED.fullmatch(said)
    if not match:
        raise FloorError(f"{flag} '{shown(raw)}' is not a penalty — give {PENALTY_HELP}")
    number, unit = match.group(1), _UNITS[match.group(2)]
    count = 1 if number is None else _NUMBER_WORDS.get(number) or int(number)
    limit = {HANDS: MAX_PENALTY_HANDS, ROUNDS: MAX_PENALTY_ROUNDS, MINUTES: MAX_PENALTY_MINUTES}[unit]
    if not 1 <= count <= limit:
        raise FloorError(f"{flag} '{shown(raw)}': {unit} must be from 1 to {limit}")
    return Penalty(unit, count)


def penalty_from_row(kind: str, count: int | None) -> Penalty | None:
    """The stored form ('' for no penalty) back into a Penalty."""
    return Penalty(kind, count) if kind else None


# ---------------------------------------------------------------- the facts of a ruling


@dataclass(frozen=True)
class Facts:
    """What the floorperson adds to a ruling. Seats and players pair up by position (seat 4 is Ann Lee's);
    a penalty is given to the first player named."""

    event: str = ""
    floorperson: str = ""
    table: str = ""
    seats: tuple[int, ...] = ()
    players: tuple[str, ...] = ()
    penalty: Penalty | None = None
    note: str = ""
    supersedes: int | None = None

    @property
    def penalised(self) -> str:
        """The name of the player the penalty is given to ('' without a penalty)."""
        return self.players[0] if self.penalty and self.players else ""

    def remembered(self) -> Facts:
        """What carries over to the next ruling of the night: where and who, never the penalty or the note
        (a penalty carried over by pressing Enter would log one the floor did not give)."""
        return replace(self, penalty=None, note="", supersedes=None)

    def as_json(self) -> dict:
        return {"event": self.event, "floorperson": self.floorperson, "table": self.table, "seats": list(self.seats),
                "players": list(self.players), "penalty": self.penalty.as_json() if self.penalty else None,
                "note": self.note, "supersedes": self.supersedes}


def clean_line(value, flag: str, limit: int, example: str, *, what: str) -> str:
    """One line of text: whitespace collapsed; empty, over-long or control characters refused."""
    raw = str(value)
    if any(not c.isprintable() and c not in " \t\n\r" for c in raw):
        raise FloorError(f"{flag} '{shown(raw)}' holds control characters — type {what} as plain text")
    cleaned = " ".join(raw.split())
    if not cleaned:
        raise FloorError(f"{flag} is empty — give {what}, e.g. {flag} {example}, or leave the option out")
    if len(cleaned) > limit:
        raise FloorError(f"{flag} is {len(cleaned):,} characters ('{shown(cleaned, 40)}'); {what} is at most {limit}")
    return cleaned


def check_name(value, flag: str = "--player") -> str:
    return clean_line(value, flag, MAX_NAME, '"Ann Lee"', what="a name")


def name_key(name: str) -> str:
    """How names are compared: case, accents and spacing do not matter ('Zoë  LEE' is 'zoe lee')."""
    return " ".join(fold(name).split())


def check_seat(value, flag: str = "--seat") -> int:
    raw = str(value).strip()
    if not raw.isascii() or not raw.isdigit():
        raise FloorError(f"{flag} '{shown(value) or '(empty)'}' is not a seat number — give 1 to {MAX_SEAT_NUMBER}")
    seat = int(raw)
    if not 1 <= seat <= MAX_SEAT_NUMBER:
        raise FloorError(f"{flag} {seat} is not a seat — seats run from 1 to {MAX_SEAT_NUMBER}")
    return seat


def check_record_id(value, flag: str = "ID") -> int:
    raw = str(value).strip().lstrip("#")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18 or int(raw) < 1:
        raise FloorError(f"{flag} '{shown(value) or '(empty)'}' is not a record number — they look like 17 or #17 (see `floor log`)")
    return int(raw)


def make_facts(*, event=None, floorperson=None, table=None, seats=None, players=None, penalty=None, note=None,
               supersedes=None, flags: dict[str, str] | None = None, penalty_needs_player: bool = True) -> Facts:
    """Check each given fact (None: not given); `flags` renames the options in messages for a prompt.
    `penalty_needs_player=False` when the player comes from elsewhere (a correction keeps the record's)."""
    name = {"event": "--event", "floorperson": "FLOORCALL_NAME", "table": "--table", "seat": "--seat",
            "player": "--player", "penalty": "--penalty", "note": "--note", "supersedes": "--supersedes", **(flags or {})}
    seats = [check_seat(s, name["seat"]) for s in (seats or [])]
    players = [check_name(p, name["player"]) for p in (players or [])]
    if len(players) > MAX_PLAYERS or len(seats) > MAX_PLAYERS:
        raise FloorError(f"at most {MAX_PLAYERS} players and seats to a ruling: one table's worth")
    if len(set(seats)) != len(seats):
        raise FloorError(f"{name['seat']}: a seat is given twice")
    if len({name_key(p) for p in players}) != len(players):
        raise FloorError(f"{name['player']}: a player is named twice")
    given_penalty = parse_penalty(penalty, name["penalty"]) if penalty is not None else None
    if given_penalty is not None and not players and penalty_needs_player:
        raise FloorError(f"{name['penalty']} needs {name['player']} NAME: a penalty is given to a player, and the "
                         "ladder follows the player")
    return Facts(
        event=clean_line(event, name["event"], MAX_EVENT, '"Friday NLH"', what="the event's name") if event is not None else "",
        floorperson=check_name(floorperson, name["floorperson"]) if floorperson is not None else "",
        table=clean_line(table, name["table"], MAX_TABLE, "12", what="the table's number or name") if table is not None else "",
        seats=tuple(seats), players=tuple(players), penalty=given_penalty,
        note=clean_line(note, name["note"], MAX_NOTE, '"chip landed before he spoke"', what="a one-line note") if note is not None else "",
        supersedes=check_record_id(supersedes, name["supersedes"]) if supersedes is not None else None,
    )


def check_penalty_for_house(penalty: Penalty | None, house: str, flag: str = "--penalty") -> None:
    """A timed deal-out is the house's penalty; under pure TDA 2024 a penalty is counted in hands or rounds."""
    if penalty is not None and penalty.kind == MINUTES and house == "none":
        raise FloorError(f"{flag} '{penalty.text}' is a timed deal-out, the house's penalty (DTTF); TDA 71 counts "
                         "penalties in missed hands or rounds — give N hands or N rounds (floor calc penalty), or use --house dttf")


# ---------------------------------------------------------------- the answer path


def path_key(path) -> str:
    """The answers taken as one comparable string, 'declared=silent;stage=flop' (question order kept)."""
    pairs = []
    for step in path:
        question, answer = (step["question"], step["answer"]) if isinstance(step, dict) else (step.question, step.answer)
        pairs.append(f"{question}={answer}")
    return ";".join(pairs)


def search_text(*parts) -> str:
    """The folded text that free-text search looks in."""
    return " ".join(" ".join(fold(str(p)).split()) for p in parts if p)


# ---------------------------------------------------------------- times


@dataclass(frozen=True)
class Window:
    """A span of time to list: from `start` (aware, UTC) on; `label` says it in words."""

    start: datetime | None
    label: str


def night_start(now: datetime) -> datetime:
    """When tonight began (local time): the last NIGHT_STARTS_AT_HOUR o'clock at or before `now`."""
    start = now.replace(hour=NIGHT_STARTS_AT_HOUR, minute=0, second=0, microsecond=0)
    return start if now >= start else start - timedelta(days=1)


SINCE_HELP = "YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday, tonight, Nd (days ago) or all"
_DAYS_AGO = re.compile(r"(\d{1,4})\s*(?:d|days?)(?:\s+ago)?")


def parse_since(text, now: datetime | None = None, tz: tzinfo | None = None, flag: str = "--since") -> Window:
    """A start time as people type it, read in local time (`tz`, default the system's)."""
    now = (now or datetime.now(UTC)).astimezone(tz)
    raw = str(text)
    said = " ".join(raw.strip().lower().split())
    if not said:
        raise FloorError(f"{flag} is empty — give {SINCE_HELP}")
    if said == "all":
        return Window(None, "all rulings")
    if said == "tonight":
        start = night_start(now)
        return Window(start.astimezone(UTC), f"tonight (since {start:%Y-%m-%d %H:%M})")
    if said in ("today", "yesterday"):
        day = now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=said == "yesterday")
        return Window(day.astimezone(UTC), f"since {day:%Y-%m-%d}")
    match = _DAYS_AGO.fullmatch(said)
    if match:
        day = now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=int(match.group(1)))
        return Window(day.astimezone(UTC), f"since {day:%Y-%m-%d}")
    for pattern, label in (("%Y-%m-%d", "%Y-%m-%d"), ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M"),
                           ("%Y-%m-%dt%H:%M", "%Y-%m-%d %H:%M"), ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S")):
        try:
            start = datetime.strptime(said, pattern)
        except ValueError:
            continue
        local = start.replace(tzinfo=now.tzinfo) if tz is not None else start.astimezone()
        return Window(local.astimezone(UTC), f"since {start.strftime(label)}")
    raise FloorError(f"{flag} '{shown(raw)}' is not a date — give {SINCE_HELP}")


def tonight(now: datetime | None = None, tz: tzinfo | None = None) -> Window:
    return parse_since("tonight", now, tz)


def local_time(stamp: str, tz: tzinfo | None = None) -> datetime:
    """A stored UTC timestamp in local time."""
    return datetime.fromisoformat(stamp).astimezone(tz)
