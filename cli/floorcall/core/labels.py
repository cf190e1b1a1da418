"""How rules are named for people: 'TDA 2024 Rule 35-E', its heading, and the quote labels.

Shared by the terminal, the site, the quiz and reports, so every place names a rule the same way.
"""

from __future__ import annotations

QUOTE_LABELS = {
    "full": "the rulebook's words",
    # The seed holds only a rule's opening sentence; the official rule goes on (import it with
    # `floor import` to see the rest). Say so, never suggest the rule ends here.
    "opening": "the rulebook's opening words (the rule goes on; our copy holds only these)",
}


def rule_label(rule: dict) -> str:
    """'TDA 2024 Rule 44', 'TDA 2024 RP-5', 'DTTF (Procedures)', 'WPA item 12';
    in another edition's view (`--edition 2026`) 'TDA 2026 Rule 45 (2024: 43)'."""
    if rule.get("edition_label"):
        return rule["edition_label"]
    short = rule.get("source_short", rule["source"])
    number = rule["number"]
    if rule["source"] in ("tda-2024",) and not number.startswith("RP"):
        return f"{short} Rule {number}"
    if rule["source"] in ("tda-2024", "tda-2019"):
        return f"{short} {number}"
    if rule["source"] == "dttf":
        return f"{short} ({rule['section']})"
    return f"{short} {rule['title']}" if number.startswith("B") else f"{short} item {number}"


def rule_heading(rule: dict) -> str:
    """'TDA 2024 Rule 35-E — Misdeals and Fouled Decks (fouled decks)': a part names its topic."""
    topic = f" ({rule['topic']})" if rule.get("topic") else ""
    return f"{rule_label(rule)} — {rule['title']}{topic}"


def full_text_label(full: dict) -> str:
    """Where imported full words come from: 'your copy of TDA 2024 Rules Version 1.0 (Oct 9, 2024) — file.pdf, page 7'."""
    where = ", ".join(x for x in (full.get("file"), full.get("where")) if x)
    return f"your copy of {full['edition']}" + (f" — {where}" if where else "")
