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
