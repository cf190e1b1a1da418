"""`floor walk --log`, `floor log`, `floor log show|correct|export|report` and `floor penalty` from the command line."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from pathlib import Path

import pytest

from conftest import REPO

TEN_KB = "x" * 10_240
WALK = ("walk", "overchip", "--answer", "declared=silent")


@pytest.fixture
def env(tmp_path, monkeypatch) -> Path:
    """A fresh data folder and a floorperson's name; returns where the log will be."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("FLOORCALL_NAME", "Dee")
    monkeypatch.delenv("FLOORCALL_DB", raising=False)
    return tmp_path / "xdg" / "floorcall" / "rulings.sqlite3"


@pytest.fixture
def cli(floor, mini_root, env):
    """Run `floor --root MINI ARGS…` (the small fixture content: one situation, `overchip`)."""
    return lambda *args, input=None: floor("--root", mini_root, *args, input=input)


def logged(cli, *extra, answer="silent"):
    result = cli("walk", "overchip", "--answer", f"declared={answer}", "--log", *extra)
    assert result.exit_code == 0, result.output
    return result


def rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, floorperson, table_name, players, penalty_kind, penalty_count, note, event "
                            "FROM records ORDER BY id").fetchall()


# ---------------------------------------------------------------- floor walk … --log


def test_walk_log_saves_and_prints_one_line(cli, env, mini_root):
    """After the ruling: the precedent line, then one line naming the new record."""
    result = logged(cli, "--table", "12", "--seat", "4", "--player", "Ann Lee", "--penalty", "warning",
                    "--note", "chip landed first", "--event", "Friday NLH")
    tail = result.stdout.rstrip().splitlines()[-2:]
    assert tail == ["Precedent: none — the first ruling on this situation in this log.",
                    "Logged #1: overchip → call · table 12 seat 4 · Ann Lee · verbal warning for Ann Lee  (floor log show 1)"]
    assert "RULING" in result.stdout.split("Precedent:")[0]
    assert rows(env) == [(1, "Dee", "12", '[{"name": "Ann Lee", "seat": 4}]', "warning", None, "chip landed first", "Friday NLH")]
    from floorcall.content.fingerprint import content_fingerprint

    with sqlite3.connect(env) as conn:
        assert conn.execute("SELECT fingerprint, house, path_key FROM records").fetchone() == (
            content_fingerprint(mini_root), "dttf", "declared=silent")


def test_walk_log_json_carries_the_record(cli, env):
    """--json: the ruling's JSON with a `log` member (id, facts, precedent)."""
    data = json.loads(cli(*WALK, "--log", "--player", "Ann", "--json").stdout)
    assert (data["outcome"], data["log"]["id"], data["log"]["facts"]["players"]) == ("call", 1, ["Ann"])
    assert data["log"]["precedent"]["total"] == 0 and data["log"]["ladder"] is None


def test_second_penalty_shows_the_ladder_first(cli):
    """Saving a penalty for a player with one on record prints the ladder before the saved line."""
    logged(cli, "--player", "Ann Lee", "--penalty", "warning", "--event", "Friday NLH")
    out = logged(cli, "--player", "ann lee", "--penalty", "1 round", "--event", "friday nlh", "--players", "8").stdout
    after = out.split("Ann Lee — event 'Friday NLH', under house rules (DTTF)\n", 1)[1].splitlines()
    assert after[0].startswith("  #1 ") and "verbal warning" in after[0]
    assert "Next step Floorcall suggests: dealt out for a length of time — DTTF sets no length; measured the TDA way, " \
           "1 missed round = 8 hands at 8 players." in after
    assert after[-2].startswith("Precedent: 1 earlier in this log") and "this penalty is a repeat offence's" in after[-2]
    assert after[-1] == "Logged #2: overchip → call · ann lee · 1 missed round for ann lee  (floor log show 2)"


def test_walk_log_pure_tda_and_supersedes(cli, env):
    """--house none is recorded as the rules in force; --supersedes makes the new walk a correction."""
    logged(cli, answer="said-raise")
    out = logged(cli, "--house", "none", "--supersedes", "1").stdout
    assert out.rstrip().endswith("Logged #2: overchip → call · corrects #1  (floor log show 2)")
    with sqlite3.connect(env) as conn:
        assert conn.execute("SELECT id, house, outcome, supersedes FROM records").fetchall() == [
            (1, "dttf", "raise", None), (2, "none", "call", 1)]


@pytest.mark.parametrize("args, message", [
    (["--log", "--table", ""], "floor: --table is empty — give the table's number or name, e.g. --table 12, or leave the option out"),
    (["--log", "--table", TEN_KB], "floor: --table is 10,240 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'); "
                                   "the table's number or name is at most 20"),
    (["--log", "--seat", ""], "floor: --seat '(empty)' is not a seat number — give 1 to 10"),
    (["--log", "--seat", "12"], "floor: --seat 12 is not a seat — seats run from 1 to 10"),
    (["--log", "--seat", "x\ty"], "floor: --seat 'x\\ty' is not a seat number — give 1 to 10"),
    (["--log", "--player", ""], 'floor: --player is empty — give a name, e.g. --player "Ann Lee", or leave the option out'),
    (["--log", "--player", TEN_KB], "floor: --player is 10,240 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'); "
                                    "a name is at most 80"),
    (["--log", "--player", "Ann\x1b[2J"], "floor: --player 'Ann\\x1b[2J' holds control characters — type a name as plain text"),
    (["--log", "--penalty", ""], "floor: --penalty is empty — give warning, N hands, N rounds, N minutes (a DTTF deal-out), dq, or none"),
    (["--log", "--player", "Ann", "--penalty", "a slap"], "floor: --penalty 'a slap' is not a penalty — give warning, N hands, "
                                                          "N rounds, N minutes (a DTTF deal-out), dq, or none"),
    (["--log", "--penalty", "warning"], "floor: --penalty needs --player NAME: a penalty is given to a player, and the ladder follows the player"),
    (["--log", "--player", "Ann", "--penalty", "20 minutes", "--house", "none"],
     "floor: --penalty 'dealt out 20 minutes' is a timed deal-out, the house's penalty (DTTF)"),
    (["--log", "--note", ""], 'floor: --note is empty — give a one-line note, e.g. --note "chip landed before he spoke", or leave the option out'),
    (["--log", "--note", TEN_KB], "floor: --note is 10,240 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'); "
                                  "a one-line note is at most 500"),
    (["--log", "--event", " "], "floor: --event is empty — give the event's name, e.g. --event \"Friday NLH\", or leave the option out"),
    (["--log", "--supersedes", "last"], "floor: --supersedes 'last' is not a record number — they look like 17 or #17 (see `floor log`)"),
    (["--log", "--supersedes", "99"], "floor: --supersedes 99: there is no record #99 in "),
    (["--log", "--player", "Ann", "--penalty", "warning", "--players", "1"], "floor: --players must be between 2 and 10 (got 1)"),
    (["--log", "--players", "eight"], "floor: --players: 'eight' is not a whole number"),
    (["--log", "--db", ""], "floor: --db is empty — give a file path for the ruling log, or leave it unset"),
    (["--log", "--db", "mysql://floor/log"], "floor: --db 'mysql://floor/log' names a server; only a file on this machine is supported yet"),
    (["--table", "12"], "floor: --table is saved with the ruling: add --log"),
    (["--table", ""], "floor: --table is saved with the ruling: add --log"),
    (["--log", "--players", ""], "floor: --players: '(empty)' is not a whole number"),
    (["--player", "Ann", "--note", "n"], "floor: --player, --note are saved with the ruling: add --log"),
])
def test_bad_log_flags_on_walk(cli, env, args, message):
    """Every --log flag refuses bad input with one line before the walk runs; nothing is saved."""
    result = cli(*WALK, *args)
    assert result.exit_code in (1, 2), result.output
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "RULING" not in result.stdout and "Traceback" not in result.output
    assert not env.exists() or rows(env) == []


def test_bad_floorperson_name(cli, monkeypatch, env):
    """FLOORCALL_NAME is checked like any name."""
    monkeypatch.setenv("FLOORCALL_NAME", "D" * 81)
    result = cli(*WALK, "--log")
    assert result.exit_code == 2 and result.stderr.startswith("floor: FLOORCALL_NAME is 81 characters")


def test_log_needs_answers(cli, env):
    """--log saves a walk given with --answer; an unknown situation id is the walk's own message."""
    result = cli("walk", "overchip", "--log")
    assert result.exit_code == 2
    assert result.stderr.startswith("floor: --log saves a walk given with --answer QUESTION=ANSWER")
    unknown = cli("walk", "overchp", "--answer", "declared=silent", "--log")
    assert unknown.exit_code == 1 and unknown.stderr.startswith("floor: no situation 'overchp' — did you mean 'overchip'?")
    assert not env.exists()


def test_damaged_log_from_the_walk(cli, env):
    """A damaged log: the ruling still prints; the save is one line, exit 2, the file untouched."""
    env.parent.mkdir(parents=True)
    env.write_bytes(b"garbage" * 200)
    result = cli(*WALK, "--log")
    assert result.exit_code == 2
    assert "RULING" in result.stdout
    assert result.stderr.startswith(f"floor: the ruling log {env} is damaged (file is not a database); Floorcall left it untouched")
    assert env.read_bytes() == b"garbage" * 200
    for args in (["log"], ["log", "show", "1"], ["penalty", "Ann"], ["log", "export", "--csv", str(env.parent / "x.csv")]):
        again = cli(*args)
        assert again.exit_code == 2 and "is damaged" in again.stderr and len(again.stderr.splitlines()) == 1
    assert env.read_bytes() == b"garbage" * 200


# ---------------------------------------------------------------- floor log


@pytest.fixture
def night(cli):
    """Four rulings tonight: Ann warned at table 12, Bo at 7, a raise, and a correction of Bo's seat."""
    logged(cli, "--table", "12", "--seat", "4", "--player", "Ann Lee", "--penalty", "warning", "--note", "chip landed first",
           "--event", "Friday NLH")
    logged(cli, "--table", "7", "--seat", "2", "--player", "Bo Chen", "--event", "Friday NLH")
    logged(cli, "--table", "12", "--player", "Zoë", "--event", "Saturday", answer="said-raise")
    result = cli("log", "correct", "2", "--seat", "3")
    assert result.exit_code == 0, result.output
    return cli


def test_log_lists_tonight(night, env):
    """`floor log`: a header, then one line per ruling, corrections marked both ways."""
    out = night("log").stdout.splitlines()
    assert out[0] == f"4 rulings tonight (since {out[0].split('since ')[1].split(')')[0]}), 1 penalty — {env}"
    times = [re.search(r" (\d\d:\d\d) ", line).group(1) for line in out[1:]]
    situation = "overchip → {:<45}"  # the situation → outcome column is 56 wide
    assert [line.replace(t, "HH:MM", 1) for line, t in zip(out[1:], times, strict=True)] == [
        "#1     HH:MM  t12 s4     Ann Lee            " + situation.format("call") + " verbal warning  “chip landed first”",
        "#2     HH:MM  t7 s2      Bo Chen            " + situation.format("call").rstrip() + "  [corrected by #4]",
        "#3     HH:MM  t12        Zoë                " + situation.format("raise").rstrip(),
        "#4     HH:MM  t7 s3      Bo Chen            " + situation.format("call").rstrip() + "  corrects #2",
    ]


@pytest.mark.parametrize("args, ids", [
    ([], [1, 2, 3, 4]),
    (["--player", "ann"], [1]),
    (["--player", "ZOE"], [3]),
    (["--table", "12"], [1, 3]),
    (["--event", "friday nlh"], [1, 2, 4]),
    (["--situation", "overchip"], [1, 2, 3, 4]),
    (["--text", "landed FIRST"], [1]),
    (["--text", "warning"], [1]),
    (["--since", "all"], [1, 2, 3, 4]),
    (["--since", "today"], [1, 2, 3, 4]),
    (["--all", "--player", "bo chen"], [2, 4]),
    (["--since", "2999-01-01"], []),
])
def test_log_filters(night, args, ids):
    """Each filter narrows the list; --json prints the records."""
    result = night("log", "--json", *args)
    assert result.exit_code == 0, result.output
    assert [r["id"] for r in json.loads(result.stdout)] == ids


@pytest.mark.parametrize("args, message", [
    (["--player", ""], 'floor: --player is empty — give a name, e.g. --player "Ann Lee", or leave the option out'),
    (["--table", ""], "floor: --table is empty — give the table's number or name, e.g. --table 12, or leave the option out"),
    (["--event", ""], "floor: --event is empty"),
    (["--text", " "], "floor: --text is empty"),
    (["--situation", ""], "floor: --situation is empty — give a situation id, e.g. --situation overchip-facing-bet"),
    (["--situation", "overchp"], "floor: no situation 'overchp' — did you mean 'overchip'?"),
    (["--situation", "no-such-thing"], "floor: no situation 'no-such-thing' — see `floor situations`"),
    (["--since", "last tuesday"], "floor: --since 'last tuesday' is not a date — give YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, "
                                  "yesterday, tonight, Nd (days ago) or all"),
    (["--since", "2026-02-30"], "floor: --since '2026-02-30' is not a date"),
    (["--since", ""], "floor: --since is empty"),
    (["--since", "today", "--all"], "floor: --since and --all both say where the list starts — give one"),
    (["--db", "/"], "floor: the ruling log / is a folder — give a file path with --db"),
])
def test_bad_log_filters(night, args, message):
    """A bad filter is one line on stderr."""
    result = night("log", *args)
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_log_before_anything_is_saved(cli, env):
    """No log yet: a line saying how to start one, JSON [], and no file created."""
    assert cli("log").stdout.startswith(f"No ruling log yet at {env} — save a ruling with")
    assert cli("log", "--json").stdout.strip() == "[]"
    assert not env.exists()


def test_no_match_names_the_events(night):
    """An event that matches nothing lists the events the log holds."""
    out = night("log", "--event", "Sunday").stdout
    assert out == "No rulings in event 'Sunday' match (events in this log: Friday NLH, Saturday).\n"


def test_show(night, env):
    """`floor log show ID`: the ruling, its answers, facts, correction links and the precedent at the time."""
    out = night("log", "show", "2").stdout.splitlines()
    assert out[0].startswith("#2  ") and out[0].endswith("  Friday NLH  (floor: Dee)")
    assert out[1:] == [
        "CORRECTED by #4 — that record is the current one; this one stays as it was.",
        "Situation: One big chip facing a bet  [overchip]",
        "  Was raise said before the chip landed? → No",
        "Ruling (house rules (DTTF)): A call.  [outcome call]",
        "Rules cited: tda-2024:44",
        "At: table 7 · Bo Chen (seat 2)",
        f"Recorded by Floorcall 0.1.0, content {json.loads(night('log', 'show', '2', '--json').stdout)['fingerprint']}",
        "Precedent then: " + out[-1].split("Precedent then: ", 1)[1],
    ]
    assert "CHECK: first-offence penalties differ: verbal warning ×1; this one: none (#1)." in out[-1]
    data = json.loads(night("log", "show", "#4", "--json").stdout)
    assert (data["supersedes"], data["players"], data["precedent"]["total"]) == (2, [{"name": "Bo Chen", "seat": 3}], 2)


@pytest.mark.parametrize("record, code, message", [
    ("99", 1, "floor: there is no record #99 in "),
    ("abc", 2, "floor: ID 'abc' is not a record number — they look like 17 or #17 (see `floor log`)"),
    ("0", 2, "floor: ID '0' is not a record number"),
    ("-3", 2, "floor: "),
])
def test_show_unknown_or_bad_id(night, record, code, message):
    """An unknown id exits 1 (nothing found); a malformed one 2."""
    result = night("log", "show", "--", record) if record.startswith("-") else night("log", "show", record)
    assert result.exit_code == code and result.stderr.startswith(message)


def test_correct(night, env):
    """`floor log correct`: a new record with the changed facts; refusals in one line."""
    result = night("log", "correct", "1", "--penalty", "none", "--note", "warning withdrawn")
    assert result.stdout.startswith("Logged #5: corrects #1 (overchip → call); #1 stays in the log, marked as corrected")
    assert rows(env)[-1] == (5, "Dee", "12", '[{"name": "Ann Lee", "seat": 4}]', "", None, "warning withdrawn", "Friday NLH")
    for args, message in ((["1", "--note", "x"], "floor: record #1 was already corrected by #5 — correct #5 instead"),
                          (["5"], "floor: give the facts that change"),
                          (["3", "--table", "12"], "floor: nothing to correct: the facts given are those of #3 already"),
                          (["77", "--table", "1"], "floor: there is no record #77 in ")):
        refused = night("log", "correct", *args)
        assert refused.exit_code in (1, 2) and refused.stderr.startswith(message), refused.stderr


# ---------------------------------------------------------------- export and report


def test_export_csv(night, tmp_path):
    """Every record, one row each; a cell that a spreadsheet would run as a formula stays text."""
    logged(night, "--player", "=HYPERLINK(\"http://x\")", "--note", "+1 for the dealer")
    out = tmp_path / "night.csv"
    result = night("log", "export", "--csv", out)
    assert result.stdout == f"Wrote 5 records to {out}\n"
    with open(out, newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert [r["id"] for r in table] == ["1", "2", "3", "4", "5"]
    assert (table[1]["superseded_by"], table[3]["supersedes"], table[0]["penalty"]) == ("4", "2", "verbal warning")
    assert (table[4]["players"], table[4]["note"]) == ("'=HYPERLINK(\"http://x\")", "'+1 for the dealer")
    assert night("log", "export", "--csv", out, "--event", "saturday").stdout == f"Wrote 1 record to {out}\n"  # ours: replaced
    theirs = tmp_path / "budget.csv"
    theirs.write_text("item,cost\nchips,100\n")
    refused = night("log", "export", "--csv", theirs)
    assert refused.exit_code == 2 and refused.stderr.startswith(f"floor: {theirs} already exists and is not a Floorcall ruling log export")
    assert theirs.read_text() == "item,cost\nchips,100\n"
    folder = night("log", "export", "--csv", tmp_path)
    assert folder.exit_code == 2 and folder.stderr.startswith(f"floor: --csv {tmp_path} is a folder")


def test_report_escapes_and_marks(night, tmp_path):
    """The report escapes what was typed, shows flags and per-player penalties, and replaces only its own file."""
    logged(night, "--player", "<script>alert(1)</script>", "--penalty", "dq", "--note", "<b>& loud</b>", "--event", "Friday NLH")
    out = tmp_path / "friday.html"
    result = night("log", "report", "--event", "FRIDAY NLH", "--out", out, "--site", "https://rules.example.org/")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Wrote the report of 4 rulings, event 'Friday NLH', to {out}\n"
    html = out.read_text(encoding="utf-8")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;&amp; loud&lt;/b&gt;" in html
    assert '<meta name="generator" content="Floorcall ruling log report">' in html
    assert "<title>Ruling log — Friday NLH — 4 rulings</title>" in html
    assert "Consistency flags (2)" in html and "Penalties by player (2)" in html
    assert "same answers, another first-offence penalty in #1" in html
    assert "@page { size: auto;" in html and "<script" not in html
    again = night("log", "report", "--event", "Friday NLH", "--out", out)
    assert again.exit_code == 0  # ours: replaced
    theirs = tmp_path / "notes.html"
    theirs.write_text("<p>my notes</p>")
    refused = night("log", "report", "--out", theirs)
    assert refused.exit_code == 2 and "is not a Floorcall ruling log report; it was left untouched" in refused.stderr
    assert theirs.read_text() == "<p>my notes</p>"


@pytest.mark.parametrize("args, code, message", [
    (["--event", "Sunday"], 1, "floor: no rulings in event 'Sunday' — events in this log: Friday NLH, Saturday"),
    (["--event", ""], 2, "floor: --event is empty"),
    (["--since", "whenever"], 2, "floor: --since 'whenever' is not a date"),
    (["--event", "Saturday", "--since", "today"], 2, "floor: --event and --since both choose the rulings — give one"),
    (["--site", " "], 2, "floor: --site is empty — give the rulebook site's folder or its https:// address"),
])
def test_bad_report_options(night, tmp_path, args, code, message):
    """Bad report options are one line; nothing is written."""
    out = tmp_path / "r.html"
    result = night("log", "report", "--out", out, *args)
    assert (result.exit_code, result.stderr.startswith(message)) == (code, True), result.stderr
    assert not out.exists()


def test_report_links_into_the_real_site(floor, env, tmp_path, corpus):
    """On the real content, every rule and situation link is a page the site builds, relative to the report."""
    from floorcall.publish import sitegen

    walked = floor("walk", "overchip-facing-bet", "--answer", "declared=silent", "--log", "--player", "Ann", "--penalty", "warning")
    assert walked.exit_code == 0, walked.stderr
    site = tmp_path / "site"
    report = tmp_path / "reports" / "tonight.html"
    report.parent.mkdir()
    result = floor("log", "report", "--out", report, "--site", site)
    assert result.exit_code == 0, result.output
    assert f"note: its links point to {site.resolve()}, which holds no site yet" in result.stdout
    links = re.findall(r'href="([^"#]+)"', report.read_text(encoding="utf-8"))
    pages, _facts = sitegen.render_site(corpus, REPO)
    assert "../site/situations/overchip-facing-bet.html" in links and "../site/rules/tda-2024/44.html" in links
    assert all(link.removeprefix("../site/") in pages for link in links), links


# ---------------------------------------------------------------- floor penalty NAME


def test_penalty_ladder(night):
    """`floor penalty NAME`: tonight's penalties and the next step; --json carries the same."""
    out = night("penalty", "ANN LEE", "--players", "9").stdout.splitlines()
    assert out[0].startswith("Ann Lee — tonight (since ") and out[0].endswith("), under house rules (DTTF)")
    assert out[1].startswith("  #1 ") and out[1].endswith("verbal warning         One big chip facing a bet  (table 12 seat 4)")
    assert out[2:6] == ["Ladder:", "  ✓ 1. verbal warning  #1", "  · 2. dealt out for a length of time",
                        "  · 3. disqualification (eviction)"]
    assert out[6] == ("Next step Floorcall suggests: dealt out for a length of time — DTTF sets no length; measured the TDA way, "
                      "1 missed round = 9 hands at 9 players.")
    data = json.loads(night("penalty", "Ann Lee", "--house", "none", "--event", "Friday NLH", "--json").stdout)
    assert (data["house"], data["top"], data["next"]["step"], data["scope"]) == ("none", 1, 2, "event 'Friday NLH'")
    nobody = night("penalty", "Nobody").stdout.splitlines()
    assert nobody[1:3] == ["  No warnings or penalties on record.", "Ladder:"]
    bo = night("penalty", "bo chen").stdout
    assert "(also named in 1 ruling without a penalty)" in bo  # the corrected record #2 is not counted twice


@pytest.mark.parametrize("args, message", [
    ([""], 'floor: PLAYER is empty — give a name, e.g. PLAYER "Ann Lee", or leave the option out'),
    ([TEN_KB], "floor: PLAYER is 10,240 characters"),
    (["Ann", "--players", "0"], "floor: --players must be between 2 and 10 (got 0)"),
    (["Ann", "--players", "lots"], "floor: --players: 'lots' is not a whole number"),
    (["Ann", "--house", "wsop"], "floor: unknown house mode 'wsop' — use one of: dttf, none"),
    (["Ann", "--since", "13/13/13"], "floor: --since '13/13/13' is not a date"),
    (["Ann", "--event", ""], "floor: --event is empty"),
    (["Ann", "--event", "E", "--since", "today"], "floor: --event and --since both choose the rulings — give one"),
])
def test_bad_penalty_options(cli, args, message):
    """Bad input to `floor penalty` is one line."""
    result = cli("penalty", *args)
    assert result.exit_code == 2 and result.stderr.startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_log_and_penalty_are_commands_not_lookups(env, capsys):
    """The entry point sends `floor log` and `floor penalty` to their commands, not to the lookup."""
    from floorcall.commands.entry import main

    assert main(["log", "--json"]) == 0
    assert capsys.readouterr().out.strip() == "[]"
    assert main(["penalty", "Ann", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "Ann"
