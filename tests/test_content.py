"""The real content as a whole: coverage, addendum examples, path lengths, precedence."""

import statistics

from floorcall.content.check import tree_paths


def test_at_least_120_situations(corpus):
    """The rulings cover at least 120 floor situations, none left out for problems."""
    assert len(corpus["situations"]) >= 120
    assert corpus["skipped"] == []


def test_every_addendum_example_is_a_scenario(corpus):
    """Each Illustration Addendum example is a scenario (with facts) of the tree it belongs to."""
    examples = {f"{rid} {ex['example']}" for rid, rule in corpus["rules"].items() for ex in rule.get("illustrations") or []}
    encoded = {}
    for situation in corpus["situations"].values():
        for scenario in situation["scenarios"]:
            if scenario.get("example"):
                encoded[scenario["example"]] = scenario
                assert scenario.get("facts"), scenario["example"]
    assert examples - set(encoded) == set()
    assert len(examples) == 44


def test_paths_are_short(corpus):
    """Median path at most 2 questions, no path longer than 5."""
    lengths = [len(p) for s in corpus["situations"].values() for p in tree_paths(s)]
    assert statistics.median(lengths) <= 2
    assert max(lengths) <= 5


def test_house_conflicts_show_both_positions(corpus):
    """Every outcome with a TDA position beside the house ruling says how the house differs."""
    for situation in corpus["situations"].values():
        for oid, outcome in situation["outcomes"].items():
            if outcome.get("tda"):
                assert outcome.get("house"), f"{situation['id']}:{oid}"
                assert any(c.startswith("tda-2024:") for c in outcome["tda"]["cite"])


def test_every_source_is_cited(corpus):
    """Each source is cited by some outcome; DTTF as the house most of all."""
    cited = {c.split(":")[0] for s in corpus["situations"].values() for c in s["cites"]}
    assert cited == {"dttf", "tda-2024", "tda-2019", "wpa"}


def _every_ruling(corpus):
    from floorcall.engines.walk import rule_for_house

    for sid, situation in sorted(corpus["situations"].items()):
        for oid in situation["outcomes"]:
            for house in ("dttf", "none"):
                yield sid, oid, house, rule_for_house(situation, oid, house)


def test_every_first_screen_fits_twelve_lines(corpus, monkeypatch):
    """At 80 columns, the first screen of every ruling, under both houses, is at most 12 lines."""
    from floorcall.commands.render import FIRST_SCREEN_LINES, render_first_screen

    monkeypatch.setenv("COLUMNS", "80")
    too_long = [(sid, oid, house) for sid, oid, house, ruling in _every_ruling(corpus)
                if len(render_first_screen(ruling, corpus["rules"]).splitlines()) > FIRST_SCREEN_LINES]
    assert too_long == []


def test_pure_tda_never_speaks_of_the_house(corpus):
    """Under --house none no ruling, explanation, note or citation speaks of DTTF or the house."""
    from floorcall.content.check import HOUSE_TALK

    speaking = [(sid, oid) for sid, oid, house, r in _every_ruling(corpus) if house == "none"
                and (HOUSE_TALK.search(r.ruling + " " + r.why) or r.house_note or r.other_position
                     or any(c.startswith("dttf:") for c in r.cites) or not r.cites)]
    assert speaking == []


def test_every_question_has_help(corpus):
    """`?` always has something to say: every question of every tree has help text."""
    assert [(sid, qid) for sid, s in corpus["situations"].items() for qid, q in s["questions"].items() if not q.get("help")] == []


def test_cites_name_the_part(corpus):
    """No outcome cites the whole of a TDA rule that has lettered parts (all cites of such rules name the part)."""
    rules = corpus["rules"]
    whole = [(sid, rid) for sid, s in corpus["situations"].items() for rid in s["cites"] if rules[rid].get("parts")]
    assert whole == []
