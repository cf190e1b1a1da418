"""Editions of the TDA rules as data: a document's lines into an edition record set, one edition's
rules mapped to another's, the differences between two editions, and the corpus seen in another
edition's numbers.

Pure: lines in, plain JSON-able dicts out; no files, no clock, no printing. The readers are in
content/documents.py, the store in store/editions_store.py, the commands in commands/editions_cmd.py.

The TDA's layout, which every edition since 2013 keeps and this parser relies on:
- a title page with a line like "2024 Rules Version 1.0. Oct 9, 2024";
- section headings standing alone ("General Concepts"), each followed by a rule;
- rules numbered from 1 with no gaps ("43: Raise Amounts"), the title on the number's line;
- lettered parts opening a paragraph ("A: …" or "B. …"), in order, sometimes run over a page;
- after the rules, blocks that each open with a masthead ("POKER TOURNAMENT DIRECTORS ASSN.", a
  block title, a version line, an introduction): the Recommended Procedures ("RP-5. Prematurely
  Dealt Cards"), then the Illustration Addendum, whose entries open "Rule 45: …" or "Rule 53-B: …".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from floorcall.content.imported import EDITION_FORMAT, EDITION_KIND, edition_name
from floorcall.core.errors import FloorError, shown

__all__ = ["edition_name", "parse_edition", "map_rules", "diff_editions", "edition_view", "full_text_for"]
EXIT_BAD_DOCUMENT = 1
EXIT_NOT_IMPORTED = 1  # a missing import is a fact about this machine, not a mistyped command
DEFAULT_EDITION = "tda-2024"  # the edition Floorcall's own rulebook, rulings and ids are written in

RULE_HEADING = re.compile(r"^(\d{1,3})\s*:\s*(\S.*)$")
RP_HEADING = re.compile(r"^RP\s*-\s*(\d{1,3})\s*[:.]\s*(\S.*)$")
PART_MARK = re.compile(r"^([A-L])\s*[:.]\s+(\S.*)$")
ADDENDUM_ENTRY = re.compile(r"^Rule\s+(\d{1,3})(?:\s*-\s*([A-L]))?\s*:\s*(.*)$")
EXAMPLE_MARK = re.compile(r"^((?:Example|Situation)\s+\d+(?:\s*-\s*[A-Z])?)\b")
EDITION_LINE = re.compile(
    r"\b((?:19|20)\d{2})\s+(?:TDA\s+)?(Rules|Recommended\s+Procedures)\b[\s,.]*(?:Version|Vers\.?)\s*(\d+(?:\.\d+)*)[\s.,;:-]*(.*)$",
    re.I)
# The same with the year after the words ("TDA Rules 2026, Version 1.1, Sep 21, 2026"), should a later edition write it so.
EDITION_LINE_YEAR_AFTER = re.compile(
    r"\b(Rules|Recommended\s+Procedures)\s+((?:19|20)\d{2})\b[\s,.]*(?:Version|Vers\.?)\s*(\d+(?:\.\d+)*)[\s.,;:-]*(.*)$", re.I)
MASTHEAD = re.compile(r"(?i)^poker\s+tournament\s+directors\s+ass")
BLOCK_TITLE_PROCEDURES = re.compile(r"(?i)^(?:(?:19|20)\d{2}\s+)?(?:TDA\s+)?Recommended\s+Procedures\s*,?$")
BLOCK_TITLE_ADDENDUM = re.compile(r"(?i)^(?:(?:19|20)\d{2}\s+)?Illustration\s+Addendum(?:\s+(?:19|20)\d{2}(?:\s+Rules)?)?\s*,?$")
URL = re.compile(r"(?i)\bhttps?://|\bwww\.")
SENTENCE_END = tuple(".:;)!?\"”’")
# A title runs onto the next line when its line ends mid-phrase ("Countable," / "& Manageable").
TITLE_RUNS_ON = re.compile(r"(?i)(?:[,&/-]|\band|\bor|\bof|\bthe|\bwith)$")
MAX_TITLE_LINES = 3
MAX_TITLE_WORDS = 16
MAX_SECTION_CHARS = 70
NOT_SECTION_WORDS = frozenset({"See", "Per", "Ex", "Ex:", "Example", "Note", "Note:"})  # a rule's last line, not a heading
# Words a title leaves in lower case; every other word of a heading starts with a capital or digit.
SMALL_WORDS = frozenset("a an and the of in on at to for with or by from vs per as is not no into".split())
TITLE_CAPITALS_SHARE = 0.75
MONTHS = {m: n for n, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
    ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
    ("dec", "december")), 1) for m in names}


def bad(message: str) -> FloorError:
    return FloorError(message, EXIT_BAD_DOCUMENT)


# ---------------------------------------------------------------- parsing a document

def title_like(text: str) -> bool:
    """'Raise Amounts', 'Re-Opening the Bet.', 'Methods of Betting: Verbal and Chips' — not a sentence."""
    words = [w.lstrip("(“\"'‘[").rstrip(",.;:)”\"'’]") for w in text.split()]
    words = [w for w in words if w and w not in ("&", "/", "-", "–")]
    if not words or len(words) > MAX_TITLE_WORDS or len(text) > 100 or text.endswith(","):
        return False
    if not (words[0][0].isupper() or words[0][0].isdigit()):
        return False
    telling = [w for w in words[1:] if w.lower() not in SMALL_WORDS]
    capitals = sum(1 for w in telling if w[0].isupper() or w[0].isdigit())
    return not telling or capitals >= TITLE_CAPITALS_SHARE * len(telling)


def parse_date(text: str) -> str | None:
    """'Oct 9, 2024' / 'Sept 17, 2022' / '7 Sep 2026' / '2026-09-21' -> ISO date, else None."""
    text = text.strip().rstrip(".")
    iso = re.search(r"\b((?:19|20)\d{2})-(\d{1,2})-(\d{1,2})\b", text)
    if iso:
        year, month, day = (int(x) for x in iso.groups())
    else:
        us = re.search(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+((?:19|20)\d{2})\b", text)
        eu = re.search(r"\b(\d{1,2})\.?\s+([A-Za-z]{3,9})\.?,?\s+((?:19|20)\d{2})\b", text)
        if us and us.group(1).lower() in MONTHS:
            month, day, year = MONTHS[us.group(1).lower()], int(us.group(2)), int(us.group(3))
        elif eu and eu.group(2).lower() in MONTHS:
            day, month, year = int(eu.group(1)), MONTHS[eu.group(2).lower()], int(eu.group(3))
        else:
            return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def join_lines(lines: list[str]) -> str:
    """Lines of one paragraph as one string: a line broken after a hyphen ('re-' / 'entries') joins without a space."""
    out = ""
    for line in lines:
        if not out:
            out = line
        elif out.endswith("-") and len(out) > 1 and out[-2].isalnum() and line[:1].isalnum():
            out += line
        else:
            out += " " + line
    return out


@dataclass
class _Record:
    """A rule, a procedure or an addendum entry while its lines are read."""

    kind: str  # rule | procedure | addendum
    number: str
    title: str
    where: str
    page: int
    section: str = ""
    part: str = ""  # addendum entries: the part they illustrate
    lines: list = field(default_factory=list)  # (text or "" for a break, where) before the first part
    parts: list = field(default_factory=list)  # [letter, where, page, lines]


class _Parser:
    def __init__(self, lines) -> None:
        self.lines = list(lines)
        self.rules: list[_Record] = []
        self.procedures: list[_Record] = []
        self.addendum: list[_Record] = []
        self.unplaced: list[dict] = []
        self.title_lines: list = []
        self.state = "title"  # title | rules | front | procedures | addendum
        self.front: list = []  # lines after a masthead, until the next heading
        self.current: _Record | None = None
        self.section = ""
        self.skip = 0
        self.sections: list[str] = []

    # ---- helpers over the line list

    def _next_text(self, index: int):
        for line in self.lines[index + 1:]:
            if line.text:
                return line
        return None

    def _previous(self, index: int):
        return self.lines[index - 1] if index else None

    def _opens_paragraph(self, index: int) -> bool:
        """After a blank line, at the top of the document, or at a page's top after a finished sentence."""
        previous = self._previous(index)
        if previous is None or not previous.text:
            return True
        line = self.lines[index]
        return line.page != previous.page and previous.text.endswith(SENTENCE_END)

    def _may_open_heading(self, index: int) -> bool:
        """A heading may also follow a finished sentence directly (the 2022 short form drops some blank lines)."""
        previous = self._previous(index)
        return self._opens_paragraph(index) or previous.text.endswith(SENTENCE_END) or previous is self._heading_line

    _heading_line = None

    def _title_from(self, index: int, first: str) -> str:
        """The heading's title, taking in the lines it runs onto."""
        title = first
        taken = 0
        while taken < MAX_TITLE_LINES - 1 and index + 1 + taken < len(self.lines):
            following = self.lines[index + 1 + taken].text
            if not following or PART_MARK.match(following) or RULE_HEADING.match(following):
                break
            if not (TITLE_RUNS_ON.search(title) or following[:1] in "&/"):
                break
            title = join_lines([title, following])
            taken += 1
        self.skip = taken
        return title.strip()

    def _standalone(self, index: int) -> bool:
        following = self.lines[index + 1] if index + 1 < len(self.lines) else None
        return self._opens_paragraph(index) and (following is None or not following.text or following.page != self.lines[index].page)

    def _section_heading(self, index: int, text: str) -> bool:
        """A short title-cased line standing alone, followed by the next rule's heading."""
        if len(text) > MAX_SECTION_CHARS or text.endswith((".", ":")) or not title_like(text) or not self._standalone(index):
            return False
        if RULE_HEADING.match(text) or RP_HEADING.match(text) or PART_MARK.match(text) or MASTHEAD.match(text) \
                or text.split()[0] in NOT_SECTION_WORDS:
            return False
        following = self._next_text(index)
        match = RULE_HEADING.match(following.text) if following is not None else None
        return match is not None and int(match.group(1)) == len(self.rules) + 1

    # ---- records

    def _close(self) -> None:
        record = self.current
        self.current = None
        if record is None:
            return
        for chunk in [record.lines] + [part[3] for part in record.parts]:
            _drop_closing_notes(chunk, record, self.unplaced)

    def _open(self, record: _Record, index: int) -> None:
        self._close()
        self.current = record
        self._heading_line = self.lines[index + self.skip]
        {"rule": self.rules, "procedure": self.procedures, "addendum": self.addendum}[record.kind].append(record)

    def _add(self, line) -> None:
        record = self.current
        assert record is not None
        target = record.parts[-1][3] if record.parts else record.lines
        if line.text:
            target.append((line.text, line.where))
        elif target and target[-1][0]:
            target.append(("", line.where))

    # ---- the walk over the lines

    def run(self) -> None:
        index = 0
        while index < len(self.lines):
            self.skip = 0
            self._line(index)
            index += 1 + self.skip
        self._close()

    def _line(self, index: int) -> None:
        line = self.lines[index]
        text = line.text
        if not text:
            if self.current is not None and self.state in ("rules", "procedures", "addendum"):
                self._add(line)
            return
        opens = self._opens_paragraph(index)
        may_head = self._may_open_heading(index)
        # Blocks after the rules open with a masthead or a block title: not part of the rule before.
        previous = self._previous(index)
        after_masthead = previous is not None and previous.text and MASTHEAD.match(previous.text)
        if self.state != "title" and (opens or after_masthead) and (
                MASTHEAD.match(text) or BLOCK_TITLE_PROCEDURES.match(text) or BLOCK_TITLE_ADDENDUM.match(text)):
            if self.state != "front":
                self._close()
                self.state, self.front = "front", []
            self.front.append(line)
            return
        rule = RULE_HEADING.match(text)
        if rule and may_head and self.state in ("title", "rules", "front") and not (self.state == "front" and self.addendum):
            if self._rule_heading(index, int(rule.group(1)), rule.group(2)):
                return
        procedure = RP_HEADING.match(text)
        if procedure and may_head and self.state in ("rules", "front", "procedures", "title"):
            self._procedure_heading(index, int(procedure.group(1)), procedure.group(2))
            return
        entry = ADDENDUM_ENTRY.match(text)
        if entry and may_head and (self.state in ("front", "addendum") or (self.state == "procedures" and opens)):
            self.state = "addendum"
            record = _Record("addendum", entry.group(1), entry.group(3).strip(), line.where, line.page, part=entry.group(2) or "")
            self._open(record, index)
            if entry.group(3).strip():
                record.lines.append((entry.group(3).strip(), line.where))
            return
        if self.state == "title":
            if self._section_heading(index, text):
                self.section = text
                self.sections.append(text)
            else:
                self.title_lines.append(line)
            return
        if self.state == "front":
            self.front.append(line)
            return
        if self.state == "rules" and self._section_heading(index, text):
            self._close()
            self.section = text
            self.sections.append(text)
            return
        part = PART_MARK.match(text)
        if part and self.current is not None and self.current.kind != "addendum" and (may_head or self._heading_line is previous):
            if self._part(index, part.group(1), part.group(2)):
                return
        if self.current is not None:
            self._add(line)

    def _rule_heading(self, index: int, number: int, title: str) -> bool:
        line = self.lines[index]
        expected = len(self.rules) + 1
        if self.state == "front" and self.procedures:
            return False  # after the procedures "N: …" is an addendum list item, not a rule
        if number != expected:
            if not (title_like(title) and self._opens_paragraph(index)):
                return False
            last = f"Rule {expected - 1}" if expected > 1 else None
            if number > expected:
                missing = f"Rule {expected}" if number == expected + 1 else f"Rules {expected}-{number - 1}"
                after = f"follows {last}" if last else "is the first rule"
                raise bad(f"{missing} missing: Rule {number} ({shown(title, 40)}) {after} on {line.where} — "
                          "is a page missing, or the document cut?")
            raise bad(f"rules out of order: Rule {number} ({shown(title, 40)}) comes after {last} on {line.where}")
        if self.state == "front":
            self._report_front(f"before Rule {number}")
        self.state = "rules"
        self._open(_Record("rule", str(number), self._title_from(index, title), line.where, line.page, section=self.section), index)
        return True

    def _procedure_heading(self, index: int, number: int, title: str) -> None:
        line = self.lines[index]
        expected = len(self.procedures) + 1
        if number != expected:
            last = f"RP-{expected - 1}" if expected > 1 else None
            if number > expected:
                missing = f"RP-{expected}" if number == expected + 1 else f"RP-{expected} to RP-{number - 1}"
                after = f"follows {last}" if last else "is the first procedure"
                raise bad(f"{missing} missing: RP-{number} ({shown(title, 40)}) {after} on {line.where} — "
                          "is a page missing, or the document cut?")
            raise bad(f"procedures out of order: RP-{number} ({shown(title, 40)}) comes after {last} on {line.where}")
        self.state = "procedures"
        self._open(_Record("procedure", f"RP-{number}", self._title_from(index, title), line.where, line.page,
                           section="Recommended Procedures"), index)

    def _part(self, index: int, letter: str, rest: str) -> bool:
        record = self.current
        assert record is not None
        line = self.lines[index]
        expected = chr(ord("A") + len(record.parts))
        if letter == expected:
            record.parts.append([letter, line.where, line.page, [(rest, line.where)]])
            return True
        if not self._opens_paragraph(index) or not rest[:1].isupper():
            return False
        name = f"Rule {record.number}" if record.kind == "rule" else record.number
        seen = "".join(part[0] for part in record.parts) or "none"
        raise bad(f"{name}: part {letter} on {line.where} where part {expected} was due (parts so far: {seen}) — "
                  "parts out of order or missing")

    def _report_front(self, before: str) -> None:
        text = " ".join(line.text for line in self.front if not MASTHEAD.match(line.text))
        if text:
            self.unplaced.append({"where": self.front[0].where, "text": shown(text, 80),
                                  "reason": f"a masthead's lines in the middle of the rules, {before}"})
        self.front = []


def _drop_closing_notes(chunk: list, record: _Record, unplaced: list) -> None:
    """A paragraph with a web address after a rule ('see … at www.PokerTDA.com') is a note, not the rule."""
    paragraphs, current = [], []
    for text, where in chunk:
        if text:
            current.append((text, where))
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    kept = []
    for paragraph in paragraphs:
        words = join_lines([t for t, _w in paragraph])
        if URL.search(words):
            name = f"Rule {record.number}" if record.kind == "rule" else record.number
            unplaced.append({"where": paragraph[0][1], "text": shown(words, 80),
                             "reason": f"a note with a web address after {name}, left out of its text"})
        else:
            kept.append(paragraph)
    chunk[:] = [item for index, paragraph in enumerate(kept) for item in ([("", "")] if index else []) + paragraph]


def _text_of(chunk: list) -> str:
    paragraphs, current = [], []
    for text, _where in chunk:
        if text:
            current.append(text)
        elif current:
            paragraphs.append(join_lines(current))
            current = []
    if current:
        paragraphs.append(join_lines(current))
    return "\n\n".join(paragraphs)


def _edition_facts(title_lines: list, fallback_lines: list) -> dict:
    for line in list(title_lines) + list(fallback_lines):
        match = EDITION_LINE.search(line.text)
        swapped = None if match else EDITION_LINE_YEAR_AFTER.search(line.text)
        found = match.groups() if match else (swapped.group(2), swapped.group(1), swapped.group(3), swapped.group(4)) if swapped else None
        if found:
            year, kind, version, rest = found
            date_text = re.split(r"(?i)\blong\s*-?\s*form\b", rest)[0].strip(" .,;") if rest else ""
            return {"year": year, "version": version, "date": parse_date(date_text), "date_text": date_text,
                    "title_line": shown(line.text, 100), "where": line.where,
                    "what": "Recommended Procedures" if "proc" in kind.lower() else "Rules"}
    return {}


def _record_json(record: _Record) -> dict:
    out = {"number": record.number, "title": record.title.rstrip(" ."), "section": record.section,
           "page": record.page, "where": record.where}
    intro = _text_of(record.lines)
    if record.kind == "addendum":
        text = intro
        out = {"rule": record.number, "part": record.part, "heading": _heading_of(record.title), "text": text,
               "page": record.page, "where": record.where, "examples": _examples(record.lines)}
        return out
    parts = [{"part": letter, "text": _text_of(lines), "page": page, "where": where} for letter, where, page, lines in record.parts]
    pieces = ([intro] if intro else []) + [f"{p['part']}: {p['text']}" for p in parts]
    out["text"] = "\n\n".join(pieces)
    if parts:
        out["intro"] = intro
        out["parts"] = parts
    return out


def _heading_of(line: str) -> str:
    """An addendum entry's heading: its line up to the first full stop ('Breaking Tables, 2-Step Random Process')."""
    head = re.split(r"(?<=[a-z)])\.\s", line, maxsplit=1)[0]
    return head.rstrip(" .")


def _examples(chunk: list) -> list[str]:
    found, fresh = [], True
    for text, _where in chunk:
        if text and fresh:
            match = EXAMPLE_MARK.match(text)
            if match:
                found.append(" ".join(match.group(1).split()))
        fresh = not text
    return found


def parse_edition(lines, file_name: str = "") -> dict:
    """The edition record set of a TDA rules document's lines (content.documents.Line), or a FloorError
    (exit 1) naming what was wrong and where. The record is plain JSON; the store adds when and from where."""
    parser = _Parser(lines)
    parser.run()
    label = shown(file_name or "the document")
    if not parser.rules and not parser.procedures:
        pages = max((line.page for line in parser.lines), default=0)
        read = f" in its {pages} page{'s' if pages != 1 else ''}" if pages else ""
        raise bad(f"{label} is not a TDA rules document: no numbered rules (lines like '1: Floor Decisions'){read}")
    facts = _edition_facts(parser.title_lines, parser.lines[:60])
    if not facts:
        first = parser.lines[0].where if parser.lines else "page 1"
        raise bad(f"{label}: no edition on the title page ({first}): expected a line like '2024 Rules Version 1.0, Oct 9, 2024'")
    addendum = [_record_json(r) for r in parser.addendum]
    rules = [_record_json(r) for r in parser.rules]
    procedures = [_record_json(r) for r in parser.procedures]
    known = {r["number"]: {p["part"] for p in r.get("parts", [])} for r in rules}
    placed = []
    for entry in addendum:
        if entry["rule"] not in known or (entry["part"] and entry["part"] not in known[entry["rule"]]):
            name = f"Rule {entry['rule']}" + (f"-{entry['part']}" if entry["part"] else "")
            parser.unplaced.append({"where": entry["where"], "text": shown(f"{name}: {entry['heading']}", 80),
                                    "reason": f"an addendum entry for {name}, which this document does not have"})
        else:
            placed.append(entry)
    form = "long form" if procedures or addendum else "short form"
    return {
        "kind": EDITION_KIND,
        "format": EDITION_FORMAT,
        "source": f"tda-{facts['year']}",
        "year": facts["year"],
        "version": facts["version"],
        "date": facts["date"],
        "date_text": facts["date_text"],
        "what": facts["what"],
        "title_line": facts["title_line"],
        "form": form,
        "sections": list(dict.fromkeys(parser.sections)),
        "rules": rules,
        "procedures": procedures,
        "addendum": placed,
        "unplaced": sorted(parser.unplaced, key=lambda u: _where_key(u["where"])),
    }


def _where_key(where: str) -> tuple:
    kind, _, number = where.partition(" ")
    return (kind, int(number) if number.isdigit() else 0)


def counts(edition: dict) -> dict:
    """What an import found, for the summary line and `floor sources`."""
    rules, procedures = edition.get("rules", []), edition.get("procedures", [])
    return {
        "rules": len(rules), "parts": sum(len(r.get("parts", [])) for r in rules),
        "procedures": len(procedures), "procedure_parts": sum(len(r.get("parts", [])) for r in procedures),
        "addendum": len(edition.get("addendum", [])),
        "examples": sum(len(e.get("examples", [])) for e in edition.get("addendum", [])),
        "sections": len(edition.get("sections", [])), "unplaced": len(edition.get("unplaced", [])),
    }


# ---------------------------------------------------------------- mapping one edition's rules to another's

# A pair scores 0-100: title and text similarity, weighted so that a renamed rule with the same
# words still maps, and a rule keeping its title but rewritten still maps (with a lower score).
TITLE_WEIGHT = 0.4
TEXT_WEIGHT = 0.6
NEAR_POSITION_BONUS = 4.0  # rules keep their order between editions: a tie goes to the nearer one
NEAR_POSITIONS = 3
MIN_MAPPED_SCORE = 50.0  # below this two rules are different rules (measured: unrelated TDA rules score 10-40)
MIN_ANCHORED_SCORE = 25.0  # a rule in the same place between mapped neighbours, sharing a title word (2022 Rule 34 vs 2024 Rule 34: 29)
# A rule whose content words lie at least this much inside another edition's rule came out of it
# (a split) or went into it (a merge).
MIN_CONTAINED = 0.6
CONTAINED_RUN_WORDS = 4


def _comparable(record: dict) -> tuple[list[str], bool]:
    """(words, opening_only): a record marked `opening`, or a quote ending in '…', is the start of a longer text."""
    from floorcall.core.textnorm import words

    text = record.get("text") or ""
    opening = bool(record.get("opening")) or text.rstrip().endswith(("…", "..."))
    return words(text.rstrip(" .…")), opening


def _text_score(a: dict, b: dict, words_of=None) -> float | None:
    from rapidfuzz.distance import Indel

    wa, opening_a = (words_of or _comparable)(a)
    wb, opening_b = (words_of or _comparable)(b)
    if not wa or not wb:
        return None
    # An opening-only quote is compared with as many words of the other text: an exact opening scores 100.
    if opening_a:
        wb = wb[: len(wa)]
    if opening_b:
        wa = wa[: len(wb)]
    return 100.0 * Indel.normalized_similarity(wa, wb)


def _word_numbers() -> Callable[[dict], tuple[list[int], bool]]:
    """_comparable with words as small integers: rapidfuzz compares integer lists ~10x faster than lists of str."""
    vocabulary: dict[str, int] = {}
    memo: dict = {}

    def words_of(record):
        key = (record.get("text"), bool(record.get("opening")))
        if key not in memo:
            found, opening = _comparable(record)
            memo[key] = ([vocabulary.setdefault(w, len(vocabulary)) for w in found], opening)
        return memo[key]

    return words_of


def _title_score(a: dict, b: dict) -> float:
    from rapidfuzz import fuzz, utils

    return float(fuzz.token_sort_ratio(a.get("title", ""), b.get("title", ""), processor=utils.default_process))


def contained(inner: dict, outer: dict) -> float:
    """How much of `inner`'s text appears in `outer`, word for word: the share of its runs of
    CONTAINED_RUN_WORDS words found in `outer` (1.0 when moved there whole). Runs, not single
    words: any long rule holds most of the common words of a short one."""
    from floorcall.core.textnorm import words

    a, b = words(inner.get("text") or ""), words(outer.get("text") or "")
    size = CONTAINED_RUN_WORDS
    if len(a) < size:
        return 0.0
    runs_b = {tuple(b[k:k + size]) for k in range(len(b) - size + 1)}
    runs_a = [tuple(a[k:k + size]) for k in range(len(a) - size + 1)]
    return sum(1 for run in runs_a if run in runs_b) / len(runs_a)


def pair_score(a: dict, b: dict, words_of=None) -> tuple[float, float, float | None]:
    """(score, title score, text score or None when either side has no text)."""
    title = _title_score(a, b)
    text = _text_score(a, b, words_of)
    score = title if text is None else TITLE_WEIGHT * title + TEXT_WEIGHT * text
    return score, title, text


def _kind(number: str) -> str:
    return "procedure" if str(number).startswith("RP") else "rule"


def map_rules(old: list[dict], new: list[dict]) -> dict:
    """Which of `new`'s rules each of `old`'s became: pairs with a score, splits, merges, added, removed.

    Rules map to rules and procedures to procedures. Pairs are taken best score first, each rule
    once; then a rule left over in `new` whose words lie inside a mapped `old` rule was split from
    it, and one left over in `old` whose words lie inside a mapped `new` rule was merged into it.
    `changed` is None where either text is only an opening (Floorcall's own quotes of 2024)."""
    result: dict = {"pairs": [], "split": [], "merged": [], "added": [], "removed": [], "not_compared": []}
    words_of = _word_numbers()
    for kind in ("rule", "procedure"):
        olds = [r for r in old if _kind(r["number"]) == kind]
        news = [r for r in new if _kind(r["number"]) == kind]
        if olds and news:
            _map_kind(olds, news, words_of, result)
        elif olds or news:
            result["not_compared"].append(kind)  # a short form has no procedures: they are not "added" or "removed"
    order = {r["number"]: n for n, r in enumerate(old)}
    result["pairs"].sort(key=lambda p: order.get(p["old"], 0))
    return result


def _map_kind(olds: list[dict], news: list[dict], words_of, result: dict) -> None:
    candidates = []
    for i, a in enumerate(olds):
        for j, b in enumerate(news):
            score, title, text = pair_score(a, b, words_of)
            if abs(i - j) <= NEAR_POSITIONS:
                score = min(100.0, score + NEAR_POSITION_BONUS * (1 - abs(i - j) / (NEAR_POSITIONS + 1)))
            if score >= MIN_MAPPED_SCORE:
                candidates.append((score, -abs(i - j), i, j, title, text))
    candidates.sort(reverse=True)
    old_to: dict[int, int] = {}
    new_to: dict[int, int] = {}

    def take(i, j, score, title, text, anchored=False):
        old_to[i], new_to[j] = j, i
        a, b = olds[i], news[j]
        opening = words_of(a)[1] or words_of(b)[1]
        result["pairs"].append({
            "old": a["number"], "new": b["number"], "score": round(score, 1), "title_score": round(title, 1),
            "text_score": None if text is None else round(text, 1), "renumbered": a["number"] != b["number"],
            "retitled": _plain(a.get("title")) != _plain(b.get("title")),
            "changed": None if opening or text is None else _plain(a.get("text")) != _plain(b.get("text")),
            **({"anchored": True} if anchored else {})})

    for score, _near, i, j, title, text in candidates:
        if i not in old_to and j not in new_to:
            take(i, j, score, title, text)
    # A rule left alone between two mapped neighbours, facing one left alone in the same place,
    # is that rule rewritten (2022's "Button in Heads-up" is 2024's "Button Placement and Movement").
    for i in range(len(olds)):
        if i in old_to:
            continue
        before = old_to.get(i - 1, -1) + 1 if i else 0
        after = old_to.get(i + 1, len(news) + 1) - 1 if i + 1 < len(olds) else len(news) - 1
        if before == after and 0 <= before < len(news) and before not in new_to:
            score, title, text = pair_score(olds[i], news[before], words_of)
            if score >= MIN_ANCHORED_SCORE:
                take(i, before, score, title, text, anchored=True)
    splits: dict[str, list[str]] = {}
    for j, b in enumerate(news):
        if j in new_to:
            continue
        best = max(((contained(b, olds[i]), i) for i in old_to), default=(0.0, -1))
        if best[0] >= MIN_CONTAINED:
            splits.setdefault(olds[best[1]]["number"], [news[old_to[best[1]]]["number"]]).append(b["number"])
        else:
            result["added"].append(b["number"])
    result["split"] += [{"old": number, "new": parts} for number, parts in splits.items()]
    merges: dict[str, list[str]] = {}
    for i, a in enumerate(olds):
        if i in old_to:
            continue
        best = max(((contained(a, news[j]), j) for j in new_to), default=(0.0, -1))
        if best[0] >= MIN_CONTAINED:
            merges.setdefault(news[best[1]]["number"], [olds[new_to[best[1]]]["number"]]).append(a["number"])
        else:
            result["removed"].append(a["number"])
    result["merged"] += [{"old": numbers, "new": number} for number, numbers in merges.items()]


def _plain(text) -> str:
    """Text compared for change: quotes and dashes of one kind, spacing collapsed."""
    table = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
    return " ".join(str(text or "").translate(table).split()).rstrip(" .")


def mapping_counts(mapping: dict) -> dict:
    pairs = mapping["pairs"]
    return {"mapped": len(pairs), "renumbered": sum(1 for p in pairs if p["renumbered"]),
            "changed": sum(1 for p in pairs if p["changed"]), "unchanged": sum(1 for p in pairs if p["changed"] is False),
            "split": len(mapping["split"]), "merged": len(mapping["merged"]),
            "added": len(mapping["added"]), "removed": len(mapping["removed"]),
            "unmapped": len(mapping["added"]) + len(mapping["removed"])}


# ---------------------------------------------------------------- what changed between two editions

DIFF_CONTEXT_WORDS = 6  # words kept either side of a change, so staff see where it is
SHORT_PART_WORDS = 40  # a part this short is shown whole, with its changes marked


def word_diff(old: str, new: str, context: int = DIFF_CONTEXT_WORDS) -> str:
    """The words that changed, marked like git's word diff: '… the player [-may-] {+must+} act …'."""
    import difflib

    a, b = str(old or "").split(), str(new or "").split()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    whole = max(len(a), len(b)) <= SHORT_PART_WORDS
    pieces: list[str] = []
    codes = matcher.get_opcodes()
    for position, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag == "equal":
            run = a[i1:i2]
            first, last = position == 0, position == len(codes) - 1
            if whole or len(run) <= 2 * context:
                keep = run
                if not whole and first and len(run) > context:
                    keep = ["…"] + run[-context:]
                elif not whole and last and len(run) > context:
                    keep = run[:context] + ["…"]
            else:
                keep = ([] if first else run[:context]) + ["…"] + ([] if last else run[-context:])
            pieces += keep
            continue
        if i2 > i1:
            pieces.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            pieces.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(pieces)


def _parts_of(rule: dict) -> list[tuple[str, str]]:
    """(letter or '', text) for the rule's introduction and each lettered part."""
    parts = rule.get("parts") or []
    if not parts:
        return [("", rule.get("text") or "")]
    intro = rule.get("intro") or ""
    return ([("", intro)] if intro else []) + [(p["part"], p["text"]) for p in parts]


def _align_parts(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> list[tuple[tuple[str, str] | None, tuple[str, str] | None]]:
    """Parts of two versions of a rule side by side: by letter when both have the same letters, else in order of similarity."""
    if [x for x, _ in a] == [y for y, _ in b]:
        return list(zip(a, b, strict=True))
    from rapidfuzz import fuzz

    scored = sorted(((fuzz.ratio(ta, tb), i, j) for i, (_x, ta) in enumerate(a) for j, (_y, tb) in enumerate(b)), reverse=True)
    taken_a, taken_b, pairs = set(), set(), []
    for score, i, j in scored:
        if i in taken_a or j in taken_b or score < MIN_MAPPED_SCORE:
            continue
        taken_a.add(i)
        taken_b.add(j)
        pairs.append((i, j))
    aligned: list = [(a[i], b[j]) for i, j in sorted(pairs)]
    aligned += [(a[i], None) for i in range(len(a)) if i not in taken_a]
    aligned += [(None, b[j]) for j in range(len(b)) if j not in taken_b]
    return aligned


def _unlettered(text: str) -> str:
    """A rule's text without its part letters ('A: …'), to compare it with its pieces in another edition."""
    return re.sub(r"(?m)^[A-L]: ", "", text)


def diff_editions(a: dict, b: dict, mapping: dict | None = None) -> dict:
    """What changed from edition `a` to edition `b` (compiled editions: {"rules": {number: record}, …}):
    renumbered, changed (a word diff per part), added, removed, split and merged rules."""
    a_rules, b_rules = a["rules"], b["rules"]
    mapping = mapping or map_rules(list(a_rules.values()), list(b_rules.values()))
    renumbered, changed, unchanged, not_comparable = [], [], 0, 0
    # A split or merged rule is compared with all its pieces together: what moved is not what changed.
    split_into = {s["old"]: s["new"][1:] for s in mapping["split"]}
    merged_from = {m["new"]: m["old"][1:] for m in mapping["merged"]}
    for pair in mapping["pairs"]:
        old, new = a_rules[pair["old"]], b_rules[pair["new"]]
        entry = {"a": pair["old"], "b": pair["new"], "a_title": old["title"], "b_title": new["title"], "score": pair["score"],
                 **({"anchored": True} if pair.get("anchored") else {})}
        if pair["renumbered"]:
            renumbered.append(entry)
        if pair["changed"] is None:
            not_comparable += 1
            continue
        pieces_a, pieces_b = merged_from.get(pair["new"], []), split_into.get(pair["old"], [])
        if pieces_a or pieces_b:
            whole_a = "\n\n".join([old["text"]] + [a_rules[n]["text"] for n in pieces_a])
            whole_b = "\n\n".join([new["text"]] + [b_rules[n]["text"] for n in pieces_b])
            if _plain(_unlettered(whole_a)) != _plain(_unlettered(whole_b)):
                changed.append(dict(entry, parts=[{"a": None, "b": None, "diff": word_diff(_unlettered(whole_a), _unlettered(whole_b))}]))
            else:
                unchanged += 1
            continue
        if not pair["changed"] and not pair["retitled"]:
            unchanged += 1
            continue
        parts = []
        for left, right in _align_parts(_parts_of(old), _parts_of(new)):
            if left and right and _plain(left[1]) == _plain(right[1]):
                continue
            parts.append({"a": left[0] if left else None, "b": right[0] if right else None,
                          "diff": word_diff(left[1] if left else "", right[1] if right else "")})
        changed.append(dict(entry, parts=parts))
    titled = {"a": {n: r["title"] for n, r in a_rules.items()}, "b": {n: r["title"] for n, r in b_rules.items()}}
    return {
        "renumbered": renumbered, "changed": changed, "unchanged": unchanged, "not_comparable": not_comparable,
        "added": [{"b": n, "title": titled["b"][n]} for n in mapping["added"]],
        "removed": [{"a": n, "title": titled["a"][n]} for n in mapping["removed"]],
        "split": [{"a": s["old"], "b": s["new"], "a_title": titled["a"][s["old"]]} for s in mapping["split"]],
        "merged": [{"a": m["old"], "b": m["new"], "b_title": titled["b"][m["new"]]} for m in mapping["merged"]],
        "not_compared": mapping.get("not_compared", []),
    }


# ---------------------------------------------------------------- the corpus in another edition's numbers

_LINKS: dict = {}  # (edition, its file, the 2024 side) -> link: mapping costs ~0.1 s, once per process


def default_side(corpus: dict) -> tuple[list[dict], str]:
    """The 2024 records an edition is mapped to: the user's imported 2024 copy when there is one,
    else Floorcall's own 2024 records (titles and opening sentences)."""
    imported = (corpus.get("editions") or {}).get(DEFAULT_EDITION)
    if imported:
        return list(imported["rules"].values()), "your TDA 2024 copy"
    records = [{"number": r["number"], "title": r["title"], "text": r.get("text") if r.get("quote") != "none" else None,
                "opening": r.get("quote") == "opening"}
               for r in corpus["rules"].values() if r["source"] == DEFAULT_EDITION and not r.get("parent")]
    return records, "Floorcall's TDA 2024 records (titles and opening sentences)"


def edition_link(corpus: dict, source: str) -> dict:
    """How an imported edition's rules and TDA 2024's correspond, both ways, with the mapping behind it."""
    edition = corpus["editions"][source]
    default, basis = default_side(corpus)
    imported_default = (corpus.get("editions") or {}).get(DEFAULT_EDITION) or {}
    key = (corpus.get("root"), source, edition.get("file", {}).get("sha256"), imported_default.get("file", {}).get("sha256"),
           tuple((r["number"], r["title"]) for r in default))
    if key in _LINKS:
        return _LINKS[key]
    theirs = list(edition["rules"].values())
    older = int(edition["year"]) < int(DEFAULT_EDITION.split("-")[1])
    mapping = map_rules(theirs, default) if older else map_rules(default, theirs)
    to_default: dict[str, dict] = {}
    to_edition: dict[str, list[str]] = {}
    for pair in mapping["pairs"]:
        mine, ours = (pair["old"], pair["new"]) if older else (pair["new"], pair["old"])
        to_default[mine] = {"number": ours, "score": pair["score"], "kind": "renumbered" if pair["renumbered"] else "same number",
                            **({"anchored": True} if pair.get("anchored") else {})}
        to_edition.setdefault(ours, []).append(mine)
    for split in mapping["split"]:
        whole, pieces = split["old"], split["new"]
        if older:  # an older rule split in 2024: each 2024 piece has the older rule as its counterpart
            for piece in pieces[1:]:
                to_edition.setdefault(piece, []).append(whole)
        else:  # a 2024 rule split in the edition: it has several counterparts
            for piece in pieces[1:]:
                to_default[piece] = {"number": whole, "score": None, "kind": f"split from 2024 Rule {whole}"}
                to_edition.setdefault(whole, []).append(piece)
    for merge in mapping["merged"]:
        pieces, whole = merge["old"], merge["new"]
        if older:
            for piece in pieces[1:]:
                to_default[piece] = {"number": whole, "score": None, "kind": f"merged into 2024 Rule {whole}"}
                to_edition.setdefault(whole, []).append(piece)
        else:
            for piece in pieces[1:]:
                to_edition.setdefault(piece, []).append(whole)
    link = {"mapping": mapping, "to_default": to_default, "to_edition": to_edition, "basis": basis, "older": older}
    _LINKS[key] = link
    return link


def full_text_for(rule: dict | None) -> dict | None:
    """The full words of a rule or part (a corpus rule record) from the user's imported copy, or None
    (nothing imported, or the copy lacks it). The one accessor the terminal, the site and the quiz use:
    {text, parts?, addendum?, edition, version, date, file, where, number, title}; in an edition view
    (`--edition 2026`) the words are that edition's. Its label: core.labels.full_text_label."""
    return (rule or {}).get("full_text")


def _number_label(number: str) -> str:
    return number if number.startswith("RP") else f"Rule {number}"


def edition_label(year: str, number: str, counterpart: str, more: list[str] | None = None) -> str:
    """'TDA 2026 Rule 45 (2024: 43)', 'TDA 2026 RP-7 (2024: RP-5)'."""
    also = f"; also {', '.join(_number_label(m) for m in more)}" if more else ""
    return f"TDA {year} {_number_label(number)} (2024: {counterpart}{also})"


def _split_number(rule: dict, rules: dict) -> tuple[str, str]:
    """(the rule's number, its part letter or '') for a rule or a part record."""
    if rule.get("parent") and rule["parent"] in rules:
        return rules[rule["parent"]]["number"], rule.get("part") or ""
    return rule["number"], ""


PROSE_REFERENCE = re.compile(
    r"(?<!2019 )(?<!2007 )(?<!No\. )\b(?:(TDA(?: 2024)?) )?(Rules?) (\d{1,2}(?:-[A-H])?(?:(?:, | and | or |/)\d{1,2}(?:-[A-H])?)*)\b")
PROSE_PROCEDURE = re.compile(r"(?<!2019 )\b(RP-\d{1,2})(-[A-H])?\b")


def renumber_prose(text: str, to_edition: dict, year: str) -> str:
    """Our own words with TDA 2024 rule numbers given in the edition's numbers too:
    'see Rule 43' -> 'see Rule 45 (2024: 43)'. A number the edition keeps is left as it is."""
    if not text or not to_edition:
        return text

    def one(number: str) -> str:
        base, _, letter = number.partition("-")
        targets = to_edition.get(base)
        if targets is None:
            return f"{number} (2024; not in TDA {year})"
        if targets[0] == base:
            return number
        return f"{targets[0]}{'-' + letter if letter else ''} (2024: {number})"

    def rules(match: re.Match) -> str:
        numbers = re.split(r"(, | and | or |/)", match.group(3))
        rewritten = "".join(piece if index % 2 else one(piece) for index, piece in enumerate(numbers))
        if rewritten == match.group(3):
            return match.group(0)
        prefix = f"TDA {year} " if match.group(1) else ""
        return f"{prefix}{match.group(2)} {rewritten}"

    def procedures(match: re.Match) -> str:
        targets = to_edition.get(match.group(1))
        if targets is None:
            return f"{match.group(0)} (2024; not in TDA {year})"
        if targets[0] == match.group(1):
            return match.group(0)
        return f"{targets[0]}{match.group(2) or ''} (2024: {match.group(0)})"

    return PROSE_PROCEDURE.sub(procedures, PROSE_REFERENCE.sub(rules, text))


# Fields in our own words that may name TDA 2024 rule numbers; quotes of the rulebooks are never touched.
OUTCOME_PROSE = ("ruling", "why", "house")
TDA_PROSE = ("ruling", "why")
UNRENUMBERED_SOURCES = ("tda-2019", "wpa")  # their summaries speak of other editions' numbers


def edition_view(corpus: dict, source: str) -> dict:
    """The corpus as a director holding edition `source` reads it: every TDA 2024 citation labelled
    in that edition's numbers with the 2024 number beside it ("TDA 2026 Rule 45 (2024: 43)"), the
    edition's own title and full words from the user's copy, and 2024 numbers in our own words
    renumbered. Ids never change: `tda-2024:43` is still the rule's id."""
    from floorcall.content.imported import full_text_record

    if source == DEFAULT_EDITION:
        return corpus
    edition = corpus["editions"][source]
    link = edition_link(corpus, source)
    year = edition["year"]
    to_edition = dict(link["to_edition"])
    # A short form has no procedures: 2024's RP-5 is then simply 2024's, not "gone" from that edition.
    kept = {"procedure"} & set(link["mapping"].get("not_compared", []))
    if kept:
        to_edition.update({r["number"]: [r["number"]] for r in corpus["rules"].values()
                           if r["source"] == DEFAULT_EDITION and r["number"].startswith("RP") and not r.get("parent")})
    rules = {}
    for rid, rule in corpus["rules"].items():
        copy = dict(rule)
        if rule["source"] not in UNRENUMBERED_SOURCES and rule.get("summary"):
            copy["summary"] = renumber_prose(rule["summary"], to_edition, year)
        if rule["source"] == DEFAULT_EDITION:
            number, letter = _split_number(rule, corpus["rules"])
            if kept and number.startswith("RP"):
                rules[rid] = copy
                continue
            targets = to_edition.get(number)
            if targets:
                first = targets[0]
                theirs = edition["rules"][first]
                has_letter = letter and any(p["part"] == letter for p in theirs.get("parts") or [])
                shown_number = f"{first}-{letter}" if has_letter else first
                copy["edition_label"] = edition_label(year, shown_number, rule["number"], targets[1:])
                copy["title"] = theirs["title"]
                full = full_text_record(edition, first, letter if has_letter else "")
                if full:
                    copy["full_text"] = full
                copy["edition"] = {"source": source, "number": shown_number, "counterpart": rule["number"],
                                   "also": targets[1:], "score": link["to_default"].get(first, {}).get("score")}
            else:
                copy["edition_label"] = f"TDA 2024 {_number_label(rule['number'])} (not in TDA {year})"
                copy["edition"] = {"source": source, "number": None, "counterpart": rule["number"]}
        rules[rid] = copy
    situations = {sid: _renumbered_situation(s, to_edition, year) for sid, s in corpus["situations"].items()}
    return {**corpus, "rules": rules, "situations": situations, "edition": source}


def _renumbered_situation(situation: dict, to_edition: dict, year: str) -> dict:
    outcomes = {}
    for oid, outcome in situation.get("outcomes", {}).items():
        copy = dict(outcome)
        for key in OUTCOME_PROSE:
            if isinstance(copy.get(key), str):
                copy[key] = renumber_prose(copy[key], to_edition, year)
        if isinstance(copy.get("tda"), dict):
            copy["tda"] = dict(copy["tda"], **{k: renumber_prose(copy["tda"][k], to_edition, year)
                                                for k in TDA_PROSE if isinstance(copy["tda"].get(k), str)})
        outcomes[oid] = copy
    questions = {qid: dict(q, help=renumber_prose(q["help"], to_edition, year)) if isinstance(q.get("help"), str) else q
                 for qid, q in (situation.get("questions") or {}).items()}
    return dict(situation, outcomes=outcomes, questions=questions)


def resolve_edition(corpus: dict, name: str) -> str:
    """'2026', 'tda-2026', 'TDA 2026' -> 'tda-2026' when that edition is imported (or is 2024), else FloorError."""
    key = " ".join(str(name).lower().split()).replace(" ", "-").replace("tda2", "tda-2")
    match = re.fullmatch(r"(?:tda-?)?((?:19|20)\d{2})", key)
    source = f"tda-{match.group(1)}" if match else None
    imported = sorted(corpus.get("editions") or {})
    if source is not None and (source == DEFAULT_EDITION or source in imported):
        return source
    others = ", ".join(s for s in imported if s != DEFAULT_EDITION) or "none"
    if source is None:
        raise FloorError(f"--edition takes a year like 2026, not '{shown(name)}' — imported editions: {others}")
    raise FloorError(f"TDA {source[4:]} is not imported — run `floor import FILE` with the TDA's {source[4:]} PDF or Word file "
                     f"(imported editions: {others})", EXIT_NOT_IMPORTED)


EDITION_RULE = re.compile(r"(?i)^\s*(?:tda[\s-]*)?((?:19|20)\d{2})\s*[:\s]\s*(?:rule\s*)?(rp\s*-?\s*\d{1,3}|\d{1,3})(?:\s*-?\s*([a-l]))?\s*$")


def edition_rule_reference(corpus: dict, text: str) -> tuple[str, str, str] | None:
    """(edition source, rule number, part letter) when `text` names a rule of an imported edition
    other than 2024 ('tda-2026:45', '2026 45', 'tda 2026 rp-7'), else None."""
    match = EDITION_RULE.match(text)
    if not match:
        return None
    source = f"tda-{match.group(1)}"
    edition = (corpus.get("editions") or {}).get(source)
    if edition is None or source == DEFAULT_EDITION:
        return None
    raw = match.group(2).upper().replace(" ", "")
    number = f"RP-{int(raw.lstrip('RP-'))}" if raw.startswith("RP") else str(int(raw))
    letter = (match.group(3) or "").upper()
    if f"{source}:{number}" in corpus["rules"]:
        return None  # Floorcall's own record of that edition (tda-2019's procedures) comes first, with the copy's words
    if number not in edition["rules"]:
        known = list(edition["rules"])
        raise FloorError(f"TDA {match.group(1)} has no {_number_label(number)} — your copy has Rules 1-"
                         f"{max((int(n) for n in known if n.isdigit()), default=0)}"
                         + (f" and RP-1 to RP-{sum(1 for n in known if n.startswith('RP'))}" if any(n.startswith("RP") for n in known) else ""))
    if letter and not any(p["part"] == letter for p in edition["rules"][number].get("parts") or []):
        raise FloorError(f"TDA {match.group(1)} {_number_label(number)} has no part {letter}")
    return source, number, letter
