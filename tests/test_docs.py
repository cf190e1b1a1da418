"""Docs the tests keep honest: every command is in the README and has help text."""

import re

import pytest

from conftest import REPO
from floorcall.commands.app import app

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


def readme_examples() -> list[tuple[str, list[str]]]:
    """(floor arguments, output lines shown) for each `$ uv run floor …` in the README's console block."""
    import shlex

    block = README.split("```console", 1)[1].split("```", 1)[0]
    examples, current = [], None
    for line in block.splitlines():
        if line.startswith("$ "):
            command = line[2:].split("#")[0].strip()
            current = (shlex.split(command)[3:], []) if command.startswith("uv run floor ") else None
            if current:
                examples.append(current)
        elif current is not None and line.strip() != "…":
            current[1].append(line)
    return examples


@pytest.mark.parametrize("args, shown", readme_examples())
def test_readme_output_is_real(root, args, shown):
    """Every output line the README shows is what the command prints (a line ending in ' …' is a prefix)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, COLUMNS="88")  # the width the README's examples were printed at
    result = subprocess.run([sys.executable, "-m", "floorcall", *args], capture_output=True, text=True, cwd=root, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    printed = result.stdout
    for line in shown:
        expected = line[:-2] if line.endswith(" …") else line
        assert expected in printed, line


def test_every_tree_field_is_documented():
    """rulings/README.md shows every field a tree, question, answer, outcome or scenario may have."""
    from floorcall.content import check

    guide = (REPO / "rulings" / "README.md").read_text(encoding="utf-8")
    fields = set(check.TREE_FIELDS) | set(check.QUESTION_FIELDS) | set(check.ANSWER_FIELDS) | set(check.OUTCOME_FIELDS) \
        | set(check.TDA_FIELDS) | set(check.SCENARIO_FIELDS)
    missing = sorted(f for f in fields if not re.search(rf"\b{f}:", guide))
    assert missing == []


def test_readme_session_is_real(root):
    """The README's session transcript is what the walk prints for the keys it names."""
    import os
    import subprocess
    import sys

    block = README.split("## At the table: the session", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    shown = [line for line in block.splitlines()[2:] if line.strip() and not line.startswith(">")]
    env = dict(os.environ, COLUMNS="80", FLOORCALL_INTERACTIVE="1")
    result = subprocess.run([sys.executable, "-m", "floorcall", "walk", "overchip-facing-bet", "--house", "dttf"],
                            input="3\nb\n1\nq\n", capture_output=True, text=True, cwd=root, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    for line in shown:
        assert line.rstrip() in result.stdout, line
