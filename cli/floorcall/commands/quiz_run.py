"""`floor quiz` without typer: the typer command (commands.quiz_cmd) and the fast path both call `run_quiz`.

Importing typer and building a thousand items used to make `floor quiz` take ~28 interpreter
starts before its first question. Now the items come from their cache (store.quiz_cache), the
options are read by the fast path, and the rulebook is loaded only once there is feedback to give.

Practice: one question at a time, feedback quoting the rule that decides and the walk that shows
it; with --name, FSRS schedules every item for that person (due first, new at a daily pace). An
exam: a certification-style paper (engines.exam), timed, no feedback until the end, then the
score, per-topic results and every missed item with its citation; saved answer by answer, so a
killed exam is taken up again on the same clock.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from floorcall.core.errors import FloorError

DEFAULT_COUNT = 10
EXIT_STOPPED = 1  # q or end of input before the last question: not a finished quiz
EXIT_EXAM_FAILED = 1
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it
SEED_RANGE = 1_000_000  # a random seed short enough to read out and replay
# Warn when this little time is left (seconds), once each.
TIME_WARNINGS = (600, 60)
TOPIC_HELP = "betting, dealing, showdown, chips, seating, conduct, procedure or house"


class TimeUp(Exception):
    """The exam's time ran out while a question was open."""


# ---------------------------------------------------------------- reading the keyboard


def read_line(prompt: str) -> str:
    from floorcall.commands.interactive import read_line as plain

    return plain(prompt)


class TimedReader:
    """Lines from stdin that stop waiting at a deadline (raising TimeUp).

    Reads the file descriptor itself (select + os.read) so a line already sent is never stuck in a
    buffer while select waits; where stdin has no descriptor (a test's stand-in) it reads plainly
    and the deadline is checked once the line arrives."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stdin
        self.pending = b""
        try:
            self.fd: int | None = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def __call__(self, prompt: str, seconds_left: float | None = None) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        if self.fd is None or seconds_left is None:
            line = self.stream.readline()
            if not line:
                raise EOFError
            return line.strip()
        import select
        import time

        ends = time.monotonic() + seconds_left
        while b"\n" not in self.pending:
            wait = ends - time.monotonic()
            if wait <= 0:
                raise TimeUp
            ready, _w, _x = select.select([self.fd], [], [], wait)
            if not ready:
                raise TimeUp
            chunk = os.read(self.fd, 4096)
            if not chunk:
                if self.pending:
                    break
                raise EOFError
            self.pending += chunk
        line, _sep, self.pending = self.pending.partition(b"\n")
        return line.decode("utf-8", "replace").strip()


# ---------------------------------------------------------------- options


def _check(topic, count, exam, pass_mark, report, as_json, answers, minutes, new, restart) -> dict:
    from floorcall.engines.exam import EXAM_COUNT, EXAM_MINUTES, EXAM_PASS, check_minutes
    from floorcall.engines.quiz import TOPICS

    if topic is not None:
        topic = topic.strip().lower()
        if topic not in TOPICS:
            raise FloorError(f"unknown topic '{topic}' — topics: {', '.join(TOPICS)}")
    if count is not None and count < 1:
        raise FloorError(f"--count must be at least 1, not {count}")
    if pass_mark is not None and not exam:
        raise FloorError("--pass sets the exam pass mark — add --exam")
    if pass_mark is not None and not 0 <= pass_mark <= 100:
        raise FloorError(f"--pass is a percentage from 0 to 100, not {pass_mark:g}")
    if minutes is not None and not exam:
        raise FloorError("--minutes sets the exam's time — add --exam")
    if restart and not exam:
        raise FloorError("--restart sets aside an unfinished exam — add --exam")
    if new is not None and exam:
        raise FloorError("--new paces practice; an exam draws from every item — drop --new or --exam")
    if new is not None and not 0 <= new <= 10_000:
        raise FloorError(f"--new is how many new items a day, from 0 up, not {new}")
    if report is not None and not exam:
        raise FloorError("--report writes the exam report — add --exam")
    if report is not None and as_json and answers is None:
        raise FloorError("--report needs graded answers — add --answers, or drop --json to take the exam")
    return {"topic": topic, "count": count if count is not None else (EXAM_COUNT if exam else DEFAULT_COUNT),
            "pass": pass_mark if pass_mark is not None else EXAM_PASS,
            "minutes": check_minutes(minutes) if minutes is not None else EXAM_MINUTES}


def _random_seed() -> int:
    import secrets

    return secrets.randbelow(SEED_RANGE)


def _source(source):
    if source is None:
        return None
    from floorcall.content.rulebook import normalise_source

    return normalise_source(source)


def _now():
    from floorcall.engines.schedule import now_utc

    return now_utc()


def exam_name(name: str | None) -> str:
    """Whose exam it is: --name, else the configured name (FLOORCALL_NAME, config), else the login name.
    An exam is always saved, so a killed one loses nothing; it is saved under someone."""
    if name:
        return name
    from floorcall.commands.config import effective

    configured = effective("name")[0]
    if configured:
        return configured
    import getpass

    try:
        return getpass.getuser() or "trainee"
    except (KeyError, OSError):
        return "trainee"


def _open_store(name: str | None, db, readonly: bool):
    if not name:
        return None
    from floorcall.store.quiz_store import ProgressStore, check_name, default_db_path

    check_name(name)
    path = Path(db) if db is not None else default_db_path()
    if readonly and not path.expanduser().exists():
        return None  # listing items for someone with nothing saved yet: no file to read, none to create
    return ProgressStore(path, readonly=readonly)


def emit_json(value) -> None:
    import json

    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------- the command


def run_quiz(root, *, topic=None, source=None, count=None, seed=None, name=None, db=None, exam=False, pass_mark=None,
             report=None, as_json=False, answers=None, minutes=None, new=None, restart=False, edition=None, style=None,
             reader=None, out=None) -> int:
    from floorcall.engines import quiz as engine
    from floorcall.store.quiz_cache import load_items

    settings = _check(topic, count, exam, pass_mark, report, as_json, answers, minutes, new, restart)
    source_id = _source(source)
    if edition:  # cite in an imported edition's numbers (floor import): items made afresh from that view
        from floorcall.commands.editions_cmd import in_edition
        from floorcall.content import corpus as corpus_module
        from floorcall.store.quiz_cache import CONTENT_SEED

        generated = engine.generate(in_edition(corpus_module.load_content(Path(root)), edition), CONTENT_SEED)
        items, skipped = generated.items, generated.skipped_counts()
    else:
        items, skipped = load_items(Path(root))
    seed = seed if seed is not None else _random_seed()
    out = out or _echo
    if style is None:
        from floorcall.commands.render import Style

        style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    listing_only = as_json and answers is None
    interactive_exam = exam and answers is None and not as_json
    who = exam_name(name) if interactive_exam else name
    store = _open_store(who, db, readonly=listing_only)
    try:
        if exam:
            from floorcall.engines.exam import compose

            if interactive_exam and store is not None:
                return _exam_session(root, store, who, items, seed, settings, source_id, report, restart, style, reader, out)
            chosen = compose(items, seed, settings["count"], settings["topic"], source_id)
        else:
            cards = store.cards(name) if store is not None else ({} if name else None)
            now = _now()
            picked = engine.select(items, settings["topic"], source_id, settings["count"], seed, cards, now, new)
            chosen = [engine.present(item, seed) for item in picked]
            if not chosen:
                _nothing_due(items, cards or {}, now, new, settings["topic"], source_id, name, as_json, out)
                return 0
        if listing_only:
            emit_json({"seed": seed, "topic": settings["topic"], "source": source_id, "count": len(chosen), "exam": exam,
                       "items": [item.as_json() for item in chosen], "skipped": skipped})
            return 0
        session = (store.session(name) + 1) if store is not None else 0  # begun on disk with the first answer
        recorder = _recorder(store, name, session, "exam" if exam else "practice")
        if answers is not None:
            return _grade_answers(root, chosen, answers, seed, exam, settings, report, as_json, recorder, store, name, out, style)
        return _practice(root, chosen, seed, recorder, name, store, style, reader or read_line, out)
    finally:
        if store is not None:
            store.close()


def _echo(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _recorder(store, name, session, mode, exam_id=None) -> Callable:
    """Save each answer as it is given; the session is started on disk with the first one."""
    if store is None:
        return lambda item, chosen, said=None: None
    started: dict = {}

    def record(item, chosen, said=None):
        if "session" not in started:
            started["session"] = store.begin_session(name)
        return store.record(name, started["session"], item, chosen, mode, said=said, exam=exam_id)

    return record


def _rules(root) -> dict:
    """The rulebook, loaded only when feedback or a report needs it."""
    from floorcall.content import corpus as corpus_module

    return corpus_module.load_content(Path(root))["rules"]


def _nothing_due(items, cards, now, new, topic, source, name, as_json, out) -> None:
    from floorcall.engines import quiz as engine
    from floorcall.engines.schedule import describe_wait

    state = engine.queue(items, cards, now, new, topic, source)
    if as_json:
        emit_json({"count": 0, "items": [], "name": name, **state})
        return
    line = f"Nothing is due for {name} now, and today's {state['new_per_day']} new item(s) are done."
    if state["next_due"] is not None:
        from floorcall.engines.schedule import Card

        wait = describe_wait(Card(1, 0, None, None, state["next_due"], None), now)
        line += f" The next review falls due {wait}."
    out(line)
    out(f"To learn more today: --new {state['new_per_day'] + 10} (or practise without --name).")


# ---------------------------------------------------------------- showing and answering a question


def _hanging(lead: str, text: str) -> str:
    import textwrap

    from floorcall.commands.render import terminal_width

    return "\n".join(textwrap.fill(part, width=terminal_width(), initial_indent=lead if n == 0 else " " * len(lead),
                                   subsequent_indent=" " * len(lead)) for n, part in enumerate(str(text).split("\n")))


def show_question(item, number: int, total: int, out, style, clock: str = "") -> None:
    from floorcall.commands.render import wrap
    from floorcall.engines.quiz import KIND_NAMES

    out("")
    head = style(f"Question {number} of {total}", "bold") + style(f" · {item.topic} · {KIND_NAMES.get(item.kind, item.kind)}", "dim")
    out(head + (style(f" · {clock} left", "yellow") if clock else ""))
    out(wrap(item.prompt))
    for index, choice in enumerate(item.choices, 1):
        out(_hanging(f"  {index}) ", choice))


def answer_prompt(item, rate: bool) -> str:
    last = len(item.choices)
    what = (f"every right number, e.g. 1 3 (1-{last})" if item.multi else f"1-{last}")
    rating = "; add h hard, e easy, w a guess" if rate else ""
    return f"Your answer ({what}{rating}; q to stop): "


def ask(item, number: int, total: int, reader, out, style, rate: bool = False, clock: str = "", seconds_left=None):
    """Show one question and read an answer: (choice, rating said or None), or None when the trainee types q."""
    from floorcall.engines.quiz import read_answer

    show_question(item, number, total, out, style, clock)
    while True:
        prompt = answer_prompt(item, rate)
        text = (reader(prompt, seconds_left) if seconds_left is not None else reader(prompt)).strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        read = read_answer(text, item)
        if read is not None and (rate or read[1] is None):
            return read
        if item.multi:
            out(f"Type the numbers of every right choice (1 to {len(item.choices)}), e.g. 1 3, or q to stop.")
        else:
            out(f"Type a number from 1 to {len(item.choices)}" + (" (a letter after it rates it: h, e, w)" if rate else "")
                + ", or q to stop.")


def feedback(item, chosen, rules: dict, out, style, card=None, now=None) -> None:
    """Right or wrong, the explanation, the rule that decides (quoted), the walk that shows it, when it comes back."""
    from floorcall.commands.render import render_cited_rule, wrap

    if item.is_right(chosen):
        out(style("Right.", "green", "bold"))
    else:
        label = "The answers are:" if item.multi else "The answer is:"
        out(style("Not quite.", "red", "bold") + " " + label)
        for index in item.right_answers:
            out(_hanging(f"  {index + 1}) ", item.choices[index]))
    out(wrap(item.explanation, "  "))
    primary = rules.get(item.cites[0]) if item.cites else None
    if primary is not None:
        out(render_cited_rule(primary, style))
    if item.walk:
        for line in item.walk.split("\n"):
            out(style("  Walk it: ", "dim") + line)
    if card is not None and now is not None:
        from floorcall.engines.schedule import describe_wait

        out(style(f"  Comes back {describe_wait(card, now)}.", "dim"))


# ---------------------------------------------------------------- practice


def _practice(root, items, seed, record, name, store, style, reader, out) -> int:
    from floorcall.engines import quiz as engine

    rules: dict | None = None
    head = f"Quiz: {len(items)} question(s) · seed {seed}"
    if name:
        head += f" · progress saved for {name}" + (f" in {store.path}" if store is not None else "")
    out(style(head, "bold"))
    out(style("Answer by number" + ("; a letter after it rates your recall (h hard, e easy, w a guess)" if name else "")
              + "; q stops; what you answered is kept.", "dim"))
    given: list = []
    stop_code = None
    try:
        for number, item in enumerate(items, 1):
            read = ask(item, number, len(items), reader, out, style, rate=bool(name))
            if read is None:
                stop_code = EXIT_STOPPED
                break
            chosen, said = read
            try:
                card = record(item, chosen, said)
            except FloorError:
                _print_stopped(engine.grade(items[: len(given)], given), len(items), False, name, out, style)
                raise
            given.append(chosen)
            if rules is None:
                rules = _rules(root)
            feedback(item, chosen, rules, out, style, card, _now() if card is not None else None)
    except KeyboardInterrupt:
        stop_code = EXIT_INTERRUPTED
    except EOFError:
        stop_code = EXIT_STOPPED
    graded = engine.grade(items[: len(given)], given)
    if stop_code is not None:
        _print_stopped(graded, len(items), False, name, out, style)
        return stop_code
    out("")
    print_summary(graded, False, 0, out, style)
    if name:
        out(style(f"Progress saved for {name}: FSRS brings each item back when you are about to forget it "
                  "(`floor quiz stats --name NAME` shows what is due).", "dim"))
    return 0


def _print_stopped(graded, planned: int, exam: bool, name, out, style) -> None:
    out("")
    what = f"Stopped after {graded.total} of {planned} question(s)."
    if exam:
        out(what + " The exam is saved: run the same command to take it up again, on the same clock.")
    else:
        out(what + (f" Score so far: {graded.score} of {graded.total}." if graded.total else ""))
    if name and graded.total:
        out(style(f"Saved for {name}: {graded.total} answer(s).", "dim"))


def print_summary(graded, exam: bool, pass_mark: float, out, style) -> None:
    line = f"Score: {graded.score} of {graded.total} ({graded.percent:g}%)"
    if exam:
        verdict = style("PASS", "green", "bold") if graded.passed(pass_mark) else style("FAIL", "red", "bold")
        line = f"Exam score: {graded.score} of {graded.total} ({graded.percent:g}%) — {verdict} (pass mark {pass_mark:g}%)"
    out(style(line, "bold") if not exam else line)
    topics = graded.by_topic()
    if len(topics) > 1 or exam:
        out("By topic: " + " · ".join(f"{t} {a}/{b}" for t, (a, b) in topics.items()))


def print_missed(graded, rules: dict, out, style) -> None:
    from floorcall.commands.render import wrap
    from floorcall.core.labels import rule_label

    missed = graded.missed
    if not missed:
        return
    out("")
    out(style(f"Missed ({len(missed)}):", "bold"))
    for result in missed:
        number = graded.results.index(result) + 1
        item = result.item
        out("")
        out(style(f"{number}. ", "bold") + style(f"[{item.id}] · {item.topic}", "dim"))
        out(wrap(item.prompt, "   "))
        out(_hanging("   Your answer: ", result.chosen_text))
        out(_hanging("   Answer: " if item.multi else "   Ruling: ", item.right))
        out(wrap(item.explanation, "   "))
        labels = [f"{rule_label(rules[c])} — {rules[c]['title']} [{c}]" if c in rules else c for c in item.cites]
        out(wrap("Cited: " + "; ".join(labels), "   "))
        if item.walk:
            out(wrap("Walk it: " + item.walk.split("\n")[0], "   "))


# ---------------------------------------------------------------- scripted answers


def _grade_answers(root, items, text, seed, exam, settings, report, as_json, record, store, name, out, style) -> int:
    from floorcall.engines import quiz as engine

    rated = engine.parse_rated_answers(text, items)
    exam_id = None
    if exam and store is not None:
        exam_id = store.start_exam(name, seed, [i.id for i in items], settings["minutes"], settings["pass"], _now())
        record = _recorder(store, name, store.session(name) + 1, "exam", exam_id)
    for item, (choice, said) in zip(items, rated, strict=True):
        record(item, choice, said)  # each in its own transaction, as in a live quiz
    graded = engine.grade(items, [c for c, _s in rated])
    if exam_id is not None:
        store.finish_exam(exam_id, "done", graded.score, graded.total)
    pass_mark = settings["pass"]
    if report is not None:
        _write_report(root, report, graded, seed, pass_mark, name, settings["minutes"], None)
    if as_json:
        emit_json({"seed": seed, "name": name, "exam": exam, **graded.as_json(pass_mark if exam else None)})
    else:
        print_summary(graded, exam, pass_mark, out, style)
        if exam:
            print_missed(graded, _rules(root), out, style)
        if report is not None:
            out(f"Report written to {report}")
    return EXIT_EXAM_FAILED if exam and not graded.passed(pass_mark) else 0


def _write_report(root, path, graded, seed, pass_mark, name, minutes, used_seconds) -> None:
    from floorcall.publish.quiz_report import write_report

    write_report(Path(path), Path(root), graded, _rules(root), seed=seed, pass_mark=pass_mark, name=name,
                 minutes=minutes, used_seconds=used_seconds)


# ---------------------------------------------------------------- the timed exam


def _exam_session(root, store, name, items, seed, settings, source, report, restart, style, reader, out) -> int:
    from floorcall.engines import exam as exams
    from floorcall.engines import quiz as engine

    by_id = {item.id: item for item in items}
    now = _now()
    open_exam = store.open_exam(name)
    if open_exam is not None and restart:
        store.finish_exam(open_exam["id"], "abandoned", 0, 0)
        out(style(f"The unfinished exam started {_local(open_exam['started'])} was set aside; its answers are kept.", "dim"))
        open_exam = None
    if open_exam is not None:
        paper_seed, minutes, pass_mark = open_exam["seed"], open_exam["minutes"], open_exam["pass_mark"]
        paper = [engine.present(by_id[i], paper_seed) for i in open_exam["items"] if i in by_id]
        dropped = len(open_exam["items"]) - len(paper)
        answered = open_exam["answered"]
        ends, exam_id, started = open_exam["deadline"], open_exam["id"], open_exam["started"]
        left = exams.seconds_left(ends, now)
        if left <= 0:
            out(style(f"{name}'s exam started {_local(started)} ran out of time while it was stopped; here is its result. "
                      "Run the command again for a new exam.", "bold"))
        else:
            out(style(f"Taking up {name}'s exam started {_local(started)}: {len(answered)} of {len(paper)} answered, "
                      f"{exams.countdown(left)} left (--restart sets it aside for a new one).", "bold"))
        if dropped:
            out(style(f"{dropped} question(s) of it are no longer in the quiz (the content changed); they are not counted.", "dim"))
    else:
        paper_seed, minutes, pass_mark = seed, settings["minutes"], settings["pass"]
        paper = exams.compose(items, seed, settings["count"], settings["topic"], source)
        started = now
        exam_id = store.start_exam(name, seed, [i.id for i in paper], minutes, pass_mark, started)
        ends = exams.deadline(started, minutes)
        answered = {}
        out(style(f"Exam: {len(paper)} questions · {exams.countdown(int(minutes * 60))} · pass mark {pass_mark:g}% · "
                  f"seed {seed} · saved for {name} in {store.path}", "bold"))
        out(style("No feedback until the end. Answer by number (select-all: every right number, e.g. 1 3); q stops — "
                  "the exam is kept and the same command takes it up again, on the same clock.", "dim"))
    given: dict[str, object] = {item_id: _parse_picked(picked) for item_id, picked in answered.items()}
    record = _recorder(store, name, store.session(name) + 1, "exam", exam_id)
    timed = (lambda prompt, _left: reader(prompt)) if reader is not None else TimedReader()
    warned: set[int] = set()
    stop_code = None
    try:
        for number, item in enumerate(paper, 1):
            if item.id in given:
                continue
            left = exams.seconds_left(ends, _now())
            if left <= 0:
                raise TimeUp
            for mark in TIME_WARNINGS:
                if left <= mark and mark not in warned:
                    warned.add(mark)
                    out(style(f"{exams.countdown(left)} left.", "yellow", "bold"))
            read = ask(item, number, len(paper), timed, out, style, clock=exams.countdown(left), seconds_left=left)
            if read is None:
                stop_code = EXIT_STOPPED
                break
            if exams.seconds_left(ends, _now()) <= 0:
                raise TimeUp  # answered after the time: not counted, as on paper
            record(item, read[0])
            given[item.id] = read[0]
    except TimeUp:
        out("")
        out(style("Time is up.", "red", "bold"))
    except KeyboardInterrupt:
        stop_code = EXIT_INTERRUPTED
    except EOFError:
        stop_code = EXIT_STOPPED
    graded = engine.grade(paper, [given.get(item.id) for item in paper])
    if stop_code is not None and exams.seconds_left(ends, _now()) > 0:
        answered_so_far = engine.grade([i for i in paper if i.id in given], [given[i.id] for i in paper if i.id in given])
        _print_stopped(answered_so_far, len(paper), True, name, out, style)
        return stop_code
    status = "done" if all(item.id in given for item in paper) else "timed-out"
    store.finish_exam(exam_id, status, graded.score, graded.total)
    used = min(int((_now() - started).total_seconds()), int(minutes * 60))
    out("")
    print_summary(graded, True, pass_mark, out, style)
    out(f"Time used: {exams.countdown(used)} of {exams.countdown(int(minutes * 60))}")
    rules = _rules(root)
    print_missed(graded, rules, out, style)
    if report is not None:
        _write_report(root, report, graded, paper_seed, pass_mark, name, minutes, used)
        out(f"Report written to {report}")
    return EXIT_EXAM_FAILED if not graded.passed(pass_mark) else 0


def _parse_picked(picked: str):
    numbers = [int(n) - 1 for n in str(picked).split("+") if n.strip().isdigit()]
    return numbers[0] if len(numbers) == 1 else tuple(numbers)


def _local(moment) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


# ---------------------------------------------------------------- stats


def run_stats(root, name=None, db=None, as_json=False, out=None) -> int:
    from floorcall.store.quiz_store import ProgressStore, check_name, default_db_path

    out = out or _echo
    path = Path(db) if db is not None else default_db_path()
    with ProgressStore(path, readonly=True) as store:
        people = store.people()
        if name is None:
            _print_people(people, path, as_json, out)
            return 0
        wanted = check_name(name)
        person = next((p for p in people if p["name"].lower() == wanted.lower()), None)
        if person is None:
            known = ", ".join(p["name"] for p in people) or "nobody yet"
            raise FloorError(f"no progress for '{wanted}' in {path} — saved: {known}")
        cards = store.cards(wanted)
        exams_taken = store.exams(wanted)
    from floorcall.engines import quiz as engine
    from floorcall.store.quiz_cache import load_items

    items, _skipped = load_items(Path(root))
    now = _now()
    table = engine.progress_table(items, cards, now)
    today = engine.queue(items, cards, now)
    current = {i.id for i in items}
    retired = sum(1 for item_id in cards if item_id not in current)
    history = [{"started": e["started"].isoformat(), "status": e["status"], "score": e["score"], "total": e["total"],
                "pass_mark": e["pass_mark"], "passed": (e["score"] or 0) * 100 >= e["pass_mark"] * (e["total"] or 0) > 0}
               for e in exams_taken]
    if as_json:
        emit_json({"name": person["name"], "sessions": person["sessions"], "answers": person["answers"],
                   "right": person["right"], "retired_items": retired, "due_now": today["due_now"],
                   "new_today": today["new_today"], "new_per_day": today["new_per_day"], "exams": history, **table})
        return 0
    _print_progress(person, table, today, history, retired, out)
    return 0


def _percent(part, whole) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def _print_people(people: list[dict], path: Path, as_json: bool, out) -> None:
    if as_json:
        emit_json({"db": str(path), "people": people})
        return
    if not people:
        out(f"No progress saved yet in {path}.")
        return
    out(f"{'name':<24} {'sessions':>8} {'answers':>8} {'right':>6}  last answer")
    for p in people:
        out(f"{p['name']:<24} {p['sessions']:>8} {p['answers']:>8} {_percent(p['right'], p['answers']):>6}  {p['last'] or '-'}")
    out("Details: floor quiz stats --name NAME")


def _print_progress(person: dict, table: dict, today: dict, history: list[dict], retired: int, out) -> None:
    from floorcall.commands.render import Style

    style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    out(style(f"{person['name']} — {person['sessions']} session(s), {person['answers']} answer(s), "
              f"{_percent(person['right'], person['answers'])} right", "bold"))
    out(f"Due now: {today['due_now']} · new today: {today['new_today']} of {today['new_per_day']}")
    for heading, rows in (("topic", table["topics"]), ("source", table["sources"])):
        out("")
        out(f"{'by ' + heading:<12} {'items':>6} {'seen':>6} {'retention':>10} {'due today':>10} {'this week':>10} {'right':>6}")
        for row in rows:
            retention = f"{row['retention']:g}%" if row["retention"] is not None else "-"
            out(f"{row['name']:<12} {row['items']:>6} {row['seen']:>6} {retention:>10} {row['due_today']:>10} "
                f"{row['due_week']:>10} {_percent(row['right'], row['answers']):>6}")
    if history:
        out("")
        out("Exams:")
        for exam in history[-5:]:
            result = f"{exam['score']}/{exam['total']}" if exam["total"] else "-"
            verdict = "PASS" if exam["passed"] else ("open" if exam["status"] == "open" else "FAIL")
            out(f"  {exam['started'][:16].replace('T', ' ')}  {exam['status']:<10} {result:>7}  {verdict}")
    out("")
    out(style("Retention: FSRS's predicted chance of recalling the items seen, today. Due today / this week: "
              "reviews falling due by the end of the study day (4 a.m.) or within seven days.", "dim"))
    if retired:
        out(style(f"{retired} answered item(s) are no longer in the quiz (the content changed); their answers are kept.", "dim"))
