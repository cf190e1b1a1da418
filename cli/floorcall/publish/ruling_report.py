"""Files for people from the ruling log: the end-of-night HTML report and the CSV export.

The report is rendered from site/templates/ruling-report.html.j2 with autoescape and
StrictUndefined, like the site: one self-contained file (inline CSS, no scripts, no requests)
that prints on A4 or Letter. Its citations and situations link into the rulebook site at the
site's own addresses (`rules/<source>/<number>.html`, `situations/<id>.html`).

Both files are written atomically (temp file + os.replace), and an existing file is replaced only
when it is one of ours (the report's generator mark, the CSV's exact header row): a document the
TD saved under the same name is never overwritten.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from floorcall.core.errors import FloorError
from floorcall.core.labels import rule_label
from floorcall.engines.penalty_ladder import Entry, build_ladder
from floorcall.engines.precedent import consistency_flags
from floorcall.engines.ruling_facts import name_key
from floorcall.publish.quiz_report import template_folder
from floorcall.publish.report_file import replace_ours
from floorcall.publish.sitegen import rule_path, situation_path

TEMPLATE = "ruling-report.html.j2"
GENERATOR_MARK = '<meta name="generator" content="Floorcall ruling log report">'
CSV_COLUMNS = ("id", "recorded_at_utc", "local_time", "event", "floorperson", "table", "seats", "players", "situation",
               "title", "answers", "outcome", "ruling", "rules_in_force", "cites", "penalty", "penalty_player", "note",
               "supersedes", "superseded_by", "floorcall_version", "content_fingerprint", "uid")
# A spreadsheet runs a cell that starts with one of these as a formula: a player "named" =HYPERLINK(…)
# must stay text. The cell gets a leading apostrophe, as OWASP advises for CSV exports.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HOUSE_NAMES = {"dttf": "house rules (DTTF)", "none": "TDA 2024 (no house rules)"}


# ---------------------------------------------------------------- writing a file of ours


# ---------------------------------------------------------------- CSV


def _cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(records, tz: tzinfo | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in records:
        writer.writerow([_cell(v) for v in (
            r.id, r.recorded_at, f"{r.when(tz):%Y-%m-%d %H:%M:%S}", r.event, r.floorperson, r.table,
            " ".join(str(s) for s in r.seats), "; ".join(r.names), r.situation, r.title, r.path_key, r.outcome, r.ruling,
            r.house, " ".join(r.cites), r.penalty.text if r.penalty else "", r.penalty_player, r.note,
            r.supersedes or "", r.superseded_by or "", r.version, r.fingerprint, r.uid)])
    return out.getvalue()


def write_csv(path: Path, records, tz: tzinfo | None = None) -> Path:
    header = ",".join(CSV_COLUMNS)
    return replace_ours(path, csv_text(records, tz), is_ours=lambda head: head.splitlines()[:1] == [header],
                         what="ruling log export", flag="--csv")


# ---------------------------------------------------------------- HTML report


def site_link(base: str, page: str) -> str:
    return f"{base.rstrip('/')}/{page}" if base else page


def report_context(records, all_earlier, rules: dict, situations: dict, *, title: str, scope: str, site_base: str,
                   generated: str, tz: tzinfo | None = None) -> dict:
    """Everything the template shows, as plain data: `records` the rulings in scope (oldest first),
    `all_earlier` every record's precedent data (flags compare against the whole log)."""
    flags = consistency_flags(all_earlier)

    def cite(rid: str) -> dict:
        rule = rules.get(rid)
        return {"id": rid, "label": rule_label(rule) if rule else rid, "title": rule["title"] if rule else "",
                "href": site_link(site_base, rule_path(rid)) if rule else ""}

    rows: list[dict] = []
    players: dict[str, dict] = {}
    penalised = 0
    for r in records:
        current = r.superseded_by is None
        seat_of = {name_key(p["name"]): p.get("seat") for p in r.players if p.get("name")}
        rows.append({
            "id": r.id, "when": f"{r.when(tz):%Y-%m-%d %H:%M}", "time": f"{r.when(tz):%H:%M}", "event": r.event,
            "floorperson": r.floorperson, "table": r.table,
            "players": [{"name": p.get("name") or "", "seat": p.get("seat")} for p in r.players],
            "situation": r.situation, "title": r.title,
            "situation_href": site_link(site_base, situation_path(r.situation)) if r.situation in situations else "",
            "answers": [{"ask": s.get("ask", s["question"]), "label": s.get("label", s["answer"])} for s in r.path],
            "outcome": r.outcome, "ruling": r.ruling, "house": HOUSE_NAMES.get(r.house, r.house),
            "cites": [cite(c) for c in r.cites], "penalty": r.penalty.text if r.penalty else "",
            "penalty_player": r.penalty_player, "note": r.note, "supersedes": r.supersedes,
            "superseded_by": r.superseded_by, "flags": flags.get(r.id, []) if current else [],
            "version": r.version, "fingerprint": r.fingerprint,
        })
        if r.penalty and current:
            penalised += 1
            key = name_key(r.penalty_player)
            entry = Entry(r.id, f"{r.when(tz):%Y-%m-%d %H:%M}", r.event, r.table, seat_of.get(key), r.situation, r.title,
                          r.penalty, r.house)
            players.setdefault(key, {"name": r.penalty_player, "entries": [], "house": r.house})["entries"].append(entry)
            players[key]["house"] = r.house
    ladders = []
    for item in sorted(players.values(), key=lambda p: p["name"].lower()):
        ladder = build_ladder(item["name"], item["entries"], item["house"], scope)
        ladders.append({"name": item["name"], "house": HOUSE_NAMES.get(ladder.house, ladder.house),
                        "entries": [{"id": e.record_id, "when": e.when, "penalty": e.penalty.text, "title": e.title,
                                     "table": e.table, "seat": e.seat} for e in ladder.entries],
                        "next": ladder.next.text})
    flagged = [row for row in rows if row["flags"]]
    return {
        "title": title, "scope": scope, "generated": generated, "site_base": site_base,
        "rulings": rows, "count": len(rows), "current": sum(1 for row in rows if row["superseded_by"] is None),
        "penalised": penalised, "ladders": ladders, "flagged": flagged,
        "floorpersons": sorted({r.floorperson for r in records if r.floorperson}, key=str.lower),
        "versions": sorted({r.version for r in records}), "fingerprints": sorted({r.fingerprint for r in records}),
    }


def render_report(root: Path, context: dict) -> str:
    import jinja2

    folder = template_folder(root, TEMPLATE)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    try:
        return env.get_template(TEMPLATE).render(**context)
    except jinja2.TemplateError as exc:
        raise FloorError(f"the report template {folder / TEMPLATE} failed: {exc}") from None


def write_report(path: Path, root: Path, records, all_earlier, rules: dict, situations: dict, *, title: str, scope: str,
                 site_base: str, generated: str | None = None, tz: tzinfo | None = None) -> Path:
    """Render and write the report atomically; refuse to replace a file that is not one of ours."""
    generated = generated or f"{datetime.now(UTC).astimezone(tz):%Y-%m-%d %H:%M}"
    context = report_context(records, all_earlier, rules, situations, title=title, scope=scope, site_base=site_base,
                             generated=generated, tz=tz)
    html = render_report(root, context)
    return replace_ours(path, html, is_ours=lambda head: GENERATOR_MARK in head, what="ruling log report", flag="--out")
