"""Invented rules documents in the TDA's layout, written as PDF, Word .docx and text, for tests and the
README demo. Every word is made up here: no TDA text is in the repository (content law).

Two editions: `edition_2024()` and `edition_2026()`, where 2026 splits Rule 10 into 10 and 11, merges
2024's Rules 20 and 21 into 21, adds Rules 22 and 23, and so renumbers everything after (2024's 43 is
2026's 45, 47 is 49); 2024 Rule 44 changes one word; the parts of Rule 35 run over a page break;
every page carries a repeated footer and a page number. `write_pdf` draws text with a few lines of
PDF by hand (Helvetica, one content stream per page); `write_docx` writes the few parts Word needs.
"""

from __future__ import annotations

import random
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

FOOTER = "(c) Invented Rules Association: a test document, not the TDA's text."
PAGE_LINES = 46  # lines on one PDF page below the footer
LINE_CHARS = 88
PAGE_BREAK = "\f"  # inside a paragraph: the page turns there

SUBJECTS = ["The dealer", "A player", "The floor", "Each seat", "The marker holder", "A caller", "The table captain",
            "Any spectator", "The chip runner", "A late entrant", "The clock keeper", "The button holder"]
VERBS = ["places", "counts", "announces", "returns", "keeps", "moves", "shows", "stacks", "records", "passes",
         "checks", "collects"]
OBJECTS = ["the blue marker", "every spare token", "the lamp card", "two red discs", "the tally sheet",
           "the felt brush", "each loose token", "the spare deck box", "the gold stone", "the paper slip",
           "the silver bell", "the tin cup"]
CONDITIONS = ["before the round opens", "when the lamp turns green", "after the second bell", "unless the floor objects",
              "while the music plays", "once the tally is read", "if the captain agrees", "before any token moves",
              "when two seats are empty", "after the break ends", "as soon as the bell rings", "unless a stone is shown"]
ADJECTIVES = ["Blue", "Quiet", "Second", "Open", "Silver", "Late", "Folded", "Spare", "Golden", "Paper", "Round",
              "Narrow", "Early", "Hidden", "Marked", "Empty", "Loud", "Broken", "Upper", "Lower", "Shared", "Single",
              "Double", "Final", "Moving", "Loose", "Tall", "Short", "Bright", "Dim", "Outer", "Inner", "Slow",
              "Quick", "Even", "Odd", "Heavy", "Light", "Warm", "Cold", "Plain", "Lucky", "Honest", "Careful",
              "Patient", "Steady", "Simple", "Common"]
NOUNS = ["Markers", "Tokens", "Lamps", "Discs", "Tallies", "Brushes", "Stones", "Slips", "Bells", "Cups", "Seats",
         "Rounds"]
SECTIONS = ["General Ideas", "Seats and Tables", "Tokens and Markers", "Rounds and Bells"]


def sentence(rng: random.Random) -> str:
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(CONDITIONS)}."


def invented_text(seed: str, sentences: int = 3) -> str:
    rng = random.Random(seed)
    return " ".join(sentence(rng) for _ in range(sentences))


def invented_title(number: int) -> str:
    return f"{ADJECTIVES[number % len(ADJECTIVES)]} {NOUNS[(number * 5) % len(NOUNS)]}"


@dataclass
class Rule:
    number: str
    title: str
    section: str
    intro: str = ""
    parts: list[tuple[str, str]] = field(default_factory=list)  # (letter, text)


@dataclass
class Edition:
    year: str
    version: str
    date_text: str
    rules: list[Rule]
    procedures: list[Rule]
    addendum: list[tuple[str, str, list[str]]]  # (reference, heading, paragraphs)
    break_inside: set = field(default_factory=set)  # "35-B": that part runs over a page break


def _base_rules() -> dict[int, Rule]:
    """2024's invented Rules 1-47, by number."""
    rules = {}
    for number in range(1, 48):
        section = SECTIONS[min(3, (number - 1) // 12)]
        rules[number] = Rule(str(number), invented_title(number), section, intro=invented_text(f"rule-{number}"))
    rules[10] = Rule("10", "Moving Seats", SECTIONS[0], parts=[("A", invented_text("10-A")), ("B", invented_text("10-B", 4))])
    rules[35] = Rule("35", "Misdeals", SECTIONS[2], parts=[("A", invented_text("35-A")), ("B", invented_text("35-B", 6))])
    rules[43] = Rule("43", "Raise Amounts", SECTIONS[3], parts=[("A", invented_text("43-A")), ("B", invented_text("43-B"))])
    rules[44] = Rule("44", "Oversized Chip Betting", SECTIONS[3], intro=invented_text("44"))
    rules[47] = Rule("47", "Re-Opening the Bet", SECTIONS[3], intro=invented_text("47"))
    return rules


def _procedures() -> list[Rule]:
    return [Rule("RP-1", "Quiet Bells", "", intro=invented_text("rp-1")),
            Rule("RP-2", "Paper Slips", "", parts=[("A", invented_text("rp-2-a")), ("B", invented_text("rp-2-b"))]),
            Rule("RP-3", "Tin Cups", "", intro=invented_text("rp-3"))]


def edition_2024() -> Edition:
    rules = _base_rules()
    addendum = [("10", "Moving Seats, the two-step draw", [invented_text("ill-10"), "Example 1: " + invented_text("ill-10-1")]),
                ("35-B", "Misdeals, the redeal", ["Example 1: " + invented_text("ill-35-1"), "Example 2: " + invented_text("ill-35-2")]),
                ("44", "Oversized Chip Betting", ["Example 1: " + invented_text("ill-44-1")]),
                ("99", "A rule this document lacks", [invented_text("ill-99")])]
    return Edition("2024", "1.0", "Oct 9, 2024", [rules[n] for n in sorted(rules)], _procedures(), addendum, {"35-B"})


def edition_2026() -> Edition:
    """2024 with Rule 10 split in two, Rules 20 and 21 merged, two new rules after them, and one word changed in 44."""
    old = _base_rules()
    new: list[Rule] = []

    def keep(rule: Rule) -> None:
        new.append(Rule(str(len(new) + 1), rule.title, rule.section, rule.intro, list(rule.parts)))

    for number in range(1, 48):
        rule = old[number]
        if number == 10:  # split: part A stays Rule 10, part B becomes Rule 11
            new.append(Rule("10", "Moving Seats", rule.section, intro=rule.parts[0][1]))
            new.append(Rule("11", "Drawing New Seats", rule.section, intro=rule.parts[1][1]))
        elif number == 20:  # merged with 21 below
            continue
        elif number == 21:
            merged = old[20].intro + " " + old[21].intro
            new.append(Rule(str(len(new) + 1), f"{old[20].title} and {old[21].title}", rule.section, intro=merged))
            new.append(Rule(str(len(new) + 1), "Glass Tokens", rule.section, intro=invented_text("new-2026-a")))
            new.append(Rule(str(len(new) + 1), "Velvet Ropes", rule.section, intro=invented_text("new-2026-b")))
        elif number == 44:
            new.append(Rule(str(len(new) + 1), rule.title, rule.section, rule.intro.replace("The", "Every", 1)))
        else:
            keep(rule)
    return Edition("2026", "1.1", "Sep 21, 2026", new, _procedures(), [], {"37-B"})


# ---------------------------------------------------------------- the document as paragraphs

def paragraphs(edition: Edition) -> list[str]:
    """The document's paragraphs in order; '' between them is implied; PAGE_BREAK alone starts a page."""
    out = ["POKER TOURNAMENT DIRECTORS ASSN.", f"{edition.year} Rules Version {edition.version}. {edition.date_text}",
           "Longform Version Includes:", "Recommended Procedures and Illustration Addendum",
           "The Invented Rules Association writes these rules for tests. They are not the TDA's rules."]
    section = None
    for rule in edition.rules:
        if rule.section != section:
            section = rule.section
            out.append(section)
        out.append(f"{rule.number}: {rule.title}")
        if rule.intro:
            out.append(rule.intro)
        for letter, text in rule.parts:
            if f"{rule.number}-{letter}" in edition.break_inside:
                middle = len(text) // 2
                cut = text.index(" ", middle)
                text = text[:cut] + PAGE_BREAK + text[cut + 1:]
            out.append(f"{letter}: {text}")
    if edition.procedures:
        out += [PAGE_BREAK, "POKER TOURNAMENT DIRECTORS ASSN.", f"{edition.year} Recommended Procedures,",
                f"Version {edition.version}, {edition.date_text}", "Recommended Procedures are suggestions for tests."]
        for rule in edition.procedures:
            out.append(f"{rule.number}. {rule.title}")
            if rule.intro:
                out.append(rule.intro)
            out += [f"{letter}: {text}" for letter, text in rule.parts]
    if edition.addendum:
        out += [PAGE_BREAK, "POKER TOURNAMENT DIRECTORS ASSN.", f"Illustration Addendum {edition.year} Rules",
                f"Version {edition.version}, {edition.date_text}", "These examples are invented for tests."]
        for reference, heading, body in edition.addendum:
            out.append(f"Rule {reference}: {heading}.")
            out += body
    return out


def _wrap(text: str, width: int = LINE_CHARS) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=width, break_on_hyphens=False) or [""]


def pdf_pages(edition: Edition) -> list[list[str]]:
    """Lines per page as the PDF shows them: footer on top, page number at the bottom, a ' ' line between paragraphs."""
    pages: list[list[str]] = [[]]

    def turn():
        pages.append([])

    for paragraph in paragraphs(edition):
        if paragraph == PAGE_BREAK:
            turn()
            continue
        for index, piece in enumerate(paragraph.split(PAGE_BREAK)):
            if index:
                turn()
            for line in _wrap(piece):
                if len(pages[-1]) >= PAGE_LINES:
                    turn()
                pages[-1].append(line)
        pages[-1].append(" ")
    return [[FOOTER] + page + [f"Page {n}"] for n, page in enumerate(pages, 1)]


def pdf_bytes(pages: list[list[str]], encrypt_with: str | None = None) -> bytes:
    """A PDF of text lines, one content stream per page, Helvetica (WinAnsi): the few objects a PDF needs."""
    objects: list[bytes | None] = []

    def add(body: bytes | None) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    tree = add(None)
    kids = []
    for lines in pages:
        operators = ["BT /F1 10 Tf 12 TL 40 770 Td"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            operators.append(f"({escaped}) Tj T*")
        operators.append("ET")
        stream = "\n".join(operators).encode("cp1252")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> "
                        b"/Contents %d 0 R >>" % (tree, font, content)))
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + (body or b"") + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    if encrypt_with is None:
        return bytes(out)
    import io

    import pypdf

    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(bytes(out))))
    writer.encrypt(user_password=encrypt_with, algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def write_pdf(path: Path, edition: Edition) -> Path:
    path.write_bytes(pdf_bytes(pdf_pages(edition)))
    return path


W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                 '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                 '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                 '<Default Extension="xml" ContentType="application/xml"/>'
                 '<Override PartName="/word/document.xml" '
                 'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                 '<Override PartName="/word/footer1.xml" '
                 'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>')
PACKAGE_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
                'Target="word/document.xml"/></Relationships>')
DOCUMENT_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                 '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                 '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" '
                 'Target="footer1.xml"/></Relationships>')


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{_escape(text)}</w:t></w:r>'


def docx_bytes(edition: Edition) -> bytes:
    """A .docx: one paragraph per paragraph (a heading's tab first, as Word writes them), a page break
    run where a part runs over a page, the footer in its own part (never in the document text)."""
    body = []
    for paragraph in paragraphs(edition):
        if paragraph == PAGE_BREAK:
            body.append('<w:p><w:r><w:br w:type="page"/></w:r></w:p>')
            continue
        runs = '<w:r><w:br w:type="page"/></w:r>'.join(_run(piece) for piece in paragraph.split(PAGE_BREAK))
        body.append(f"<w:p><w:r><w:tab/></w:r>{runs}</w:p><w:p/>")
    body.append('<w:sectPr><w:footerReference w:type="default" r:id="rId9" '
                'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/></w:sectPr>')
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="{W_NS}"><w:body>'
                + "".join(body) + "</w:body></w:document>")
    footer = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:ftr xmlns:w="{W_NS}"><w:p>{_run(FOOTER)}</w:p></w:ftr>'
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", PACKAGE_RELS)
        archive.writestr("word/_rels/document.xml.rels", DOCUMENT_RELS)
        archive.writestr("word/document.xml", document)
        archive.writestr("word/footer1.xml", footer)
    return buffer.getvalue()


def write_docx(path: Path, edition: Edition) -> Path:
    path.write_bytes(docx_bytes(edition))
    return path


def write_txt(path: Path, edition: Edition) -> Path:
    """Plain text as pdftotext writes it: a form feed between pages."""
    path.write_text("\f".join("\n".join(page) for page in pdf_pages(edition)) + "\n", encoding="utf-8")
    return path
