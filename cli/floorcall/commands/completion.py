"""Shell completion values: situation ids, rule ids, answer ids and tags, read from the corpus cache.

typer calls these while the user presses Tab (`floor walk dealer-ex<TAB>`); each returns
(value, help) pairs and never raises: a completion that fails must stay silent.
"""

from __future__ import annotations

from typing import Any

import typer


def _lookup_part() -> dict:
    try:
        from floorcall.commands.support import content_root
        from floorcall.content import corpus as corpus_module

        return corpus_module.load_lookup(content_root())
    except Exception:  # a shell completion must never print an error into the command line
        return {"situations": {}, "rules": {}}


def situations(incomplete: str) -> list[tuple[str, str]]:
    return [(sid, s["title"]) for sid, s in sorted(_lookup_part()["situations"].items()) if sid.startswith(incomplete)]


def rules(incomplete: str) -> list[tuple[str, str]]:
    """Full ids (`tda-2024:35-E`) and, for TDA 2024, the bare numbers `floor rule` also takes (`35-E`)."""
    found = _lookup_part()["rules"]
    values = [(rid, r["title"]) for rid, r in found.items()]
    values += [(rid.split(":", 1)[1], r["title"]) for rid, r in found.items() if rid.startswith("tda-2024:")]
    return [(value, title) for value, title in values if value.startswith(incomplete)]


def answers(ctx: typer.Context, args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """QUESTION=ANSWER pairs of the situation already on the command line."""
    try:
        from floorcall.commands.support import corpus

        known = corpus()["situations"]
    except Exception:
        return []
    # While completing, click may leave the positional argument unparsed: look for it among the words.
    candidates = [ctx.params.get("situation_id")] + list(getattr(ctx, "args", [])) + list(args)
    situation: dict[str, Any] = next((known[c] for c in candidates if c in known), {})
    pairs = []
    for qid, question in (situation.get("questions") or {}).items():
        for aid, answer in question["answers"].items():
            pairs.append((f"{qid}={aid}", answer["label"]))
    return [pair for pair in pairs if pair[0].startswith(incomplete)]


def tags(incomplete: str) -> list[str]:
    try:
        from floorcall.commands.support import corpus

        found = {t for s in corpus()["situations"].values() for t in s.get("tags", [])}
    except Exception:
        return []
    return sorted(t for t in found if t.startswith(incomplete))
