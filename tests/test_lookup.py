"""`floor lookup`: ranking, output forms, bad input, and what stays off the lookup path."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO
from floorcall.commands.entry import main
from floorcall.core.textnorm import compile_phrases, stem, terms
from floorcall.engines.lookup import clean_query, rank


@pytest.mark.parametrize(
    "word, expected",
    [("raising", "rais"), ("raised", "rais"), ("raise", "rais"), ("chopped", "chop"), ("calling", "call"),
     ("called", "call"), ("chips", "chip"), ("mucked", "muck"), ("1000", "1000"), ("bet", "bet")],
)
def test_stem(word, expected):
    """The suffix stemmer folds the forms people type to one term."""
    assert stem(word) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("OOT raise", ["oot", "rais"]),
        ("acted out of turn", ["act", "oot"]),
        ("guy went all in", ["went", "allin"]),
        ("Dealer’s card", ["dealer", "card"]),
        ("sidepot", ["sid", "pot"]),
    ],
)
def test_terms_apply_synonyms(text, expected):
    """Slang and compounds map to the rulings' words; stopwords go."""
    phrases = compile_phrases({"oot": "oot", "out of turn": "oot", "all in": "allin", "sidepot": "side pot"})
    assert terms(text, phrases) == expected


@pytest.mark.parametrize(
    "query, cleaned",
    [("  a\tb\n c ", "a b c"), ("x\x00y\x1b[31m", "x y [31m"), ("é" * 600, "é" * 500)],
)
def test_clean_query(query, cleaned):
    """Control characters become spaces, whitespace folds, length is capped."""
    assert clean_query(query) == cleaned


@pytest.mark.parametrize(
    "query, expected_top",
    [
        ("overchip", "overchip-facing-bet"),
        ("tossed one big chip in, said nothing", "overchip-facing-bet"),
        ("overchpi facing a bet", "overchip-facing-bet"),
        # 'if' and 'you' are stopwords: the phrase table keeps the conditional kind
        ("told her if you bet im all in, then she bet", "conditional-statement"),
    ],
)
def test_rank_top(corpus, query, expected_top):
    """Typical, typo'd and slangy queries put the right situation first."""
    assert rank(corpus["index"], query).situations[0].id == expected_top


def test_json_contract(floor):
    """--json: query, results best first with id, title, score and cites (primary first)."""
    result = floor("lookup", "overchip", "--json", "--limit", "3")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["query"] == "overchip"
    top = data["results"][0]
    assert set(top) == {"id", "title", "score", "cites"} and top["cites"][0] == "tda-2024:44"
    scores = [r["score"] for r in data["results"]]
    assert scores == sorted(scores, reverse=True) and len(scores) <= 3


def test_piped_one_line_per_result(floor):
    """Piped output is one tab-separated line per result: id, title, primary rule."""
    result = floor("lookup", "overchip")
    first = result.stdout.splitlines()[0].split("\t")
    assert first == ["overchip-facing-bet", "One oversized chip put in facing a bet", "tda-2024:44"]


def test_terminal_number_walks(floor):
    """At a terminal, typing a result's number walks it at once."""
    result = floor("lookup", "overchip", input="1\n3\n", env={"FLOORCALL_INTERACTIVE": "1"})
    assert result.exit_code == 0
    assert " 1. One oversized chip put in facing a bet" in result.stdout
    assert "It is a call." in result.stdout


@pytest.mark.parametrize(
    "args, code, stderr_start",
    [
        (["lookup", "zzzqqq xxyyzz"], 1, "floor: no situation matches 'zzzqqq xxyyzz'"),
        (["lookup", "   "], 2, "floor: give a few words about what happened"),
        (["lookup", "\x00\x01"], 2, "floor: give a few words about what happened"),
        (["lookup", "overchip", "--limit", "0"], 2, "floor: --limit takes a whole number from 1 to 50, not '0'"),
        (["lookup", "overchip", "--bogus"], 2, "floor: No such option: --bogus (Possible options: --house) — try `floor lookup --help`"),
    ],
)
def test_bad_input(capsys, args, code, stderr_start):
    """Empty, control-only and malformed lookups: one line on stderr and a non-zero exit."""
    assert main(args) == code
    err = capsys.readouterr().err
    assert err.startswith(stderr_start) and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("query", ["x" * 10_000, "überspielt ♠♥ 筹码 raise", "over\tchip\r\n"])
def test_odd_queries_never_crash(capsys, query):
    """Very long, non-ASCII and control-character queries give results or a clean miss."""
    assert main(["lookup", query, "--json"]) in (0, 1)
    json.loads(capsys.readouterr().out)


def test_bare_words_run_a_lookup(capsys):
    """`floor WORDS…` whose first word is no command is a lookup."""
    assert main(["overchip", "facing", "bet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["id"] == "overchip-facing-bet"


def _run_lookup_subprocess(env_extra=None):
    code = (
        "import sys; from floorcall.commands.entry import main; rc = main(['lookup', 'oot raise', '--json']);"
        "heavy = [m for m in ('typer', 'yaml', 'jinja2', 'markdown_it', 'pydantic', 'click') if m in sys.modules];"
        "print('HEAVY', ','.join(heavy)); sys.exit(rc)"
    )
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=60)


def test_lookup_path_stays_light():
    """A warm lookup imports none of typer, yaml, jinja2, markdown-it or pydantic."""
    _run_lookup_subprocess()  # warm the cache
    result = _run_lookup_subprocess()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "HEAVY"


def test_corrupt_cache_rebuilds_silently(tmp_path):
    """A corrupt cache file is rebuilt without a word."""
    env = {"FLOORCALL_CACHE_DIR": str(tmp_path)}
    _run_lookup_subprocess(env)
    for cache in tmp_path.glob("*.marshal"):
        cache.write_bytes(b"{not a cache")
    result = _run_lookup_subprocess(env)
    assert result.returncode == 0 and result.stderr == ""


def test_cache_follows_content_changes(tmp_path, mini_root, floor):
    """Editing a content file rebuilds the cache: lookups are never stale."""
    first = json.loads(floor("--root", mini_root, "lookup", "overchip", "--json").stdout)
    assert first["results"][0]["title"] == "One big chip facing a bet"
    tree = mini_root / "rulings" / "overchip.yaml"
    tree.write_text(tree.read_text().replace("title: One big chip facing a bet", "title: Renamed chip tree"))
    second = json.loads(floor("--root", mini_root, "lookup", "overchip", "--json").stdout)
    assert second["results"][0]["title"] == "Renamed chip tree"


def test_concurrent_builds_are_safe(tmp_path):
    """Two processes building the cache at once both succeed and leave one valid file."""
    env = dict(os.environ, FLOORCALL_CACHE_DIR=str(tmp_path))
    code = "from floorcall.commands.entry import main; import sys; sys.exit(main(['lookup', 'overchip', '--json']))"
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    import marshal

    caches = list(tmp_path.glob("corpus-*.marshal"))
    assert len(caches) == 1 and marshal.loads(caches[0].read_bytes())["format"]


LOOKUP_SPELLINGS = [
    ["chip"], ["-n2", "chip"], ["-n", "2", "chip"], ["--limit=3", "chip"], ["--limit", "3", "chip"],
    ["--json", "chip"], ["chip", "--json"], ["--house", "none", "chip"], ["--house=none", "chip"],
    ["--", "-n", "chip"], ["a", "b", "-n", "4"],
]
LOOKUP_REFUSALS = [["-n=7", "chip"], ["-x", "chip"], ["--limit", "0", "chip"], ["--limit", "51", "chip"], ["chip", "--limit"], ["--lim", "2", "chip"]]


@pytest.mark.parametrize("args", LOOKUP_SPELLINGS, ids=" ".join)
def test_fast_path_parses_like_typer(floor, monkeypatch, args):
    """The fast path and the typer command read every lookup option spelling the same way."""
    from floorcall.commands import lookup_cmd

    seen = []
    monkeypatch.setattr(lookup_cmd, "run_lookup", lambda root, query, limit, as_json, house: seen.append((query, limit, as_json, house)) or 0)
    result = floor("lookup", *args)
    assert result.exit_code == 0, result.stderr
    assert lookup_cmd.parse_lookup_args(args).as_tuple() == seen[0]


@pytest.mark.parametrize("args", LOOKUP_REFUSALS, ids=" ".join)
def test_fast_path_refuses_like_typer(floor, args):
    """What typer refuses as a usage error, the fast path refuses too (exit 2), or leaves to typer to say."""
    from floorcall.commands import lookup_cmd
    from floorcall.core.errors import FloorError

    assert floor("lookup", *args).exit_code == 2
    try:
        assert lookup_cmd.parse_lookup_args(args) is None
    except FloorError as raised:
        assert raised.exit_code == 2


@pytest.mark.parametrize("argv, expect", [
    (["quizz"], "did you mean `floor quiz`?"),
    (["situation"], "did you mean `floor situations`?"),
    (["version"], "did you mean `floor --version`?"),
    (["calk", "raise"], "did you mean `floor calc`?"),
])
def test_mistyped_command_is_suggested(capsys, argv, expect):
    """A first word one or two edits from a command (and not a word of the rulings) names the command."""
    assert main(argv) == 2
    assert expect in capsys.readouterr().err


@pytest.mark.parametrize("argv, first_line", [
    (["help"], "Usage: floor [OPTIONS] COMMAND [ARGS]..."),
    (["help", "walk"], "Usage: floor walk [OPTIONS] {SITUATION}"),
    (["-h"], "Usage: floor [OPTIONS] COMMAND [ARGS]..."),
    (["walk", "-h"], "Usage: floor walk [OPTIONS] {SITUATION}"),
    (["oot", "raise", "--help"], "Usage: floor lookup [OPTIONS] {query}..."),
])
def test_help_everywhere(capsys, argv, first_line):
    """`floor help [COMMAND]`, -h on any command, and --help after lookup words all print help."""
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0] == first_line
