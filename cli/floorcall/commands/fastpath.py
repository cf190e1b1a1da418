"""The table commands without typer: `walk`, `rule`, `situations` and every `calc` subcommand.

Importing typer costs ~30 ms, most of a table command's time; these commands are read off the
command line here instead, as click would read them (options anywhere, `--opt=value`, `-aX`,
`--` ends options, a repeated option keeps the last value). Anything this parser is unsure of —
help, an unknown option, a missing or extra argument — returns None and typer decides, with its
own help and messages. tests/test_fastpath.py holds these tables to the typer commands.
"""

from __future__ import annotations

from floorcall.commands.calc_options import OPTIONS as CALC_OPTIONS

FLAG, VALUE, MULTI = "flag", "value", "multi"
LOG_PARAMETERS = {"log", "table", "seat", "player", "penalty", "note", "event", "supersedes", "players_at_table"}

# command -> (positional parameters, {option: (parameter, kind)})
SPECS: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, str]]]] = {
    "walk": (("situation_id",), {"--answer": ("answer", MULTI), "-a": ("answer", MULTI), "--json": ("as_json", FLAG),
                                 "--house": ("house", VALUE), "--full": ("full", FLAG), "--db": ("db", VALUE),
                                 # saving to the ruling log is typer's (its checks live with the log command)
                                 "--log": ("log", FLAG), "--table": ("table", VALUE), "--seat": ("seat", MULTI),
                                 "--player": ("player", MULTI), "--penalty": ("penalty", VALUE), "--note": ("note", VALUE),
                                 "--event": ("event", VALUE), "--supersedes": ("supersedes", VALUE),
                                 "--players": ("players_at_table", VALUE), "--edition": ("edition", VALUE)}),
    "rule": (("rule_id",), {"--json": ("as_json", FLAG), "--edition": ("edition", VALUE)}),
    "situations": ((), {"--tag": ("tag", VALUE), "-t": ("tag", VALUE), "--json": ("as_json", FLAG)}),
    "quiz": ((), {"--topic": ("topic", VALUE), "-t": ("topic", VALUE), "--source": ("source", VALUE), "-s": ("source", VALUE),
                  "--count": ("count", VALUE), "-n": ("count", VALUE), "--seed": ("seed", VALUE), "--name": ("name", VALUE),
                  "--db": ("db", VALUE), "--exam": ("exam", FLAG), "--pass": ("pass_mark", VALUE), "--minutes": ("minutes", VALUE),
                  "--report": ("report", VALUE), "--new": ("new", VALUE), "--restart": ("restart", FLAG),
                  "--json": ("as_json", FLAG), "--answers": ("answers", VALUE), "--edition": ("edition", VALUE)}),
    "quiz stats": ((), {"--name": ("name", VALUE), "--db": ("db", VALUE), "--json": ("as_json", FLAG)}),
}
LOOKUP_SPEC = (("*query",), {"--limit": ("limit", VALUE), "-n": ("limit", VALUE), "--json": ("as_json", FLAG),
                             "--house": ("house", VALUE)})
# Options read as numbers, as typer reads them: a value that is not one goes to typer for its message.
NUMBERS = {"count": int, "seed": int, "new": int, "pass_mark": float, "minutes": float}
for _name, _options in CALC_OPTIONS.items():
    SPECS[f"calc {_name}"] = ((), {opt: (param, FLAG if flag else VALUE) for opt, (param, flag) in _options.items()})


# A positional parameter written "*name" takes every remaining word (a lookup's query).
VARIADIC = "*"


def parse(spec: tuple[tuple[str, ...], dict[str, tuple[str, str]]], args: list[str]) -> dict | None:
    """The parameters `args` give, or None when typer should read them."""
    positional_names, options = spec
    values: dict = {}
    positionals: list[str] = []
    i, options_done = 0, False
    while i < len(args):
        arg = args[i]
        if options_done or not arg.startswith("-") or arg == "-":
            positionals.append(arg)
        elif arg == "--":
            options_done = True
        else:
            name, sep, attached = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
            if name not in options:
                return None
            param, kind = options[name]
            if kind == FLAG:
                if sep or attached:
                    return None
                values[param] = True
            else:
                if sep or attached:
                    value = attached
                elif i + 1 < len(args):
                    i += 1
                    value = args[i]
                else:
                    return None
                if kind == MULTI:
                    values.setdefault(param, []).append(value)
                else:
                    values[param] = value
        i += 1
    if positional_names[-1:] and positional_names[-1].startswith(VARIADIC):
        fixed = positional_names[:-1]
        if len(positionals) < len(fixed):
            return None
        values[positional_names[-1][1:]] = positionals[len(fixed):]
        positionals, positional_names = positionals[:len(fixed)], fixed
    if len(positionals) != len(positional_names):
        return None
    values.update(zip(positional_names, positionals, strict=True))
    return values


def _editions_imported() -> bool:
    """Whether the director has imported an edition (one scandir; the common answer is no)."""
    from floorcall.content.imported import edition_files

    return bool(edition_files())


def run(args: list[str]) -> int | None:
    """Run a table command read without typer; None when it is not one (or typer should read it)."""
    if not args or any(a in ("-h", "--help") for a in args[: args.index("--") if "--" in args else len(args)]):
        return None
    two_words = args[0] == "calc" or (args[0] == "quiz" and args[1:2] == ["stats"])
    key, rest = (" ".join(args[:2]), args[2:]) if two_words and len(args) > 1 else (args[0], args[1:])
    spec = SPECS.get(key)
    if spec is None:
        return None
    values = parse(spec, rest)
    if values is None or values.get("edition") or (key in ("walk", "rule") and _editions_imported()):
        return None  # an imported edition (floor import) is read by typer's commands, which know editions
    import os
    import sys

    from floorcall.commands.render import Style
    from floorcall.content.paths import find_root

    style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    if key == "walk":
        if set(values) & LOG_PARAMETERS:
            return None
        from floorcall.commands.walk_cmd import run_walk_command

        return run_walk_command(find_root(None), values["situation_id"], values.get("answer"), values.get("as_json", False),
                                values.get("house"), values.get("full", False), style, db=values.get("db"))
    if key == "rule":
        from floorcall.commands.rule_cmd import run_rule

        return run_rule(find_root(None), values["rule_id"], values.get("as_json", False), style)
    if key in ("quiz", "quiz stats"):
        return _run_quiz(key, values, style)
    if key == "situations":
        from floorcall.commands.rule_cmd import run_situations

        return run_situations(find_root(None), values.get("tag"), values.get("as_json", False))
    from floorcall.commands import calc_run

    as_json = values.pop("as_json", False)
    function = getattr(calc_run, args[1].replace("-", "_") + "_lines")
    result, lines = function(**values)
    print(calc_run.output(result, lines, as_json))
    return 0


def _typed(values: dict) -> dict | None:
    """The numeric options as numbers (and paths as paths), or None when one is not a number (typer then says so)."""
    from pathlib import Path

    typed = dict(values)
    for param, kind in NUMBERS.items():
        if param in typed:
            try:
                typed[param] = kind(typed[param])
            except ValueError:
                return None
            if kind is float and typed[param] != typed[param]:  # nan: typer's own message covers it
                return None
    for param in ("db", "report"):
        if param in typed:
            typed[param] = Path(typed[param])
    return typed


def _run_quiz(key: str, values: dict, style) -> int | None:
    typed = _typed(values)
    if typed is None:
        return None
    from floorcall.commands import quiz_run
    from floorcall.content.paths import find_root

    if key == "quiz stats":
        return quiz_run.run_stats(find_root(None), typed.get("name"), typed.get("db"), typed.get("as_json", False))
    return quiz_run.run_quiz(find_root(None), style=style, **typed)
