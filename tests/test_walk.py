"""The walk engine, the interactive walk, `floor walk`, and every scenario of the real rulings."""

import json

import pytest
import yaml

from conftest import REPO
from floorcall.commands.render import PLAIN
from floorcall.core.errors import FloorError
from floorcall.engines.walk import Pending, Ruling, WalkSession, advance, parse_answer_options, rule_for_house

TREE = {
    "id": "overchip", "title": "One big chip", "start": "declared",
    "questions": {"declared": {"ask": "Raise said first?", "help": "Only before the chip lands.",
                               "answers": {"said-raise": {"label": "Yes", "next": "raise"},
                                           "silent": {"label": "No", "next": "call"}}}},
    "outcomes": {
        "call": {"ruling": "A call.", "why": "Silent.", "cite": ["tda-2024:44", "dttf:x"]},
        "raise": {"ruling": "House: raise.", "cite": ["dttf:x", "tda-2024:44"], "house": "House differs.",
                  "tda": {"ruling": "TDA: call.", "why": "TDA says call.", "cite": ["tda-2024:44"]}},
    },
}


@pytest.mark.parametrize(
    "answers, house, outcome, ruling, cites",
    [
        ({"declared": "silent"}, "dttf", "call", "A call.", ["tda-2024:44", "dttf:x"]),
        ({"declared": "silent"}, "none", "call", "A call.", ["tda-2024:44"]),
        ({"declared": "said-raise"}, "dttf", "raise", "House: raise.", ["dttf:x", "tda-2024:44"]),
        ({"declared": "said-raise"}, "none", "raise", "TDA: call.", ["tda-2024:44"]),
    ],
)
def test_advance_to_ruling(answers, house, outcome, ruling, cites):
    """Answers lead to the outcome; `none` applies the TDA position and drops house-only cites."""
    result = advance(TREE, answers, house)
    assert isinstance(result, Ruling)
    assert (result.outcome, result.ruling, result.cites) == (outcome, ruling, cites)


def test_other_position_shown_beside():
    """Under the house the TDA position is kept beside; pure TDA 2024 never shows the house's."""
    assert rule_for_house(TREE, "raise", "dttf").other_position["ruling"] == "TDA: call."
    pure = rule_for_house(TREE, "raise", "none")
    assert pure.other_position is None and pure.house_note == ""


def test_pending_question():
    """Without an answer the walk stops at the question with its numbered answers."""
    result = advance(TREE, {})
    assert isinstance(result, Pending)
    assert result.question == "declared" and result.answers == [("said-raise", "Yes"), ("silent", "No")]


@pytest.mark.parametrize(
    "answers, message",
    [
        ({"declared": "maybe"}, "'maybe' is not an answer to 'declared' — answers: said-raise, silent"),
        ({"declard": "silent"}, "situation 'overchip' has no question 'declard' — did you mean 'declared'?"),
    ],
)
def test_bad_answers(answers, message):
    """A wrong answer id or question id is a clear error."""
    with pytest.raises(FloorError) as caught:
        advance(TREE, answers)
    assert caught.value.message == message


def test_session_back_and_restart():
    """A session answers, goes back and restarts."""
    session = WalkSession(TREE)
    assert isinstance(session.answer("silent"), Ruling)
    assert isinstance(session.back(), Pending)
    session.answer("said-raise")
    assert isinstance(session.restart(), Pending) and session.taken == []


@pytest.mark.parametrize("pairs, expected", [(["a=b"], {"a": "b"}), (["a = b", "c=d"], {"a": "b", "c": "d"})])
def test_parse_answer_options(pairs, expected):
    """--answer QID=AID pairs parse; whitespace is forgiven."""
    assert parse_answer_options(pairs) == expected


def test_parse_answer_options_rejects():
    """A pair without '=' names the expected form."""
    with pytest.raises(FloorError, match="is not QUESTION=ANSWER"):
        parse_answer_options(["declared"])


# ---------------------------------------------------------------- interactive

def scripted(*lines):
    feed = iter(lines)

    def reader(_prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return reader


@pytest.mark.parametrize(
    "keys, code, last",
    [
        (("2",), 0, "A call."),                          # a number answers; end of input after the ruling: done
        (("1",), 0, "House: raise."),
        (("9", "?", "2"), 0, "A call."),                 # a bad key is explained, ? shows the help
        (("?",), 3, "Only before the chip lands."),
        (("2",), 0, "RULING · house rules (DTTF) in force"),
        (("q",), 0, None),                               # q leaves with status 0
        ((), 3, None),                                   # input ends at an open question: pending, as when piped
        (("b", "r", "2"), 0, "A call."),
        (("2", "b", "1"), 0, "House: raise."),           # b at the ruling goes back to the last question
        (("2", "r", "1"), 0, "House: raise."),           # r at the ruling starts again
        (("2", "m"), 0, "Rules cited (primary first)"),  # m shows everything
        (("2", "x"), 0, "Type one of: b back · r restart · m more · s save · n new lookup · q quit."),
        (("2", "q"), 0, "A call."),
    ],
)
def test_run_walk(corpus, keys, code, last):
    """Numbered answers, ?, b, r, m and q drive the walk; the session stays open after the ruling."""
    from floorcall.commands.interactive import run_walk

    out = []
    fake = {"rules": corpus["rules"] | {"dttf:x": corpus["rules"]["dttf:no-chopping"]}}
    assert run_walk(fake, TREE, "dttf", PLAIN, reader=scripted(*keys), out=out.append) == code
    if last:
        assert any(last in chunk for chunk in out), out


@pytest.mark.parametrize("keys, from_lookup, result", [
    (("2", "l"), True, "list"), (("2", "n"), True, "new"), (("2", "n"), False, "new"), (("2", "l"), False, 0),
])
def test_run_walk_hands_back_to_the_lookup(corpus, keys, from_lookup, result):
    """l goes back to the lookup's list (only when the walk came from one); n asks for a new lookup."""
    from floorcall.commands.interactive import run_walk

    fake = {"rules": corpus["rules"] | {"dttf:x": corpus["rules"]["dttf:no-chopping"]}}
    assert run_walk(fake, TREE, "dttf", PLAIN, reader=scripted(*keys), out=lambda _line: None, from_lookup=from_lookup) == result


def test_run_walk_ctrl_c(corpus):
    """Ctrl-C leaves cleanly with exit 130."""
    from floorcall.commands.interactive import run_walk

    def interrupt(_prompt):
        raise KeyboardInterrupt

    assert run_walk(corpus, TREE, "dttf", PLAIN, reader=interrupt, out=lambda _x: None) == 130


# ---------------------------------------------------------------- the CLI

def test_walk_answer_json(floor):
    """`floor walk ID --answer Q=A --json` prints situation, outcome, ruling, cites, path."""
    result = floor("walk", "overchip-facing-bet", "--answer", "declared=silent", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["situation"] == "overchip-facing-bet" and data["outcome"] == "call"
    assert data["cites"][0] == "tda-2024:44"
    assert data["path"] == [{"question": "declared", "answer": "silent"}]


def test_walk_pending_exit_3(floor):
    """Without enough answers, the next question is printed and the exit code is 3."""
    result = floor("walk", "overchip-facing-bet", "--json")
    assert result.exit_code == 3
    assert json.loads(result.stdout)["question"] == "declared"


def test_walk_interactive_screen(floor):
    """At a terminal the ruling comes first (the rule and its words), and m shows why, every cite and the answers."""
    result = floor("walk", "overchip-facing-bet", input="3\nm\nq\n", env={"FLOORCALL_INTERACTIVE": "1"})
    assert result.exit_code == 0
    out = result.stdout
    first = out.index("RULING")
    for part in ("It is a call.", "Rule: TDA 2024 Rule 44 — Oversized Chip Betting (Overchips)",
                 "│ If facing a bet or blind, pushing out a single oversized chip"):
        assert out.index(part) > first
    for part in ("Why", "Rules cited", "Answers taken:"):
        assert out.index(part) > out.index("m more")


def test_opening_only_quote_is_followed_by_our_summary(floor):
    """Where the seed holds only a rule's opening (69: 'Poker is an individual game.'), the deciding
    clause comes later: the first screen and --full show the opening words and then our summary."""
    answers = ("--answer", "seen=agreement", "--answer", "collusion-proof=shown", "--answer", "collusion-event=running")
    first = floor("walk", "soft-play-or-collusion", *answers, env={"COLUMNS": "100"}).stdout
    assert "│ Poker is an individual game." in first
    assert first.index("In our words: Poker is an individual game. Soft play") > first.index("│ Poker is an individual game.")
    full = floor("walk", "soft-play-or-collusion", *answers, "--full").stdout
    rule69 = full[full.index("TDA 2024 Rule 69 — Ethical Play"):full.index("TDA 2024 Rule 71-D")]
    assert "(the rule goes on" in rule69 and "in our words, the whole rule (not the rulebook's text):" in rule69
    assert "will result in disqualification" in rule69


@pytest.mark.parametrize(
    "situation, answers, line",
    [
        # a recorded DTTF-vs-TDA conflict (dttf:color-up against 24): the house rule governs
        ("color-up-chip-race", ["odd-chips=found-later", "found-where=on-table"], "House vs TDA: the house rule governs here; TDA 2024 would rule:"),
        # a DTTF-only rule with no TDA counterpart: TDA leaves a gap
        ("chopping-the-blinds", ["done-yet=only-offered"], "House vs TDA: the house rule adds to TDA 2024 here; under TDA 2024 alone:"),
    ],
)
def test_house_line_tells_a_conflict_from_a_gap(floor, situation, answers, line):
    """The one-line house note says 'governs' for a recorded conflict and 'no rule' only for a gap, even
    when the house ruling cites no TDA rule of its own."""
    args = [a for pair in answers for a in ("--answer", pair)]
    assert line in floor("walk", situation, *args, env={"COLUMNS": "200"}).stdout


def test_walk_question_wraps_long_answers_under_their_first_word(floor):
    """On a narrow terminal an answer longer than the line goes on under its own first word, so each
    number stays alone in the margin and no line of the question is wider than the terminal (the
    --answer hint after it is a command to copy, kept whole)."""
    out = floor("walk", "overchip-facing-bet", env={"COLUMNS": "44"}).stdout
    lines = out.split("\n")
    question = lines[:next(i for i, line in enumerate(lines) if line.startswith("answer with"))]
    assert all(len(line) <= 44 for line in question)
    second = lines.index("  2) \"Raise\" and a total above the bet, or")
    assert lines[second + 1].startswith("     an amount")


def test_walk_end_of_input(floor):
    """End of input at an open question: exit 3 (pending, as a piped walk), no traceback."""
    result = floor("walk", "overchip-facing-bet", input="", env={"FLOORCALL_INTERACTIVE": "1"})
    assert result.exit_code == 3 and "Traceback" not in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("walk", "overchip-facing-bt"), "floor: no situation 'overchip-facing-bt' — did you mean 'overchip-facing-bet'?"),
        (("walk", "overchip-facing-bet", "--answer", "declared=maybe"), "floor: 'maybe' is not an answer to 'declared'"),
        (("walk", "overchip-facing-bet", "--house", "wsop"), "floor: unknown house 'wsop' — use dttf (house rules) or none (pure TDA 2024)"),
    ],
)
def test_walk_bad_input(floor, args, message):
    """Bad situation ids (exit 1: not found), answers and house modes (exit 2: usage): one line on stderr."""
    result = floor(*args)
    assert result.exit_code == (1 if "no situation" in message else 2)
    assert result.stderr.splitlines()[-1].startswith(message)


# ---------------------------------------------------------------- every scenario of the real rulings

def _scenarios():
    for path in sorted((REPO / "rulings").glob("*.yaml")):
        if path.name in ("uncovered.yaml", "synonyms.yaml"):
            continue
        try:
            tree = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if not isinstance(tree, dict):
            continue
        for number, scenario in enumerate(tree.get("scenarios") or [], 1):
            if isinstance(scenario, dict):
                yield pytest.param(tree.get("id", path.stem), scenario.get("given") or {}, scenario.get("expect"),
                                   id=f"{path.stem}#{number}")


@pytest.mark.parametrize("situation_id, given, expect", list(_scenarios()))
def test_every_scenario_lands_where_it_says(corpus, situation_id, given, expect):
    """Walking each scenario's answers reaches its expected outcome, under the house and under pure TDA."""
    situation = corpus["situations"][situation_id]
    for house in ("dttf", "none"):
        result = advance(situation, given, house)
        assert isinstance(result, Ruling) and result.outcome == expect
        assert result.cites, "every outcome cites at least one rule"
        assert all(c in corpus["rules"] for c in result.cites)
