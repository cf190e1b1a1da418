"""`floor check`: validate the rulebook and every ruling, file by file and as a whole corpus.

Pure: takes what `content.read_all` read and returns a sorted list of `Problem`s.
"""

from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Any

from floorcall.content.reader import OUT_OF_SCOPE_FILE, SEEDS_DIR, UNCOVERED_FILE, RawContent
from floorcall.content.yamlload import line_of
from floorcall.core.problems import Problem, did_you_mean

SOURCE_IDS = ("dttf", "tda-2024", "tda-2019", "wpa")
RULE_ID = re.compile(r"^(dttf|tda-2024|tda-2019|wpa):([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)$")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RELATION_TYPES = ("same", "conflicts", "supersedes", "see-also")
GAMES = ("all", "holdem", "stud", "draw", "limit", "pot-limit", "no-limit")
QUOTE_MODES = ("full", "opening", "none")
PLACEHOLDER_SUMMARIES = ("", "todo", "tbd")
MIN_ANSWERS, MAX_ANSWERS = 2, 5
# The floor has seconds: no path may ask more than this many questions (issue: none longer than 5).
MAX_PATH_QUESTIONS = 5

RULE_FIELDS = {
    "id": str, "number": str, "title": str, "section": str, "quote": str, "text": str,
    "summary": str, "keywords": list, "games": list, "relations": list, "uncertain": str,
    "tda_2007": (int, type(None)), "tda_2024": list, "illustrations": list,
    # lettered parts: `parts` on a rule; `part`, `topic` (our few words) and `parent` on each part record
    "parts": list, "part": str, "topic": str, "parent": str,
}
RULE_REQUIRED = ("id", "number", "title", "section", "quote", "summary", "keywords", "games")

TREE_FIELDS = {
    "id": str, "title": str, "aliases": list, "tags": list, "start": str, "questions": dict,
    "outcomes": dict, "scenarios": list, "games": list, "dispute_kinds": bool, "siblings": list,
}
TREE_REQUIRED = ("id", "title", "aliases", "tags", "start", "outcomes", "scenarios")
QUESTION_FIELDS = {"ask": str, "help": str, "answers": dict}
QUESTION_REQUIRED = ("ask", "help", "answers")  # `?` in a walk must always have something to say
ANSWER_FIELDS = {"label": str, "next": str}
ANSWER_REQUIRED = ("label", "next")
OUTCOME_FIELDS = {"ruling": str, "why": str, "cite": list, "house": str, "tda": dict, "note_2019": str, "calc": str,
                  "sourcing": str}
OUTCOME_REQUIRED = ("ruling", "cite")
TDA_FIELDS = {"ruling": str, "why": str, "cite": list, "calc": str, "sourcing": str}
TDA_REQUIRED = ("ruling", "cite")
SCENARIO_FIELDS = {"given": dict, "expect": str, "facts": str, "example": str}
SCENARIO_REQUIRED = ("given", "expect")
TAGS = ("betting", "dealing", "showdown", "chips", "seating", "conduct", "procedure", "house",
        "stud", "draw", "pot-limit", "limit", "no-limit")


def _fields(path, node, spec, required, what, problems) -> bool:
    """Shape check of one mapping: required keys, known keys, types. True when usable."""
    if not isinstance(node, dict):
        problems.append(Problem(path, line_of(node), "FC207", f"{what} must be a mapping"))
        return False
    ok = True
    for key in required:
        if key not in node or node[key] is None:
            problems.append(Problem(path, line_of(node), "FC202" if what != "rule" else "FC101",
                                    f"{what} lacks required field '{key}'"))
            ok = False
    for key, value in node.items():
        if key not in spec:
            problems.append(Problem(path, line_of(node, key), "FC208" if what != "rule" else "FC101",
                                    f"{what} has unknown field '{key}'", did_you_mean(key, spec)))
            continue
        if value is not None and not isinstance(value, spec[key]):
            expected = spec[key].__name__ if isinstance(spec[key], type) else "number or null"
            hint = "quote it: YAML reads yes/no/on/off as booleans and commas end flow values" if isinstance(value, bool) else ""
            problems.append(Problem(path, line_of(node, key), "FC207" if what != "rule" else "FC101",
                                    f"{what} field '{key}' must be {expected}, not {type(value).__name__}", hint))
            ok = False
        elif isinstance(value, list) and key in LIST_ITEMS:
            for number, item in enumerate(value, 1):
                if not isinstance(item, LIST_ITEMS[key]):
                    hint = ("quote it: YAML reads yes/no/on/off as booleans, bare numbers as numbers, and a bare - as nothing"
                            if LIST_ITEMS[key] is str else "")
                    problems.append(Problem(path, line_of(node, key), "FC207" if what != "rule" else "FC101",
                                            f"{what} field '{key}' item {number} must be {LIST_ITEMS[key].__name__}, "
                                            f"not {type(item).__name__}", hint))
                    ok = False
    return ok


# What the items of each list field must be; a bad item would break every command that reads it.
LIST_ITEMS = {"aliases": str, "tags": str, "games": str, "siblings": str, "cite": str, "keywords": str,
              "scenarios": dict, "relations": dict, "illustrations": dict, "parts": dict, "tda_2024": str}


# ---------------------------------------------------------------- rulebook

def _seed_texts(raw: RawContent) -> dict[str, str | None]:
    texts: dict[str, str | None] = {}  # None: the seed file cannot be read
    for source in raw.sources:
        seed = source.get("seed")
        path = raw.root / SEEDS_DIR / str(seed)
        try:
            texts[source.get("id")] = path.read_text(encoding="utf-8")
        except OSError:
            texts[source.get("id")] = None
    return texts


def _source_of_file(raw: RawContent) -> dict[str, str]:
    owner = {}
    for source in raw.sources:
        files = source.get("file")
        for name in files if isinstance(files, list) else [files]:
            owner[f"rulebook/{name}"] = source.get("id")
    return owner


def seed_word_runs(raw: RawContent) -> set[str]:
    """Every run of COPIED_WORDS consecutive words in the seeds: what our own words must not repeat."""
    return set().union(*(_word_runs(t) for t in _seed_texts(raw).values() if t))


def check_rulebook(raw: RawContent, seed_runs: set[str] | None = None) -> list[Problem]:
    problems: list[Problem] = []
    seeds = _seed_texts(raw)
    if seed_runs is None:
        seed_runs = seed_word_runs(raw)
    owner = _source_of_file(raw)
    for source in raw.sources:
        if raw.root and seeds.get(source.get("id")) is None:
            problems.append(Problem("rulebook/sources.yaml", line_of(source), "FC104",
                                    f"seed file '{source.get('seed')}' of source '{source.get('id')}' is missing",
                                    f"copy it into {SEEDS_DIR}/"))
    seen: dict[str, tuple[str, int]] = {}
    for path, rule in raw.rules:
        if not _fields(path, rule, RULE_FIELDS, RULE_REQUIRED, "rule", problems):
            continue
        rid, line = rule["id"], line_of(rule, "id")
        match = RULE_ID.match(rid)
        source = owner.get(path)
        if not match:
            problems.append(Problem(path, line, "FC102", f"rule id '{rid}' is not <source>:<number or slug>",
                                    "e.g. tda-2024:44, tda-2024:RP-5, dttf:no-chopping"))
        elif match.group(1) != source:
            problems.append(Problem(path, line, "FC102", f"rule id '{rid}' does not start with this file's source '{source}:'"))
        elif source in ("tda-2024", "tda-2019") and match.group(2) != rule["number"]:
            problems.append(Problem(path, line, "FC102", f"rule id '{rid}' does not match its number '{rule['number']}'"))
        if rid in seen:
            first = seen[rid]
            problems.append(Problem(path, line, "FC103", f"rule id '{rid}' is used twice (first at {first[0]}:{first[1]})"))
        else:
            seen[rid] = (path, line)
        quote, text = rule["quote"], rule.get("text")
        if quote not in QUOTE_MODES:
            problems.append(Problem(path, line_of(rule, "quote"), "FC106", f"unknown quote mode '{quote}'",
                                    "use full, opening or none"))
        elif quote == "none" and text:
            problems.append(Problem(path, line_of(rule, "text"), "FC107", f"rule '{rid}' has quote: none but a text"))
        elif quote != "none" and not text:
            problems.append(Problem(path, line_of(rule, "quote"), "FC107", f"rule '{rid}' has quote: {quote} but no text"))
        seed_text = seeds.get(source)
        if text and seed_text is not None and text not in seed_text:
            problems.append(Problem(path, line_of(rule, "text"), "FC104",
                                    f"the text of '{rid}' is not word for word in its seed file",
                                    _first_difference(text, seed_text)))
        own_words = [("summary", rule["summary"])] + ([("title", rule["title"])] if source == "dttf" else [])
        own_words += [(f"illustration {ex.get('example')} {k}", ex.get(k, "")) for ex in rule.get("illustrations") or []
                      if isinstance(ex, dict) for k in ("facts", "ruling")]
        for field_name, text in own_words:
            copied = _word_runs(str(text)) & seed_runs
            if copied:
                key = "illustrations" if field_name.startswith("illustration") else field_name
                problems.append(Problem(path, line_of(rule, key), "FC109",
                                        f"the {field_name} of '{rid}' copies its source: '{sorted(copied)[0]}…'",
                                        "summaries, our titles and illustrations are in our own words"))
        if str(rule["summary"]).strip().lower() in PLACEHOLDER_SUMMARIES:
            problems.append(Problem(path, line_of(rule, "summary"), "FC108", f"rule '{rid}' has no summary",
                                    "write 1-3 sentences in our own words"))
        if not rule["keywords"]:
            problems.append(Problem(path, line_of(rule, "keywords"), "FC108", f"rule '{rid}' has no keywords",
                                    "add the words people type for it"))
        for game in rule["games"]:
            if game not in GAMES:
                problems.append(Problem(path, line_of(rule, "games"), "FC106", f"unknown game '{game}'",
                                        did_you_mean(game, GAMES) or "use " + ", ".join(GAMES)))
    known = set(seen)
    for path, rule in raw.rules:
        if not isinstance(rule, dict):
            continue
        for relation in rule.get("relations") or []:
            if not isinstance(relation, dict):
                problems.append(Problem(path, line_of(rule, "relations"), "FC101", "a relation must be a mapping {type, to, note}"))
                continue
            rline = line_of(relation)
            if relation.get("type") not in RELATION_TYPES:
                problems.append(Problem(path, rline, "FC106", f"unknown relation type '{relation.get('type')}'",
                                        did_you_mean(relation.get("type"), RELATION_TYPES) or "use " + ", ".join(RELATION_TYPES)))
            if relation.get("to") not in known:
                problems.append(Problem(path, rline, "FC105", f"relation of '{rule.get('id')}' points to unknown rule '{relation.get('to')}'",
                                        did_you_mean(relation.get("to"), known)))
            if not relation.get("note"):
                problems.append(Problem(path, rline, "FC101", f"relation of '{rule.get('id')}' to '{relation.get('to')}' has no note"))
        for target in rule.get("tda_2024") or []:
            if target not in known:
                problems.append(Problem(path, line_of(rule, "tda_2024"), "FC105", f"'{rule.get('id')}' maps to unknown rule '{target}'",
                                        did_you_mean(target, known)))
        for example in rule.get("illustrations") or []:
            if not (isinstance(example, dict) and all(isinstance(example.get(k), str) for k in ("example", "facts", "ruling"))):
                problems.append(Problem(path, line_of(example), "FC101", "an illustration needs example, facts and ruling"))
    return problems


def _first_difference(text: str, seed: str) -> str:
    """Point at where the quote stops matching the seed: the longest prefix found in the seed."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text[:mid] in seed:
            low = mid
        else:
            high = mid - 1
    return f"it stops matching after {text[:low][-30:]!r} (next: {text[low:low + 15]!r})"


# ---------------------------------------------------------------- rulings: one file

def _mapping(node) -> dict:
    """`node` when it is a mapping, else an empty one: a shape problem is reported once, where it is."""
    return node if isinstance(node, dict) else {}


def _text(node) -> str:
    return node if isinstance(node, str) else ""


def check_tree(path: str, tree, rule_ids: set[str]) -> list[Problem]:
    """Every problem of one tree file; a wrong type anywhere is reported and the rest still checked."""
    problems: list[Problem] = []
    if tree is None:
        problems.append(Problem(path, 1, "FC207", "the tree file is empty", "write the tree, or delete the file"))
        return problems
    if not isinstance(tree, dict):
        problems.append(Problem(path, line_of(tree), "FC207", "tree must be a mapping"))
        return problems
    _fields(path, tree, TREE_FIELDS, TREE_REQUIRED, "tree", problems)
    tid = _text(tree.get("id"))
    stem = Path(path).stem
    if tid and not SLUG.match(tid):
        problems.append(Problem(path, line_of(tree, "id"), "FC204", f"tree id '{tid}' is not lowercase-hyphenated"))
    if tid and stem != tid:
        problems.append(Problem(path, line_of(tree, "id"), "FC203", f"tree id '{tid}' differs from the file name '{stem}'",
                                f"rename the file to {tid}.yaml or the id to {stem}"))
    for tag in _strings_in(tree, "tags"):
        if tag not in TAGS:
            problems.append(Problem(path, line_of(tree, "tags"), "FC207", f"unknown tag '{tag}'", did_you_mean(tag, TAGS)))
    for game in _strings_in(tree, "games"):
        if game not in GAMES:
            problems.append(Problem(path, line_of(tree, "games"), "FC106", f"unknown game '{game}'",
                                    did_you_mean(game, GAMES) or "use " + ", ".join(GAMES)))
    questions = _mapping(tree.get("questions"))
    outcomes = _mapping(tree.get("outcomes"))
    nodes = set(questions) | set(outcomes)
    for shared in sorted(set(questions) & set(outcomes)):
        problems.append(Problem(path, line_of(outcomes, shared), "FC209", f"'{shared}' is both a question and an outcome"))
    start = tree.get("start")
    if isinstance(start, str) and start not in nodes:
        problems.append(Problem(path, line_of(tree, "start"), "FC210", f"start '{start}' is no question or outcome",
                                did_you_mean(start, nodes)))
    for qid, question in questions.items():
        if not SLUG.match(qid):
            problems.append(Problem(path, line_of(questions, qid), "FC204", f"question id '{qid}' is not lowercase-hyphenated"))
        _fields(path, question, QUESTION_FIELDS, QUESTION_REQUIRED, f"question '{qid}'", problems)
        answers = question.get("answers") if isinstance(question, dict) else None
        if not isinstance(answers, dict):
            continue  # its shape problem is reported above; the other questions are still checked
        if not MIN_ANSWERS <= len(answers) <= MAX_ANSWERS:
            problems.append(Problem(path, line_of(question, "answers"), "FC205",
                                    f"question '{qid}' has {len(answers)} answers", f"give {MIN_ANSWERS} to {MAX_ANSWERS}"))
        for aid, answer in answers.items():
            if not SLUG.match(aid):
                problems.append(Problem(path, line_of(answers, aid), "FC204", f"answer id '{aid}' is not lowercase-hyphenated"))
            if not _fields(path, answer, ANSWER_FIELDS, ANSWER_REQUIRED, f"answer '{aid}'", problems):
                continue
            if answer["next"] not in nodes:
                problems.append(Problem(path, line_of(answer, "next"), "FC201",
                                        f"answer '{aid}' points to unknown node '{answer['next']}'",
                                        did_you_mean(answer["next"], nodes)))
    for oid, outcome in outcomes.items():
        if not SLUG.match(oid):
            problems.append(Problem(path, line_of(outcomes, oid), "FC204", f"outcome id '{oid}' is not lowercase-hyphenated"))
        _fields(path, outcome, OUTCOME_FIELDS, OUTCOME_REQUIRED[:1], f"outcome '{oid}'", problems)
        if not isinstance(outcome, dict):
            continue
        if not outcome.get("cite"):
            problems.append(Problem(path, line_of(outcome), "FC206", f"outcome '{oid}' cites no rule",
                                    "every ruling rests on at least one rule: add cite: [tda-2024:N]"))
        tda = outcome.get("tda")
        if tda is not None:
            _fields(path, tda, TDA_FIELDS, TDA_REQUIRED, f"tda position of '{oid}'", problems)
    scenarios = tree["scenarios"] if isinstance(tree.get("scenarios"), list) else []
    for index, scenario in enumerate(scenarios, 1):
        if _fields(path, scenario, SCENARIO_FIELDS, SCENARIO_REQUIRED, f"scenario {index}", problems):
            for qid, aid in scenario["given"].items():
                if not isinstance(aid, str):
                    problems.append(Problem(path, line_of(scenario, "given"), "FC207",
                                            f"scenario {index} answers '{qid}' with {type(aid).__name__}, not an answer id"))
    return problems


def _strings_in(node: dict, key: str) -> list[str]:
    """The string items of a list field (the others are reported by `_fields`)."""
    value = node.get(key)
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def structural_problems(path: str, tree, rule_ids: set[str]) -> list[Problem]:
    """What would break a command that uses the tree (the site, the quiz, a walk): a cycle or an
    unknown cite. The corpus leaves such a tree out and names it; `floor check` reports all."""
    problems = [Problem(path, line_of(_mapping(tree.get("questions")), node), "FC212", f"the answers lead back to question '{node}' in a cycle")
                for node in _cycles(tree)]
    for oid, outcome in _mapping(tree.get("outcomes")).items():
        outcome = _mapping(outcome)
        for rid in _strings_in(outcome, "cite") + _strings_in(_mapping(outcome.get("tda")), "cite"):
            if rid not in rule_ids:
                problems.append(Problem(path, line_of(outcome, "cite"), "FC213", f"outcome '{oid}' cites unknown rule '{rid}'"))
    return problems


def rule_shape_problems(path: str, rule) -> list[Problem]:
    """The shape problems of one rule record (required fields, types): such a record is not loaded."""
    problems: list[Problem] = []
    _fields(path, rule, RULE_FIELDS, RULE_REQUIRED, "rule", problems)
    if isinstance(rule, dict) and isinstance(rule.get("id"), str) and not RULE_ID.match(rule["id"]):
        problems.append(Problem(path, line_of(rule, "id"), "FC102", f"rule id '{rule['id']}' is not <source>:<number or slug>"))
    return problems


# ---------------------------------------------------------------- rulings: the corpus

def walk_given(tree, given: dict) -> tuple[str | None, str]:
    """Follow `given` answers from start. Returns (outcome id, '') or (None, why it stopped)."""
    questions = _mapping(tree.get("questions"))
    node, steps = _text(tree.get("start")), 0
    while node in questions:
        steps += 1
        if steps > len(questions) + 1:
            return None, "the answers go round in a cycle"
        answers = _mapping(_mapping(questions[node]).get("answers"))
        if node not in given:
            return None, f"no answer given for question '{node}'"
        aid = _text(given[node])
        if aid not in answers:
            return None, f"'{aid}' is not an answer of question '{node}'" + (f" ({did_you_mean(aid, answers)})" if did_you_mean(aid, answers) else "")
        node = _text(_mapping(answers[aid]).get("next"))
    return node, ""


def tree_paths(tree) -> list[list[tuple[str, str]]]:
    """Every path from start to an outcome, as (question, answer) pairs; cycles are cut."""
    questions = _mapping(tree.get("questions"))
    outcomes = _mapping(tree.get("outcomes"))
    paths: list[list[tuple[str, str]]] = []

    def visit(node, trail, seen):
        if node in outcomes:
            paths.append(trail)
            return
        if node not in questions or node in seen:
            return
        for aid, answer in _mapping(_mapping(questions[node]).get("answers")).items():
            if isinstance(answer, dict):
                visit(_text(answer.get("next")), trail + [(node, aid)], seen | {node})

    visit(_text(tree.get("start")), [], frozenset())
    return paths


def _cycles(tree) -> list[str]:
    questions = _mapping(tree.get("questions"))
    found, state = [], {}

    def visit(node):
        state[node] = 1
        for answer in _mapping(_mapping(questions[node]).get("answers")).values():
            nxt = _text(answer.get("next")) if isinstance(answer, dict) else None
            if nxt in questions:
                if state.get(nxt) == 1:
                    found.append(nxt)
                elif nxt not in state:
                    visit(nxt)
        state[node] = 2

    for qid in questions:
        if qid not in state and isinstance(questions[qid], dict):
            visit(qid)
    return found


def conflicting_dttf_rules(raw: RawContent) -> set[str]:
    """DTTF ids that have a `conflicts` relation with a TDA 2024 record (either end)."""
    result = set()
    for _path, rule in raw.rules:
        rid = rule.get("id", "")
        for relation in rule.get("relations") or []:
            if not isinstance(relation, dict) or relation.get("type") != "conflicts":
                continue
            target = str(relation.get("to", ""))
            if rid.startswith("dttf:") and target.startswith("tda-2024:"):
                result.add(rid)
            elif target.startswith("dttf:") and rid.startswith("tda-2024:"):
                result.add(target)
    return result


def conflict_pairs(raw: RawContent) -> list[tuple[str, str, str, int]]:
    """Every `conflicts` relation between DTTF and TDA 2024 as (dttf id, tda id, file, line)."""
    pairs = []
    for path, rule in raw.rules:
        rid = str(rule.get("id", ""))
        for relation in rule.get("relations") or []:
            if not isinstance(relation, dict) or relation.get("type") != "conflicts":
                continue
            target = str(relation.get("to", ""))
            if rid.startswith("dttf:") and target.startswith("tda-2024:"):
                pairs.append((rid, target, path, line_of(relation)))
            elif target.startswith("dttf:") and rid.startswith("tda-2024:"):
                pairs.append((target, rid, path, line_of(relation)))
    return pairs


def parent_ids(raw: RawContent) -> dict[str, str]:
    """part id -> its rule's id, for every lettered part."""
    return {rule["id"]: rule["parent"] for _p, rule in raw.rules
            if isinstance(rule, dict) and isinstance(rule.get("parent"), str) and isinstance(rule.get("id"), str)}


def _same_rule(a: str, b: str, parents: dict[str, str]) -> bool:
    """A part and its rule name the same rule for relations: 35-E matches 35 and 35-E."""
    return a == b or parents.get(a) == b or parents.get(b) == a


def conflicts_backing(cites: list, tda_cites: list, pairs, parents: dict[str, str]) -> list[tuple[str, str]]:
    """The recorded DTTF-vs-TDA conflicts that join a house ruling's DTTF cites to its TDA position's cites."""
    return [(d, t) for d, t, _f, _l in pairs if d in cites and any(_same_rule(t, c, parents) for c in tda_cites)]


# What `--house none` must never say: it is pure TDA 2024. ("house policy"/"house limit" are TDA's own words.)
HOUSE_TALK = re.compile(r"\bDTTF\b|\bleague\b|\bhouse\b(?!\s+(?:policy|limit))", re.I)
# Remarks about where a fact was sourced belong in `sourcing:`, never in what the floor reads out.
SOURCING_TALK = re.compile(r"not quoted here|TDA index|full TDA|full text|source we quote|quoted source|opening sentence|the seed\b"
                           r"|index reads", re.I)
# A house note that claims a difference needs the TDA position beside it.
CLAIMS_DIFFERENCE = re.compile(r"\bdiffer|\bconflict", re.I)
READ_OUT_FIELDS = ("ruling", "why", "house")


def _illustrations(raw: RawContent) -> dict[Any, set[Any]]:
    # Ids and labels as the YAML holds them: check_rulebook reports those that are not strings.
    return {rule.get("id"): {ex.get("example") for ex in rule.get("illustrations") or [] if isinstance(ex, dict)}
            for _path, rule in raw.rules if isinstance(rule, dict)}


# Trees speak in our own words: this many consecutive words found in a seed is copying, not paraphrase.
COPIED_WORDS = 9


def _word_runs(text: str, size: int = COPIED_WORDS) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower().replace("’", "'").replace("'", ""))
    return {" ".join(words[i:i + size]) for i in range(len(words) - size + 1)}


SKIPPED_KEYS = ("cite", "next", "start", "id", "expect", "example", "calc", "given")


def _strings(node, parent=None, key=None):
    """Every (line, key, string) in a tree below `node`; ids, citations and commands excluded."""
    if isinstance(node, str):
        if key not in SKIPPED_KEYS:
            yield line_of(parent, key), key, node
    elif isinstance(node, dict):
        for k, v in node.items():
            if k not in SKIPPED_KEYS:
                yield from _strings(v, node, k)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, parent, key) if isinstance(v, str) else _strings(v, None, key)


def copied_text(raw: RawContent, seed_runs: set[str]) -> list[Problem]:
    problems = []
    for path, tree in raw.trees:
        for line, key, text in _strings(tree):
            copied = _word_runs(text) & seed_runs
            if copied:
                problems.append(Problem(path, line, "FC224", f"'{key}' copies the rulebook's words: '{sorted(copied)[0]}…'",
                                        "say it in our own words; the rule's text is shown from its citation"))
    return problems


def check_corpus(raw: RawContent, rule_ids: set[str], coverage: bool = True, seed_runs: set[str] | None = None) -> list[Problem]:
    problems: list[Problem] = copied_text(raw, seed_word_runs(raw) if seed_runs is None else seed_runs)
    conflicting = conflicting_dttf_rules(raw)
    parents = parent_ids(raw)
    with_parts = set(parents.values())
    pairs = conflict_pairs(raw)
    used_pairs: set[tuple[str, str]] = set()
    situation_ids = {tree.get("id") for _p, tree in raw.trees if isinstance(tree, dict)}
    illustrations = _illustrations(raw)
    cited: set[str] = set()
    names: dict[str, tuple[str, Any]] = {}  # alias key -> (path, id of the situation it names)
    for path, tree in raw.trees:
        if not isinstance(tree, dict) or not isinstance(tree.get("outcomes"), dict):
            continue
        questions = tree["questions"] if isinstance(tree.get("questions"), dict) else {}
        outcomes = tree["outcomes"]
        if not all(isinstance(q, dict) and isinstance(q.get("answers"), dict) for q in questions.values()):
            continue
        for name in [_text(tree.get("title"))] + _strings_in(tree, "aliases"):
            key = re.sub(r"[^a-z0-9]+", " ", str(name).lower()).strip()
            if key in names and names[key][0] != path:
                problems.append(Problem(path, line_of(tree, "aliases"), "FC216",
                                        f"'{name}' already names situation '{names[key][1]}'", "make it specific to this situation"))
            names.setdefault(key, (path, tree.get("id")))
        # reachability, cycles, path length
        # None stands for an answer that is no mapping (reported by check_tree), so it leads nowhere.
        reached: set[str | None] = {_text(tree.get("start"))}
        frontier: list[str | None] = [_text(tree.get("start"))]
        while frontier:
            node = frontier.pop()
            for answer in _mapping(_mapping(questions.get(node)).get("answers")).values():
                nxt = _text(answer.get("next")) if isinstance(answer, dict) else None
                if nxt not in reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        for node in list(questions) + list(outcomes):
            if node not in reached:
                problems.append(Problem(path, line_of(questions if node in questions else outcomes, node), "FC211",
                                        f"'{node}' cannot be reached from start '{tree.get('start')}'"))
        for node in _cycles(tree):
            problems.append(Problem(path, line_of(questions, node), "FC212", f"the answers lead back to question '{node}' in a cycle"))
        for trail in tree_paths(tree):
            if len(trail) > MAX_PATH_QUESTIONS:
                problems.append(Problem(path, line_of(questions, trail[0][0]), "FC217",
                                        f"a path asks {len(trail)} questions", f"at most {MAX_PATH_QUESTIONS}; split the tree"))
                break
        # citations and precedence
        for oid, outcome in outcomes.items():
            if not isinstance(outcome, dict):
                continue
            cites = _strings_in(outcome, "cite")
            tda = outcome.get("tda") if isinstance(outcome.get("tda"), dict) else None
            tda_cites = _strings_in(tda or {}, "cite")
            for rid in cites + tda_cites:
                if rid not in rule_ids:
                    problems.append(Problem(path, line_of(outcome, "cite"), "FC213", f"outcome '{oid}' cites unknown rule '{rid}'",
                                            did_you_mean(rid, rule_ids)))
                cited.add(rid)
            if any(c in conflicting for c in cites) and tda is None and not outcome.get("house"):
                problems.append(Problem(path, line_of(outcome), "FC218",
                                        f"outcome '{oid}' cites a DTTF rule that conflicts with TDA 2024 but gives no TDA position",
                                        "add a tda: {ruling, cite} block, or a house: note saying they agree here"))
            if tda is not None and tda_cites and not any(c.startswith("tda-2024:") for c in tda_cites):
                problems.append(Problem(path, line_of(outcome, "tda"), "FC219", f"the tda position of '{oid}' cites no TDA 2024 rule"))
            if outcome.get("note_2019") and not any(c.startswith("tda-2019:") for c in cites):
                problems.append(Problem(path, line_of(outcome, "note_2019"), "FC219",
                                        f"outcome '{oid}' has a note_2019 but cites no 2019 procedure", "add the tda-2019:RP-N it describes"))
            problems += _house_problems(path, oid, outcome, tda, cites, tda_cites, pairs, parents, used_pairs)
            for key, rid in [("cite", c) for c in cites] + [("tda", c) for c in tda_cites]:
                if rid in with_parts:
                    problems.append(Problem(path, line_of(outcome, key), "FC231",
                                            f"outcome '{oid}' cites the whole of '{rid}', which has lettered parts",
                                            "cite the part that decides, e.g. " + min(p for p, r in parents.items() if r == rid)))
        for sibling in _strings_in(tree, "siblings"):
            if sibling not in situation_ids or sibling == tree.get("id"):
                problems.append(Problem(path, line_of(tree, "siblings"), "FC232",
                                        f"sibling '{sibling}' is " + ("this situation itself" if sibling == tree.get("id") else "no situation"),
                                        did_you_mean(sibling, situation_ids - {tree.get("id")})))
        # scenarios
        landed = set()
        for scenario in tree.get("scenarios") or []:
            if not isinstance(scenario, dict) or not isinstance(scenario.get("given"), dict):
                continue
            outcome, why = walk_given(tree, scenario["given"])
            expect = scenario.get("expect")
            if outcome is None:
                problems.append(Problem(path, line_of(scenario), "FC215", f"scenario expecting '{expect}' stops: {why}"))
            elif outcome != expect:
                problems.append(Problem(path, line_of(scenario), "FC215", f"scenario lands on '{outcome}', not '{expect}'",
                                        did_you_mean(expect, outcomes) if expect not in outcomes else ""))
            else:
                landed.add(outcome)
            example = scenario.get("example")
            if example:
                rid, _, label = str(example).partition(" ")
                if label not in illustrations.get(rid, set()):
                    problems.append(Problem(path, line_of(scenario, "example"), "FC223",
                                            f"'{example}' names no Illustration Addendum example",
                                            did_you_mean(label, illustrations.get(rid, set())) or "write it as 'tda-2024:45 Ex 2'"))
        for oid in outcomes:
            if oid not in landed and oid in reached:
                problems.append(Problem(path, line_of(outcomes, oid), "FC214", f"no scenario reaches outcome '{oid}'",
                                        "add a scenario that lands on it"))
    for dttf_id, tda_id, rpath, rline in pairs:
        if (dttf_id, tda_id) not in used_pairs:
            problems.append(Problem(rpath, rline, "FC228", f"the conflict between '{dttf_id}' and '{tda_id}' is used by no ruling",
                                    "give the outcome where they differ a tda: block citing both, or drop the relation"))
    problems += _out_of_scope_clashes(raw)
    if coverage:
        problems += _check_coverage(raw, rule_ids, cited)
    return problems


def _out_of_scope_clashes(raw: RawContent) -> list[Problem]:
    """FC235: an out-of-scope phrase that a situation uses for itself (its title, an alias, an answer)
    would make lookup call that situation's own words out of scope. Compared as lookup compares them:
    stemmed, synonyms applied, so 'rake' (read as the dealer's 'bring in') clashes with the stud bring-in."""
    from floorcall.core.textnorm import compile_phrases, terms

    phrases = compile_phrases(raw.synonyms)
    markers = [(phrase, terms(phrase, phrases)) for phrase in raw.out_of_scope]
    markers = [(phrase, marker) for phrase, marker in markers if marker]
    problems: list[Problem] = []
    if not markers:
        return problems
    try:  # the phrase's own line, for the message; a list item carries none from the loader
        listing = (raw.root / OUT_OF_SCOPE_FILE).read_text(encoding="utf-8").splitlines()
    except OSError:
        listing = []
    lines: dict[str, int] = {}
    for number, line in enumerate(listing, 1):
        item = line.strip().removeprefix("- ").strip().strip("'\"")
        lines.setdefault(item, number)
    for _path, tree in raw.trees:
        if not isinstance(tree, dict):
            continue
        own = [_text(tree.get("title"))] + _strings_in(tree, "aliases") + [
            _text(answer.get("label")) for question in _mapping(tree.get("questions")).values() if isinstance(question, dict)
            for answer in _mapping(question.get("answers")).values() if isinstance(answer, dict)]
        for words in own:
            found = terms(words, phrases)
            for phrase, marker in markers:
                if any(found[i:i + len(marker)] == marker for i in range(len(found) - len(marker) + 1)):
                    problems.append(Problem(OUT_OF_SCOPE_FILE, lines.get(phrase, 1), "FC235",
                                            f"out-of-scope phrase '{phrase}' is in situation '{tree.get('id')}''s own words: '{words}'",
                                            "lookup would call that situation out of scope — narrow the phrase, or reword the situation"))
    return problems


def _house_problems(path, oid, outcome, tda, cites, tda_cites, pairs, parents, used_pairs) -> list[Problem]:
    """One truth for house vs TDA: a `tda` block only where a recorded conflict (or TDA's silence)
    needs one, and nothing under `--house none` that speaks of the house."""
    problems = []
    tda_text = tda or {}
    shown_pure = ([(k, outcome.get(k)) for k in ("ruling", "why")] if tda is None
                  else [(f"tda {k}", tda_text.get(k)) for k in ("ruling", "why")])
    for key, text in shown_pure:
        found = HOUSE_TALK.search(str(text or ""))
        if found:
            problems.append(Problem(path, line_of(tda if tda is not None else outcome, key.split()[-1]), "FC226",
                                    f"outcome '{oid}' {key} speaks of the house ('{found.group(0)}'), but --house none shows it as pure TDA 2024",
                                    "move house remarks to house:, or give a tda: block" if tda is None else "the tda position is pure TDA 2024"))
    for key, text in [(k, outcome.get(k)) for k in READ_OUT_FIELDS] + [(f"tda {k}", tda_text.get(k)) for k in ("ruling", "why")]:
        found = SOURCING_TALK.search(str(text or ""))
        if found:
            problems.append(Problem(path, line_of(tda if key.startswith("tda") else outcome, key.split()[-1]), "FC233",
                                    f"outcome '{oid}' {key} carries a sourcing remark ('{found.group(0)}')",
                                    "the floor reads this out: move it to sourcing:"))
    # TDA rules the house ruling rests on that the TDA position rests on too are common ground, not a
    # difference: a tda block beside them fills a gap TDA leaves (no conflict needed).
    tda_based = [c for c in cites if c.startswith("tda-2024:") and c not in tda_cites]
    if tda is not None:
        backing = conflicts_backing(cites, tda_cites, pairs, parents)
        used_pairs.update(backing)
        if tda_based and not backing:
            problems.append(Problem(path, line_of(outcome, "tda"), "FC227",
                                    f"outcome '{oid}' gives a separate TDA position, but no cited DTTF rule is recorded as conflicting with a TDA rule it cites",
                                    "record the conflict in rulebook/dttf.yaml, or drop the tda: block where DTTF and TDA agree"))
    if tda is None and not any(not c.startswith("dttf:") for c in cites):
        problems.append(Problem(path, line_of(outcome, "cite"), "FC229",
                            f"outcome '{oid}' rests on DTTF rules only, so --house none has no TDA basis to show",
                            "add a tda: block with what the floor does under TDA 2024 (Rule 1 at least)"))
    if tda is None and CLAIMS_DIFFERENCE.search(str(outcome.get("house") or "")):
        problems.append(Problem(path, line_of(outcome, "house"), "FC230",
                                f"outcome '{oid}' says the house differs from TDA but gives no TDA position",
                                "add the tda: block, or say they agree"))
    return problems


def _check_coverage(raw: RawContent, rule_ids: set[str], cited: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    listed = {}
    for path, item in raw.uncovered:
        if not isinstance(item, dict) or not item.get("reason") or item.get("id") not in rule_ids:
            rid = item.get("id") if isinstance(item, dict) else item
            problems.append(Problem(path, line_of(item), "FC222",
                                    f"uncovered entry '{rid}' " + ("names no rule" if isinstance(item, dict) and rid not in rule_ids else "gives no reason"),
                                    did_you_mean(rid, rule_ids) if isinstance(item, dict) and rid not in rule_ids else "add reason: <one line>"))
            continue
        listed[item["id"]] = line_of(item)
        if item["id"] in cited:
            problems.append(Problem(path, line_of(item), "FC220", f"'{item['id']}' is cited by a ruling and also listed as uncovered",
                                    "remove it from uncovered.yaml"))
    rule_lines = {rule.get("id"): (path, line_of(rule, "id")) for path, rule in raw.rules if isinstance(rule, dict)}
    parents = parent_ids(raw)
    with_parts = set(parents.values())
    # A rule with parts is covered part by part; listing the rule lists each of its parts.
    listed.update({part: line for part, rule in parents.items() for rid, line in list(listed.items()) if rule == rid})
    for part in parents:
        if part in listed and part in cited:
            problems.append(Problem(UNCOVERED_FILE, listed[part], "FC220", f"'{part}' is cited by a ruling and also listed as uncovered",
                                    "list the other parts one by one instead"))
    for rid in sorted(rule_ids - cited - set(listed) - with_parts):
        path, line = rule_lines[rid]
        problems.append(Problem(path, line, "FC221", f"rule '{rid}' is cited by no ruling and not listed in rulings/uncovered.yaml",
                                "cite it from the outcome it governs, or list it with a reason"))
    return problems


def check_all(raw: RawContent, only: set[str] | None = None) -> list[Problem]:
    """All problems; with `only` (relative paths), just those files' problems and no coverage pass."""
    problems = list(raw.problems)
    seed_runs = seed_word_runs(raw)  # read and split the seeds once for both passes
    problems += check_rulebook(raw, seed_runs)
    # A missing or non-string id is reported by check_rulebook (FC101); it is no id a ruling can cite.
    rule_ids = {rule["id"] for _p, rule in raw.rules if isinstance(rule, dict) and isinstance(rule.get("id"), str)}
    for path, tree in raw.trees:
        problems += check_tree(path, tree, rule_ids)
    problems += check_corpus(raw, rule_ids, coverage=only is None, seed_runs=seed_runs)
    if only is not None:
        problems = [p for p in problems if p.path in only]
    return sorted(set(problems))


def corpus_figures(raw: RawContent) -> dict:
    """Counts for notes and `floor check --stats`: situations, outcomes, scenarios, path lengths."""
    lengths = [len(p) for _path, tree in raw.trees if isinstance(tree, dict) for p in tree_paths(tree)]
    cited = {rid for _path, tree in raw.trees if isinstance(tree, dict)
             for outcome in _mapping(tree.get("outcomes")).values() if isinstance(outcome, dict)
             for rid in _strings_in(outcome, "cite") + _strings_in(_mapping(outcome.get("tda")), "cite")}
    listed = {item.get("id") for _path, item in raw.uncovered if isinstance(item, dict)}
    parents = parent_ids(raw)
    listed |= {part for part, rule in parents.items() if rule in listed}
    with_parts = set(parents.values())
    coverage: dict[str, dict[str, int]] = {}  # source -> cited, uncovered, total
    for _path, rule in raw.rules:
        if rule.get("id") in with_parts:
            continue  # counted by its parts
        source = str(rule.get("id", "")).split(":")[0]
        counts = coverage.setdefault(source, {"cited": 0, "uncovered": 0, "total": 0})
        counts["total"] += 1
        counts["cited"] += rule.get("id") in cited
        counts["uncovered"] += rule.get("id") in listed
    return {
        "coverage": " ".join(f"{s} {c['cited']}/{c['uncovered']}/{c['total']}" for s, c in coverage.items()),
        "situations": len(raw.trees),
        "outcomes": sum(len(_mapping(t.get("outcomes"))) for _p, t in raw.trees if isinstance(t, dict)),
        "scenarios": sum(len(t["scenarios"]) for _p, t in raw.trees if isinstance(t, dict) and isinstance(t.get("scenarios"), list)),
        "median_path": statistics.median(lengths) if lengths else 0,
        "max_path": max(lengths, default=0),
    }
