"""The quiz engine: items from trees, rules and the addendum; selection, Leitner boxes, grading; and every item of the real corpus."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from floorcall.content import corpus as corpus_module
from floorcall.core.errors import FloorError
from floorcall.engines import quiz, schedule
from floorcall.engines.quiz import HalfRaise, Item, MinRaise, Reopen
from floorcall.engines.walk import Ruling, advance

# ---------------------------------------------------------------- a small content root

SOURCES = {"sources": [
    {"id": "dttf", "title": "Test house rules", "short": "DTTF", "edition": "test", "date": None, "origin": "fixture",
     "seed": "house.txt", "precedence": 1, "role": "house", "file": "house.yaml", "note": "the house"},
    {"id": "tda-2024", "title": "Test TDA", "short": "TDA 2024", "edition": "test", "date": None, "origin": "fixture",
     "seed": "tda.txt", "precedence": 2, "role": "standard", "file": "tda.yaml", "note": "the standard"},
]}


def _rule(rid, title, section, summary, **extra):
    number = rid.split(":", 1)[1]
    return {"id": rid, "number": number, "title": title, "section": section, "quote": "none",
            "summary": summary, "keywords": [title.lower()], "games": ["all"], **extra}


TDA_RULES = [
    _rule("tda-2024:1", "Floor Decisions", "General Concepts", "The floor decides in the best interest of the game."),
    _rule("tda-2024:11", "Balancing Tables", "Seating, Breaking and Balancing Tables", "The player due the big blind moves to balance."),
    _rule("tda-2024:35", "Misdeals", "Dealing Rules", "Exposing either of the first two cards is a misdeal."),
    _rule("tda-2024:42", "Methods of Raising", "Play: Bets and Raises", "A raise is one motion or a declared amount; Rule 42-B covers the rest."),
    _rule("tda-2024:43", "Raise Amounts", "Play: Bets and Raises", "A raise adds at least the largest bet or raise of the round.",
          illustrations=[
              {"example": "Ex 1", "facts": "NLHE 100-200, after the flop. A bets 600, B raises to 1600 (up 1000), C re-raises to 3600 (up 2000).",
               "ruling": "D's minimum re-raise is another 2000, a total of 5600."},
              {"example": "Ex 4-A", "facts": "NLHE 25-50. A raises to 125 (up 75), B min-raises to 200, C re-raises to 500 (up 300).",
               "ruling": "D must raise by at least 300, to a total of 800."},
          ]),
    _rule("tda-2024:44", "Oversized Chip Betting", "Play: Bets and Raises", "One big chip facing a bet is a call unless raise was said first."),
    _rule("tda-2024:45", "Multiple Chip Betting", "Play: Bets and Raises", "Chips beyond the call make a raise at the 50% mark.",
          illustrations=[
              {"example": "Ex 3", "facts": "UTG raises to 1100 (a raise of 600); UTG+1 puts out one 1000 and three 100s, 1300 in all.",
               "ruling": "Below the 1400 threshold: a call, and 200 is returned."},
          ]),
    _rule("tda-2024:47", "Re-Opening the Bet", "Play: Bets and Raises", "Only a full raise re-opens the betting.",
          illustrations=[
              {"example": "Ex 1-A", "facts": "A bets 100, B all-in 125, C calls, D all-in 200, E calls, A calls 200.",
               "ruling": "C faces only 75 more, which is not a full raise, so C may call or fold but not raise."},
          ]),
    _rule("tda-2024:60", "Chip Counts", "Play: Other", "Players get an estimate of a stack; a count only facing an all-in."),
]
HOUSE_RULES = [
    _rule("dttf:exposed-holecard", "Exposed hole card on the deal", "Procedures",
          "Only an exposed first card is a misdeal; another exposed card becomes the burn.",
          relations=[{"type": "conflicts", "to": "tda-2024:35", "note": "DTTF misdeals on the first card only; TDA also on the second."}]),
    _rule("dttf:no-chopping", "No chopped blinds", "Procedures", "The blinds may not be chopped."),
    _rule("dttf:seat-draw", "Seats are drawn", "Tournament Rules", "Seats are drawn at random."),
    _rule("dttf:english-only", "English only", "Tournament Rules", "Only English is spoken at the table."),
]


def _tree(tid, title, tags, start, questions, outcomes, scenarios):
    for question in questions.values():
        question.setdefault("help", "Answer what was seen or heard at the table.")
    return {"id": tid, "title": title, "aliases": [title.lower()], "tags": tags, "start": start,
            "questions": questions, "outcomes": outcomes, "scenarios": scenarios}


TREES = [
    _tree("overchip", "One big chip facing a bet", ["betting", "chips"], "declared",
          {"declared": {"ask": "Was raise said before the chip landed?", "answers": {
              "said-raise": {"label": "Yes, raise", "next": "raise-max"},
              "said-amount": {"label": "Yes, an amount", "next": "raise-declared"},
              "silent": {"label": "No, nothing", "next": "call"}}}},
          {"call": {"ruling": "It is a call; change is made.", "why": "A silent overchip is a call.", "cite": ["tda-2024:44"]},
           "raise-max": {"ruling": "A raise of the most the chip allows.", "why": "Raise was said first.", "cite": ["tda-2024:44"]},
           "raise-declared": {"ruling": "A raise of the amount declared.", "why": "The amount binds.", "cite": ["tda-2024:44", "tda-2024:42"]}},
          [{"given": {"declared": "silent"}, "expect": "call", "facts": "A bets 600; B silently drops one 5,000 chip."},
           {"given": {"declared": "said-raise"}, "expect": "raise-max", "facts": "B says raise, then drops one 5,000 chip."},
           {"given": {"declared": "said-amount"}, "expect": "raise-declared", "facts": "B says 2,000 and drops one 5,000 chip."},
           {"given": {"declared": "silent"}, "expect": "call", "facts": "A bets 300; B silently drops one 1,000 chip."}]),
    _tree("exposed-card", "Dealer exposed a hole card", ["dealing", "house"], "which",
          {"which": {"ask": "Which card was exposed?", "answers": {
              "first": {"label": "The first card", "next": "misdeal-first"},
              "second": {"label": "The second card", "next": "second-replaced"}}}},
          {"misdeal-first": {"ruling": "Misdeal. Gather and redeal.", "why": "Both rulebooks agree.",
                             "cite": ["dttf:exposed-holecard", "tda-2024:35"], "house": "DTTF and TDA 2024 agree.",
                             "tda": {"ruling": "Misdeal; redeal as a replay.", "cite": ["tda-2024:35"]}},
           "second-replaced": {"ruling": "No misdeal (house rule). The card becomes the burn.", "why": "The house misdeals on the first card only.",
                               "cite": ["dttf:exposed-holecard", "tda-2024:35"], "house": "DTTF differs from TDA 2024 here and governs at the league.",
                               "tda": {"ruling": "Misdeal; redeal as a replay.", "why": "TDA misdeals on either of the first two.", "cite": ["tda-2024:35"]}}},
          [{"given": {"which": "first"}, "expect": "misdeal-first", "facts": "The first pitch flips the K♠."},
           {"given": {"which": "second"}, "expect": "second-replaced", "facts": "The second card off the deck lands face up."}]),
    _tree("table-balance", "Tables out of balance", ["seating"], "gap",
          {"gap": {"ask": "How far apart are the tables?", "answers": {
              "one": {"label": "One player", "next": "no-move"},
              "three": {"label": "Three players", "next": "move-player"}}}},
          {"no-move": {"ruling": "Nobody moves yet.", "cite": ["tda-2024:11"]},
           "move-player": {"ruling": "Move the player due the big blind to the short table.", "cite": ["tda-2024:11"]}},
          [{"given": {"gap": "one"}, "expect": "no-move"},
           {"given": {"gap": "three"}, "expect": "move-player", "facts": "Tables of 9 and 6 players."}]),
    _tree("chip-count", "Asked for a chip count", ["procedure"], "facing",
          {"facing": {"ask": "Is the asker facing an all-in?", "answers": {
              "all-in": {"label": "Yes", "next": "count"},
              "not-all-in": {"label": "No", "next": "estimate"}}}},
          {"count": {"ruling": "The dealer counts the stack exactly.", "cite": ["tda-2024:60"]},
           "estimate": {"ruling": "He gets an estimate only.", "cite": ["tda-2024:60"]}},
          [{"given": {"facing": "all-in"}, "expect": "count", "facts": "Facing a shove, seat 2 asks how much it is."},
           {"given": {"facing": "not-all-in"}, "expect": "estimate", "facts": "Seat 2 asks seat 5's stack before acting on a 600 bet."}]),
]


def write_root(root: Path) -> Path:
    """A small, valid content root with two sources, illustrations, a house-vs-TDA conflict and four trees."""
    (root / "rulebook").mkdir(parents=True)
    (root / "rulings").mkdir()
    dump = lambda data: yaml.safe_dump(data, allow_unicode=True, sort_keys=False)  # noqa: E731
    (root / "rulebook" / "sources.yaml").write_text(dump(SOURCES), encoding="utf-8")
    (root / "rulebook" / "tda.yaml").write_text(dump({"rules": TDA_RULES}), encoding="utf-8")
    (root / "rulebook" / "house.yaml").write_text(dump({"rules": HOUSE_RULES}), encoding="utf-8")
    for tree in TREES:
        (root / "rulings" / f"{tree['id']}.yaml").write_text(dump(tree), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> dict:
    data = corpus_module.build(write_root(tmp_path_factory.mktemp("quiz") / "content"))
    assert data["skipped"] == []
    return data


EXPECTED_IDS = [
    "addendum:tda-2024:43:ex-1", "addendum:tda-2024:43:ex-1:figures", "addendum:tda-2024:43:ex-4-a",
    "addendum:tda-2024:43:ex-4-a:figures", "addendum:tda-2024:45:ex-3", "addendum:tda-2024:45:ex-3:figures",
    "addendum:tda-2024:47:ex-1-a", "addendum:tda-2024:47:ex-1-a:figures",
    "house:dttf:exposed-holecard:tda-2024:35",
    "rule:dttf:english-only:governs", "rule:dttf:exposed-holecard:governs", "rule:dttf:no-chopping:governs", "rule:dttf:seat-draw:governs",
    "rule:tda-2024:1:governs", "rule:tda-2024:11:governs", "rule:tda-2024:35:governs", "rule:tda-2024:42:governs",
    "rule:tda-2024:43:governs", "rule:tda-2024:44:governs", "rule:tda-2024:45:governs", "rule:tda-2024:47:governs", "rule:tda-2024:60:governs",
    "scenario:chip-count:count", "scenario:chip-count:estimate",
    "scenario:exposed-card:misdeal-first", "scenario:exposed-card:second-replaced",
    "scenario:overchip:call", "scenario:overchip:call:2", "scenario:overchip:raise-declared", "scenario:overchip:raise-max",
    "scenario:table-balance:move-player", "scenario:table-balance:no-move",
    "tda:exposed-card:second-replaced",
    # the kinds an exam uses: true/false, which part decides, what the house changes, select-all
    "change:exposed-card:second-replaced",
    "part:chip-count:count", "part:chip-count:estimate", "part:exposed-card:misdeal-first", "part:exposed-card:second-replaced",
    "part:overchip:call", "part:overchip:raise-declared", "part:overchip:raise-max", "part:table-balance:move-player",
    "part:table-balance:no-move",
    "select:overchip:call",
    "tf:chip-count:count", "tf:chip-count:estimate", "tf:exposed-card:misdeal-first", "tf:exposed-card:second-replaced",
    "tf:overchip:call", "tf:overchip:raise-declared", "tf:overchip:raise-max", "tf:table-balance:move-player",
    "tf:table-balance:no-move",
]


# ---------------------------------------------------------------- generation


def test_item_ids_of_the_small_corpus(mini):
    """The small corpus yields exactly these items, nothing skipped."""
    generated = quiz.generate(mini, seed=1)
    assert sorted(i.id for i in generated.items) == sorted(EXPECTED_IDS)
    assert generated.skipped == []


def test_same_seed_same_quiz(mini):
    """The same seed gives the same items, choices in the same order, and the same selection."""
    first = [i.as_json() for i in quiz.generate_items(mini, seed=7)]
    again = [i.as_json() for i in quiz.generate_items(mini, seed=7)]
    assert first == again
    assert [i.id for i in quiz.select(quiz.generate_items(mini, 7), count=5, seed=7)] == \
           [i.id for i in quiz.select(quiz.generate_items(mini, 7), count=5, seed=7)]


def test_another_seed_keeps_ids_but_shuffles(mini):
    """Ids do not depend on the seed (progress survives); the order of choices does."""
    one, two = quiz.generate_items(mini, seed=1), quiz.generate_items(mini, seed=2)
    assert [i.id for i in one] == [i.id for i in two]
    assert any(a.choices != b.choices for a, b in zip(one, two, strict=True))
    assert all(a.right == b.right for a, b in zip(one, two, strict=True))


def test_small_corpus_items_are_sound(mini):
    """No item of the small corpus has two right answers, a bad topic or a missing citation."""
    assert quiz.validate_items(quiz.generate_items(mini, seed=3)) == []


def _scenario_ruling(data: dict, item: Item) -> Ruling:
    kind, sid, key = item.id.split(":", 2)
    situation = data["situations"][sid]
    outcome, _, nth = key.partition(":")
    matches = [s for s in situation["scenarios"] if advance(situation, s["given"]).outcome == outcome]
    scenario = matches[int(nth or 1) - 1]
    landed = advance(situation, scenario["given"], "dttf" if kind == "scenario" else "none")
    assert landed.outcome == outcome
    return landed


def test_scenario_items_answer_where_the_walk_lands(mini):
    """Each scenario item's right answer is the ruling its scenario walks to (house or pure TDA)."""
    items = [i for i in quiz.generate_items(mini, seed=4) if i.id.split(":")[0] in ("scenario", "tda")]
    assert len(items) == 11
    for item in items:
        assert item.right == _scenario_ruling(mini, item).ruling, item.id


def test_scenario_item_exactly(mini):
    """A scenario item: title, facts and question; the tree's other outcomes first as wrong answers."""
    item = next(i for i in quiz.generate_items(mini, seed=1) if i.id == "scenario:overchip:call")
    assert item.prompt == "One big chip facing a bet.\nA bets 600; B silently drops one 5,000 chip.\nWhat is the ruling?"
    assert item.right == "It is a call; change is made."
    assert {"A raise of the most the chip allows.", "A raise of the amount declared."} <= set(item.choices)
    assert len(item.choices) == 4
    assert (item.kind, item.topic, item.topics, item.sources, item.cites) == \
           ("scenario", "betting", ("betting", "chips"), ("tda-2024",), ("tda-2024:44",))
    assert item.explanation == "A silent overchip is a call. Rules: TDA 2024 Rule 44 [tda-2024:44]."


def test_facts_from_the_path_when_a_scenario_has_none(mini):
    """Without `facts`, the answers along the path are the facts."""
    item = next(i for i in quiz.generate_items(mini, seed=1) if i.id == "scenario:table-balance:no-move")
    assert item.prompt == "Tables out of balance.\n• How far apart are the tables? — One player\nWhat is the ruling?"


def test_house_and_tda_asked_both_ways(mini):
    """Where the house differs 'here', the house question offers the TDA ruling as a wrong answer, and the TDA question the reverse."""
    items = {i.id: i for i in quiz.generate_items(mini, seed=1)}
    house, tda = items["scenario:exposed-card:second-replaced"], items["tda:exposed-card:second-replaced"]
    assert house.prompt.endswith(quiz.HOUSE_QUESTION) and tda.prompt.endswith(quiz.TDA_QUESTION)
    assert house.right == "No misdeal (house rule). The card becomes the burn."
    assert "Misdeal; redeal as a replay." in house.choices
    assert tda.right == "Misdeal; redeal as a replay."
    assert house.right in tda.choices
    assert (tda.kind, tda.topic, tda.topics) == ("house", "house", ("dealing", "house"))
    assert tda.cites == ("tda-2024:35",) and tda.sources == ("tda-2024", "dttf")


def test_agreeing_positions_make_no_tda_item(mini):
    """An outcome whose note says DTTF and TDA agree gets no TDA question and no TDA distractor."""
    items = {i.id: i for i in quiz.generate_items(mini, seed=1)}
    assert "tda:exposed-card:misdeal-first" not in items
    first = items["scenario:exposed-card:misdeal-first"]
    assert first.prompt.endswith(quiz.RULING_QUESTION)
    assert "Misdeal; redeal as a replay." not in first.choices


def test_rule_and_house_items_exactly(mini):
    """'Which rule says this?' hides the rule's own number; the conflict item asks which TDA rule the house sets aside."""
    items = {i.id: i for i in quiz.generate_items(mini, seed=1)}
    governs = items["rule:tda-2024:42:governs"]
    # Our summary is never dressed in quotation marks: only the rulebook's own words are quoted.
    assert governs.prompt == "Which TDA 2024 rule says this (in our words)?\nA raise is one motion or a declared amount; this rule covers the rest."
    assert governs.right == "TDA 2024 Rule 42 — Methods of Raising"
    assert all(c.startswith("TDA 2024 Rule ") for c in governs.choices)
    conflict = items["house:dttf:exposed-holecard:tda-2024:35"]
    assert conflict.right == "TDA 2024 Rule 35 — Misdeals"
    assert conflict.prompt.endswith("Which TDA 2024 rule takes a different position?")
    assert "In our words: " in conflict.prompt
    assert conflict.explanation.startswith("DTTF misdeals on the first card only; TDA also on the second.")


@pytest.mark.parametrize(
    "item_id, right, wrong",
    [
        ("addendum:tda-2024:43:ex-1:figures", "5,600", {"7,200", "4,600", "3,800", "4,200"}),
        ("addendum:tda-2024:43:ex-4-a:figures", "800", {"1,000", "550"}),
        ("addendum:tda-2024:45:ex-3:figures", "A call: 200 goes back to UTG+1.",
         {"A raise to 1,700: UTG+1 must complete a full raise.", "A raise of exactly 1,300, the chips put out."}),
        ("addendum:tda-2024:47:ex-1-a:figures", "75 more, short of a full raise of 100: C may fold or call only.",
         {"75 more, and betting re-opens: C may fold, call or raise.", "200 more, a full raise or more: C may fold, call or raise."}),
    ],
)
def test_addendum_figures(mini, item_id, right, wrong):
    """Minimum raise, the 50% standard and re-opening: the computed answer and the usual mistakes."""
    item = next(i for i in quiz.generate_items(mini, seed=1) if i.id == item_id)
    assert item.right == right
    assert set(item.choices) - {right} <= wrong and len(item.choices) >= 3


@pytest.mark.parametrize(
    "worked, answer, figures",
    [
        (MinRaise("D", 3600, (600, 1000, 2000), 200), "5,600", [5600]),
        (MinRaise("B", 150, (100, 50), 100), "250", [250]),
        (MinRaise("F", 800, (300, 200, 150, 150), 100), "1,100", [1100]),
        (HalfRaise("X", 1100, 600, 1500), "A raise to 1,700: X must complete a full raise.", [1400, 1700]),
        (HalfRaise("X", 1400, 1400, 2000), "A call: 600 goes back to X.", [2100]),
        (Reopen("A", 100, 200, 100), "100 more, a full raise or more: A may fold, call or raise.", [100]),
        (Reopen("A", 4000, 7500, 4000), "3,500 more, short of a full raise of 4,000: A may fold or call only.", [3500]),
    ],
)
def test_worked_arithmetic(worked, answer, figures):
    """The TDA arithmetic behind the addendum examples."""
    right, mistakes = worked.choices()
    assert right == answer and worked.figures() == figures and right not in mistakes


def test_figures_that_disagree_with_the_addendum_are_skipped(mini):
    """If an example's ruling no longer states the computed figure, the item is dropped, never contradicted."""
    changed = copy.deepcopy(mini)
    changed["rules"]["tda-2024:43"]["illustrations"][0]["ruling"] = "D's minimum re-raise is a total of 7200."
    generated = quiz.generate(changed, seed=1)
    assert "addendum:tda-2024:43:ex-1:figures" not in {i.id for i in generated.items}
    assert ("addendum:tda-2024:43:ex-1:figures", "figures-disagree: computed [5600] not in the example's ruling") in generated.skipped


def test_too_few_distractors_is_skipped_and_counted():
    """A lone tree with no neighbours cannot make a fair question: it is skipped with a reason."""
    lone = {"rules": {"tda-2024:1": {**TDA_RULES[0], "source": "tda-2024", "source_short": "TDA 2024", "related": []}},
            "situations": {"lone": {"id": "lone", "title": "Alone", "tags": ["procedure"], "start": "decide", "questions": {},
                                    "outcomes": {"decide": {"ruling": "The floor decides.", "cite": ["tda-2024:1"]}},
                                    "scenarios": [{"given": {}, "expect": "decide", "facts": "Something odd."}],
                                    "cites": ["tda-2024:1"]}}}
    generated = quiz.generate(lone, seed=0)
    assert [i.id for i in generated.items] == ["tf:lone:decide"]  # true or false needs no wrong rulings: it claims the right one
    scenario_skips = [s for s in generated.skipped if s[0].startswith("scenario:")]
    assert scenario_skips == [("scenario:lone:decide", "too-few-distractors: only 0 distinct wrong ruling(s)")]
    assert generated.skipped_counts() == {"too-few-distractors": 3}  # and the lone rule's "which rule" and "which part" items


# ---------------------------------------------------------------- comparing rulings


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("It is a call.", "it is a call", True),
        ("Misdeal. Gather and redeal.", "Misdeal; the hand is redealt as an exact replay.", True),
        ("No misdeal (house rule). The deal goes on.", "No misdeal. The card is replaced.", True),
        ("Too late; the payout stands.", "Too late under the house rule; the payout stands.", True),
        ("He must put in the full call.", "He must complete the full call.", True),
        ("A raise to 1,700: he must complete a full raise.", "A raise to 1,300: he must complete a full raise.", False),
        ("It is a call; change is made.", "A raise of the amount declared.", False),
        ("The hand is dead.", "The hand is live.", False),
    ],
)
def test_same_ruling(a, b, same):
    """Equal text, the same first clause, one inside the other, or a near rewording are the same ruling; a different figure is not."""
    assert quiz.same_ruling(a, b) is same


def test_validate_catches_two_right_answers():
    """validate_items rejects an item whose wrong choice gives the right ruling."""
    bad = Item("scenario:x:y", "scenario", "betting", ("betting",), ("tda-2024",), "Facts?",
               ("It is a call.", "A raise.", "It is a call; change is made."), 0, "Why.", ("tda-2024:44",))
    assert quiz.validate_items([bad]) == [
        "scenario:x:y: choice 3 gives the same ruling as the right answer",
    ]


@pytest.mark.parametrize(
    "changes, problem",
    [
        ({"topic": "poker"}, "x: topic 'poker' / ['betting'] not among betting, dealing, showdown, chips, seating, conduct, procedure, house"),
        ({"choices": ("A.", "B.")}, "x: 2 choices (needs 3-4)"),
        ({"answer": 5}, "x: answer index 5 out of range"),
        ({"cites": ()}, "x: no explanation or no citation"),
    ],
)
def test_validate_problems(changes, problem):
    """Each unsound field is named."""
    good = dict(id="x", kind="rule", topic="betting", topics=("betting",), sources=("tda-2024",), prompt="Which rule?",
                choices=("A.", "B.", "C."), answer=0, explanation="Because.", cites=("tda-2024:44",))
    assert quiz.validate_items([Item(**good)]) == []
    assert problem in quiz.validate_items([Item(**(good | changes))])


# ---------------------------------------------------------------- selection by FSRS

NOON = datetime(2025, 3, 10, 12, 0, tzinfo=UTC)


def _items(n: int, topic: str = "betting") -> list[Item]:
    return [Item(f"i{k:02d}", "rule", topic, (topic,), ("tda-2024",), f"Q{k}", ("A.", "B.", "C."), 0, "Why.", ("tda-2024:1",))
            for k in range(n)]


def _card(due: datetime, introduced: datetime | None = None) -> schedule.Card:
    return schedule.Card(schedule.REVIEW, None, 3.0, 5.0, due, due - timedelta(days=3), 1, 1, introduced or due - timedelta(days=3))


def test_due_items_come_first_most_overdue_first():
    """With progress, items due now are asked first (the most overdue first), then new ones; an item not yet due waits."""
    items = _items(6)
    progress = {"i00": _card(NOON - timedelta(hours=1)), "i01": _card(NOON - timedelta(days=2)),
                "i02": _card(NOON + timedelta(days=1))}
    picked = [i.id for i in quiz.select(items, count=6, seed=5, progress=progress, now=NOON)]
    assert picked[:2] == ["i01", "i00"]
    assert "i02" not in picked and set(picked[2:]) == {"i03", "i04", "i05"}


@pytest.mark.parametrize(
    "introduced_today, pace, new_asked",
    [(0, 20, 4), (18, 20, 2), (20, 20, 0), (0, 0, 0), (3, 5, 2)],
)
def test_new_items_at_a_steady_daily_pace(introduced_today, pace, new_asked):
    """New items are introduced at most `new_per_day` a study day, counting those met earlier today."""
    items = _items(4) + [Item(f"old{k}", "rule", "dealing", ("dealing",), ("tda-2024",), "Q", ("A.", "B.", "C."), 0, "W.",
                              ("tda-2024:1",)) for k in range(introduced_today)]
    progress = {f"old{k}": _card(NOON + timedelta(days=2), introduced=NOON - timedelta(hours=1)) for k in range(introduced_today)}
    picked = quiz.select(items, count=10, seed=1, progress=progress, now=NOON, new_per_day=pace)
    assert len([i for i in picked if i.id not in progress]) == new_asked


def test_a_quiz_never_asks_two_items_from_one_situation():
    """Sibling items (the same situation asked two ways) never share a quiz: the second waits for the next one."""
    twins = [Item(f"{kind}:tree:x", kind, "betting", ("betting",), ("tda-2024",), "Q", ("A.", "B.", "C."), 0, "W.", ("tda-2024:1",),
                  draws_on=("tree",)) for kind in ("scenario", "which-part")]
    picked = quiz.select(twins + _items(2), count=4, seed=3)
    assert [i.id for i in picked if i.draws_on == ("tree",)] in (["scenario:tree:x"], ["which-part:tree:x"])
    assert len(picked) == 3


def test_queue_says_what_is_due_and_what_is_new():
    """Due now, new items met today and left, and the next due time."""
    items = _items(5)
    progress = {"i00": _card(NOON - timedelta(minutes=5), introduced=NOON - timedelta(hours=2)),
                "i01": _card(NOON + timedelta(hours=3))}
    assert quiz.queue(items, progress, NOON, new_per_day=10) == {
        "due_now": 1, "new_today": 1, "new_left_today": 9, "new_per_day": 10, "unseen": 3, "next_due": NOON + timedelta(hours=3)}


def test_selection_without_progress_takes_topics_in_turn():
    """A short quiz without progress covers every topic before repeating one."""
    items = _items(6, "betting") + [Item(f"d{k}", "rule", "dealing", ("dealing",), ("dttf",), "Q", ("A.", "B.", "C."), 0, "W.", ("dttf:x",))
                                    for k in range(6)]
    picked = quiz.select(items, count=2, seed=9)
    assert sorted(i.topic for i in picked) == ["betting", "dealing"]


@pytest.mark.parametrize(
    "topic, source, message",
    [
        ("poker", None, "unknown topic 'poker' — topics: betting, dealing, showdown, chips, seating, conduct, procedure, house"),
        ("showdown", None, "no quiz items for topic 'showdown' — try another --topic or --source"),
        (None, "wpa", "no quiz items for source 'wpa' — try another --topic or --source"),
    ],
)
def test_select_errors(topic, source, message):
    """An unknown topic or an empty selection is a clear error."""
    with pytest.raises(FloorError) as caught:
        quiz.select(_items(3), topic, source)
    assert caught.value.message == message


def test_filters_by_topic_and_source(mini):
    """--topic matches any of an item's topics; --source any of its sources."""
    items = quiz.generate_items(mini, seed=1)
    house = quiz.filter_items(items, topic="house")
    assert {i.id for i in house} >= {"tda:exposed-card:second-replaced", "house:dttf:exposed-holecard:tda-2024:35",
                                     "scenario:exposed-card:second-replaced"}
    assert all("dttf" in i.sources for i in quiz.select(items, source="dttf", count=100))
    assert len({g for i in quiz.select(items, count=100) for g in quiz.groups_of(i)}) == \
        sum(len(quiz.groups_of(i)) for i in quiz.select(items, count=100))  # a quiz never draws on one situation twice


# ---------------------------------------------------------------- grading


def test_grade_and_exam_pass_mark():
    """Score, percent, per-topic tally and the pass mark, compared exactly (27 of 30 is 90 %)."""
    items = _items(30)
    graded = quiz.grade(items, [0] * 27 + [1, 2, None])
    assert (graded.score, graded.total, graded.percent) == (27, 30, 90.0)
    assert graded.passed(90) and not graded.passed(91)
    assert [r.item.id for r in graded.missed] == ["i27", "i28", "i29"]
    assert graded.by_topic() == {"betting": (27, 30)}
    assert graded.as_json(90)["passed"] is True
    assert quiz.grade(items, [0] * 26).passed(90) is False


@pytest.mark.parametrize(
    "text, expected",
    [("1,2,3", [0, 1, 2]), (" 3, 3 ,1 ", [2, 2, 0]), ("1 2 3", [0, 1, 2])],
)
def test_parse_answers(text, expected):
    """Answers are the numbers shown, one per question."""
    assert quiz.parse_answers(text, _items(3)) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("1,2", "--answers gives 2 answer(s) for 3 question(s) — give one number per question, e.g. 2,1,3"),
        ("1,4,1", "--answers: answer 2 is '4', but question 2 has choices 1-3"),
        ("1,b,1", "--answers: answer 2 is 'b', but question 2 has choices 1-3"),
        ("0,1,1", "--answers: answer 1 is '0', but question 1 has choices 1-3"),
    ],
)
def test_parse_answers_errors(text, message):
    """A wrong count or an out-of-range answer names the question."""
    with pytest.raises(FloorError) as caught:
        quiz.parse_answers(text, _items(3))
    assert caught.value.message == message


def test_progress_per_topic_and_source():
    """Seen, retention now (FSRS's mean predicted recall), due today and this week, answers and right per topic and source."""
    items = _items(3) + [Item("d0", "rule", "dealing", ("dealing",), ("dttf", "tda-2024"), "Q", ("A.", "B.", "C."), 0, "W.", ("dttf:x",))]
    reviewed_now = schedule.review(None, schedule.GOOD, NOON)  # due in 10 minutes: today
    later = schedule.replay([(NOON - timedelta(days=10), schedule.GOOD), (NOON - timedelta(days=10) + timedelta(minutes=10), schedule.GOOD)])
    cards = {"i00": reviewed_now, "i01": later, "d0": _card(NOON + timedelta(days=30))}
    table = quiz.progress_table(items, cards, NOON)
    betting = table["topics"][0]
    assert (betting["name"], betting["items"], betting["seen"], betting["due_today"], betting["due_week"]) == ("betting", 3, 2, 2, 2)
    expected = 100 * (schedule.retrievability(reviewed_now, NOON) + schedule.retrievability(later, NOON)) / 2
    assert betting["retention"] == round(expected, 1)
    assert table["topics"][1]["due_week"] == 0 and table["topics"][1]["retention"] is not None
    assert [(r["name"], r["items"]) for r in table["sources"]] == [("dttf", 1), ("tda-2024", 4)]


def test_export_for_site(mini):
    """The site gets every item as JSON, with each citation's label and title."""
    exported = quiz.export_for_site(mini, seed=0)
    assert [e["id"] for e in exported] == [i.id for i in quiz.generate_items(mini, 0)]
    first = next(e for e in exported if e["id"] == "scenario:overchip:call")
    assert first["cite_labels"] == [{"id": "tda-2024:44", "label": "TDA 2024 Rule 44", "title": "Oversized Chip Betting"}]
    assert first["choices"][first["answer_index"]] == "It is a call; change is made."
    json.dumps(exported)  # plain JSON all the way down


# ---------------------------------------------------------------- the real corpus


@pytest.fixture(scope="module")
def real_items(corpus):
    return quiz.generate(corpus, seed=1)


def test_real_corpus_items_are_sound(real_items):
    """Every item of the real corpus passes the checks: one right answer, 3-4 choices, a citation, a known topic."""
    assert quiz.validate_items(real_items.items) == []
    assert len(real_items.items) > 100


def test_real_scenarios_answer_where_the_walk_lands(corpus, real_items):
    """Every scenario item's right answer is the ruling its scenario lands on, in its house mode."""
    checked = 0
    for item in real_items.items:
        if item.id.split(":")[0] in ("scenario", "tda"):
            assert item.right == _scenario_ruling(corpus, item).ruling, item.id
            checked += 1
    assert checked > 50


def test_real_corpus_cites_resolve(corpus, real_items):
    """Every cited rule exists and every source is a known one."""
    for item in real_items.items:
        assert all(rid in corpus["rules"] for rid in item.cites), item.id
        assert set(item.sources) <= {"dttf", "tda-2024", "tda-2019", "wpa"}, item.id


def test_real_addendum_figures_all_agree(corpus, real_items):
    """Every worked addendum example is still in the rulebook and matches the addendum's own figures."""
    for rid, example in quiz.FIGURE_EXAMPLES:
        assert example in [e["example"] for e in corpus["rules"][rid].get("illustrations", [])], (rid, example)
    assert [s for s in real_items.skipped if s[1].startswith("figures-disagree")] == []
    assert sum(i.id.endswith(":figures") for i in real_items.items) == len(quiz.FIGURE_EXAMPLES)


EXAMPLES = {"illustrations": [
    {"example": "Ex 1", "facts": "A bets 100; B is all-in for 125."},
    {"example": "Ex 1-A", "facts": "Continuing Ex 1: A just calls."},
    {"example": "Ex 2", "facts": "Same, but B has 300."},
    {"example": "Ex 3", "facts": "Same blinds (25-50). A raises to 500."},
    {"example": "Ex 4", "facts": "As Ex 1-A, but C folds."},
]}


@pytest.mark.parametrize(
    "index, expected",
    [
        (0, "A bets 100; B is all-in for 125."),
        (1, "Ex 1: A bets 100; B is all-in for 125.\nEx 1-A: Continuing Ex 1: A just calls."),
        (2, "Ex 1: A bets 100; B is all-in for 125.\nEx 1-A: Continuing Ex 1: A just calls.\nEx 2: Same, but B has 300."),
        (3, "Same blinds (25-50). A raises to 500."),
        (4, "Ex 1: A bets 100; B is all-in for 125.\nEx 1-A: Continuing Ex 1: A just calls.\nEx 4: As Ex 1-A, but C folds."),
    ],
)
def test_example_facts_tell_the_earlier_example_first(index, expected):
    """An example that continues another ('Continuing Ex 1', 'Same, but', 'As Ex 1-A') is told after the one it builds on."""
    assert quiz.example_facts(EXAMPLES, EXAMPLES["illustrations"][index]) == expected


def test_context_bound_ruling_is_skipped(mini):
    """An example whose ruling only makes sense beside another ('for the same reason') makes no item."""
    changed = copy.deepcopy(mini)
    changed["rules"]["tda-2024:45"]["illustrations"][0]["ruling"] = "A call, for the same reason."
    generated = quiz.generate(changed, seed=1)
    assert ("addendum:tda-2024:45:ex-3", "context-bound: the ruling leans on another example") in generated.skipped
