"""The calculators without typer: `floor calc …` parses its options (typer, or the fast path in
commands.fastpath), calls one `*_lines` function here, and prints `output(result, lines, as_json)`.

Each `*_lines` function takes the option values as typed (strings; flags as booleans), calls one
function of `floorcall.engines.calc`, and returns (result, the plain lines to print).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Optional

from floorcall.core.errors import FloorError
from floorcall.engines import calc

# Titles of the rules the calculators cite; tests/test_calc.py checks them against rulebook/.
RULE_TITLES = {
    "tda-2024:10": "New Players and Players from Broken Tables",
    "tda-2024:11": "Balancing Tables and Halting Play",
    "tda-2024:23": "New Hand and New Limits",
    "tda-2024:24": "Chip Race, Scheduled Color Ups",
    "tda-2024:35": "Misdeals and Fouled Decks",
    "tda-2024:40": "Methods of Betting: Verbal and Chips",
    "tda-2024:41": "Methods of Calling",
    "tda-2024:42": "Methods of Raising",
    "tda-2024:43": "Raise Amounts",
    "tda-2024:44": "Oversized Chip Betting (Overchips)",
    "tda-2024:45": "Multiple Chip Betting",
    "tda-2024:46": "Prior Bet Chips Not Pulled In",
    "tda-2024:47": "Re-Opening the Bet.",
    "tda-2024:51": "Binding Declarations / Undercalls in Turn",
    "tda-2024:52": "Incorrect Bets, Underbets and Underraises",
    "tda-2024:54": "Pot Size and Pot-Limit Bets",
    "tda-2024:71": "Warnings, Penalties, and Disqualification",
    "tda-2024:RP-8": "Hand for Hand Procedures",
    "tda-2024:RP-9": "Number of Players at Final Table",
    "tda-2019:RP-8": "Hand for Hand Procedures",
    "dttf:color-up": "Removing the smallest chips (colour-up)",
    "dttf:breaking-tables": "Tables broken in a pre-set order",
    "dttf:balancing-big-blind-moves": "Player due the big blind moves to balance",
    "dttf:table-balance-limits": "How balanced tables must be",
    "dttf:redraws": "Redraw at three, two and one tables",
    "dttf:misconduct-penalties": "Penalties for misconduct",
}
SOURCE_LABELS = {"tda-2024": "TDA 2024", "tda-2019": "TDA 2019", "dttf": "DTTF:", "wpa": "WPA"}

from floorcall.commands.calc_options import OPTIONS  # noqa: E402,F401  (re-exported)


def rule_label(rule_id: str) -> str:
    """'TDA 2024 Rule 43 (Raise Amounts)', 'TDA 2019 RP-8 (…)', 'DTTF: How balanced tables must be'."""
    source, number = rule_id.split(":", 1)
    return f"{SOURCE_LABELS.get(source, source)} {_rule_part(source, number, RULE_TITLES.get(rule_id, ''))}"


def _rule_part(source: str, number: str, title: str) -> str:
    if source == "dttf":
        return title or number
    name = number if number.startswith("RP") else f"Rule {number}"
    return f"{name} ({title})" if title else name


def rules_line(rule_ids: list[str]) -> str:
    """One line naming the rules, grouped by source in order of first mention (primary first)."""
    groups: dict[str, list[str]] = {}
    for rule_id in rule_ids:
        source, number = rule_id.split(":", 1)
        groups.setdefault(source, []).append(_rule_part(source, number, RULE_TITLES.get(rule_id, "")))
    return "Rule: " + "; ".join(f"{SOURCE_LABELS.get(s, s)} {', '.join(parts)}" for s, parts in groups.items())


def output(result, lines: list[str], as_json: bool) -> str:
    """What `floor calc` prints: the lines and the rules applied, or the result as JSON."""
    if as_json:
        return json.dumps(asdict(result) | {"rules": [rule_label(r) for r in result.rule_ids]}, ensure_ascii=False, indent=2)
    return "\n".join(lines + [rules_line(result.rule_ids)])


def required(value: Optional[str], option: str, example: str) -> str:
    if value is None or not str(value).strip():
        raise FloorError(f"give {option}, e.g. {option} {example}")
    return value


def c(n) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:,.1f}"


def _name(name: str) -> str:
    return f"Player {name}" if name.startswith("#") else name


def _chips_headline(r) -> str:
    if r.kind == "bet":
        return f"Ruling: a bet of {c(r.takes + r.add)}" + (f" (he adds {c(r.add)} to reach the minimum)" if r.add else "")
    if r.kind == "call":
        if r.add:
            return f"Ruling: a call of {c(r.facing)}; he adds {c(r.add)}"
        return f"Ruling: a call of {c(r.takes)}" + (f"; return {c(r.change)}" if r.change else "")
    if r.kind == "raise":
        return f"Ruling: a raise to {c(r.raise_to)}" + (f"; he adds {c(r.add)}" if r.add else "")
    if r.raise_to is None:
        return f"Ruling: all-in for {c(r.total)}" + (", a call for less" if r.total < r.facing else ", a call")
    opens = "a full raise: betting re-opens" if r.full_raise else "not a full raise: betting does not re-open for players who have acted"
    return f"Ruling: all-in to {c(r.raise_to)} ({opens})"


def raise_lines(blinds: Optional[str] = None, actions: Optional[str] = None, preflop: bool = False) -> tuple[Any, list[str]]:
    """The bet to call, the minimum legal raise, and who may still raise (Rules 43, 47)."""
    parsed_blinds = calc.parse_blinds(required(blinds, "--blinds", "100/200"))
    result = calc.raise_state(parsed_blinds, calc.parse_actions(required(actions, "--actions", '"bet 600, raise 1600"')), preflop)
    lines = [
        f"Bet to call: {c(result.current_bet)}",
        f"Minimum raise: {c(result.min_raise)} more, to {c(result.min_raise_to)} (set by {result.largest_full})",
        f"Said or pushed out without \"raise\": {c(result.half_raise_line)} or more is held to a raise to "
        f"{c(result.min_raise_to)}; less is a call",
    ]
    lines += [f"Correction: {note}" for note in result.corrections]
    for player in result.players:
        if player.status == "live" and (player.to_call > 0 or not player.acted):
            lines.append(f"{_name(player.name)} {player.reason}")
    all_in = [f"{_name(p.name)} ({c(p.put_in)})" for p in result.players if p.status == "all-in"]
    if all_in:
        lines.append("All-in: " + ", ".join(all_in))
    lines.append("Anyone yet to act may fold, call " + c(result.current_bet) + f" or raise to at least {c(result.min_raise_to)}.")
    return result, lines


def chips_lines(facing: Optional[str] = None, min_raise: Optional[str] = None, chips: Optional[str] = None, last_chips: bool = False, declared: str = "none", prior: Optional[str] = None, pulled: str = "none") -> tuple[Any, list[str]]:
    """Read a silent push of chips: call, raise (to what) or all-in (Rules 44, 45, 46)."""
    result = calc.chip_push(
        calc.parse_amount(required(facing, "--facing", "1100"), "--facing"),
        calc.parse_amount(required(min_raise, "--min-raise", "600"), "--min-raise", allow_zero=False),
        calc.parse_chip_list(required(chips, "--chips", "1000,100,100")),
        prior=calc.parse_chip_list(prior, "--prior") if prior is not None else (),
        pulled=pulled.strip().lower(),
        last_chips=last_chips,
        declared=declared.strip().lower().replace("-", ""),
    )
    return result, [_chips_headline(result), result.explanation]


def pot_lines(pot: Optional[str] = None, call: Optional[str] = None, in_front: Optional[str] = None, blinds: Optional[str] = None, dead_sb: bool = False, short_sb: Optional[str] = None, short_bb: Optional[str] = None, bet: Optional[str] = None, after_sa: bool = False, next_card: bool = False) -> tuple[Any, list[str]]:
    """Pot-limit maximum bet or raise; pre-flop, dead or short blinds count as full (Rule 54)."""
    if dead_sb and short_sb is not None:
        raise FloorError("give --dead-sb or --short-sb, not both")
    parsed_blinds = calc.parse_blinds(blinds) if blinds is not None else None
    posted_sb = 0 if dead_sb else (calc.parse_amount(short_sb, "--short-sb") if short_sb is not None else None)
    posted_bb = calc.parse_amount(short_bb, "--short-bb") if short_bb is not None else None
    if parsed_blinds is None and pot is None:
        raise FloorError("give --pot, e.g. --pot 10500 --call 0 (or --blinds 100/200 for the first pre-flop action)")
    if (after_sa or next_card) and bet is None:
        raise FloorError("--after-sa and --next-card go with --bet (the pot bet made on a wrong count)")
    result = calc.pot_limit(
        calc.parse_amount(pot, "--pot") if pot is not None else None,
        calc.parse_amount(call, "--call") if call is not None else None,
        in_front=calc.parse_amount(in_front, "--in-front") if in_front is not None else 0,
        blinds=parsed_blinds,
        posted_sb=posted_sb,
        posted_bb=posted_bb,
        bet=calc.parse_amount(bet, "--bet", allow_zero=False) if bet is not None else None,
        after_sa=after_sa,
        next_card=next_card,
    )
    if result.kind == "bet":
        head = f"Pot-limit maximum: a bet of {c(result.max_total)}"
    else:
        head = f"Pot-limit maximum: a raise to {c(result.max_total)} (call {c(result.to_call)}, then raise {c(result.max_raise)})"
    lines = [head, f"Pot as counted: {c(result.pot)}" + (f" (actual chips: {c(result.actual_pot)})" if result.pot != result.actual_pot else "")]
    if result.miscount:
        m = result.miscount
        verdict = {"stands": "it stands", "raised": f"it is raised to {c(m.corrected_to)}",
                   "reduced": f"it is cut back to {c(m.corrected_to)}", "correct": "it is correct"}[m.ruling]
        lines.append(f"The {c(m.bet)} bet: {verdict}")
    lines.append(result.explanation)
    return result, lines


def penalty_lines(players: Optional[str] = None, rounds: str = "1") -> tuple[Any, list[str]]:
    """The missed-hand length of a missed-round penalty and what it means at the table (Rule 71)."""
    result = calc.missed_hand_penalty(
        calc.parse_count(required(players, "--players", "8"), "--players", low=0, high=10**6),
        calc.parse_count(rounds, "--rounds", low=0, high=10**6),
    )
    lines = [f"Penalty: {result.hands} hands ({result.players} players × {result.rounds} round{'s' if result.rounds != 1 else ''})"]
    lines += [f"- {line}" for line in result.at_the_table]
    lines.append(f"House: {result.house}")
    return result, lines


def h4h_lines(level_left: Optional[str] = None, hands: Optional[str] = None, edition: str = "2024", minutes_per_hand: Optional[str] = None, level_minutes: Optional[str] = None) -> tuple[Any, list[str]]:
    """Hand-for-hand clock run-off per RP-8 and the levels reached."""
    result = calc.hand_for_hand(
        calc.parse_clock(required(level_left, "--level-left", "17:30"), "--level-left"),
        calc.parse_count(required(hands, "--hands", "3"), "--hands", low=0, high=10**6),
        edition.strip(),
        calc.parse_clock(minutes_per_hand, "--minutes-per-hand") if minutes_per_hand is not None else None,
        calc.parse_clock(level_minutes, "--level-minutes") if level_minutes is not None else None,
    )
    lines = [f"Edition {result.edition}: {result.minutes_per_hand} off the clock per hand, from {result.level_left} left"]
    for step in result.schedule:
        which = " (the hand in progress at the announcement)" if step.hand == 1 else ""
        level = f" — level +{step.levels_up}" if step.levels_up else ""
        lines.append(f"After hand {step.hand}{which}: set the clock to {step.clock}{level}")
    reached = f"{result.levels_reached} new level{'s' if result.levels_reached != 1 else ''} reached" if result.levels_reached else "same level"
    lines.append(f"Clock now: {result.clock_now} ({reached})")
    lines.append(f"Note: {result.note}")
    return result, lines


def balance_lines(tables: Optional[str] = None, seats: str = str(9), of: Optional[str] = None) -> tuple[Any, list[str]]:
    """Balance or break tables, who moves, and the final-table combination (DTTF, TDA 11, RP-9)."""
    result = calc.balance_tables(
        calc.parse_tables(required(tables, "--tables", "9,7,8,5")),
        calc.parse_count(seats, "--seats", low=0, high=10**6),
        calc.parse_count(of, "--of", low=1, high=calc.MAX_TABLES) if of is not None else None,
    )
    shown = " ".join(f"{t.table}:{t.players}" for t in result.tables)
    lines = [f"Tables {shown}: {result.total} players, spread {result.spread}, house limit {result.tolerance}"]
    verb = {"none": "No move needed", "balance": "Balance", "break": f"Break table {result.break_table}",
            "final-table": f"Final table: combine (table {result.break_table} moves)",
            "partial": "Not decided yet: count the other tables"}[result.action]
    if result.moves:
        moves = "; ".join(f"{m.players} from table {m.from_table} to table {m.to_table}" for m in result.moves)
        lines.append(f"{verb}: {moves}")
        lines.append("After: " + " ".join(f"{t.table}:{t.players}" for t in result.after))
    else:
        lines.append(verb)
    lines.append(result.explanation)
    if result.action in ("balance", "break", "final-table"):
        lines.append(f"Who moves: {result.who_moves}")
    if result.final_table:
        lines.append(f"Final table: {result.final_table.note}")
    lines.append(f"TDA 2024: {result.tda}")
    return result, lines


def chip_race_lines(stacks: Optional[str] = None, denomination: Optional[str] = None, next_denomination: Optional[str] = None, no_other_chips: Optional[str] = None) -> tuple[Any, list[str]]:
    """A scheduled colour-up chip race: seat 1 first, at most one chip each, nobody raced out (Rule 24)."""
    bare = []
    if no_other_chips is not None:
        bare = [calc.parse_count(s, "--no-other-chips seat", low=1, high=calc.MAX_SEAT_NUMBER)
                for s in no_other_chips.replace(",", " ").split()]
    result = calc.chip_race(
        calc.parse_stacks(required(stacks, "--stacks", "1:3,2:1,3:0")),
        calc.parse_amount(required(denomination, "--denomination", "25"), "--denomination", allow_zero=False),
        calc.parse_amount(required(next_denomination, "--next", "100"), "--next", allow_zero=False),
        bare,
    )
    per_new = result.next_denomination // result.denomination
    lines = [f"Colour-up {c(result.denomination)} → {c(result.next_denomination)}: {per_new} × {c(result.denomination)} = one {c(result.next_denomination)}"]
    for s in result.seats:
        parts = []
        if s.colored_up:
            parts.append(f"exchanges for {s.colored_up} × {c(result.next_denomination)}")
        parts.append(f"races {s.odd_chips} chip{'s' if s.odd_chips != 1 else ''}" if s.odd_chips else "nothing to race")
        if s.protected:
            parts.append(f"gets one {c(result.next_denomination)} if he wins none")
        lines.append(f"Seat {s.seat}: {s.chips} × {c(result.denomination)} — {', '.join(parts)}")
    if result.order:
        lines.append(f"Race: {c(result.odd_value)} in odd chips = {result.chips_to_race} × {c(result.next_denomination)}; "
                     f"cards dealt from seat {result.order[0]}: seats {', '.join(map(str, result.order))}; one chip at most per player")
    lines.append(result.explanation)
    lines.append(f"House: {result.house}")
    return result, lines
