"""`floor quiz` and `floor quiz stats`: items as JSON, grading, the interactive quiz, exams and reports, progress on disk."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import REPO
from test_quiz import write_root


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    return write_root(tmp_path_factory.mktemp("quizcli") / "content")


@pytest.fixture
def quiz(floor, content):
    """Run `floor --root CONTENT quiz ARGS…`."""
    def run(*args, input=None, env=None):
        return floor("--root", content, "quiz", *args, input=input, env=env)

    return run


def listing(quiz, *args) -> list[dict]:
    result = quiz("--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["items"]


def numbers(items, right=True) -> list[str]:
    """The right answers as --answers takes them (or a wrong one for each): '2', or '1+3' for select-all."""
    if right:
        return ["+".join(str(n) for n in i["answer_numbers"]) for i in items]
    return [str(i["answer_number"] % len(i["choices"]) + 1) if not i["multi"] else
            "+".join(str(n) for n in range(1, len(i["choices"]) + 1)) for i in items]


def answers_in(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT name, item, chosen, correct, mode FROM answers ORDER BY id").fetchall()


# ---------------------------------------------------------------- scripts: --json and --answers


def test_json_items_same_seed_same_quiz(quiz):
    """--json prints the items; the same seed prints the same quiz."""
    first = quiz("--json", "--seed", "5", "--count", "4")
    again = quiz("--json", "--seed", "5", "--count", "4")
    assert first.exit_code == 0 and first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert (data["seed"], data["count"], len(data["items"])) == (5, 4, 4)
    item = data["items"][0]
    assert set(item) == {"id", "kind", "topic", "topics", "sources", "prompt", "choices", "answer_index", "answer_number",
                         "answer_numbers", "multi", "explanation", "cites", "ref", "walk", "link", "draws_on"}
    assert item["answer_number"] == item["answer_index"] + 1


def test_json_filters(quiz):
    """--topic and --source narrow the items; 'house' is accepted for the DTTF source."""
    house = listing(quiz, "--seed", "1", "--count", "50", "--topic", "house")
    assert house and all("house" in i["topics"] for i in house)
    dttf = listing(quiz, "--seed", "1", "--count", "50", "--source", "house")
    assert dttf and all("dttf" in i["sources"] for i in dttf)


def test_answers_graded_as_json(quiz):
    """--answers grades non-interactively: all right, then all wrong."""
    items = listing(quiz, "--seed", "3", "--count", "5")
    right = quiz("--json", "--seed", "3", "--count", "5", "--answers", ",".join(numbers(items)))
    assert right.exit_code == 0
    graded = json.loads(right.stdout)
    assert (graded["score"], graded["total"], graded["percent"], graded["exam"]) == (5, 5, 100.0, False)
    assert [r["id"] for r in graded["results"]] == [i["id"] for i in items]
    wrong = json.loads(quiz("--json", "--seed", "3", "--count", "5", "--answers", ",".join(numbers(items, right=False))).stdout)
    assert wrong["score"] == 0 and all(r["chosen"] != r["answer"] for r in wrong["results"])
    assert wrong["results"][0]["ruling"] == items[0]["choices"][items[0]["answer_index"]]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--answers", "1"], "floor: --answers gives 1 answer(s) for 3 question(s) — give one number per question, e.g. 2,1,3"),
        (["--answers", "1,9,1"], "floor: --answers: answer 2 is '9', but question 2 has choices 1-"),
        (["--topic", "poker"], "floor: unknown topic 'poker' — topics: betting, dealing, showdown, chips, seating, conduct, procedure, house"),
        (["--source", "wsop"], "floor: unknown source 'wsop' — use one of: dttf, tda-2024, tda-2019, wpa"),
        (["--pass", "80"], "floor: --pass sets the exam pass mark — add --exam"),
        (["--report", "r.html"], "floor: --report writes the exam report — add --exam"),
        (["--exam", "--pass", "120"], "floor: --pass is a percentage from 0 to 100, not 120"),
        (["--count", "0"], "floor: --count must be at least 1, not 0"),
        (["--name", " "], "floor: --name is empty — give the trainee's name, e.g. --name Ana"),
    ],
)
def test_bad_input_one_line_on_stderr(quiz, args, message):
    """Bad options: one clear line on stderr, exit 2, no traceback."""
    result = quiz("--seed", "1", "--count", "3", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- the interactive quiz


def test_interactive_quiz_reasks_and_scores(quiz):
    """Out-of-range and non-numeric answers are asked again; feedback quotes the rule; the score ends it."""
    items = listing(quiz, "--seed", "8", "--count", "2")
    right = numbers(items)
    result = quiz("--seed", "8", "--count", "2", input=f"9\nx\n{right[0]}\n{numbers(items, right=False)[1]}\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    last = len(items[0]["choices"])
    assert out.count(f"Type a number from 1 to {last}, or q to stop.") == 2
    assert "Question 1 of 2" in out and "Question 2 of 2" in out
    assert "Right." in out and "Not quite. The answer is:" in out
    assert "Score: 1 of 2 (50%)" in out


def test_end_of_input_keeps_the_answers(quiz, tmp_path):
    """Input ending mid-quiz prints the score so far, exits 1, and the answers given are saved."""
    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "2", "--count", "3")
    result = quiz("--seed", "2", "--count", "3", "--name", "Ana", "--db", db, input=f"{numbers(items)[0]}\n")
    assert result.exit_code == 1
    assert "Stopped after 1 of 3 question(s). Score so far: 1 of 1." in result.stdout
    assert "Saved for Ana: 1 answer(s)." in result.stdout
    assert answers_in(db) == [("Ana", items[0]["id"], items[0]["answer_index"], 1, "practice")]


def test_q_stops(quiz):
    """q stops the quiz early: exit 1."""
    result = quiz("--seed", "2", "--count", "3", input="q\n")
    assert result.exit_code == 1
    assert "Stopped after 0 of 3 question(s)." in result.stdout


def test_ctrl_c_keeps_progress(quiz, tmp_path, monkeypatch):
    """Ctrl-C after one answer: exit 130, the score so far, and that answer saved."""
    from floorcall.commands import quiz_cmd as quiz_cli

    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "4", "--count", "3")
    typed = iter([numbers(items)[0]])

    def reader(prompt):
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(quiz_cli, "read_line", reader)
    result = quiz("--seed", "4", "--count", "3", "--name", "Bo", "--db", db)
    assert result.exit_code == 130
    assert "Stopped after 1 of 3 question(s). Score so far: 1 of 1." in result.stdout
    assert [row[1] for row in answers_in(db)] == [items[0]["id"]]


def test_missed_items_come_back_first(quiz, tmp_path, monkeypatch):
    """FSRS on disk: two minutes later the one missed item (due after 1 minute) comes first; those answered right (10 minutes) wait."""
    from floorcall.commands import quiz_run

    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "6", "--count", "4")
    given = numbers(items)
    given[2] = numbers(items, right=False)[2]
    assert quiz("--seed", "6", "--count", "4", "--name", "Cy", "--db", db, "--answers", ",".join(given)).exit_code == 0
    later = quiz_run._now() + timedelta(minutes=2)
    monkeypatch.setattr(quiz_run, "_now", lambda: later)
    again = listing(quiz, "--seed", "9", "--count", "3", "--name", "Cy", "--db", db)
    assert again[0]["id"] == items[2]["id"]
    assert not {i["id"] for i in again[1:]} & {i["id"] for i in items}


def test_new_items_stop_at_the_days_pace(quiz, tmp_path):
    """--new N: once N new items are met today and nothing is due, the quiz says so and when to come back."""
    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "3", "--count", "3", "--name", "Di", "--db", db, "--new", "3")
    assert len(items) == 3
    assert quiz("--seed", "3", "--count", "3", "--name", "Di", "--db", db, "--new", "3", "--answers", ",".join(numbers(items))).exit_code == 0
    result = quiz("--seed", "4", "--count", "3", "--name", "Di", "--db", db, "--new", "3")
    assert result.exit_code == 0
    assert result.stdout.startswith("Nothing is due for Di now, and today's 3 new item(s) are done. The next review falls due in 10 min.")
    assert len(listing(quiz, "--seed", "4", "--count", "3", "--name", "Di", "--db", db, "--new", "5")) == 2


def test_a_rating_letter_is_saved_with_the_answer(quiz, tmp_path):
    """'2e' answers 2 and rates it easy: the answer is kept with rating 4 (said), and the item graduates at once."""
    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "5", "--count", "1")
    result = quiz("--seed", "5", "--count", "1", "--name", "Ed", "--db", db, input=f"{numbers(items)[0]}e\n")
    assert result.exit_code == 0, result.output
    assert "Comes back in " in result.stdout and "days." in result.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT rating, rated, correct FROM answers").fetchall() == [(4, "said", 1)]


def test_xdg_data_home_is_the_default_place(quiz, tmp_path):
    """Without --db, progress goes to $XDG_DATA_HOME/floorcall/quiz-progress.sqlite3."""
    items = listing(quiz, "--seed", "1", "--count", "1")
    result = quiz("--seed", "1", "--count", "1", "--name", "Di", "--answers", numbers(items)[0],
                  env={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert result.exit_code == 0
    assert len(answers_in(tmp_path / "xdg" / "floorcall" / "quiz-progress.sqlite3")) == 1


def test_corrupt_database_from_the_cli(quiz, tmp_path):
    """A damaged progress file: one line on stderr, exit 2, the file untouched."""
    db = tmp_path / "p.sqlite3"
    db.write_bytes(b"garbage" * 100)
    result = quiz("--seed", "1", "--count", "2", "--name", "Ana", "--db", db, input="1\n1\n")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"floor: the progress database {db} is damaged (file is not a database)")
    assert db.read_bytes() == b"garbage" * 100


# ---------------------------------------------------------------- exams and reports


def test_exam_pass(quiz, tmp_path):
    """An exam answered right passes: exit 0, PASS, nothing missed."""
    items = listing(quiz, "--exam", "--seed", "11", "--count", "5")
    result = quiz("--exam", "--seed", "11", "--count", "5", "--answers", ",".join(numbers(items)))
    assert result.exit_code == 0
    assert "Exam score: 5 of 5 (100%) — PASS (pass mark 90%)" in result.stdout
    assert "Missed" not in result.stdout


def test_exam_fail_lists_missed_items_and_writes_the_report(quiz, tmp_path):
    """A failed exam exits 1 and lists each missed item with its ruling and citation; the report says the same."""
    items = listing(quiz, "--exam", "--seed", "11", "--count", "5")
    given = numbers(items)
    given[1] = numbers(items, right=False)[1]
    report = tmp_path / "exam.html"
    result = quiz("--exam", "--seed", "11", "--count", "5", "--name", "<b>Ana</b>", "--db", tmp_path / "p.sqlite3",
                  "--answers", ",".join(given), "--report", report)
    assert result.exit_code == 1
    out = result.stdout
    assert "Exam score: 4 of 5 (80%) — FAIL (pass mark 90%)" in out
    assert "Missed (1):" in out and f"[{items[1]['id']}]" in out
    assert "Ruling: " + items[1]["choices"][items[1]["answer_index"]][:30] in " ".join(out.split())
    assert "Cited: " in out
    assert f"Report written to {report}" in out
    html = report.read_text(encoding="utf-8")
    assert '<meta name="generator" content="Floorcall quiz report">' in html
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>Ana</b>" not in html
    assert "FAIL" in html and "4 of 5 (80%)" in html and items[1]["id"] in html
    assert "http://" not in html and "https://" not in html and "<script" not in html
    assert [row[4] for row in answers_in(tmp_path / "p.sqlite3")] == ["exam"] * 5


def test_exam_pass_mark_option(quiz):
    """--pass sets the mark: 4 of 5 passes at 80."""
    items = listing(quiz, "--exam", "--seed", "11", "--count", "5")
    given = numbers(items)
    given[0] = numbers(items, right=False)[0]
    result = quiz("--exam", "--pass", "80", "--seed", "11", "--count", "5", "--json", "--answers", ",".join(given))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["score"], data["pass_mark"], data["passed"], data["exam"]) == (4, 80.0, True, True)


def test_interactive_exam_gives_no_feedback_until_the_end(quiz, tmp_path):
    """In an exam no question is marked right or wrong until the score."""
    items = listing(quiz, "--exam", "--seed", "12", "--count", "3")
    result = quiz("--exam", "--seed", "12", "--count", "3", "--db", tmp_path / "p.sqlite3",
                  input="\n".join(numbers(items, right=False)) + "\n")
    assert result.exit_code == 1
    before_score = result.stdout.split("Exam score:")[0]
    assert "Right." not in before_score and "Not quite." not in before_score
    assert "Exam score: 0 of 3 (0%) — FAIL (pass mark 90%)" in result.stdout
    assert "Missed (3):" in result.stdout


def test_report_never_overwrites_someone_elses_file(quiz, tmp_path):
    """--report refuses to replace a file that is not a Floorcall report, and replaces its own."""
    items = listing(quiz, "--exam", "--seed", "11", "--count", "2")
    notes = tmp_path / "notes.html"
    notes.write_text("<p>coordinator's notes</p>", encoding="utf-8")
    args = ["--exam", "--seed", "11", "--count", "2", "--answers", ",".join(numbers(items))]
    result = quiz(*args, "--report", notes)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"floor: {notes} already exists and is not a Floorcall quiz report; it was left untouched")
    assert notes.read_text(encoding="utf-8") == "<p>coordinator's notes</p>"
    ours = tmp_path / "exam.html"
    assert quiz(*args, "--report", ours).exit_code == 0
    assert quiz(*args, "--report", ours).exit_code == 0  # a report of ours is replaced


# ---------------------------------------------------------------- stats


def test_stats(quiz, tmp_path):
    """Everyone's totals, then one person's mastery per topic and per source, as text and JSON."""
    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "13", "--count", "4")
    given = numbers(items)
    given[0] = numbers(items, right=False)[0]
    quiz("--seed", "13", "--count", "4", "--name", "Ana", "--db", db, "--answers", ",".join(given))
    everyone = quiz("stats", "--db", db)
    assert everyone.exit_code == 0
    assert everyone.stdout.splitlines()[1].split()[:4] == ["Ana", "1", "4", "75%"]
    mine = quiz("stats", "--name", "ana", "--db", db)
    assert mine.exit_code == 0
    assert mine.stdout.startswith("Ana — 1 session(s), 4 answer(s), 75% right\nDue now: 0 · new today: 4 of 20")
    assert "by topic" in mine.stdout and "by source" in mine.stdout and "retention" in mine.stdout and "this week" in mine.stdout
    data = json.loads(quiz("stats", "--name", "Ana", "--db", db, "--json").stdout)
    assert sum(r["seen"] for r in data["topics"]) == 4
    assert sum(r["answers"] for r in data["topics"]) == 4 and sum(r["right"] for r in data["topics"]) == 3
    assert sum(r["due_today"] for r in data["topics"]) == 4  # learning steps: 1 and 10 minutes
    assert all(r["retention"] == 100.0 for r in data["topics"] if r["seen"])  # reviewed today: FSRS counts whole days
    assert data["retired_items"] == 0 and data["exams"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--name", "Zed"], "floor: no progress for 'Zed' in {db} — saved: Ana"),
        (["--db", "{missing}"], "floor: there is no progress database at {missing} yet — take a quiz with --name NAME first"),
    ],
)
def test_stats_errors(quiz, tmp_path, args, message):
    """An unknown person or a missing database is a clear error."""
    db, missing = tmp_path / "p.sqlite3", tmp_path / "none.sqlite3"
    items = listing(quiz, "--seed", "1", "--count", "1")
    quiz("--seed", "1", "--count", "1", "--name", "Ana", "--db", db, "--answers", numbers(items)[0])
    args = [a.format(missing=missing) for a in args]
    result = quiz("stats", *(["--db", str(db)] if "--db" not in args else []), *args)
    assert result.exit_code == 2
    assert result.stderr.strip() == message.format(db=db, missing=missing)


def test_stats_reads_a_read_only_database(quiz, tmp_path):
    """Stats opens the database read-only, so a write-protected file still shows progress."""
    db = tmp_path / "p.sqlite3"
    items = listing(quiz, "--seed", "1", "--count", "1")
    quiz("--seed", "1", "--count", "1", "--name", "Ana", "--db", db, "--answers", numbers(items)[0])
    db.chmod(0o444)
    try:
        assert quiz("stats", "--db", db).exit_code == 0
    finally:
        db.chmod(0o644)


# ---------------------------------------------------------------- a killed process


def test_progress_survives_a_killed_quiz(content, tmp_path):
    """`floor quiz --name X` answering through a pipe, killed with SIGKILL: every answer given is in the database."""
    db = tmp_path / "p.sqlite3"
    env = dict(os.environ, FLOORCALL_CACHE_DIR=str(tmp_path / "cache"), NO_COLOR="1",
               PYTHONPATH=str(REPO / "cli") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    base = [sys.executable, "-m", "floorcall", "--root", str(content), "quiz", "--seed", "21", "--count", "5"]
    items = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, env=env, check=True).stdout)["items"]
    proc = subprocess.Popen(base + ["--name", "Kim", "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    seen = bytearray()

    def pump():
        while chunk := proc.stdout.read1(4096):
            seen.extend(chunk)

    threading.Thread(target=pump, daemon=True).start()

    def wait_for_prompt(count: int) -> None:
        deadline = time.monotonic() + 30
        while seen.count(b"Your answer (") < count:
            assert proc.poll() is None, bytes(seen).decode() + proc.stderr.read().decode()
            assert time.monotonic() < deadline, bytes(seen).decode()
            time.sleep(0.02)

    try:
        for n in range(3):
            wait_for_prompt(n + 1)
            proc.stdin.write(f"{items[n]['answer_number']}\n".encode())
            proc.stdin.flush()
        wait_for_prompt(4)  # the third answer has been saved once the fourth question is asked
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert answers_in(db) == [("Kim", i["id"], i["answer_index"], 1, "practice") for i in items[:3]]


def test_leaving_at_once_ages_nothing(quiz, tmp_path):
    """A quiz left before the first answer starts no session: the Leitner schedule is unchanged."""
    db = tmp_path / "p.sqlite3"
    result = quiz("--seed", "1", "--count", "2", "--name", "Ana", "--db", db, input="q\n")
    assert result.exit_code == 1
    assert quiz("stats", "--db", db).stdout.startswith(f"No progress saved yet in {db}.")


# ---------------------------------------------------------------- the item cache


def test_items_come_from_a_cache_keyed_by_the_content(content, tmp_path, monkeypatch):
    """The items are built once per version of the content: the cache gives the same items, and an edited tree rebuilds them."""
    import dataclasses
    import shutil

    from floorcall.engines.quiz import Item
    from floorcall.store import quiz_cache

    assert tuple(f.name for f in dataclasses.fields(Item)) == quiz_cache.FIELDS
    monkeypatch.setenv("FLOORCALL_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "content"
    shutil.copytree(content, root)
    built, _skipped = quiz_cache.load_items(root)
    assert quiz_cache.cache_path(root).exists()
    monkeypatch.setattr(quiz_cache, "build", lambda *a: pytest.fail("rebuilt although nothing changed"))
    assert quiz_cache.load_items(root)[0] == built
    monkeypatch.undo()
    monkeypatch.setenv("FLOORCALL_CACHE_DIR", str(tmp_path / "cache"))
    tree = root / "rulings" / "chip-count.yaml"
    tree.write_text(tree.read_text(encoding="utf-8").replace("He gets an estimate only.", "He gets a rough estimate only."), encoding="utf-8")
    again, _skipped = quiz_cache.load_items(root)
    assert "He gets a rough estimate only." in {c for i in again for c in i.choices}
