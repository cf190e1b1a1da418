"""The `floor` entry point.

`floor lookup …` and `floor WORDS…` (first word not a command) take a fast path that never
imports typer, yaml, jinja2 or markdown-it: at the table the lookup must feel instant (target
≤ 100 ms; typer alone costs ~90 ms to import). Every other command goes through the typer app.
"""

from __future__ import annotations

import os
import sys

from floorcall.core.errors import FloorError

COMMANDS = ("sources", "rules", "rule", "check", "situations", "walk", "lookup", "site", "quiz", "calc")
EXIT_INTERNAL = 70  # an unexpected failure; the message says how to see the details


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        fast = _fast_lookup_args(args)
        if fast is not None:
            from floorcall.commands.lookup_cmd import run_lookup_from_args

            return run_lookup_from_args(fast)
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
        if any(a in ("--help", "-h") for a in rest):
            return None
        return rest
    first = args[0]
    if first.startswith("-") or first in COMMANDS:
        return None
    return args


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
        # typer vendors click, so its usage errors are matched by name; click's own message is one line.
        name = type(exc).__name__
        context = getattr(exc, "ctx", None)
        if name == "NoArgsIsHelpError":
            if context is not None:
                sys.stdout.write(context.get_help() + "\n")
            return 0
        if name in USAGE_ERRORS:
            raise FloorError(f"{exc.format_message()}{_help_hint(context)}") from None
        if name == "Exit":
            return exc.exit_code
        if name == "Abort":
            _error("aborted")
            return 130
        raise
    return 0
