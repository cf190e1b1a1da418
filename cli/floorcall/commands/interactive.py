"""The interactive walk at a terminal: numbered answers, b back, r restart, q quit, ? help.

I/O lives here; every decision is the walk engine's.
"""

from __future__ import annotations

import sys

from floorcall.commands.render import Style, render_question, render_ruling
from floorcall.core.errors import FloorError
from floorcall.engines.walk import Pending, WalkSession

KEYS_HELP = "number = answer · b = back · r = restart · ? = help · q = quit"
EXIT_QUIT = 1  # the floorperson left before a ruling: not a success for scripts
EXIT_INTERRUPTED = 130


def read_line(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def run_walk(corpus: dict, situation: dict, house: str, style: Style, reader=read_line, out=print, full: bool = False) -> int:
    """Drive one walk; returns the exit code (0 ruling reached, 1 quit or end of input, 130 Ctrl-C)."""
    session = WalkSession(situation, house)
    out(style(situation["title"], "bold") + style(f"   [{situation['id']}]", "dim"))
    out(style(KEYS_HELP, "dim"))
    state = session.state()
    try:
        while isinstance(state, Pending):
            out("")
            out(render_question(state, style))
            choice = reader("> ").lower()
            if choice in ("q", "quit", "exit"):
                return EXIT_QUIT
            if choice in ("b", "back"):
                if not session.taken:
                    out("(already at the first question)")
                state = session.back()
            elif choice in ("r", "restart"):
                state = session.restart()
            elif choice in ("?", "h", "help"):
                out(state.help or "No extra help for this question: answer what you saw or heard at the table.")
                out(style(KEYS_HELP, "dim"))
            elif choice.isdigit() and 1 <= int(choice) <= len(state.answers):
                state = session.answer(state.answers[int(choice) - 1][0])
            else:
                out(f"Type a number from 1 to {len(state.answers)}, or b, r, ?, q.")
        out("")
        out(render_ruling(state, corpus["rules"], style, corpus.get("situations"), full))
        return 0
    except (EOFError, KeyboardInterrupt) as exc:
        out("")
        out("Walk stopped before a ruling.")
        return EXIT_INTERRUPTED if isinstance(exc, KeyboardInterrupt) else EXIT_QUIT
    except FloorError:
        raise
