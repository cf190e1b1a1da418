"""`floor rules`, `floor rule`, `floor sources`: listing, loose ids, bad input."""

import json

import pytest

from floorcall.content.rulebook import resolve_rule_id
from floorcall.core.errors import FloorError


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("tda-2024:44", "tda-2024:44"),
        ("tda 44", "tda-2024:44"),
        ("TDA 44", "tda-2024:44"),
        ("44", "tda-2024:44"),
        ("rp-5", "tda-2024:RP-5"),
        ("RP5", "tda-2024:RP-5"),
        ("tda-2019:rp-5", "tda-2019:RP-5"),
        ("2019 rp-5", "tda-2019:RP-5"),
        ("dttf:no-chopping", "dttf:no-chopping"),
        ("no-chopping", "dttf:no-chopping"),
        ("wpa oversized chip", "wpa:oversized-chip"),
        ("overchips", "tda-2024:44"),
        ("rabbit hunting", "tda-2024:28"),
    ],
)
def test_loose_ids_resolve(corpus, typed, expected):
    """The forms people type resolve to one rule id."""
    assert resolve_rule_id(corpus["rules"], typed) == expected


@pytest.mark.parametrize(
    "typed, message",
    [
        ("", "give a rule id, e.g. tda-2024:44, 'tda 44', rp-5 or a title word"),
        ("tda-2024:99", "no rule 'tda-2024:99' — closest:"),
        ("chip", "'chip' matches"),
    ],
)
def test_bad_ids_name_what_to_try(corpus, typed, message):
    """An unknown or ambiguous id says what to try."""
    with pytest.raises(FloorError) as caught:
        resolve_rule_id(corpus["rules"], typed)
    assert caught.value.message.startswith(message)


def test_rules_json_tda_2024(floor):
    """`floor rules --source tda-2024 --json` gives 71 rules + 22 RPs with the required keys."""
    result = floor("rules", "--source", "tda-2024", "--json")
    assert result.exit_code == 0
    rules = json.loads(result.stdout)
    assert len(rules) == 93
    assert {"id", "source", "number", "title", "section"} <= set(rules[0])
    assert [r["number"] for r in rules[:3]] == ["1", "2", "3"]
    assert rules[70]["number"] == "71" and rules[71]["number"] == "RP-1"


@pytest.mark.parametrize("source, count", [("tda-2019", 14), ("dttf", 98), ("wpa", 45), ("TDA", 93)])
def test_rules_per_source(floor, source, count):
    """Each source lists its own rules; source names are forgiving about case."""
    result = floor("rules", "--source", source, "--json")
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == count


def test_rules_by_section(floor):
    """--section filters on the section heading."""
    result = floor("rules", "--source", "tda-2024", "--section", "Dealing", "--json")
    assert [r["number"] for r in json.loads(result.stdout)] == ["35", "36", "37", "38", "39"]


def test_rule_shows_words_summary_and_conflict_side_by_side(floor):
    """A rule page marks the quoted words, gives our summary and sets conflicting positions side by side."""
    result = floor("rule", "dttf:exposed-holecard")
    assert result.exit_code == 0
    out = result.stdout
    assert "the rulebook's words:" in out
    assert "│ If the initial holecard dealt is exposed, a misdeal results." in out
    assert "In our words:" in out
    assert "Positions differ" in out and "HOUSE (DTTF (Rules for Irregularities), governs at the league)" in out


def test_rule_not_in_seed_says_so(floor):
    """Rule 54 is not in the seed: shown with a summary and a plain 'not quoted' line."""
    result = floor("rule", "54")
    assert result.exit_code == 0
    assert "Not quoted" in result.stdout and "Pot Size and Pot-Limit Bets" in result.stdout


def test_rule_json(floor):
    """`floor rule ID --json` prints the record."""
    data = json.loads(floor("rule", "tda 44", "--json").stdout)
    assert data["id"] == "tda-2024:44" and data["quote"] == "opening"


def test_sources(floor):
    """`floor sources --json` gives title, edition, precedence and counts; DTTF is the house."""
    data = json.loads(floor("sources", "--json").stdout)
    assert [(s["id"], s["precedence"], s["rules"]) for s in data] == [("dttf", 1, 98), ("tda-2024", 2, 93), ("tda-2019", 3, 14), ("wpa", 4, 45)]
    assert data[0]["role"] == "house"


@pytest.mark.parametrize(
    "args, message",
    [
        (("rule", "tda-2024:999"), "floor: no rule 'tda-2024:999' — closest:"),
        (("rules", "--source", "nope"), "floor: unknown source 'nope' — use one of: dttf, tda-2024, tda-2019, wpa"),
        (("rules", "--section", "zzz"), "floor: no section matching 'zzz'"),
    ],
)
def test_bad_input_one_line_on_stderr(floor, args, message):
    """Bad input: one clear line on stderr, non-zero exit, no traceback."""
    result = floor(*args)
    assert result.exit_code != 0
    assert result.stderr.startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "relpath, text, status, message",
    [
        # a broken rulebook stops the commands that need it: one line naming file, line and code
        ("rulebook/tda.yaml", "rules: [\n", 2, "floor: rulebook/tda.yaml:2: FC001 not valid YAML"),
        # a broken tree is left out with a one-line warning; the commands go on with the rest
        ("rulings/overchip.yaml", "id: overchip\nid: again\n", 0,
         "floor: warning: 1 ruling file(s) left out for problems, e.g. rulings/overchip.yaml:2: FC002 duplicate key 'id' (first on line 1)"),
    ],
)
def test_malformed_data_file_is_one_line(floor, mini_root, relpath, text, status, message):
    """A data file that cannot be read is one line on stderr naming file, line and code."""
    (mini_root / relpath).write_text(text)
    result = floor("--root", mini_root, "rules")
    assert result.exit_code == status
    assert result.stderr.startswith(message) and len(result.stderr.strip().splitlines()) == 1


def test_python_dash_m(root):
    """`python -m floorcall` is the same command as `floor`."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "floorcall", "rule", "tda 44"], capture_output=True, text=True, cwd=root, timeout=60)
    assert result.returncode == 0 and "Oversized Chip Betting (Overchips)" in result.stdout
