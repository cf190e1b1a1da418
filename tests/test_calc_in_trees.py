"""Every `calc:` line in rulings/*.yaml runs: the command a walk prints must work as printed."""

import shlex
from pathlib import Path

import pytest
import yaml

from conftest import REPO

PREFIX = "floor "


def calc_lines() -> list[tuple[str, str]]:
    """(file:outcome, command line) for each outcome with a `calc:` field.

    A tree that is not valid YAML is left to `floor check` and its tests."""
    found = []
    for path in sorted((REPO / "rulings").glob("*.yaml")):
        try:
            tree = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        if not isinstance(tree, dict) or not isinstance(tree.get("outcomes"), dict):
            continue
        for name, outcome in tree["outcomes"].items():
            if isinstance(outcome, dict) and outcome.get("calc"):
                found.append((f"{Path(path).name}:{name}", str(outcome["calc"])))
            tda = outcome.get("tda") if isinstance(outcome, dict) else None
            if isinstance(tda, dict) and tda.get("calc"):
                found.append((f"{Path(path).name}:{name}:tda", str(tda["calc"])))
    return found


CALC_LINES = calc_lines()


def test_some_trees_offer_a_calculation():
    """The betting and procedure trees print calc commands (so the test below is not vacuous)."""
    assert len(CALC_LINES) >= 5


@pytest.mark.parametrize("where, line", CALC_LINES, ids=[where for where, _ in CALC_LINES])
def test_tree_calc_line_runs(floor, where, line):
    """The printed `floor calc …` line is a valid command and exits 0."""
    assert line.startswith(PREFIX + "calc "), f"{where}: calc line should start with 'floor calc ': {line}"
    result = floor(*shlex.split(line[len(PREFIX):]))
    assert result.exit_code == 0, f"{where}: `{line}` exited {result.exit_code}: {result.stderr.strip()}"
