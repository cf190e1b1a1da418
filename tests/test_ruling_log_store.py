"""The ruling log on disk: records kept and never edited, corrections, two writers, kill -9, migration,
and damaged, foreign or newer files refused and left byte-for-byte as they were."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO
from floorcall.core.errors import FloorError
from floorcall.engines.ruling_facts import Facts, Penalty, make_facts
from floorcall.engines.walk import Ruling, Step
from floorcall.store import ruling_log
from floorcall.store.ruling_log import Draft, Query, SqliteRulingLog

SIT = "overchip-facing-bet"


def ruling(outcome="call", answer="silent", house="dttf", situation=SIT) -> Ruling:
    """A walk engine Ruling as the walk returns it (written here, not walked: the store needs only its fields)."""
    return Ruling(situation=situation, title="One big chip facing a bet", outcome=outcome, ruling=f"It is a {outcome}.",
                  why="", cites=["tda-2024:44"], house_note="", other_position=None, note_2019="", calc="",
                  path=[Step("declared", "Was raise said?", answer, "No" if answer == "silent" else "Yes")], house=house)


def draft(facts: Facts = Facts(), **kwargs) -> Draft:
    return ruling_log.draft_of(ruling(**kwargs), facts, "0.1.0", "sha256:test")


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "log" / "rulings.sqlite3"


def save(db, facts=Facts(), **kwargs) -> int:
    with SqliteRulingLog(db) as log:
        return log.save(draft(facts, **kwargs))


# ---------------------------------------------------------------- keeping records


def test_a_record_keeps_every_fact(db):
    """Time, event, floorperson, situation, answers, outcome, rules in force, cites, penalty, note, version, fingerprint."""
    facts = make_facts(event="Friday NLH", floorperson="Dee", table="12", seats=["4"], players=["Ann Lee"],
                       penalty="warning", note="chip landed first")
    record_id = save(db, facts)
    with SqliteRulingLog(db) as log:
        record = log.get(record_id).as_json()
    assert record["recorded_at"].endswith("+00:00")
    assert {k: v for k, v in record.items() if k not in ("uid", "recorded_at")} == {
        "id": 1, "event": "Friday NLH", "floorperson": "Dee", "situation": SIT, "title": "One big chip facing a bet",
        "path": [{"question": "declared", "answer": "silent", "ask": "Was raise said?", "label": "No"}],
        "outcome": "call", "ruling": "It is a call.", "house": "dttf", "cites": ["tda-2024:44"], "table": "12",
        "players": [{"name": "Ann Lee", "seat": 4}],
        "penalty": {"kind": "warning", "count": None, "text": "verbal warning"}, "penalty_player": "Ann Lee",
        "note": "chip landed first", "supersedes": None, "superseded_by": None, "version": "0.1.0",
        "fingerprint": "sha256:test",
    }


def test_file_is_wal_ours_and_current(db):
    """A new log is in WAL mode, marked as Floorcall's ruling log, at the current format."""
    save(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA application_id").fetchone()[0] == ruling_log.APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == ruling_log.SCHEMA_VERSION == 2


@pytest.mark.parametrize("statement", ["UPDATE records SET outcome = 'raise'", "DELETE FROM records"])
def test_records_are_never_edited_in_place(db, statement):
    """The file itself refuses an edit or a deletion, whoever tries it."""
    save(db)
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="never"):
        conn.execute(statement)
    conn.close()
    with SqliteRulingLog(db) as log:
        assert log.get(1).outcome == "call"


def test_a_correction_supersedes_and_both_stay(db):
    """A correction is a new record pointing at the old one; a record is corrected once, then its correction is."""
    first = save(db, make_facts(players=["Ann Lee"], penalty="dq"))
    second = save(db, make_facts(players=["Ann Lee"], penalty="2 rounds", supersedes=str(first)))
    with SqliteRulingLog(db) as log:
        old, new = log.get(first), log.get(second)
        assert (old.penalty, old.superseded_by) == (Penalty("disqualification"), second)
        assert (new.penalty, new.supersedes, new.superseded_by) == (Penalty("rounds", 2), first, None)
        assert [r.id for r in log.find(Query(current_only=True))] == [second]
        with pytest.raises(FloorError, match=f"record #{first} was already corrected by #{second} — correct #{second} instead"):
            log.save(draft(make_facts(supersedes=str(first))))
        with pytest.raises(FloorError, match="there is no record #99 to correct"):
            log.save(draft(make_facts(supersedes="99")))
        assert log.count() == 2


def test_correct_record_keeps_the_ruling_and_changes_only_the_facts_given(db):
    """`correct_record` copies the ruling, replaces the named facts and keeps the rest."""
    first = save(db, make_facts(table="12", seats=["4"], players=["Ann Lee"], penalty="warning", note="n"))
    old, new_id = ruling_log.correct_record(db, first, make_facts(seats=["5"]), {"seats"})
    with SqliteRulingLog(db) as log:
        new = log.get(new_id)
    assert (new.outcome, new.ruling, new.table, new.seats, new.names, new.penalty, new.note, new.supersedes) == (
        old.outcome, old.ruling, "12", [5], ["Ann Lee"], Penalty("warning"), "n", first)
    with pytest.raises(FloorError, match="nothing to correct"):
        ruling_log.correct_record(db, new_id, make_facts(seats=["5"]), {"seats"})


@pytest.mark.parametrize("query, expected", [
    (Query(), [1, 2, 3, 4]),
    (Query(player="ann"), [1, 3]),
    (Query(player="ANN LEE"), [1, 3]),
    (Query(player="zoe"), [4]),
    (Query(table="7"), [2]),
    (Query(event="friday nlh"), [1, 2]),
    (Query(situation="fouled-deck"), [4]),
    (Query(text=("chip", "landed")), [1]),
    (Query(text=("100%",)), [2]),
    (Query(text=("warning",)), [3]),
    (Query(text=("raise",)), [3]),
    (Query(floorperson="dee"), [1, 2]),
    (Query(newest_first=True, limit=2), [4, 3]),
])
def test_find(db, query, expected):
    """Filters combine folded comparisons: case, accents and LIKE wildcards do not leak."""
    save(db, make_facts(event="Friday NLH", floorperson="Dee", table="12", players=["Ann Lee"], note="chip landed"))
    save(db, make_facts(event="Friday NLH", floorperson="Dee", table="7", players=["Bo"], note="100% sure"))
    save(db, make_facts(event="Saturday", players=["Ann Lee"], penalty="warning"), outcome="raise", answer="said-raise")
    save(db, make_facts(players=["Zoë"]), situation="fouled-deck")
    with SqliteRulingLog(db) as log:
        assert [r.id for r in log.find(query)] == expected


def test_precedent_line_and_ladder_from_the_file(db):
    """The session's two reads: the precedent line and the ladder shown before a repeat penalty."""
    assert ruling_log.precedent_line(db, ruling()) == "Precedent: none — the first ruling on this situation in this log."
    assert not db.exists()  # reading never creates the file
    save(db, make_facts(event="Friday NLH", players=["Ann Lee"], penalty="warning"))
    assert ruling_log.precedent_line(db, ruling()).endswith("1 on these answers, all 'call', first-offence penalties: verbal warning ×1 — consistent.")
    facts = make_facts(event="Friday NLH", players=["ann lee"], penalty="1 round")
    ladder = ruling_log.ladder_before_save(db, ruling(), facts, players=8)
    assert ladder is not None and ladder.next.text.endswith("1 missed round = 8 hands at 8 players")
    assert ruling_log.ladder_before_save(db, ruling(), make_facts(players=["Bo"], penalty="warning")) is None


def test_repeat_offences_are_marked_per_event_or_per_night(db):
    """A penalty is a repeat when its player already had one in the same event (or, without events, the same night)."""
    save(db, make_facts(event="Friday NLH", players=["Ann Lee"], penalty="warning"))
    save(db, make_facts(event="friday nlh", players=["ann lee"], penalty="1 round"), situation="fouled-deck")
    save(db, make_facts(event="Saturday", players=["Ann Lee"], penalty="warning"))
    save(db, make_facts(players=["Bo"], penalty="warning"))
    save(db, make_facts(players=["Bo"], penalty="2 rounds"))
    save(db, make_facts(players=["Bo"]))
    with SqliteRulingLog(db) as log:
        assert [(e.id, e.repeat) for e in log.all_precedents()] == [
            (1, False), (2, True), (3, False), (4, False), (5, True), (6, False)]
        assert [e.id for e in log.precedents("fouled-deck")] == [2]


def test_remembered_facts_are_where_and_who_never_the_penalty(db):
    """The next save's defaults are the floorperson's last event, table, seats and players tonight."""
    assert ruling_log.remembered_facts(db, "Dee") == Facts()
    save(db, make_facts(event="Friday NLH", floorperson="Dee", table="12", seats=["4"], players=["Ann"], penalty="warning", note="n"))
    save(db, make_facts(event="Friday NLH", floorperson="Eve", table="3"))
    assert ruling_log.remembered_facts(db, "dee") == Facts(event="Friday NLH", floorperson="Dee", table="12", seats=(4,),
                                                           players=("Ann",))
    assert ruling_log.remembered_facts(db).table == "3"


def test_save_ruling_records_version_and_content_fingerprint(db):
    """`save_ruling` stamps the Floorcall version and a fingerprint of the content's bytes."""
    from floorcall import __version__
    from floorcall.content.fingerprint import content_fingerprint

    record_id = ruling_log.save_ruling(db, ruling(), Facts(), REPO)
    with SqliteRulingLog(db) as log:
        record = log.get(record_id)
    assert (record.version, record.fingerprint) == (__version__, content_fingerprint(REPO))
    assert record.fingerprint.startswith("sha256:") and len(record.fingerprint) == 23


def test_fingerprint_follows_content_not_timestamps(mini_root):
    """Touching a file keeps the fingerprint; changing a byte changes it."""
    from floorcall.content.fingerprint import content_fingerprint

    before = content_fingerprint(mini_root)
    tree = mini_root / "rulings" / "overchip.yaml"
    os.utime(tree, (1, 1))
    assert content_fingerprint(mini_root) == before
    tree.write_text(tree.read_text() + "\n", encoding="utf-8")
    assert content_fingerprint(mini_root) != before


@pytest.mark.parametrize("location, message", [
    ("", "--db is empty — give a file path for the ruling log, or leave it unset"),
    ("postgres://floor@server/log", "--db 'postgres://floor@server/log' names a server; only a file on this machine is supported yet"),
])
def test_log_location_refuses(location, message):
    """An empty or server --db is one line; a server log is for later, behind the same interface."""
    with pytest.raises(FloorError) as caught:
        ruling_log.log_location(location, {})
    assert caught.value.message.startswith(message)


def test_log_location_precedence(tmp_path):
    """--db, then FLOORCALL_DB, then $XDG_DATA_HOME/floorcall/rulings.sqlite3 (a relative XDG_DATA_HOME is ignored)."""
    env = {"FLOORCALL_DB": str(tmp_path / "env.sqlite3"), "XDG_DATA_HOME": str(tmp_path / "xdg")}
    assert ruling_log.log_location(tmp_path / "opt.sqlite3", env) == tmp_path / "opt.sqlite3"
    assert ruling_log.log_location(None, env) == tmp_path / "env.sqlite3"
    assert ruling_log.log_location(None, {"XDG_DATA_HOME": str(tmp_path / "xdg")}) == tmp_path / "xdg" / "floorcall" / "rulings.sqlite3"
    assert ruling_log.log_location(None, {"XDG_DATA_HOME": "rel"}) == Path.home() / ".local" / "share" / "floorcall" / "rulings.sqlite3"


# ---------------------------------------------------------------- two writers, kill -9

WRITER = """
import sys
import time
from floorcall.engines.ruling_facts import make_facts
from floorcall.engines.walk import Ruling, Step
from floorcall.store.ruling_log import SqliteRulingLog, draft_of

db, who, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
hang_at = int(sys.argv[4]) if len(sys.argv) > 4 else -1  # stop inside this save's transaction, before its commit
ruling = Ruling("overchip-facing-bet", "t", "call", "It is a call.", "", ["tda-2024:44"], "", None, "", "",
                [Step("declared", "?", "silent", "No")], "dttf")
for n in range(count):
    with SqliteRulingLog(db) as log:  # opened per record, as each `floor walk --log` does
        if n == hang_at:
            plain = log.file.transaction

            def hanging(doing, work, plain=plain):
                def inserted_then_wait(conn):
                    result = work(conn)
                    print("inside", flush=True)
                    time.sleep(60)
                    return result
                return plain(doing, inserted_then_wait)

            log.file.transaction = hanging
        record_id = log.save(draft_of(ruling, make_facts(floorperson=who, note=f"{who} {n}"), "0.1.0", "sha256:x"))
    print(record_id, flush=True)
"""


def writer(db, who, count, hang_at=-1) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(db), who, str(count), str(hang_at)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO)


def test_two_writers_lose_nothing(db):
    """Two floor staff saving 200 rulings each at once, into a file neither has created yet: all 400 are there."""
    db.parent.mkdir()
    procs = [writer(db, who, 200) for who in ("Dee", "Eve")]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _out, err in outputs]
    ids = [int(line) for out, _err in outputs for line in out.split()]
    assert len(ids) == len(set(ids)) == 400
    with SqliteRulingLog(db) as log:
        records = log.find(Query())
    assert sorted(r.id for r in records) == sorted(ids)
    for who in ("Dee", "Eve"):
        assert sorted(r.note for r in records if r.floorperson == who) == sorted(f"{who} {n}" for n in range(200))
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


@pytest.mark.parametrize("after", [1, 7, 25])
def test_kill_during_a_save_loses_at_most_that_record(db, after):
    """kill -9 while saving: the file checks ok and every record reported saved before the kill is there."""
    db.parent.mkdir()
    proc = writer(db, "Dee", 10_000)
    reported = []
    while len(reported) < after:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        reported.append(int(line))
    time.sleep(0.003 * after)  # land somewhere inside a later save
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    reported += [int(line) for line in proc.stdout.read().split()]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with SqliteRulingLog(db) as log:
        kept = [r.id for r in log.find(Query())]
        assert set(reported) <= set(kept) and len(kept) <= len(reported) + 1
        log.save(draft())  # and the log goes on


def test_kill_inside_the_transaction_loses_only_that_record(db):
    """kill -9 after the insert and before the commit: that record is gone, the five before it are all there."""
    db.parent.mkdir()
    proc = writer(db, "Dee", 10, hang_at=5)
    lines = [proc.stdout.readline().strip() for _ in range(6)]
    assert lines == ["1", "2", "3", "4", "5", "inside"], proc.stderr.read()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with SqliteRulingLog(db) as log:
        assert [r.note for r in log.find(Query())] == [f"Dee {n}" for n in range(5)]


# ---------------------------------------------------------------- formats


def make_format_1(path: Path) -> None:
    """A log as the first format left it: no free-text column, one record."""
    conn = sqlite3.connect(path)
    ruling_log._format_1(conn)
    conn.execute(f"PRAGMA application_id = {ruling_log.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO records (uid, recorded_at, event, event_key, floorperson, floorperson_key, situation, title, path, "
        "path_key, outcome, ruling, house, cites, table_name, table_key, players, player_keys, penalty_kind, penalty_count, "
        "penalty_player, penalty_player_key, note, supersedes, version, fingerprint) VALUES "
        "('u1', '2026-03-13T20:00:00+00:00', 'Friday NLH', 'friday nlh', 'Dee', 'dee', ?, 'One big chip', ?, "
        "'declared=silent', 'call', 'It is a call.', 'dttf', '[\"tda-2024:44\"]', '12', '12', ?, '\x1fann lee\x1f', "
        "'warning', NULL, 'Ann Lee', 'ann lee', 'Chip landed FIRST', NULL, '0.0.9', 'sha256:old')",
        (SIT, json.dumps([{"question": "declared", "answer": "silent", "ask": "?", "label": "No"}]),
         json.dumps([{"name": "Ann Lee", "seat": 4}])))
    conn.commit()
    conn.close()


def test_migration_from_the_first_format(db):
    """A format-1 log is upgraded on open: its record kept as it was, searchable, still never editable."""
    db.parent.mkdir()
    make_format_1(db)
    with SqliteRulingLog(db) as log:
        assert [r.id for r in log.find(Query(text=("landed", "first")))] == [1]
        old = log.get(1)
        assert (old.note, old.version, old.fingerprint, old.penalty) == ("Chip landed FIRST", "0.0.9", "sha256:old", Penalty("warning"))
        log.save(draft())
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        with pytest.raises(sqlite3.IntegrityError, match="never edited"):
            conn.execute("UPDATE records SET note = 'x'")


def test_read_only_old_format_is_refused_not_upgraded(db):
    """An old log that cannot be written is not half-upgraded: one line says how to upgrade it."""
    db.parent.mkdir()
    make_format_1(db)
    before = db.read_bytes()
    with pytest.raises(FloorError, match=r"is in an older format \(1\) and is read-only here"):
        SqliteRulingLog(db, readonly=True)
    assert db.read_bytes() == before


def damage_garbage(path: Path) -> None:
    path.write_bytes(b"not a database at all\n" * 300)


def damage_page(path: Path) -> None:
    """A valid log with one page in the middle overwritten."""
    with SqliteRulingLog(path) as log:
        for n in range(60):
            log.save(draft(make_facts(note=f"ruling {n} " + "x" * 200)))
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page:3 * page] = b"\xff" * page
    path.write_bytes(bytes(data))


def damage_truncated(path: Path) -> None:
    with SqliteRulingLog(path) as log:
        for n in range(60):
            log.save(draft(make_facts(note="x" * 300 + str(n))))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scores (who TEXT)")
    conn.commit()
    conn.close()


def newer(path: Path) -> None:
    save(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA user_version = 99")
    conn.close()


@pytest.mark.parametrize("spoil, message", [
    (damage_garbage, "is damaged (file is not a database); Floorcall left it untouched"),
    (damage_page, "is damaged (database disk image is malformed"),
    (damage_truncated, "is damaged ("),
    (foreign, "is not the ruling log (it holds other data); it was left untouched"),
    (newer, "was written by a newer Floorcall (format 99); it was left untouched — update Floorcall to use it"),
])
@pytest.mark.parametrize("readonly", [False, True])
def test_damaged_foreign_or_newer_file_is_left_byte_for_byte(db, spoil, message, readonly):
    """Refused with one line naming the file, for saving and for reading; the bytes are unchanged."""
    db.parent.mkdir()
    spoil(db)
    for side in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        side.unlink(missing_ok=True)
    before = db.read_bytes()
    with pytest.raises(FloorError) as caught, SqliteRulingLog(db, readonly=readonly) as log:
        log.find(Query())
        log.save(draft())
    assert message in caught.value.message and str(db) in caught.value.message
    assert "\n" not in caught.value.message
    assert db.read_bytes() == before


def test_a_locked_log_is_waited_for_then_reported(db):
    """Another writer holding the lock past the timeout: one line, nothing lost."""
    save(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        log = SqliteRulingLog(db)
        log.file.timeout = 0.2
        log.file.conn.execute("PRAGMA busy_timeout = 200")
        with pytest.raises(FloorError, match="is locked by another program .* rulings saved before this one are safe; try again"):
            log.save(draft())
        log.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with SqliteRulingLog(db) as log:
        assert log.count() == 1


def test_a_folder_is_not_a_log(tmp_path):
    """--db naming a folder is one line."""
    with pytest.raises(FloorError, match="is a folder — give a file path with --db"):
        SqliteRulingLog(tmp_path)
