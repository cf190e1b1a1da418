"""Shell completion (bash, zsh, fish through typer) completes situation ids, rule ids and answer ids."""

import os
import subprocess
import sys

import pytest

from conftest import REPO


def complete(shell: str, words: str) -> str:
    """What the shell script would get back for the command line `words` (the last word is being typed)."""
    env = dict(os.environ, _FLOOR_COMPLETE=f"complete_{shell}")
    if shell == "bash":
        env.update(COMP_WORDS=words, COMP_CWORD=str(len(words.split(" ")) - 1))
    else:
        env.update(_TYPER_COMPLETE_ARGS=words, _TYPER_COMPLETE_FISH_ACTION="get-args")
    code = "import sys; from floorcall.commands.entry import main; sys.exit(main([]))"
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60).stdout


@pytest.mark.parametrize("shell, words, expect", [
    ("bash", "floor walk fouled-d", "fouled-deck"),
    ("zsh", "floor walk fouled-d", "fouled-deck"),
    ("fish", "floor walk fouled-d", "fouled-deck"),
    ("bash", "floor walk fouled-deck --answer when-found=dur", "when-found=during-hand"),
    ("bash", "floor rule tda-2024:35-", "tda-2024:35-E"),
    ("bash", "floor rule 35-", "35-E"),
    ("bash", "floor situations --tag show", "showdown"),
])
def test_completion_values(shell, words, expect):
    """Tab after WORDS offers EXPECT."""
    assert expect in complete(shell, words)


def test_install_completion_is_offered(floor):
    """`floor --help` lists --install-completion and --show-completion."""
    out = floor("--help").stdout
    assert "--install-completion" in out and "--show-completion" in out


def _all_examples():
    from floorcall.commands.support import EXAMPLES

    return [(name, line) for name, lines in EXAMPLES.items() for line in lines]


@pytest.mark.parametrize("name, line", _all_examples(), ids=[line for _n, line in _all_examples()])
def test_every_help_example_runs(tmp_path, name, line):
    """Each example printed at the end of a --help runs (0, or 1/3 where it is a check or a pending walk)."""
    import shlex

    args = shlex.split(line)[1:]
    if "serve" in args or args == ["quiz"] or args[:2] == ["quiz", "--exam"]:
        pytest.skip("interactive or long-running: its options are covered by the quiz and site tests")
    if args[:2] == ["quiz", "stats"]:
        pytest.skip("needs saved progress: tests/test_quiz_cli.py runs stats after a quiz")
    if args[:1] == ["new"]:
        pytest.skip("writes a tree into the content: tests/test_authoring.py runs it on a copy")
    if args[:2] == ["site", "build"]:
        args = ["site", "build", "--out", str(tmp_path / "site")]
    if args[:1] == ["new"]:  # it writes a tree: into a copy of the content, never into the checkout
        import shutil

        for folder in ("rulebook", "rulings"):
            shutil.copytree(REPO / folder, tmp_path / "content" / folder)
        args = ["--root", str(tmp_path / "content"), *args]
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               FLOORCALL_DATA=str(tmp_path / "editions"))  # `config set` writes here
    code = "import sys; from floorcall.commands.entry import main; sys.exit(main(sys.argv[1:]))"
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode in (0, 1, 3), result.stderr
    assert "internal error" not in result.stderr and "No such option" not in result.stderr
