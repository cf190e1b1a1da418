"""`floor check`: every code is proven by one invalid fixture; the real corpus is clean."""

import re
import shutil

import pytest

from conftest import FIXTURES, REPO

INVALID = FIXTURES / "invalid"

# code -> the exact line `floor check` prints for that fixture (base + overlay).
EXPECTED = {
    "FC001": "rulings/broken.yaml:3: FC001 not valid YAML: did not find expected ',' or ']'",
    "FC002": "rulings/twice.yaml:3: FC002 duplicate key 'title' (first on line 2)",
    "FC003": "rulings/bool-key.yaml:10: FC003 key 'yes' is read as bool, not a string — quote it: 'yes':",
    "FC004": "rulings/bomb.yaml:3: FC004 YAML anchors and aliases (&name, *name) are not allowed in content — write the value out",
    "FC101": "rulebook/tda.yaml:2: FC101 rule lacks required field 'title'",
    "FC102": "rulebook/tda.yaml:11: FC102 rule id 'tda 35' is not <source>:<number or slug> — e.g. tda-2024:44, tda-2024:RP-5, dttf:no-chopping",
    "FC103": "rulebook/tda.yaml:13: FC103 rule id 'tda-2024:44' is used twice (first at rulebook/tda.yaml:2)",
    "FC104": "rulebook/tda.yaml:18: FC104 the text of 'tda-2024:35' is not word for word in its seed file — it stops matching after 'Misdeals include two or more ' (next: 'exposed cards.')",
    "FC105": "rulebook/house.yaml:12: FC105 relation of 'dttf:no-chopping' points to unknown rule 'tda-2024:45' — did you mean 'tda-2024:44'?",
    "FC106": "rulebook/house.yaml:12: FC106 unknown relation type 'contradicts' — did you mean 'conflicts'?",
    "FC107": "rulebook/house.yaml:7: FC107 rule 'dttf:no-chopping' has quote: none but a text",
    "FC108": "rulebook/house.yaml:8: FC108 rule 'dttf:no-chopping' has no summary — write 1-3 sentences in our own words",
    "FC109": "rulebook/house.yaml:8: FC109 the summary of 'dttf:no-chopping' copies its source: 'chopping the big and small blind is not allowed…' — summaries, our titles and illustrations are in our own words",
    "FC201": "rulings/overchip.yaml:12: FC201 answer 'silent' points to unknown node 'cal' — did you mean 'call'?",
    "FC202": "rulings/overchip.yaml:1: FC202 tree lacks required field 'title'",
    "FC203": "rulings/overchip.yaml:1: FC203 tree id 'over-chip' differs from the file name 'overchip' — rename the file to over-chip.yaml or the id to overchip",
    "FC204": "rulings/Over_Chip.yaml:1: FC204 tree id 'Over_Chip' is not lowercase-hyphenated",
    "FC205": "rulings/overchip.yaml:10: FC205 question 'declared' has 1 answers — give 2 to 5",
    "FC206": "rulings/overchip.yaml:15: FC206 outcome 'call' cites no rule — every ruling rests on at least one rule: add cite: [tda-2024:N]",
    "FC207": "rulings/overchip.yaml:3: FC207 tree field 'aliases' must be list, not str",
    "FC208": "rulings/overchip.yaml:16: FC208 outcome 'call' has unknown field 'wyh' — did you mean 'why'?",
    "FC209": "rulings/overchip.yaml:19: FC209 'call' is both a question and an outcome",
    "FC210": "rulings/overchip.yaml:5: FC210 start 'declard' is no question or outcome — did you mean 'declared'?",
    "FC211": "rulings/overchip.yaml:14: FC211 'orphan' cannot be reached from start 'declared'",
    "FC212": "rulings/overchip.yaml:7: FC212 the answers lead back to question 'again' in a cycle",
    "FC213": "rulings/overchip.yaml:17: FC213 outcome 'call' cites unknown rule 'tda-2024:444' — did you mean 'tda-2024:44'?",
    "FC214": "rulings/overchip.yaml:18: FC214 no scenario reaches outcome 'raise' — add a scenario that lands on it",
    "FC215": "rulings/overchip.yaml:25: FC215 scenario lands on 'call', not 'raise'",
    "FC216": "rulings/overchip.yaml:3: FC216 'overchip' already names situation 'overchip-copy' — make it specific to this situation",
    "FC217": "rulings/overchip.yaml:7: FC217 a path asks 6 questions — at most 5; split the tree",
    "FC218": "rulings/overchip.yaml:19: FC218 outcome 'raise' cites a DTTF rule that conflicts with TDA 2024 but gives no TDA position — add a tda: {ruling, cite} block, or a house: note saying they agree here",
    "FC219": "rulings/overchip.yaml:22: FC219 the tda position of 'raise' cites no TDA 2024 rule",
    "FC220": "rulings/uncovered.yaml:3: FC220 'tda-2024:44' is cited by a ruling and also listed as uncovered — remove it from uncovered.yaml",
    "FC221": "rulebook/tda.yaml:23: FC221 rule 'tda-2024:35-A' is cited by no ruling and not listed in rulings/uncovered.yaml — cite it from the outcome it governs, or list it with a reason",
    "FC222": "rulings/uncovered.yaml:2: FC222 uncovered entry 'tda-2024:35' gives no reason — add reason: <one line>",
    "FC224": "rulings/overchip.yaml:16: FC224 'why' copies the rulebook's words: 'a single oversized chip is a call unless raise…' — say it in our own words; the rule's text is shown from its citation",
    "FC225": "rulings/synonyms.yaml:3: FC225 synonym 'nope' must map to a replacement string, not False — quote it: YAML reads yes/no/on/off as booleans",
    "FC223": "rulings/overchip.yaml:23: FC223 'tda-2024:44 Ex 9' names no Illustration Addendum example — did you mean 'Ex 1'?",
    "FC110": "rulebook/tda.yaml:22: FC110 the parts of 'tda-2024:35' are lettered AC, not AB — letter them A, B, C … in the source's order, once each",
    "FC226": "rulings/overchip.yaml:16: FC226 outcome 'call' why speaks of the house ('league'), but --house none shows it as pure TDA 2024 — move house remarks to house:, or give a tda: block",
    "FC227": "rulings/overchip.yaml:18: FC227 outcome 'call' gives a separate TDA position, but no cited DTTF rule is recorded as conflicting with a TDA rule it cites — record the conflict in rulebook/dttf.yaml, or drop the tda: block where DTTF and TDA agree",
    "FC228": "rulebook/house.yaml:12: FC228 the conflict between 'dttf:no-chopping' and 'tda-2024:44' is used by no ruling — give the outcome where they differ a tda: block citing both, or drop the relation",
    "FC229": "rulings/overchip.yaml:17: FC229 outcome 'call' rests on DTTF rules only, so --house none has no TDA basis to show — add a tda: block with what the floor does under TDA 2024 (Rule 1 at least)",
    "FC230": "rulings/overchip.yaml:21: FC230 outcome 'raise' says the house differs from TDA but gives no TDA position — add the tda: block, or say they agree",
    "FC231": "rulings/overchip.yaml:17: FC231 outcome 'call' cites the whole of 'tda-2024:35', which has lettered parts — cite the part that decides, e.g. tda-2024:35-A",
    "FC232": "rulings/overchip.yaml:5: FC232 sibling 'overchips' is no situation",
    "FC234": "rulings/out-of-scope.yaml:1: FC234 out_of_scope must be a list of phrases (strings) — quote words YAML reads as booleans or numbers",
    "FC235": "rulings/out-of-scope.yaml:3: FC235 out-of-scope phrase 'facing a bet' is in situation 'overchip''s own words: 'One big chip facing a bet' — lookup would call that situation out of scope — narrow the phrase, or reword the situation",
    "FC236": "rulings/synonyms.yaml:3: FC236 synonym 'put all the chips in the pot' has 7 words; lookup matches phrases of 1 to 6, so it never applies — shorten it to the words that carry the meaning",
    "FC233": "rulings/overchip.yaml:15: FC233 outcome 'call' ruling carries a sourcing remark ('full TDA') — the floor reads this out: move it to sourcing:",
}


def documented_codes() -> list[str]:
    table = (REPO / "rulings" / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| (FC\d{3}) \|", table, re.M)


def test_base_fixture_is_clean(floor, mini_root):
    """The base fixture every invalid one is made from passes."""
    result = floor("--root", mini_root, "check")
    assert result.exit_code == 0, result.stdout
    assert result.stdout == "ok: 3 rules (2 parts), 1 situations checked\n"


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_each_code_has_a_failing_fixture(floor, mini_root, code):
    """The fixture for CODE makes `floor check` print exactly its line and exit 1."""
    shutil.copytree(INVALID / code, mini_root, dirs_exist_ok=True)
    result = floor("--root", mini_root, "check")
    assert result.exit_code == 1
    assert EXPECTED[code] in result.stdout.splitlines()


def test_every_code_is_documented_and_proven():
    """The README table, the fixtures folder and this table name the same codes."""
    fixtures = sorted(p.name for p in INVALID.iterdir() if p.is_dir())
    assert documented_codes() == sorted(EXPECTED) == fixtures


def test_check_single_file_outside_rulings(floor, mini_root):
    """`floor check PATH` checks a tree file anywhere, without the coverage pass."""
    broken = INVALID / "FC201" / "rulings" / "overchip.yaml"
    copy = mini_root / "elsewhere.yaml"
    copy.write_text(broken.read_text().replace("id: overchip", "id: elsewhere").replace("overchip, one big chip", "elsewhere").replace("One big chip facing a bet", "Elsewhere"))
    result = floor("--root", mini_root, "check", copy)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "elsewhere.yaml:12: FC201 answer 'silent' points to unknown node 'cal' — did you mean 'call'?"


def test_missing_path_is_one_line(floor, mini_root):
    """A path that does not exist is a one-line error."""
    result = floor("--root", mini_root, "check", "nope.yaml")
    assert result.exit_code == 2 and result.stderr == "floor: no such file: nope.yaml\n"


def test_real_corpus_is_clean(floor):
    """The real rulebook and rulings pass every check, coverage included."""
    result = floor("check")
    assert result.exit_code == 0, result.stdout[-3000:]
