"""The quiz engine: training items generated from the rulings and the rulebook, selection, grading.

Pure: a corpus (as `corpus.load` returns it) and a seed in, items and grades out. The same seed
always gives the same items, the same choices in the same order and the same selection.

Where the items come from (ids are stable across content edits, so saved progress survives them):

- `scenario:<situation>:<outcome>[:<n>]`: a tree scenario's facts; the right answer is the ruling
  the walk engine lands on (`walk.advance`), so training can never disagree with `floor walk`.
  Distractors are the rulings of the tree's other outcomes (and, where the house differs, the
  TDA 2024 ruling), then of trees of the same topic that cite none of the same rules.
- `tda:<situation>:<outcome>[:<n>]`: the same facts under pure TDA 2024 (`--house none`), asked
  only where the outcome's TDA position differs from the house ruling.
- `rule:<rule-id>:governs`: our summary of a DTTF or TDA 2024 rule; which rule says this?
- `house:<dttf-id>:<tda-id>`: a house rule that conflicts with TDA 2024; which TDA rule does it set aside?
- `addendum:<rule-id>:<example>`: an Illustration Addendum example's facts; what is the ruling?
- `addendum:<rule-id>:<example>:figures`: the arithmetic of a minimum-raise, 50 % or re-opening
  example, kept only when the computed figure appears in that example's ruling.

No item has two right answers. Wrong choices come only from places where they cannot also be
right: the tree's other outcomes (reached by different facts), other trees' outcomes that cite
none of the same rules, other rules' addendum examples. On top of that, a candidate that gives the
same ruling as the right answer (equal text, the same first clause, contained in it, or a
near-identical wording) is dropped, and `validate_items` checks every item again. An item left
with fewer than two wrong choices is skipped and counted, never padded.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from floorcall.core.errors import FloorError
from floorcall.core.labels import rule_label
from floorcall.core.textnorm import words
from floorcall.engines.walk import Pending, Ruling, advance, rule_for_house


def _calc():
    """The calculators, imported when an item is built (not when a quiz only reads cached items)."""
    from floorcall.engines import calc

    return calc


TOPICS = ("betting", "dealing", "showdown", "chips", "seating", "conduct", "procedure", "house")
KINDS = ("scenario", "house", "rule", "addendum", "arithmetic", "true-false", "select-all", "which-part")
KIND_NAMES = {
    "scenario": "what is the ruling", "house": "house rules vs TDA 2024", "rule": "which rule says this",
    "addendum": "Illustration Addendum", "arithmetic": "the arithmetic", "true-false": "true or false",
    "select-all": "select all that apply", "which-part": "which rule part decides",
}
TRUE, FALSE = "True", "False"
# Only the house rules and the current TDA edition govern at the league: "which rule governs"
# items are asked of those two. The 2019 procedures (superseded) and WPA (a reference) still
# count as sources of the items that cite them.
GOVERNING_SOURCES = ("dttf", "tda-2024")

MAX_DISTRACTORS = 3  # four choices, as on a written floor exam
# Fewer than two wrong choices makes a coin toss, not a question: such items are skipped and counted.
MIN_DISTRACTORS = 2
# Two rulings this close (edit-distance ratio on normalised words, 0-100) are the same ruling
# reworded. Measured on the corpus: every pair scoring 80 or more says the same thing in other
# words ("He must put in the full call." / "He must complete the full call.", 83) unless a figure
# differs, which is checked first. Calling the odd real difference "the same" only costs a
# distractor, never adds a second right answer.
SAME_RULING_SIMILARITY = 80
# In a ruling shorter than this one word is the whole ruling ("The hand is dead." / "The hand is
# live."), so near-identical short texts are not compared by similarity at all.
MIN_FUZZY_WORDS = 6
# A ruling of at least this many words found, in order, within another is the same ruling with
# more said ("It is a call; change is made." within "It is only a call; change is made if needed.").
MIN_CONTAINED_WORDS = 3

# Sections of the rulebooks, for rules no tree cites (a cited rule takes its trees' topic).
SECTION_TOPICS = {
    "Play: Bets and Raises": "betting",
    "Button / Blinds": "betting",
    "Pots / Showdown": "showdown",
    "Seating": "seating",
    "Seating, Breaking and Balancing Tables": "seating",
    "Player Present / Eligible for Hand": "seating",
    "Dealing Rules": "dealing",
    "Rules for Irregularities": "dealing",
    "Basic Rules for Texas Hold 'Em Poker": "dealing",
    "Etiquette and Penalties": "conduct",
    "Play: Other": "conduct",
}
DEFAULT_TOPIC = "procedure"  # decision-making, general concepts, tournament administration

HOUSE_QUESTION = "Under the house rules (DTTF), what is the ruling?"
TDA_QUESTION = "Under pure TDA 2024 (no house rules: `--house none`), what is the ruling?"
RULING_QUESTION = "What is the ruling?"


@dataclass(frozen=True)
class Item:
    """One question; `answer` is the 0-based index of the right choice (for select-all, the first of `answer_set`)."""

    id: str
    kind: str
    topic: str  # the primary topic: stats and the closing counts group by it
    topics: tuple[str, ...]  # every topic it belongs to (`--topic` matches any)
    sources: tuple[str, ...]  # the sources of its citations, primary first
    prompt: str
    choices: tuple[str, ...]
    answer: int
    explanation: str  # our words, ending with the rules cited
    cites: tuple[str, ...]  # rule ids, primary first: the part that decides comes first
    ref: str = ""  # the situation or rule the item was made from
    answer_set: tuple[int, ...] = ()  # select-all: every right choice, in order (empty for one right choice)
    walk: str = ""  # the command that shows where the answer comes from (`floor walk …`, `floor rule …`, `floor calc …`)
    link: str = ""  # the same on the site, relative to its root
    draws_on: tuple[str, ...] = ()  # the situations (or rules) its facts come from: an exam uses each once

    @property
    def multi(self) -> bool:
        return self.kind == "select-all"

    @property
    def right_answers(self) -> tuple[int, ...]:
        return self.answer_set or (self.answer,)

    @property
    def right(self) -> str:
        return " + ".join(self.choices[i] for i in self.right_answers)

    def is_right(self, chosen) -> bool:
        """Whether a choice (an index, or for select-all a collection of indexes) is the right answer."""
        if chosen is None:
            return False
        picked = (chosen,) if isinstance(chosen, int) else tuple(sorted(set(chosen)))
        return picked == self.right_answers

    def as_json(self) -> dict:
        return {
            "id": self.id, "kind": self.kind, "topic": self.topic, "topics": list(self.topics),
            "sources": list(self.sources), "prompt": self.prompt, "choices": list(self.choices),
            "answer_index": self.answer, "answer_number": self.answer + 1,
            "answer_numbers": [i + 1 for i in self.right_answers], "multi": self.multi,
            "explanation": self.explanation, "cites": list(self.cites), "ref": self.ref,
            "walk": self.walk, "link": self.link, "draws_on": list(self.draws_on or (self.ref,)),
        }


@dataclass
class Generated:
    """The items of a corpus, and what was left out and why (id, reason)."""

    items: list[Item]
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def skipped_counts(self) -> dict[str, int]:
        return dict(Counter(reason.split(":")[0] for _, reason in self.skipped))


# ---------------------------------------------------------------- comparing rulings


@functools.cache
def normalised(text: str) -> str:
    return " ".join(words(text))


@functools.cache
def verdict(text: str) -> str:
    """The first clause of a ruling, without asides: 'Misdeal. Gather…' and 'Misdeal; redeal…' share 'misdeal'."""
    plain = re.sub(r"\([^)]*\)", " ", str(text))
    first = re.split(r"[.;:!?](?:\s|$)", plain.strip(), maxsplit=1)[0]
    return normalised(first)


@functools.cache
def same_ruling(a: str, b: str) -> bool:
    """Whether two ruling texts say the same thing (so one cannot be the wrong answer to the other)."""
    na, nb = normalised(a), normalised(b)
    if na == nb:
        return True
    va, vb = verdict(a), verdict(b)
    if va and va == vb:
        return True
    shorter, longer = sorted((na.split(), nb.split()), key=len)
    if len(shorter) >= MIN_CONTAINED_WORDS and _is_subsequence(shorter, longer):
        return True  # "Too late; the payout stands." within "Too late under the house rule; the payout stands."
    if _figures_in(a) != _figures_in(b):
        return False  # "a raise to 1,700" and "a raise to 1,300" differ however alike they read
    if min(len(na.split()), len(nb.split())) < MIN_FUZZY_WORDS:
        return False
    from rapidfuzz import fuzz

    return fuzz.ratio(na, nb) >= SAME_RULING_SIMILARITY


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    words_left = iter(long)
    return all(word in words_left for word in short)


def pick_distractors(right: str, tiers: list, rng: random.Random, limit: int = MAX_DISTRACTORS) -> list[str]:
    """Up to `limit` wrong choices, nearest tier first, none the same ruling as `right` or as each other.

    A tier is a list of candidate texts, or a function returning one (built only when reached)."""
    chosen: list[str] = []
    for tier in tiers:
        if len(chosen) >= limit:
            break
        if callable(tier):  # a far tier, built only when the near ones ran short
            tier = tier()
        candidates = list(dict.fromkeys(t for t in tier if t and str(t).strip()))
        rng.shuffle(candidates)
        for text in candidates:
            if len(chosen) >= limit:
                return chosen
            if same_ruling(text, right) or any(same_ruling(text, c) for c in chosen):
                continue
            chosen.append(text)
    return chosen


def _rng(seed: int, item_id: str) -> random.Random:
    # A string seed is hashed with SHA-512 by `random`: stable across runs and PYTHONHASHSEED.
    return random.Random(f"{seed}:{item_id}")


def _shuffled_choices(right: str, distractors: list[str], rng: random.Random) -> tuple[tuple[str, ...], int]:
    choices = [right] + distractors
    rng.shuffle(choices)
    return tuple(choices), choices.index(right)


# ---------------------------------------------------------------- topics and sources


def tree_topics(situation: dict) -> tuple[str, ...]:
    return tuple(t for t in situation.get("tags", []) if t in TOPICS)


def tree_topic(situation: dict, rules: dict) -> str:
    """The tree's first topic tag; a tree tagged only with games (stud, pot-limit) takes its primary rule's section."""
    for tag in tree_topics(situation):
        if tag != "house":
            return tag
    if "house" in tree_topics(situation):
        return "house"
    for rid in situation.get("cites", []):
        if rid in rules:
            return SECTION_TOPICS.get(rules[rid].get("section", ""), DEFAULT_TOPIC)
    return DEFAULT_TOPIC


def rule_topics(corpus: dict) -> dict[str, str]:
    """Each rule's topic: the commonest topic of the trees citing it, else its section's topic."""
    rules, situations = corpus["rules"], corpus["situations"]
    votes: dict[str, Counter] = {}
    for situation in situations.values():
        topic = tree_topic(situation, rules)
        if topic == "house":
            continue
        for rid in situation.get("cites", []):
            votes.setdefault(rid, Counter())[topic] += 1
    topics = {}
    for rid, rule in rules.items():
        counted = votes.get(rid)
        if counted:
            best = max(counted.values())
            topics[rid] = next(t for t in TOPICS if counted.get(t) == best)
        else:
            topics[rid] = SECTION_TOPICS.get(rule.get("section", ""), DEFAULT_TOPIC)
    return topics


def sources_of(cites, rules: dict) -> tuple[str, ...]:
    found = []
    for rid in cites:
        source = (rules.get(rid) or {}).get("source") or rid.split(":", 1)[0]
        if source not in found:
            found.append(source)
    return tuple(found)


def rule_choice(rule: dict) -> str:
    """A rule as a choice: 'TDA 2024 Rule 44 — Oversized Chip Betting', 'DTTF — Entrant absent at the start'."""
    label = rule.get("source_short", rule["source"]) if rule["source"] == "dttf" else rule_label(rule)
    part_topic = f" ({rule['topic']})" if rule.get("parent") and rule.get("topic") else ""
    return f"{label} — {rule['title'].rstrip('.')}{part_topic}"


def cite_text(cites, rules: dict) -> str:
    labels = []
    for rid in cites:
        rule = rules.get(rid)
        labels.append(f"{rule_label(rule)} [{rid}]" if rule else rid)
    return "Rules: " + "; ".join(labels) + "." if labels else ""


def _sentence(text: str) -> str:
    text = str(text).strip()
    return text if text[-1:] in ".?!" else text + "."


def _join(*parts: str) -> str:
    return " ".join(p.strip() for p in parts if p and p.strip())


# ---------------------------------------------------------------- generation


def generate(corpus: dict, seed: int = 0) -> Generated:
    """Every item the corpus supports, in a stable order, and the ones left out with reasons."""
    from floorcall.engines import quiz_kinds

    out = Generated([])
    rules = corpus["rules"]
    topics_of_rules = rule_topics(corpus)
    walked = walked_scenarios(corpus, out)
    _scenario_items(corpus, walked, seed, out)
    _rule_items(rules, topics_of_rules, seed, out)
    _house_items(corpus, topics_of_rules, seed, out)
    _addendum_items(corpus, topics_of_rules, seed, out)
    _figure_items(corpus, seed, out)
    quiz_kinds.add_items(corpus, walked, topics_of_rules, seed, out)
    ids = Counter(item.id for item in out.items)
    duplicated = {i for i, n in ids.items() if n > 1}
    if duplicated:  # two items may never share an id: progress is keyed by it
        out.items = [item for item in out.items if item.id not in duplicated]
        out.skipped += [(i, "duplicate-id: two items would share this id") for i in sorted(duplicated)]
    return out


def generate_items(corpus: dict, seed: int = 0) -> list[Item]:
    return generate(corpus, seed).items


def _outcome_rulings(situation: dict, house: str) -> dict[str, str]:
    return {oid: rule_for_house(situation, oid, house).ruling for oid in situation.get("outcomes", {})}


# A `tda` block is required wherever a cited house rule conflicts with TDA 2024, even where both
# reach the same result here; the outcome's `house` note says which. Only an explicit "differs …
# here" (or a different form of penalty), with no "agree"/"same" and a TDA ruling not starting
# "Same", makes a house-vs-TDA question: anything less could give two right answers.
DIFFERS_HERE = re.compile(r"\bdiffers?\b[^.]*\b(?:here|form of penalty|penalty form)\b", re.IGNORECASE)
HOUSE_PENALTY = re.compile(r"\b(?:time|house scale|sits? out|dealt out)\b", re.IGNORECASE)
AGREES = re.compile(r"\b(?:agree|agrees|same)\b", re.IGNORECASE)


def positions_differ(outcome: dict, house_ruling: str, tda_ruling: str) -> bool:
    """Whether the house and TDA 2024 positions of an outcome are different rulings, by the tree's own account."""
    if not outcome.get("tda"):
        return False
    note = str(outcome.get("house", ""))
    if not DIFFERS_HERE.search(note) or AGREES.search(note):
        return False
    if CONTEXT_BOUND_RULING.match(str(tda_ruling)):
        return False
    if not re.search(r"\bhere\b", note) and not HOUSE_PENALTY.search(house_ruling):
        return False  # "differs on the form of penalty" is a fair question only when the house ruling names its form
    return not same_ruling(house_ruling, tda_ruling)


def _scenario_facts(situation: dict, scenario: dict, ruling: Ruling) -> str:
    facts = str(scenario.get("facts") or "").strip()
    if facts:
        return facts
    return "\n".join(f"• {step.ask} — {step.label}" for step in ruling.path) or "(The situation as titled.)"


def _outcome_cites(outcome: dict) -> frozenset[str]:
    return frozenset(list(outcome.get("cite") or []) + list((outcome.get("tda") or {}).get("cite") or []))


# A wrong answer must not be a ruling that could be right here too. Outcomes of other trees that
# cite any of the same rules often state the same thing for a neighbouring case ("the stack stays
# and is blinded off", "a missed-hand penalty"), so they are never used; and a ruling that leans
# on its own context ("Same ruling; …") reads wrongly anywhere else.
CONTEXT_BOUND_RULING = re.compile(r"^\s*same\b", re.IGNORECASE)


def _neighbour_tiers(situation: dict, outcome_id: str, situations: dict, rules: dict, house: str, cache: dict) -> list:
    """Rulings of other trees' outcomes that cite none of this outcome's rules: same topic, then a shared tag, then any.

    Each tier is built only when the nearer ones ran out of distinct wrong rulings."""
    if "neighbours" not in cache:
        table = []
        for other in sorted(situations.values(), key=lambda s: s["id"]):
            outcomes = []
            for oid, outcome in other.get("outcomes", {}).items():
                texts = {mode: rule_for_house(other, oid, mode).ruling for mode in ("dttf", "none")}
                outcomes.append((_outcome_cites(outcome), {m: t for m, t in texts.items() if not CONTEXT_BOUND_RULING.match(t)}))
            table.append((other["id"], tree_topic(other, rules), set(other.get("tags", [])), outcomes))
        cache["neighbours"] = table
    own_cites = _outcome_cites(situation["outcomes"][outcome_id])
    own_topic = tree_topic(situation, rules)
    own_tags = set(situation.get("tags", [])) - {"house"}

    def tier(kind: str):
        def build() -> list[str]:
            found = []
            for other_id, topic, tags, outcomes in cache["neighbours"]:
                if other_id == situation["id"]:
                    continue
                which = "topic" if topic == own_topic else "tag" if own_tags & tags else "any"
                if which != kind:
                    continue
                found += [texts[house] for cites, texts in outcomes if house in texts and not (cites & own_cites)]
            return found
        return build

    return [tier("topic"), tier("tag"), tier("any")]


def _same_branch(situation: dict, outcome_id: str) -> set[str]:
    """Outcomes that may serve as wrong answers for `outcome_id` from its own tree.

    Usually every other outcome (they are reached by different facts). In a tree marked
    `dispute_kinds`, the first question sorts out which dispute it is, so outcomes under other
    first answers answer other questions and can be just as true: only the same branch counts."""
    from floorcall.content.check import tree_paths

    paths = tree_paths(situation)
    if not situation.get("dispute_kinds"):
        return set(situation.get("outcomes", {}))
    first_answers = {p[0][1] for p in paths if p and _path_end(situation, p) == outcome_id}
    return {_path_end(situation, p) for p in paths if p and p[0][1] in first_answers}


def _path_end(situation: dict, path: list[tuple[str, str]]) -> str:
    question, answer = path[-1]
    return situation["questions"][question]["answers"][answer]["next"]


def walk_command(situation_id: str, path, house: str = "dttf") -> str:
    """The `floor walk` that reaches this ruling: `floor walk ID -a QUESTION=ANSWER … [--house none]`."""
    answers = "".join(f" -a {step.question}={step.answer}" for step in path)
    return f"floor walk {situation_id}{answers}" + (" --house none" if house == "none" else "")


def walk_link(situation_id: str, path, house: str = "dttf") -> str:
    """The site's page for the situation, its walk taken to this ruling (the walk app reads the hash)."""
    from urllib.parse import quote

    parts = [f"{quote(step.question)}={quote(step.answer)}" for step in path] + (["house=none"] if house == "none" else [])
    return f"situations/{situation_id}.html" + ("#" + "&".join(parts) if parts else "")


def rule_walk(rule_id: str) -> str:
    return f"floor rule {rule_id}"


def rule_link(rule_id: str) -> str:
    source, _, number = rule_id.partition(":")
    return f"rules/{source}/{number}.html"


@dataclass(frozen=True)
class Walked:
    """One tree scenario walked: where it lands under the house rules, and its pure TDA 2024 position."""

    situation: dict
    number: int  # the scenario's place in its tree, from 1
    key: str  # the outcome, with ':2', ':3' … for the second and later scenarios landing there
    facts: str
    told: bool  # the scenario has its own facts (else they are the walk's answers)
    landed: Ruling  # under the house rules (dttf)
    tda: Ruling  # under pure TDA 2024
    differs: bool  # the tree says the house and TDA 2024 rule differently here
    topic: str
    topics: tuple[str, ...]

    @property
    def sid(self) -> str:
        return self.situation["id"]

    @property
    def outcome(self) -> str:
        return self.landed.outcome

    def ruling(self, house: str) -> Ruling:
        return self.landed if house == "dttf" else self.tda


def walked_scenarios(corpus: dict, out: Generated) -> list[Walked]:
    """Every scenario of every tree walked once (walk.advance), in a stable order; the unwalkable ones are skipped and counted."""
    rules, situations = corpus["rules"], corpus["situations"]
    walked = []
    for sid in sorted(situations):
        situation = situations[sid]
        topic = tree_topic(situation, rules)
        base_topics = tuple(dict.fromkeys((topic,) + tree_topics(situation)))
        seen: Counter = Counter()
        for number, scenario in enumerate(situation.get("scenarios") or [], 1):
            try:
                landed = advance(situation, dict(scenario.get("given") or {}), "dttf")
            except FloorError as exc:
                out.skipped.append((f"scenario:{sid}:#{number}", f"unwalkable: {exc.message}"))
                continue
            if isinstance(landed, Pending):
                out.skipped.append((f"scenario:{sid}:#{number}", f"unwalkable: stops at question '{landed.question}'"))
                continue
            oid = landed.outcome
            seen[oid] += 1
            tda = rule_for_house(situation, oid, "none", landed.path)
            walked.append(Walked(
                situation=situation, number=number, key=oid if seen[oid] == 1 else f"{oid}:{seen[oid]}",
                facts=_scenario_facts(situation, scenario, landed), told=bool(str(scenario.get("facts") or "").strip()),
                landed=landed, tda=tda, differs=positions_differ(situation["outcomes"][oid], landed.ruling, tda.ruling),
                topic=topic, topics=base_topics,
            ))
    return walked


def _scenario_items(corpus: dict, walked: list[Walked], seed: int, out: Generated) -> None:
    rules, situations = corpus["rules"], corpus["situations"]
    cache: dict = {}
    for scene in walked:
        situation, sid, oid, key, differs = scene.situation, scene.sid, scene.outcome, scene.key, scene.differs
        landed, tda = scene.landed, scene.tda
        for mode, ruling, other in (("dttf", landed, tda), ("none", tda, landed)):
            if mode == "none" and not differs:
                continue
            item_id = f"{'scenario' if mode == 'dttf' else 'tda'}:{sid}:{key}"
            rng = _rng(seed, item_id)
            # A tree branches on the facts the house rules care about; under pure TDA those
            # facts may not matter, and its other outcomes can be right too. So a TDA question
            # takes from its own tree only the house ruling it is contrasted with.
            own = ([r for o, r in _outcome_rulings(situation, mode).items() if o != oid and o in _same_branch(situation, oid)]
                   if mode == "dttf" else [])
            tiers = ([[other.ruling]] if differs else []) + [own] + _neighbour_tiers(situation, oid, situations, rules, mode, cache)
            distractors = pick_distractors(ruling.ruling, tiers, rng)
            if len(distractors) < MIN_DISTRACTORS:
                out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} distinct wrong ruling(s)"))
                continue
            question = (HOUSE_QUESTION if mode == "dttf" else TDA_QUESTION) if differs else RULING_QUESTION
            choices, answer = _shuffled_choices(ruling.ruling, distractors, rng)
            cites = tuple(ruling.cites)
            explanation = _join(
                ruling.why,
                (f"Under the house rules: {landed.ruling}" if mode == "none" else f"Pure TDA 2024 (`--house none`): {tda.ruling}") if differs else "",
                situation["outcomes"][oid].get("house", "") if differs else "",
                cite_text(cites, rules),
            )
            all_cites = tuple(dict.fromkeys(list(cites) + (list(other.cites) if differs else [])))
            out.items.append(Item(
                id=item_id,
                kind="scenario" if mode == "dttf" else "house",
                topic=scene.topic if mode == "dttf" else "house",
                topics=tuple(dict.fromkeys(scene.topics + (("house",) if differs else ()))),
                sources=sources_of(all_cites, rules),
                prompt=f"{_sentence(situation['title'])}\n{scene.facts}\n{question}",
                choices=choices, answer=answer, explanation=explanation, cites=cites, ref=sid,
                walk=walk_command(sid, ruling.path, mode), link=walk_link(sid, ruling.path, mode), draws_on=(sid,),
            ))


def _mask_own_number(summary: str, rule: dict) -> str:
    """Hide the rule's own number in its summary ('Rule 45', '45-B'): the question asks for it."""
    number = str(rule.get("number", ""))
    if rule["source"] == "dttf" or not number:
        return summary
    if rule.get("parent"):
        number = number.rsplit("-", 1)[0]  # a part hides its whole rule's number too: 35-A as well as 35
    pattern = rf"\b(?:Rule\s+)?{re.escape(number)}(?:-[A-Z]+)?(?:\(\d+\))?(?![\w-])"
    return re.sub(pattern, "this rule", summary)


def _related_ids(rule: dict, types: tuple[str, ...]) -> set[str]:
    return {r["to"] for r in rule.get("related", []) if r.get("type") in types}


def _rule_items(rules: dict, topics_of_rules: dict, seed: int, out: Generated) -> None:
    labels = {rid: rule_choice(rule) for rid, rule in rules.items()}
    by_source: dict[str, list[dict]] = {}
    for rule in rules.values():
        by_source.setdefault(rule["source"], []).append(rule)
    for rid in sorted(rules):
        rule = rules[rid]
        if rule["source"] not in GOVERNING_SOURCES:
            continue
        if rule.get("parts"):
            continue  # its summary only lists its parts; each part is asked on its own (it is what decides)
        item_id = f"rule:{rid}:governs"
        summary = str(rule.get("summary") or "").strip()
        if not summary:
            out.skipped.append((item_id, "no-summary: the rule has no summary to ask about"))
            continue
        rng = _rng(seed, item_id)
        # The rule's own family says it too: a part's whole rule is never a wrong answer to it.
        excluded = _related_ids(rule, ("same", "supersedes", "superseded-by")) | family(rid, rules)
        peers = [r for r in by_source[rule["source"]] if r["id"] not in excluded and not r.get("parts")
                 and r.get("summary", "") != rule.get("summary", "")]
        tiers: list[LabelTier] = [
            [labels[r["id"]] for r in peers if r.get("section") == rule.get("section")],
            lambda peers=peers, rid=rid: [labels[r["id"]] for r in peers if topics_of_rules.get(r["id"]) == topics_of_rules.get(rid)],
            lambda peers=peers: [labels[r["id"]] for r in peers],
        ]
        right = labels[rid]
        distractors = _pick_distinct_labels(right, tiers, rng)
        if len(distractors) < MIN_DISTRACTORS:
            out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} other rule(s) in {rule['source']}"))
            continue
        choices, answer = _shuffled_choices(right, distractors, rng)
        source_name = rule.get("source_short", rule["source"])
        house_word = " (the house rules)" if rule["source"] == "dttf" else ""
        out.items.append(Item(
            id=item_id, kind="rule", topic=topics_of_rules[rid], topics=(topics_of_rules[rid],),
            sources=(rule["source"],),
            prompt=f"Which {source_name}{house_word} rule says this (in our words)?\n{_mask_own_number(summary, rule)}",
            choices=choices, answer=answer,
            explanation=_join(f"{rule_choice(rule)} [{rid}], section “{rule.get('section', '')}”.",
                              "Its words are shown by `floor rule " + rid + "`."),
            cites=(rid,), ref=rid, walk=rule_walk(rid), link=rule_link(rid), draws_on=(rule.get("parent") or rid,),
        ))


def family(rule_id: str, rules: dict) -> set[str]:
    """A rule with its parent and every part of either: the ids that say the same thing as it, in whole or in part."""
    rule = rules.get(rule_id) or {}
    top = rule.get("parent") or rule_id
    return {rule_id, top} | set((rules.get(top) or {}).get("parts") or [])


# Candidate labels, or a function returning them: a far tier is built only when reached. The
# function is called with no arguments; `...` because its defaulted parameters bind loop variables.
LabelTier = list[str] | Callable[..., list[str]]


def _pick_distinct_labels(right: str, tiers: list[LabelTier], rng: random.Random) -> list[str]:
    """Rule labels are names, not rulings: only exact duplicates are excluded."""
    chosen: list[str] = []
    for tier in tiers:
        if len(chosen) >= MAX_DISTRACTORS:
            break
        candidates = list(dict.fromkeys(tier() if callable(tier) else tier))
        rng.shuffle(candidates)
        for label in candidates:
            if len(chosen) >= MAX_DISTRACTORS:
                return chosen
            if label != right and label not in chosen:
                chosen.append(label)
    return chosen


def conflict_part(house_id: str, tda_id: str, corpus: dict) -> str | None:
    """The part of a TDA rule a house rule sets aside: the part the trees' TDA positions cite beside that
    house rule (a conflict may be recorded against the whole rule); the rule itself when it has no parts."""
    rules = corpus["rules"]
    parts = (rules.get(tda_id) or {}).get("parts") or []
    if not parts:
        return tda_id
    votes: Counter = Counter()
    for situation in corpus["situations"].values():
        for outcome in situation.get("outcomes", {}).values():
            if house_id in (outcome.get("cite") or []):
                votes.update(c for c in (outcome.get("tda") or {}).get("cite") or [] if c in parts)
    return max(sorted(votes), key=lambda c: votes[c]) if votes else None


def _house_items(corpus: dict, topics_of_rules: dict, seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    for rid in sorted(rules):
        house = rules[rid]
        if house["source"] != "dttf":
            continue
        conflicts = [r for r in house.get("related", []) if r.get("type") == "conflicts"
                     and (rules.get(r["to"]) or {}).get("source") == "tda-2024"]
        set_aside = set().union(*(family(r["to"], rules) for r in conflicts)) if conflicts else set()
        for relation in conflicts:
            item_id = f"house:{rid}:{relation['to']}"
            part = conflict_part(rid, relation["to"], corpus)
            if part is None:
                out.skipped.append((item_id, "no-deciding-part: no tree says which part of the TDA rule the house sets aside"))
                continue
            tda = rules[part]
            rng = _rng(seed, item_id)
            # Never a rule that takes the different position in whole or in part (a part's whole rule, a rule's parts).
            peers = [r for r in rules.values() if r["source"] == "tda-2024" and r["id"] not in set_aside and not r.get("parts")]
            tiers: list[LabelTier] = [
                [rule_choice(r) for r in peers if r.get("section") == tda.get("section")],
                lambda peers=peers, tda=tda: [rule_choice(r) for r in peers if topics_of_rules.get(r["id"]) == topics_of_rules.get(tda["id"])],
                lambda peers=peers: [rule_choice(r) for r in peers],
            ]
            right = rule_choice(tda)
            distractors = _pick_distinct_labels(right, tiers, rng)
            if len(distractors) < MIN_DISTRACTORS:
                out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} other TDA 2024 rule(s)"))
                continue
            choices, answer = _shuffled_choices(right, distractors, rng)
            topic = topics_of_rules.get(rid, DEFAULT_TOPIC)
            out.items.append(Item(
                id=item_id, kind="house", topic="house", topics=tuple(dict.fromkeys(("house", topic))),
                sources=("dttf", "tda-2024"),
                prompt=(f"The house rule “{house['title']}” (DTTF) governs at the league where it differs from TDA 2024:\n"
                        f"In our words: {str(house.get('summary', '')).strip()}\nWhich TDA 2024 rule takes a different position?"),
                choices=choices, answer=answer,
                explanation=_join(str(relation.get("note", "")).strip(),
                                  "At the league the house rule governs; `--house none` shows the TDA 2024 position.",
                                  cite_text((rid, tda["id"]), rules)),
                cites=(rid, tda["id"]), ref=rid, walk=rule_walk(rid), link=rule_link(rid), draws_on=(rid,),
            ))


def example_slug(example: str) -> str:
    """'Ex 1-A' -> 'ex-1-a', 'Situation 2' -> 'situation-2': ids never hold spaces."""
    return "-".join(re.findall(r"[a-z0-9]+", str(example).lower())) or "example"


# An illustration whose ruling leans on another example ("for the same reason", "as Ex 1-B") reads
# wrongly out of its context, so it is never offered as a wrong answer to a different example.
CONTEXT_BOUND = re.compile(r"\b(same reason|as (?:in )?ex|situations? \d|whatever situations)", re.IGNORECASE)


# "Continuing Ex 1: …", "Same as Ex 3-A, but …", "As Ex 1-B, but …", "Same, but …": facts that
# build on an earlier example of the same rule.
# ("Same blinds (25-50)" restates what it shares, so it stands alone.)
BUILDS_ON = re.compile(r"^\s*(?:continuing\b|same\b(?!\s+blinds)|as\s+(?:ex|situation)\b)", re.IGNORECASE)
EXAMPLE_REF = re.compile(r"\b((?:Ex|Situation)\s+[0-9]+(?:-[A-Z])?)\b")
MAX_EXAMPLE_CHAIN = 3


def example_facts(rule: dict, example: dict) -> str:
    """An example's facts, with the earlier example it builds on told first, each labelled."""
    examples = rule.get("illustrations", [])
    chain = [example]
    while len(chain) <= MAX_EXAMPLE_CHAIN and BUILDS_ON.match(str(chain[0].get("facts", ""))):
        current = chain[0]
        named = EXAMPLE_REF.search(str(current.get("facts", "")))
        index = next((i for i, e in enumerate(examples) if e is current), 0)
        if named:
            earlier = next((e for e in examples if e.get("example") == named.group(1)), None)
        else:
            earlier = examples[index - 1] if index > 0 else None
        if earlier is None or earlier in chain:
            break
        chain.insert(0, earlier)
    if len(chain) == 1:
        return str(example.get("facts", "")).strip()
    return "\n".join(f"{e.get('example')}: {str(e.get('facts', '')).strip()}" for e in chain)


# An example's facts that open with the part they illustrate ("Rule 11-D. NLHE …"), or an example
# named for its part ("B Ex 1" under Rule 53).
PART_IN_FACTS = re.compile(r"^\s*Rule\s+\d+-([A-Z])\b")
PART_IN_NAME = re.compile(r"^([A-Z])\s+(?:Ex|Example|Situation)\b")


def example_uses(corpus: dict) -> dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]]:
    """(rule id, example name) -> the trees whose scenarios act it out: (situation, the landed outcome's cites)."""
    uses: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
    for sid in sorted(corpus["situations"]):
        situation = corpus["situations"][sid]
        for scenario in situation.get("scenarios") or []:
            rid, _, name = str(scenario.get("example") or "").partition(" ")
            if not name:
                continue
            outcome = situation["outcomes"].get(scenario.get("expect"), {})
            uses.setdefault((rid, name), []).append((sid, tuple(_outcome_cites_in_order(outcome))))
    return uses


def _outcome_cites_in_order(outcome: dict) -> list[str]:
    return list(dict.fromkeys(list(outcome.get("cite") or []) + list((outcome.get("tda") or {}).get("cite") or [])))


def example_part(rule: dict, example: dict, uses: dict) -> str | None:
    """The part of `rule` that decides an addendum example: named in its facts or name, else the part
    the trees acting it out cite; the rule itself when it has no parts; None when nothing says."""
    parts = list(rule.get("parts") or [])
    if not parts:
        return rule["id"]
    for pattern, text in ((PART_IN_FACTS, str(example.get("facts", ""))), (PART_IN_NAME, str(example.get("example", "")))):
        found = pattern.match(text)
        if found and f"{rule['id']}-{found.group(1)}" in parts:
            return f"{rule['id']}-{found.group(1)}"
    cited = [c for _sid, cites in uses.get((rule["id"], str(example.get("example", ""))), []) for c in cites if c in parts]
    return cited[0] if cited else None


def _addendum_items(corpus: dict, topics_of_rules: dict, seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    uses = example_uses(corpus)
    illustrated = [r for r in (rules[i] for i in sorted(rules)) if r.get("illustrations")]
    for rule in illustrated:
        for example in rule["illustrations"]:
            item_id = f"addendum:{rule['id']}:{example_slug(example.get('example', ''))}"
            right = str(example.get("ruling", "")).strip()
            facts = example_facts(rule, example)
            if not right or not facts:
                out.skipped.append((item_id, "incomplete: the example has no facts or no ruling"))
                continue
            if CONTEXT_BOUND.search(right):
                out.skipped.append((item_id, "context-bound: the ruling leans on another example"))
                continue
            part = example_part(rule, example, uses)
            if part is None:
                out.skipped.append((item_id, "no-deciding-part: nothing says which part of the rule the example shows"))
                continue
            rng = _rng(seed, item_id)
            # Other examples of the same rule often share the verdict ("a call", "the hand is dead")
            # for different facts, which would make two right answers: take other rules' examples,
            # the same section first.
            def rulings(condition, rule=rule):
                return [str(e.get("ruling", "")).strip() for r in illustrated if r["id"] != rule["id"] and condition(r)
                        for e in r["illustrations"] if not CONTEXT_BOUND.search(str(e.get("ruling", "")))]

            tiers = [rulings(lambda r, rule=rule: r.get("section") == rule.get("section")),
                     rulings(lambda r, rule=rule: topics_of_rules.get(r["id"]) == topics_of_rules.get(rule["id"])),
                     rulings(lambda r: True)]
            distractors = pick_distractors(right, tiers, rng)
            if len(distractors) < MIN_DISTRACTORS:
                out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} distinct wrong ruling(s)"))
                continue
            choices, answer = _shuffled_choices(right, distractors, rng)
            topic = topics_of_rules.get(part, topics_of_rules.get(rule["id"], DEFAULT_TOPIC))
            acted = tuple(sid for sid, _cites in uses.get((rule["id"], str(example.get("example", ""))), []))
            out.items.append(Item(
                id=item_id, kind="addendum", topic=topic, topics=(topic,), sources=(rule["source"],),
                prompt=f"Illustration Addendum, {rule_label(rule)} ({rule['title'].rstrip('.')}).\n{facts}\n{RULING_QUESTION}",
                choices=choices, answer=answer,
                explanation=_join(str(rules[part].get("summary", "")).strip(), cite_text((part,), rules)),
                cites=(part,), ref=rule["id"], walk=rule_walk(rule["id"]), link=rule_link(rule["id"]),
                draws_on=tuple(dict.fromkeys((rule["id"],) + acted)),
            ))


# ---------------------------------------------------------------- addendum arithmetic
#
# The figures of the Illustration Addendum examples that test arithmetic, as the examples state
# them. The rule applied is the TDA's own; an item is kept only when its computed answer appears
# in that example's ruling text (commas ignored), so this table can never drift from the addendum.


@dataclass(frozen=True)
class MinRaise:
    """Rule 43: a raise adds no less than the biggest bet or raise made so far this round."""

    actor: str
    to_call: int  # the current bet the raiser faces, in total
    increments: tuple[int, ...]  # the opening bet (or big blind) and each raise increment, in order
    blind: int
    question: str = ""

    def answer(self) -> int:
        return _calc().minimum_raise_to(self.to_call, max(self.increments))

    def figures(self) -> list[int]:
        return [self.answer()]

    def choices(self) -> tuple[str, list[str]]:
        mistakes = [
            2 * self.to_call,  # raising by the whole bet instead of the increment
            self.to_call + self.increments[-1],  # only the last raise counted
            self.to_call + self.blind,  # the big blind as the minimum raise
            self.to_call + self.increments[0],  # the opening bet as the minimum raise
        ]
        return f"{self.answer():,}", [f"{m:,}" for m in mistakes if m != self.answer()]

    def prompt(self) -> str:
        return self.question or f"What is the smallest total {self.actor} may raise to?"

    def command(self) -> str:
        """The `floor calc raise` that works it out, when the calculator agrees with the example (else '')."""
        preflop = self.increments[0] == self.blind  # the big blind opens the round
        totals, largest = 0, self.blind if preflop else 0
        actions: list[str] = []
        for n, increment in enumerate(self.increments):
            totals += increment
            if n == 0 and preflop:
                continue
            verb = "bet" if not actions and not preflop else ("raise" if increment >= largest else "allin")
            largest = max(largest, increment)
            actions.append(f"{verb} {totals}")
        if not actions:
            return ""
        line = f"floor calc raise --blinds {self.blind // 2}/{self.blind}{' --preflop' if preflop else ''} --actions \"{', '.join(actions)}\""
        try:
            agrees = _calc().min_raise(_calc().parse_blinds(f"{self.blind // 2}/{self.blind}"), _calc().parse_actions(", ".join(actions)), preflop) == self.answer()
        except FloorError:
            agrees = False
        return line if agrees else ""

    def explain(self) -> str:
        largest = max(self.increments)
        return (f"A raise adds no less than the biggest bet or raise made so far this round ({largest:,}): "
                f"{self.to_call:,} + {largest:,} = {self.answer():,}.")


@dataclass(frozen=True)
class HalfRaise:
    """Rule 45: chips beyond the call make a raise only when they reach half the minimum raise."""

    actor: str
    to_call: int
    min_raise: int
    put_out: int
    question: str = ""

    def threshold(self) -> int | float:
        return _calc().half_raise_line(self.to_call, self.min_raise)

    def is_raise(self) -> bool:
        return self.put_out >= self.threshold()

    def figures(self) -> list[int | float]:  # the line is a half chip when the minimum raise is odd
        return [self.threshold()] + ([self.to_call + self.min_raise] if self.is_raise() else [])

    def choices(self) -> tuple[str, list[str]]:
        full = self.to_call + self.min_raise
        call = f"A call: {self.put_out - self.to_call:,} goes back to {self.actor}."
        complete = f"A raise to {full:,}: {self.actor} must complete a full raise."
        as_put = f"A raise of exactly {self.put_out:,}, the chips put out."
        right = complete if self.is_raise() else call
        return right, [c for c in (call, complete, as_put) if c != right]

    def prompt(self) -> str:
        return self.question or f"How is {self.actor}'s {self.put_out:,} in chips read?"

    def explain(self) -> str:
        reaches = "reaches" if self.is_raise() else "falls short of"
        then = (f"so it is a raise, completed to {self.to_call:,} + {self.min_raise:,} = {self.to_call + self.min_raise:,}"
                if self.is_raise() else f"so it is a call and {self.put_out - self.to_call:,} goes back")
        return (f"The 50% standard: the call is {self.to_call:,} and the minimum raise {self.min_raise:,}, so the mark is "
                f"{self.to_call:,} + {self.threshold() - self.to_call:,} = {self.threshold():,}. {self.put_out:,} {reaches} it, {then}.")

    def check_words(self) -> str:
        return "" if self.is_raise() else "call"

    def command(self) -> str:
        return ""  # the chip calculator needs each chip; the example gives only some of them


@dataclass(frozen=True)
class Reopen:
    """Rule 47: a player who has acted may raise again only when facing at least a full raise."""

    actor: str
    already_in: int
    bet_now: int
    full_raise: int
    question: str = ""

    def faces(self) -> int:
        return self.bet_now - self.already_in

    def figures(self) -> list[int]:
        return [self.faces()]

    @staticmethod
    def _text(actor: str, faces: int, full: int) -> str:
        if _calc().reopens(faces, full):
            return f"{faces:,} more, a full raise or more: {actor} may fold, call or raise."
        return f"{faces:,} more, short of a full raise of {full:,}: {actor} may fold or call only."

    def choices(self) -> tuple[str, list[str]]:
        right = self._text(self.actor, self.faces(), self.full_raise)
        flipped = (f"{self.faces():,} more, short of a full raise of {self.full_raise:,}: {self.actor} may fold or call only."
                   if _calc().reopens(self.faces(), self.full_raise) else
                   f"{self.faces():,} more, and betting re-opens: {self.actor} may fold, call or raise.")
        whole = self._text(self.actor, self.bet_now, self.full_raise)  # the whole bet, forgetting what is already in
        return right, [c for c in dict.fromkeys((flipped, whole)) if c != right]

    def prompt(self) -> str:
        return self.question or f"How much more does {self.actor} face, and may {self.actor} raise?"

    def command(self) -> str:
        return ""  # the raise calculator needs the whole round; the addendum page shows it

    def explain(self) -> str:
        verdict_text = "at least a full raise, so betting re-opens" if _calc().reopens(self.faces(), self.full_raise) else "less than a full raise, so betting does not re-open"
        return (f"{self.actor} has {self.already_in:,} in and the bet is {self.bet_now:,}: {self.actor} faces "
                f"{self.faces():,} more, {verdict_text} (a full raise here is {self.full_raise:,}).")


FIGURE_EXAMPLES: dict[tuple[str, str], MinRaise | HalfRaise | Reopen] = {
    ("tda-2024:43", "Ex 1"): MinRaise("D", 3600, (600, 1000, 2000), 200),
    ("tda-2024:43", "Ex 2"): MinRaise("B", 150, (100, 50), 100),
    ("tda-2024:43", "Ex 3"): MinRaise("C", 1000, (300, 700), 200),
    ("tda-2024:43", "Ex 4-A"): MinRaise("D", 500, (50, 75, 75, 300), 50),
    ("tda-2024:43", "Ex 4-B"): MinRaise("D", 500, (50, 450), 50),
    ("tda-2024:47", "Ex 2"): MinRaise("F", 800, (300, 200, 150, 150), 100),
    ("tda-2024:47", "Ex 3-A"): MinRaise("the BB", 7500, (4000, 3500), 4000),
    ("tda-2024:45", "Ex 2"): HalfRaise("UTG+1", 1100, 600, 1500),
    ("tda-2024:45", "Ex 3"): HalfRaise("UTG+1", 1100, 600, 1300),
    ("tda-2024:45", "Ex 4-A"): HalfRaise("B", 1400, 1400, 2500),
    ("tda-2024:45", "Ex 4-B"): HalfRaise("B", 1400, 1400, 2000),
    ("tda-2024:47", "Ex 1"): Reopen("A", 100, 200, 100),
    ("tda-2024:47", "Ex 1-A"): Reopen("C", 125, 200, 100),
    ("tda-2024:47", "Ex 1-B"): Reopen("C", 125, 300, 100),
    ("tda-2024:47", "Ex 3-B"): Reopen("A", 4000, 11500, 4000),
}


NUMBER = re.compile(r"\d+")


@functools.cache
def _figures_in(text: str) -> frozenset[int]:
    return frozenset(int(n) for n in NUMBER.findall(str(text).replace(",", "")))


# The part of each rule whose arithmetic the worked examples apply: 43-A and 47-A (the minimum raise
# and short all-ins), 45-B (chips not all needed to call: the 50% standard).
FIGURE_PARTS = {MinRaise: "A", HalfRaise: "B", Reopen: "A"}


def _figure_items(corpus: dict, seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    uses = example_uses(corpus)
    for (rid, example_name), worked in FIGURE_EXAMPLES.items():
        item_id = f"addendum:{rid}:{example_slug(example_name)}:figures"
        rule = rules.get(rid)
        example = next((e for e in (rule or {}).get("illustrations", []) if e.get("example") == example_name), None)
        if rule is None or example is None:
            continue  # a corpus without this example (a test corpus); the content test checks the real one has all
        ruling = str(example.get("ruling", ""))
        missing = [n for n in worked.figures() if n not in _figures_in(ruling)]
        needed_word = worked.check_words() if isinstance(worked, HalfRaise) else ""
        if missing or (needed_word and needed_word not in ruling.lower()):
            out.skipped.append((item_id, f"figures-disagree: computed {missing or needed_word} not in the example's ruling"))
            continue
        part = f"{rid}-{FIGURE_PARTS[type(worked)]}"
        if part not in (rule.get("parts") or []):
            part = example_part(rule, example, uses) or rid
        right, mistakes = worked.choices()
        rng = _rng(seed, item_id)
        distractors = pick_distractors(right, [mistakes], rng)
        if len(distractors) < MIN_DISTRACTORS:
            out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} distinct wrong figure(s)"))
            continue
        choices, answer = _shuffled_choices(right, distractors, rng)
        out.items.append(Item(
            id=item_id, kind="arithmetic", topic="betting", topics=("betting",), sources=(rule["source"],),
            prompt=f"Illustration Addendum, {rule_label(rule)} ({rule['title'].rstrip('.')}).\n{example_facts(rule, example)}\n{worked.prompt()}",
            choices=choices, answer=answer,
            explanation=_join(worked.explain(), f"The addendum: {ruling.strip()}", cite_text((part,), rules)),
            cites=(part,), ref=rid, walk=worked.command() or rule_walk(rid), link=rule_link(rid),
            draws_on=tuple(dict.fromkeys((rid,) + tuple(sid for sid, _c in uses.get((rid, example_name), [])))),
        ))


# ---------------------------------------------------------------- checking

# Choices per kind: (fewest, most). Two for true/false; a select-all lists up to six facts.
CHOICE_COUNTS = {"true-false": (2, 2), "select-all": (3, 6)}
# Kinds whose choices are rulings, compared as rulings (two wordings of one ruling are one answer).
RULING_KINDS = ("scenario", "addendum", "arithmetic")


def validate_items(items: list[Item]) -> list[str]:
    """Problems that would make an item unfair; empty when every item is sound."""
    problems = []
    seen = set()
    for item in items:
        where = item.id
        if item.id in seen:
            problems.append(f"{where}: duplicate item id")
        seen.add(item.id)
        if item.kind not in KINDS:
            problems.append(f"{where}: unknown kind '{item.kind}'")
        if item.topic not in TOPICS or any(t not in TOPICS for t in item.topics) or item.topic not in item.topics:
            problems.append(f"{where}: topic '{item.topic}' / {list(item.topics)} not among {', '.join(TOPICS)}")
        low, high = CHOICE_COUNTS.get(item.kind, (MIN_DISTRACTORS + 1, MAX_DISTRACTORS + 1))
        if not low <= len(item.choices) <= high:
            problems.append(f"{where}: {len(item.choices)} choices (needs {low}-{high})" if low != high
                            else f"{where}: {len(item.choices)} choices (needs {low})")
        if not 0 <= item.answer < len(item.choices) or any(not 0 <= i < len(item.choices) for i in item.answer_set):
            problems.append(f"{where}: answer index {item.answer} out of range")
            continue
        if item.multi:
            if not item.answer_set or item.answer_set != tuple(sorted(set(item.answer_set))) or item.answer != item.answer_set[0]:
                problems.append(f"{where}: a select-all item needs its right choices in order, the first as `answer`")
            elif len(item.answer_set) == len(item.choices):
                problems.append(f"{where}: every choice is right: nothing to tell apart")
        elif item.answer_set:
            problems.append(f"{where}: only a select-all item has several right choices")
        if item.kind == "true-false" and item.choices != (TRUE, FALSE):
            problems.append(f"{where}: a true/false item's choices are exactly True, False")
        if not item.explanation.strip() or not item.cites:
            problems.append(f"{where}: no explanation or no citation")
        if not item.prompt.strip() or any(not c.strip() for c in item.choices):
            problems.append(f"{where}: empty prompt or choice")
        compare = same_ruling if item.kind in RULING_KINDS or item.id.startswith("tda:") else (lambda a, b: a == b)
        right = set(item.right_answers)
        for index, choice in enumerate(item.choices):
            if index not in right and any(compare(choice, item.choices[r]) for r in right):
                problems.append(f"{where}: choice {index + 1} gives the same ruling as the right answer")
        for i in range(len(item.choices)):
            for j in range(i + 1, len(item.choices)):
                if i not in right and j not in right and compare(item.choices[i], item.choices[j]):
                    problems.append(f"{where}: choices {i + 1} and {j + 1} say the same")
    return problems


def validate_citations(items: list[Item], rules: dict) -> list[str]:
    """Every citation resolves, and none names a whole rule that has parts: the part that decides is cited."""
    problems = []
    for item in items:
        for rid in item.cites:
            rule = rules.get(rid)
            if rule is None:
                problems.append(f"{item.id}: cites unknown rule {rid}")
            elif rule.get("parts"):
                problems.append(f"{item.id}: cites the whole of {rid}, which has parts: cite the part that decides")
        if not item.walk:
            problems.append(f"{item.id}: no command shows where its answer comes from")
    return problems


# ---------------------------------------------------------------- presenting, filtering, selecting


def present(item: Item, seed: int) -> Item:
    """The item with its choices in this quiz's order; the same seed, the same order. True/false keeps True
    first, and a select-all keeps the order its explanation numbers its facts in (they were shuffled when made)."""
    if item.kind in ("true-false", "select-all"):
        return item
    order = list(range(len(item.choices)))
    random.Random(f"present:{seed}:{item.id}").shuffle(order)
    where = {old: new for new, old in enumerate(order)}
    return replace(item, choices=tuple(item.choices[i] for i in order), answer=where[item.answer])


def groups_of(item: Item) -> tuple[str, ...]:
    """What an item draws on (its situations or rule): one quiz or exam asks about each once."""
    return item.draws_on or ((item.ref,) if item.ref else (item.id,))


def filter_items(items: list[Item], topic: str | None = None, source: str | None = None) -> list[Item]:
    if topic is not None and topic not in TOPICS:
        raise FloorError(f"unknown topic '{topic}' — topics: {', '.join(TOPICS)}")
    return [i for i in items if (topic is None or topic in i.topics) and (source is None or source in i.sources)]


def _pool(items: list[Item], topic: str | None, source: str | None) -> list[Item]:
    pool = filter_items(items, topic, source)
    if not pool:
        what = " and ".join(x for x in (f"topic '{topic}'" if topic else "", f"source '{source}'" if source else "") if x)
        raise FloorError(f"no quiz items for {what or 'this corpus'} — try another --topic or --source")
    return sorted(pool, key=lambda i: i.id)


def _spread_by_topic(items: list[Item], rng: random.Random) -> list[Item]:
    """A seeded shuffle that takes the topics in turn, so a short quiz covers the ground."""
    groups: dict[str, list[Item]] = {}
    for item in items:
        groups.setdefault(item.topic, []).append(item)
    order = sorted(groups)
    rng.shuffle(order)
    for name in order:
        rng.shuffle(groups[name])
    spread = []
    while any(groups.values()):
        for name in order:
            if groups[name]:
                spread.append(groups[name].pop())
    return spread


def _take(candidates: list[Item], count: int, taken: list[Item], used: set[str]) -> None:
    """Add candidates in order until `count`, skipping one that draws on a situation already asked about
    (its sibling items would give each other away; it waits for the next quiz)."""
    for item in candidates:
        if len(taken) >= count:
            return
        groups = set(groups_of(item))
        if groups & used:
            continue
        taken.append(item)
        used |= groups


def select(items: list[Item], topic: str | None = None, source: str | None = None, count: int = 10, seed: int = 0,
           progress: dict | None = None, now=None, new_per_day: int | None = None) -> list[Item]:
    """`count` items for a quiz, never two from one situation.

    Without progress (no name given): topics in turn, seeded. With a person's FSRS cards (even none
    yet): the items due first, most overdue first; then new items, topics in turn, up to the day's
    pace of new items (`new_per_day`, counted over everything introduced today). Nothing else: an
    item not yet due waits, so a short quiz is what the schedule asks for today."""
    from floorcall.engines import schedule

    if count < 1:
        raise FloorError(f"--count must be at least 1, not {count}")
    pool = _pool(items, topic, source)
    rng = random.Random(f"select:{seed}")
    taken: list[Item] = []
    used: set[str] = set()
    if progress is None:
        _take(_spread_by_topic(pool, rng), count, taken, used)
        return taken
    now = now or schedule.now_utc()
    pace = schedule.DEFAULT_NEW_PER_DAY if new_per_day is None else new_per_day
    due = sorted((i for i in pool if i.id in progress and schedule.is_due(progress[i.id], now)),
                 key=lambda i: (progress[i.id].due, i.id))
    _take(due, count, taken, used)
    allowance = max(0, pace - schedule.introduced_today(progress, now))
    fresh = _spread_by_topic([i for i in pool if i.id not in progress], rng)
    _take(fresh, min(count, len(taken) + allowance), taken, used)
    return taken


def queue(items: list[Item], progress: dict, now, new_per_day: int | None = None,
          topic: str | None = None, source: str | None = None) -> dict:
    """Where a person stands today: items due now, new items left today, and when the next one falls due."""
    from floorcall.engines import schedule

    pool = filter_items(items, topic, source)
    pace = schedule.DEFAULT_NEW_PER_DAY if new_per_day is None else new_per_day
    cards = [progress[i.id] for i in pool if i.id in progress]
    waiting = [c.due for c in cards if not schedule.is_due(c, now)]
    return {
        "due_now": sum(1 for c in cards if schedule.is_due(c, now)),
        "new_today": schedule.introduced_today(progress, now),
        "new_left_today": max(0, pace - schedule.introduced_today(progress, now)),
        "new_per_day": pace,
        "unseen": sum(1 for i in pool if i.id not in progress),
        "next_due": min(waiting) if waiting else None,
    }


# ---------------------------------------------------------------- grading


@dataclass(frozen=True)
class Result:
    item: Item
    chosen: int | tuple[int, ...] | None  # 0-based; a tuple for select-all; None when not answered

    @property
    def correct(self) -> bool:
        return self.item.is_right(self.chosen)

    @property
    def chosen_numbers(self) -> list[int] | None:
        if self.chosen is None:
            return None
        return [self.chosen + 1] if isinstance(self.chosen, int) else [i + 1 for i in sorted(self.chosen)]

    @property
    def chosen_text(self) -> str:
        if self.chosen is None:
            return "(no answer)"
        picked = [self.chosen] if isinstance(self.chosen, int) else sorted(self.chosen)
        return " + ".join(self.item.choices[i] for i in picked) if picked else "(none chosen)"

    def as_json(self) -> dict:
        numbers = self.chosen_numbers
        return {
            "id": self.item.id, "kind": self.item.kind, "topic": self.item.topic, "sources": list(self.item.sources),
            "chosen": (numbers[0] if numbers and not self.item.multi else numbers) if numbers is not None else None,
            "answer": [i + 1 for i in self.item.right_answers] if self.item.multi else self.item.answer + 1,
            "correct": self.correct, "chosen_text": None if self.chosen is None else self.chosen_text,
            "ruling": self.item.right, "explanation": self.item.explanation, "cites": list(self.item.cites),
            "walk": self.item.walk, "link": self.item.link,
        }


@dataclass
class Grade:
    results: list[Result]

    @property
    def score(self) -> int:
        return sum(r.correct for r in self.results)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def percent(self) -> float:
        return round(100 * self.score / self.total, 1) if self.total else 0.0

    def passed(self, pass_mark: float) -> bool:
        # Compared as whole numbers: 27 of 30 is exactly 90 %, not 89.99…
        return self.total > 0 and self.score * 100 >= pass_mark * self.total

    @property
    def missed(self) -> list[Result]:
        return [r for r in self.results if not r.correct]

    def _tally(self, key) -> dict[str, tuple[int, int]]:
        table: dict[str, list[int]] = {}
        for r in self.results:
            row = table.setdefault(key(r.item), [0, 0])
            row[0] += r.correct
            row[1] += 1
        return {k: (v[0], v[1]) for k, v in sorted(table.items())}

    def by_topic(self) -> dict[str, tuple[int, int]]:
        return self._tally(lambda item: item.topic)

    def by_kind(self) -> dict[str, tuple[int, int]]:
        return self._tally(lambda item: item.kind)

    def as_json(self, pass_mark: float | None = None) -> dict:
        data = {"score": self.score, "total": self.total, "percent": self.percent,
                "by_topic": {k: {"right": a, "of": b} for k, (a, b) in self.by_topic().items()},
                "by_kind": {k: {"right": a, "of": b} for k, (a, b) in self.by_kind().items()},
                "results": [r.as_json() for r in self.results]}
        if pass_mark is not None:
            data |= {"pass_mark": pass_mark, "passed": self.passed(pass_mark)}
        return data


def grade(items: list[Item], answers: Sequence) -> Grade:
    """Grade 0-based answers (an index, or a tuple of them for select-all) against items, in order; a missing answer counts as wrong."""
    if len(answers) > len(items):
        raise FloorError(f"{len(answers)} answers for {len(items)} questions")
    padded = list(answers) + [None] * (len(items) - len(answers))
    for number, (item, chosen) in enumerate(zip(items, padded, strict=True), 1):
        picked = [] if chosen is None else [chosen] if isinstance(chosen, int) else list(chosen)
        if any(not 0 <= c < len(item.choices) for c in picked):
            shown_choice = "+".join(str(c + 1) for c in picked)
            raise FloorError(f"answer {number} is {shown_choice}, but question {number} has choices 1-{len(item.choices)}")
        if isinstance(chosen, int) and item.multi:
            padded[number - 1] = (chosen,)
    return Grade([Result(item, chosen) for item, chosen in zip(items, padded, strict=True)])


ANSWER_TEXT = re.compile(r"^\s*([0-9][0-9 ,+]*?)\s*([a-z]?)\s*$")


def read_answer(text: str, item: Item) -> tuple[int | tuple[int, ...], int | None] | None:
    """A typed answer ('2', '2h', for select-all '1 3' / '1+3' / '13') as (0-based choice, rating or None); None when unreadable.

    The optional letter rates the recall: w wrong (a guess), h hard, g good, e easy (schedule.RATING_KEYS)."""
    from floorcall.engines.schedule import RATING_KEYS

    found = ANSWER_TEXT.match(str(text).lower())
    if not found or (found.group(2) and found.group(2) not in RATING_KEYS):
        return None
    rating = RATING_KEYS.get(found.group(2)) if found.group(2) else None
    raw = found.group(1)
    if item.multi:
        parts = re.split(r"[ ,+]+", raw.strip())
        numbers = [int(d) for d in parts[0]] if len(parts) == 1 and len(item.choices) <= 9 else [int(p) for p in parts if p]
        if not numbers or any(not 1 <= n <= len(item.choices) for n in numbers):
            return None
        return tuple(sorted({n - 1 for n in numbers})), rating
    if not raw.strip().isdigit() or not 1 <= int(raw) <= len(item.choices):
        return None
    return int(raw) - 1, rating


def parse_answers(text: str, items: list[Item]) -> list:
    """'2,1+3,3' -> [1, (0, 2), 2]: one answer per question, as shown (1-based), checked against each item.
    Within a select-all answer the numbers are joined by '+'; a rating letter may follow (2h, 1+3e)."""
    return [chosen for chosen, _rating in parse_rated_answers(text, items)]


def parse_rated_answers(text: str, items: list[Item]) -> list[tuple]:
    parts = [p.strip() for p in str(text).replace(" ", ",").split(",") if p.strip()]
    if len(parts) != len(items):
        raise FloorError(f"--answers gives {len(parts)} answer(s) for {len(items)} question(s) — give one number per question, e.g. 2,1,3")
    answers = []
    for number, (part, item) in enumerate(zip(parts, items, strict=True), 1):
        read = read_answer(part.replace(" ", ""), item) if (item.multi or "+" not in part) else None
        if read is None:
            shape = "numbers joined by +, e.g. 1+3" if item.multi else f"choices 1-{len(item.choices)}"
            raise FloorError(f"--answers: answer {number} is '{part}', but question {number} has {shape}"
                             + (f" (of 1-{len(item.choices)})" if item.multi else ""))
        answers.append(read)
    return answers


# ---------------------------------------------------------------- progress and the site


def progress_table(items: list[Item], cards: dict, now) -> dict[str, list[dict]]:
    """Per topic and per source: items, seen, retention now (FSRS's mean predicted recall of the items
    seen, in percent), due today and due within the week, answers and right answers."""
    from floorcall.engines import schedule

    today, week = schedule.day_end(now), schedule.day_end(now, schedule.WEEK_DAYS)

    def rows(key_of) -> list[dict]:
        table: dict[str, dict] = {}
        recall: dict[str, list[float]] = {}
        for item in items:
            for key in key_of(item):
                row = table.setdefault(key, {"name": key, "items": 0, "seen": 0, "retention": None, "due_today": 0,
                                             "due_week": 0, "answers": 0, "right": 0})
                row["items"] += 1
                card = cards.get(item.id)
                if card is None:
                    continue
                row["seen"] += 1
                recall.setdefault(key, []).append(schedule.retrievability(card, now))
                row["due_today"] += card.due <= today
                row["due_week"] += card.due <= week
                row["answers"] += card.seen
                row["right"] += card.right
        for key, values in recall.items():
            table[key]["retention"] = round(100 * sum(values) / len(values), 1)
        order = {t: n for n, t in enumerate(TOPICS)}
        return sorted(table.values(), key=lambda r: (order.get(r["name"], len(order)), r["name"]))

    return {"topics": rows(lambda i: (i.topic,)), "sources": rows(lambda i: i.sources)}


def counts(items: list[Item]) -> dict[str, dict]:
    """How many items per topic (primary), per source (an item counts once for each source it cites), per kind, and per kind and topic."""
    by_kind_topic: dict[str, dict[str, int]] = {}
    for item in items:
        row = by_kind_topic.setdefault(item.kind, {})
        row[item.topic] = row.get(item.topic, 0) + 1
    return {
        "topics": dict(sorted(Counter(i.topic for i in items).items())),
        "sources": dict(sorted(Counter(s for i in items for s in i.sources).items())),
        "kinds": dict(sorted(Counter(i.kind for i in items).items())),
        "kinds_by_topic": {k: dict(sorted(v.items())) for k, v in sorted(by_kind_topic.items())},
    }


def export_for_site(corpus: dict, seed: int = 0, items: list[Item] | None = None) -> list[dict]:
    """Every item as JSON for the site's quiz page, with each citation's label and title."""
    rules = corpus["rules"]
    exported = []
    for item in items if items is not None else generate_items(corpus, seed):
        data = item.as_json()
        data["cite_labels"] = [
            {"id": rid, "label": rule_label(rules[rid]), "title": rules[rid]["title"]} if rid in rules else {"id": rid, "label": rid, "title": ""}
            for rid in item.cites
        ]
        exported.append(data)
    return exported
