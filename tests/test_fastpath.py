"""The table commands read without typer (commands.fastpath) take exactly the typer commands' options
and print exactly what the typer commands print."""

import pytest
import typer.main

from floorcall.commands import fastpath
from floorcall.commands.app import app


def click_command(path: str):
    command = typer.main.get_command(app)
    for name in path.split():
        command = command.commands[name]
    return command


@pytest.mark.parametrize("path", sorted(fastpath.SPECS))
def test_spec_matches_the_typer_command(path):
    """Every option of the typer command is in the fast path's table, with the same parameter and kind."""
    positional, options = fastpath.SPECS[path]
    params = [p for p in click_command(path).params if p.name != "help"]
    expected = {}
    for param in params:
        if param.param_type_name == "argument":
            continue
        kind = fastpath.FLAG if param.is_flag else (fastpath.MULTI if param.multiple else fastpath.VALUE)
        for option in param.opts:
            expected[option] = (param.name, kind)
    assert options == expected
    assert positional == tuple(p.name for p in params if p.param_type_name == "argument")


SAME_OUTPUT = [
    ["walk", "overchip-facing-bet", "--answer", "declared=silent"],
    ["walk", "overchip-facing-bet", "-a", "declared=silent", "--json"],
    ["walk", "dealer-exposed-holecard", "-awhich-card=second-card", "--house=none", "--full"],
    ["walk", "overchip-facing-bet", "-adeclared=silent", "-a", "facing=1100", "-a", "min-raise=600", "-a", "chips=5000"],
    ["rule", "35-E"],
    ["rule", "--json", "tda-2024:44"],
    ["situations", "--tag", "stud"],
    ["situations", "-t", "showdown", "--json"],
    ["calc", "chips", "--facing", "1100", "--min-raise", "600", "--chips", "1000,100,100,100,100,100"],
    ["calc", "raise", "--blinds", "100/200", "--actions", "bet 600, raise 1600, allin 1700"],
    ["calc", "pot", "--blinds=100/200", "--dead-sb"],
    ["calc", "penalty", "--players", "8", "--rounds", "2", "--json"],
    ["calc", "h4h", "--level-left", "12:00", "--hands", "3"],
    ["calc", "balance", "--tables", "9,7,8,5"],
    ["calc", "balance", "--tables", "9,6", "--of", "5"],
    ["calc", "chip-race", "--stacks", "1:3,2:1,3:0", "--denomination", "25", "--next", "100"],
    ["quiz", "--json", "--seed", "3", "--count", "2"],
    ["quiz", "--exam", "--json", "-n", "5", "--seed=2", "--topic", "betting"],
    ["quiz", "--seed", "4", "--count", "1", "--answers", "1", "--json"],
]


@pytest.mark.parametrize("args", SAME_OUTPUT, ids=" ".join)
def test_same_output_as_typer(floor, capsys, args):
    """ARGS print the same lines and exit the same way through the fast path and through typer."""
    status = fastpath.run(list(args))
    fast = capsys.readouterr().out
    result = floor(*args)
    assert status == result.exit_code == 0
    assert fast == result.stdout


@pytest.mark.parametrize("args", [
    ["walk", "overchip-facing-bet", "--bogus"], ["walk"], ["rule"], ["rule", "44", "45"], ["calc", "chips", "--json=1"],
    ["walk", "overchip-facing-bet", "--help"], ["calc", "nonsense"], ["situations", "--tag"],
    ["quiz", "--count", "many"], ["quiz", "--pass", "x", "--exam"], ["quiz", "--exam=1"], ["quiz", "stats", "--bogus"],
])
def test_unsure_goes_to_typer(args):
    """Anything the fast path is not sure of (help, unknown or malformed options, wrong arguments) is typer's."""
    assert fastpath.run(list(args)) is None


@pytest.mark.parametrize("args", [
    ["walk", "overchip-facing-bet", "-a", "declared=silent"], ["rule", "44"], ["situations"],
    ["calc", "penalty", "--players", "8", "--rounds", "1"], ["quiz", "--seed", "1", "--count", "3", "--json"],
])
def test_table_commands_stay_light(args):
    """The table commands (and the quiz, from its item cache) import neither typer nor yaml, jinja2 or markdown-it (a module check, not a timing)."""
    import subprocess
    import sys

    from conftest import REPO

    code = ("import sys; from floorcall.commands.entry import main; rc = main(sys.argv[1:]);"
            "heavy = [m for m in ('typer', 'click', 'yaml', 'jinja2', 'markdown_it', 'pydantic') if m in sys.modules];"
            "print('HEAVY', ','.join(heavy)); sys.exit(rc)")
    subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=120)  # warm the cache
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "HEAVY"
