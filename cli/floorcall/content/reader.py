"""Reading the content files (rulebook/ and rulings/) into raw records, with problems instead of crashes.

Both `floor check` and the compiled corpus start here, so there is one reading of the files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from floorcall.content.yamlload import Mapping, YamlProblem, line_of, load_file
from floorcall.core.problems import Problem

SOURCES_FILE = "rulebook/sources.yaml"
RULINGS_DIR = "rulings"
UNCOVERED_FILE = "rulings/uncovered.yaml"
SYNONYMS_FILE = "rulings/synonyms.yaml"
OUT_OF_SCOPE_FILE = "rulings/out-of-scope.yaml"
SEEDS_DIR = "rulebook/seeds"


@dataclass
class RawContent:
    """Everything read from disk, each record tagged with the file (relative path) it came from."""

    root: Path
    sources: list = field(default_factory=list)
    rules: list = field(default_factory=list)  # (relpath, Mapping) pairs
    trees: list = field(default_factory=list)  # (relpath, Mapping) pairs
    uncovered: list = field(default_factory=list)  # (relpath, Mapping) pairs
    synonyms: dict = field(default_factory=dict)  # phrase -> replacement, for lookup
    out_of_scope: list = field(default_factory=list)  # phrases that mark a question the rules do not decide
    problems: list = field(default_factory=list)


def relpath(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _read(path: Path, root: Path, problems: list):
    try:
        return load_file(path)
    except YamlProblem as exc:
        problems.append(Problem(relpath(path, root), exc.line, exc.code, exc.message))
    except OSError as exc:
        problems.append(Problem(relpath(path, root), 1, "FC001", f"cannot read: {exc.strerror}"))
    return None


# Files in rulings/ that are not trees: the coverage exceptions and the lookup synonym table.
SUPPORT_FILES = frozenset({"uncovered.yaml", "synonyms.yaml", "out-of-scope.yaml"})


def tree_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / RULINGS_DIR).glob("*.yaml") if p.name not in SUPPORT_FILES)


def read_sources(root: Path, raw: RawContent) -> None:
    data = _read(root / SOURCES_FILE, root, raw.problems)
    if isinstance(data, Mapping) and isinstance(data.get("sources"), list):
        for source in data["sources"]:
            if not isinstance(source, dict):
                continue
            bad = _unsafe_source_field(source)
            if bad:
                raw.problems.append(Problem(SOURCES_FILE, line_of(source, bad), "FC101",
                                            f"source field '{bad}' must be a plain name ({source.get(bad)!r})",
                                            "ids are lowercase-hyphenated; files and seeds live in rulebook/ and rulebook/seeds/"))
                continue
            raw.sources.append(source)
    elif data is not None:
        raw.problems.append(Problem(SOURCES_FILE, 1, "FC101", "expected a `sources:` list"))


SOURCE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PLAIN_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")  # a file name in its folder: no '/', no '..'


def _unsafe_source_field(source: dict) -> str | None:
    """The first field of a source that could reach outside the content folder, else None."""
    if not (isinstance(source.get("id"), str) and SOURCE_ID.match(source["id"])):
        return "id"
    for key in ("file", "seed"):
        value = source.get(key)
        for name in value if isinstance(value, list) else [value]:
            if name is not None and not (isinstance(name, str) and PLAIN_FILE.match(name) and ".." not in name):
                return key
    return None


def rulebook_files(raw: RawContent) -> list[Path]:
    names = []
    for source in raw.sources:
        files = source.get("file")
        names += files if isinstance(files, list) else [files]
    return [raw.root / "rulebook" / n for n in names if isinstance(n, str)]


def read_rules(raw: RawContent) -> None:
    for path in rulebook_files(raw):
        data = _read(path, raw.root, raw.problems)
        rel = relpath(path, raw.root)
        if data is None:
            continue
        if not isinstance(data, Mapping) or not isinstance(data.get("rules"), list):
            raw.problems.append(Problem(rel, 1, "FC101", "expected a `rules:` list of records"))
            continue
        for record in data["rules"]:
            if not isinstance(record, Mapping):
                raw.problems.append(Problem(rel, data.lines.get("rules", 1), "FC101", "a rule record must be a mapping"))
                continue
            raw.rules.append((rel, record))
            raw.rules += [(rel, part) for part in part_records(record, rel, raw.problems)]


# A part inherits these from its rule; its own mapping gives the rest (quote, text, summary, …).
PART_INHERITED = ("title", "section", "games")
PART_LETTERS = "ABCDEFGH"  # the TDA letters its parts A… H (RP-10 has eight)


def part_records(record: Mapping, rel: str, problems: list) -> list[Mapping]:
    """The lettered parts of a rule (`parts:` in its record) as rule records of their own.

    A part's id is its rule's id plus the letter (`tda-2024:35-E`), so a cite, a relation or
    `floor rule 35-E` names a part exactly as it names a rule. Shape problems are FC110.
    """
    parts = record.get("parts")
    if parts is None:
        return []
    line = record.lines.get("parts", record.line)
    if not isinstance(parts, list) or not parts:
        problems.append(Problem(rel, line, "FC110", f"parts of '{record.get('id')}' must be a list of {{part, summary, …}}"))
        return []
    result, letters = [], []
    for part in parts:
        letter = part.get("part") if isinstance(part, Mapping) else None
        if not (isinstance(letter, str) and len(letter) == 1 and letter in PART_LETTERS):
            problems.append(Problem(rel, getattr(part, "line", line) or line, "FC110",
                                    f"a part of '{record.get('id')}' needs part: a capital letter A-H, not {letter!r}"))
            continue
        letters.append(letter)
        synthesized = Mapping(part)
        synthesized.lines = dict(part.lines)
        synthesized.line = part.line
        synthesized["id"] = f"{record.get('id')}-{letter}"
        synthesized["number"] = f"{record.get('number')}-{letter}"
        synthesized["parent"] = record.get("id")
        synthesized.lines["id"] = synthesized.lines["number"] = part.lines.get("part", part.line)
        for key in PART_INHERITED:
            if key in record:
                synthesized[key] = record[key]
        synthesized.setdefault("keywords", record.get("keywords"))
        result.append(synthesized)
    expected = list(PART_LETTERS[:len(letters)])
    if letters and letters != expected:
        problems.append(Problem(rel, line, "FC110", f"the parts of '{record.get('id')}' are lettered {''.join(letters)}, not {''.join(expected)}",
                                "letter them A, B, C … in the source's order, once each"))
    return result


def read_trees(raw: RawContent, paths: list[Path] | None = None) -> None:
    for path in paths if paths is not None else tree_files(raw.root):
        problems_before = len(raw.problems)
        data = _read(path, raw.root, raw.problems)
        if len(raw.problems) == problems_before:  # an empty file reads as None: kept, so check names it
            raw.trees.append((relpath(path, raw.root), data))


def _optional_section(raw: RawContent, relfile: str, key: str):
    """(the file's mapping, its `key` value) for an optional support file; (None, None) when absent or unreadable."""
    path = raw.root / relfile
    if not path.exists():
        return None, None
    data = _read(path, raw.root, raw.problems)
    if data is None:
        return None, None
    return data, (data.get(key) if isinstance(data, Mapping) else None)


def read_uncovered(raw: RawContent) -> None:
    data, items = _optional_section(raw, UNCOVERED_FILE, "uncovered")
    if data is None:
        return
    if not isinstance(items, list):
        raw.problems.append(Problem(UNCOVERED_FILE, 1, "FC222", "expected an `uncovered:` list of {id, reason}"))
        return
    for item in items:
        raw.uncovered.append((UNCOVERED_FILE, item))


def read_synonyms(raw: RawContent) -> None:
    data, table = _optional_section(raw, SYNONYMS_FILE, "synonyms")
    if data is None:
        return
    if not isinstance(table, dict):
        line = data.lines.get("synonyms", 1) if isinstance(data, Mapping) else 1
        raw.problems.append(Problem(SYNONYMS_FILE, line, "FC225", "synonyms must map each phrase to a replacement string",
                                    "e.g. oot: out of turn"))
        return
    bad = [key for key, value in table.items() if not (isinstance(value, str) and value.strip())]
    for key in bad:
        raw.problems.append(Problem(SYNONYMS_FILE, line_of(table, key), "FC225",
                                    f"synonym '{key}' must map to a replacement string, not {table[key]!r}",
                                    "quote it: YAML reads yes/no/on/off as booleans"))
    if bad:
        return
    from floorcall.core.textnorm import MAX_PHRASE, words

    for key in table:  # lookup reads phrases of at most MAX_PHRASE words: a longer key never matches
        size = len(words(str(key)))
        if size > MAX_PHRASE or size == 0:
            raw.problems.append(Problem(SYNONYMS_FILE, line_of(table, key), "FC236",
                                        f"synonym '{key}' has {size} words; lookup matches phrases of 1 to {MAX_PHRASE}, so it never applies",
                                        "shorten it to the words that carry the meaning"))
    raw.synonyms = dict(table)


def read_out_of_scope(raw: RawContent) -> None:
    data, items = _optional_section(raw, OUT_OF_SCOPE_FILE, "out_of_scope")
    if data is None:
        return
    if not (isinstance(items, list) and all(isinstance(i, str) and i.strip() for i in items)):
        line = data.lines.get("out_of_scope", 1) if isinstance(data, Mapping) else 1
        raw.problems.append(Problem(OUT_OF_SCOPE_FILE, line, "FC234", "out_of_scope must be a list of phrases (strings)",
                                    "quote words YAML reads as booleans or numbers"))
        return
    raw.out_of_scope = list(items)


def read_all(root: Path, tree_paths: list[Path] | None = None) -> RawContent:
    raw = RawContent(root=root)
    read_sources(root, raw)
    read_rules(raw)
    read_trees(raw, tree_paths)
    read_uncovered(raw)
    read_synonyms(raw)
    read_out_of_scope(raw)
    return raw
