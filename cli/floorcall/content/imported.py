"""The editions a director imported (`floor import FILE`), read back for the corpus.

Each is one JSON record set in the user's data folder ($FLOORCALL_DATA/editions/, else
$XDG_DATA_HOME/floorcall/editions/), named by its source: `tda-2024.json`, `tda-2026.json`. It is
never in the checkout or the installed package: the TDA's text is the director's own copy.

Here it is only read (store/editions_store.py writes it): the corpus gets `editions` (each edition's
rules by number) and, on every rule of a source that has an imported edition, `full_text`, the
words of the user's copy marked with edition, version, file and page. A file that is damaged or
from a newer Floorcall is left as it is, not used, and named in a warning.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from floorcall.core.errors import FloorError, shown

DATA_ENV = "FLOORCALL_DATA"  # the whole data folder (editions/ inside), e.g. for a shared tournament laptop
XDG_ENV = "XDG_DATA_HOME"
EDITIONS_FOLDER = "editions"
EDITION_FORMAT = 1  # the shape of an edition record set; a file with a newer format is refused, never rewritten
EDITION_KIND = "floorcall-edition"
EDITION_FILE = re.compile(r"^tda-(?:19|20)\d{2}\.json$")
MAX_EDITION_BYTES = 20_000_000  # an edition record is ~0.3 MB; anything far larger is not ours


def data_dir() -> Path:
    """$FLOORCALL_DATA, else $XDG_DATA_HOME/floorcall (~/.local/share/floorcall when unset or relative)."""
    explicit = os.environ.get(DATA_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get(XDG_ENV, "")
    if not base or not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "floorcall"


def editions_dir() -> Path:
    return data_dir() / EDITIONS_FOLDER


def edition_path(source: str) -> Path:
    return editions_dir() / f"{source}.json"


def edition_files() -> list[Path]:
    """The imported editions' files, by name; none when the folder does not exist. Kept to one scandir:
    the corpus manifest lists them on every start."""
    try:
        return sorted(Path(entry.path) for entry in os.scandir(editions_dir()) if EDITION_FILE.match(entry.name))
    except OSError:
        return []


def edition_name(edition: dict) -> str:
    """'TDA 2024 Rules Version 1.0 (Oct 9, 2024)'."""
    date = f" ({edition['date_text']})" if edition.get("date_text") else ""
    return f"TDA {edition['year']} {edition.get('what', 'Rules')} Version {edition['version']}{date}"


def read_edition_file(path: Path) -> dict:
    """An edition record set, checked; FloorError (one line) when damaged or from a newer Floorcall."""
    import json  # only when the corpus is rebuilt: a warm start never reads an edition

    where = shown(path)
    try:
        if path.stat().st_size > MAX_EDITION_BYTES:
            raise FloorError(f"{where} is too large to be an edition Floorcall wrote — left as it is")
        record = json.loads(path.read_text(encoding="utf-8"))
    except FloorError:
        raise
    except OSError as exc:
        raise FloorError(f"cannot read {where}: {exc.strerror}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise FloorError(f"{where} is damaged (not JSON: {shown(exc, 50)}) — left as it is") from None
    if not isinstance(record, dict) or record.get("kind") != EDITION_KIND:
        raise FloorError(f"{where} is not an edition Floorcall wrote — left as it is")
    version = record.get("format")
    if not isinstance(version, int) or version < 1:
        raise FloorError(f"{where} is damaged (no format number) — left as it is")
    if version > EDITION_FORMAT:
        raise FloorError(f"{where} was written by a newer Floorcall (format {version}; this one reads {EDITION_FORMAT}) "
                         "— left as it is; upgrade Floorcall to use it")
    problem = _shape_problem(record)
    if problem:
        raise FloorError(f"{where} is damaged ({problem}) — left as it is")
    return record


def _shape_problem(record: dict) -> str | None:
    for key in ("source", "year", "version"):
        if not isinstance(record.get(key), str):
            return f"no {key}"
    if not re.fullmatch(r"tda-(?:19|20)\d{2}", record["source"]) or record["source"] != f"tda-{record['year']}":
        return "its source is not tda-<year>"
    for key in ("rules", "procedures", "addendum", "unplaced"):
        if not isinstance(record.get(key, []), list):
            return f"{key} is not a list"
    for rule in record.get("rules", []) + record.get("procedures", []):
        if not (isinstance(rule, dict) and isinstance(rule.get("number"), str) and isinstance(rule.get("text"), str)
                and isinstance(rule.get("title"), str)):
            return "a rule without number, title or text"
        for part in rule.get("parts", []) or []:
            if not (isinstance(part, dict) and isinstance(part.get("part"), str) and isinstance(part.get("text"), str)):
                return f"a part of rule {rule['number']} without letter or text"
    for entry in record.get("addendum", []):
        if not (isinstance(entry, dict) and isinstance(entry.get("rule"), str) and isinstance(entry.get("text"), str)):
            return "an addendum entry without rule or text"
    return None


def compile_edition(record: dict, path: Path | None = None) -> dict:
    """An edition as the corpus holds it: its facts, and its rules and procedures by number."""
    source = record["source"]
    rules = {}
    for kind in ("rules", "procedures"):
        for rule in record.get(kind, []):
            compiled = dict(rule, id=f"{source}:{rule['number']}", source=source)
            compiled["addendum"] = [e for e in record.get("addendum", []) if e.get("rule") == rule["number"]]
            rules[rule["number"]] = compiled
    facts = {k: v for k, v in record.items() if k not in ("rules", "procedures")}
    return dict(facts, name=edition_name(record), rules=rules, path=str(path) if path else "")


def read_editions(files: list[Path]) -> tuple[dict, list[str]]:
    """(imported editions by source, one warning line per file left out)."""
    editions, problems = {}, []
    for path in files:
        try:
            record = read_edition_file(path)
        except FloorError as exc:
            problems.append(exc.message)
            continue
        if path.name != f"{record['source']}.json":
            problems.append(f"{shown(path)} holds {record['source']}, not what its name says — left as it is, not used")
            continue
        editions[record["source"]] = compile_edition(record, path)
    return editions, problems


def full_text_record(edition: dict, number: str, letter: str = "") -> dict | None:
    """The words of rule `number` (or its part `letter`) in the user's copy, marked with where they are from."""
    rule = edition["rules"].get(number)
    if rule is None:
        return None
    part = next((p for p in rule.get("parts") or [] if p["part"] == letter), None) if letter else None
    if letter and part is None:
        return None
    text, where = (part["text"], part.get("where", "")) if part else (rule["text"], rule.get("where", ""))
    record = {
        "text": text, "source": edition["source"], "edition": edition["name"], "version": edition["version"],
        "date": edition.get("date"), "file": (edition.get("file") or {}).get("name", ""), "where": where,
        "number": f"{number}-{letter}" if letter else number, "title": rule["title"],
    }
    if not letter and rule.get("parts"):
        record["intro"] = rule.get("intro", "")
        record["parts"] = [{"part": p["part"], "text": p["text"], "where": p.get("where", "")} for p in rule["parts"]]
    addendum = [{"heading": e.get("heading", ""), "part": e.get("part", ""), "text": e["text"], "where": e.get("where", "")}
                for e in rule.get("addendum", []) if not letter or e.get("part") in ("", letter)]
    if addendum:
        record["addendum"] = addendum
    return record


def attach_full_text(rules: dict, editions: dict) -> None:
    """Give every rule and part of a source with an imported edition its full words (`full_text`)."""
    for rule in rules.values():
        edition = editions.get(rule.get("source"))
        if edition is None:
            continue
        parent = rules.get(rule.get("parent") or "")
        number, letter = (parent["number"], rule.get("part") or "") if parent else (rule["number"], "")
        full = full_text_record(edition, number, letter)
        if full is not None:
            rule["full_text"] = full
