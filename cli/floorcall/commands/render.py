"""Plain-text rendering for the terminal: rules, rulings, questions. Colour only when asked."""

from __future__ import annotations

import os

from floorcall.core.labels import QUOTE_LABELS, full_text_label, rule_heading, rule_label
from floorcall.engines.walk import house_line  # the site shows the same line, so it lives with the walk

# Piped output (no terminal, no COLUMNS) wraps here; a terminal's own width is used otherwise.
FALLBACK_WIDTH = 88
MIN_WIDTH = 30  # narrower than this, wrapping makes more mess than it saves
# The first screen of a ruling: what the floor reads out fits in this many lines at 80 columns.
FIRST_SCREEN_LINES = 12
# Lines of the first screen given to the governing rule's words; an opening-only quote shares them
# with our summary of the whole rule (one more line, taken from the siblings line when needed).
RULE_WORDS_LINES = 3
OPENING_QUOTE_LINES = 2
# The ruling is what the floor reads out, so it may take this many lines before it is cut; a long
# ruling takes its room from the rule's words (at least one line of them stays).
RULING_MAX_LINES = 6


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




def _quoted(text: str, indent: str) -> str:
    return "\n".join(indent + "│ " + line if line else indent + "│" for line in wrap(text, "", terminal_width() - len(indent) - 2).split("\n"))


def quote_block(rule: dict, style: Style = PLAIN, indent: str = "  ") -> str:
    from floorcall.engines.editions import full_text_for

    full = full_text_for(rule)
    if full:  # the director's own copy of the edition (floor import): the whole rule or part, marked with its origin
        label = wrap(f"the rulebook's words, from {full_text_label(full)}:", indent, terminal_width()).lstrip(" ")
        return f"{indent}{style(label, 'dim')}\n{_quoted(full['text'], indent)}"
    quote = rule.get("quote", "")
    if quote == "none" or not rule.get("text"):
        return wrap("(Not quoted: this rule's text is not in the sources Floorcall quotes. Summary only.)", indent)
    label = QUOTE_LABELS.get(quote, "the rulebook's words")
    body = "\n".join(indent + "│ " + line for line in wrap(rule["text"], "", terminal_width() - len(indent) - 2).split("\n"))
    return f"{indent}{style(label + ':', 'dim')}\n{body}"


def render_rule(rule: dict, rules: dict, style: Style = PLAIN) -> str:
    quoted = quote_block(rule, style)
    full = rule.get("full_text") or {}
    if full.get("parts") and any(p in rules for p in rule.get("parts", [])):
        # Each part below shows its own words from the copy; the rule itself only its introduction.
        quoted = quote_block(dict(rule, full_text=dict(full, text=full["intro"])), style) if full.get("intro") else \
            style(wrap(f"the rulebook's words, part by part below, from {full_text_label(full)}", "  "), "dim")
    lines = [
        style(rule_heading(rule), "bold"),
        f"  id: {rule['id']}   section: {rule['section']}   games: {', '.join(rule.get('games', []))}",
        "",
        quoted,
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
            if (part.get("quote") != "none" and part.get("text")) or part.get("full_text"):
                lines.append(quote_block(part, style, "    "))
            lines += ["    " + style("In our words:", "dim"), wrap(part.get("summary", ""), "    ")]
    if rule.get("uncertain"):
        # With the director's own copy above, what our sources could not verify may be there in full.
        lead = "Not verified from Floorcall's own sources (your copy above has the full words): " if full else "Not verified: "
        lines += ["", wrap(lead + rule["uncertain"], "  ")]
    if rule.get("tda_2007") is not None or rule.get("tda_2024"):
        parts = []
        if rule.get("tda_2007") is not None:
            parts.append(f"cites TDA Rule No. {rule['tda_2007']} (2007 numbering)")
        if rule.get("tda_2024"):
            parts.append("TDA 2024: " + ", ".join(rule["tda_2024"]))
        lines += ["", "  " + "; ".join(parts)]
    for example in rule.get("illustrations", []):
        lines += ["", wrap(f"Illustration {example['example']}: {example['facts']} Ruling: {example['ruling']}", "  ")]
    for entry in full.get("addendum", []):
        number = full["number"].split("-")[0] + (f"-{entry['part']}" if entry.get("part") else "")
        head = wrap(f"Illustration Addendum, Rule {number}, from {full_text_label(dict(full, where=entry['where']))}:", "  ")
        lines += ["", style(head, "dim"), _quoted(entry["text"], "  ")]
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
    if (rule.get("quote") == "none" or not rule.get("text")) and not rule.get("full_text"):
        # No words of the rulebook to quote: our summary, marked as ours, so the floor still has the point.
        return head + "\n    " + style("in our words (not the rulebook's text):", "dim") + "\n" + wrap(rule.get("summary", ""), "    ")
    shown = head + "\n" + quote_block(rule, style, "    ")
    if rule.get("quote") == "opening" and not rule.get("full_text") and rule.get("summary"):
        # The seed holds only the opening, which rarely is the sentence that decides; our summary of
        # the whole rule or part follows, marked as ours, so the deciding point is on the screen.
        shown += "\n    " + style("in our words, the whole rule (not the rulebook's text):", "dim") + "\n" + wrap(rule["summary"], "    ")
    return shown


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
    """The question and its numbered answers, each filled to the terminal: a long answer's second
    line starts under its first word, so the number stays alone in the margin (a phone's terminal
    is often 40 columns wide)."""
    lines = [style(wrap(pending.ask), "bold")]
    for number, (_aid, label) in enumerate(pending.answers, 1):
        prefix = f"  {number}) "
        lines.append(prefix + wrap(label, " " * len(prefix))[len(prefix):])
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
    lines += _clip(wrap(ruling.ruling, "  ", width), RULING_MAX_LINES, width)
    house = house_line(ruling)
    primary = rules.get(ruling.cites[0]) if ruling.cites else None
    if primary:
        # Room left for the rule's words once the heading and the house line are counted.
        room = max(1, FIRST_SCREEN_LINES - len(lines) - 1 - (1 if house else 0))
        heading = f"Rule: {rule_heading(primary)}"
        with_id = f"{heading}  [{primary['id']}]"
        lines += _clip(wrap(with_id if len(with_id) <= width else heading, "", width), 1, width)
        text = primary.get("text") or ""
        full = primary.get("full_text")  # the director's own copy (floor import): the whole part's words
        if full:
            if room >= 2:  # where the words come from, when there is room to say it
                lines += _clip(wrap(f"(from {full_text_label(full)})", "  ", width), 1, width)
            lines += _clip(wrap(full["text"], "  │ ", width), max(1, min(2, room - 1)), width)
        elif primary.get("quote") == "full" and text and not text.rstrip().endswith("…"):
            lines += _clip(wrap(text, "  │ ", width), min(RULE_WORDS_LINES, room), width)
        elif primary.get("quote") == "opening" and text and not text.rstrip().endswith("…") and room >= 2:
            # The rulebook's own opening words, then our summary of the rest: the clause that decides
            # often comes after the opening (69's "Poker is an individual game."), so both are shown.
            quoted = _clip(wrap(text, "  │ ", width), min(OPENING_QUOTE_LINES, room - 1), width)
            lines += quoted
            lines += _clip(wrap("In our words: " + primary.get("summary", ""), "  ", width),
                           min(RULE_WORDS_LINES + 1, room) - len(quoted), width)
        else:
            # The seed holds none of it, only its opening, or breaks off mid-sentence (the clause that
            # decides usually comes later): our summary of the whole part, marked as ours; `m` shows
            # the quoted opening.
            lines += _clip(wrap("In our words: " + primary.get("summary", ""), "  ", width), min(RULE_WORDS_LINES, room), width)
    if house:
        lines += _clip(wrap(house, "", width), 1, width)
    if ruling.siblings and len(lines) < FIRST_SCREEN_LINES:
        names = ", ".join(ruling.siblings)
        lines += _clip(wrap(f"Not this? See {names}", "", width), 1, width)
    return "\n".join(style(line, "yellow") if line.startswith("House vs TDA") else line for line in lines)
