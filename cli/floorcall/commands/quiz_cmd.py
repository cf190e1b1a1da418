"""`floor quiz …`: training quizzes drawn from the rulings and rules (typer's side).

The engine (`quiz`, `exam`, `schedule`) makes, selects, schedules and grades the items; the store
(`quiz_store`) keeps each person's progress; `quiz_run` asks the questions and prints. This module
only declares the options: the fast path (commands.fastpath) reads the same ones without typer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from floorcall.commands.support import HELP_OPTIONS, command, epilog, guarded, style_for_stdout

quiz_app = typer.Typer(
    context_settings=HELP_OPTIONS, epilog=epilog("quiz"),
    help="Training quizzes drawn from the rulings and rules: practice with feedback, exams, progress per person.",
    invoke_without_command=True,
    no_args_is_help=False,
)

# Shown in --help; the values themselves live in quiz_run and engines.exam / engines.schedule.
DEFAULT_COUNT = 10
EXAM_COUNT = 40
EXAM_MINUTES = 100
EXAM_PASS = 90.0
NEW_PER_DAY = 20


# ---------------------------------------------------------------- the command


@quiz_app.callback(invoke_without_command=True)
@guarded
def quiz(
    ctx: typer.Context,
    topic: Optional[str] = typer.Option(None, "--topic", "-t", help="Only one topic: betting, dealing, showdown, chips, seating, conduct, procedure or house."),
    source: Optional[str] = typer.Option(None, "--source", "-s", help="Only items citing one source: dttf, tda-2024, tda-2019 or wpa."),
    count: Optional[int] = typer.Option(None, "--count", "-n", help=f"How many questions (default {DEFAULT_COUNT}; {EXAM_COUNT} with --exam)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Replay a quiz: the same seed gives the same questions in the same order."),
    name: Optional[str] = typer.Option(None, "--name", help="Save progress for this person: FSRS brings each item back when it is about to be forgotten."),
    db: Optional[Path] = typer.Option(None, "--db", help="Progress database (default: $XDG_DATA_HOME/floorcall/quiz-progress.sqlite3)."),
    exam: bool = typer.Option(False, "--exam", help=f"A certification-style exam: {EXAM_COUNT} items balanced across topics, timed, no feedback until the end, then score, per-topic results and every missed item. Exit 1 on a fail."),
    pass_mark: Optional[float] = typer.Option(None, "--pass", help=f"Exam pass mark in percent (default {EXAM_PASS:g})."),
    minutes: Optional[float] = typer.Option(None, "--minutes", help=f"Exam time in minutes, counted down (default {EXAM_MINUTES})."),
    report: Optional[Path] = typer.Option(None, "--report", help="With --exam: write a printable HTML report for the training coordinator."),
    new: Optional[int] = typer.Option(None, "--new", help=f"With --name: how many new items a day (default {NEW_PER_DAY}); items due for review always come first."),
    restart: bool = typer.Option(False, "--restart", help="With --exam: set aside an unfinished exam (its answers are kept) and start a new one."),
    as_json: bool = typer.Option(False, "--json", help="Print the items as JSON (answer_numbers are the right choices), or with --answers the grading."),
    answers: Optional[str] = typer.Option(None, "--answers", help="Grade without prompts: one answer per question, e.g. 2,1+3,3 (+ joins a select-all's choices)."),
    edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Cite rules in an imported edition's numbers, e.g. 2026."),
):
    """Take a quiz: one question at a time, feedback quoting the rule that decides, FSRS scheduling with --name; or --exam."""
    if ctx.invoked_subcommand is not None:
        return
    from floorcall.commands import quiz_run
    from floorcall.commands.support import content_root

    code = quiz_run.run_quiz(content_root(), topic=topic, source=source, count=count, seed=seed, name=name, db=db, exam=exam,
                             pass_mark=pass_mark, report=report, as_json=as_json, answers=answers, minutes=minutes, new=new,
                             restart=restart, edition=edition, style=style_for_stdout(), reader=_reader(), out=typer.echo)
    raise typer.Exit(code)


def _reader():
    """The keyboard, looked up at call time so tests can stand in for it (quiz_cmd.read_line)."""
    return read_line if read_line is not _default_read_line else None


def read_line(prompt: str) -> str:
    from floorcall.commands.quiz_run import read_line as plain

    return plain(prompt)


_default_read_line = read_line


# ---------------------------------------------------------------- stats


@command(quiz_app, "stats")
def stats(
    name: Optional[str] = typer.Option(None, "--name", help="One person's progress per topic and source: retention now, due today and this week (default: everyone's totals)."),
    db: Optional[Path] = typer.Option(None, "--db", help="Progress database (default: $XDG_DATA_HOME/floorcall/quiz-progress.sqlite3)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """Show saved progress: everyone's totals, or one person's retention, due items and exams per topic and source."""
    from floorcall.commands import quiz_run
    from floorcall.commands.support import content_root

    quiz_run.run_stats(content_root(), name, db, as_json, out=typer.echo)
