"""The walk at the table: config precedence, the first screen, wrapping, the table's own numbers,
and one walk through a real pseudo-terminal."""

import os
import sys

import pytest

from floorcall.commands.entry import main


@pytest.fixture
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("FLOORCALL_HOUSE", raising=False)
    monkeypatch.delenv("FLOORCALL_CONFIG", raising=False)
    return tmp_path / "floorcall" / "config.toml"


def first_lines(capsys, argv):
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


WALK = ["walk", "dealer-exposed-holecard", "-a", "which-card=second-card"]


@pytest.mark.parametrize("file, env, option, in_force", [
    (None, None, None, "RULING · house rules (DTTF) in force"),          # the default
    ('house = "none"\n', None, None, "RULING · pure TDA 2024 in force"),   # the file
    ('house = "none"\n', "dttf", None, "RULING · house rules (DTTF) in force"),  # env beats file
    ('house = "dttf"\n', "none", "dttf", "RULING · house rules (DTTF) in force"),  # option beats env
    (None, "none", None, "RULING · pure TDA 2024 in force"),
])
def test_house_precedence(capsys, monkeypatch, config_home, file, env, option, in_force):
    """The house comes from --house, else FLOORCALL_HOUSE, else the config file, else dttf; the ruling names it."""
    if file:
        config_home.parent.mkdir(parents=True)
        config_home.write_text(file)
    if env:
        monkeypatch.setenv("FLOORCALL_HOUSE", env)
    lines = first_lines(capsys, WALK + (["--house", option] if option else []))
    assert in_force in lines


@pytest.mark.parametrize("text, message", [
    ('house = "wsop"\n', "config.toml:1: unknown house 'wsop'"),
    ("# mine\nhouse = \n", "config.toml:2: the config file is not valid TOML"),
    ('colour = "red"\n', "config.toml:1: unknown setting 'colour'"),
    ("house = 3\n", "config.toml:1: house must be a quoted string"),
])
def test_malformed_config_is_one_line_and_kept(capsys, config_home, text, message):
    """A bad config file is one line naming file and line; `config set` refuses to rewrite it."""
    config_home.parent.mkdir(parents=True)
    config_home.write_text(text)
    assert main(WALK) == 2
    assert message in capsys.readouterr().err
    assert main(["config", "set", "name", "Ann"]) == 2
    assert config_home.read_text() == text


def test_config_set_keeps_other_lines(capsys, config_home):
    """`floor config set` changes one line and keeps comments and other settings."""
    config_home.parent.mkdir(parents=True)
    config_home.write_text('# the league desk\nname = "Ann"\n')
    assert main(["config", "set", "house", "none"]) == 0
    assert main(["config", "set", "name", "Bob"]) == 0
    assert config_home.read_text() == '# the league desk\nname = "Bob"\nhouse = "none"\n'
    capsys.readouterr()
    assert main(["config"]) == 0
    assert "house  = none" in capsys.readouterr().out


@pytest.mark.parametrize("columns", [50, 80, 120])
def test_first_screen_wraps_to_the_terminal(capsys, monkeypatch, config_home, columns):
    """The ruling wraps to the terminal's width; at 80 columns it fits in 12 lines."""
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = first_lines(capsys, WALK)
    assert max(len(line) for line in lines) <= columns
    if columns >= 80:
        assert len(lines) <= 12
    assert any(len(line) > columns - 12 for line in lines)  # it uses the width it has


def test_full_shows_everything(capsys, config_home):
    """--full adds why, every cite with its words, the 2019 note and the TDA position."""
    lines = "\n".join(first_lines(capsys, WALK + ["--full"]))
    for part in ("Why", "Rules cited (primary first)", "Answers taken:", "TDA 2024 position:"):
        assert part in lines


@pytest.mark.parametrize("argv, expect", [
    (["walk", "overchip-facing-bet", "-a", "declared=silent", "-a", "facing=1100", "-a", "min-raise=600", "-a", "chips=5000"],
     "Ruling: a call of 1,100; return 3,900"),
    (["walk", "overchip-facing-bet", "-a", "declared=silent"],
     "Arithmetic (an example, not your table's numbers): floor calc chips --facing 600 --min-raise 600 --chips 5000"),
])
def test_table_numbers_with_answer(capsys, config_home, argv, expect):
    """--answer takes the table's numbers for the ruling's arithmetic; without them the example is labelled."""
    assert expect in first_lines(capsys, argv)


@pytest.mark.parametrize("argv, message", [
    (["walk", "overchip-facing-bet", "-a", "declared=silent", "-a", "facing=1100"], "give every number the arithmetic needs: --answer min-raise=N"),
    (["walk", "overchip-facing-bet", "-a", "declared=silent", "-a", "stack=1100"], "'stack' is not a question or a number this ruling uses"),
    (["walk", "fouled-deck", "-a", "facing=1100"], "situation 'fouled-deck' has no question 'facing'"),
])
def test_table_numbers_bad_input(capsys, config_home, argv, message):
    """Missing or unknown numbers are one clear line."""
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_c_key_asks_for_the_numbers(floor, config_home):
    """At the ruling, c asks for each number the arithmetic needs and prints the calculator's answer inline."""
    result = floor("walk", "overchip-facing-bet", input="3\nc\n1100\n600\n5000\nq\n", env={"FLOORCALL_INTERACTIVE": "1"})
    assert result.exit_code == 0
    assert "facing [600]:" in result.stdout and "Ruling: a call of 1,100; return 3,900" in result.stdout


def test_c_key_with_the_example_says_so(floor, config_home):
    """Enter keeps the example numbers, and the answer says they are the example's, not the table's."""
    result = floor("walk", "overchip-facing-bet", input="3\nc\n\n\n\nq\n", env={"FLOORCALL_INTERACTIVE": "1"})
    assert "(worked with the example numbers shown, not your table's)" in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_walk_in_a_real_terminal(tmp_path):
    """In a pseudo-terminal: answer, see the ruling first, go back, restart, quit with status 0."""
    import pty
    import select
    import subprocess

    from conftest import REPO

    main_fd, child_fd = pty.openpty()
    env = dict(os.environ, COLUMNS="80", LINES="40", XDG_CONFIG_HOME=str(tmp_path), TERM="dumb")
    code = "import sys; from floorcall.commands.entry import main; sys.exit(main(['walk', 'overchip-facing-bet']))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=child_fd, stdout=child_fd, stderr=child_fd, cwd=REPO, env=env)
    os.close(child_fd)
    seen = b""

    def read_until(marker: bytes, timeout: float = 30.0):
        nonlocal seen
        import time

        end = time.time() + timeout
        while marker not in seen and time.time() < end:
            ready, _w, _x = select.select([main_fd], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main_fd, 65536)
                except OSError:
                    break
        assert marker in seen, seen[-500:]

    read_until(b"q quit\r\n> ")
    os.write(main_fd, b"3\n")
    read_until(b"n new lookup")
    assert b"It is a call." in seen
    os.write(main_fd, b"b\n")
    read_until(b"1-4 answer")
    os.write(main_fd, b"q\n")
    assert proc.wait(timeout=30) == 0
    os.close(main_fd)
