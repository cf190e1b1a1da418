"""The item kinds an exam uses, on the real corpus: each graded right and wrong, each citing the part
that decides, 500 drawn across seeds checked against their scenarios' walks, and all in our words."""

from __future__ import annotations

import os
import re
import shlex
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO
from floorcall.content import check
from floorcall.content.reader import read_all
from floorcall.engines import quiz, quiz_kinds
from floorcall.engines.walk import advance, rule_for_house

LONG_FORM = Path(os.environ.get("FLOORCALL_TDA_LONGFORM") or REPO.parent / "scratch" / "tda2024.txt")
DRAWN = 500
DRAW_SEEDS = range(10)  # 10 quizzes of 50


@pytest.fixture(scope="module")
def generated(corpus):
    return quiz.generate(corpus, 0)


@pytest.fixture(scope="module")
def items(generated):
    return generated.items


def test_every_kind_is_there(items):
    """The real corpus yields every kind, each in numbers an exam can draw on."""
    kinds = Counter(i.kind for i in items)
    assert set(kinds) == set(quiz.KINDS)
    assert all(n >= 20 for n in kinds.values()), kinds


def test_every_item_is_sound_and_cites_the_part_that_decides(corpus, items):
    """One right answer per item; every citation resolves to a part where the rule has parts; every item names its walk."""
    assert quiz.validate_items(items) == []
    assert quiz.validate_citations(items, corpus["rules"]) == []


def _wrong(item: quiz.Item):
    if item.multi:
        return item.right_answers[:-1] if len(item.right_answers) > 1 else tuple(sorted(set(item.right_answers) | {
            next(i for i in range(len(item.choices)) if i not in item.right_answers)}))
    return next(i for i in range(len(item.choices)) if i != item.answer)


@pytest.mark.parametrize("kind", quiz.KINDS)
def test_each_kind_is_graded(items, kind):
    """For each kind: the right answer scores, a wrong one does not; a select-all needs every right choice and no other."""
    sample = [i for i in items if i.kind == kind][:25]
    for item in sample:
        shown = quiz.present(item, 3)
        graded = quiz.grade([shown, shown], [shown.answer_set or shown.answer, _wrong(shown)])
        assert [r.correct for r in graded.results] == [True, False], item.id
        assert shown.right == " + ".join(shown.choices[i] for i in shown.right_answers)
        if item.multi:
            assert not shown.is_right(tuple(range(len(shown.choices)))) and not shown.is_right(())


@pytest.mark.parametrize(
    "typed, read",
    [("2", (1, None)), ("2h", (1, 2)), ("3e", (2, 4)), ("1w", (0, 1)), (" 4 ", (3, None)), ("5", None), ("2x", None), ("", None)],
)
def test_reading_a_typed_answer(typed, read):
    """A number, and optionally one letter rating the recall (h hard, e easy, w a guess)."""
    item = quiz.Item("x", "scenario", "betting", ("betting",), ("tda-2024",), "Q", ("A.", "B.", "C.", "D."), 0, "W.", ("tda-2024:44",))
    assert quiz.read_answer(typed, item) == read


@pytest.mark.parametrize("typed, read", [("1 3", (0, 2)), ("3,1", (0, 2)), ("1+3", (0, 2)), ("13", (0, 2)), ("2", (1,)), ("1 6", None)])
def test_reading_a_select_all_answer(typed, read):
    """Every right number, however it is typed: '1 3', '3,1', '1+3', '13'."""
    item = quiz.Item("x", "select-all", "dealing", ("dealing",), ("tda-2024",), "Q", ("A.", "B.", "C.", "D.", "E."), 0, "W.",
                     ("tda-2024:35-A",), answer_set=(0, 2))
    found = quiz.read_answer(typed, item)
    assert (found[0] if found else None) == read


# ---------------------------------------------------------------- 500 items against their walks


def _walks(item: quiz.Item) -> list[tuple[str, dict, str]]:
    """The walks an item names: (situation, answers, house)."""
    found = []
    for line in item.walk.split("\n"):
        words = shlex.split(line)
        if words[:2] != ["floor", "walk"]:
            continue
        answers = dict(words[i + 1].split("=", 1) for i in range(len(words)) if words[i] == "-a")
        found.append((words[2], answers, "none" if "--house" in words else "dttf"))
    return found


def check_against_walk(item: quiz.Item, corpus: dict) -> str:
    """Check one item's answer against the walk engine (or the calculator, or the rulebook); returns what was checked."""
    rules, situations = corpus["rules"], corpus["situations"]
    walks = [(sid, advance(situations[sid], answers, house), house) for sid, answers, house in _walks(item)]
    kind, prefix = item.kind, item.id.split(":", 1)[0]
    if prefix in ("scenario", "tda"):
        assert item.right == walks[0][1].ruling
    elif prefix == "tf":
        claimed = item.prompt.rsplit("the ruling is: ", 1)[1]
        assert (item.right == quiz.TRUE) == (claimed == walks[0][1].ruling)
        assert item.cites[0] == walks[0][1].cites[0]
    elif prefix == "part":
        assert f"\nThe ruling: {walks[0][1].ruling}\n" in item.prompt
        assert item.right == quiz.rule_choice(rules[walks[0][1].cites[0]]) and item.cites[0] == walks[0][1].cites[0]
    elif prefix == "change":
        sid, house, _mode = walks[0]
        tda = rule_for_house(situations[sid], house.outcome, "none")
        assert item.right == quiz_kinds.house_change_choices(house.ruling, tda.ruling)[0]
    elif prefix == "select":
        assert len(walks) == len(item.choices)
        kind_of = {k.name: k for k in quiz_kinds.VERDICT_CLASSES}.get(item.id.split(":")[1])
        for index, (_sid, ruling, _house) in enumerate(walks):
            if kind_of is not None:
                is_right = bool(kind_of.yes.search(quiz.normalised(ruling.ruling)))
                assert is_right or kind_of.no.search(quiz.normalised(ruling.ruling))
            else:
                target = re.search(r"\nIn which of these does the floor rule: (.*)\n", item.prompt).group(1)
                is_right = quiz.same_ruling(ruling.ruling, target)
            assert (index in item.right_answers) == is_right, (item.id, index)
    elif prefix == "calc":
        worked = quiz_kinds.work_out(item.walk)
        assert worked is not None and item.right == worked.right
        return "calculator"
    elif prefix == "addendum" and kind == "arithmetic":
        ruling = next(e["ruling"] for e in rules[item.ref]["illustrations"] if quiz.example_slug(e["example"]) == item.id.split(":")[3])
        assert all(n in quiz._figures_in(ruling) for n in quiz._figures_in(item.right) if n >= 50)
        return "addendum"
    elif prefix == "addendum":
        ruling = next(e["ruling"] for e in rules[item.ref]["illustrations"] if quiz.example_slug(e["example"]) == item.id.split(":")[3])
        assert item.right == ruling.strip()
        return "addendum"
    elif prefix in ("rule", "house"):
        assert item.right == quiz.rule_choice(rules[item.cites[-1] if prefix == "house" else item.cites[0]])
        return "rulebook"
    else:
        raise AssertionError(f"unchecked item {item.id}")
    return "walk"


def test_five_hundred_items_answer_as_their_walks_do(corpus, items):
    """500 items drawn as quizzes across seeds: every answer is what the walk engine (or the calculator, or the rulebook) gives."""
    drawn = [item for seed in DRAW_SEEDS for item in quiz.select(items, count=DRAWN // len(DRAW_SEEDS), seed=seed)]
    assert len(drawn) == DRAWN
    checked = Counter(check_against_walk(item, corpus) for item in drawn)
    assert checked["walk"] >= DRAWN // 2, checked


def test_every_scenario_item_answers_as_its_walk_does(corpus, items):
    """Not only a draw: every item made from a tree agrees with the walk engine."""
    for item in items:
        if _walks(item):
            check_against_walk(item, corpus)


# ---------------------------------------------------------------- our own words


def _runs_outside_titles(text: str, titles: list[str]) -> set[str]:
    for title in titles:  # a rule's own title is the source's name for it, quoted as a name
        text = text.replace(title, " | ")
    return check._word_runs(text)


@pytest.fixture(scope="module")
def titles(corpus):
    return sorted({r["title"] for r in corpus["rules"].values()} | {r["title"].rstrip(".") for r in corpus["rules"].values()},
                  key=len, reverse=True)


def _copied(items, source_runs, titles) -> list[tuple[str, str]]:
    copied = []
    for item in items:
        for text in (item.prompt, item.explanation) + item.choices:
            found = _runs_outside_titles(text, titles) & source_runs
            if found:
                copied.append((item.id, sorted(found)[0]))
    return copied


def test_items_never_copy_nine_words_of_the_seeds(root, items, titles):
    """No prompt, choice or explanation repeats 9 consecutive words of a rulebook seed (titles aside)."""
    assert _copied(items, check.seed_word_runs(read_all(root)), titles) == []


@pytest.mark.skipif(not LONG_FORM.is_file(), reason="the TDA long-form text is not beside the checkout (never committed)")
def test_items_never_copy_nine_words_of_the_tda_long_form(items, titles):
    """Nor of the TDA 2024 long-form text, where it is at hand ($FLOORCALL_TDA_LONGFORM or ../scratch/tda2024.txt)."""
    assert _copied(items, check._word_runs(LONG_FORM.read_text(encoding="utf-8")), titles) == []
