"""Shared pieces of the typer commands: one-line errors, output helpers, the content root and corpus."""

from __future__ import annotations

import functools
import json
import os
import sys

import typer

from floorcall.core.errors import FloorError
from floorcall.commands.render import Style


def guarded(function):
    """Turn a FloorError into one line on stderr and its exit code (never a traceback)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except FloorError as exc:
            typer.echo(f"floor: {exc.message}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper


def command(typer_app: typer.Typer, *names, **options):
    """`typer_app.command(...)` with `guarded` error handling."""

    def decorate(function):
        return typer_app.command(*names, **options)(guarded(function))

    return decorate


# The global --root option, set by the app's callback before any command runs.
state: dict = {"root": None}


def content_root():
    from floorcall.content.paths import find_root

    return find_root(state["root"])


def corpus() -> dict:
    """The compiled corpus of the content root (from its cache when current), warning of left-out files."""
    from floorcall.content import corpus as corpus_module

    data = corpus_module.load(content_root())
    corpus_module.warn_if_skipped(data)
    return data


def style_for_stdout() -> Style:
    return Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))


def emit_json(value) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2))
