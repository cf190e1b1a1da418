"""Docs the tests keep honest: every command is in the README and has help text."""

import re

import pytest

from conftest import REPO
from floorcall.app import app

README = (REPO / "README.md").read_text(encoding="utf-8")


def command_names() -> list[str]:
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    for group in app.registered_groups:
        names.append(group.name)
        names += [f"{group.name} {c.name or c.callback.__name__}" for c in group.typer_instance.registered_commands]
    return names


@pytest.mark.parametrize("name", command_names())
def test_command_in_readme(name):
    """Each command (and sub-command) is named in the README."""
    words = name.split()
    pattern = r"floor " + re.escape(words[0]) + (r"\b[^`\n]*\b" + re.escape(words[1]) if len(words) > 1 else r"\b")
    assert re.search(pattern, README), name


@pytest.mark.parametrize("name", command_names())
def test_command_has_help(floor, name):
    """Each command answers --help with a description."""
    result = floor(*name.split(), "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.stdout and len(result.stdout.splitlines()) > 4


def test_readme_commands_are_the_two_setup_commands():
    """The README's set-up is `pip install uv`, `uv run floor …` and `uv run pytest`."""
    assert "pip install uv" in README and "uv run floor lookup" in README and "uv run pytest" in README
