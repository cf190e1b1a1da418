"""Reading a rules document (PDF, .docx, text) into an edition record set, and mapping two editions:
on invented documents in the TDA's layout (tests/editiondocs.py), never on the TDA's own text."""

from __future__ import annotations

import pytest

import editiondocs as docs
from floorcall.content.documents import Line, read_document
from floorcall.core.errors import FloorError
from floorcall.engines import editions as engine

FORMATS = ("pdf", "docx", "txt")
WRITERS = {"pdf": docs.write_pdf, "docx": docs.write_docx, "txt": docs.write_txt}


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict:
    """Both invented editions in every format, written once for the module."""
    folder = tmp_path_factory.mktemp("documents")
    return {(edition.year, kind): WRITERS[kind](folder / f"invented-{edition.year}.{kind}", edition)
            for edition in (docs.edition_2024(), docs.edition_2026()) for kind in FORMATS}


@pytest.fixture(scope="module")
def parsed(documents) -> dict:
    return {key: engine.parse_edition(read_document(path).lines, path.name) for key, path in documents.items()}


def text_lines(text: str) -> list[Line]:
    """A text document's lines, one page per form feed, as the reader gives them."""
    lines, page = [], 1
    for raw in text.split("\n"):
        if raw == "\f":
            page += 1
            continue
        lines.append(Line(raw.strip(), page, f"page {page}"))
    return lines


# ---------------------------------------------------------------- what the importer finds

@pytest.mark.parametrize("kind", FORMATS)
def test_invented_2024_counts(parsed, kind):
    """Every format of the invented 2024 long form yields the same rules, parts, procedures, addendum and misfits."""
    edition = parsed[("2024", kind)]
    assert engine.counts(edition) == {"rules": 47, "parts": 6, "procedures": 3, "procedure_parts": 2, "addendum": 3,
                                      "examples": 4, "sections": 4, "unplaced": 1}
    assert {k: edition[k] for k in ("source", "year", "version", "date", "date_text", "form")} == {
        "source": "tda-2024", "year": "2024", "version": "1.0", "date": "2024-10-09", "date_text": "Oct 9, 2024", "form": "long form"}
    assert edition["sections"] == docs.SECTIONS


@pytest.mark.parametrize("kind", FORMATS)
def test_invented_2026_counts(parsed, kind):
    """The invented 2026 edition: two rules more, Rule 10 split, no addendum."""
    edition = parsed[("2026", kind)]
    assert engine.counts(edition) == {"rules": 49, "parts": 4, "procedures": 3, "procedure_parts": 2, "addendum": 0,
                                      "examples": 0, "sections": 4, "unplaced": 0}
    assert (edition["source"], edition["version"], edition["date"]) == ("tda-2026", "1.1", "2026-09-21")


@pytest.mark.parametrize("kind", FORMATS)
def test_every_rule_word_for_word(parsed, kind):
    """Each rule's number, title, section, introduction and parts are the invented ones, exactly, across page breaks."""
    edition = parsed[("2024", kind)]
    expected = docs.edition_2024()
    got = {r["number"]: r for r in edition["rules"] + edition["procedures"]}
    for rule in expected.rules + expected.procedures:
        found = got[rule.number]
        assert (found["title"], found["section"]) == (rule.title, rule.section or "Recommended Procedures")
        assert [(p["part"], p["text"]) for p in found.get("parts", [])] == rule.parts
        assert found.get("intro", found["text"] if not rule.parts else "") == rule.intro


@pytest.mark.parametrize("kind, where", [("pdf", "page 5"), ("docx", "page 1"), ("txt", "page 5")])
def test_part_across_a_page_break(parsed, kind, where):
    """Rule 35-B starts on one page and ends on the next: one part, its words joined, placed where it starts."""
    part = next(r for r in parsed[("2024", kind)]["rules"] if r["number"] == "35")["parts"][1]
    assert part["text"] == docs.edition_2024().rules[34].parts[1][1]
    assert part["where"] == where


@pytest.mark.parametrize("kind, furniture", [("pdf", [docs.FOOTER]), ("txt", [docs.FOOTER]), ("docx", [])])
def test_footer_and_page_numbers_dropped(documents, parsed, kind, furniture):
    """The repeated footer and the page numbers are in no rule's text (a .docx keeps its footer in another part)."""
    assert read_document(documents[("2024", kind)]).furniture == furniture
    words = repr(parsed[("2024", kind)])
    assert "Invented Rules Association" not in words and "Page 3" not in words


@pytest.mark.parametrize("kind", FORMATS)
def test_addendum_entries(parsed, kind):
    """Addendum entries name their rule and part, keep their examples, and one for a missing rule is not placed."""
    edition = parsed[("2024", kind)]
    assert [(e["rule"], e["part"], e["heading"], e["examples"]) for e in edition["addendum"]] == [
        ("10", "", "Moving Seats, the two-step draw", ["Example 1"]),
        ("35", "B", "Misdeals, the redeal", ["Example 1", "Example 2"]),
        ("44", "", "Oversized Chip Betting", ["Example 1"])]
    assert [(u["text"], u["reason"]) for u in edition["unplaced"]] == [
        ("Rule 99: A rule this document lacks", "an addendum entry for Rule 99, which this document does not have")]


TITLE_PAGE = "POKER TOURNAMENT DIRECTORS ASSN.\n2031 Rules Version 2.0, 3 March 2031\n\nGeneral Things\n\n"


@pytest.mark.parametrize("line, facts", [
    ("2024 Rules Version 1.0. Oct 9, 2024", ("2024", "1.0", "2024-10-09", "Rules")),
    ("2022 Rules Version 1.0, Sept 17, 2022", ("2022", "1.0", "2022-09-17", "Rules")),
    ("TDA Rules 2026, Version 1.1, 21 Sep 2026", ("2026", "1.1", "2026-09-21", "Rules")),
    ("2019 Recommended Procedures Version 1.0, Sept 17, 2019", ("2019", "1.0", "2019-09-17", "Recommended Procedures")),
])
def test_edition_line(line, facts):
    """The title page's edition line, in the forms the TDA has used and might use."""
    found = engine.parse_edition(text_lines(f"POKER TOURNAMENT DIRECTORS ASSN.\n{line}\n\n1: Quiet Tokens\nText.\n"), "t.txt")
    assert (found["year"], found["version"], found["date"], found["what"]) == facts


def test_layout_variants():
    """Part letters with a colon or a full stop, a title running onto a second line, a closing note with a web address."""
    text = (TITLE_PAGE + "1: Quiet Tokens\nA: The dealer keeps the cup.\n\nB. The floor keeps the bell.\n\n"
            "2: Cards and Chips Kept Visible, Countable,\n& Manageable. Discretionary Stones\nThe stones stay.\n"
            "3: Last Rule\nThe end.\n\nSee more at www.example.org for the long form.\n")
    edition = engine.parse_edition(text_lines(text), "variants.txt")
    rules = edition["rules"]
    assert [p["part"] for p in rules[0]["parts"]] == ["A", "B"]
    assert rules[1]["title"] == "Cards and Chips Kept Visible, Countable, & Manageable. Discretionary Stones"
    assert rules[2]["text"] == "The end."
    assert [u["where"] for u in edition["unplaced"]] == ["page 1"]
    assert (edition["date"], edition["form"], edition["sections"]) == ("2031-03-03", "short form", ["General Things"])


@pytest.mark.parametrize("body, message", [
    ("1: One Rule\nText.\n\n3: Third Rule\nText.\n", "Rule 2 missing: Rule 3 (Third Rule) follows Rule 1 on page 1"),
    ("1: One Rule\nText.\n\n2: Two Rule\nText.\n\n2: Again Rule\nText.\n",
     "rules out of order: Rule 2 (Again Rule) comes after Rule 2 on page 1"),
    ("2: Two Rule\nText.\n", "Rule 1 missing: Rule 2 (Two Rule) is the first rule on page 1"),
    ("1: One Rule\nText.\n\f\n5: Five Rule\nText.\n", "Rules 2-4 missing: Rule 5 (Five Rule) follows Rule 1 on page 2"),
    ("1: One Rule\nA: First.\n\nC: Third.\n", "Rule 1: part C on page 1 where part B was due (parts so far: A)"),
    ("1: One Rule\nText.\n\nRP-2. Second Procedure\nText.\n", "RP-1 missing: RP-2 (Second Procedure) is the first procedure on page 1"),
])
def test_rules_out_of_order_or_missing(body, message):
    """A gap or a repeat in the numbering stops the import with one line naming the rule and the page."""
    with pytest.raises(FloorError) as caught:
        engine.parse_edition(text_lines(TITLE_PAGE + body), "bad.txt")
    assert caught.value.message.startswith(message)
    assert caught.value.exit_code == 1


@pytest.mark.parametrize("text, message", [
    ("A shopping list.\nMilk, eggs.\n", "list.txt is not a TDA rules document: no numbered rules (lines like '1: Floor Decisions') in its 1 page"),
    ("Rules for the house\n\n1: Quiet Tokens\nText.\n", "list.txt: no edition on the title page (page 1): expected a line like"),
])
def test_not_a_rules_document(text, message):
    """Text without numbered rules, or without an edition line, is refused."""
    with pytest.raises(FloorError) as caught:
        engine.parse_edition(text_lines(text), "list.txt")
    assert caught.value.message.startswith(message)


# ---------------------------------------------------------------- small pieces

@pytest.mark.parametrize("text, iso", [
    ("Oct 9, 2024", "2024-10-09"), ("Sept 17, 2022", "2022-09-17"), ("7 Sep 2026", "2026-09-07"),
    ("September 21, 2026", "2026-09-21"), ("2026-09-21", "2026-09-21"), ("October, 2024", None), ("soon", None),
])
def test_parse_date(text, iso):
    """The title page's date in the forms the TDA has used, as an ISO date (None when there is no day)."""
    assert engine.parse_date(text) == iso


@pytest.mark.parametrize("text, expected", [
    ("Raise Amounts", True), ("Re-Opening the Bet.", True), ("Methods of Betting: Verbal and Chips", True),
    ("Substantial Action (SA)", True), ("Adding an overchip is a call (drop a chip).", False),
    ("the dealer keeps the cup", False), ("Cards and Chips Kept Visible, Countable,", False),
])
def test_title_like(text, expected):
    """A heading's title is title-cased; a sentence is not."""
    assert engine.title_like(text) is expected


@pytest.mark.parametrize("lines, joined", [
    (["players re-", "entries are sold"], "players re-entries are sold"),
    (["3rd –", "4th street"], "3rd – 4th street"),
    (["ends with -", "- a dash"], "ends with - - a dash"),
])
def test_join_lines(lines, joined):
    """A line broken after a hyphen joins without a space; other lines with one."""
    assert engine.join_lines(lines) == joined


@pytest.mark.parametrize("old, new, diff", [
    ("the player may act", "the player must act", "the player [-may-] {+must+} act"),
    ("a b c", "a b c d", "a b c {+d+}"),
    (" ".join(f"w{i}" for i in range(60)), " ".join(f"w{i}" for i in range(30)) + " X " + " ".join(f"w{i}" for i in range(31, 60)),
     "… w24 w25 w26 w27 w28 w29 [-w30-] {+X+} w31 w32 w33 w34 w35 w36 …"),
])
def test_word_diff(old, new, diff):
    """Word changes are marked [-out-] {+in+}; a long text keeps six words either side of a change."""
    assert engine.word_diff(old, new) == diff


LINK = {"43": ["45"], "44": ["46"], "47": ["49"], "1": ["1"], "10": ["10", "11"]}


@pytest.mark.parametrize("text, expected", [
    ("see Rule 43 first", "see Rule 45 (2024: 43) first"),
    ("under TDA 2024 Rule 44-B", "under TDA 2026 Rule 46-B (2024: 44-B)"),
    ("Rules 43 and 47 apply", "Rules 45 (2024: 43) and 49 (2024: 47) apply"),
    ("Rule 1 governs", "Rule 1 governs"),
    ("Rule 54 is gone", "Rule 54 (2024; not in TDA 2026) is gone"),
    ("the 2019 Rule 43", "the 2019 Rule 43"),
])
def test_renumber_prose(text, expected):
    """Our own words name 2024 rules in the edition's numbers, the 2024 number beside; a kept number stays as it is."""
    assert engine.renumber_prose(text, LINK, "2026") == expected


# ---------------------------------------------------------------- mapping and diffing two editions

@pytest.fixture(scope="module")
def mapping(parsed) -> dict:
    old, new = parsed[("2024", "pdf")], parsed[("2026", "docx")]
    return engine.map_rules(old["rules"] + old["procedures"], new["rules"] + new["procedures"])


def test_mapping_counts(mapping):
    """2024 to 2026: every rule placed; 36 renumbered; one split, one merge, two new rules."""
    assert engine.mapping_counts(mapping) == {"mapped": 49, "renumbered": 36, "changed": 3, "unchanged": 46, "split": 1,
                                              "merged": 1, "added": 2, "removed": 0, "unmapped": 2}
    assert (mapping["split"], mapping["merged"], mapping["added"], mapping["removed"]) == (
        [{"old": "10", "new": ["10", "11"]}], [{"old": ["20", "21"], "new": "21"}], ["22", "23"], [])


@pytest.mark.parametrize("old, new", [("9", "9"), ("11", "12"), ("35", "37"), ("43", "45"), ("44", "46"), ("47", "49"),
                                      ("RP-2", "RP-2")])
def test_renumbered_pairs(mapping, old, new):
    """Each 2024 rule maps to its 2026 number."""
    assert next(p["new"] for p in mapping["pairs"] if p["old"] == old) == new


def test_removed_and_rewritten_in_place():
    """A rule gone without trace is removed; one rewritten in the same place still maps, marked as anchored."""
    old = [{"number": str(n), "title": t, "text": x} for n, t, x in (
        (1, "Quiet Tokens", "The dealer keeps the cup before the round."), (2, "Open Lamps", "Lamps stay lit all night long here."),
        (3, "Spare Cups", "A spare cup waits beside the seat."), (4, "Tall Bells", "Bells ring at the second hour always."),
        (5, "Red Stones", "Red stones mark the seats that are empty."))]
    new = [dict(old[0]), {"number": "2", "title": "Open Lamps and Cups", "text": "Each lamp is lit by the floor after the break."},
           dict(old[2]), dict(old[4], number="4")]
    result = engine.map_rules(old, new)
    assert [(p["old"], p["new"], p.get("anchored", False)) for p in result["pairs"]] == [
        ("1", "1", False), ("2", "2", True), ("3", "3", False), ("5", "4", False)]
    assert result["removed"] == ["4"] and result["added"] == []


def test_diff_marks_what_changed(parsed):
    """The diff lists the changed rule word by word; what only moved (split, merged, renumbered) is not a change."""
    from floorcall.content.imported import compile_edition

    changes = engine.diff_editions(compile_edition(parsed[("2024", "pdf")]), compile_edition(parsed[("2026", "txt")]))
    assert [(c["a"], c["b"], [p["diff"] for p in c["parts"]]) for c in changes["changed"]] == [
        ("44", "46", [docs.edition_2024().rules[43].intro.replace("The", "[-The-] {+Every+}", 1)])]
    assert changes["unchanged"] == 48
    assert [(r["a"], r["b"]) for r in changes["renumbered"]][:2] == [("11", "12"), ("12", "13")]
    assert changes["added"] == [{"b": "22", "title": "Glass Tokens"}, {"b": "23", "title": "Velvet Ropes"}]


def test_mapping_against_opening_sentences_only():
    """Against Floorcall's own 2024 records (opening sentences), texts are compared as openings and `changed` is unknown."""
    full = [{"number": "1", "title": "Quiet Tokens", "text": "The dealer keeps the cup before the round. Then more words follow here."}]
    opening = [{"number": "1", "title": "Quiet Tokens", "text": "The dealer keeps the cup before the round.", "opening": True}]
    pair = engine.map_rules(full, opening)["pairs"][0]
    assert (pair["text_score"], pair["changed"]) == (100.0, None)


@pytest.mark.parametrize("number, counterpart, more, label", [
    ("45", "43", [], "TDA 2026 Rule 45 (2024: 43)"),
    ("46-B", "44-B", [], "TDA 2026 Rule 46-B (2024: 44-B)"),
    ("10", "10", ["11"], "TDA 2026 Rule 10 (2024: 10; also Rule 11)"),
    ("RP-7", "RP-5", [], "TDA 2026 RP-7 (2024: RP-5)"),
])
def test_edition_label(number, counterpart, more, label):
    """A citation in another edition's numbers carries the 2024 number beside it, and the other pieces of a split rule."""
    assert engine.edition_label("2026", number, counterpart, more) == label
