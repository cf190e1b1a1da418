"""`floor walk` without typer: the same function serves the typer command and the fast path.

Non-interactive (`--answer`, piped or --json): the first screen of the ruling (or everything with
--full); a question still open prints itself and exits 3. `--answer` also takes the table's
numbers for the ruling's arithmetic (`-a facing=1100 -a chips=1000,100`), named as the
calculator's options are. At a terminal the walk is a session (commands.interactive).
"""

from __future__ import annotations

import os
import sys

from floorcall.core.errors import FloorError, shown

EXIT_PENDING = 3  # `walk --answer`: the walk stopped at an unanswered question
INTERACTIVE_ENV = "FLOORCALL_INTERACTIVE"  # 1: prompt even when stdin is not a terminal (tests, expect scripts)


def interactive_input() -> bool:
    return os.environ.get(INTERACTIVE_ENV) == "1" or sys.stdin.isatty()


def log_path(db: str | None):
    """The ruling log in use: --db > FLOORCALL_DB > the config file's `db` > the default."""
    from floorcall.commands.config import effective
    from floorcall.store.log_location import log_location

    configured, source = effective("db", db)
    return log_location(configured if configured and source != "default" else None)


def precedent(db: str | None, ruling) -> str:
    """'How this was ruled before' when a ruling log exists ('' otherwise: no log, no line, no cost)."""
    path = log_path(db)
    if not path.exists():
        return ""
    from floorcall.store.ruling_log import precedent_line

    return precedent_line(path, ruling)


def run_walk_command(root, situation_id: str, answer_pairs: list[str] | None, as_json: bool, house: str | None,
                     full: bool, style, on_ruling=None, db: str | None = None, edition: str | None = None) -> int:
    from floorcall.commands.config import house as configured_house
    from floorcall.content import corpus as corpus_module
    from floorcall.engines.walk import get_situation

    house = configured_house(house)
    data = corpus_module.load_content(root)
    corpus_module.warn_if_skipped(data)
    if edition:  # cite in an imported edition's numbers (floor import); its own module, only when asked
        from floorcall.commands.editions_cmd import in_edition

        data = in_edition(data, edition)
    situation = get_situation(data, situation_id)
    if answer_pairs is None and not as_json and interactive_input():
        from floorcall.commands.interactive import NEW_LOOKUP, run_walk

        outcome = run_walk(data, situation, house, style, full=full, db=db, root=root)
        if outcome == NEW_LOOKUP:
            from floorcall.commands.lookup_cmd import lookup_from_prompt

            return lookup_from_prompt(root, house, style)
        return outcome if isinstance(outcome, int) else 0
    return finish_walk(data, situation, answer_pairs or [], as_json, house, full, style, on_ruling, db)


def finish_walk(data: dict, situation: dict, answer_pairs: list[str], as_json: bool, house: str, full: bool, style,
                on_ruling=None, db: str | None = None) -> int:
    """Print the walk's result; `on_ruling(ruling)` (the --log save) runs once a ruling is on screen,
    so a save that fails never hides the ruling."""
    from floorcall.commands.render import render_first_screen, render_question, render_ruling
    from floorcall.engines.walk import Pending, Ruling, advance, parse_answer_options

    answers = parse_answer_options(answer_pairs)
    questions = situation.get("questions") or {}
    numbers = {key: value for key, value in answers.items() if key not in questions}
    result = advance(situation, {k: v for k, v in answers.items() if k in questions}, house)
    if numbers and (isinstance(result, Pending) or not result.calc):
        from floorcall.core.problems import did_you_mean

        key = next(iter(numbers))
        hint = did_you_mean(key, questions) or ("questions: " + ", ".join(questions) if questions else "it asks no questions")
        raise FloorError(f"situation '{situation['id']}' has no question '{shown(key)}' — {hint}")
    plan = _numbers_plan(result, numbers) if numbers else None
    pending = isinstance(result, Pending)
    if as_json:
        logged = on_ruling(result) if on_ruling is not None and not pending else None
        payload = result.as_json() | ({"pending": True} if pending else {}) | ({"log": logged} if logged else {})
        if isinstance(result, Ruling) and (data.get("editions") or data.get("edition")):  # words from the director's copy
            from floorcall.commands.editions_cmd import cited_json

            payload["cited"] = cited_json(data, result.cites)
            if data.get("edition"):
                payload["edition"] = data["edition"]
        sys.stdout.write(_json(payload, ensure_ascii=False, indent=2) + "\n")
    elif isinstance(result, Pending):
        print(render_question(result, style))
        print(f"answer with --answer {result.question}=<{'|'.join(a for a, _ in result.answers)}>")
    else:
        print(render_ruling(result, data["rules"], style, data.get("situations"), True) if full
              else render_first_screen(result, data["rules"], style, data.get("situations")))
        if result.calc and not plan:
            print(f"Arithmetic (an example, not your table's numbers): {result.calc}")
            print("  put in yours: --answer " + " --answer ".join(f"{o.lstrip('-')}=N" for o, _v in _needed(result.calc)))
        if on_ruling is not None:
            print("")
            for line in on_ruling(result)["lines"]:
                print(line)
        else:
            before = precedent(db, result)
            if before:
                print(before)
    if plan:
        from floorcall.commands.interactive import run_calc

        print("")
        status = run_calc(*plan)
        if status:
            return status
    if pending and on_ruling is not None:
        sys.stderr.write("floor: not logged — the walk stopped at a question\n")
    return EXIT_PENDING if pending else 0


def _needed(example: str) -> list[tuple[str, str]]:
    from floorcall.commands.interactive import calc_plan

    return calc_plan(example)[1]


def _numbers_plan(result, numbers: dict[str, str]):
    """The calculator run for the table's numbers given with --answer; every needed number must be there."""
    from floorcall.commands.interactive import calc_plan

    fixed, needed = calc_plan(result.calc)
    names = {option.lstrip("-"): option for option, _sample in needed}
    unknown = [key for key in numbers if key not in names]
    if unknown:
        raise FloorError(f"'{shown(unknown[0])}' is not a question or a number this ruling uses — numbers: {', '.join(names)}")
    missing = [name for name in names if name not in numbers]
    if missing:
        raise FloorError(f"give every number the arithmetic needs: --answer {missing[0]}=N (needed: {', '.join(names)})")
    return fixed, [(names[key], value) for key, value in numbers.items()]


def _json(value, **options) -> str:
    import json  # only for --json: it costs a table command ~5 ms to import

    return json.dumps(value, **options)
