"""Check problems: a stable code, where it is, what is wrong, what to try."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    code: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}: {self.code} {self.message}"
        return f"{text} — {self.hint}" if self.hint else text


def did_you_mean(word: object, choices) -> str:
    """A 'did you mean' hint naming the closest choice, or '' when nothing is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
