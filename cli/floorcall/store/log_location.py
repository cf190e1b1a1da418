"""Where the ruling log lives, without importing the log itself (sqlite3, dataclasses, …): a walk
asks this on every start to know whether there is a log to show precedent from."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from floorcall.core.errors import FloorError

DATA_ENV = "XDG_DATA_HOME"
DB_ENV = "FLOORCALL_DB"
DB_NAME = "rulings.sqlite3"


def default_log_path(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_DATA_HOME/floorcall/rulings.sqlite3 (~/.local/share when XDG_DATA_HOME is unset or relative)."""
    base = environ.get(DATA_ENV, "")
    if not base or not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "floorcall" / DB_NAME


def log_location(option: str | os.PathLike | None = None, environ: Mapping[str, str] = os.environ) -> Path:
    """The log to use: the --db option, else FLOORCALL_DB, else the default under $XDG_DATA_HOME."""
    for given, source in ((option, "--db"), (environ.get(DB_ENV), DB_ENV)):
        if given is None:
            continue
        text = str(given)
        if not text.strip():
            raise FloorError(f"{source} is empty — give a file path for the ruling log, or leave it unset")
        if re.match(r"^[a-z][a-z0-9+.-]*://", text, re.I):
            raise FloorError(f"{source} '{text[:80]}' names a server; only a file on this machine is supported yet — "
                             "keep one log on the TD desk's machine (see the README)")
        return Path(text).expanduser()
    return default_log_path(environ)
