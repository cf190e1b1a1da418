#!/usr/bin/env python3
"""Fault injection over real trees: how many deliberate content faults `floor check` names (code,
file and line), and whether any other command falls over because of one.

Each fault is a small text edit to a copy of the content (rulebook/, rulings/, site/) in a
temporary folder. For each: `floor --root COPY check` must exit 1 naming the edited file with an
FCnnn code and a line; then lookup, walk, rule, situations and check --stats must not print
"internal error" or a traceback. Usage:

    uv run python bench/mutation_run.py [--trees N] [--site]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "cli"))

from floorcall.commands.entry import main  # noqa: E402

TREES = ["overchip-facing-bet", "dealer-exposed-holecard", "multiple-chips-facing-bet", "two-burn-cards",
         "action-out-of-turn", "absent-at-start", "fouled-deck", "reopening-after-short-all-in",
         "pot-pushed-to-wrong-player", "calling-the-clock"]
BOMB = "".join(f"{chr(97 + i)}: &{chr(97 + i)} [{', '.join(['*' + chr(96 + i)] * 9) if i else 'lol, lol, lol'}]\n" for i in range(9))


def first(pattern: str, text: str) -> re.Match | None:
    return re.search(pattern, text, re.M)


def faults(text: str) -> list[tuple[str, str]]:
    """(name, mutated text) for one tree's text; a fault that does not apply to this tree is skipped."""
    out = []

    def sub(name, pattern, replacement, count=1):
        new, n = re.subn(pattern, replacement, text, count=count, flags=re.M)
        if n:
            out.append((name, new))

    sub("start deleted", r"^start: .*\n", "")
    sub("cite not a list", r"^(    cite: )\[[^\]\n]*\]", r"\g<1>44")
    sub("cite item a number", r"^(    cite: )\[[^\]\n]*\]", r"\g<1>[44]")
    sub("cite emptied", r"^(    cite: )\[[^\]\n]*\]", r"\g<1>[]")
    sub("unknown cite", r"^(    cite: \[)([a-z0-9-]+:[A-Za-z0-9-]+)", r"\g<1>\g<2>x")
    sub("next a list", r"next: ([a-z0-9-]+)\}", r"next: [\1]}")
    sub("next to a typo", r"next: ([a-z0-9-]+)\}", r"next: \1x}")
    sub("help deleted", r"^    help: .*\n", "")
    sub("ask deleted", r"^    ask: .*\n", "")
    sub("alias no", r"^aliases:\n", "aliases:\n  - no\n")
    sub("alias 2019", r"^aliases:\n", "aliases:\n  - 2019\n")
    sub("alias empty", r"^aliases:\n", "aliases:\n  -\n")
    sub("aliases a number", r"^aliases:\n(  - .*\n)+", "aliases: 5\n")
    sub("unknown tag", r"^tags: \[", "tags: [poker, ")
    sub("unknown game", r"^tags:", "games: [poker-dice]\ntags:")
    sub("title twice", r"^(title: .*\n)", r"\1\1")
    sub("unknown field", r"^(    ruling: )", r"    wyh: x\n\1")
    sub("answer a bare string", r"^(      [a-z0-9-]+): \{label: [^\n]*next: ([a-z0-9-]+)\}$", r"\1: \2")
    sub("expect wrong", r"expect: ([a-z0-9-]+)", r"expect: \1-nope")
    sub("given unknown answer", r"given: \{([a-z0-9-]+): ([a-z0-9-]+)", r"given: {\1: \2-nope")
    sub("tab indent", r"^  ", "\t")
    sub("alias bomb", r"^tags:", BOMB + "games: [*i]\ntags:")
    sub("id differs from file", r"^id: ([a-z0-9-]+)", r"id: \1-other")
    sub("tda a string", r"^    tda:\n(      .*\n)+", "    tda: Misdeal.\n")
    out.append(("emptied file", ""))
    out.append(("comment-only file", "# nothing left\n"))
    return out


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", type=int, default=len(TREES))
    parser.add_argument("--site", action="store_true", help="also build the site after each fault (slower)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="floor-mutants-"))
    import os

    os.environ["FLOORCALL_CACHE_DIR"] = str(base / "cache")
    started = time.perf_counter()
    tried = caught = crashes = 0
    missed: list[str] = []
    root = base / "root"
    for folder in ("rulebook", "rulings", "site"):
        shutil.copytree(REPO / folder, root / folder)
    for tree in TREES[: args.trees]:
        target = root / "rulings" / f"{tree}.yaml"
        original = target.read_text(encoding="utf-8")
        for name, text in faults(original):
            target.write_text(text, encoding="utf-8")
            tried += 1
            code, out, err = run("--root", root, "check")
            named = code == 1 and first(rf"^rulings/{re.escape(tree)}\.yaml:\d+: FC\d{{3}} ", out)
            caught += bool(named)
            if not named:
                missed.append(f"{tree}: {name} (exit {code})")
            commands = [("lookup", "overchip"), ("walk", tree, "--json"), ("rule", "44"), ("situations",), ("check", "--stats")]
            if args.site:
                commands.append(("site", "build", "--out", base / "site"))
            for command in commands:
                status, _o, errors = run("--root", root, *command)
                if status == 70 or "internal error" in errors or "Traceback" in errors:
                    crashes += 1
                    missed.append(f"{tree}: {name}: `{' '.join(map(str, command))}` crashed: {errors.strip()[:120]}")
        target.write_text(original, encoding="utf-8")
    shutil.rmtree(base, ignore_errors=True)
    print(f"faults tried {tried}, named by floor check (code, file, line) {caught}, "
          f"other commands crashing {crashes}; {time.perf_counter() - started:.0f} s")
    for line in missed:
        print("  not caught:", line)
    return 0 if caught == tried and crashes == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main_bench())
