"""The `floor` entry point.

`floor lookup …` and `floor WORDS…` (first word not a command) take a fast path that never
imports typer, yaml, jinja2 or markdown-it: at the table the lookup must feel instant. So do the
other table commands (walk, rule, situations, calc: commands.fastpath), whose options are read
as click would read them. Everything else, and anything those readers are unsure of, goes
through the typer app (typer costs ~30 ms to import).
"""

from __future__ import annotations

import os
import sys

from floorcall.core.errors import FloorError

COMMANDS = ("sources", "rules", "rule", "check", "situations", "walk", "lookup", "site", "quiz", "calc", "config", "new",
            "log", "penalty", "import", "editions")
EXIT_INTERNAL = 70  # an unexpected failure; the message says how to see the details


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "help":  # `floor help [COMMAND …]` is `floor [COMMAND …] --help`
        args = args[1:] + ["--help"]
    try:
        fast = _fast_lookup_args(args)
        if fast is not None:
            from floorcall.commands.lookup_cmd import run_lookup_from_args

            status = run_lookup_from_args(fast)
            if status is not None:
                return status
            args = args if args[:1] == ["lookup"] else ["lookup"] + args  # typer reads what the fast path could not
        from floorcall.commands.fastpath import run as run_without_typer

        status = run_without_typer(args)
        if status is not None:
            return status
        if args and not args[0].startswith("-") and args[0] not in COMMANDS:
            args = ["lookup"] + args  # `floor oot raise --help`: the help of the lookup those words would run
        from floorcall.commands.app import app

        return _run_typer(app, args)
    except FloorError as exc:
        _error(exc.message)
        return exc.exit_code
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader (head, less) went away; nothing left to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # never show a traceback to a floorperson
        if os.environ.get("FLOORCALL_DEBUG"):
            raise
        _error(f"internal error: {type(exc).__name__}: {exc} (set FLOORCALL_DEBUG=1 to see details)")
        return EXIT_INTERNAL


def _error(message: str) -> None:
    first_line = " ".join(str(message).split("\n")[0].split())
    sys.stderr.write(f"floor: {first_line}\n")


def _fast_lookup_args(args: list[str]) -> list[str] | None:
    """The lookup arguments when this call is a lookup the fast path can serve, else None."""
    if not args:
        return None
    if args[0] == "lookup":
        rest = args[1:]
    else:
        first = args[0]
        if first.startswith("-") or first in COMMANDS:
            return None
        rest = args
    words_end = rest.index("--") if "--" in rest else len(rest)
    if any(a in ("--help", "-h") for a in rest[:words_end]):
        return None  # typer prints the lookup's help, whatever came before it
    return rest


def closest_command(word: str) -> str | None:
    """The command a mistyped first word most likely meant (`quizz` -> quiz), or None.

    Within one edit for short words, two for longer ones: a typo, not a different word."""
    word = word.lower()
    if word in COMMAND_TYPOS:
        return COMMAND_TYPOS[word]
    limit = 1 if len(word) <= 4 else 2
    best = min(COMMANDS, key=lambda c: (_edits(word, c), c))
    return best if _edits(word, best) <= limit and len(word) >= 3 else None


# First words that are commands in other tools, or the plural/singular slip.
COMMAND_TYPOS = {"version": "--version", "situation": "situations", "rulebook": "rules", "validate": "check",
                 "exam": "quiz --exam", "calculate": "calc", "calculator": "calc", "config": "--help"}


def _edits(a: str, b: str) -> int:
    """Levenshtein distance with adjacent swaps (optimal string alignment); tiny, for command names."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[-1]


USAGE_ERRORS = ("UsageError", "BadParameter", "NoSuchOption", "MissingParameter", "BadOptionUsage", "BadArgumentUsage")


def _help_hint(context) -> str:
    """' — try `floor walk --help`' for the command that was misused."""
    if context is None:
        return ""
    _prog, _sep, command = context.command_path.partition(" ")
    return f" — try `floor {command + ' ' if command else ''}--help`"


def _run_typer(app, args: list[str]) -> int:
    try:
        result = app(args=args, prog_name="floor", standalone_mode=False)
        if isinstance(result, int):  # click returns Exit's code instead of raising when not standalone
            return result
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except FloorError:
        raise
    except Exception as exc:
        # typer vendors click, so its usage errors are matched by name (and their attributes by hasattr,
        # which is what the type checker needs); click's own message is one line.
        name = type(exc).__name__
        context = getattr(exc, "ctx", None)
        if name == "NoArgsIsHelpError":
            if context is not None:
                sys.stdout.write(context.get_help() + "\n")
            return 0
        if name in USAGE_ERRORS and hasattr(exc, "format_message"):
            raise FloorError(f"{exc.format_message()}{_help_hint(context)}") from None
        if name == "Exit" and hasattr(exc, "exit_code"):
            return exc.exit_code
        if name == "Abort":
            _error("aborted")
            return 130
        raise
    return 0
