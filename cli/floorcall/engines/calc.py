"""The arithmetic behind a ruling: raises, silent chip pushes, pot-limit, penalties,
hand-for-hand, table balancing and chip races.

Pure functions: numbers (or the short texts people type, parsed by the helpers here) in,
dataclasses out. Every result carries `rule_ids` (the rules applied, primary first) and an
`explanation` in our own words. Bad input raises `FloorError` with a one-line message. No
printing, no typer: `calc_cli` does the formatting.

Scope of the betting calculators: no-limit and pot-limit (TDA 43, 45 and 47-A); limit betting
has its own re-opening standard (47-B) that is not modelled here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from floorcall.core.errors import FloorError, shown

# ---------------------------------------------------------------- rule ids (never change)

R_RANDOM_SEATING_BREAK = "tda-2024:10"
R_BALANCING = "tda-2024:11"
R_NEW_LEVEL = "tda-2024:23"
R_CHIP_RACE = "tda-2024:24"
R_MISDEALS = "tda-2024:35"
R_BETTING_METHODS = "tda-2024:40"
R_CALLING = "tda-2024:41"
R_RAISING = "tda-2024:42"
R_RAISE_AMOUNTS = "tda-2024:43"
R_OVERCHIP = "tda-2024:44"
R_MULTI_CHIP = "tda-2024:45"
R_PRIOR_CHIPS = "tda-2024:46"
R_REOPENING = "tda-2024:47"
R_BINDING = "tda-2024:51"
R_INCORRECT_BETS = "tda-2024:52"
R_POT_LIMIT = "tda-2024:54"
R_PENALTIES = "tda-2024:71"
R_H4H_2024 = "tda-2024:RP-8"
R_H4H_2019 = "tda-2019:RP-8"
R_FINAL_TABLE = "tda-2024:RP-9"
R_HOUSE_COLOR_UP = "dttf:color-up"
R_HOUSE_BREAKING = "dttf:breaking-tables"
R_HOUSE_WHO_MOVES = "dttf:balancing-big-blind-moves"
R_HOUSE_BALANCE = "dttf:table-balance-limits"
R_HOUSE_REDRAWS = "dttf:redraws"
R_HOUSE_PENALTIES = "dttf:misconduct-penalties"

# ---------------------------------------------------------------- limits on input

MAX_CHIPS = 10**12  # more than any tournament has in play: a bigger number is a typo, not a stack
MAX_SEATS = 10  # no tournament table seats more than ten players
MIN_SEATS = 2  # a table needs two players to deal a hand
DEFAULT_SEATS = 9  # the usual full hold'em table; --seats covers 10-, 8-, 7- and 6-handed events
MAX_TABLES = 1000  # larger than any field; guards against a pasted list gone wrong
MAX_PENALTY_ROUNDS = 10  # a guard against typos: no missed-round penalty comes near ten rounds
MAX_LEVEL_SECONDS = 4 * 60 * 60  # no tournament level lasts four hours; longer is a typo
MAX_H4H_HANDS = 500  # longer than any bubble; a guard against typos
MAX_SEAT_NUMBER = 10  # seat numbers run 1..10 at the largest tables
MAX_ACTIONS = 200  # far more actions than one betting round ever sees

# ---------------------------------------------------------------- rule constants

HALTING_GAP = 3  # TDA 11-D: a table this many or more players short of the fullest halts
HOUSE_MANY_TABLES = 6  # DTTF: above six tables, tables are kept within two players
HOUSE_TOLERANCE_MANY = 2
HOUSE_TOLERANCE_FEW = 1
HOUSE_REDRAW_AT = (3, 2, 1)  # DTTF redraws seats when the field is down to these table counts
# RP-9: table size of the event -> size of the final table.
FINAL_TABLE_SIZE = {9: 9, 8: 9, 7: 7, 6: 7}
H4H_2019_SECONDS = 120  # 2019 RP-8-B: a fixed 2 minutes off the clock per hand
H4H_2024_MAX_SECONDS = 180  # 2024 RP-8-B: at most 3 minutes per hand
H4H_2024_DEFAULT_SECONDS = 120  # RP-8-C and D: 2 minutes each hand, whenever possible (RP-8-B caps it at 3)
EDITIONS = ("2019", "2024")
# A chip race awards one new chip for every full new-chip value of the raced chips, plus one
# more when the remainder is half a chip or more. TDA 24 does not fix the rounding; this is the
# common practice.
RACE_ROUNDS_HALF_UP = True


# ---------------------------------------------------------------- parsing helpers

# Digit runs are bounded: a longer number is a typo (MAX_CHIPS has 13 digits), and int() of a
# 4,300-digit string raises.
_PLAIN = re.compile(r"\d{1,18}")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3}){1,6}")
_KILO = re.compile(r"(\d{1,15}(?:\.\d{1,6})?)k")


def parse_amount(text, what: str, *, allow_zero: bool = True, thousands: bool = True) -> int:
    """A chip amount typed by a person: 1500, 1,500 (when `thousands`), 1.5k; never negative."""
    if isinstance(text, bool):
        raise FloorError(f"{what}: '{shown(text)}' is not a number of chips")
    if isinstance(text, int):
        raw, value = str(text), text
    else:
        raw = str(text).strip()
        s = raw.replace("_", "").lower()
        if s.startswith(("-", "−")):
            raise FloorError(f"{what} must not be negative (got {shown(raw)})")
        if _PLAIN.fullmatch(s):
            value = int(s)
        elif thousands and _THOUSANDS.fullmatch(s):
            value = int(s.replace(",", ""))
        elif _KILO.fullmatch(s):
            scaled = Decimal(s[:-1]) * 1000
            if scaled != scaled.to_integral_value():
                raise FloorError(f"{what}: '{shown(raw)}' is not a whole number of chips")
            value = int(scaled)
        else:
            raise FloorError(f"{what}: '{shown(raw) if raw else '(empty)'}' is not a number of chips (use digits, e.g. 1500 or 1.5k)")
    if value < 0:
        raise FloorError(f"{what} must not be negative (got {shown(raw)})")
    if value == 0 and not allow_zero:
        raise FloorError(f"{what} must be more than 0")
    if value > MAX_CHIPS:
        raise FloorError(f"{what}: {shown(raw)} is more chips than any tournament has in play")
    return value


def parse_count(text, what: str, *, low: int, high: int) -> int:
    """A small whole number (players, rounds, hands, seats) within [low, high]."""
    raw = str(text).strip()
    if raw.startswith(("-", "−")) and _PLAIN.fullmatch(raw[1:]):
        raise FloorError(f"{what} must not be negative (got {shown(raw)})")
    if not _PLAIN.fullmatch(raw):
        raise FloorError(f"{what}: '{shown(raw) or '(empty)'}' is not a whole number")
    value = int(raw)
    if value < low or value > high:
        raise FloorError(f"{what} must be between {low} and {high} (got {value})")
    return value


def parse_chip_list(text, what: str = "--chips") -> list[int]:
    """Chips pushed out: '1000,100,100' or '1000, 3x100' (a count times a denomination)."""
    raw = str(text).strip()
    if not raw:
        raise FloorError(f"{what}: give the chips, e.g. 1000,100,100 or 1000,3x100")
    chips: list[int] = []
    for part in re.split(r"[,\s+]+", raw):
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,4})\s*[x×*]\s*(\S+)", part, re.I)
        count, denomination = (int(match.group(1)), match.group(2)) if match else (1, part)
        if count < 1 or count > 1000:
            raise FloorError(f"{what}: '{shown(part)}' must have a count from 1 to 1000")
        chips += [parse_amount(denomination, f"{what} chip", allow_zero=False, thousands=False)] * count
    if not chips:
        raise FloorError(f"{what}: give the chips, e.g. 1000,100,100 or 1000,3x100")
    return chips


@dataclass(frozen=True)
class Blinds:
    small: int
    big: int


def parse_blinds(text) -> Blinds:
    """'100/200' or '100-200': small and big blind."""
    raw = str(text).strip()
    parts = re.split(r"\s*[/\-]\s*", raw)
    if len(parts) != 2 or not all(parts):
        if raw.startswith("-"):
            raise FloorError(f"--blinds must not be negative (got {shown(raw)})")
        raise FloorError(f"--blinds: '{shown(raw)}' is not SB/BB, e.g. 100/200")
    small = parse_amount(parts[0], "small blind", thousands=False)
    big = parse_amount(parts[1], "big blind", allow_zero=False, thousands=False)
    if small > big:
        raise FloorError(f"--blinds: the small blind ({small:,}) is bigger than the big blind ({big:,})")
    return Blinds(small, big)


def parse_clock(text, what: str) -> int:
    """Minutes and seconds on a clock, '17:30' or '17' or '2.5' (minutes); returns seconds."""
    raw = str(text).strip()
    if raw.startswith(("-", "−")):
        raise FloorError(f"{what} must not be negative (got {shown(raw)})")
    match = re.fullmatch(r"(\d{1,3}):([0-5]\d)", raw)
    if match:
        seconds = int(match.group(1)) * 60 + int(match.group(2))
    else:
        try:
            minutes = Decimal(raw) if len(raw) <= 20 else Decimal("NaN")  # 1e999999999 would overflow below
        except InvalidOperation:
            raise FloorError(f"{what}: '{shown(raw) or '(empty)'}' is not a time (use minutes:seconds, e.g. 17:30)") from None
        if not minutes.is_finite():
            raise FloorError(f"{what}: '{shown(raw)}' is not a time (use minutes:seconds, e.g. 17:30)")
        if minutes > MAX_LEVEL_SECONDS:
            raise FloorError(f"{what}: '{shown(raw)}' is longer than any tournament level")
        total = minutes * 60
        if total != total.to_integral_value():
            raise FloorError(f"{what}: '{shown(raw)}' is not a whole number of seconds")
        seconds = int(total)
    return seconds


def format_clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _half(amount: int) -> int | float:
    """Half a raise, exact: an int when even, else x.5."""
    return amount // 2 if amount % 2 == 0 else amount / 2


# ---------------------------------------------------------------- the three rules of raise arithmetic
# One formula each, used by the calculators below and by the quiz's addendum items, so training
# and the table can never compute them differently.


def minimum_raise_to(current_bet: int, largest_increase: int) -> int:
    """Rule 43: the smallest legal raise total adds the largest full bet or raise of the round."""
    return current_bet + largest_increase


def half_raise_line(to_call: int, min_raise: int) -> int | float:
    """Rule 45's 50% standard: chips beyond the call make a raise when they reach the call plus half a minimum raise."""
    return to_call + _half(min_raise)


def reopens(faces: int, full_raise: int) -> bool:
    """Rule 47: betting re-opens for a player who has acted only when he faces at least a full raise."""
    return faces >= full_raise


def _chips(n: int | float) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:,.1f}"


# ---------------------------------------------------------------- 1. raise amounts and re-opening

VERBS = {
    "bet": "bet", "bets": "bet", "open": "bet", "opens": "bet",
    "raise": "raise", "raises": "raise", "reraise": "raise", "re-raise": "raise", "reraises": "raise", "re-raises": "raise",
    "call": "call", "calls": "call", "limp": "call", "limps": "call",
    "check": "check", "checks": "check",
    "fold": "fold", "folds": "fold",
    "allin": "allin", "all-in": "allin", "shove": "allin", "shoves": "allin", "jam": "allin", "jams": "allin",
}
NEEDS_AMOUNT = {"bet", "raise", "allin"}
ACTION_HELP = "write e.g. \"bet 600, raise 1600, allin 1700\" or name players: \"A bet 100, B allin 125, A call\""


@dataclass(frozen=True)
class Action:
    player: str
    verb: str  # bet | raise | call | check | fold | allin
    amount: int | None = None  # the player's total for the round ("raise 1600" = to 1600)
    by: bool = False  # "raise by 1000": amount is the increase over the current bet
    text: str = ""


def parse_actions(text: str) -> list[Action]:
    """'bet 600, raise 1600, allin 1700' (one new player per action) or 'A bet 100, B: allin 125, A call'."""
    raw = str(text or "").strip()
    if not raw:
        raise FloorError(f"--actions is empty: {ACTION_HELP}")
    normal = re.sub(r"\ball\s+in\b", "allin", raw, flags=re.I)
    # A comma or semicolon followed by a letter starts the next action, so "bet 1,600, raise 3,600" works.
    items = [item.strip() for item in re.split(r"[;\n]+|,(?=\s*[^\d\s])", normal)]
    if len(items) > MAX_ACTIONS:
        raise FloorError(f"--actions: {len(items)} actions is more than one betting round holds ({MAX_ACTIONS} at most)")
    actions: list[Action] = []
    anonymous = 0
    for item in items:
        if not item:
            raise FloorError(f"--actions: an empty action in '{shown(raw)}' — {ACTION_HELP}")
        tokens = item.replace(":", ": ").split()
        name = None
        if tokens[0].endswith(":"):
            name, tokens = tokens[0][:-1], tokens[1:]
        elif tokens[0].lower() not in VERBS and len(tokens) >= 2 and tokens[1].lower() in VERBS:
            name, tokens = tokens[0], tokens[1:]
        if not tokens:
            raise FloorError(f"--actions: '{item}' names a player but no action — {ACTION_HELP}")
        word = tokens[0].lower()
        if word not in VERBS:
            raise FloorError(f"--actions: unknown action '{tokens[0]}' in '{item}' — use bet, raise, call, check, fold or allin")
        verb = VERBS[word]
        rest = tokens[1:]
        by = False
        if rest and rest[0].lower() in ("to", "for"):
            rest = rest[1:]
        elif rest and rest[0].lower() == "by":
            if verb != "raise":
                raise FloorError(f"--actions: 'by' only goes with raise, in '{item}'")
            by, rest = True, rest[1:]
        if len(rest) > 1:
            raise FloorError(f"--actions: cannot read '{item}' — {ACTION_HELP}")
        amount = parse_amount(rest[0], f"--actions '{item}'", allow_zero=False) if rest else None
        if verb in NEEDS_AMOUNT and amount is None:
            raise FloorError(f"--actions: '{item}' needs an amount, e.g. '{word} 600'")
        if verb in ("check", "fold") and amount is not None:
            raise FloorError(f"--actions: '{item}' takes no amount")
        if name is None:
            anonymous += 1
            name = f"#{anonymous}"
        actions.append(Action(name, verb, amount, by, item))
    return actions


@dataclass
class PlayerState:
    name: str
    put_in: int  # chips in front of the player this round
    status: str  # live | all-in | folded
    acted: bool  # has acted voluntarily this round (posting a blind is not acting)
    to_call: int
    may_raise: bool | None  # None when folded or all-in
    reason: str


@dataclass
class RaiseResult:
    blinds: list[int]
    preflop: bool
    current_bet: int
    min_raise: int  # the smallest legal increase
    min_raise_to: int  # the smallest legal total for a raise
    half_raise_line: int | float  # said or pushed without "raise": at or above it, held to a full raise
    largest_full: str  # which bet or raise sets the minimum
    players: list[PlayerState]
    corrections: list[str]
    rule_ids: list[str]
    explanation: str


@dataclass
class _Seat:
    name: str
    put_in: int = 0
    status: str = "live"
    acted: bool = False


def raise_state(blinds: Blinds, actions: list[Action], preflop: bool = False) -> RaiseResult:
    """Play the actions of one no-limit or pot-limit betting round; return the bet to beat,
    the minimum legal raise, and for each player whether betting is open to them (Rules 43, 47)."""
    if blinds.big <= 0:
        raise FloorError("the big blind must be more than 0")
    seats: dict[str, _Seat] = {}
    current = 0
    min_inc = blinds.big  # pre-flop the big blind is the bet; post-flop it is the minimum bet
    largest = f"the big blind of {blinds.big:,}" if preflop else f"the minimum bet (the big blind, {blinds.big:,})"
    corrections: list[str] = []
    rules = [R_RAISE_AMOUNTS, R_REOPENING]
    if preflop:
        seats["SB"] = _Seat("SB", blinds.small)
        seats["BB"] = _Seat("BB", blinds.big)
        current = blinds.big
    for action in actions:
        name = action.player
        seat = seats.setdefault(name, _Seat(name))
        if seat.status != "live":
            state = "folded" if seat.status == "folded" else "is all-in"
            raise FloorError(f"--actions: {name} {state} and cannot act again ('{action.text}')")
        to_call = current - seat.put_in
        closed = seat.acted and not reopens(to_call, min_inc)
        who = _who(name)
        if action.verb == "check":
            if to_call > 0:
                raise FloorError(f"--actions: {who} cannot check facing {to_call:,} to call ('{action.text}')")
        elif action.verb == "fold":
            seat.status = "folded"
        elif action.verb == "call":
            if to_call == 0:
                raise FloorError(f"--actions: {who} has nothing to call ('{action.text}'): write 'check'")
            if action.amount is not None and action.amount != current:
                raise FloorError(
                    f"--actions: {who} calls {action.amount:,} but the bet is {current:,} ('{action.text}'); "
                    "an all-in for less is 'allin AMOUNT'"
                )
            seat.put_in = current
        elif action.verb == "bet":
            if current > 0:
                there = "pre-flop the big blind is the opening bet" if preflop and current == blinds.big else f"there is already a bet of {current:,}"
                raise FloorError(f"--actions: {who} cannot bet: {there} — write 'raise' ('{action.text}')")
            assert action.amount is not None  # parse_actions refuses a bet without an amount
            amount = action.amount
            if amount < blinds.big:
                corrections.append(
                    f"{who}'s bet of {amount:,} is below the minimum bet of {blinds.big:,}; "
                    f"on this street it is corrected to {blinds.big:,} (Rule 52-A)"
                )
                amount = blinds.big
                _add(rules, R_INCORRECT_BETS)
            min_inc = amount
            largest = f"{who}'s bet of {amount:,}"
            current = seat.put_in = amount
        elif action.verb == "raise":
            if current == 0:
                raise FloorError(f"--actions: nobody has bet yet, so {who} cannot raise — write 'bet' ('{action.text}')")
            if closed:
                raise FloorError(_closed_message(who, to_call, min_inc, action.text))
            assert action.amount is not None  # parse_actions refuses a raise without an amount
            target = current + action.amount if action.by else action.amount
            if target <= current:
                raise FloorError(f"--actions: {who}'s raise to {target:,} is not above the bet of {current:,} ('{action.text}')")
            increase = target - current
            if increase < min_inc:
                legal = current + min_inc
                half = "at least half" if 2 * increase >= min_inc else "less than half"
                corrections.append(
                    f"{who}'s raise to {target:,} is {legal - target:,} short of the minimum raise to {legal:,} "
                    f"({half} a raise of {min_inc:,}): a declared raise is made up to {legal:,} (Rule 43-A), "
                    "and an underraise is corrected on this street (Rule 52-A)"
                )
                _add(rules, R_INCORRECT_BETS)
                target, increase = legal, min_inc
            min_inc = increase
            largest = f"{who}'s raise of {increase:,}, from {current:,} to {target:,}"
            current = seat.put_in = target
        elif action.verb == "allin":
            assert action.amount is not None  # parse_actions refuses an all-in without an amount
            target = action.amount
            if target <= seat.put_in:
                raise FloorError(f"--actions: {who} is all-in for {target:,}, no more than the {seat.put_in:,} already in ('{action.text}')")
            if target > current:
                if closed:
                    raise FloorError(_closed_message(who, to_call, min_inc, action.text))
                increase = target - current
                if increase >= min_inc:
                    kind = "bet" if current == 0 else "raise"
                    min_inc = increase
                    largest = f"{who}'s all-in {kind} of {increase:,}" + (f", from {current:,} to {target:,}" if current else "")
                current = target
            seat.put_in = target
            seat.status = "all-in"
        seat.acted = True

    players = [_player_state(seat, current, min_inc) for seat in seats.values()]
    half_line = half_raise_line(current, min_inc)
    explanation = (
        f"The bet to call is {current:,}. The largest full bet or raise this round is {largest}, so a raise must add "
        f"at least {min_inc:,}: to {current + min_inc:,} or more. Short all-ins do not change that amount; "
        "a player who has already acted may raise again only if what he now faces adds up to a full raise."
    )
    return RaiseResult(
        blinds=[blinds.small, blinds.big], preflop=preflop, current_bet=current, min_raise=min_inc,
        min_raise_to=minimum_raise_to(current, min_inc), half_raise_line=half_line, largest_full=largest, players=players,
        corrections=corrections, rule_ids=rules, explanation=explanation,
    )


def min_raise(blinds: Blinds, actions: list[Action], preflop: bool = False) -> int:
    """The smallest legal total for the next raise."""
    return raise_state(blinds, actions, preflop).min_raise_to


def _who(name: str) -> str:
    return f"player {name}" if name.startswith("#") else name


def _add(rules: list[str], rule_id: str) -> None:
    if rule_id not in rules:
        rules.append(rule_id)


def _closed_message(who: str, to_call: int, min_inc: int, text: str) -> str:
    if to_call == 0:
        return (f"--actions: {who} may not raise ('{shown(text)}'): he has matched the bet and nobody has bet or raised "
                "since, so the action is not on him")
    return (
        f"--actions: {who} may not raise ('{shown(text)}'): he has acted and faces only {to_call:,} more, "
        f"less than a full raise of {min_inc:,}, so betting is not re-opened (Rule 47) — he may call or fold"
    )


def _player_state(seat: _Seat, current: int, min_inc: int) -> PlayerState:
    """The player's position; `reason` reads after his name ("A has acted and …")."""
    to_call = max(current - seat.put_in, 0)
    raise_to = f"{minimum_raise_to(current, min_inc):,}"
    if seat.status == "folded":
        return PlayerState(seat.name, seat.put_in, "folded", seat.acted, 0, None, "has folded")
    if seat.status == "all-in":
        return PlayerState(seat.name, seat.put_in, "all-in", seat.acted, 0, None, f"is all-in for {seat.put_in:,}")
    if not seat.acted:
        options = f"fold, call {to_call:,} or raise to at least {raise_to}" if to_call else f"check or raise to at least {raise_to}"
        reason = f"has not acted yet (a posted blind is not an action): may {options}"
        return PlayerState(seat.name, seat.put_in, "live", False, to_call, True, reason)
    if to_call == 0:
        return PlayerState(seat.name, seat.put_in, "live", True, 0, False, "has matched the bet: no action unless someone bets or raises")
    if reopens(to_call, min_inc):
        reason = (f"has acted and now faces {to_call:,} more, at least a full raise of {min_inc:,}: "
                  f"betting is re-opened — fold, call or raise to at least {raise_to}")
        return PlayerState(seat.name, seat.put_in, "live", True, to_call, True, reason)
    reason = (f"has acted and faces only {to_call:,} more, less than a full raise of {min_inc:,}: "
              "betting is not re-opened — call or fold only")
    return PlayerState(seat.name, seat.put_in, "live", True, to_call, False, reason)


# ---------------------------------------------------------------- 2. silent chip pushes

DECLARATIONS = ("none", "call", "raise", "allin")
PULLED = ("none", "all", "some")


@dataclass
class ChipPushResult:
    kind: str  # call | raise | all-in | bet
    facing: int  # the bet the player must match, in total for the round
    min_raise: int
    pushed: int  # new chips put out
    total: int  # chips in the bet after the push (prior chips left out included)
    takes: int  # chips that stay in as the bet (a call takes no more than the call)
    change: int  # chips returned to the player
    add: int  # chips the player must add (to complete a call or a minimum raise)
    raise_to: int | None  # the total of the raise or all-in above the call, else None
    full_raise: bool | None  # whether that raise is a full raise (re-opens betting)
    every_chip_needed: bool | None  # Rule 45: removing one smallest chip leaves less than the call
    half_raise_line: int | float  # the 50% standard: the call plus half a minimum raise
    situation: int | None  # Rule 46 situation (1-4) when prior bet chips were in front
    rule_ids: list[str]
    explanation: str


def chip_push(
    facing: int,
    min_raise: int,
    chips: list[int],
    *,
    prior: list[int] | tuple = (),
    pulled: str = "none",
    last_chips: bool = False,
    declared: str = "none",
) -> ChipPushResult:
    """Read chips put out facing a bet: call, raise (to what) or all-in (Rules 44, 45, 46).

    `facing` is the total bet to match this round; `prior` the player's earlier bet chips in front
    of him (with `pulled`: none = left alone, all = pulled back, some = the chips still out)."""
    if facing < 0 or min_raise < 0 or any(c <= 0 for c in chips) or any(c <= 0 for c in prior):
        raise FloorError("chip amounts must be more than 0 and the bet to call must not be negative")
    if not chips:
        raise FloorError("--chips: give the chips that were put out")
    if min_raise <= 0:
        raise FloorError("--min-raise must be more than 0 (the largest full bet or raise of the round, at least the big blind)")
    if declared not in DECLARATIONS:
        raise FloorError(f"--declared must be one of {', '.join(DECLARATIONS)} (got '{declared}')")
    if pulled not in PULLED:
        raise FloorError(f"--pulled must be one of {', '.join(PULLED)} (got '{pulled}')")
    if pulled != "none" and not prior:
        raise FloorError("--pulled needs --prior: the earlier bet chips that were in front of the player")
    if prior and facing == 0:
        raise FloorError("--prior: earlier bet chips only matter when the player faces a raise (--facing above them)")

    prior_in = [] if pulled == "all" else list(prior)
    final = prior_in + list(chips)
    pushed, total = sum(chips), sum(final)
    half_line = half_raise_line(facing, min_raise)
    rules: list[str] = []

    def result(kind, *, takes, add=0, raise_to=None, full=None, needed=None, situation=None, why=""):
        change = total + add - takes if kind == "call" else 0
        return ChipPushResult(kind, facing, min_raise, pushed, total, takes, change, add, raise_to, full, needed,
                              half_line, situation, rules, why)

    if facing == 0:
        rules.append(R_OVERCHIP if len(chips) == 1 else R_BETTING_METHODS)
        if total < min_raise:
            _add(rules, R_INCORRECT_BETS)
            return result("bet", takes=total, add=min_raise - total, raise_to=None, why=(
                f"Not facing a bet, chips put out are a bet of their total, {total:,}. That is below the minimum bet of "
                f"{min_raise:,}, so it is corrected to {min_raise:,} on this street."))
        why = (f"Not facing a bet, a single oversized chip put out silently is a bet of the chip's full value, {total:,}."
               if len(chips) == 1 else f"Not facing a bet, chips put out are a bet of their total, {total:,}.")
        return result("bet", takes=total, why=why)

    prior_covered = sum(prior) >= facing
    if not prior:
        situation = None
    elif prior_covered:
        situation = 4
    else:
        situation = {"none": 1, "all": 2, "some": 3}[pulled]
    single = len(chips) == 1 and situation in (None, 1, 2)
    pool = final if situation in (3, 4) else list(chips)
    every_needed = total - min(pool) < facing
    if situation is not None:
        rules.append(R_PRIOR_CHIPS)
    rules += [R_OVERCHIP] if single else [R_MULTI_CHIP]
    prior_words = _prior_words(situation, sum(prior), facing)

    # Declarations come first: what was said before the chips landed defines the action.
    if declared == "call":
        _add(rules, R_BINDING)
        if total < facing:
            if last_chips:
                return result("all-in", takes=total, needed=every_needed, situation=situation, why=(
                    f"{prior_words}'Call' with his last chips, {total:,}, short of the {facing:,} bet: he is all-in for less."))
            return result("call", takes=facing, add=facing - total, needed=every_needed, situation=situation, why=(
                f"{prior_words}'Call' commits him to the full call of {facing:,}: he adds {facing - total:,}."))
        return result("call", takes=facing, needed=every_needed, situation=situation, why=(
            f"{prior_words}'Call' was said first, so it is a call of {facing:,} whatever the chips{_returned(total - facing)}."))
    if declared == "allin":
        return _all_in(result, rules, total, facing, min_raise, every_needed, situation, prior_words, "He declared all-in: ")
    if declared == "raise":
        _add(rules, R_RAISE_AMOUNTS)
        if total >= facing + min_raise:
            what = "the largest raise the chip allows" if single else "a raise of everything put out"
            return result("raise", takes=total, raise_to=total, full=True, needed=every_needed, situation=situation, why=(
                f"{prior_words}'Raise' was said first: {what}, to {total:,} (a full raise: at least {facing + min_raise:,})."))
        if last_chips:
            return _all_in(result, rules, total, facing, min_raise, every_needed, situation, prior_words,
                           "'Raise' with his last chips, short of a full raise: ")
        legal = facing + min_raise
        return result("raise", takes=legal, add=legal - total, raise_to=legal, full=True, needed=every_needed, situation=situation, why=(
            f"{prior_words}'Raise' was said first, so he must make at least a minimum raise: to {legal:,}, adding {legal - total:,}."))

    if total < facing:
        if not last_chips:
            raise FloorError(
                f"the chips put out ({total:,}) do not cover the call of {facing:,}: that is an undercall (Rule 51) — "
                "add --last-chips if they are the player's last chips"
            )
        return result("all-in", takes=total, needed=True, situation=situation, why=(
            f"{prior_words}His last chips, {total:,}, do not cover the {facing:,} bet: he is all-in for less (a call)."))
    if single:
        last = " (his last chip)" if last_chips else ""
        return result("call", takes=facing, needed=True, situation=situation, why=(
            f"{prior_words}One oversized chip{last} put out silently facing a bet is a call of {facing:,}"
            f"{_returned(total - facing)}. To raise with it he must say 'raise' before it lands."))
    if every_needed:
        return result("call", takes=facing, needed=True, situation=situation, why=(
            f"{prior_words}Every chip is needed for the call: taking away one of the smallest ({min(pool):,}) leaves "
            f"{total - min(pool):,}, less than {facing:,}. It is a call{_returned(total - facing)}."))
    not_needed = (f"{prior_words}Not every chip is needed for the call (taking away one {min(pool):,} still leaves "
                  f"{total - min(pool):,}, at least {facing:,}). ")
    if last_chips:
        return _all_in(result, rules, total, facing, min_raise, every_needed, situation, not_needed,
                       "These are his last chips, so he is all-in whether or not the 50% line is reached: ")
    _add(rules, R_RAISE_AMOUNTS)
    if total >= facing + min_raise:
        return result("raise", takes=total, raise_to=total, full=True, needed=False, situation=situation, why=(
            f"{not_needed}The {total:,} put out is at least a full raise (to {facing + min_raise:,}), so it is a raise to {total:,}."))
    if 2 * (total - facing) >= min_raise:
        legal = facing + min_raise
        return result("raise", takes=legal, add=legal - total, raise_to=legal, full=True, needed=False, situation=situation, why=(
            f"{not_needed}The 50% standard: the call {facing:,} plus half the minimum raise of {min_raise:,} is "
            f"{_chips(half_line)}, and {total:,} reaches it, so he must complete a full raise to {legal:,} (adding {legal - total:,})."))
    return result("call", takes=facing, needed=False, situation=situation, why=(
        f"{not_needed}The 50% standard: the call {facing:,} plus half the minimum raise of {min_raise:,} is "
        f"{_chips(half_line)}, and {total:,} falls short, so it is a call{_returned(total - facing)}."))


def _returned(change: int) -> str:
    return f"; {change:,} is returned" if change else ""


def _prior_words(situation: int | None, prior_total: int, facing: int) -> str:
    if situation is None:
        return ""
    return {
        1: f"His earlier {prior_total:,} stays out and does not cover the {facing:,} call, so only the new chips are judged (Rule 46 situation 1). ",
        2: f"He pulled his earlier {prior_total:,} back, so only the new chips count (Rule 46 situation 2). ",
        3: "He pulled back part of his earlier chips, so everything now out is one multiple-chip bet (Rule 46 situation 3). ",
        4: f"His earlier {prior_total:,} already covers the {facing:,} call, so adding chips makes one multiple-chip bet of all of them (Rule 46 situation 4). ",
    }[situation]


def _all_in(result, rules, total, facing, min_raise, every_needed, situation, lead, reason):
    _add(rules, R_REOPENING)
    if total <= facing:
        return result("all-in", takes=total, needed=every_needed, situation=situation, why=(
            f"{lead}{reason}all-in for {total:,}, a call" + (" for less." if total < facing else ".")))
    full = total - facing >= min_raise
    opens = ("a full raise, which re-opens the betting" if full
             else f"short of a full raise (to {facing + min_raise:,}), so it does not re-open the betting for players who have acted")
    return result("all-in", takes=total, raise_to=total, full=full, needed=every_needed, situation=situation, why=(
        f"{lead}{reason}all-in to {total:,}, {opens}."))


# ---------------------------------------------------------------- 3. pot-limit

@dataclass
class Miscount:
    bet: int
    legal_max: int
    direction: str  # low | high | exact
    ruling: str  # stands | raised | reduced | correct
    corrected_to: int


@dataclass
class PotLimitResult:
    pot: int  # the pot as counted for pot-limit (full blinds pre-flop)
    actual_pot: int
    to_call: int
    in_front: int
    pot_after_call: int
    max_raise: int  # the largest increase: the pot after the call
    max_total: int  # the largest bet or raise, as the player's total for the round
    puts_in: int  # chips he adds now for that maximum
    kind: str  # bet | raise
    preflop_full_blinds: bool
    miscount: Miscount | None
    rule_ids: list[str]
    explanation: str


def pot_limit(
    pot: int | None,
    to_call: int | None = None,
    *,
    in_front: int = 0,
    blinds: Blinds | None = None,
    posted_sb: int | None = None,
    posted_bb: int | None = None,
    bet: int | None = None,
    after_sa: bool = False,
    next_card: bool = False,
) -> PotLimitResult:
    """The pot-limit maximum bet or raise (Rule 54), pre-flop counting dead or short blinds as
    full (54-B); with `bet`, how a pot bet made on a wrong dealer count is corrected (52-B).

    `pot` counts every chip in the middle and every bet in front of players, the player's own
    `in_front` included; `to_call` is what he must add to call."""
    for value, what in ((pot, "--pot"), (to_call, "--call"), (in_front, "--in-front"), (bet, "--bet"), (posted_sb, "small blind posted"), (posted_bb, "big blind posted")):
        if value is not None and value < 0:
            raise FloorError(f"{what} must not be negative (got {value})")
    rules = [R_POT_LIMIT]
    shortfall = 0
    if blinds is None:
        if posted_sb is not None or posted_bb is not None:
            raise FloorError("a dead or short blind matters only pre-flop: give --blinds SB/BB as well")
        if pot is None:
            raise FloorError("give --pot (every chip in the middle plus all bets in front of players), or --blinds for the first pre-flop action")
        call = to_call or 0
    else:
        sb_posted = blinds.small if posted_sb is None else posted_sb
        bb_posted = blinds.big if posted_bb is None else posted_bb
        if sb_posted > blinds.small or bb_posted > blinds.big:
            raise FloorError(f"a posted blind cannot be more than the blind ({blinds.small:,}/{blinds.big:,})")
        shortfall = (blinds.small - sb_posted) + (blinds.big - bb_posted)
        if pot is None:
            pot = sb_posted + bb_posted
            call = blinds.big if to_call is None else to_call
        else:
            if pot < sb_posted + bb_posted:
                raise FloorError(f"--pot {pot:,} is less than the blinds posted ({sb_posted + bb_posted:,})")
            call = to_call or 0
    if in_front > pot:
        raise FloorError(f"--in-front {in_front:,} is more than the whole pot {pot:,} (the pot includes his chips in front)")
    counted = pot + shortfall
    after_call = counted + call
    level = in_front + call
    max_total = level + after_call
    kind = "raise" if level > 0 else "bet"
    if kind == "bet":
        explanation = f"No bet to call: the largest bet is the pot, {counted:,}."
    else:
        explanation = (
            f"He calls {call:,} first, making the pot {after_call:,}; the largest raise is that much more, "
            f"to {max_total:,} in all (he puts in {call + after_call:,})."
        )
    if blinds is not None:
        if shortfall:
            explanation = (
                f"Pre-flop, the dead or short blind still counts as posted in full ({blinds.small:,}/{blinds.big:,}): "
                f"the pot is counted as {counted:,}, not {pot:,}. " + explanation
            )
        else:
            explanation = "Pre-flop with both blinds posted in full. " + explanation
    miscount = None
    if bet is not None:
        rules.insert(0, R_INCORRECT_BETS)
        miscount, note = _miscount(bet, max_total, after_sa, next_card)
        explanation += " " + note
    return PotLimitResult(counted, pot, call, in_front, after_call, after_call, max_total, call + after_call, kind,
                          blinds is not None, miscount, rules, explanation)


def _miscount(bet: int, legal: int, after_sa: bool, next_card: bool) -> tuple[Miscount, str]:
    if bet == legal:
        return Miscount(bet, legal, "exact", "correct", bet), f"The {bet:,} bet is exactly the pot limit: nothing to correct."
    if bet > legal:
        if next_card:
            return Miscount(bet, legal, "high", "stands", bet), (
                f"The {bet:,} bet was {bet - legal:,} over the limit of {legal:,}, but the next card is out: the error stands.")
        return Miscount(bet, legal, "high", "reduced", legal), (
            f"The {bet:,} bet is {bet - legal:,} over the limit of {legal:,}: an illegal bet, cut back to {legal:,} for the "
            "bettor and everyone who called it on this street, even after substantial action.")
    if after_sa:
        return Miscount(bet, legal, "low", "stands", bet), (
            f"The {bet:,} bet on a count that was too low is {legal - bet:,} under the limit of {legal:,}, but substantial "
            "action followed it: the bet stands.")
    return Miscount(bet, legal, "low", "raised", legal), (
        f"The {bet:,} bet on a count that was too low is {legal - bet:,} under the limit of {legal:,}; no substantial "
        f"action has followed, so it is corrected to {legal:,}.")


# ---------------------------------------------------------------- 4. missed-hand penalty

@dataclass
class PenaltyResult:
    players: int
    rounds: int
    hands: int
    at_the_table: list[str]
    house: str
    rule_ids: list[str]
    explanation: str


def missed_hand_penalty(players: int, rounds: int = 1) -> PenaltyResult:
    """A missed-round penalty in hands: one hand per player at the table (offender included) per round (Rule 71-A)."""
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise FloorError(f"--players must be between {MIN_SEATS} and {MAX_SEATS} (the players at the table, the offender included; got {players})")
    if not 1 <= rounds <= MAX_PENALTY_ROUNDS:
        raise FloorError(f"--rounds must be between 1 and {MAX_PENALTY_ROUNDS} (got {rounds})")
    hands = players * rounds
    at_table = [
        "He leaves the table for the whole penalty.",
        "His seat is still dealt in every hand, his blinds and antes are posted, and his cards are killed after the deal "
        "(a stud bring-in is still posted).",
        "He can be blinded or anted out while away.",
        "A misdeal and its redeal count as one hand of the penalty, not two.",
        "Count the players seated when the penalty is given; later arrivals or eliminations do not change it.",
    ]
    house = ("DTTF speaks of dealing a player out 'for a length of time'; counting the time in missed hands is the TDA "
             "measure, and the house may use it.")
    explanation = (
        f"{players} players at the table × {rounds} round{'s' if rounds != 1 else ''} = {hands} hands. A missed-round "
        "penalty is one hand for every player at the table when it is given, the offender included, for each round."
    )
    return PenaltyResult(players, rounds, hands, at_table, house, [R_PENALTIES, R_MISDEALS, R_HOUSE_PENALTIES], explanation)


# ---------------------------------------------------------------- 5. hand-for-hand clock

@dataclass
class HandClock:
    hand: int
    clock: str  # the level clock after this hand's run-off ("15:30")
    levels_up: int  # how many new levels have started by then


@dataclass
class HandForHandResult:
    edition: str
    level_left: str
    seconds_per_hand: int
    minutes_per_hand: str
    hands: int
    schedule: list[HandClock]
    clock_now: str
    levels_reached: int
    note: str
    rule_ids: list[str]
    explanation: str


def hand_for_hand(level_left: int, hands: int, edition: str = "2024", seconds_per_hand: int | None = None,
                  level_seconds: int | None = None) -> HandForHandResult:
    """The level clock during hand-for-hand play: each hand takes a set time off the clock,
    starting with the hand in progress at the announcement (RP-8-B to D)."""
    if edition not in EDITIONS:
        raise FloorError(f"--edition must be 2019 or 2024 (got '{edition}')")
    if not 0 < level_left <= MAX_LEVEL_SECONDS:
        raise FloorError(f"--level-left must be more than 0:00 and at most {format_clock(MAX_LEVEL_SECONDS)} (got {format_clock(level_left)})")
    if not 1 <= hands <= MAX_H4H_HANDS:
        raise FloorError(f"--hands must be between 1 and {MAX_H4H_HANDS} (got {hands})")
    if level_seconds is not None and not 0 < level_seconds <= MAX_LEVEL_SECONDS:
        raise FloorError(f"--level-minutes must be more than 0 and at most {MAX_LEVEL_SECONDS // 60} (got {format_clock(level_seconds)})")
    if edition == "2019":
        if seconds_per_hand is not None and seconds_per_hand != H4H_2019_SECONDS:
            raise FloorError("the 2019 RP-8-B fixes the run-off at 2 minutes per hand: leave out --minutes-per-hand or use --edition 2024")
        run = H4H_2019_SECONDS
        note = "2019 RP-8-B: a fixed 2 minutes off the clock per hand."
        rule = R_H4H_2019
    else:
        run = H4H_2024_DEFAULT_SECONDS if seconds_per_hand is None else seconds_per_hand
        if not 0 < run <= H4H_2024_MAX_SECONDS:
            raise FloorError(f"--minutes-per-hand: 2024 RP-8-B allows more than 0 and at most 3 minutes per hand (got {format_clock(run)})")
        note = ("2024 RP-8 takes 2 minutes off the clock each hand, hand by hand where possible (RP-8-C, D), and never "
                f"more than 3 (RP-8-B); this uses {format_clock(run)} per hand" + (" (the 2 minutes)" if seconds_per_hand is None else "")
                + ". Choose another with --minutes-per-hand.")
        rule = R_H4H_2024
    schedule: list[HandClock] = []
    left, levels = level_left, 0
    for hand in range(1, hands + 1):
        left -= run
        if left <= 0 and level_seconds is None:
            if left < 0 or hand < hands:
                raise FloorError(
                    f"the level runs out during hand {hand} of hand-for-hand: give --level-minutes (the length of the "
                    "next levels) to carry the clock on"
                )
            levels += 1  # the level is used up exactly at the end: the next level starts with the next hand
        while left <= 0 and level_seconds is not None:
            left += level_seconds  # the run-off carries over into the next level (RP-8-D)
            levels += 1
        schedule.append(HandClock(hand, format_clock(left), levels))
    rules = [rule] + ([R_NEW_LEVEL] if levels else [])
    reached = (f"; {levels} new level{'s' if levels != 1 else ''} reached, each starting with the next hand dealt"
               if levels else "; still in the same level")
    explanation = (
        f"{hands} hand{'s' if hands != 1 else ''} × {format_clock(run)} = {format_clock(hands * run)} off the clock, counting "
        f"the hand in progress at the announcement as hand 1. With {format_clock(level_left)} left, the clock now shows "
        f"{schedule[-1].clock}{reached}. Set the clock at the start of each hand, not in batches."
    )
    return HandForHandResult(edition, format_clock(level_left), run, format_clock(run), hands, schedule,
                             schedule[-1].clock, levels, note, rules, explanation)


# ---------------------------------------------------------------- 6. balancing and breaking tables

@dataclass
class TableCount:
    table: str
    players: int


@dataclass
class Move:
    from_table: str
    to_table: str
    players: int


@dataclass
class FinalTable:
    size: int | None  # RP-9 final table size, None when RP-9 does not cover the event's table size
    combine_at: int | None  # players left when the last two tables combine
    combine_now: bool
    note: str


@dataclass
class BalanceResult:
    tables: list[TableCount]
    seats: int
    total: int
    spread: int  # players at the fullest table minus the shortest
    tolerance: int  # DTTF: the spread allowed
    action: str  # none | balance | break | final-table | partial (only some tables counted)
    break_table: str | None
    moves: list[Move]
    after: list[TableCount]
    halted: list[str]  # TDA 11-D: tables 3+ short of the fullest (halt once the blinds are affected)
    who_moves: str
    redraw: bool
    final_table: FinalTable | None
    tda: str
    rule_ids: list[str]
    explanation: str


def partial_balance(tables: list[TableCount], seats: int, of: int) -> BalanceResult:
    """Some of the tables counted: what they already settle, and what needs the others' counts.

    The house limit depends only on how many tables are in play, so it is known; a spread among
    the counted tables beyond it proves a move is needed. Which tables are the fullest and the
    shortest overall, whether a table breaks, and the moves themselves need every table's count."""
    if of < len(tables):
        raise FloorError(f"--of {of}: fewer tables in play than the {len(tables)} counted in --tables")
    if of > MAX_TABLES:
        raise FloorError(f"--of: {of} tables is more than {MAX_TABLES}")
    if not tables:
        raise FloorError("--tables: give the players at the tables counted so far, e.g. 9,7")
    for t in tables:
        if not 1 <= t.players <= seats:
            raise FloorError(f"--tables: table {t.table} has {t.players} players; tables seat 1 to {seats} (--seats)")
    counts = [t.players for t in tables]
    spread = max(counts) - min(counts)
    tolerance = HOUSE_TOLERANCE_MANY if of > HOUSE_MANY_TABLES else HOUSE_TOLERANCE_FEW
    missing = of - len(tables)
    settled = (f"The counted tables are already {spread} apart, beyond the house limit of {tolerance}: at least one "
               "player must move." if spread > tolerance else
               f"The counted tables are within the house limit of {tolerance} of each other.")
    explanation = (f"Counted {len(tables)} of {of} tables. With {of} tables in play the house keeps tables within "
                   f"{tolerance} player{'s' if tolerance != 1 else ''}. {settled} Still open until the other {missing} "
                   f"table{'s are' if missing != 1 else ' is'} counted: the fullest and shortest tables overall, whether "
                   "a table should break, and which players move where.")
    tda = ("No fixed gap: the TD balances at discretion (11-D); a table 3 or more players short of the fullest halts "
           "once its blinds are affected, which also needs the fullest table's count.")
    return BalanceResult(tables, seats, sum(counts), spread, tolerance, "partial", None, [], list(tables), [],
                         "", False, None, tda, [R_HOUSE_BALANCE, R_BALANCING], explanation)


def parse_tables(text) -> list[TableCount]:
    """'9,7,8,5' (tables 1..4) or '12=9,14=7' (table number = players)."""
    raw = str(text).strip()
    if not raw:
        raise FloorError("--tables: give the players at each table, e.g. 9,7,8,5")
    tables: list[TableCount] = []
    for index, part in enumerate(re.split(r"[,\s]+", raw), start=1):
        if not part:
            continue
        if "=" in part or ":" in part:
            name, _, count = re.split(r"([=:])", part, maxsplit=1)
            name = name.strip()
            if not name:
                raise FloorError(f"--tables: '{shown(part)}' has no table name before '='")
        else:
            name, count = str(index), part
        players = parse_whole(count, f"--tables: table {name}")
        tables.append(TableCount(name, players))
    names = [t.table for t in tables]
    if len(set(names)) != len(names):
        raise FloorError("--tables: a table is named twice")
    return tables


def parse_whole(text, what: str) -> int:
    """A whole number of players or chips, not negative."""
    raw = str(text).strip()
    if raw.startswith(("-", "−")) and _PLAIN.fullmatch(raw[1:]):
        raise FloorError(f"{what} must not be negative (got {shown(raw)})")
    if not _PLAIN.fullmatch(raw):
        raise FloorError(f"{what}: '{shown(raw) or '(empty)'}' is not a number of players")
    return int(raw)


def balance_tables(tables: list[TableCount], seats: int = DEFAULT_SEATS, of: int | None = None) -> BalanceResult:
    """Balance or break tables under the house limits (DTTF) and TDA 11; at two tables, the
    final-table combination of RP-9. With `of` (the tables in play) larger than the tables
    counted, only what the counted tables settle is decided (`partial_balance`)."""
    if of is not None and of != len(tables):
        return partial_balance(tables, seats, of)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise FloorError(f"--seats must be between {MIN_SEATS} and {MAX_SEATS} (got {seats})")
    if not tables:
        raise FloorError("--tables: give the players at each table, e.g. 9,7,8,5")
    if len(tables) > MAX_TABLES:
        raise FloorError(f"--tables: {len(tables)} tables is more than {MAX_TABLES}")
    for t in tables:
        if t.players < 1:
            raise FloorError(f"--tables: table {t.table} has no players — leave broken tables out")
        if t.players > seats:
            raise FloorError(f"--tables: table {t.table} has {t.players} players but tables seat {seats} (--seats)")
    n = len(tables)
    total = sum(t.players for t in tables)
    counts = [t.players for t in tables]
    spread = max(counts) - min(counts)
    tolerance = HOUSE_TOLERANCE_MANY if n > HOUSE_MANY_TABLES else HOUSE_TOLERANCE_FEW
    fullest = max(counts)
    halted = [t.table for t in tables if fullest - t.players >= HALTING_GAP]
    who_moves = (
        "The player due the big blind next moves (house rule and TDA 11-A alike). The house gives him the open seat "
        "that will take the big blind soonest; TDA puts him in the worst position, which may be the big blind again "
        "but never the small blind. Which table gives up the player follows the house's set procedure (TDA 11-C)."
    )
    tda = ("No fixed gap: the TD balances at discretion, more tightly as the event goes on, and a table "
           f"{HALTING_GAP} or more players short of the fullest halts once its big blind would reach an empty seat (11-D).")
    rules = [R_HOUSE_BALANCE, R_HOUSE_WHO_MOVES, R_BALANCING]
    final_size = FINAL_TABLE_SIZE.get(seats)
    final = None
    if n <= 2:
        rules.append(R_FINAL_TABLE)
        final = _final_table(seats, final_size, total, n)

    if n == 1:
        return BalanceResult(tables, seats, total, 0, tolerance, "none", None, [], list(tables), [], who_moves,
                             False, final, tda, rules,
                             "One table left: this is the final table; there is nothing to balance.")

    fits_fewer = total <= final_size if (n == 2 and final_size) else total <= (n - 1) * seats
    if fits_fewer:
        breaking = min(tables, key=lambda t: (t.players, -tables.index(t)))
        rest = [TableCount(t.table, t.players) for t in tables if t is not breaking]
        room = seats if not (n == 2 and final_size) else final_size
        moves = _distribute(breaking, rest, room)
        after_tolerance = HOUSE_TOLERANCE_MANY if n - 1 > HOUSE_MANY_TABLES else HOUSE_TOLERANCE_FEW
        moves += _balance_moves(rest, after_tolerance)
        redraw = (n - 1) in HOUSE_REDRAW_AT
        rules[:0] = [R_HOUSE_BREAKING]
        rules += [R_RANDOM_SEATING_BREAK] + ([R_HOUSE_REDRAWS] if redraw else [])
        action = "final-table" if n == 2 else "break"
        if n == 2:
            explanation = (f"{total} players are left, which fit the final table of {room}: combine the two tables now "
                           f"(RP-9). Table {breaking.table} is shown moving, but the house's set order decides which table breaks.")
        else:
            explanation = (
                f"{total} players fit in {n - 1} tables of {seats}: break a table. Table {breaking.table} (fewest players) is "
                "shown breaking, but the house breaks tables in its pre-set order; its players draw for the open seats."
            )
        if redraw:
            explanation += f" Down to {n - 1} table{'s' if n - 1 != 1 else ''}: the house redraws all seats."
        return BalanceResult(tables, seats, total, spread, tolerance, action, breaking.table, _merge(moves), rest,
                             halted, who_moves, redraw, final, tda, list(dict.fromkeys(rules)), explanation)

    after = [TableCount(t.table, t.players) for t in tables]
    moves = _balance_moves(after, tolerance)
    limit = f"within {tolerance} player{'s' if tolerance != 1 else ''} ({'more than' if n > HOUSE_MANY_TABLES else 'at most'} six tables)"
    if not moves:
        explanation = f"The tables are {limit}: {max(counts)} at the fullest, {min(counts)} at the shortest. No move is needed."
        action = "none"
    else:
        count = sum(m.players for m in moves)
        explanation = (f"The spread is {spread} ({max(counts)} to {min(counts)}); the house keeps tables {limit}. "
                       f"Move {count} player{'s' if count != 1 else ''} to bring them within the limit.")
        action = "balance"
    if halted:
        explanation += (f" Under TDA 11-D, table{'s' if len(halted) > 1 else ''} {', '.join(halted)} "
                        f"(at least {HALTING_GAP} short) halt{'s' if len(halted) == 1 else ''} once the big blind would reach an empty seat, until balanced.")
    return BalanceResult(tables, seats, total, spread, tolerance, action, None, moves, after, halted, who_moves,
                         False, final, tda, rules, explanation)


def _final_table(seats: int, final_size: int | None, total: int, n: int) -> FinalTable:
    if final_size is None:
        return FinalTable(None, None, n == 2 and total <= seats,
                          f"RP-9 covers 6- to 9-handed events only; with {seats}-handed tables the TD decides, at the "
                          f"latest when {seats} players are left.")
    start = (final_size + 1) // 2  # two tables of five for a final nine, two of four for a final seven
    return FinalTable(final_size, final_size, n == 2 and total <= final_size,
                      f"{seats}-handed event: play down from two tables of {start} and combine into a {final_size}-handed "
                      f"final table when {final_size} players are left (RP-9).")


def _distribute(breaking: TableCount, rest: list[TableCount], room: int) -> list[Move]:
    moves = []
    for _ in range(breaking.players):
        target = min(rest, key=lambda t: (t.players, rest.index(t)))
        if target.players >= room:
            raise FloorError("the players do not fit in the remaining tables")  # excluded by the caller's check
        target.players += 1
        moves.append(Move(breaking.table, target.table, 1))
    return moves


def _balance_moves(tables: list[TableCount], tolerance: int) -> list[Move]:
    """Move one player at a time from a fullest table to a shortest one until within tolerance;
    among equally full tables the one that has given up fewest players gives next."""
    given = {t.table: 0 for t in tables}
    moves: list[Move] = []
    while True:
        top = max(t.players for t in tables)
        bottom = min(t.players for t in tables)
        if top - bottom <= tolerance:
            break
        source = min((t for t in tables if t.players == top), key=lambda t: (given[t.table], tables.index(t)))
        target = min((t for t in tables if t.players == bottom), key=lambda t: tables.index(t))
        source.players -= 1
        target.players += 1
        given[source.table] += 1
        moves.append(Move(source.table, target.table, 1))
    return _merge(moves)


def _merge(moves: list[Move]) -> list[Move]:
    merged: dict[tuple[str, str], int] = {}
    for m in moves:
        merged[(m.from_table, m.to_table)] = merged.get((m.from_table, m.to_table), 0) + m.players
    return [Move(a, b, count) for (a, b), count in merged.items()]


# ---------------------------------------------------------------- 7. chip race

@dataclass
class RaceSeat:
    seat: int
    chips: int  # chips of the denomination being removed
    value: int
    colored_up: int  # new chips received in the straight exchange
    odd_chips: int  # chips left to race: one card each
    protected: bool  # only raced chips and nothing else: gets one new chip even if he wins none


@dataclass
class ChipRaceResult:
    denomination: int
    next_denomination: int
    seats: list[RaceSeat]
    odd_value: int  # total value of the chips raced
    chips_to_race: int  # new chips the race awards
    order: list[int]  # seats dealt cards, seat 1 first
    protected: list[int]
    house: str
    rule_ids: list[str]
    explanation: str


def parse_stacks(text) -> dict[int, int]:
    """'1:3,2:1,3:0' — seat:number of chips of the denomination being removed."""
    raw = str(text).strip()
    if not raw:
        raise FloorError("--stacks: give seat:chips pairs, e.g. 1:3,2:1,3:0")
    stacks: dict[int, int] = {}
    for part in re.split(r"[,\s]+", raw):
        if not part or part in ("…", "..."):
            continue
        match = re.fullmatch(r"(-?\w+)\s*[:=]\s*(\S*)", part)
        if not match:
            raise FloorError(f"--stacks: '{shown(part)}' is not seat:chips, e.g. 1:3")
        seat = parse_count(match.group(1), f"--stacks: seat in '{shown(part)}'", low=1, high=MAX_SEAT_NUMBER)
        if seat in stacks:
            raise FloorError(f"--stacks: seat {seat} is given twice")
        stacks[seat] = parse_whole(match.group(2), f"--stacks: seat {seat} chips")
    if not stacks:
        raise FloorError("--stacks: give seat:chips pairs, e.g. 1:3,2:1,3:0")
    return stacks


def chip_race(stacks: dict[int, int], denomination: int, next_denomination: int,
              no_other_chips: list[int] | tuple = ()) -> ChipRaceResult:
    """A scheduled colour-up (Rule 24): exchange whole new chips, race the odd chips from seat 1,
    at most one new chip per player, and nobody raced out of the tournament."""
    if denomination <= 0 or next_denomination <= 0:
        raise FloorError("--denomination and --next must be more than 0")
    if next_denomination <= denomination:
        raise FloorError(f"--next ({next_denomination:,}) must be bigger than the chip being removed ({denomination:,})")
    if next_denomination % denomination:
        raise FloorError(f"--next ({next_denomination:,}) is not a whole number of {denomination:,} chips")
    for seat, count in stacks.items():
        if count < 0:
            raise FloorError(f"--stacks: seat {seat} chips must not be negative")
        if count > MAX_CHIPS // next_denomination:
            raise FloorError(f"--stacks: seat {seat} has more chips than any tournament has in play")
    unknown = sorted(set(no_other_chips) - set(stacks))
    if unknown:
        raise FloorError(f"--no-other-chips: seat {unknown[0]} is not in --stacks")
    per_new = next_denomination // denomination
    seats: list[RaceSeat] = []
    for seat in sorted(stacks):
        count = stacks[seat]
        whole, odd = divmod(count, per_new)
        only = seat in no_other_chips
        if only and count == 0:
            raise FloorError(f"seat {seat} has no chips at all: he is out before the race (--no-other-chips)")
        seats.append(RaceSeat(seat, count, count * denomination, whole, odd, only and whole == 0 and odd > 0))
    odd_value = sum(s.odd_chips for s in seats) * denomination
    awarded, remainder = divmod(odd_value, next_denomination)
    if RACE_ROUNDS_HALF_UP and remainder and 2 * remainder >= next_denomination:
        awarded += 1
    racing = [s.seat for s in seats if s.odd_chips]
    protected = [s.seat for s in seats if s.protected]
    house = ("DTTF changes small chips up directly and rounds what is left up to the next chip at the director's "
             "discretion: at a DTTF event that house rule governs and no race is needed.")
    if racing:
        explanation = (
            f"Exchange every {per_new} × {denomination:,} for one {next_denomination:,} first. The {odd_value:,} left in odd chips "
            f"is worth {awarded} new chip{'s' if awarded != 1 else ''} ({odd_value:,} ÷ {next_denomination:,}, half a chip or more "
            f"rounding up). Deal one card per odd chip starting with seat {racing[0]}; the highest cards win, no player "
            "gets more than one chip."
        )
    else:
        explanation = f"Nobody has odd {denomination:,} chips: exchange {per_new} × {denomination:,} for each {next_denomination:,}; no race."
    if protected:
        several = len(protected) > 1
        explanation += (f" Seat{'s' if several else ''} {', '.join(map(str, protected))} "
                        f"ha{'ve' if several else 's'} nothing but odd chips: {'any of them' if several else 'if he'} "
                        f"{'the race leaves without a chip gets' if several else 'wins nothing in the race, he still gets'} "
                        f"one {next_denomination:,} (nobody is raced out).")
    return ChipRaceResult(denomination, next_denomination, seats, odd_value, awarded, racing, protected, house,
                          [R_CHIP_RACE, R_HOUSE_COLOR_UP], explanation)
