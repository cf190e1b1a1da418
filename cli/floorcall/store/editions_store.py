"""The imported editions on disk: one JSON record set per edition, written atomically.

A record is written to a temporary file in the same folder, flushed to disk, then renamed over the
old one (os.replace): a reader, or a `kill -9` at any moment, sees the previous edition whole or
the new one whole, never half of either. A temporary file left by a killed import is removed by the
next import. A file this Floorcall cannot read (damaged, or from a newer Floorcall) is never
overwritten by accident: re-importing over a newer one is refused; `--remove` takes any out.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from floorcall.content.imported import EDITION_FORMAT, edition_files, edition_path, editions_dir, read_edition_file
from floorcall.core.errors import FloorError, shown

TEMP_PREFIX = ".import-"
TEMP_SUFFIX = ".tmp"
# A temporary file older than this belongs to an import that died; a younger one may be another import at work.
LEFTOVER_AGE_SECONDS = 600


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def previous_edition(source: str) -> dict | None:
    """The edition now saved under `source`, None when there is none; FloorError when it is one
    this Floorcall must not overwrite (written by a newer Floorcall)."""
    path = edition_path(source)
    if not path.exists():
        return None
    try:
        return read_edition_file(path)
    except FloorError as exc:
        if "newer Floorcall" in exc.message:
            raise FloorError(f"{exc.message} — not replaced; `floor import --remove {source[4:]}` takes it out") from None
        return {"damaged": exc.message}


def save_edition(record: dict, document_name: str, document_kind: str, pages: int, size: int, sha256: str,
                 furniture: list[str]) -> tuple[Path, dict | None]:
    """Write `record` (from engines.editions.parse_edition) as the user's copy of its edition.
    Returns (its path, the edition it replaced or None)."""
    source = record["source"]
    replaced = previous_edition(source)
    folder = editions_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FloorError(f"cannot create {shown(folder)}: {exc.strerror} — set FLOORCALL_DATA to a folder you can write") from None
    _remove_leftovers(folder)
    saved = dict(record, format=EDITION_FORMAT, imported=_now(),
                 file={"name": document_name, "kind": document_kind, "pages": pages, "bytes": size, "sha256": sha256},
                 furniture=furniture)
    payload = json.dumps(saved, ensure_ascii=False, indent=1).encode("utf-8")
    target = edition_path(source)
    try:
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, target)  # atomic on POSIX and Windows: the old file or the new one, never half
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        _sync_folder(folder)
    except OSError as exc:
        raise FloorError(f"cannot write {shown(target)}: {exc.strerror} — nothing was changed") from None
    return target, replaced


def remove_edition(source: str) -> Path:
    path = edition_path(source)
    if not path.exists():
        imported = ", ".join(p.stem for p in edition_files()) or "none"
        raise FloorError(f"no imported edition {source} in {shown(editions_dir())} — imported: {imported}", 1)
    try:
        path.unlink()
    except OSError as exc:
        raise FloorError(f"cannot remove {shown(path)}: {exc.strerror}") from None
    _sync_folder(path.parent)
    return path


def _remove_leftovers(folder: Path) -> None:
    """Temporary files of imports killed half-way: never read, safe to delete."""
    import time

    for leftover in folder.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
        try:
            if time.time() - leftover.stat().st_mtime > LEFTOVER_AGE_SECONDS:
                leftover.unlink()
        except OSError:
            pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX): without it a power cut may forget it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def import_edition(path: str | os.PathLike, corpus: dict) -> dict:
    """Read a TDA rules document, parse it, save it as the user's copy of its edition, and say what
    was found: {record, path, replaced, counts, document, mapping?}. Nothing is written unless the
    whole document parsed; any problem is one FloorError line (exit 1)."""
    from floorcall.content.documents import read_document
    from floorcall.content.imported import compile_edition
    from floorcall.engines.editions import DEFAULT_EDITION, counts, edition_link, mapping_counts, parse_edition

    document = read_document(path)
    record = parse_edition(document.lines, document.name)
    saved_path, replaced = save_edition(record, document.name, document.kind, document.pages, document.size,
                                        document.sha256, document.furniture)
    report = {"record": record, "path": saved_path, "replaced": replaced, "counts": counts(record), "document": document}
    if record["source"] != DEFAULT_EDITION and record.get("rules"):
        compiled = compile_edition(dict(record, file={"name": document.name, "sha256": document.sha256}), saved_path)
        view = {"rules": corpus["rules"], "editions": {**(corpus.get("editions") or {}), record["source"]: compiled}}
        link = edition_link(view, record["source"])
        report["mapping"] = {"counts": mapping_counts(link["mapping"]), "basis": link["basis"], "older": link["older"],
                             "added": link["mapping"]["added"], "removed": link["mapping"]["removed"],
                             "split": link["mapping"]["split"], "merged": link["mapping"]["merged"]}
    return report
