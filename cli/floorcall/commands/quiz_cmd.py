"""`floor quiz …`: training quizzes drawn from the rulings and rules.

The engine (`quiz`) makes, selects and grades the items; the store (`quiz_store`) keeps each
person's progress. This module only parses options, asks the questions and prints.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Optional

import typer

from floorcall.commands.interactive import read_line
from floorcall.commands.support import HELP_OPTIONS, command, emit_json, epilog, guarded, style_for_stdout
from floorcall.core.errors import FloorError

quiz_app = typer.Typer(
    context_settings=HELP_OPTIONS, epilog=epilog("quiz"),
    help="Training quizzes drawn from the rulings and rules: practice with feedback, exams, progress per person.",
    invoke_without_command=True,
    no_args_is_help=False,
)

DEFAULT_COUNT = 10
EXAM_COUNT = 30  # a written floor exam's length: enough to cover every topic more than once
EXAM_PASS = 90.0  # percent; a floorperson who misses one ruling in ten is not ready to rule alone
EXIT_STOPPED = 1  # q or end of input before the last question: not a finished quiz
EXIT_EXAM_FAILED = 1
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it
SEED_RANGE = 1_000_000  # a random seed short enough to read out and replay


# ---------------------------------------------------------------- the command


@quiz_app.callback(invoke_without_command=True)
@guarded
def quiz(
    ctx: typer.Context,
    topic: Optional[str] = typer.Option(None, "--topic", "-t", help="Only one topic: betting, dealing, showdown, chips, seating, conduct, procedure or house."),
    source: Optional[str] = typer.Option(None, "--source", "-s", help="Only items citing one source: dttf, tda-2024, tda-2019 or wpa."),
    count: Optional[int] = typer.Option(None, "--count", "-n", help=f"How many questions (default {DEFAULT_COUNT}; {EXAM_COUNT} with --exam)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Replay a quiz: the same seed gives the same questions in the same order."),
    name: Optional[str] = typer.Option(None, "--name", help="Save progress for this person (Leitner boxes: missed items come back sooner)."),
    db: Optional[Path] = typer.Option(None, "--db", help="Progress database (default: $XDG_DATA_HOME/floorcall/quiz-progress.sqlite3)."),
    exam: bool = typer.Option(False, "--exam", help="Exam mode: no feedback until the end, then score, pass or fail and every missed item. Exit 1 on a fail."),
    pass_mark: Optional[float] = typer.Option(None, "--pass", help=f"Exam pass mark in percent (default {EXAM_PASS:g})."),
    report: Optional[Path] = typer.Option(None, "--report", help="With --exam: write a printable HTML report for the training coordinator."),
    as_json: bool = typer.Option(False, "--json", help="Print the items as JSON (answer_number is the right choice), or with --answers the grading."),
    answers: Optional[str] = typer.Option(None, "--answers", help="Grade without prompts: one choice number per question, e.g. 2,1,3."),
    edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Cite rules in an imported edition's numbers, e.g. 2026."),
):
    """Take a quiz: one question at a time, answer by number, feedback quoting the rule, score at the end."""
    if ctx.invoked_subcommand is not None:
        return
    from floorcall.commands.editions_cmd import in_edition
    from floorcall.engines import quiz as engine

    settings = _check_options(topic, count, exam, pass_mark, report, as_json, answers)
    data = in_edition(_corpus(), edition)
    seed = seed if seed is not None else _random_seed()
    source_id = _source(source)
    generated = engine.generate(data, seed)
    items = generated.items

    listing_only = as_json and answers is None
    store = _open_store(name, db, readonly=listing_only) if name else None
    try:
        session, cards = 0, None
        if store is not None:
            cards = store.cards(name)
            session = store.session(name) + 1  # begun on disk with the first answer: a quiz left at once ages nothing
        chosen = engine.select(items, settings["topic"], source_id, settings["count"], seed,
                               None if exam else cards, session)
        if listing_only:
            emit_json({"seed": seed, "topic": settings["topic"], "source": source_id, "count": len(chosen),
                       "items": [item.as_json() for item in chosen], "skipped": generated.skipped_counts()})
            return
        mode = "exam" if exam else "practice"
        recorder = _recorder(store, name, session, mode)
        if answers is not None:
            code = _grade_answers(data, chosen, answers, seed, exam, settings["pass"], report, as_json, recorder, name)
        else:
            code = _interactive(data, chosen, seed, exam, settings["pass"], report, recorder, name, store)
    finally:
        if store is not None:
            store.close()
    raise typer.Exit(code)


def _check_options(topic, count, exam, pass_mark, report, as_json, answers) -> dict:
    from floorcall.engines.quiz import TOPICS

    if topic is not None:
        topic = topic.strip().lower()
        if topic not in TOPICS:
            raise FloorError(f"unknown topic '{topic}' — topics: {', '.join(TOPICS)}")
    if count is not None and count < 1:
        raise FloorError(f"--count must be at least 1, not {count}")
    if pass_mark is not None and not exam:
        raise FloorError("--pass sets the exam pass mark — add --exam")
    if pass_mark is not None and not 0 <= pass_mark <= 100:
        raise FloorError(f"--pass is a percentage from 0 to 100, not {pass_mark:g}")
    if report is not None and not exam:
        raise FloorError("--report writes the exam report — add --exam")
    if report is not None and as_json and answers is None:
        raise FloorError("--report needs graded answers — add --answers, or drop --json to take the exam")
    return {
        "topic": topic,
        "count": count if count is not None else (EXAM_COUNT if exam else DEFAULT_COUNT),
        "pass": pass_mark if pass_mark is not None else EXAM_PASS,
    }


def _corpus() -> dict:
    from floorcall.commands.support import corpus

    return corpus()


def _content_root() -> Path:
    from floorcall.commands.support import content_root

    return content_root()


def _random_seed() -> int:
    import secrets

    return secrets.randbelow(SEED_RANGE)


def _source(source: Optional[str]) -> Optional[str]:
    if source is None:
        return None
    from floorcall.content.rulebook import normalise_source

    return normalise_source(source)


def _open_store(name: str, db: Optional[Path], readonly: bool):
    from floorcall.store.quiz_store import ProgressStore, check_name, default_db_path

    check_name(name)
    path = db if db is not None else default_db_path()
    if readonly and not Path(path).expanduser().exists():
        return None  # listing items for someone with nothing saved yet: no file to read, none to create
    return ProgressStore(path, readonly=readonly)


def _recorder(store, name, session, mode) -> Callable:
    """Save each answer as it is given; the session is started on disk with the first one."""
    if store is None:
        return lambda item, chosen: None
    started = {}

    def record(item, chosen):
        if "session" not in started:
            started["session"] = store.begin_session(name)
        return store.record(name, started["session"], item, chosen, mode)

    return record


# ---------------------------------------------------------------- non-interactive grading


def _grade_answers(data, items, text, seed, exam, pass_mark, report, as_json, record, name) -> int:
    from floorcall.engines import quiz as engine

    chosen = engine.parse_answers(text, items)
    for item, choice in zip(items, chosen, strict=True):
        record(item, choice)  # each in its own transaction, as in a live quiz
    graded = engine.grade(items, chosen)
    if report is not None:
        _write_report(report, data, graded, seed, pass_mark, name)
    if as_json:
        emit_json({"seed": seed, "name": name, "exam": exam, **graded.as_json(pass_mark if exam else None)})
    else:
        out = typer.echo
        _print_summary(graded, exam, pass_mark, out, style_for_stdout())
        if exam:
            _print_missed(graded, data["rules"], out, style_for_stdout())
        if report is not None:
            out(f"Report written to {report}")
    return EXIT_EXAM_FAILED if exam and not graded.passed(pass_mark) else 0


# ---------------------------------------------------------------- the interactive quiz


def ask(item, number: int, total: int, reader, out, style) -> int | None:
    """Show one question and read a choice (0-based); None when the trainee types q."""
    from floorcall.commands.render import wrap

    out("")
    sources = ", ".join(item.sources)
    out(style(f"Question {number} of {total}", "bold") + style(f" · {item.topic} · {sources}", "dim"))
    out(wrap(item.prompt))
    for index, choice in enumerate(item.choices, 1):
        out(_hanging(f"  {index}) ", choice))
    last = len(item.choices)
    while True:
        text = reader(f"Your answer (1-{last}, q to stop): ").strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= last:
            return int(text) - 1
        out(f"Type a number from 1 to {last}, or q to stop.")


def _hanging(lead: str, text: str) -> str:
    import textwrap

    from floorcall.commands.render import terminal_width

    return textwrap.fill(text, width=terminal_width(), initial_indent=lead, subsequent_indent=" " * len(lead))


def feedback(item, chosen: int, rules: dict, out, style) -> None:
    """Right or wrong, the explanation, and the primary rule quoted."""
    from floorcall.commands.render import render_cited_rule, wrap

    if chosen == item.answer:
        out(style("Right.", "green", "bold"))
    else:
        out(style("Not quite.", "red", "bold") + " The answer is:")
        out(_hanging(f"  {item.answer + 1}) ", item.right))
    out(wrap(item.explanation, "  "))
    primary = rules.get(item.cites[0]) if item.cites else None
    if primary is not None:
        out(render_cited_rule(primary, style))


def _interactive(data, items, seed, exam, pass_mark, report, record, name, store, reader=None, out=None) -> int:
    from floorcall.engines import quiz as engine

    reader = reader or read_line  # looked up at call time, so tests can stand in for the keyboard
    out = out or typer.echo
    style = style_for_stdout()
    rules = data["rules"]
    head = f"{'Exam' if exam else 'Quiz'}: {len(items)} question(s) · seed {seed}"
    if name:
        head += f" · progress saved for {name}" + (f" in {store.path}" if store is not None else "")
    out(style(head, "bold"))
    out(style("Answer by number; q stops" + (" (an exam stopped early is not graded)." if exam else "; what you answered is kept."), "dim"))
    given: list[int] = []
    stop_code = None
    try:
        for number, item in enumerate(items, 1):
            chosen = ask(item, number, len(items), reader, out, style)
            if chosen is None:
                stop_code = EXIT_STOPPED
                break
            try:
                record(item, chosen)
            except FloorError:
                _print_stopped(engine.grade(items[: len(given)], given), len(items), exam, name, out, style)
                raise
            given.append(chosen)
            if not exam:
                feedback(item, chosen, rules, out, style)
    except KeyboardInterrupt:
        stop_code = EXIT_INTERRUPTED
    except EOFError:
        stop_code = EXIT_STOPPED
    graded = engine.grade(items[: len(given)], given)
    if stop_code is not None:
        _print_stopped(graded, len(items), exam, name, out, style)
        return stop_code
    out("")
    _print_summary(graded, exam, pass_mark, out, style)
    if exam:
        _print_missed(graded, rules, out, style)
        if report is not None:
            _write_report(report, data, graded, seed, pass_mark, name)
            out(f"Report written to {report}")
    if name:
        out(style(f"Progress saved for {name}: missed items come back next session.", "dim"))
    return EXIT_EXAM_FAILED if exam and not graded.passed(pass_mark) else 0


def _print_stopped(graded, planned: int, exam: bool, name, out, style) -> None:
    out("")
    what = f"Stopped after {graded.total} of {planned} question(s)."
    if exam:
        out(what + " An exam stopped early is not graded.")
    else:
        out(what + (f" Score so far: {graded.score} of {graded.total}." if graded.total else ""))
    if name and graded.total:
        out(style(f"Saved for {name}: {graded.total} answer(s).", "dim"))


def _print_summary(graded, exam: bool, pass_mark: float, out, style) -> None:
    line = f"Score: {graded.score} of {graded.total} ({graded.percent:g}%)"
    if exam:
        verdict = style("PASS", "green", "bold") if graded.passed(pass_mark) else style("FAIL", "red", "bold")
        line = f"Exam score: {graded.score} of {graded.total} ({graded.percent:g}%) — {verdict} (pass mark {pass_mark:g}%)"
    out(style(line, "bold") if not exam else line)
    topics = graded.by_topic()
    if len(topics) > 1:
        out("By topic: " + " · ".join(f"{t} {a}/{b}" for t, (a, b) in topics.items()))


def _print_missed(graded, rules: dict, out, style) -> None:
    from floorcall.commands.render import rule_label, wrap

    missed = graded.missed
    if not missed:
        return
    out("")
    out(style(f"Missed ({len(missed)}):", "bold"))
    for result in missed:
        number = graded.results.index(result) + 1
        item = result.item
        out("")
        out(style(f"{number}. ", "bold") + style(f"[{item.id}]", "dim"))
        out(wrap(item.prompt, "   "))
        given = item.choices[result.chosen] if result.chosen is not None else "(no answer)"
        out(_hanging("   Your answer: ", given))
        out(_hanging("   Ruling: ", item.right))
        out(wrap(item.explanation, "   "))
        labels = [f"{rule_label(rules[c])} — {rules[c]['title']} [{c}]" if c in rules else c for c in item.cites]
        out(wrap("Cited: " + "; ".join(labels), "   "))


def _write_report(path: Path, data: dict, graded, seed: int, pass_mark: float, name) -> None:
    from floorcall.publish.quiz_report import write_report

    write_report(path, _content_root(), graded, data["rules"], seed=seed, pass_mark=pass_mark, name=name)


# ---------------------------------------------------------------- stats


@command(quiz_app, "stats")
def stats(
    name: Optional[str] = typer.Option(None, "--name", help="One person's mastery per topic and source (default: everyone's totals)."),
    db: Optional[Path] = typer.Option(None, "--db", help="Progress database (default: $XDG_DATA_HOME/floorcall/quiz-progress.sqlite3)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """Show saved progress: everyone's totals, or one person's mastery per topic and source."""
    from floorcall.store.quiz_store import ProgressStore, check_name, default_db_path

    path = db if db is not None else default_db_path()
    with ProgressStore(path, readonly=True) as store:
        people = store.people()
        if name is None:
            _print_people(people, path, as_json)
            return
        wanted = check_name(name)
        person = next((p for p in people if p["name"].lower() == wanted.lower()), None)
        if person is None:
            known = ", ".join(p["name"] for p in people) or "nobody yet"
            raise FloorError(f"no progress for '{wanted}' in {path} — saved: {known}")
        cards = store.cards(wanted)
        session = store.session(wanted)
    from floorcall.engines import quiz as engine

    items = engine.generate_items(_corpus(), 0)
    table = engine.mastery(items, cards, session)
    current = {i.id for i in items}
    retired = sum(1 for item_id in cards if item_id not in current)
    if as_json:
        emit_json({"name": person["name"], "sessions": person["sessions"], "answers": person["answers"],
                   "right": person["right"], "mastered_box": engine.MASTERED_BOX, "retired_items": retired, **table})
        return
    _print_mastery(person, table, retired, engine.MASTERED_BOX)


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def _print_people(people: list[dict], path: Path, as_json: bool) -> None:
    if as_json:
        emit_json({"db": str(path), "people": people})
        return
    if not people:
        typer.echo(f"No progress saved yet in {path}.")
        return
    typer.echo(f"{'name':<24} {'sessions':>8} {'answers':>8} {'right':>6}  last answer")
    for p in people:
        typer.echo(f"{p['name']:<24} {p['sessions']:>8} {p['answers']:>8} {_percent(p['right'], p['answers']):>6}  {p['last'] or '-'}")
    typer.echo("Details: floor quiz stats --name NAME")


def _print_mastery(person: dict, table: dict, retired: int, mastered_box: int) -> None:
    style = style_for_stdout()
    typer.echo(style(f"{person['name']} — {person['sessions']} session(s), {person['answers']} answer(s), "
                     f"{_percent(person['right'], person['answers'])} right", "bold"))
    for heading, rows in (("topic", table["topics"]), ("source", table["sources"])):
        typer.echo("")
        typer.echo(f"{'by ' + heading:<12} {'items':>6} {'seen':>6} {'mastered':>9} {'due next':>9} {'right':>6}")
        for row in rows:
            typer.echo(f"{row['name']:<12} {row['items']:>6} {row['seen']:>6} {row['mastered']:>9} {row['due']:>9} "
                       f"{_percent(row['right'], row['answers']):>6}")
    typer.echo("")
    typer.echo(style(f"Mastered: in box {mastered_box} or 5 of 5 (right at least three times running since the last miss). "
                     "Due next: comes back next session.", "dim"))
    if retired:
        typer.echo(style(f"{retired} answered item(s) are no longer in the quiz (the content changed); their answers are kept.", "dim"))
