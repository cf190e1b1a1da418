"""`floor import`, `--edition`, `floor editions`, and full text where it matters, on the small test
rulebook (tests/fixtures/base) with invented documents: what a director sees after importing a copy."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

import editiondocs as docs
from conftest import REPO
from floorcall.commands.entry import main

RULE_44_2024 = docs.edition_2024().rules[43].intro
RULE_44_2026 = RULE_44_2024.replace("The", "Every", 1)
PROVENANCE = "your copy of TDA 2024 Rules Version 1.0 (Oct 9, 2024) — invented-2024.pdf, page 7"


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("documents")
    return {"2024": docs.write_pdf(folder / "invented-2024.pdf", docs.edition_2024()),
            "2026": docs.write_docx(folder / "invented-2026.docx", docs.edition_2026()),
            "folder": folder}


@pytest.fixture
def data(tmp_path, monkeypatch):
    """An empty data folder of the director's own, for this test."""
    folder = tmp_path / "data"
    monkeypatch.setenv("FLOORCALL_DATA", str(folder))
    return folder


@pytest.fixture
def run(mini_root, data, capsys):
    """`floor --root MINI ARGS…` through the real entry point: (exit code, stdout, stderr)."""

    def call(*args):
        code = main(["--root", str(mini_root), *[str(a) for a in args]])
        out, err = capsys.readouterr()
        return code, out, err

    return call


@pytest.fixture
def imported(run, documents):
    """Both invented editions imported."""
    assert run("import", documents["2024"])[0] == 0
    assert run("import", documents["2026"])[0] == 0
    return run


# ---------------------------------------------------------------- floor import

def test_import_prints_what_it_found(run, documents, data):
    """The summary names the edition, counts rules, parts, procedures and addendum entries, and what it could not place."""
    code, out, err = run("import", documents["2024"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Imported TDA 2024 Rules Version 1.0 (Oct 9, 2024), long form"
    assert lines[1].startswith("  from          invented-2024.pdf (PDF, 9 pages, ")
    assert lines[2:8] == [
        "  rules         47, with 6 lettered parts, in 4 sections",
        "  procedures    RP-1 to RP-3, with 2 lettered parts",
        "  addendum      3 entries (4 examples)",
        "  dropped       the line on every page: “(c) Invented Rules Association: a test document, not the TD…”",
        "  not placed    1:",
        "    page 9: Rule 99: A rule this document lacks (an addendum entry for Rule 99, which this document does not have)"]
    assert lines[8] == f"  saved as      tda-2024 in {data / 'editions' / 'tda-2024.json'}"
    saved = json.loads((data / "editions" / "tda-2024.json").read_text(encoding="utf-8"))
    assert (saved["kind"], saved["format"], saved["file"]["name"], saved["file"]["pages"]) == (
        "floorcall-edition", 1, "invented-2024.pdf", 9)


def test_import_json_of_another_edition_maps_it(run, documents):
    """--json gives the counts, and another edition's mapping to 2024: renumbered, split, merged, new."""
    run("import", documents["2024"])
    code, out, _err = run("import", documents["2026"], "--json")
    found = json.loads(out)
    assert code == 0
    assert (found["source"], found["version"], found["date"], found["kind"], found["counts"]["rules"]) == (
        "tda-2026", "1.1", "2026-09-21", "docx", 49)
    assert found["mapping"]["counts"] == {"mapped": 49, "renumbered": 36, "changed": 3, "unchanged": 46, "split": 1,
                                          "merged": 1, "added": 2, "removed": 0, "unmapped": 2}
    assert found["mapping"]["basis"] == "your TDA 2024 copy"


def test_nothing_imported_means_nothing_changes(run):
    """Without an import a rule has no full_text, a walk's JSON no `cited`, and the sources are the four of the rulebook."""
    code, out, _err = run("rule", "44", "--json")
    assert code == 0 and "full_text" not in json.loads(out)
    code, out, _err = run("walk", "overchip", "--answer", "declared=silent", "--json")
    assert "cited" not in json.loads(out) and "edition" not in json.loads(out)
    assert [s["id"] for s in json.loads(run("sources", "--json")[1])] == ["dttf", "tda-2024"]


# ---------------------------------------------------------------- full text where it matters

def test_rule_shows_full_text_from_the_copy(imported):
    """`floor rule 44` quotes the whole rule from the director's copy, marked with edition, version, file and page."""
    code, out, _err = imported("rule", "44")
    assert code == 0
    assert f"the rulebook's words, from {PROVENANCE[:60]}" in " ".join(out.split())
    assert " ".join(RULE_44_2024.split()) in " ".join(line.strip(" │") for line in out.splitlines())


def test_rule_json_carries_full_text_and_parts(imported):
    """`--json` carries `full_text` on the rule and on each of its parts."""
    rule = json.loads(imported("rule", "44", "--json")[1])
    assert {k: rule["full_text"][k] for k in ("text", "source", "edition", "version", "date", "file", "where")} == {
        "text": RULE_44_2024, "source": "tda-2024", "edition": "TDA 2024 Rules Version 1.0 (Oct 9, 2024)", "version": "1.0",
        "date": "2024-10-09", "file": "invented-2024.pdf", "where": "page 7"}
    whole = json.loads(imported("rule", "35", "--json")[1])["full_text"]
    assert [p["part"] for p in whole["parts"]] == ["A", "B"]
    part = json.loads(imported("rule", "35-B", "--json")[1])["full_text"]
    assert part["text"] == docs.edition_2024().rules[34].parts[1][1]
    assert [e["heading"] for e in part["addendum"]] == ["Misdeals, the redeal"]


def test_walk_cites_full_text(imported):
    """Every citation of a walk quotes the copy's words; --json lists them as `cited`."""
    code, out, _err = imported("walk", "overchip", "--answer", "declared=silent")
    assert code == 0 and "from your copy of TDA 2024 Rules Version 1.0" in out
    cited = json.loads(imported("walk", "overchip", "--answer", "declared=silent", "--json")[1])["cited"]
    assert [(c["id"], c["label"], c["full_text"]["text"]) for c in cited] == [("tda-2024:44", "TDA 2024 Rule 44", RULE_44_2024)]


# ---------------------------------------------------------------- other editions

def test_rule_of_another_edition_names_its_2024_counterpart(imported):
    """`floor rule tda-2026:45` shows 2026's Rule 45 from the copy and names 2024's Rule 43."""
    code, out, _err = imported("rule", "tda-2026:45")
    assert code == 0
    assert out.splitlines()[0] == "TDA 2026 Rule 45 — Raise Amounts"
    assert "TDA 2024 counterpart: TDA 2024 Rule 43 — Raise Amounts [tda-2024:43] (renumbered, match 100/100)" in out


@pytest.mark.parametrize("query, counterpart", [
    ("tda-2026:46", {"id": "tda-2024:44", "number": "44", "title": "Oversized Chip Betting", "kind": "renumbered"}),
    ("2026 11", {"id": "tda-2024:10", "number": "10", "title": "Moving Seats", "kind": "split from 2024 Rule 10"}),
    ("tda 2026 rp-2", {"id": "tda-2024:RP-2", "number": "RP-2", "title": "Paper Slips", "kind": "same number"}),
    ("tda-2026:22", None),
])
def test_edition_rule_json(imported, query, counterpart):
    """Each 2026 rule's 2024 counterpart: renumbered, split from, the same, or none (a new rule)."""
    found = json.loads(imported("rule", query, "--json")[1])
    other = found["tda_2024"]
    assert ({k: other[k] for k in ("id", "number", "title", "kind")} if other else None) == counterpart


def test_walk_in_another_editions_numbers(imported):
    """`--edition 2026` cites the rule by 2026's number with 2024's beside it, in 2026's words."""
    code, out, _err = imported("walk", "overchip", "--answer", "declared=silent", "--edition", "2026", "--full")
    assert code == 0
    assert "  TDA 2026 Rule 46 (2024: 44) — Oversized Chip Betting  [tda-2024:44]" in out
    assert "your copy of TDA 2026 Rules Version 1.1 (Sep 21, 2026) — invented-2026.docx" in " ".join(out.split())
    assert " ".join(RULE_44_2026.split()) in " ".join(line.strip(" │") for line in out.splitlines())


@pytest.mark.parametrize("args, heading", [
    (("rule", "44", "--edition", "2026"), "TDA 2026 Rule 46 (2024: 44) — Oversized Chip Betting"),
    (("rule", "35-A", "--edition", "tda-2026"), "TDA 2026 Rule 37-A (2024: 35-A) — Misdeals (what is a misdeal)"),
    (("rule", "44", "--edition", "2024"), "TDA 2024 Rule 44 — Oversized Chip Betting"),
])
def test_rule_in_another_editions_numbers(imported, args, heading):
    """`floor rule ID --edition YEAR` heads the 2024 rule with that edition's number."""
    assert imported(*args)[1].splitlines()[0] == heading


def test_quiz_in_another_editions_numbers(imported):
    """The quiz labels its choices and explanations in the edition's numbers."""
    items = json.loads(imported("quiz", "--json", "--edition", "2026", "--seed", "1", "--count", "5")[1])["items"]
    rule_item = next(item for item in items if item["id"] == "rule:tda-2024:44:governs")
    assert "TDA 2026 Rule 46 (2024: 44) — Oversized Chip Betting" in rule_item["choices"]


def test_editions_diff(imported):
    """`floor editions diff 2024 2026`: renumbered runs, the changed words, new rules, splits and merges."""
    code, out, _err = imported("editions", "diff", "2024", "2026")
    assert code == 0
    for line in ("  2024 Rules 11-20 → 2026 Rules 12-21 (+1): Narrow Slips … Shared Tallies and Single Cups",
                 "  2024 Rules 22-47 → 2026 Rules 24-49 (+2): Double Lamps … Re-Opening the Bet",
                 "Changed (1; 48 unchanged)", "  2024 Rule 44 → 2026 Rule 46  Oversized Chip Betting",
                 "  2026 Rule 22  Glass Tokens", "  2024 Rule 10 (Moving Seats) split into 2026 Rule 10, 2026 Rule 11",
                 "  2024 Rule 20, 2024 Rule 21 merged into 2026 Rule 21 (Shared Tallies and Single Cups)"):
        assert line in out.splitlines(), line
    assert "[-The-] {+Every+}" in out
    changes = json.loads(imported("editions", "diff", "2024", "2026", "--json")[1])
    assert [(c["a"], c["b"]) for c in changes["changed"]] == [("44", "46")]


def test_diff_against_opening_sentences_only(run, documents):
    """Without a 2024 copy, the diff compares with Floorcall's own 2024 records and says word changes need the copy."""
    run("import", documents["2026"])
    code, out, _err = run("editions", "diff", "2024", "2026")
    assert code == 0 and "Changed wording: not compared" in out


def test_sources_list_and_remove(imported, data):
    """`floor sources` and `floor editions list` name the imports; `--remove` takes one out, and it is gone everywhere."""
    assert [s["id"] for s in json.loads(imported("sources", "--json")[1])] == ["dttf", "tda-2024", "tda-2024", "tda-2026"]
    assert imported("editions", "list")[1].startswith("tda-2024  TDA 2024 Rules Version 1.0 (Oct 9, 2024), long form: 47 rules")
    code, out, _err = imported("import", "--remove", "2026")
    assert code == 0 and out.startswith("removed tda-2026")
    assert not (data / "editions" / "tda-2026.json").exists()
    code, _out, err = imported("walk", "overchip", "--answer", "declared=silent", "--edition", "2026")
    assert code == 1 and err.startswith("floor: TDA 2026 is not imported — run `floor import FILE`")
    code, _out, err = imported("import", "--remove", "2026")
    assert code == 1 and err.startswith("floor: no imported edition tda-2026 in ")


# ---------------------------------------------------------------- the site

@pytest.fixture
def site_root(mini_root):
    shutil.copytree(REPO / "site", mini_root / "site")
    return mini_root


def test_site_shows_full_text_marked(site_root, run, documents, tmp_path):
    """The site's rule page and print card quote the copy, marked with edition, version and file; the quiz carries the words."""
    run("import", documents["2024"])
    code, out, _err = run("site", "build", "--out", tmp_path / "site")
    assert code == 0 and "with the full words of 4 rule(s) from your own copy" in out
    page = (tmp_path / "site" / "rules" / "tda-2024" / "44.html").read_text(encoding="utf-8")
    assert f'<p class="provenance">From {PROVENANCE}</p>' in page
    assert 'data-edition="tda-2024" data-version="1.0" data-file="invented-2024.pdf"' in page
    assert f"<p>{RULE_44_2024}</p>" in page
    card = (tmp_path / "site" / "situations" / "overchip.html").read_text(encoding="utf-8")
    assert f"<strong>TDA 2024 Rule 44:</strong> {RULE_44_2024}" in card
    assert any(RULE_44_2024 in (tmp_path / "site" / "static" / name).read_text(encoding="utf-8") for name in ("quiz-data.js", "quiz-rest.js"))


def test_site_in_another_editions_numbers(site_root, imported, tmp_path):
    """`floor site build --edition 2026` cites in 2026's numbers."""
    assert imported("site", "build", "--out", tmp_path / "site", "--edition", "2026")[0] == 0
    card = (tmp_path / "site" / "situations" / "overchip.html").read_text(encoding="utf-8")
    assert '<span class="card-cites">TDA 2026 Rule 46 (2024: 44)</span>' in card


def test_site_without_import_has_no_full_text(site_root, run, tmp_path):
    """Without an import the site is built as before: no provenance, no words from a copy."""
    code, out, _err = run("site", "build", "--out", tmp_path / "site")
    assert code == 0 and "from your own copy" not in out
    assert "provenance" not in (tmp_path / "site" / "rules" / "tda-2024" / "44.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- bad input: one line, exit 1, nothing written

def _bad_files(folder):
    """(name, bytes or a callable writing the file, the message's start)."""
    twenty_four = docs.edition_2024()
    text = "\f".join("\n".join(page) for page in docs.pdf_pages(twenty_four))
    return [
        ("empty.pdf", b"", "empty.pdf is empty — give the TDA's PDF, Word (.docx) or text file of the rules"),
        ("notes.txt", b"Milk, eggs and bread.\n", "notes.txt is not a TDA rules document: no numbered rules"),
        ("cut.pdf", docs.pdf_bytes(docs.pdf_pages(twenty_four))[:3000], "cut.pdf is a damaged PDF ("),
        ("locked.pdf", docs.pdf_bytes(docs.pdf_pages(twenty_four), encrypt_with="secret"),
         "locked.pdf is a password-protected PDF — open it, print or save it without a password"),
        ("broken.docx", docs.docx_bytes(twenty_four)[:1500], "broken.docx is a damaged zip/.docx file"),
        ("photo.pdf", b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "photo.pdf is not a PDF file (its first bytes are not a PDF's)"),
        ("gap.txt", text.replace("\n12: ", "\n14: ").encode(), "Rules 12-13 missing: Rule 14 (Early Markers) follows Rule 11 on page 2"),
        ("again.txt", text.replace("\n13: Hidden Brushes", "\n12: Hidden Brushes").encode(),
         "rules out of order: Rule 12 (Hidden Brushes) comes after Rule 12 on page 2"),
        ("huge.pdf", None, "huge.pdf is 210 MB — a TDA rules document is under 1 MB; nothing over 20 MB is read"),
    ]


@pytest.mark.parametrize("name, content, message", _bad_files(None), ids=[case[0] for case in _bad_files(None)])
def test_bad_input_one_line_nothing_written(run, data, tmp_path, name, content, message):
    """A file that is not a clean rules document: one line naming what and where, exit 1, nothing written."""
    path = tmp_path / name
    if content is None:
        with open(path, "wb") as handle:  # 200 MB without writing it: a sparse file, refused by its size alone
            handle.truncate(200 * 1024 * 1024)
    else:
        path.write_bytes(content)
    code, out, err = run("import", path)
    assert (code, out) == (1, "")
    assert err.startswith(f"floor: {message}"), err
    assert err.count("\n") == 1
    assert not (data / "editions").exists()


@pytest.mark.parametrize("args, message", [
    (("import",), "floor: give the TDA rules file to import"),
    (("import", "x.pdf", "--remove", "2026"), "floor: give a FILE to import or --remove EDITION, not both"),
    (("import", "--remove", "next year"), "floor: --remove takes an edition's year, e.g. 2026, not 'next year'"),
    (("rule", "44", "--edition", "soon"), "floor: --edition takes a year like 2026, not 'soon' — imported editions: none"),
    (("editions", "diff", "2024", "2024"), "floor: both are tda-2024"),
])
def test_usage_errors(run, args, message):
    """Mistakes in the options: one line."""
    code, _out, err = run(*args)
    assert code != 0 and err.startswith(message) and err.count("\n") == 1


def test_reimport_replaces_and_a_folder_is_refused(run, documents, data, tmp_path):
    """Importing the same edition again replaces it, and says so; a folder is not a document."""
    run("import", documents["2024"])
    first = (data / "editions" / "tda-2024.json").read_bytes()
    code, out, _err = run("import", documents["2024"])
    assert code == 0 and "(replacing the copy imported 20" in out
    assert json.loads((data / "editions" / "tda-2024.json").read_bytes())["rules"] == json.loads(first)["rules"]
    code, _out, err = run("import", tmp_path)
    assert code == 1 and "is a folder" in err


def test_newer_or_damaged_edition_file_is_left_alone(run, documents, data):
    """A file from a newer Floorcall is never overwritten; a damaged one is not used; other commands still work."""
    run("import", documents["2024"])
    path = data / "editions" / "tda-2024.json"
    newer = json.dumps({"kind": "floorcall-edition", "format": 99}).encode()
    path.write_bytes(newer)
    code, _out, err = run("import", documents["2024"])
    assert code != 0 and "was written by a newer Floorcall (format 99" in err and path.read_bytes() == newer
    code, out, err = run("rule", "44", "--json")
    assert code == 0 and "full_text" not in json.loads(out)
    assert "floor: warning: imported edition not used: " in err and "newer Floorcall" in err
    path.write_bytes(b"{not json")
    code, out, err = run("rule", "44")
    assert code == 0 and "damaged (not JSON" in err and path.read_bytes() == b"{not json"


KILLED_IMPORT = """
import os, sys, time
from floorcall.store import editions_store
from floorcall.content import corpus
real_fsync = os.fsync
def slow(fd):  # the new edition is on disk in its temporary file, not yet renamed
    sys.stdout.write("writing\\n"); sys.stdout.flush(); time.sleep(60)
os.fsync = slow
editions_store.import_edition(sys.argv[1], corpus.load(corpus.Path(sys.argv[2])))
"""


def test_kill_during_import_keeps_the_previous_copy(mini_root, data, documents):
    """kill -9 while a new copy is being written leaves the previous one byte for byte; the next import clears the leftover."""
    env = dict(os.environ, FLOORCALL_DATA=str(data))
    assert main(["--root", str(mini_root), "import", str(documents["2024"])]) == 0
    before = (data / "editions" / "tda-2024.json").read_bytes()
    other = documents["folder"] / "invented-2024-again.txt"
    docs.write_txt(other, docs.edition_2024())
    child = subprocess.Popen([sys.executable, "-c", KILLED_IMPORT, str(other), str(mini_root)], env=env, stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline() == b"writing\n"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert (data / "editions" / "tda-2024.json").read_bytes() == before
    leftovers = list((data / "editions").glob(".import-*.tmp"))
    assert len(leftovers) == 1
    old = time.time() - 3600
    os.utime(leftovers[0], (old, old))
    assert main(["--root", str(mini_root), "import", str(other)]) == 0
    assert list((data / "editions").glob(".import-*.tmp")) == []
    assert json.loads((data / "editions" / "tda-2024.json").read_bytes())["file"]["kind"] == "txt"


def _readme_demo() -> list[tuple[str, list[str]]]:
    """(command line, output lines shown) for each `$ …` of the README's import demo."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Your own copy of the official rules", 1)[1].split("```console", 1)[1].split("```", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip() != "…":
            steps[-1][1].append(line)
    return steps


def test_readme_import_demo_is_real(tmp_path):
    """Every line the README's import demo shows is what the commands print (a line ending in ' …' is a prefix)."""
    import shlex

    env = dict(os.environ)
    documents = tmp_path / "docs"
    for command, shown in _readme_demo():
        words = [w.replace("/tmp/docs", str(documents)) for w in shlex.split(command)]
        if words[0] == "export":
            env.update(dict(word.split("=", 1) for word in words[1:]))
            env["FLOORCALL_DATA"] = str(tmp_path / "data")
            continue
        assert words[:2] == ["uv", "run"], command
        program = [sys.executable, "-m", "floorcall"] if words[2] == "floor" else [sys.executable]
        result = subprocess.run(program + words[3:], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, (command, result.stderr)
        for line in shown:
            expected = line[:-2] if line.endswith(" …") else line
            assert expected in result.stdout, (command, line)


def test_quiz_feedback_and_exam_report_quote_the_copy(imported, mini_root, tmp_path):
    """After an answer the quiz quotes the governing rule from the copy; the exam report shows its words too."""
    from floorcall.commands.quiz_run import feedback
    from floorcall.commands.render import PLAIN
    from floorcall.content import corpus as corpus_module
    from floorcall.engines import quiz as engine

    data = corpus_module.load(mini_root)
    item = next(i for i in engine.generate(data, 1).items if i.id == "rule:tda-2024:44:governs")
    printed: list[str] = []
    feedback(item, item.answer, data["rules"], printed.append, PLAIN)
    assert "from your copy of TDA 2024 Rules Version 1.0" in " ".join(" ".join(printed).split())
    listing = json.loads(imported("quiz", "--json", "--seed", "1", "--count", "5")[1])["items"]
    wrong = ",".join(str(i["answer_number"] % len(i["choices"]) + 1) for i in listing)
    report = tmp_path / "report.html"
    code, _out, err = imported("quiz", "--exam", "--seed", "1", "--count", "5", "--answers", wrong, "--report", report)
    assert code == 1, err
    assert f"From {PROVENANCE}" in report.read_text(encoding="utf-8")


def test_part_only_the_copy_has(mini_root, run, documents):
    """`floor rule 43-B`: a part Floorcall's own record keeps whole is shown alone, in the copy's words."""
    rulebook = mini_root / "rulebook" / "tda.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + (
        "  - {id: 'tda-2024:43', number: '43', title: Raise Amounts, section: 'Play: Bets and Raises', quote: none,\n"
        "     summary: A raise is at least the last full raise., keywords: [raise], games: [all]}\n"), encoding="utf-8")
    run("import", documents["2024"])
    code, out, err = run("rule", "43-B", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert (found["id"], found["parent"], found["full_text"]["text"]) == ("tda-2024:43-B", "tda-2024:43", docs.edition_2024().rules[42].parts[1][1])
    code, _out, err = run("rule", "43-C")
    assert code != 0 and err.startswith("floor: no rule '43-C'")
