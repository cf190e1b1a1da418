"""`floorcall.engines.calc` and `floor calc …`: every Illustration Addendum example for Rules 43, 45, 46,
47, 52 and 54 with its exact numbers, the procedure calculators, invariants held by hypothesis,
and the CLI (output, --json, one-line errors)."""

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from floorcall.commands.calc_cmd import RULE_TITLES, rules_line
from floorcall.core.errors import FloorError
from floorcall.engines import calc
from floorcall.engines.calc import (
    Blinds,
    balance_tables,
    chip_push,
    chip_race,
    hand_for_hand,
    missed_hand_penalty,
    parse_actions,
    parse_blinds,
    parse_chip_list,
    parse_stacks,
    parse_tables,
    pot_limit,
    raise_state,
)


def state(blinds: str, actions: str, preflop: bool = False):
    return raise_state(parse_blinds(blinds), parse_actions(actions), preflop)


def player(result, name: str):
    return next(p for p in result.players if p.name == name)


# ---------------------------------------------------------------- Rule 43: raise amounts


@pytest.mark.parametrize(
    "example, blinds, actions, preflop, current, min_raise, min_raise_to",
    [
        ("43 Ex 1", "100/200", "bet 600, raise 1600, raise 3600", False, 3600, 2000, 5600),
        ("43 Ex 2", "50/100", "allin 150", True, 150, 100, 250),
        ("43 Ex 3", "100/200", "bet 300, raise 1000", False, 1000, 700, 1700),
        ("43 Ex 4-A", "25/50", "raise 125, raise 200, raise 500", True, 500, 300, 800),
        ("43 Ex 4-B", "25/50", "raise 500, call, call", True, 500, 450, 950),
        ("47 Ex 2", "50/100", "A bet 300, B allin 500, C allin 650, D allin 800, E call 800", False, 800, 300, 1100),
        ("47 Ex 3-A", "2000/4000", "A call, B fold, C allin 7500, SB fold", True, 7500, 4000, 11500),
        ("issue", "100/200", "bet 600, raise 1600, allin 1700, raise 3600", False, 3600, 1900, 5500),
    ],
)
def test_addendum_raise_amounts(example, blinds, actions, preflop, current, min_raise, min_raise_to):
    """The minimum raise is the largest full bet or raise of the round, added to the bet to call."""
    result = state(blinds, actions, preflop)
    assert (result.current_bet, result.min_raise, result.min_raise_to) == (current, min_raise, min_raise_to)


def test_rule_43_ex3_two_chips_make_the_raise():
    """43 Ex 3: facing a 300 bet, two silent 500 chips are a raise to 1000 (one 500 is not needed to call)."""
    result = chip_push(300, 300, [500, 500])
    assert (result.kind, result.raise_to, result.full_raise) == ("raise", 1000, True)


@pytest.mark.parametrize(
    "actions, half_line",
    [
        ("bet 1000", 1500),  # 43-A: "fourteen hundred" facing 1000 is under the line: a call
        ("bet 325", 487.5),
    ],
)
def test_half_raise_line(actions, half_line):
    """The 50% line is the bet plus half the minimum raise, exact to the half chip."""
    assert state("100/200", actions).half_raise_line == half_line


# ---------------------------------------------------------------- Rule 47: re-opening

EX_47_1 = "A bet 100, B allin 125, C call 125, D allin 200, E call 200"


@pytest.mark.parametrize(
    "example, blinds, actions, preflop, who, to_call, may_raise",
    [
        ("47 Ex 1", "50/100", EX_47_1, False, "A", 100, True),
        ("47 Ex 1-A", "50/100", EX_47_1 + ", A call", False, "C", 75, False),
        ("47 Ex 1-B", "50/100", EX_47_1 + ", A raise 300", False, "C", 175, True),
        ("47 Ex 3-A (BB's option)", "2000/4000", "A call, B fold, C allin 7500, SB fold", True, "BB", 3500, True),
        ("47 Ex 3-A", "2000/4000", "A call, B fold, C allin 7500, SB fold, BB call", True, "A", 3500, False),
        ("47 Ex 3-B", "2000/4000", "A call, B fold, C allin 7500, SB fold, BB raise 11500", True, "A", 7500, True),
    ],
)
def test_addendum_reopening(example, blinds, actions, preflop, who, to_call, may_raise):
    """A player who has acted may raise again only when he faces at least a full raise, short all-ins added up."""
    found = player(state(blinds, actions, preflop), who)
    assert (found.to_call, found.may_raise) == (to_call, may_raise)


def test_47_ex1a_raise_is_refused():
    """47 Ex 1-A: C, facing only 75 more, cannot raise; the action list saying so is rejected."""
    with pytest.raises(FloorError) as caught:
        state("50/100", EX_47_1 + ", A call, C raise 400")
    assert caught.value.message.startswith("--actions: C may not raise ('C raise 400'): he has acted and faces only 75 more")


def test_47_ex1a_reasons_read_plainly():
    """The reason names the amount faced and the full raise it falls short of."""
    found = player(state("50/100", EX_47_1 + ", A call"), "C")
    assert found.reason == "has acted and faces only 75 more, less than a full raise of 100: betting is not re-opened — call or fold only"


# ---------------------------------------------------------------- Rules 44 and 45: silent chips


@pytest.mark.parametrize(
    "example, facing, min_raise, chips, last, kind, takes, change, add, raise_to",
    [
        ("45 Ex 1-A", 1200, 1200, "1000,1000", False, "call", 1200, 800, 0, None),
        ("45 Ex 1-B", 1100, 600, "500,1000", False, "call", 1100, 400, 0, None),
        ("45 Ex 2", 1100, 600, "1000,5x100", False, "raise", 1700, 0, 200, 1700),
        ("45 Ex 3", 1100, 600, "1000,3x100", False, "call", 1100, 200, 0, None),
        ("45 Ex 4-A", 1400, 1400, "1000,3x500", False, "raise", 2800, 0, 300, 2800),
        ("45 Ex 4-B", 1400, 1400, "1000,2x500", False, "call", 1400, 600, 0, None),
        ("45 Ex 4 (all needed, last chips)", 1200, 1200, "1000,1000", True, "call", 1200, 800, 0, None),
        ("45 Ex 4-A last chips", 1400, 1400, "1000,3x500", True, "all-in", 2500, 0, 0, 2500),
        ("45 Ex 4-B last chips", 1400, 1400, "1000,2x500", True, "all-in", 2000, 0, 0, 2000),
        ("45-A Ex-1 (rule text)", 1100, 700, "500,1000", False, "call", 1100, 400, 0, None),
        ("45-A Ex-2 (rule text)", 1050, 1000, "1000,1000", True, "call", 1050, 950, 0, None),
        ("61 (rule text)", 325, 325, "500,25", False, "raise", 650, 0, 125, 650),
        ("44 overchip", 600, 600, "5000", False, "call", 600, 4400, 0, None),
        ("44 last chip", 600, 600, "5000", True, "call", 600, 4400, 0, None),
        ("issue example", 1100, 600, "1000,100,100,100,100,100", False, "raise", 1700, 0, 200, 1700),
    ],
)
def test_addendum_multiple_chips(example, facing, min_raise, chips, last, kind, takes, change, add, raise_to):
    """Every chip needed: a call. Otherwise the 50% standard, or all-in with the last chips."""
    result = chip_push(facing, min_raise, parse_chip_list(chips), last_chips=last)
    assert (result.kind, result.takes, result.change, result.add, result.raise_to) == (kind, takes, change, add, raise_to)


@pytest.mark.parametrize(
    "example, chips, half_line, needed",
    [
        ("45 Ex 2", "1000,5x100", 1400, False),
        ("45 Ex 3", "1000,3x100", 1400, False),
        ("45 Ex 1-B", "500,1000", 1400, True),
    ],
)
def test_45_threshold_and_needed(example, chips, half_line, needed):
    """45 Ex 1-B to 3: the 50% line of 1400 and whether every chip was needed for the 1100 call."""
    result = chip_push(1100, 600, parse_chip_list(chips))
    assert (result.half_raise_line, result.every_chip_needed) == (half_line, needed)


def test_45_ex_4b_last_chips_do_not_reopen():
    """45 Ex 4-B with his last chips: all-in to 2000, short of a full raise, so betting does not re-open."""
    result = chip_push(1400, 1400, parse_chip_list("1000,2x500"), last_chips=True)
    assert result.full_raise is False and calc.R_REOPENING in result.rule_ids


@pytest.mark.parametrize(
    "declared, chips, last, kind, takes, add, raise_to",
    [
        ("call", "1000,5x100", False, "call", 1100, 0, None),
        ("raise", "1000,5x100", False, "raise", 1700, 200, 1700),
        ("raise", "5000", False, "raise", 5000, 0, 5000),
        ("raise", "1000,3x100", True, "all-in", 1300, 0, 1300),
        ("allin", "1000,3x100", True, "all-in", 1300, 0, 1300),
        ("call", "500,100", False, "call", 1100, 500, None),
    ],
)
def test_declarations_come_first(declared, chips, last, kind, takes, add, raise_to):
    """What is said before the chips land decides: call, raise (at least the minimum) or all-in."""
    result = chip_push(1100, 600, parse_chip_list(chips), last_chips=last, declared=declared)
    assert (result.kind, result.takes, result.add, result.raise_to) == (kind, takes, add, raise_to)


def test_not_facing_a_bet_is_a_bet_of_the_chips():
    """Rule 44: an overchip put out with no bet to face is a bet of the chip's value."""
    result = chip_push(0, 200, [1000])
    assert (result.kind, result.takes, result.rule_ids) == ("bet", 1000, ["tda-2024:44"])


# ---------------------------------------------------------------- Rule 46: prior bet chips


@pytest.mark.parametrize(
    "example, chips, prior, pulled, kind, situation, change, raise_to",
    [
        ("46 S1.1 overchip on two 25s", "1000", "25,25", "none", "call", 1, 450, None),
        ("46 S1.2a two 500s", "500,500", "25,25", "none", "call", 1, 450, None),
        ("46 S1.2b a 100 and a 500", "100,500", "25,25", "none", "call", 1, 50, None),
        ("46 S1.3 a 1000 and a 500", "1000,500", "25,25", "none", "raise", 1, 0, 1550),
        ("46 S2.1 pulled back, overchip", "1000", "25,25", "all", "call", 2, 400, None),
        ("46 S2.2 pulled back, two chips", "500,500", "25,25", "all", "call", 2, 400, None),
        ("46 S3 one 25 pulled back", "500,100", "25", "some", "call", 3, 25, None),
    ],
)
def test_addendum_prior_chips_25_50(example, chips, prior, pulled, kind, situation, change, raise_to):
    """THE 25-50: the BB's two 25s face a raise to 600 (550 more, minimum raise 550)."""
    result = chip_push(600, 550, parse_chip_list(chips), prior=parse_chip_list(prior), pulled=pulled)
    assert (result.kind, result.situation, result.change, result.raise_to) == (kind, situation, change, raise_to)
    assert result.rule_ids[0] == "tda-2024:46"


@pytest.mark.parametrize(
    "facing, min_raise, chips, kind, raise_to, change",
    [
        (700, 600, "500", "raise", 1500, 0),  # 1500 is more than a full raise (to 1300)
        (700, 600, "25", "raise", 1300, 0),  # 1025 reaches the 1000 line: completed to 1300
        (900, 800, "100", "call", None, 200),  # 1100 is short of the 1300 line: a call
    ],
)
def test_addendum_prior_chips_situation_4(facing, min_raise, chips, kind, raise_to, change):
    """46 S4: the BB's single 1000 covers the raise, so anything added makes one Rule 45 bet of all chips."""
    result = chip_push(facing, min_raise, parse_chip_list(chips), prior=[1000])
    assert (result.situation, result.kind, result.raise_to, result.change) == (4, kind, raise_to, change)


# ---------------------------------------------------------------- Rules 52 and 54: incorrect bets, pot-limit


def test_52a_underraise_is_corrected():
    """52-A: NLHE 100-200, A opens 600 and B raises to 1000; the raise becomes 1200."""
    result = state("100/200", "bet 600, raise 1000")
    assert (result.current_bet, result.min_raise_to) == (1200, 1800)
    assert result.corrections == [
        "player #2's raise to 1,000 is 200 short of the minimum raise to 1,200 (at least half a raise of 600): "
        "a declared raise is made up to 1,200 (Rule 43-A), and an underraise is corrected on this street (Rule 52-A)"
    ]
    assert result.rule_ids == ["tda-2024:43", "tda-2024:47", "tda-2024:52"]


@pytest.mark.parametrize(
    "example, bet, after_sa, next_card, direction, ruling, corrected_to",
    [
        ("52-B Ex 1", 9500, True, False, "low", "stands", 9500),
        ("52-B Ex 2", 9500, False, False, "low", "raised", 10500),
        ("52-B Ex 3", 11500, True, False, "high", "reduced", 10500),
        ("52-B Ex 3, next card out", 11500, True, True, "high", "stands", 11500),
        ("exact count", 10500, True, False, "exact", "correct", 10500),
    ],
)
def test_addendum_pot_limit_miscount(example, bet, after_sa, next_card, direction, ruling, corrected_to):
    """PLO 500-1000, post-flop pot 10,500: a low count is fixed until SA, an overbet until the next card."""
    result = pot_limit(10500, 0, bet=bet, after_sa=after_sa, next_card=next_card)
    m = result.miscount
    assert (result.max_total, m.direction, m.ruling, m.corrected_to) == (10500, direction, ruling, corrected_to)
    assert result.rule_ids == ["tda-2024:52", "tda-2024:54"]


@pytest.mark.parametrize(
    "example, posted_sb, posted_bb, counted, actual",
    [
        ("54-B Ex 1: dead SB", 0, None, 300, 200),
        ("54-B Ex 2: short BB", None, 100, 300, 200),
        ("full blinds", None, None, 300, 300),
    ],
)
def test_addendum_pot_limit_dead_or_short_blind(example, posted_sb, posted_bb, counted, actual):
    """PLO 100-200: with a dead SB or a short BB the first player's pot bet is still 700."""
    result = pot_limit(None, blinds=Blinds(100, 200), posted_sb=posted_sb, posted_bb=posted_bb)
    assert (result.max_total, result.pot, result.actual_pot, result.to_call) == (700, counted, actual, 200)


@pytest.mark.parametrize(
    "pot, call, in_front, max_total, puts_in, kind",
    [
        (1400, 0, 0, 1400, 1400, "bet"),  # 54-C: post-flop, the actual pot
        (300, 200, 0, 700, 700, "raise"),
        (1500, 500, 0, 2500, 2500, "raise"),
        (2100, 600, 300, 3600, 3300, "raise"),  # he bet 300 and was raised to 900
    ],
)
def test_pot_limit_maximum(pot, call, in_front, max_total, puts_in, kind):
    """Call first, then raise the pot as it stands after the call."""
    result = pot_limit(pot, call, in_front=in_front)
    assert (result.max_total, result.puts_in, result.kind) == (max_total, puts_in, kind)


def test_pot_limit_preflop_later_action_adds_the_missing_blind():
    """Pre-flop with a dead SB, UTG made it 700 (900 in chips): the next pot raise counts 1000, to 2400."""
    result = pot_limit(900, 700, blinds=Blinds(100, 200), posted_sb=0)
    assert (result.pot, result.max_total) == (1000, 2400)


# ---------------------------------------------------------------- Rule 71, RP-8, balancing, Rule 24


@pytest.mark.parametrize("players, rounds, hands", [(8, 1, 8), (9, 2, 18), (2, 1, 2), (10, 3, 30)])
def test_missed_round_penalty(players, rounds, hands):
    """71-A: one hand per player at the table, offender included, per round."""
    assert missed_hand_penalty(players, rounds).hands == hands


@pytest.mark.parametrize(
    "left, hands, edition, per_hand, level, clocks, now, levels",
    [
        ("17:30", 3, "2019", None, None, ["15:30", "13:30", "11:30"], "11:30", 0),  # RP-8-B 2019 example
        ("17:30", 3, "2024", None, None, ["15:30", "13:30", "11:30"], "11:30", 0),  # RP-8-C/D: 2 minutes a hand
        ("17:30", 3, "2024", "3", None, ["14:30", "11:30", "8:30"], "8:30", 0),  # RP-8-B's ceiling
        ("17:30", 2, "2024", "2:30", None, ["15:00", "12:30"], "12:30", 0),
        ("5:00", 3, "2019", None, "20", ["3:00", "1:00", "19:00"], "19:00", 1),
        ("6:00", 3, "2019", None, None, ["4:00", "2:00", "0:00"], "0:00", 1),
        ("3:00", 2, "2024", "3", "20", ["20:00", "17:00"], "17:00", 1),
    ],
)
def test_hand_for_hand_clock(left, hands, edition, per_hand, level, clocks, now, levels):
    """Each hand, from the one in progress at the announcement, takes its run-off; levels carry on."""
    result = hand_for_hand(
        calc.parse_clock(left, "--level-left"), hands, edition,
        calc.parse_clock(per_hand, "--minutes-per-hand") if per_hand else None,
        calc.parse_clock(level, "--level-minutes") if level else None,
    )
    assert ([h.clock for h in result.schedule], result.clock_now, result.levels_reached) == (clocks, now, levels)


def test_hand_for_hand_2024_says_which_minutes_it_used():
    """The 2024 run-off: 2 minutes a hand (RP-8-C, D) by default, never more than 3 (RP-8-B); the note says which was used."""
    result = hand_for_hand(1050, 3)
    assert result.note.startswith("2024 RP-8 takes 2 minutes off the clock each hand, hand by hand where possible (RP-8-C, D), and never more than 3")
    assert result.seconds_per_hand == 120 and result.rule_ids == ["tda-2024:RP-8"]


@pytest.mark.parametrize(
    "tables, seats, action, moves, after, halted, final_size, combine_now",
    [
        ("9,7,8,5", 9, "balance", [("1", "4", 1), ("3", "4", 1)], [8, 7, 7, 7], ["4"], None, None),
        ("5,8", 9, "balance", [("2", "1", 1)], [6, 7], ["1"], 9, False),
        ("5,5", 9, "none", [], [5, 5], [], 9, False),
        ("5,4", 9, "final-table", [("2", "1", 4)], [9], [], 9, True),
        ("4,4", 7, "none", [], [4, 4], [], 7, False),
        ("4,3", 6, "final-table", [("2", "1", 3)], [7], [], 7, True),
        ("6,6,6", 9, "break", [("3", "1", 3), ("3", "2", 3)], [9, 9], [], None, None),
        ("9,9,9,8,8,8,7,7", 9, "none", [], [9, 9, 9, 8, 8, 8, 7, 7], [], None, None),
        ("9,9,9,9,9,9,9,9,9,6", 9, "balance", [("1", "10", 1)], [8, 9, 9, 9, 9, 9, 9, 9, 9, 7], ["10"], None, None),
        ("8,8,7", 9, "none", [], [8, 8, 7], [], None, None),
    ],
)
def test_balance_tables(tables, seats, action, moves, after, halted, final_size, combine_now):
    """House limits (within 1 at six tables or fewer, within 2 above), breaking, halting, RP-9."""
    result = balance_tables(parse_tables(tables), seats)
    assert result.action == action
    assert [(m.from_table, m.to_table, m.players) for m in result.moves] == moves
    assert [t.players for t in result.after] == after
    assert result.halted == halted
    assert (result.final_table.size if result.final_table else None) == final_size
    assert (result.final_table.combine_now if result.final_table else None) == combine_now


def test_balance_cites_house_first():
    """Balancing cites the DTTF limits first, then TDA 11; the final stage adds RP-9."""
    assert balance_tables(parse_tables("5,8")).rule_ids == [
        "dttf:table-balance-limits", "dttf:balancing-big-blind-moves", "tda-2024:11", "tda-2024:RP-9"]


@pytest.mark.parametrize(
    "stacks, bare, odd_value, to_race, order, protected",
    [
        ("1:3,2:1,3:0,4:2,5:7", [4], 225, 2, [1, 2, 4, 5], [4]),
        ("1:3,2:1,3:0", [], 100, 1, [1, 2], []),
        ("2:1,1:1", [], 50, 1, [1, 2], []),  # half a chip rounds up; seat 1 first whatever the order typed
        ("1:1", [], 25, 0, [1], []),
        ("1:1", [1], 25, 0, [1], [1]),  # raced out? no: he still gets a chip
        ("1:4,2:8", [], 0, 0, [], []),
    ],
)
def test_chip_race(stacks, bare, odd_value, to_race, order, protected):
    """Whole chips change straight across; odd chips race from seat 1; nobody is raced out."""
    result = chip_race(parse_stacks(stacks), 25, 100, bare)
    assert (result.odd_value, result.chips_to_race, result.order, result.protected) == (odd_value, to_race, order, protected)


# ---------------------------------------------------------------- parsing and bad numbers


@pytest.mark.parametrize(
    "text, expected",
    [
        ("bet 600, raise 1600, allin 1700, raise 3600",
         [("#1", "bet", 600), ("#2", "raise", 1600), ("#3", "allin", 1700), ("#4", "raise", 3600)]),
        ("A: bets 1,600, B raises to 3,600; C all in 5k", [("A", "bet", 1600), ("B", "raise", 3600), ("C", "allin", 5000)]),
        ("A bet 100, A check, B fold, C limp", [("A", "bet", 100), ("A", "check", None), ("B", "fold", None), ("C", "call", None)]),
    ],
)
def test_parse_actions(text, expected):
    """Anonymous actions are new players; named ones can act again; amounts take 1,600 and 5k."""
    assert [(a.player, a.verb, a.amount) for a in parse_actions(text)] == expected


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: parse_actions(""), "--actions is empty"),
        (lambda: parse_actions("bet"), "--actions: 'bet' needs an amount, e.g. 'bet 600'"),
        (lambda: parse_actions("bet six hundred"), "--actions: cannot read 'bet six hundred'"),
        (lambda: parse_actions("bet 600, shout 5"), "--actions: unknown action 'shout' in 'shout 5'"),
        (lambda: parse_actions("bet -600"), "--actions 'bet -600' must not be negative (got -600)"),
        (lambda: parse_actions("fold 300"), "--actions: 'fold 300' takes no amount"),
        (lambda: state("100/200", "raise 600"), "--actions: nobody has bet yet, so player #1 cannot raise"),
        (lambda: state("100/200", "bet 600, bet 900"), "--actions: player #2 cannot bet: there is already a bet of 600"),
        (lambda: state("100/200", "bet 600", True), "--actions: player #1 cannot bet: pre-flop the big blind is the opening bet"),
        (lambda: state("100/200", "A bet 600, B check"), "--actions: B cannot check facing 600 to call ('B check')"),
        (lambda: state("100/200", "A check, A call"), "--actions: A has nothing to call ('A call'): write 'check'"),
        (lambda: state("100/200", "A fold, A call"), "--actions: A folded and cannot act again"),
        (lambda: state("100/200", "A bet 600, B call 500"), "--actions: B calls 500 but the bet is 600"),
        (lambda: state("100/200", "A bet 600, B raise 500"), "--actions: B's raise to 500 is not above the bet of 600"),
        (lambda: parse_blinds("200/100"), "--blinds: the small blind (200) is bigger than the big blind (100)"),
        (lambda: parse_blinds("100"), "--blinds: '100' is not SB/BB, e.g. 100/200"),
        (lambda: parse_blinds("-100/200"), "--blinds must not be negative (got -100/200)"),
        (lambda: parse_blinds("100/0"), "big blind must be more than 0"),
        (lambda: calc.parse_amount("abc", "--facing"), "--facing: 'abc' is not a number of chips"),
        (lambda: calc.parse_amount("-5", "--pot"), "--pot must not be negative (got -5)"),
        (lambda: calc.parse_amount("1.2345k", "--pot"), "--pot: '1.2345k' is not a whole number of chips"),
        (lambda: calc.parse_amount("1" + "0" * 13, "--pot"), "--pot: 10000000000000 is more chips than any tournament has in play"),
        (lambda: parse_chip_list(""), "--chips: give the chips"),
        (lambda: parse_chip_list("1000,0"), "--chips chip must be more than 0"),
        (lambda: chip_push(1100, 600, [500, 100]), "the chips put out (600) do not cover the call of 1,100: that is an undercall (Rule 51)"),
        (lambda: chip_push(1100, 0, [1000, 500]), "--min-raise must be more than 0"),
        (lambda: chip_push(1100, 600, [1000], declared="maybe"), "--declared must be one of none, call, raise, allin"),
        (lambda: chip_push(1100, 600, [1000], pulled="all"), "--pulled needs --prior"),
        (lambda: pot_limit(None), "give --pot"),
        (lambda: pot_limit(100, 0, posted_sb=0), "a dead or short blind matters only pre-flop"),
        (lambda: pot_limit(100, -1), "--call must not be negative (got -1)"),
        (lambda: missed_hand_penalty(1), "--players must be between 2 and 10"),
        (lambda: missed_hand_penalty(8, 0), "--rounds must be between 1 and 10 (got 0)"),
        (lambda: hand_for_hand(300, 4, "2019"), "the level runs out during hand 3 of hand-for-hand: give --level-minutes"),
        (lambda: hand_for_hand(1050, 3, "2019", 180), "the 2019 RP-8-B fixes the run-off at 2 minutes per hand"),
        (lambda: hand_for_hand(1050, 3, "2024", 240), "--minutes-per-hand: 2024 RP-8-B allows more than 0 and at most 3 minutes"),
        (lambda: hand_for_hand(1050, 3, "2022"), "--edition must be 2019 or 2024 (got '2022')"),
        (lambda: calc.parse_clock("ten", "--level-left"), "--level-left: 'ten' is not a time"),
        (lambda: calc.parse_clock("-3:00", "--level-left"), "--level-left must not be negative"),
        (lambda: parse_tables("9,x"), "--tables: table 2: 'x' is not a number of players"),
        (lambda: balance_tables(parse_tables("9,0")), "--tables: table 2 has no players"),
        (lambda: balance_tables(parse_tables("10,9")), "--tables: table 1 has 10 players but tables seat 9 (--seats)"),
        (lambda: balance_tables(parse_tables("5,5"), 12), "--seats must be between 2 and 10 (got 12)"),
        (lambda: parse_stacks("1:3,1:2"), "--stacks: seat 1 is given twice"),
        (lambda: parse_stacks("1-3"), "--stacks: '1-3' is not seat:chips"),
        (lambda: parse_stacks("1:-3"), "--stacks: seat 1 chips must not be negative"),
        (lambda: chip_race({1: 3}, 25, 25), "--next (25) must be bigger than the chip being removed (25)"),
        (lambda: chip_race({1: 3}, 25, 60), "--next (60) is not a whole number of 25 chips"),
        (lambda: chip_race({1: 0}, 25, 100, [1]), "seat 1 has no chips at all"),
    ],
)
def test_bad_input_is_a_clear_floor_error(call, message):
    """Negative, non-numeric and impossible numbers raise FloorError with a one-line message."""
    with pytest.raises(FloorError) as caught:
        call()
    assert caught.value.message.startswith(message)
    assert "\n" not in caught.value.message


# ---------------------------------------------------------------- invariants (hypothesis)

NAMES = ["A", "B", "C", "D", "E", "F"]


@st.composite
def betting_rounds(draw):
    """A legal no-limit betting round built one action at a time from the engine's own state."""
    big = draw(st.integers(min_value=2, max_value=1000))
    blinds = Blinds(draw(st.integers(min_value=0, max_value=big)), big)
    preflop = draw(st.booleans())
    actions: list[calc.Action] = []
    for _ in range(draw(st.integers(min_value=0, max_value=10))):
        result = raise_state(blinds, actions, preflop)
        live = {p.name: p for p in result.players}
        name = draw(st.sampled_from(NAMES + (["SB", "BB"] if preflop else [])))
        seen = live.get(name)
        if seen and seen.status != "live":
            continue
        to_call = seen.to_call if seen else result.current_bet
        may_raise = True if seen is None else seen.may_raise
        put_in = seen.put_in if seen else 0
        choices = ["fold", "check" if to_call == 0 else "call"]
        if may_raise:
            choices += ["raise" if result.current_bet else "bet", "allin"]
        elif to_call:
            choices.append("allin-call")
        verb = draw(st.sampled_from(choices))
        if verb in ("raise", "bet"):
            amount = result.current_bet + draw(st.integers(min_value=1, max_value=4 * result.min_raise))
        elif verb == "allin":
            amount = put_in + draw(st.integers(min_value=1, max_value=to_call + 4 * result.min_raise))
        elif verb == "allin-call":
            verb, amount = "allin", put_in + draw(st.integers(min_value=1, max_value=to_call))
        else:
            amount = None
        actions.append(calc.Action(name, verb, amount, text=f"{name} {verb} {amount or ''}".strip()))
    return blinds, preflop, actions


@settings(max_examples=300, deadline=None)
@given(betting_rounds())
def test_min_raise_never_below_big_blind(round_):
    """Whatever happened this round, a raise must add at least the big blind."""
    blinds, preflop, actions = round_
    result = raise_state(blinds, actions, preflop)
    assert result.min_raise >= blinds.big
    assert result.min_raise_to == result.current_bet + result.min_raise >= result.current_bet + blinds.big


@settings(max_examples=300, deadline=None)
@given(betting_rounds(), st.integers(min_value=0, max_value=5))
def test_full_raise_always_reopens_betting(round_, extra):
    """After a full raise by a new player, everyone else still live may raise again."""
    blinds, preflop, actions = round_
    before = raise_state(blinds, actions, preflop)
    verb = "raise" if before.current_bet else "bet"
    target = before.current_bet + before.min_raise + extra * blinds.big
    after = raise_state(blinds, actions + [calc.Action("Z", verb, target, text=f"Z {verb} {target}")], preflop)
    assert after.min_raise == target - before.current_bet
    for p in after.players:
        if p.status == "live" and p.name != "Z":
            assert p.may_raise is True and p.to_call >= after.min_raise


chip_values = st.sampled_from([5, 25, 100, 500, 1000, 5000, 25000])


@settings(max_examples=500, deadline=None)
@given(
    facing=st.integers(min_value=0, max_value=60000),
    min_raise=st.integers(min_value=1, max_value=30000),
    chips=st.lists(chip_values, min_size=1, max_size=8),
    prior=st.lists(chip_values, max_size=3),
    pulled=st.sampled_from(calc.PULLED),
    last=st.booleans(),
    declared=st.sampled_from(calc.DECLARATIONS),
)
def test_call_never_takes_more_than_the_chips(facing, min_raise, chips, prior, pulled, last, declared):
    """A call keeps at most the chips put in; the change is the rest, never negative."""
    if not prior:
        pulled = "none"
    if prior and facing <= sum(prior) and pulled == "none":
        facing = sum(prior) + 1  # prior chips face a raise above them
    try:
        result = chip_push(facing, min_raise, chips, prior=prior, pulled=pulled, last_chips=last, declared=declared)
    except FloorError as exc:
        assert "undercall" in exc.message or "--prior" in exc.message
        return
    assert result.change >= 0 and result.add >= 0
    if result.kind == "call":
        assert result.takes <= result.total + result.add
        assert result.takes + result.change == result.total + result.add
        if result.add == 0:
            assert result.takes <= result.total
    if result.kind == "raise":
        assert result.raise_to >= result.facing + result.min_raise


# ---------------------------------------------------------------- rule titles


def _rulebook_titles() -> dict:
    titles = {}
    for name in ("tda-2024-rules.yaml", "tda-2024-procedures.yaml", "tda-2019-procedures.yaml", "dttf.yaml"):
        for rule in yaml.safe_load((REPO / "rulebook" / name).read_text(encoding="utf-8"))["rules"]:
            titles[rule["id"]] = rule["title"]
    return titles


def test_rule_titles_match_the_rulebook():
    """Every rule the calculators cite exists in rulebook/ under the title the CLI prints."""
    titles = _rulebook_titles()
    cited = {value for name, value in vars(calc).items() if name.startswith("R_")}
    assert cited == set(RULE_TITLES)
    assert {rule_id: titles.get(rule_id) for rule_id in RULE_TITLES} == RULE_TITLES


def test_rules_line_groups_by_source():
    """The closing line names the rules, grouped by source, primary first."""
    assert rules_line(["tda-2024:43", "tda-2024:47"]) == "Rule: TDA 2024 Rule 43 (Raise Amounts), Rule 47 (Re-Opening the Bet.)"
    assert rules_line(["dttf:table-balance-limits", "tda-2024:11", "tda-2024:RP-9"]) == (
        "Rule: DTTF: How balanced tables must be; TDA 2024 Rule 11 (Balancing Tables and Halting Play), "
        "RP-9 (Number of Players at Final Table)")


# ---------------------------------------------------------------- CLI


@pytest.mark.parametrize(
    "args, lines",
    [
        (["raise", "--blinds", "100/200", "--actions", "bet 600, raise 1600, allin 1700, raise 3600"],
         ["Bet to call: 3,600", "Minimum raise: 1,900 more, to 5,500 (set by player #4's raise of 1,900, from 1,700 to 3,600)",
          "All-in: Player #3 (1,700)", "Rule: TDA 2024 Rule 43 (Raise Amounts), Rule 47 (Re-Opening the Bet.)"]),
        (["raise", "--blinds", "50/100", "--actions", EX_47_1 + ", A call"],
         ["C has acted and faces only 75 more, less than a full raise of 100: betting is not re-opened — call or fold only"]),
        (["chips", "--facing", "1100", "--min-raise", "600", "--chips", "1000,100,100,100,100,100"],
         ["Ruling: a raise to 1,700; he adds 200", "Rule: TDA 2024 Rule 45 (Multiple Chip Betting), Rule 43 (Raise Amounts)"]),
        (["chips", "--facing", "1400", "--min-raise", "1400", "--chips", "1000,2x500", "--last-chips"],
         ["Ruling: all-in to 2,000 (not a full raise: betting does not re-open for players who have acted)"]),
        (["chips", "--facing", "600", "--min-raise", "550", "--chips", "1000", "--prior", "25,25"],
         ["Ruling: a call of 600; return 450"]),
        (["pot", "--pot", "10500", "--call", "0"],
         ["Pot-limit maximum: a bet of 10,500", "Rule: TDA 2024 Rule 54 (Pot Size and Pot-Limit Bets)"]),
        (["pot", "--blinds", "100/200", "--dead-sb"],
         ["Pot-limit maximum: a raise to 700 (call 200, then raise 500)", "Pot as counted: 300 (actual chips: 200)"]),
        (["pot", "--blinds", "100/200", "--short-bb", "100"], ["Pot-limit maximum: a raise to 700 (call 200, then raise 500)"]),
        (["pot", "--pot", "10500", "--call", "0", "--bet", "11500"],
         ["The 11,500 bet: it is cut back to 10,500",
          "Rule: TDA 2024 Rule 52 (Incorrect Bets, Underbets and Underraises), Rule 54 (Pot Size and Pot-Limit Bets)"]),
        (["pot", "--pot", "10500", "--call", "0", "--bet", "9500", "--after-sa"], ["The 9,500 bet: it stands"]),
        (["penalty", "--players", "8", "--rounds", "1"], ["Penalty: 8 hands (8 players × 1 round)"]),
        (["h4h", "--level-left", "17:30", "--hands", "3", "--edition", "2019"],
         ["After hand 1 (the hand in progress at the announcement): set the clock to 15:30", "After hand 2: set the clock to 13:30",
          "Clock now: 11:30 (same level)", "Rule: TDA 2019 RP-8 (Hand for Hand Procedures)"]),
        (["h4h", "--level-left", "17:30", "--hands", "3"], ["Clock now: 11:30 (same level)"]),
        (["h4h", "--level-left", "3:00", "--hands", "2", "--level-minutes", "20"], ["After hand 2: set the clock to 19:00 — level +1"]),
        (["balance", "--tables", "9,7,8,5"],
         ["Tables 1:9 2:7 3:8 4:5: 29 players, spread 4, house limit 1", "Balance: 1 from table 1 to table 4; 1 from table 3 to table 4",
          "After: 1:8 2:7 3:7 4:7"]),
        (["balance", "--tables", "5,4"], ["Final table: combine (table 2 moves): 4 from table 2 to table 1"]),
        (["chip-race", "--stacks", "1:3,2:1,3:0,…", "--denomination", "25", "--next", "100"],
         ["Seat 1: 3 × 25 — races 3 chips", "Race: 100 in odd chips = 1 × 100; cards dealt from seat 1: seats 1, 2; one chip at most per player"]),
    ],
)
def test_cli_output(floor, args, lines):
    """Each calculator prints a few plain lines and ends with the rules applied."""
    result = floor("calc", *args)
    assert result.exit_code == 0, result.stderr
    out = result.stdout.splitlines()
    for line in lines:
        assert line in out
    assert out[-1].startswith("Rule: ")


@pytest.mark.parametrize(
    "args, keys",
    [
        (["raise", "--blinds", "100/200", "--actions", "bet 600"], {"current_bet", "min_raise", "min_raise_to", "players"}),
        (["chips", "--facing", "600", "--min-raise", "600", "--chips", "5000"], {"kind", "takes", "change", "raise_to"}),
        (["pot", "--pot", "10500", "--call", "0"], {"max_total", "pot", "miscount"}),
        (["penalty", "--players", "8"], {"hands", "at_the_table"}),
        (["h4h", "--level-left", "17:30", "--hands", "3"], {"schedule", "clock_now", "levels_reached", "note"}),
        (["balance", "--tables", "9,7,8,5"], {"moves", "after", "tolerance", "final_table"}),
        (["chip-race", "--stacks", "1:3", "--denomination", "25", "--next", "100"], {"seats", "chips_to_race", "order"}),
    ],
)
def test_cli_json(floor, args, keys):
    """--json prints one object with the numbers, rule ids, their labels and the explanation."""
    result = floor("calc", *args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert keys | {"rule_ids", "rules", "explanation"} <= set(data)
    assert len(data["rules"]) == len(data["rule_ids"]) and all(data["rules"])


def test_cli_json_exact_numbers(floor):
    """The JSON of the issue's raise example carries the exact amounts."""
    data = json.loads(floor("calc", "raise", "--blinds", "100/200", "--actions", "bet 600, raise 1600, allin 1700, raise 3600", "--json").stdout)
    assert (data["current_bet"], data["min_raise"], data["min_raise_to"]) == (3600, 1900, 5500)
    assert [(p["name"], p["may_raise"]) for p in data["players"]] == [("#1", True), ("#2", True), ("#3", None), ("#4", False)]
    assert data["rule_ids"] == ["tda-2024:43", "tda-2024:47"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["raise", "--blinds", "100/200", "--actions", "bet -600"], "floor: --actions 'bet -600' must not be negative (got -600)"),
        (["raise", "--blinds", "abc", "--actions", "bet 600"], "floor: --blinds: 'abc' is not SB/BB, e.g. 100/200"),
        (["raise", "--actions", "bet 600"], "floor: give --blinds, e.g. --blinds 100/200"),
        (["raise", "--blinds", "100/200", "--actions", "bet 600,, raise"], "floor: --actions: an empty action"),
        (["chips", "--facing", "1100", "--min-raise", "600", "--chips", "500,100"],
         "floor: the chips put out (600) do not cover the call of 1,100: that is an undercall (Rule 51) — add --last-chips if they are the player's last chips"),
        (["chips", "--facing", "ten", "--min-raise", "600", "--chips", "500"], "floor: --facing: 'ten' is not a number of chips"),
        (["chips", "--facing", "1100", "--min-raise", "600", "--chips", "1000,-100"], "floor: --chips chip must not be negative"),
        (["pot", "--pot", "-10500"], "floor: --pot must not be negative (got -10500)"),
        (["pot", "--call", "0"], "floor: give --pot"),
        (["pot", "--pot", "100", "--dead-sb"], "floor: a dead or short blind matters only pre-flop"),
        (["pot", "--pot", "100", "--after-sa"], "floor: --after-sa and --next-card go with --bet"),
        (["penalty", "--players", "-8"], "floor: --players must not be negative (got -8)"),
        (["penalty", "--players", "eight"], "floor: --players: 'eight' is not a whole number"),
        (["h4h", "--level-left", "17:30", "--hands", "x"], "floor: --hands: 'x' is not a whole number"),
        (["h4h", "--level-left", "soon", "--hands", "3"], "floor: --level-left: 'soon' is not a time"),
        (["h4h", "--level-left", "17:30", "--hands", "3", "--edition", "2011"], "floor: --edition must be 2019 or 2024 (got '2011')"),
        (["balance", "--tables", "9,7,-8"], "floor: --tables: table 3 must not be negative (got -8)"),
        (["balance", "--tables", "9,7", "--seats", "nine"], "floor: --seats: 'nine' is not a whole number"),
        (["chip-race", "--stacks", "1:3", "--denomination", "25", "--next", "hundred"], "floor: --next: 'hundred' is not a number of chips"),
        (["chip-race", "--stacks", "1:3", "--denomination", "25", "--next", "100", "--no-other-chips", "2"],
         "floor: --no-other-chips: seat 2 is not in --stacks"),
    ],
)
def test_cli_bad_input_one_line(floor, args, message):
    """Bad numbers: one line on stderr starting with the message, exit 2, no traceback."""
    result = floor("calc", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_every_calc_command_has_help(floor):
    """Each calculator has a help text and lists --json."""
    for name in ("raise", "chips", "pot", "penalty", "h4h", "balance", "chip-race"):
        result = floor("calc", name, "--help")
        assert result.exit_code == 0 and "--json" in result.stdout
