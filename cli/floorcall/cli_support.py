"""Shared pieces of the typer commands: one-line errors and output helpers."""

from __future__ import annotations

import functools
import json
import os
import sys

import typer

from floorcall.errors import FloorError
from floorcall.render import Style


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


def style_for_stdout() -> Style:
    return Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))


def emit_json(value) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2))
