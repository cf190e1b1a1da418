"""`floor rule` and `floor situations` without typer: shared by the typer commands and the fast path."""

from __future__ import annotations

import sys

from floorcall.core.errors import EXIT_NOT_FOUND, FloorError, shown


def _corpus(root) -> dict:
    from floorcall.content import corpus as corpus_module

    data = corpus_module.load_content(root)
    corpus_module.warn_if_skipped(data)
    return data


def run_rule(root, rule_id: str, as_json: bool, style) -> int:
    from floorcall.commands.render import render_rule
    from floorcall.content.rulebook import resolve_rule_id

    data = _corpus(root)
    found = data["rules"][resolve_rule_id(data["rules"], rule_id)]
    if as_json:
        sys.stdout.write(_json(found, ensure_ascii=False, indent=2) + "\n")
    else:
        print(render_rule(found, data["rules"], style))
    return 0


def run_situations(root, tag: str | None, as_json: bool) -> int:
    data = _corpus(root)
    listing = [s for s in data["situations"].values() if tag is None or tag in s.get("tags", [])]
    if tag and not listing:
        tags = sorted({t for s in data["situations"].values() for t in s.get("tags", [])})
        raise FloorError(f"no situation tagged '{shown(tag)}' — tags: {', '.join(tags)}", EXIT_NOT_FOUND)
    listing.sort(key=lambda s: s["id"])
    if as_json:
        rows = [{"id": s["id"], "title": s["title"], "tags": s.get("tags", []), "cites": s["cites"]} for s in listing]
        sys.stdout.write(_json(rows, ensure_ascii=False, indent=2) + "\n")
        return 0
    for s in listing:
        print(f"{s['id']:<44} {s['title']}  [{', '.join(s['cites'][:2])}]")
    return 0


def _json(value, **options) -> str:
    import json  # only for --json: it costs a table command ~5 ms to import

    return json.dumps(value, **options)
