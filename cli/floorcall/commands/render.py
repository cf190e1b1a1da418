"""Plain-text rendering for the terminal: rules, rulings, questions. Colour only when asked."""

from __future__ import annotations

import os

from floorcall.core.labels import QUOTE_LABELS, rule_heading, rule_label
from floorcall.engines.walk import house_line  # the site shows the same line, so it lives with the walk

# Piped output (no terminal, no COLUMNS) wraps here; a terminal's own width is used otherwise.
FALLBACK_WIDTH = 88
MIN_WIDTH = 30  # narrower than this, wrapping makes more mess than it saves
# The first screen of a ruling: what the floor reads out fits in this many lines at 80 columns.
FIRST_SCREEN_LINES = 12


def terminal_width() -> int:
    """$COLUMNS, else the terminal's columns, else FALLBACK_WIDTH (piped); at least MIN_WIDTH.
    (shutil.get_terminal_size says the same, but importing shutil costs a table command ~9 ms.)"""
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and 0 < int(columns) < 10_000:
        return max(MIN_WIDTH, int(columns))
    try:
        return max(MIN_WIDTH, os.get_terminal_size(1).columns)
    except (OSError, ValueError):
        return FALLBACK_WIDTH


class Style:
    """ANSI styling that turns itself off when output is not a terminal."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34", "cyan": "36"}

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, *names: str) -> str:
        if not self.color or not names:
            return text
        codes = ";".join(self.CODES[n] for n in names)
        return f"\033[{codes}m{text}\033[0m"


PLAIN = Style(False)


def wrap(text: str, indent: str = "", width: int | None = None) -> str:
    """Each paragraph filled to `width` with `indent` on every line: words are kept whole (ids like
    dttf:exposed-holecard too) unless one alone is wider than a line. textwrap would do the same,
    but it imports re, ~7 ms at every start of a table command."""
    width = width or terminal_width()
    room = max(1, width - len(indent))
    out = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split():
            while len(word) > room:  # a word wider than the line is cut, as textwrap does
                if line:
                    out.append(indent + line)
                    line = ""
                out.append(indent + word[:room])
                word = word[room:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= room:
                line += " " + word
            else:
                out.append(indent + line)
                line = word
        out.append(indent + line if line else "")
    return "\n".join(out)




def quote_block(rule: dict, style: Style = PLAIN, indent: str = "  ") -> str:
    quote = rule.get("quote", "")
    if quote == "none" or not rule.get("text"):
        return wrap("(Not quoted: this rule's text is not in the sources Floorcall quotes. Summary only.)", indent)
    label = QUOTE_LABELS.get(quote, "the rulebook's words")
    body = "\n".join(indent + "│ " + line for line in wrap(rule["text"], "", terminal_width() - len(indent) - 2).split("\n"))
    return f"{indent}{style(label + ':', 'dim')}\n{body}"


def render_rule(rule: dict, rules: dict, style: Style = PLAIN) -> str:
    lines = [
        style(rule_heading(rule), "bold"),
        f"  id: {rule['id']}   section: {rule['section']}   games: {', '.join(rule.get('games', []))}",
        "",
        quote_block(rule, style),
        "",
        "  " + style("In our words:", "dim"),
        wrap(rule.get("summary", ""), "  "),
    ]
    if rule.get("parent") in rules:
        parent = rules[rule["parent"]]
        lines += ["", wrap(f"Part {rule['part']} of {rule_label(parent)} — {parent['title']} [{parent['id']}]", "  ")]
    for part_id in rule.get("parts", []):
        part = rules.get(part_id)
        if part:
            lines += ["", "  " + style(f"{part['number']}" + (f" ({part['topic']})" if part.get("topic") else ""), "bold") + f"  [{part_id}]"]
            if part.get("quote") != "none" and part.get("text"):
                lines.append(quote_block(part, style, "    "))
            lines += ["    " + style("In our words:", "dim"), wrap(part.get("summary", ""), "    ")]
    if rule.get("uncertain"):
        lines += ["", wrap("Not verified: " + rule["uncertain"], "  ")]
    if rule.get("tda_2007") is not None or rule.get("tda_2024"):
        parts = []
        if rule.get("tda_2007") is not None:
            parts.append(f"cites TDA Rule No. {rule['tda_2007']} (2007 numbering)")
        if rule.get("tda_2024"):
            parts.append("TDA 2024: " + ", ".join(rule["tda_2024"]))
        lines += ["", "  " + "; ".join(parts)]
    for example in rule.get("illustrations", []):
        lines += ["", wrap(f"Illustration {example['example']}: {example['facts']} Ruling: {example['ruling']}", "  ")]
    related = rule.get("related", [])
    if related:
        lines += ["", "  " + style("Related:", "dim")]
        for relation in related:
            other = rules.get(relation["to"])
            title = f"{rule_label(other)} — {other['title']}" if other else relation["to"]
            lines.append(wrap(f"{relation['type']}: {title} [{relation['to']}] — {relation.get('note', '')}", "    "))
        conflicts = [r for r in related if r["type"] == "conflicts" and r["to"] in rules]
        for relation in conflicts:
            lines += ["", render_side_by_side(rule, rules[relation["to"]], relation.get("note", ""), style)]
    return "\n".join(lines)


def render_side_by_side(left: dict, right: dict, note: str, style: Style = PLAIN) -> str:
    """Two conflicting positions, the house first; columns on a wide screen would not survive a phone."""
    house, other = (left, right) if left["source"] == "dttf" else (right, left)
    return "\n".join([
        style(wrap("Positions differ" + (f": {note}" if note else ""), "  "), "yellow"),
        wrap(f"HOUSE ({rule_label(house)}, governs at the league): {house['summary']}", "    "),
        wrap(f"{rule_label(other)}: {other['summary']}", "    "),
    ])




def render_cited_rule(rule: dict, style: Style = PLAIN) -> str:
    head = "  " + style(rule_heading(rule), "bold") + f"  [{rule['id']}]"
    if rule.get("quote") == "none" or not rule.get("text"):
        # No words of the rulebook to quote: our summary, marked as ours, so the floor still has the point.
        return head + "\n    " + style("in our words (not the rulebook's text):", "dim") + "\n" + wrap(rule.get("summary", ""), "    ")
    return head + "\n" + quote_block(rule, style, "    ")


def render_ruling(ruling, rules: dict, style: Style = PLAIN, situations: dict | None = None, full: bool = False) -> str:
    lines = [style(ruling.title, "bold")]
    if ruling.path:
        lines.append("  " + style("Answers taken:", "dim"))
        for step in ruling.path:
            lines.append(wrap(f"{step.ask} → {step.label}", "    "))
    lines += ["", style("RULING", "green", "bold") + f" · {in_force(ruling.house)}", wrap(ruling.ruling, "  ")]
    if ruling.why:
        lines += ["", style("Why", "bold"), wrap(ruling.why, "  ")]
    if ruling.house_note:
        lines += ["", style("House vs TDA", "yellow", "bold"), wrap(ruling.house_note, "  ")]
    if ruling.other_position:
        other = ruling.other_position
        lines.append(wrap(f"{other['label']} position: {other['ruling']}" + (f" {other.get('why', '')}" if other.get("why") else ""), "  "))
        if other.get("cite"):
            lines.append(wrap("  cites: " + ", ".join(other["cite"]), "  "))
    if ruling.note_2019:
        lines += ["", style("2019 procedure", "bold"), wrap(ruling.note_2019, "  ")]
    if ruling.calc:
        lines += ["", style("The arithmetic", "bold") + " (an example, not your table's numbers: put in yours with c, or --answer)",
                  "  " + ruling.calc]
    lines += ["", style("Rules cited", "bold") + " (primary first)"]
    for rid in ruling.cites:
        rule = rules.get(rid)
        lines.append(render_cited_rule(rule, style) if rule else f"  {rid} (unknown rule)")
    if full and ruling.sourcing:
        lines += ["", style("Sources", "bold"), wrap(ruling.sourcing, "  ")]
    if ruling.siblings:
        titles = [f"{sid} ({(situations or {}).get(sid, {}).get('title', sid)})" for sid in ruling.siblings]
        lines += ["", wrap("Not this? See " + "; ".join(titles), "  ")]
    return "\n".join(lines)


def render_question(pending, style: Style = PLAIN) -> str:
    lines = [style(pending.ask, "bold")]
    for number, (_aid, label) in enumerate(pending.answers, 1):
        lines.append(f"  {number}) {label}")
    return "\n".join(lines)


def _clip(block: str, limit: int, width: int | None = None) -> list[str]:
    """At most `limit` lines of a wrapped block, the last one ending in '…' when something was cut
    (and never wider than `width`)."""
    lines = block.split("\n")
    if len(lines) <= limit:
        return lines
    kept = lines[:limit]
    last = kept[-1].rstrip(" .,;:")
    if width and len(last) + 2 > width:
        last = last[:width - 2].rstrip(" .,;:")
    kept[-1] = last + " …"
    return kept


def in_force(house: str) -> str:
    return "house rules (DTTF) in force" if house == "dttf" else "pure TDA 2024 in force"


def render_first_screen(ruling, rules: dict, style: Style = PLAIN, situations: dict | None = None) -> str:
    """What the floor needs first, in at most FIRST_SCREEN_LINES lines at 80 columns: the situation
    and the answers in brief, the ruling to announce with the rules in force, the governing rule
    (its words when the source we quote holds all of them, else our summary marked as ours) and
    one line on house vs TDA. `m` or --full shows the rest."""
    width = terminal_width()
    path = " · ".join(step.label for step in ruling.path)
    lines = _clip(wrap(ruling.title + (f" — {path}" if path else ""), "", width), 2, width)
    lines.append(style("RULING", "green", "bold") + f" · {in_force(ruling.house)}")
    lines += _clip(wrap(ruling.ruling, "  ", width), 3, width)
    primary = rules.get(ruling.cites[0]) if ruling.cites else None
    if primary:
        heading = f"Rule: {rule_heading(primary)}"
        with_id = f"{heading}  [{primary['id']}]"
        lines += _clip(wrap(with_id if len(with_id) <= width else heading, "", width), 1, width)
        text = primary.get("text") or ""
        if primary.get("quote") in ("full", "opening") and text and not text.rstrip().endswith("…"):
            lines += _clip(wrap(text, "  │ ", width), 3, width)
        else:
            # The seed holds none of it, or breaks off mid-sentence (often before the clause that
            # decides): our summary of the whole part, marked as ours; `m` shows the quoted opening.
            lines += _clip(wrap("In our words: " + primary.get("summary", ""), "  ", width), 3, width)
    house = house_line(ruling)
    if house:
        lines += _clip(wrap(house, "", width), 1, width)
    if ruling.siblings and len(lines) < FIRST_SCREEN_LINES:
        names = ", ".join(ruling.siblings)
        lines += _clip(wrap(f"Not this? See {names}", "", width), 1, width)
    return "\n".join(style(line, "yellow") if line.startswith("House vs TDA") else line for line in lines)
