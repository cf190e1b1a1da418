"""The rulebook as data: every rule of every source, quoted byte for byte from its seed."""

import re

import pytest

from conftest import REPO, SHARED_SEEDS

INDEX = REPO.parent / "shared" / "research" / "tda-index.md"
SEEDS = REPO / "rulebook" / "seeds"


def by_source(corpus, source, parts=False):
    """The rules of one source; with parts=True its lettered parts instead."""
    return [r for r in corpus["rules"].values() if r["source"] == source and bool(r.get("parent")) == parts]


# The rules and RPs that the TDA 2024 long-form divides into lettered parts, with their letters.
TDA_PARTS = {"5": "ABCD", "8": "AB", "10": "AB", "11": "ABCD", "13": "ABC", "15": "AB", "17": "AB", "18": "AB",
             "24": "ABC", "25": "ABC", "34": "AB", "35": "ABCDE", "39": "ABCD", "40": "ABC", "43": "AB", "45": "AB",
             "46": "ABC", "47": "AB", "50": "AB", "51": "ABC", "52": "AB", "53": "AB", "54": "ABCD", "59": "AB",
             "65": "AB", "71": "ABCD", "RP-5": "ABCD", "RP-8": "ABCDEF", "RP-10": "ABCDEFGH", "RP-15": "AB"}


def test_every_lettered_part_is_a_record(corpus):
    """Each lettered part of the long-form (91 parts in 30 rules) is a part record with a summary of its own."""
    expected = {f"tda-2024:{number}-{letter}" for number, letters in TDA_PARTS.items() for letter in letters}
    found = {r["id"] for r in by_source(corpus, "tda-2024", parts=True)}
    assert len(expected) == 91 and found == expected
    for rid in found:
        part = corpus["rules"][rid]
        assert part["summary"] and part["summary"] != corpus["rules"][part["parent"]]["summary"], rid
        assert rid in corpus["rules"][part["parent"]]["parts"]


@pytest.mark.parametrize(
    "source, count",
    [("tda-2024", 71 + 22), ("tda-2019", 14), ("dttf", 98), ("wpa", 13 + 32)],
)
def test_counts_per_source(corpus, source, count):
    """Each source has every one of its rules: 71 rules + 22 RPs, 14 RPs, 98 DTTF paragraphs, 45 WPA items."""
    assert len(by_source(corpus, source)) == count


def test_every_quote_is_byte_identical_to_its_seed(corpus):
    """Every quoted text is a passage of its seed file, byte for byte."""
    seed_of = {s["id"]: (SEEDS / s["seed"]).read_bytes() for s in corpus["sources"]}
    whole = [r for r in corpus["rules"].values() if not r.get("parent")]
    quoted = [r for r in corpus["rules"].values() if r.get("text")]
    assert len([r for r in whole if r.get("text")]) == len(whole) - 3  # Rules 1, 54 and 66 are not in the seed
    for rule in quoted:
        assert rule["text"].encode("utf-8") in seed_of[rule["source"]], rule["id"]


@pytest.mark.skipif(not SHARED_SEEDS.exists(), reason="shared/seeds not beside the checkout")
def test_bundled_seeds_are_the_shared_seeds():
    """rulebook/seeds/ holds exact copies of ../shared/seeds/."""
    for path in SHARED_SEEDS.glob("*.txt"):
        assert (SEEDS / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.skipif(not INDEX.exists(), reason="research index not beside the checkout")
def test_tda_2024_numbers_titles_and_sections_follow_the_index(corpus):
    """Rules 1-71 and RP-1..22 carry the index's numbers, titles and sections."""
    text = INDEX.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (.+?) \| (.+?) \| confirmed", text, re.M)
    assert len(rows) == 71
    for number, title, section in rows:
        rule = corpus["rules"][f"tda-2024:{number}"]
        expected = "Re-Opening the Bet." if number == "47" else title
        assert (rule["title"], rule["section"]) == (expected, section)
    for number, title in re.findall(r"^\| RP-(\d+) \| (.+?) \|", text, re.M):
        assert corpus["rules"][f"tda-2024:RP-{number}"]["title"] == title


def test_missing_rules_are_marked_not_quoted(corpus):
    """Rules 1, 54 and 66 are absent from the seed: number, title, summary, no quote."""
    for number, title in [("1", "Floor Decisions"), ("54", "Pot Size and Pot-Limit Bets"), ("66", "Dead Hands and Mucking in Stud")]:
        rule = corpus["rules"][f"tda-2024:{number}"]
        assert (rule["title"], rule["quote"], rule.get("text")) == (title, "none", None)
        assert rule["summary"]


def test_every_dttf_paragraph_is_a_record(corpus):
    """Every non-heading paragraph of the DTTF seed is the text of exactly one record."""
    seed = (SEEDS / "000_a95b4b6e13060b4e.txt").read_text(encoding="utf-8")
    headings = {"Down to the Felt", "TEXAS HOLD ‘EM for the DTTF Free Amateur Poker League", "Rules and Regulations",
                "Game Description", "Tournament Rules", "Decision-Making", "Procedures", "Seating", "Rules for Irregularities"}
    paragraphs = [p for p in seed.split("\n") if p.strip() and p.strip() not in headings]
    texts = sorted(r["text"] for r in by_source(corpus, "dttf"))
    assert texts == sorted(paragraphs)


def test_every_wpa_item_is_a_record_with_its_2007_number(corpus):
    """Each WPA tournament item is a record titled as the seed, with its TDA Rule No. (2007)."""
    seed = (SEEDS / "003_c15d4bea66ffde02.txt").read_text(encoding="utf-8").split("Tournament Rules\n", 1)[1]
    items = re.findall(r"^([A-Z][A-Za-z',; -]+)\. .*?\[Source: (?:TDA Rule No\. (\d+)|WPA)\]", seed, re.M | re.S)
    records = {r["title"]: r for r in by_source(corpus, "wpa") if r["section"] == "Tournament Rules"}
    assert len(items) == len(records) == 32
    for title, number in items:
        assert records[title]["tda_2007"] == (int(number) if number else None), title


def test_relations_record_every_index_conflict(corpus):
    """DTTF-vs-TDA conflicts and 2019->2024 RP successions are relations."""
    conflicts = {(r["id"], rel["to"]) for r in corpus["rules"].values() for rel in r["relations"] if rel["type"] == "conflicts"}
    for pair in [("dttf:exposed-holecard", "tda-2024:35"), ("dttf:premature-turn-river", "tda-2024:RP-5"),
                 ("dttf:pot-ruling-deadline", "tda-2024:22"), ("dttf:color-up", "tda-2024:24"),
                 ("dttf:guest-behind-player", "tda-2024:67"), ("dttf:all-in-hands-face-up", "tda-2024:RP-8-F"),
                 ("dttf:initial-seating", "tda-2024:7"), ("dttf:new-limits-next-deal", "tda-2024:23"),
                 ("dttf:hidden-chips-after-all-in", "tda-2024:62")]:
        assert pair in conflicts
    # Checked against both texts and found not to differ (the index lists them; the texts do not):
    # TDA 6 leaves the language to the house, 71-A's penalties are "not limited to", Rule 12 is at showdown.
    for pair in [("dttf:english-only", "tda-2024:6"), ("dttf:misconduct-penalties", "tda-2024:71"),
                 ("dttf:showing-cards-during-hand", "tda-2024:12"), ("dttf:redraws", "tda-2024:11")]:
        assert pair not in conflicts
    supersedes = {rel["to"]: rel.get("changed") for r in by_source(corpus, "tda-2024") for rel in r["relations"] if rel["type"] == "supersedes"}
    assert {k for k, changed in supersedes.items() if changed} == {"tda-2019:RP-5", "tda-2019:RP-8", "tda-2019:RP-11"}
    assert len(supersedes) == 14


def test_addendum_examples_attached(corpus):
    """All Illustration Addendum examples are attached to the rules they illustrate."""
    counts = {rid: len(r.get("illustrations") or []) for rid, r in corpus["rules"].items() if r.get("illustrations")}
    assert counts == {f"tda-2024:{n}": c for n, c in
                      [(10, 1), (11, 1), (16, 3), (18, 2), (38, 2), (40, 1), (43, 5), (45, 7), (46, 5), (47, 6), (51, 4), (52, 3), (53, 4)]}
