"""The certification-style exam: its composition (40, balanced, one item per situation), time, pass mark,
reports, and an exam killed with SIGKILL mid-way losing nothing and taken up again on the same clock."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import REPO
from floorcall.engines import exam, quiz
from test_quiz import write_root
from test_quiz_cli import numbers


@pytest.fixture(scope="module")
def real_items(corpus):
    return quiz.generate_items(corpus, 0)


@pytest.mark.parametrize("seed", [1, 2, 3, 40, 977])
def test_a_paper_is_forty_balanced_items_one_per_situation(real_items, seed):
    """40 items; every topic within one of an even share; kinds in the certification's mix; no two items drawing on one situation."""
    paper = exam.compose(real_items, seed)
    assert len(paper) == exam.EXAM_COUNT == 40
    topics = Counter(i.topic for i in paper)
    assert set(topics) == set(quiz.TOPICS) and max(topics.values()) - min(topics.values()) <= 1
    kinds = Counter(i.kind for i in paper)
    assert kinds == exam.KIND_SHARES
    drawn = [g for item in paper for g in quiz.groups_of(item)]
    assert len(drawn) == len(set(drawn))


def test_the_same_seed_gives_the_same_paper(real_items):
    """Seed N is one paper, its choices in one order: the site's paper N is the terminal's."""
    first, again = exam.compose(real_items, 8), exam.compose(real_items, 8)
    assert [(i.id, i.choices) for i in first] == [(i.id, i.choices) for i in again]
    assert [i.id for i in exam.compose(real_items, 9)] != [i.id for i in first]


def test_a_short_corpus_gives_a_shorter_paper_never_a_repeat():
    """With fewer situations than questions asked for, the paper is shorter; nothing is asked twice."""
    items = [quiz.Item(f"scenario:t{k}:o", "scenario", "betting", ("betting",), ("tda-2024",), "Q", ("A.", "B.", "C."), 0, "W.",
                       ("tda-2024:1",), ref=f"t{k % 3}", draws_on=(f"t{k % 3}",)) for k in range(9)]
    assert len(exam.compose(items, 1, count=5)) == 3


@pytest.mark.parametrize("seconds, shown", [(6000, "1:40:00"), (3599, "59:59"), (7, "0:07"), (-3, "0:00")])
def test_countdown(seconds, shown):
    """The time left as a clock shows it."""
    assert exam.countdown(seconds) == shown


# ---------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    return write_root(tmp_path_factory.mktemp("examcli") / "content")


@pytest.fixture
def quiz_cli(floor, content):
    def run(*args, input=None, env=None):
        return floor("--root", content, "quiz", *args, input=input, env=env)

    return run


def paper(quiz_cli, *args) -> list[dict]:
    result = quiz_cli("--exam", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["items"]


def test_exam_defaults_forty_items_hundred_minutes_ninety_percent(quiz_cli, tmp_path):
    """`floor quiz --exam` asks for 40 (fewer when the content has fewer situations), counts down 100 minutes, passes at 90 %."""
    items = paper(quiz_cli, "--seed", "4")
    assert len(items) == 17  # the small corpus has 17 situations and rules to draw on: one item from each, never 40 with repeats
    result = quiz_cli("--exam", "--seed", "4", "--db", tmp_path / "p.sqlite3", "--name", "Ana", input="\n".join(numbers(items)) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"Exam: 17 questions · 1:40:00 · pass mark 90% · seed 4 · saved for Ana in {tmp_path / 'p.sqlite3'}")
    assert "Question 1 of 17 · " in out and " left" in out
    assert "Exam score: 17 of 17 (100%) — PASS (pass mark 90%)" in out and "Time used: 0:" in out


def test_exam_json_report_per_topic_and_kind(quiz_cli):
    """--exam --json --answers: score, pass mark, verdict, per-topic and per-kind results, each result with its citation and walk."""
    items = paper(quiz_cli, "--seed", "5", "--count", "4")
    given = numbers(items)
    given[0] = numbers(items, right=False)[0]
    data = json.loads(quiz_cli("--exam", "--seed", "5", "--count", "4", "--json", "--pass", "70", "--answers", ",".join(given)).stdout)
    assert (data["score"], data["total"], data["pass_mark"], data["passed"]) == (3, 4, 70.0, True)
    assert sum(v["of"] for v in data["by_topic"].values()) == 4 == sum(v["of"] for v in data["by_kind"].values())
    missed = [r for r in data["results"] if not r["correct"]]
    assert [r["id"] for r in missed] == [items[0]["id"]] and missed[0]["cites"] and missed[0]["walk"].startswith("floor ")


def test_time_runs_out(quiz_cli, tmp_path, monkeypatch):
    """When the time is up the exam ends at once: what was answered is graded, the rest counts as wrong."""
    from floorcall.commands import quiz_run

    items = paper(quiz_cli, "--seed", "6", "--count", "4")
    start = quiz_run._now()
    clock = {"now": start}
    monkeypatch.setattr(quiz_run, "_now", lambda: clock["now"])
    typed = iter(numbers(items))

    def reader(prompt):
        clock["now"] += timedelta(minutes=2)  # each answer takes two minutes
        return next(typed)

    from floorcall.commands import quiz_cmd

    monkeypatch.setattr(quiz_cmd, "read_line", reader)
    result = quiz_cli("--exam", "--seed", "6", "--count", "4", "--minutes", "5", "--name", "Bo", "--db", tmp_path / "p.sqlite3")
    assert result.exit_code == 1
    assert "Time is up." in result.stdout
    assert "Exam score: 2 of 4 (50%) — FAIL" in result.stdout and "Time used: 5:00 of 5:00" in result.stdout
    with sqlite3.connect(tmp_path / "p.sqlite3") as conn:
        assert conn.execute("SELECT status, score, total FROM exams").fetchall() == [("timed-out", 2, 4)]


def test_a_stopped_exam_is_taken_up_again_on_the_same_clock(quiz_cli, tmp_path):
    """q stops an exam without grading it; the same command takes it up where it stopped; --restart sets it aside."""
    db = tmp_path / "p.sqlite3"
    items = paper(quiz_cli, "--seed", "7", "--count", "4")
    right = numbers(items)
    first = quiz_cli("--exam", "--seed", "7", "--count", "4", "--name", "Cy", "--db", db, input=f"{right[0]}\nq\n")
    assert first.exit_code == 1
    assert "Stopped after 1 of 4 question(s). The exam is saved: run the same command to take it up again, on the same clock." in first.stdout
    again = quiz_cli("--exam", "--name", "Cy", "--db", db, input="\n".join(right[1:]) + "\n")
    assert again.exit_code == 0, again.output
    assert "Taking up Cy's exam started " in again.stdout and ": 1 of 4 answered, 1:39:" in again.stdout
    assert "Question 1 of 4" not in again.stdout and "Exam score: 4 of 4 (100%) — PASS" in again.stdout
    quiz_cli("--exam", "--seed", "7", "--count", "4", "--name", "Cy", "--db", db, input="q\n")
    fresh = quiz_cli("--exam", "--seed", "8", "--count", "4", "--name", "Cy", "--db", db, "--restart", input="q\n")
    assert "was set aside; its answers are kept." in fresh.stdout and fresh.stdout.count("Exam: 4 questions") == 1
    with sqlite3.connect(db) as conn:
        assert [r[0] for r in conn.execute("SELECT status FROM exams ORDER BY id")] == ["done", "abandoned", "open"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--minutes", "30"], "floor: --minutes sets the exam's time — add --exam"),
        (["--exam", "--minutes", "0"], "floor: --minutes is the time allowed, from 1 to 1440, not 0"),
        (["--exam", "--new", "5"], "floor: --new paces practice; an exam draws from every item — drop --new or --exam"),
        (["--restart"], "floor: --restart sets aside an unfinished exam — add --exam"),
        (["--new", "-1"], "floor: --new is how many new items a day, from 0 up, not -1"),
    ],
)
def test_exam_option_errors(quiz_cli, args, message):
    """Options that do not go together: one line on stderr, exit 2."""
    result = quiz_cli(*args)
    assert result.exit_code == 2 and result.stderr.strip() == message


def test_the_report_has_time_kinds_and_walks(quiz_cli, tmp_path):
    """The HTML report shows the time allowed, the per-kind table, and each missed item's citation and walk."""
    items = paper(quiz_cli, "--seed", "9", "--count", "4")
    report = tmp_path / "r.html"
    result = quiz_cli("--exam", "--seed", "9", "--count", "4", "--minutes", "45", "--answers", ",".join(numbers(items, right=False)), "--report", report)
    assert result.exit_code == 1
    html = report.read_text(encoding="utf-8")
    assert "45 minutes allowed" in html and "By kind of question" in html and "Walk it" in html and "<code>floor " in html


# ---------------------------------------------------------------- killed mid-exam


def test_an_exam_killed_with_sigkill_loses_nothing_and_goes_on(content, tmp_path):
    """`floor quiz --exam` killed with SIGKILL after three answers: all three are saved, and the same command finishes the paper."""
    db = tmp_path / "p.sqlite3"
    env = dict(os.environ, FLOORCALL_CACHE_DIR=str(tmp_path / "cache"), NO_COLOR="1",
               PYTHONPATH=str(REPO / "cli") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    base = [sys.executable, "-m", "floorcall", "--root", str(content), "quiz", "--exam", "--seed", "21", "--count", "4"]
    items = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, env=env, check=True).stdout)["items"]
    right = numbers(items)
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
            proc.stdin.write(f"{right[n]}\n".encode())
            proc.stdin.flush()
        wait_for_prompt(4)  # the third answer has been saved once the fourth question is asked
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    with sqlite3.connect(db) as conn:
        saved = conn.execute("SELECT item, picked, correct, mode, exam FROM answers ORDER BY id").fetchall()
        assert saved == [(i["id"], right[n], 1, "exam", 1) for n, i in enumerate(items[:3])]
        assert conn.execute("SELECT status FROM exams").fetchall() == [("open",)]
    finish = subprocess.run(base + ["--name", "Kim", "--db", str(db)], input=f"{right[3]}\n", capture_output=True, text=True, env=env,
                            timeout=60)
    assert finish.returncode == 0, finish.stdout + finish.stderr
    assert "Taking up Kim's exam" in finish.stdout and "Exam score: 4 of 4 (100%) — PASS" in finish.stdout


def test_the_help_states_the_engines_own_figures():
    """The figures `floor quiz --help` shows are the ones the engine uses."""
    from floorcall.commands import quiz_cmd, quiz_run
    from floorcall.engines import schedule

    assert (quiz_cmd.EXAM_COUNT, quiz_cmd.EXAM_MINUTES, quiz_cmd.EXAM_PASS) == (exam.EXAM_COUNT, exam.EXAM_MINUTES, exam.EXAM_PASS)
    assert (quiz_cmd.NEW_PER_DAY, quiz_cmd.DEFAULT_COUNT) == (schedule.DEFAULT_NEW_PER_DAY, quiz_run.DEFAULT_COUNT)
