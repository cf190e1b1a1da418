"""A JSON Schema for the tree format, generated from the checker's own field tables.

Editors use it for completion and inline shape errors (`.vscode/settings.json` maps it onto
rulings/*.yaml); `floor check` stays the authority (cross-references, reachability, scenarios,
copied words). tests/test_schema.py keeps the committed rulings/tree.schema.json equal to this.
"""

from __future__ import annotations

from floorcall.content import check

JSON_TYPES = {str: "string", list: "array", dict: "object", bool: "boolean", int: "integer"}
ID_PATTERN = check.SLUG.pattern
CITE_PATTERN = check.RULE_ID.pattern


def _type(python_type) -> dict:
    if isinstance(python_type, tuple):
        return {"type": [JSON_TYPES[t] if t is not type(None) else "null" for t in python_type]}
    return {"type": JSON_TYPES[python_type]}


def _object(fields: dict, required: tuple, overrides: dict | None = None, description: str = "") -> dict:
    properties = {name: _type(kind) for name, kind in fields.items()}
    for name, item in check.LIST_ITEMS.items():
        if name in properties and properties[name]["type"] == "array":
            properties[name]["items"] = _type(item)
    properties.update(overrides or {})
    schema = {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}
    return {"description": description, **schema} if description else schema


def tree_schema() -> dict:
    cite = {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": CITE_PATTERN}}
    answer = _object(check.ANSWER_FIELDS, check.ANSWER_REQUIRED, {"next": {"type": "string", "pattern": ID_PATTERN}})
    question = _object(check.QUESTION_FIELDS, check.QUESTION_REQUIRED, {
        "answers": {"type": "object", "minProperties": check.MIN_ANSWERS, "maxProperties": check.MAX_ANSWERS,
                    "propertyNames": {"pattern": ID_PATTERN}, "additionalProperties": answer}})
    tda = _object(check.TDA_FIELDS, check.TDA_REQUIRED, {"cite": cite},
                  "The pure TDA 2024 ruling, where DTTF really differs or the outcome rests on DTTF alone.")
    outcome = _object(check.OUTCOME_FIELDS, check.OUTCOME_REQUIRED, {"cite": cite, "tda": tda})
    scenario = _object(check.SCENARIO_FIELDS, check.SCENARIO_REQUIRED,
                       {"given": {"type": "object", "additionalProperties": {"type": "string"}}})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Floorcall ruling (decision tree)",
        "description": "One floor situation: questions about what happened, each path ending in a cited ruling. "
                       "Generated from floorcall.content.check; `floor check` has the full rules (rulings/README.md).",
        **_object(check.TREE_FIELDS, check.TREE_REQUIRED, {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "tags": {"type": "array", "items": {"enum": list(check.TAGS)}},
            "games": {"type": "array", "items": {"enum": list(check.GAMES)}},
            "questions": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "additionalProperties": question},
            "outcomes": {"type": "object", "minProperties": 1, "propertyNames": {"pattern": ID_PATTERN},
                         "additionalProperties": outcome},
            "scenarios": {"type": "array", "items": scenario},
            "siblings": {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}},
        }),
    }


def skeleton(situation_id: str) -> str:
    """A new tree that passes `floor check` as it stands: every TODO is text to replace."""
    words = situation_id.replace("-", " ")
    return f"""# yaml-language-server: $schema=tree.schema.json
# A new situation: replace every TODO (rulings/README.md explains each field), then `floor check`.
id: {situation_id}
title: "TODO: what the floor is called to, in a few words ({words})"
aliases:
  - "{words}"
tags: [procedure]
start: what-happened
questions:
  what-happened:
    ask: "TODO: one fact the floor can see or hear?"
    help: "TODO: what counts, and how to tell."
    answers:
      one-way: {{label: "TODO: the first thing that can have happened", next: first-ruling}}
      other-way: {{label: "TODO: the other", next: second-ruling}}
outcomes:
  first-ruling:
    ruling: "TODO: what the floor announces, in our own words."
    why: "TODO: the reason, in our own words."
    cite: [tda-2024:1]
    house: DTTF is silent here; TDA 2024 governs.
  second-ruling:
    ruling: "TODO: what the floor announces, in our own words."
    cite: [tda-2024:1]
    house: DTTF is silent here; TDA 2024 governs.
scenarios:
  - {{given: {{what-happened: one-way}}, expect: first-ruling, facts: "TODO: a dispute told as it happened."}}
  - {{given: {{what-happened: other-way}}, expect: second-ruling, facts: "TODO: another."}}
"""
