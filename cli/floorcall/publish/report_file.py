"""Writing a report file the user asked for: atomically, readable by others, and never over a file
that is not one of ours.

Shared by the quiz report and the ruling log's report and export, so both keep the same promises:
the old file or the new one is there, never half of one; a file of someone else's is left untouched.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from floorcall.core.errors import FloorError

HEAD_BYTES = 4096  # where our generator mark sits: the top of the file


def file_mode() -> int:
    """The mode a file the user saves would get (the umask applied), instead of mkstemp's 0600."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def replace_ours(path: Path, text: str, *, is_ours: Callable[[str], bool], what: str, flag: str,
                 example: str = "") -> Path:
    """Write `text` to `path` atomically. An existing file is replaced only if `is_ours(its head)`."""
    import tempfile

    path = Path(path).expanduser()
    if path.is_dir():
        raise FloorError(f"{flag} {path} is a folder — give a file name" + (f" such as {example}" if example else ""))
    if path.exists():
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                head = handle.read(HEAD_BYTES)
        except OSError as exc:
            raise FloorError(f"cannot read the existing {path} ({exc.strerror or exc}) — choose another {flag} file") from None
        if not is_ours(head):
            raise FloorError(f"{path} already exists and is not a Floorcall {what}; it was left untouched — choose another {flag} file")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FloorError(f"{flag} {path}: the folder {folder} does not exist")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(tmp, file_mode())  # mkstemp makes 0600; a report is for sharing, like any file the user saves
        os.replace(tmp, path)  # readers see the old file or the new one, never half of one
        tmp = None
    except OSError as exc:
        raise FloorError(f"cannot write {path} ({exc.strerror or exc})") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return path
