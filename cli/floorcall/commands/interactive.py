"""The walk at the table: a session you can steer with one key at a time.

At a question: a number answers, b back, r restart, ? help, q quit. At the ruling the session
stays open: b back to the last question, r restart, m more detail, c the table's own numbers
(when the ruling needs arithmetic), l back to the lookup's list (when it came from one), n a new
lookup, q quit. Every prompt shows its keys on one short line. I/O lives here; every decision is
the walk engine's.
"""

from __future__ import annotations

import shlex
import sys

from floorcall.commands.render import Style, render_first_screen, render_question, render_ruling, terminal_width
from floorcall.core.errors import FloorError
from floorcall.engines.walk import Pending, WalkSession

EXIT_INTERRUPTED = 130
EXIT_PENDING = 3  # input ended at an open question: as a piped walk, the question is still pending
# What a walk hands back to a lookup that started it, besides an exit code.
TO_LIST, NEW_LOOKUP = "list", "new"


def read_line(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def question_keys(pending: Pending) -> str:
    return f"1-{len(pending.answers)} answer · b back · r restart · ? help · q quit"


def ruling_keys(state, from_lookup: bool) -> str:
    keys = ["b back", "r restart", "m more"]
    if state.calc:
        keys.append("c your numbers")
    keys.append("s save")
    keys += (["l list"] if from_lookup else []) + ["n new lookup", "q quit"]
    return " · ".join(keys)


def page(text: str, out=print) -> None:
    """Print `text`; through `less` only when stdout is a terminal and the text does not fit on it."""
    import os
    import shutil

    rows = shutil.get_terminal_size((80, 24)).lines
    pager = shutil.which("less")
    if out is print and sys.stdout.isatty() and pager and text.count("\n") + 1 > rows - 1:
        import subprocess

        subprocess.run([pager, "-FRX"], input=text, text=True, env=dict(os.environ, LESSCHARSET="utf-8"))
        return
    out(text)


def run_walk(corpus: dict, situation: dict, house: str, style: Style, reader=read_line, out=print,
             full: bool = False, from_lookup: bool = False, db: str | None = None, root=None):
    """Drive one walk. Returns an exit code (0 after q or a ruling, 3 when input ends at an open
    question, 130 Ctrl-C), or TO_LIST / NEW_LOOKUP for the lookup that started it."""
    session = WalkSession(situation, house)
    out(style(situation["title"], "bold") + style(f"   [{situation['id']}]", "dim"))
    state = session.state()
    try:
        while True:
            out("")
            if isinstance(state, Pending):
                out(render_question(state, style))
                choice = reader(style(question_keys(state), "dim") + "\n> ").lower()
                if choice in ("q", "quit", "exit"):
                    return 0
                if choice in ("b", "back"):
                    if not session.taken:
                        out("(already at the first question)")
                    state = session.back()
                elif choice in ("r", "restart"):
                    state = session.restart()
                elif choice in ("?", "h", "help"):
                    out(state.help)
                elif choice.isascii() and choice.isdigit() and len(choice) < 3 and 1 <= int(choice) <= len(state.answers):
                    state = session.answer(state.answers[int(choice) - 1][0])
                else:
                    out(f"Type a number from 1 to {len(state.answers)}, or b, r, ?, q.")
                continue
            out(render_ruling(state, corpus["rules"], style, corpus.get("situations"), full) if full
                else render_first_screen(state, corpus["rules"], style, corpus.get("situations")))
            before = _precedent(db, state)
            if before:
                out(style(before, "dim"))
            while True:
                choice = reader(style(ruling_keys(state, from_lookup), "dim") + "\n> ").lower()
                if not choice:
                    continue
                if choice in ("q", "quit", "exit"):
                    return 0
                if choice in ("m", "more"):
                    out("")
                    page(render_ruling(state, corpus["rules"], style, corpus.get("situations"), True), out)
                elif choice in ("c", "calc") and state.calc:
                    table_numbers(state.calc, reader, out, style)
                elif choice in ("s", "save"):
                    save_to_log(state, db, root or corpus.get("root"), reader, out, style)
                elif choice in ("l", "list") and from_lookup:
                    return TO_LIST
                elif choice in ("n", "new"):
                    return NEW_LOOKUP
                elif choice in ("b", "back"):
                    state = session.back()
                    break
                elif choice in ("r", "restart"):
                    state = session.restart()
                    break
                else:
                    out(f"Type one of: {ruling_keys(state, from_lookup)}.")
    except (EOFError, KeyboardInterrupt) as exc:
        out("")
        if isinstance(exc, KeyboardInterrupt):
            return EXIT_INTERRUPTED
        return EXIT_PENDING if isinstance(state, Pending) else 0


def calc_plan(example: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The calculator command an outcome names, split into its fixed part (`calc chips`, flags and
    worded choices like `--declared raise`) and the numbers the table supplies: [(option, example)]."""
    words = shlex.split(example)
    if words[:2] != ["floor", "calc"] or len(words) < 3:
        raise FloorError(f"not a calculator command: {example}")
    fixed, numbers = words[1:3], []
    i = 3
    while i < len(words):
        option = words[i]
        value = words[i + 1] if i + 1 < len(words) and not words[i + 1].startswith("--") else None
        if value is None:
            fixed.append(option)
            i += 1
            continue
        if any(ch.isdigit() for ch in value):
            numbers.append((option, value))
        else:
            fixed += [option, value]
        i += 2
    return fixed, numbers


def run_calc(fixed: list[str], numbers: list[tuple[str, str]], out=print) -> int:
    """Run the calculator with the table's numbers, its lines printed where the walk is."""
    from floorcall.commands.entry import main

    args = list(fixed)
    for option, value in numbers:
        args += [option, value]
    return main(args)


def table_numbers(example: str, reader, out, style: Style) -> None:
    """Ask for the few numbers the ruling's arithmetic needs, then print the calculator's answer."""
    fixed, needed = calc_plan(example)
    out(style("Your table's numbers (Enter keeps the example shown in brackets):", "dim"))
    given = []
    for option, sample in needed:
        value = reader(f"  {option.lstrip('-')} [{sample}]: ").strip()
        given.append((option, value or sample))
    out("")
    if given == needed:
        out(style("(worked with the example numbers shown, not your table's)", "yellow"))
    run_calc(fixed, given, out)


def _precedent(db, ruling) -> str:
    from floorcall.commands.walk_cmd import precedent

    try:
        return precedent(db, ruling)
    except FloorError as exc:  # a log we cannot read never stops the walk
        return f"(ruling log: {exc.message})"


# The few facts worth keeping with a ruling: (prompt, make_facts argument, what it takes).
SAVE_PROMPTS = [("table", "table", "e.g. 12"), ("seat(s)", "seats", "e.g. 4 or 4,7"), ("player(s)", "players", "names, comma between"),
                ("penalty", "penalty", "warning, 2 hands, 1 round, dq, or Enter for none"), ("note", "note", "one line")]


def save_to_log(ruling, db, root, reader, out, style) -> None:
    """The `s` key: ask for the facts worth keeping (each optional, the night's last answers offered
    again), show the player's ladder first when he already has a penalty, then save one record."""
    import os

    from floorcall.commands.config import effective
    from floorcall.commands.walk_cmd import log_path
    from floorcall.engines.ruling_facts import make_facts
    from floorcall.store import ruling_log

    try:
        path = log_path(db)
        name = effective("name")[0] or os.environ.get("FLOORCALL_NAME") or None
        remembered = ruling_log.remembered_facts(path, name) if path.exists() else None
        out(style("Save this ruling (Enter keeps what is in brackets, - clears it):", "dim"))
        given: dict = {}
        for prompt, key, example in SAVE_PROMPTS:
            previous = getattr(remembered, key, None) if remembered is not None and key in ("table", "seats", "players") else None
            shown_previous = ",".join(map(str, previous)) if isinstance(previous, (list, tuple)) else (previous or "")
            typed = reader(f"  {prompt} [{shown_previous or example}]: ").strip()
            value = shown_previous if not typed else ("" if typed == "-" else typed)
            if key in ("seats", "players"):
                given[key] = [part.strip() for part in value.split(",") if part.strip()] or None
            else:
                given[key] = value or None
        event = effective("event")[0] or (remembered.event if remembered is not None else "") or None
        facts = make_facts(event=event, floorperson=name, table=given["table"], seats=given["seats"],
                           players=given["players"], penalty=given["penalty"], note=given["note"],
                           flags={"table": "table", "seat": "seat", "player": "player", "penalty": "penalty", "note": "note"})
        ladder = ruling_log.ladder_before_save(path, ruling, facts)
        if ladder is not None:
            for line in ladder.lines:
                out(line)
            if reader("Save it with this penalty? [y/N] ").strip().lower() not in ("y", "yes"):
                out("Not saved.")
                return
        record_id = ruling_log.save_ruling(path, ruling, facts, root)
        out(f"Saved as #{record_id} in {path}  (floor log show {record_id})")
    except FloorError as exc:
        out(f"Not saved: {exc.message}")


__all__ = ["run_walk", "read_line", "page", "calc_plan", "run_calc", "TO_LIST", "NEW_LOOKUP", "terminal_width"]
