"""Reading a rules document as published (PDF, Word .docx or plain text) into lines with their page.

The edition parser (engines/editions.py) never sees a file: it gets `Line`s, a blank one marking a
paragraph break, each knowing where it is ("page 3", or "paragraph 212" in a Word file that kept no
page breaks). Page furniture is dropped here: the copyright line the TDA repeats on every page and
bare page numbers. Every failure is one FloorError line (exit 1) saying what was wrong and where.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from floorcall.core.errors import FloorError, shown

EXIT_BAD_DOCUMENT = 1
# The TDA's own files are 60-400 KB. Past this size a file is a scan or not a rules document at
# all, and reading it would only cost memory: it is refused by its size, before a byte is read.
MAX_DOCUMENT_BYTES = 20_000_000
# A .docx is a zip: its text part inflated past this is a zip bomb, not a rulebook (the TDA's is ~0.9 MB).
MAX_DOCX_XML_BYTES = 50_000_000
MAX_PDF_PAGES = 500  # the long-form has 22 pages
DOCX_TEXT_PART = "word/document.xml"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# A line repeated at the top or bottom of most pages is page furniture (the TDA's copyright line).
FURNITURE_EDGE_LINES = 2
FURNITURE_MIN_PAGES = 3
FURNITURE_SHARE = 0.5
PAGE_NUMBER = re.compile(r"(?i)^(page\s*)?\d{1,3}(\s*(of|/)\s*\d{1,3})?$")
# Never furniture, however often it repeats: the masthead that opens each block of the document.
MASTHEAD = re.compile(r"(?i)^poker\s+tournament\s+directors\s+ass")
STRAY_MARK_CHARS = 3
SHORT_LINE_SHARE = 0.7  # of the page's widest line
SENTENCE_END = tuple(".:;!?\"”)")
LIST_ITEM = re.compile(r"^[ \t\u00a0]{2,}(?:\d{1,2}[.)]|[•·▪◦-])\s")
# Spaces Word and PDF writers use that are not plain spaces.
ODD_SPACES = dict.fromkeys(map(ord, "\u00a0\u2002\u2003\u2007\u2009\u200a\u202f\u3000\t\r\v"), " ")
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


@dataclass(frozen=True)
class Line:
    text: str  # "" marks a paragraph break
    page: int  # 1-based; 0 where the file keeps no pages
    where: str  # "page 3" or "paragraph 212": what a message names


@dataclass
class Document:
    name: str  # the file's name, as it is shown beside the words quoted from it
    kind: str  # pdf | docx | txt
    lines: list[Line]
    pages: int  # 0 when the format keeps no pages
    size: int
    sha256: str
    furniture: list[str] = field(default_factory=list)  # repeated lines dropped (the copyright footer)


def bad(message: str) -> FloorError:
    return FloorError(message, EXIT_BAD_DOCUMENT)


def clean(text: str) -> str:
    """One line of text with odd spaces made plain, invisible characters dropped, runs of spaces collapsed."""
    text = unicodedata.normalize("NFC", text.translate(ODD_SPACES).translate(INVISIBLE))
    return " ".join(text.split())


def read_document(path: str | os.PathLike) -> Document:
    """The lines of a rules document; its kind by content (a PDF or zip signature), else by extension."""
    path = Path(path)
    label = shown(path.name)
    try:
        if path.is_dir():
            raise bad(f"{label} is a folder — give the PDF, .docx or .txt file of the rules")
        size = path.stat().st_size
    except FileNotFoundError:
        raise bad(f"no such file: {shown(path)}") from None
    except OSError as exc:
        raise bad(f"cannot read {label}: {exc.strerror}") from None
    if size > MAX_DOCUMENT_BYTES:
        raise bad(f"{label} is {size / 1_000_000:.0f} MB — a TDA rules document is under 1 MB; "
                  f"nothing over {MAX_DOCUMENT_BYTES // 1_000_000} MB is read")
    if size == 0:
        raise bad(f"{label} is empty — give the TDA's PDF, Word (.docx) or text file of the rules")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise bad(f"cannot read {label}: {exc.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()
    suffix = path.suffix.lower()
    if data.startswith(b"%PDF-") or (suffix == ".pdf" and b"%PDF-" in data[:1024]):
        kind, pages = "pdf", _pdf_pages(data, label)
    elif data.startswith(b"PK\x03\x04"):
        kind, pages = "docx", _docx_pages(data, label)
    elif suffix in (".pdf", ".docx"):
        raise bad(f"{label} is not a {suffix[1:].upper()} file (its first bytes are not a {suffix[1:].upper()}'s) — "
                  "is it damaged, or renamed?")
    elif suffix == ".doc" or data.startswith(b"\xd0\xcf\x11\xe0"):
        raise bad(f"{label} is an old Word .doc file — save it as .docx or PDF and import that")
    else:
        kind, pages = "txt", _text_pages(data, label)
    lines, furniture = _lines(pages, kind)
    if not any(line.text for line in lines):
        where = "its pages hold no text (a scan?)" if kind == "pdf" else "it holds no text"
        raise bad(f"{label}: {where} — Floorcall needs the TDA's PDF or Word file with its text")
    page_count = len(pages) if kind != "docx" or len(pages) > 1 else 0
    return Document(name=path.name, kind=kind, lines=lines, pages=page_count, size=size, sha256=digest, furniture=furniture)


# ---------------------------------------------------------------- the three formats: pages of raw lines

def _pdf_pages(data: bytes, label: str) -> list[list[str]]:
    import io
    import logging

    try:
        import pypdf
        from pypdf.errors import PdfReadError
    except ImportError:  # pragma: no cover - pypdf is a dependency; a broken install says so plainly
        raise bad("reading PDF needs the pypdf package — reinstall Floorcall (uv sync)") from None
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about odd PDFs are not the user's business
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            # Many PDFs are "encrypted" with an empty user password only to restrict editing: they open.
            try:
                opened = reader.decrypt("") != 0  # PasswordType.NOT_DECRYPTED is 0
            except Exception:
                opened = False
            if not opened:
                raise bad(f"{label} is a password-protected PDF — open it, print or save it without a password, and import that")
        count = len(reader.pages)
    except FloorError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError, IndexError, RecursionError) as exc:
        raise bad(f"{label} is a damaged PDF ({shown(exc, 60)}) — download it again from the TDA") from None
    if count == 0:
        raise bad(f"{label} is a PDF with no pages")
    if count > MAX_PDF_PAGES:
        raise bad(f"{label} has {count} pages — a TDA rules document has about 20; nothing over {MAX_PDF_PAGES} pages is read")
    pages = []
    for number in range(count):
        try:
            text = reader.pages[number].extract_text() or ""
        except Exception as exc:  # pypdf raises a wide range of errors on broken content streams
            raise bad(f"{label}: page {number + 1} of the PDF is damaged ({shown(exc, 60)}) — download it again from the TDA") from None
        # pypdf ends a page's text with a newline: that is not a blank line (a paragraph's end) of the page
        pages.append(text.rstrip("\n").split("\n"))
    return pages


def _docx_pages(data: bytes, label: str) -> list[list[str]]:
    import io
    import zipfile
    from xml.etree import ElementTree

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        info = archive.getinfo(DOCX_TEXT_PART)
    except zipfile.BadZipFile:
        raise bad(f"{label} is a damaged zip/.docx file — save it again from Word") from None
    except KeyError:
        raise bad(f"{label} is a zip file but not a Word document (no {DOCX_TEXT_PART})") from None
    if info.file_size > MAX_DOCX_XML_BYTES:
        raise bad(f"{label}: its text part inflates to {info.file_size / 1_000_000:.0f} MB — not a rules document")
    try:
        xml = archive.read(info)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:
        raise bad(f"{label} is a damaged .docx ({shown(exc, 60)}) — save it again from Word") from None
    if b"<!DOCTYPE" in xml[:4096] or b"<!ENTITY" in xml[:4096]:
        raise bad(f"{label}: its text part declares XML entities, which Word never writes — refused")
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise bad(f"{label} is a damaged .docx (its text part is not well-formed XML: {shown(exc, 50)})") from None
    return _docx_paragraph_pages(root)


def _docx_paragraph_pages(root) -> list[list[str]]:
    """Each Word paragraph as one line (a soft line break starts another), pages split at Word's page breaks.

    Headers and footers are separate parts of a .docx, so the copyright footer never appears here.
    Deleted text of tracked changes (w:delText) and field codes (w:instrText) are not text."""
    pages: list[list[str]] = [[]]
    body = root.find(f"{W}body")
    for paragraph in (body if body is not None else root).iter(f"{W}p"):
        pieces: list[str] = []
        for node in paragraph.iter():
            tag = node.tag
            if tag == f"{W}t":
                pieces.append(node.text or "")
            elif tag in (f"{W}tab", f"{W}ptab"):
                pieces.append(" ")
            elif tag in (f"{W}br", f"{W}cr"):
                if node.get(f"{W}type") == "page":
                    _turn_page(pages, pieces)
                else:
                    pieces.append("\n")
            elif tag == f"{W}lastRenderedPageBreak":
                _turn_page(pages, pieces)  # where Word last broke the page when it saved the file
        pages[-1].extend("".join(pieces).split("\n"))
        pages[-1].append("")  # a paragraph ends: a break between paragraphs
        properties = paragraph.find(f"{W}pPr")
        section = properties.find(f"{W}sectPr") if properties is not None else None
        if section is not None:
            kind = section.find(f"{W}type")
            if kind is None or kind.get(f"{W}val") != "continuous":
                pages.append([])  # a section break that starts a new page
    return [page for page in pages if page] or [[]]


def _turn_page(pages: list[list[str]], pieces: list[str]) -> None:
    if pieces:  # the paragraph goes on over the page: its first half is a line of this page
        pages[-1].extend("".join(pieces).split("\n"))
        pieces.clear()
    if pages[-1]:
        pages.append([])


def _text_pages(data: bytes, label: str) -> list[list[str]]:
    if b"\0" in data[:8192]:
        raise bad(f"{label} is not a text file (it holds binary data) — give the TDA's PDF or .docx")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1252 leaves only five bytes undefined
        raise bad(f"{label} is not readable text (neither UTF-8 nor Windows-1252)")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # A form feed (pdftotext) or a `--- PAGE n ---` marker line starts a page.
    pages: list[list[str]] = [[]]
    for raw in text.split("\n"):
        chunks = raw.split("\f")
        for position, chunk in enumerate(chunks):
            if position:
                pages.append([])
            if re.fullmatch(r"\s*-{2,}\s*page\s+\d+\s*-{2,}\s*", chunk, re.I):
                if any(line.strip() for line in pages[-1]):
                    pages.append([])
                continue
            pages[-1].append(chunk)
    return [page for page in pages if any(line.strip() for line in page)] or [[]]


# ---------------------------------------------------------------- lines, with the page furniture dropped

def _edges(page: list[str]) -> list[str]:
    texts = [clean(line) for line in page if clean(line)]
    return texts[:FURNITURE_EDGE_LINES] + texts[-FURNITURE_EDGE_LINES:]


def _furniture(pages: list[list[str]]) -> set[str]:
    """Lines at a page's top or bottom on most pages (a running header or footer), never a masthead."""
    if len(pages) < FURNITURE_MIN_PAGES:
        return set()
    seen = Counter(text for page in pages for text in set(_edges(page)))
    needed = max(FURNITURE_MIN_PAGES, FURNITURE_SHARE * len(pages))
    return {text for text, count in seen.items() if count > needed - 1e-9 and count >= FURNITURE_MIN_PAGES
            and not MASTHEAD.match(text) and len(text) > 3}


def _ends_paragraph(text: str, widest: int) -> bool:
    """A wrapped line that ends a sentence well short of the page's width ended its paragraph
    (Word starts the next paragraph on a new line, and a PDF keeps no other trace of it)."""
    return text.endswith(SENTENCE_END) and len(text) < SHORT_LINE_SHARE * widest


def _lines(pages: list[list[str]], kind: str) -> tuple[list[Line], list[str]]:
    furniture = _furniture(pages) if kind != "docx" else set()
    paged = kind != "docx" or len(pages) > 1
    lines: list[Line] = []
    paragraph = 0
    for number, page in enumerate(pages, 1):
        edges = set(_edges(page))
        widest = max((len(clean(raw)) for raw in page), default=0)
        for raw in page:
            if kind != "docx" and lines and lines[-1].text and _ends_paragraph(lines[-1].text, widest):
                lines.append(Line("", lines[-1].page, lines[-1].where))
            text = clean(raw)
            if len(text) <= STRAY_MARK_CHARS and not any(c.isalnum() for c in text):
                text = ""  # a stray mark on a line of its own (a '`' in the 2024 PDF) is no text
            if text in furniture or (text in edges and PAGE_NUMBER.match(text) and kind != "docx"):
                continue
            if not text:
                if lines and lines[-1].text:
                    lines.append(Line("", number if paged else 0, lines[-1].where))
                continue
            if kind != "docx" and LIST_ITEM.match(raw) and lines and lines[-1].text:
                lines.append(Line("", lines[-1].page, lines[-1].where))  # an indented "1." item is a paragraph of its own, as in Word
            paragraph += 1
            where = f"page {number}" if paged else f"paragraph {paragraph}"
            lines.append(Line(text, number if paged else 0, where))
    return lines, sorted(furniture)
