"""The facts kept with a ruling: penalties as typed, names, seats, notes, events and dates, checked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from floorcall.core.errors import FloorError
from floorcall.engines.ruling_facts import (
    DISQUALIFICATION,
    HANDS,
    MINUTES,
    ROUNDS,
    WARNING,
    Facts,
    Penalty,
    check_penalty_for_house,
    make_facts,
    name_key,
    night_start,
    parse_penalty,
    parse_since,
    path_key,
)

TEN_KB = "x" * 10_240
PLUS_ONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 3, 14, 1, 30, tzinfo=PLUS_ONE)  # 01:30 local: still last evening's night


@pytest.mark.parametrize("typed, expected", [
    ("warning", Penalty(WARNING)),
    ("Verbal warning", Penalty(WARNING)),
    ("  WARN ", Penalty(WARNING)),
    ("dq", Penalty(DISQUALIFICATION)),
    ("Disqualified", Penalty(DISQUALIFICATION)),
    ("eviction", Penalty(DISQUALIFICATION)),
    ("1 round", Penalty(ROUNDS, 1)),
    ("2 rounds", Penalty(ROUNDS, 2)),
    ("one missed round", Penalty(ROUNDS, 1)),
    ("a round", Penalty(ROUNDS, 1)),
    ("missed round", Penalty(ROUNDS, 1)),
    ("3 hands", Penalty(HANDS, 3)),
    ("8 missed hands", Penalty(HANDS, 8)),
    ("20 minutes", Penalty(MINUTES, 20)),
    ("20m", Penalty(MINUTES, 20)),
    ("dealt out 15 min", Penalty(MINUTES, 15)),
    ("suspended for 30 minutes", Penalty(MINUTES, 30)),
    ("none", None),
    ("No penalty", None),
])
def test_penalty_as_typed(typed, expected):
    """A penalty typed the way a floorperson says it is read as TYPED -> EXPECTED."""
    assert parse_penalty(typed) == expected


@pytest.mark.parametrize("penalty, text", [
    (Penalty(WARNING), "verbal warning"),
    (Penalty(ROUNDS, 1), "1 missed round"),
    (Penalty(ROUNDS, 2), "2 missed rounds"),
    (Penalty(HANDS, 1), "1 missed hand"),
    (Penalty(MINUTES, 20), "dealt out 20 minutes"),
    (Penalty(DISQUALIFICATION), "disqualification"),
])
def test_penalty_text(penalty, text):
    """Each penalty reads back in plain words."""
    assert penalty.text == text


@pytest.mark.parametrize("typed, message", [
    ("", "--penalty is empty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
    ("   ", "--penalty is empty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
    ("lots", "--penalty 'lots' is not a penalty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
    ("0 rounds", "--penalty '0 rounds': rounds must be from 1 to 10"),
    ("11 rounds", "--penalty '11 rounds': rounds must be from 1 to 10"),
    ("101 hands", "--penalty '101 hands': hands must be from 1 to 100"),
    ("999 minutes", "--penalty '999 minutes': minutes must be from 1 to 240"),
    ("-2 rounds", "--penalty '-2 rounds' is not a penalty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
    ("2\x1b[31m rounds", "--penalty '2\\x1b[31m rounds' is not a penalty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
])
def test_bad_penalty(typed, message):
    """A penalty that cannot be read is one line naming the flag and what to type."""
    with pytest.raises(FloorError) as caught:
        parse_penalty(typed)
    assert caught.value.message == message


def test_timed_penalty_only_under_the_house():
    """A timed deal-out is DTTF's; under pure TDA 2024 it is refused, with hands or rounds offered instead."""
    check_penalty_for_house(Penalty(MINUTES, 20), "dttf")
    with pytest.raises(FloorError) as caught:
        check_penalty_for_house(Penalty(MINUTES, 20), "none")
    assert caught.value.message.startswith("--penalty 'dealt out 20 minutes' is a timed deal-out, the house's penalty (DTTF)")


def test_facts_are_cleaned():
    """Whitespace collapses, seats become numbers, the penalty goes to the first player."""
    facts = make_facts(table=" 12 ", seats=["4", "7"], players=["  Ann   Lee ", "Bo Chen"], penalty="warning",
                       note="chip\nlanded first", event="Friday  NLH", floorperson="Dee", supersedes="#3")
    assert facts == Facts(event="Friday NLH", floorperson="Dee", table="12", seats=(4, 7), players=("Ann Lee", "Bo Chen"),
                          penalty=Penalty(WARNING), note="chip landed first", supersedes=3)
    assert facts.penalised == "Ann Lee"
    assert facts.remembered() == Facts(event="Friday NLH", floorperson="Dee", table="12", seats=(4, 7),
                                       players=("Ann Lee", "Bo Chen"))


def test_nothing_given_is_no_facts():
    """Every fact is optional."""
    assert make_facts() == Facts()


@pytest.mark.parametrize("given, message", [
    ({"players": [""]}, '--player is empty — give a name, e.g. --player "Ann Lee", or leave the option out'),
    ({"players": ["  "]}, '--player is empty — give a name, e.g. --player "Ann Lee", or leave the option out'),
    ({"players": [TEN_KB]}, "--player is 10,240 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'); a name is at most 80"),
    ({"players": ["Ann\x00Lee"]}, "--player 'Ann\\x00Lee' holds control characters — type a name as plain text"),
    ({"players": ["Ann Lee", "ann  lee"]}, "--player: a player is named twice"),
    ({"players": [str(n) for n in range(11)]}, "at most 10 players and seats to a ruling: one table's worth"),
    ({"table": ""}, "--table is empty — give the table's number or name, e.g. --table 12, or leave the option out"),
    ({"table": "T" * 21}, "--table is 21 characters ('TTTTTTTTTTTTTTTTTTTTT'); the table's number or name is at most 20"),
    ({"seats": [""]}, "--seat '(empty)' is not a seat number — give 1 to 10"),
    ({"seats": ["four"]}, "--seat 'four' is not a seat number — give 1 to 10"),
    ({"seats": ["0"]}, "--seat 0 is not a seat — seats run from 1 to 10"),
    ({"seats": ["11"]}, "--seat 11 is not a seat — seats run from 1 to 10"),
    ({"seats": ["٤"]}, "--seat '٤' is not a seat number — give 1 to 10"),
    ({"seats": ["4", "4"]}, "--seat: a seat is given twice"),
    ({"note": ""}, '--note is empty — give a one-line note, e.g. --note "chip landed before he spoke", or leave the option out'),
    ({"note": TEN_KB}, "--note is 10,240 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'); a one-line note is at most 500"),
    ({"note": "bell\x07"}, "--note 'bell\\x07' holds control characters — type a one-line note as plain text"),
    ({"event": ""}, '--event is empty — give the event\'s name, e.g. --event "Friday NLH", or leave the option out'),
    ({"event": "E" * 81}, "--event is 81 characters ('EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE…'); the event's name is at most 80"),
    ({"floorperson": ""}, 'FLOORCALL_NAME is empty — give a name, e.g. FLOORCALL_NAME "Ann Lee", or leave the option out'),
    ({"penalty": "warning"}, "--penalty needs --player NAME: a penalty is given to a player, and the ladder follows the player"),
    ({"supersedes": "abc"}, "--supersedes 'abc' is not a record number — they look like 17 or #17 (see `floor log`)"),
    ({"supersedes": "0"}, "--supersedes '0' is not a record number — they look like 17 or #17 (see `floor log`)"),
])
def test_bad_facts(given, message):
    """Each bad fact is refused with one line naming its flag."""
    with pytest.raises(FloorError) as caught:
        make_facts(**given)
    assert caught.value.message == message


def test_prompt_names_its_own_fields():
    """The interactive session can name its prompts instead of the flags."""
    with pytest.raises(FloorError) as caught:
        make_facts(table="", flags={"table": "table"})
    assert caught.value.message.startswith("table is empty")


@pytest.mark.parametrize("name, key", [("Ann Lee", "ann lee"), ("  ANN   lee ", "ann lee"), ("Zoë Ångström", "zoe angstrom")])
def test_names_compare_without_case_accents_or_spacing(name, key):
    """Two spellings of one name are one player."""
    assert name_key(name) == key


def test_path_key_keeps_question_order():
    """The answers taken become one comparable string."""
    assert path_key([{"question": "declared", "answer": "silent"}, {"question": "stage", "answer": "flop"}]) == \
        "declared=silent;stage=flop"


@pytest.mark.parametrize("now, start", [
    (datetime(2026, 3, 14, 1, 30, tzinfo=PLUS_ONE), datetime(2026, 3, 13, 6, 0, tzinfo=PLUS_ONE)),
    (datetime(2026, 3, 14, 6, 0, tzinfo=PLUS_ONE), datetime(2026, 3, 14, 6, 0, tzinfo=PLUS_ONE)),
    (datetime(2026, 3, 14, 21, 0, tzinfo=PLUS_ONE), datetime(2026, 3, 14, 6, 0, tzinfo=PLUS_ONE)),
])
def test_tonight_runs_past_midnight(now, start):
    """Tonight began at 06:00 local: a ruling at 01:30 belongs to the evening before."""
    assert night_start(now) == start


@pytest.mark.parametrize("typed, start, label", [
    ("tonight", datetime(2026, 3, 13, 5, 0, tzinfo=UTC), "tonight (since 2026-03-13 06:00)"),
    ("today", datetime(2026, 3, 13, 23, 0, tzinfo=UTC), "since 2026-03-14"),
    ("yesterday", datetime(2026, 3, 12, 23, 0, tzinfo=UTC), "since 2026-03-13"),
    ("7d", datetime(2026, 3, 6, 23, 0, tzinfo=UTC), "since 2026-03-07"),
    ("2026-03-01", datetime(2026, 2, 28, 23, 0, tzinfo=UTC), "since 2026-03-01"),
    ("2026-03-01 19:30", datetime(2026, 3, 1, 18, 30, tzinfo=UTC), "since 2026-03-01 19:30"),
    ("2026-03-01T19:30", datetime(2026, 3, 1, 18, 30, tzinfo=UTC), "since 2026-03-01 19:30"),
    ("all", None, "all rulings"),
])
def test_since(typed, start, label):
    """--since TYPED starts the list at START (read in local time)."""
    window = parse_since(typed, NOW, PLUS_ONE)
    assert (window.start, window.label) == (start, label)


@pytest.mark.parametrize("typed", ["", "last week", "2026-13-45", "14/03/2026", "2026-02-30", "2026-03-01 25:00", "soon",
                                   "9" * 200])
def test_dates_that_do_not_parse(typed):
    """A date that does not parse is one line saying what to type."""
    with pytest.raises(FloorError) as caught:
        parse_since(typed, NOW, PLUS_ONE)
    message = caught.value.message
    assert message.startswith("--since ") and message.endswith(
        "YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday, tonight, Nd (days ago) or all")
    assert len(message) < 200
