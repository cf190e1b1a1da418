"""Content never takes the tool down: each fault an author can make is named by `floor check`
(code, file, line), and every other command keeps working or says one clear line."""

import os
import re
import shutil

import pytest

from conftest import FIXTURES
from floorcall.commands.entry import main

TREE = "rulings/overchip.yaml"
BOMB = "".join(f"{chr(97 + i)}: &{chr(97 + i)} [{', '.join(['*' + chr(96 + i)] * 9) if i else 'lol, lol, lol'}]\n" for i in range(9))

# (name, file, edit: (old, new) or a whole new text, the code `floor check` must print)
FAULTS = [
    ("start deleted", TREE, ("start: declared\n", ""), "FC202"),
    ("cite not a list", TREE, ("    cite: [tda-2024:44]\n  raise", "    cite: 44\n  raise"), "FC207"),
    ("cite item a number", TREE, ("    cite: [tda-2024:44]\n  raise", "    cite: [44]\n  raise"), "FC207"),
    ("next a list", TREE, ("next: call}", "next: [call]}"), "FC207"),
    ("answer a bare string", TREE, ("      silent: {label: 'No', next: call}", "      silent: call"), "FC207"),
    ("aliases a number", TREE, ("aliases: [overchip, one big chip]", "aliases: 5"), "FC207"),
    ("alias no", TREE, ("aliases: [overchip, one big chip]", "aliases: [overchip, no]"), "FC207"),
    ("alias 2019", TREE, ("aliases: [overchip, one big chip]", "aliases: [overchip, 2019]"), "FC207"),
    ("alias empty", TREE, ("aliases: [overchip, one big chip]", "aliases:\n  - overchip\n  -"), "FC207"),
    ("questions a list", TREE, ("questions:\n", "questions: []\nold_questions:\n"), "FC207"),
    ("start a list", TREE, ("start: declared", "start: [declared]"), "FC207"),
    ("given a list", TREE, ("given: {declared: silent}", "given: {declared: [silent]}"), "FC207"),
    ("tda a string", TREE, ("    tda: {ruling: A raise of the most the chip allows (TDA)., cite: [tda-2024:44]}", "    tda: Misdeal."), "FC207"),
    ("empty file", TREE, "", "FC207"),
    ("comment-only file", TREE, "# nothing here\n", "FC207"),
    ("unknown game", TREE, ("tags: [betting]", "tags: [betting]\ngames: [poker-dice]"), "FC106"),
    ("alias bomb in games", TREE, ("tags: [betting]", "tags: [betting]\n" + BOMB + "games: [*i]"), "FC004"),
    ("billion laughs in an unknown key", TREE, ("tags: [betting]", "tags: [betting]\n" + BOMB + "junk: [*i]"), "FC004"),
    ("house differs, tda deleted", TREE, ("    tda: {ruling: A raise of the most the chip allows (TDA)., cite: [tda-2024:44]}\n", ""), "FC230"),
    ("cycle", TREE, ("next: raise}", "next: declared}"), "FC212"),
    ("unknown cite", TREE, ("    cite: [tda-2024:44]\n  raise", "    cite: [tda-2024:4444]\n  raise"), "FC213"),
    ("rule id climbing out", "rulebook/tda.yaml", ("id: tda-2024:35", "id: tda-2024:../../../x"), "FC102"),
    ("source id climbing out", "rulebook/sources.yaml", ("{id: dttf,", "{id: ../../x,"), "FC101"),
    ("part lettered twice", "rulebook/tda.yaml", ("{part: B, topic: the redeal", "{part: A, topic: the redeal"), "FC110"),
]


def edit(root, relfile, change):
    path = root / relfile
    if isinstance(change, str):
        path.write_text(change, encoding="utf-8")
        return
    old, new = change
    text = path.read_text(encoding="utf-8")
    assert old in text, f"the fixture no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, relfile, change, code", FAULTS, ids=[f[0] for f in FAULTS])
def test_check_names_the_fault(mini_root, capsys, name, relfile, change, code):
    """`floor check` exits 1 and prints CODE with the file and a line, never crashing."""
    edit(mini_root, relfile, change)
    status, out, err = run(capsys, "--root", mini_root, "check")
    assert status == 1, out + err
    assert re.search(rf"^{re.escape(relfile)}:\d+: {code} ", out, re.M), out
    assert "internal error" not in err


@pytest.mark.parametrize("name, relfile, change, code", FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("command", [("lookup", "overchip"), ("situations",), ("rule", "tda-2024:44"), ("sources",),
                                     ("check", "--stats")])
def test_other_commands_keep_working(mini_root, capsys, name, relfile, change, code, command):
    """After the fault, every other command answers (or says one clear line), never 'internal error'."""
    edit(mini_root, relfile, change)
    status, out, err = run(capsys, "--root", mini_root, *command)
    assert status in (0, 1, 2), err
    assert "internal error" not in err and "Traceback" not in err
    assert all(line.startswith("floor: ") or re.fullmatch(r"\d+ problem\(s\)", line) for line in err.splitlines())


@pytest.mark.parametrize("name, relfile, change, code", [f for f in FAULTS if f[1] == TREE or "climbing" in f[0]],
                         ids=[f[0] for f in FAULTS if f[1] == TREE or "climbing" in f[0]])
def test_site_builds_around_a_bad_file(mini_root, tmp_path, capsys, name, relfile, change, code):
    """A bad tree or rule is left out of the site (with a warning); nothing is written outside --out."""
    shutil.copytree(FIXTURES.parent.parent / "site", mini_root / "site")
    edit(mini_root, relfile, change)
    out_dir = tmp_path / "site" / "out"
    status, _out, err = run(capsys, "--root", mini_root, "site", "build", "--out", out_dir)
    assert status == 0 or (status == 2 and "source" in name), err
    assert "internal error" not in err
    outside = [p for p in tmp_path.rglob("*") if out_dir not in p.parents and p != out_dir
               and mini_root not in p.parents and p != mini_root and p.parent != tmp_path and p != tmp_path / "site"]
    assert outside == []


def test_a_symlink_in_static_is_not_published(mini_root, tmp_path, capsys):
    """A symlink in site/static is neither followed nor copied into the site."""
    shutil.copytree(FIXTURES.parent.parent / "site", mini_root / "site")
    secret = tmp_path / "secret.txt"
    secret.write_text("do not publish")
    os.symlink(secret, mini_root / "site" / "static" / "leak.txt")
    status, _out, err = run(capsys, "--root", mini_root, "site", "build", "--out", tmp_path / "out")
    assert status == 0, err
    assert not (tmp_path / "out" / "static" / "leak.txt").exists()


def test_leftover_staging_folders_are_removed(mini_root, tmp_path, capsys):
    """A staging folder a killed build left behind (its process gone) is removed by the next build."""
    shutil.copytree(FIXTURES.parent.parent / "site", mini_root / "site")
    leftover = tmp_path / ".out.building-999999999"
    leftover.mkdir()
    (leftover / "index.html").write_text("half")
    status, _out, err = run(capsys, "--root", mini_root, "site", "build", "--out", tmp_path / "out")
    assert status == 0, err
    assert not leftover.exists()


def test_an_edit_keeping_size_and_mtime_is_seen(mini_root, capsys):
    """The cache notices a change even when the file keeps its size and modification time."""
    path = mini_root / TREE
    assert run(capsys, "--root", mini_root, "walk", "overchip", "--answer", "declared=silent")[1].count("A call.") == 1
    before = path.stat()
    path.write_text(path.read_text().replace("ruling: A call.", "ruling: A fold."), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert "A fold." in run(capsys, "--root", mini_root, "walk", "overchip", "--answer", "declared=silent")[1]
