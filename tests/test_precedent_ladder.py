"""Precedent in one line with its consistency flag, and the penalty ladder with its next step."""

from __future__ import annotations

from datetime import UTC

import pytest

from floorcall.engines import calc
from floorcall.engines.penalty_ladder import Entry, build_ladder, step_of
from floorcall.engines.precedent import Earlier, consistency_flags, precedent
from floorcall.engines.ruling_facts import DISQUALIFICATION, HANDS, MINUTES, ROUNDS, WARNING, Penalty

SIT = "overchip-facing-bet"
SILENT = "declared=silent"


def earlier(rid, path=SILENT, outcome="call", house="dttf", penalty="none", fingerprint="sha256:a", superseded=False,
            repeat=False, situation=SIT):
    return Earlier(rid, f"2026-03-1{rid % 10}T20:0{rid % 10}:00+00:00", situation, path, outcome, house, penalty,
                   fingerprint, superseded, repeat)


def line(records, outcome="call", house="dttf", penalty=None, fingerprint="sha256:a", repeat=False):
    return precedent(records, SIT, SILENT, outcome, house, penalty, fingerprint, UTC, repeat).line


@pytest.mark.parametrize("records, kwargs, expected", [
    ([], {}, "Precedent: none — the first ruling on this situation in this log."),
    ([earlier(1, path="declared=said-raise", outcome="raise")], {},
     "Precedent: 1 earlier in this log (last 2026-03-11 20:01, #1); none on these answers."),
    ([earlier(1), earlier(2)], {},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers, all 'call', "
     "first-offence penalties: none ×2 — consistent."),
    ([earlier(1), earlier(2, outcome="raise")], {},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers — CHECK: other outcome raise ×1 (#2)."),
    ([earlier(1), earlier(2, outcome="raise", fingerprint="sha256:old")], {},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers — CHECK: other outcome raise ×1 (#2) "
     "(on other content)."),
    ([earlier(1), earlier(2, penalty="verbal warning")], {},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers — CHECK: first-offence penalties "
     "differ: none ×1, verbal warning ×1 (#2)."),
    ([earlier(1), earlier(2)], {"penalty": "verbal warning"},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers — CHECK: first-offence penalties "
     "differ: none ×2; this one: verbal warning (#1, #2)."),
    ([earlier(1), earlier(2, penalty="verbal warning")], {"penalty": "1 missed round", "repeat": True},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers, all 'call', first-offence penalties: "
     "none ×1, verbal warning ×1; this penalty is a repeat offence's: see the ladder — consistent."),
    ([earlier(1, penalty="verbal warning"), earlier(2, penalty="2 missed rounds", repeat=True)], {"penalty": "verbal warning"},
     "Precedent: 2 earlier in this log (last 2026-03-12 20:02, #2); 2 on these answers, all 'call', first-offence penalties: "
     "verbal warning ×1, repeat offences #2 aside — consistent."),
    ([earlier(1), earlier(2, outcome="raise", superseded=True)], {},
     "Precedent: 1 earlier in this log (last 2026-03-11 20:01, #1); 1 on these answers, all 'call', "
     "first-offence penalties: none ×1 — consistent."),
    ([earlier(1, house="none")], {},
     "Precedent: 1 earlier in this log (last 2026-03-11 20:01, #1); none on these answers (+1 under the other rules in force)."),
    ([earlier(1, situation="fouled-deck")], {}, "Precedent: none — the first ruling on this situation in this log."),
    ([earlier(n, outcome="raise") for n in range(1, 6)], {},
     "Precedent: 5 earlier in this log (last 2026-03-15 20:05, #5); 5 on these answers — CHECK: other outcome raise ×5 "
     "(#1, #2, #3 and 2 more)."),
])
def test_precedent_line(records, kwargs, expected):
    """The one line says how often, when last, and whether the same answers were ruled the same way."""
    assert line(records, **kwargs) == expected


def test_precedent_flag_is_data_too():
    """The flag and the records behind it are in the JSON, not only in the words."""
    found = precedent([earlier(1), earlier(2, outcome="raise")], SIT, SILENT, "call", "dttf", None, "", UTC)
    assert (found.consistent, found.outcome_differs, found.as_json()["same_answers"]) == (False, [2], 2)


def test_consistency_flags_for_the_report():
    """Each current record is compared with the earlier ones on its answers; a repeat offence's penalty is no flag."""
    records = [earlier(1), earlier(2, outcome="raise"), earlier(3, penalty="verbal warning"),
               earlier(4, penalty="1 missed round", repeat=True), earlier(5, outcome="raise", superseded=True),
               earlier(6, path="declared=said-raise", outcome="raise"), earlier(7)]
    assert consistency_flags(records) == {
        2: ["same answers reached another outcome in #1"],
        3: ["same answers reached another outcome in #2", "same answers, another first-offence penalty in #1, #2"],
        4: ["same answers reached another outcome in #2"],
        7: ["same answers reached another outcome in #2", "same answers, another first-offence penalty in #3"],
    }


# ---------------------------------------------------------------- the ladder


def entry(rid, penalty, house="dttf"):
    return Entry(rid, "2026-03-14 20:00", "Friday NLH", "12", 4, SIT, "One big chip", penalty, house)


W, DQ = Penalty(WARNING), Penalty(DISQUALIFICATION)


@pytest.mark.parametrize("house, given, players, step, text", [
    ("none", [], None, 1, "verbal warning"),
    ("none", [W], 8, 2, "missed hands: one or more, fewer than a round (a round is 8 hands at 8 players)"),
    ("none", [W, W], None, 2, "missed hands: one or more, fewer than a round"),
    ("none", [W, Penalty(HANDS, 3)], 8, 3, "1 missed round = 8 hands at 8 players"),
    ("none", [Penalty(HANDS, 9)], 8, 3, "2 missed rounds = 16 hands at 8 players"),
    ("none", [W, Penalty(HANDS, 3)], None, 3, "1 missed round (one hand per player at the table per round)"),
    ("none", [Penalty(ROUNDS, 1)], 9, 3, "2 missed rounds = 18 hands at 9 players, or disqualification"),
    ("none", [Penalty(ROUNDS, 2), W], 6, 3, "3 missed rounds = 18 hands at 6 players, or disqualification"),
    ("none", [Penalty(ROUNDS, 10)], 8, 4, "disqualification"),
    ("none", [W, DQ], 8, None, "already disqualified (#2): nothing further; the chips are removed from play"),
    ("dttf", [], None, 1, "verbal warning"),
    ("dttf", [W], 8, 2, "dealt out for a length of time — DTTF sets no length; measured the TDA way, "
                        "1 missed round = 8 hands at 8 players"),
    ("dttf", [W, Penalty(ROUNDS, 1)], 8, 2, "dealt out longer than the last deal-out (1 missed round): "
                                            "2 missed rounds = 16 hands at 8 players, or eviction"),
    ("dttf", [Penalty(HANDS, 4)], 7, 2, "dealt out longer than the last deal-out (4 missed hands): "
                                        "1 missed round = 7 hands at 7 players, or eviction"),
    ("dttf", [Penalty(MINUTES, 20)], 8, 2, "dealt out for longer than the last deal-out (dealt out 20 minutes), or eviction"),
    ("dttf", [Penalty(ROUNDS, 10)], 8, 3, "disqualification (eviction)"),
    ("dttf", [DQ], 8, None, "already disqualified (#1): nothing further; the chips are removed from play"),
])
def test_next_step(house, given, players, step, text):
    """The suggestion is one step above the most severe penalty on record, on the house's own scale."""
    ladder = build_ladder("Ann Lee", [entry(i, p, house) for i, p in enumerate(given, 1)], house, "event 'Friday NLH'", players)
    assert (ladder.next.step, ladder.next.text) == (step, text)


@pytest.mark.parametrize("players, rounds", [(2, 1), (8, 1), (9, 2), (10, 3)])
def test_hand_count_is_the_calculators(players, rounds):
    """The ladder's hands are `floor calc penalty`'s: one per player at the table per round."""
    ladder = build_ladder("Ann", [entry(1, Penalty(ROUNDS, rounds - 1))] if rounds > 1 else [entry(1, W)], "dttf", "x", players)
    assert ladder.next.hands == calc.missed_hand_penalty(players, rounds).hands == players * rounds


@pytest.mark.parametrize("penalty, tda, house", [
    (W, 1, 1), (Penalty(HANDS, 2), 2, 2), (Penalty(MINUTES, 10), 2, 2), (Penalty(ROUNDS, 1), 3, 2), (DQ, 4, 3),
])
def test_steps_on_each_scale(penalty, tda, house):
    """TDA 71 has four steps; DTTF's words have three (a deal-out however measured is one)."""
    assert (step_of(penalty, "none"), step_of(penalty, "dttf")) == (tda, house)


def test_house_ladder_uses_only_dttf_words():
    """Under the house the steps and citations are DTTF's records, with TDA 71 for the escalation only."""
    ladder = build_ladder("Ann Lee", [entry(1, W)], "dttf", "tonight", 8)
    assert [rung.name for rung, _ in ladder.rungs] == ["verbal warning", "dealt out for a length of time",
                                                      "disqualification (eviction)"]
    assert ladder.rule_ids == ["dttf:conduct-and-hand-discussion", "dttf:misconduct-penalties", "tda-2024:71"]
    assert ladder.caveat == "DTTF: a severe infraction such as abusive or disruptive behaviour may be punished by eviction at once."


def test_tda_ladder_lines():
    """The terminal ladder: entries, the steps reached, the suggestion, and who decides."""
    ladder = build_ladder("Ann Lee", [entry(3, W, "none"), entry(7, Penalty(HANDS, 3), "none")], "none", "event 'Friday NLH'",
                          None, named_without_penalty=2)
    assert ladder.lines == [
        "Ann Lee — event 'Friday NLH', under TDA 2024 (no house rules)",
        "  #3     2026-03-14 20:00  verbal warning         One big chip  (table 12 seat 4)",
        "  #7     2026-03-14 20:00  3 missed hands         One big chip  (table 12 seat 4)",
        "  (also named in 2 rulings without a penalty)",
        "Ladder:",
        "  ✓ 1. verbal warning  #3",
        "  ✓ 2. missed hands  #7",
        "  · 3. missed rounds",
        "  · 4. disqualification",
        "Next step Floorcall suggests: 1 missed round (one hand per player at the table per round).",
        "  (give --players N, the players at the table now, for the length in hands)",
        "TDA 71-A has a repeat offence draw a heavier penalty; the rules list the penalties and fix no sequence: the TD decides.",
        "Rules: tda-2024:71",
    ]


def test_bad_table_size_is_the_calculators_message():
    """--players outside 2..10 is refused as `floor calc penalty` refuses it."""
    from floorcall.core.errors import FloorError

    with pytest.raises(FloorError, match="--players must be between 2 and 10"):
        build_ladder("Ann", [], "none", "x", 11)
