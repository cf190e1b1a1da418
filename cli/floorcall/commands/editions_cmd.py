"""`floor import FILE`, `floor import --remove EDITION`, `floor editions list|diff`, and the
`--edition` option of rule, walk, site and quiz: the director's own copies of the TDA rules.

The work is in store.editions_store (reading, parsing and saving a document) and engines.editions
(mapping, diffing, the corpus in another edition's numbers); this module parses options and formats.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer

from floorcall.commands.support import HELP_OPTIONS, command, corpus, emit_json, epilog, style_for_stdout
from floorcall.core.errors import FloorError, shown

editions_app = typer.Typer(help="Imported editions of the TDA rules: list them, or see what changed between two.",
                           no_args_is_help=True, context_settings=HELP_OPTIONS, epilog=epilog("editions"))

MAX_LISTED = 12  # rules named in a summary line before "… and N more"


# ---------------------------------------------------------------- --edition on rule, walk, site, quiz

def in_edition(data: dict, edition: str | None) -> dict:
    """The corpus as read in `edition` (None or 2024: unchanged)."""
    if not edition:
        return data
    from floorcall.engines.editions import DEFAULT_EDITION, edition_view, resolve_edition

    source = resolve_edition(data, edition)
    return data if source == DEFAULT_EDITION else edition_view(data, source)


def cited_json(data: dict, cites: list[str]) -> list[dict] | None:
    """The labels and full words of a walk's citations, for --json when an edition is imported (else None)."""
    from floorcall.core.labels import rule_label
    from floorcall.engines.editions import full_text_for

    rules = data["rules"]
    if not data.get("editions") and not data.get("edition"):
        return None
    return [{"id": rid, "label": rule_label(rules[rid]), "title": rules[rid]["title"],
             "full_text": full_text_for(rules[rid])} for rid in cites if rid in rules]


def imported_part(data: dict, text: str) -> dict | None:
    """A lettered part only the imported copy has ('35-E', 'rp 10 h': Floorcall's records keep the rule
    whole), as a rule record of its own with its words from the copy; None otherwise."""
    from floorcall.content.imported import full_text_record
    from floorcall.content.rulebook import rule_reference

    rules = data["rules"]
    rid = rule_reference({**rules, **{f"{r['id']}-{p['part']}": None for r in rules.values()
                                      for p in (r.get("full_text") or {}).get("parts", [])}}, text)
    if rid is None or rid in rules:
        return None
    parent_id, _, letter = rid.rpartition("-")
    parent = rules.get(parent_id) or {}
    whole = parent.get("full_text") or {}  # in an --edition view, the words are that edition's
    edition = (data.get("editions") or {}).get(whole.get("source", ""))
    full = full_text_record(edition, whole["number"], letter) if edition else None
    if full is None:
        return None
    summary = f"Of the whole of {parent['number']}: {parent['summary']}" if parent.get("summary") else ""
    part = dict(parent, id=rid, number=f"{parent['number']}-{letter}", part=letter, parent=parent_id, parts=[],
                full_text=full, summary=summary, related=[], illustrations=[], uncertain="")
    if parent.get("edition_label") and (parent.get("edition") or {}).get("number"):
        from floorcall.engines.editions import edition_label

        assert edition is not None  # `full` above came from it
        part["edition_label"] = edition_label(edition["year"], f"{whole['number']}-{letter}", part["number"])
    return part


# ---------------------------------------------------------------- floor rule tda-2026:45

def edition_rule(data: dict, text: str) -> dict | None:
    """The rule of an imported edition other than 2024 that `text` names, with its 2024 counterpart, or None."""
    from floorcall.content.imported import full_text_record
    from floorcall.engines.editions import edition_link, edition_rule_reference

    found = edition_rule_reference(data, text)
    if found is None:
        return None
    source, number, letter = found
    edition = data["editions"][source]
    rule = edition["rules"][number]
    link = edition_link(data, source)
    counterpart = link["to_default"].get(number)
    other = None
    if counterpart:
        rid = f"tda-2024:{counterpart['number']}" + (f"-{letter}" if letter and f"tda-2024:{counterpart['number']}-{letter}" in data["rules"] else "")
        known = data["rules"].get(rid)
        imported_2024 = (data.get("editions") or {}).get("tda-2024", {}).get("rules", {}).get(counterpart["number"], {})
        other = {"id": rid, "number": counterpart["number"], "title": known["title"] if known else imported_2024.get("title", ""),
                 "kind": counterpart["kind"], "score": counterpart["score"], **({"anchored": True} if counterpart.get("anchored") else {})}
    also = [n for n in link["to_edition"].get(counterpart["number"], []) if n != number] if counterpart else []
    return {"id": f"{source}:{number}" + (f"-{letter}" if letter else ""), "source": source,
            "number": f"{number}-{letter}" if letter else number, "title": rule["title"], "section": rule.get("section", ""),
            "full_text": full_text_record(edition, number, letter), "tda_2024": other, "also_from_same_2024_rule": also,
            "mapped_against": link["basis"]}


def render_edition_rule(found: dict, data: dict, style) -> str:
    from floorcall.commands.render import quote_block, wrap
    from floorcall.core.labels import rule_label

    year = found["source"][4:]
    number = found["number"]
    label = number if number.startswith("RP") else f"Rule {number}"
    lines = [style(f"TDA {year} {label} — {found['title']}", "bold"),
             f"  id: {found['id']}   section: {found['section'] or '-'}", "",
             quote_block({"full_text": found["full_text"], "quote": "full"}, style), ""]
    other = found["tda_2024"]
    if other is None:
        lines.append(wrap(f"TDA 2024: no counterpart — no 2024 rule matches it by title and text (new in {year}?). "
                          f"Compared with {found['mapped_against']}.", "  "))
        return "\n".join(lines)
    known = data["rules"].get(other["id"])
    name = f"{rule_label(known)} — {known['title']}" if known else f"TDA 2024 {_listed([other['number']])} — {other['title']}"
    how = other["kind"] if other["score"] is None else f"{other['kind']}, match {other['score']:.0f}/100"
    if other.get("anchored"):
        how += ", rewritten in the same place"
    lines.append("  " + style("TDA 2024 counterpart:", "dim") + f" {name} [{other['id']}] ({how})")
    if found["also_from_same_2024_rule"]:
        lines.append(wrap(f"2024 Rule {other['number']} is split in {year}: also {', '.join(found['also_from_same_2024_rule'])}.", "  "))
    if known and known.get("summary"):
        from floorcall.engines.editions import edition_link, renumber_prose

        summary = renumber_prose(known["summary"], edition_link(data, found["source"])["to_edition"], year)
        lines += ["", "  " + style(f"In our words (of 2024 Rule {other['number']}):", "dim"), wrap(summary, "  ")]
    return "\n".join(lines)


# ---------------------------------------------------------------- floor import

def import_document(
    file: Optional[Path] = typer.Argument(None, metavar="FILE", help="The TDA's rules as published: PDF, Word .docx or plain text."),
    remove: Optional[str] = typer.Option(None, "--remove", metavar="EDITION", help="Take an imported edition out, e.g. 2026."),
    as_json: bool = typer.Option(False, "--json", help="Print what was found as JSON."),
):
    """Import your copy of the TDA rules (PDF, .docx or text; any edition, long or short form): full text, other editions' numbers.

    Registered as `floor import` by app.py. The copy is saved in your data folder
    ($FLOORCALL_DATA/editions or $XDG_DATA_HOME/floorcall/editions), never in Floorcall itself."""
    if remove is not None:
        if file is not None:
            raise FloorError("give a FILE to import or --remove EDITION, not both")
        _remove(remove, as_json)
        return
    if file is None:
        raise FloorError("give the TDA rules file to import, e.g. floor import '2024 Poker TDA Rules PDF Longform.pdf'")
    from floorcall.store.editions_store import import_edition

    data = corpus()
    started = time.perf_counter()
    report = import_edition(file, data)
    seconds = time.perf_counter() - started
    if as_json:
        record = report["record"]
        emit_json({"source": record["source"], "edition": record["year"], "version": record["version"], "date": record["date"],
                   "form": record["form"], "file": report["document"].name, "kind": report["document"].kind,
                   "pages": report["document"].pages, "seconds": round(seconds, 2), "counts": report["counts"],
                   "unplaced": record["unplaced"], "saved": str(report["path"]),
                   "replaced": bool(report["replaced"]), "mapping": report.get("mapping")})
        return
    typer.echo(import_summary(report, seconds, style_for_stdout()))


def _remove(name: str, as_json: bool) -> None:
    import re

    from floorcall.store.editions_store import remove_edition

    match = re.fullmatch(r"(?i)\s*(?:tda[\s-]*)?((?:19|20)\d{2})\s*", name)
    if not match:
        raise FloorError(f"--remove takes an edition's year, e.g. 2026, not '{shown(name)}'")
    source = f"tda-{match.group(1)}"
    path = remove_edition(source)
    if as_json:
        emit_json({"removed": source, "path": str(path)})
        return
    typer.echo(f"removed {source} ({path}); Floorcall no longer uses your TDA {match.group(1)} copy")


def _listed(numbers: list[str], limit: int = MAX_LISTED) -> str:
    named = [n if str(n).startswith("RP") else f"Rule {n}" for n in numbers[:limit]]
    more = f" … and {len(numbers) - limit} more" if len(numbers) > limit else ""
    return ", ".join(named) + more


def import_summary(report: dict, seconds: float, style) -> str:
    from floorcall.content.imported import edition_name

    record, found, document = report["record"], report["counts"], report["document"]
    pages = f", {document.pages} pages" if document.pages else ""
    lines = [style(f"Imported {edition_name(record)}, {record['form']}", "bold"),
             f"  from          {document.name} ({document.kind.upper()}{pages}, {seconds:.1f} s)"]
    if found["rules"]:
        lines.append(f"  rules         {found['rules']}, with {found['parts']} lettered parts, in {found['sections']} sections")
    if found["procedures"]:
        lines.append(f"  procedures    RP-1 to RP-{found['procedures']}, with {found['procedure_parts']} lettered parts")
    if found["addendum"]:
        lines.append(f"  addendum      {found['addendum']} entries ({found['examples']} examples)")
    if document.furniture:
        lines.append(f"  dropped       the line on every page: “{shown(document.furniture[0], 60)}”")
    if record["unplaced"]:
        lines.append(f"  not placed    {len(record['unplaced'])}:")
        lines += [f"    {u['where']}: {u['text']} ({u['reason']})" for u in record["unplaced"]]
    else:
        lines.append("  not placed    nothing")
    mapping = report.get("mapping")
    if mapping:
        c = mapping["counts"]
        lines.append(f"  mapped        {c['mapped']} to TDA 2024 by title and text ({c['renumbered']} renumbered, "
                     f"{c['split']} split, {c['merged']} merged, {c['unmapped']} unmapped), against {mapping['basis']}")
        newer, older = ("TDA 2024", f"TDA {record['year']}") if mapping["older"] else (f"TDA {record['year']}", "TDA 2024")
        if mapping["added"]:
            lines.append(f"    new in {newer}: {_listed(mapping['added'])}")
        if mapping["removed"]:
            lines.append(f"    not in {newer} (was in {older}): {_listed(mapping['removed'])}")
        for split in mapping["split"]:
            lines.append(f"    split: {older} {_listed([split['old']])} → {newer} {_listed(split['new'])}")
        for merge in mapping["merged"]:
            lines.append(f"    merged: {older} {_listed(merge['old'])} → {newer} {_listed([merge['new']])}")
    replaced = report["replaced"]
    if replaced and replaced.get("damaged"):
        note = " (replacing a damaged copy)"
    elif replaced:
        note = f" (replacing the copy imported {replaced.get('imported', '?')})"
    else:
        note = ""
    lines.append(f"  saved as      {record['source']} in {report['path']}{note}")
    year = record["year"]
    if record["source"] == "tda-2024":
        lines.append("Full words from your copy now show in `floor rule`, walks, the quiz and `floor site build`.")
    else:
        first, second = sorted(("2024", year))
        lines.append(f"Try: floor rule tda-{year}:1, floor walk SITUATION --edition {year}, floor editions diff {first} {second}")
    return "\n".join(lines)


# ---------------------------------------------------------------- floor editions list | diff

@command(editions_app, "list")
def list_editions(as_json: bool = typer.Option(False, "--json", help="Print JSON.")):
    """List the editions you imported, with what each holds."""
    from floorcall.content.imported import editions_dir

    data = corpus()
    listing = imported_listing(data)
    if as_json:
        emit_json({"folder": str(editions_dir()), "editions": listing})
        return
    if not listing:
        typer.echo(f"No editions imported (folder: {editions_dir()}). Import the TDA's PDF or Word file: floor import FILE")
        return
    for entry in listing:
        typer.echo(listing_line(entry))


def imported_listing(data: dict) -> list[dict]:
    from floorcall.engines.editions import counts

    out = []
    for source, edition in sorted((data.get("editions") or {}).items()):
        rules = list(edition["rules"].values())
        record = {"rules": [r for r in rules if not r["number"].startswith("RP")],
                  "procedures": [r for r in rules if r["number"].startswith("RP")], "addendum": edition.get("addendum", []),
                  "sections": edition.get("sections", []), "unplaced": edition.get("unplaced", [])}
        out.append({"id": source, "name": edition["name"], "form": edition.get("form"), "version": edition["version"],
                    "date": edition.get("date"), "file": (edition.get("file") or {}).get("name"), "imported": edition.get("imported"),
                    "path": edition.get("path"), "counts": counts(record),
                    "role": "full text for Floorcall's TDA 2024 records" if source == "tda-2024" else "another edition, mapped to 2024"})
    return out


def listing_line(entry: dict) -> str:
    c = entry["counts"]
    held = f"{c['rules']} rules" + (f", {c['procedures']} RPs" if c["procedures"] else "") + \
        (f", {c['addendum']} addendum entries" if c["addendum"] else "")
    return (f"{entry['id']:<9} {entry['name']}, {entry['form']}: {held}\n"
            f"          {entry['role']}; from {entry['file']}, imported {entry['imported']}")


@command(editions_app, "diff")
def diff(
    a: str = typer.Argument(..., metavar="A", help="The earlier edition, e.g. 2024."),
    b: str = typer.Argument(..., metavar="B", help="The later edition, e.g. 2026."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """What changed from edition A to edition B: renumbered, changed (word by word), added and removed rules."""
    from floorcall.engines.editions import diff_editions

    data = corpus()
    left, right = _edition_for_diff(data, a), _edition_for_diff(data, b)
    if left["source"] == right["source"]:
        raise FloorError(f"both are {left['source']} — name two editions, e.g. floor editions diff 2024 2026")
    changes = diff_editions(left, right)
    if as_json:
        emit_json({"a": left["source"], "b": right["source"], "a_name": left["name"], "b_name": right["name"], **changes})
        return
    typer.echo(render_diff(left, right, changes, style_for_stdout()))


def _edition_for_diff(data: dict, name: str) -> dict:
    """An imported edition, or (for 2024 without an import) Floorcall's own 2024 records: titles and openings."""
    from floorcall.engines.editions import DEFAULT_EDITION, default_side, resolve_edition

    source = resolve_edition(data, name)
    editions = data.get("editions") or {}
    if source in editions:
        return editions[source]
    records, basis = default_side(data)
    return {"source": DEFAULT_EDITION, "year": "2024", "name": f"TDA 2024 ({basis})", "opening_only": True,
            "rules": {r["number"]: dict(r, title=data["rules"][f"{DEFAULT_EDITION}:{r['number']}"]["title"]) for r in records}}


def _runs(renumbered: list[dict]) -> list[list[dict]]:
    """Renumberings in runs that moved together (2024 Rules 22-47 → 2026 Rules 24-49): one line each for the staff."""
    runs: list[list[dict]] = []
    for entry in renumbered:
        previous = runs[-1][-1] if runs else None
        if previous and entry["a"].isdigit() and previous["a"].isdigit() and entry["b"].isdigit() and previous["b"].isdigit() \
                and int(entry["a"]) == int(previous["a"]) + 1 and int(entry["b"]) == int(previous["b"]) + 1:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return runs


def render_diff(a: dict, b: dict, changes: dict, style) -> str:
    from floorcall.commands.render import wrap

    ya, yb = a["year"], b["year"]

    def name(year, number):
        return f"{year} {'' if str(number).startswith('RP') else 'Rule '}{number}"

    lines = [style(f"{a['name']} → {b['name']}", "bold")]
    lines += ["", style(f"Renumbered ({len(changes['renumbered'])})", "bold")]
    for run in _runs(changes["renumbered"]):
        first, last = run[0], run[-1]
        if len(run) == 1:
            lines.append(f"  {name(ya, first['a'])} → {name(yb, first['b'])}  {first['b_title']}")
        else:
            shift = int(first["b"]) - int(first["a"])
            lines.append(f"  {ya} Rules {first['a']}-{last['a']} → {yb} Rules {first['b']}-{last['b']} ({shift:+d}): "
                         f"{first['b_title']} … {last['b_title']}")
    if not changes["renumbered"]:
        lines.append("  none")
    if a.get("opening_only") or b.get("opening_only"):
        lines += ["", wrap("Changed wording: not compared — Floorcall holds only opening sentences of TDA 2024. "
                           "Import your copy of the 2024 long-form (floor import FILE) to see word changes.", "  ")]
    else:
        lines += ["", style(f"Changed ({len(changes['changed'])}; {changes['unchanged']} unchanged)", "bold")]
        for entry in changes["changed"]:
            head = f"  {name(ya, entry['a'])} → {name(yb, entry['b'])}  {entry['b_title']}"
            if entry["a_title"] != entry["b_title"]:
                head += f"  (was: {entry['a_title']})"
            lines.append(head)
            for part in entry["parts"]:
                where = part["b"] or part["a"]
                tag = f"{where}: " if where else ""
                lines.append(wrap(f"{tag}{part['diff']}", "      "))
        if not changes["changed"]:
            lines.append("  none")
    lines += ["", style(f"New in {yb} ({len(changes['added'])})", "bold")]
    lines += [f"  {name(yb, r['b'])}  {r['title']}" for r in changes["added"]] or ["  none"]
    lines += ["", style(f"Not in {yb} ({len(changes['removed'])})", "bold")]
    lines += [f"  {name(ya, r['a'])}  {r['title']}" for r in changes["removed"]] or ["  none"]
    if changes["split"] or changes["merged"]:
        lines += ["", style("Split and merged", "bold")]
        lines += [f"  {name(ya, s['a'])} ({s['a_title']}) split into {', '.join(name(yb, n) for n in s['b'])}" for s in changes["split"]]
        lines += [f"  {', '.join(name(ya, n) for n in m['a'])} merged into {name(yb, m['b'])} ({m['b_title']})" for m in changes["merged"]]
    for kind in changes.get("not_compared", []):
        lines += ["", wrap(f"The {kind}s were not compared: only one of the two editions has them (a short form has none).", "  ")]
    lines += ["", wrap("[-words-] were taken out, {+words+} put in. Mapped by title and text similarity: "
                       "check a surprising pair against the documents.", "  ")]
    return "\n".join(lines)
