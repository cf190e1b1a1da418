"""Exit codes are one scheme across commands (0 shown, 1 nothing found, 2 usage, 3 pending, 130
interrupted), and an error line echoes at most 80 characters of what was typed, control
characters made visible."""

import pytest

from floorcall.commands.entry import main

LONG = "9" * 5000


@pytest.mark.parametrize("argv, code, first", [
    (["rule", "44"], 0, None),
    (["walk", "overchip-facing-bet", "-a", "declared=silent"], 0, None),
    (["walk", "overchip-facing-bet"], 3, None),                      # piped: the first question is pending
    (["walk", "no-such-situation"], 1, "floor: no situation 'no-such-situation'"),
    (["rule", "tda-2024:999"], 1, "floor: no rule 'tda-2024:999'"),
    (["situations", "--tag", "zz"], 1, "floor: no situation tagged 'zz'"),
    (["lookup", "zzzqqq", "xxyyzz"], 1, "floor: no situation matches 'zzzqqq xxyyzz'"),
    (["walk", "overchip-facing-bet", "--house", "wsop"], 2, "floor: unknown house 'wsop'"),
    (["lookup", "--limit", "²", "chip"], 2, "floor: --limit takes a whole number from 1 to 50, not '²'"),
    (["rule", LONG], 1, "floor: no rule '" + "9" * 79 + "…'"),
    (["calc", "penalty", "--players", LONG, "--rounds", "1"], 2, "floor: --players: '" + "9" * 79 + "…' is not a whole number"),
    (["calc", "h4h", "--level-left", "1e999999999", "--hands", "3"], 2, "floor: --level-left: '1e999999999'"),
    (["walk", "\x1b]0;x\x07"], 1, "floor: no situation '\\x1b]0;x\\x07'"),
    (["calc", "chips", "--facing", "x" * 500, "--min-raise", "600", "--chips", "5000"], 2, "floor: --facing: '" + "x" * 79 + "…'"),
])
def test_exit_code_and_message(capsys, argv, code, first):
    """ARGV exits CODE; an error is one stderr line beginning FIRST, never a traceback or 'internal error'."""
    assert main(argv) == code
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    if first:
        lines = [line for line in err.splitlines() if not line.startswith("floor: warning:")]
        assert len(lines) == 1 and lines[0].startswith(first), err
