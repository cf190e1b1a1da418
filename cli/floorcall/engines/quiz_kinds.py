"""The item kinds an exam uses besides "what is the ruling": true/false, select-all-that-apply,
"which rule part decides this?", "what does the house rule change here?" and the arithmetic of the
trees' `calc` lines.

Pure, like the rest of the quiz engine, and held to the same law: every right answer comes from the
walk engine (a scenario walked with `walk.advance`, both house modes) or from the calculators
(`engines.calc`), never from text matching alone; a wrong answer is only ever something the facts
exclude (another outcome of the same dispute, reached by different facts; a rule no outcome of the
tree cites; a figure the calculator does not give). Every item cites the part that decides first,
explains itself in our words (the trees' `why`, the rulebook's summaries) and names the command
that shows where its answer comes from.

Item ids:
- `tf:<situation>:<outcome>`: true or false, the ruling claimed under the part that decides.
- `part:<situation>:<outcome>`: which rule part decides this ruling?
- `change:<situation>:<outcome>[:<n>]`: what does the house rule change here? (where the tree says it differs)
- `select:<situation>:<outcome>`: which of these facts lead to this ruling? (one tree, one dispute)
- `select:<class>:<n>`: which of these are misdeals / dead hands / only a call, under TDA 2024? (across trees)
- `calc:<command>`: the figure a tree's `floor calc` line works out (minimum raise, penalty length, pot limit).
"""

from __future__ import annotations

import random
import re
import shlex
from dataclasses import dataclass

from floorcall.core.errors import FloorError
from floorcall.engines import calc
from floorcall.engines.quiz import (
    FALSE,
    GOVERNING_SOURCES,
    MAX_DISTRACTORS,
    MIN_DISTRACTORS,
    TRUE,
    Generated,
    Item,
    LabelTier,
    Walked,
    _join,
    _pick_distinct_labels,
    _rng,
    _same_branch,
    _sentence,
    _shuffled_choices,
    cite_text,
    normalised,
    rule_choice,
    rule_link,
    same_ruling,
    sources_of,
    tree_topic,
    walk_command,
    walk_link,
)

# A select-all item shows this many facts: enough to need care, few enough to read at the table.
SELECT_CHOICES = 5
# Rules that bear on every dispute (the floor's discretion, fairness): never a wrong answer to "which decides".
UNIVERSAL_RULES = frozenset({"tda-2024:1"})
# A true/false item claims a wrong ruling about half the time, so "True" is no safe guess.
FALSE_CLAIM_SHARE = 0.5


def add_items(corpus: dict, walked: list[Walked], topics_of_rules: dict, seed: int, out: Generated) -> None:
    firsts = _first_per_outcome(walked)
    _true_false_items(corpus, firsts, walked, seed, out)
    _which_part_items(corpus, firsts, topics_of_rules, seed, out)
    _change_items(corpus, walked, seed, out)
    _select_in_tree_items(corpus, walked, out)
    _select_by_class_items(corpus, walked, seed, out)
    _calc_items(corpus, seed, out)


def _first_per_outcome(walked: list[Walked]) -> list[Walked]:
    """One scenario per outcome: the first that tells its own facts, else the first."""
    chosen: dict[tuple[str, str], Walked] = {}
    for scene in walked:
        key = (scene.sid, scene.outcome)
        if key not in chosen or (scene.told and not chosen[key].told):
            chosen[key] = scene
    return [chosen[k] for k in sorted(chosen)]


def _governing_primary(cites, rules: dict) -> str | None:
    """The part that decides: the first citation, when it is a house rule or TDA 2024 (not a superseded or reference source)."""
    if not cites:
        return None
    rule = rules.get(cites[0])
    return cites[0] if rule is not None and rule["source"] in GOVERNING_SOURCES else None


def _wrong_rulings(scene: Walked, house: str) -> list[str]:
    """Rulings of the same dispute's other outcomes (reached by other facts), never the same ruling as this one."""
    from floorcall.engines.walk import rule_for_house

    situation, oid = scene.situation, scene.outcome
    right = scene.ruling(house).ruling
    branch = _same_branch(situation, oid)
    found: list[str] = []
    for other in situation.get("outcomes", {}):
        if other == oid or other not in branch:
            continue
        text = rule_for_house(situation, other, house).ruling
        if not same_ruling(text, right) and not any(same_ruling(text, f) for f in found):
            found.append(text)
    return found


def _scene_prompt(scene: Walked) -> str:
    return f"{_sentence(scene.situation['title'])}\n{scene.facts}"


# ---------------------------------------------------------------- true / false


def _true_false_items(corpus: dict, firsts: list[Walked], walked: list[Walked], seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    for scene in firsts:
        item_id = f"tf:{scene.sid}:{scene.outcome}"
        ruling = scene.landed
        primary = _governing_primary(ruling.cites, rules)
        if primary is None:
            out.skipped.append((item_id, "no-governing-part: the ruling rests first on a rule that does not govern"))
            continue
        # The claim belongs to the item, whatever the run's seed: progress is kept per item id.
        rng = random.Random(f"claim:{item_id}")
        wrong = _wrong_rulings(scene, "dttf")
        claim_false = bool(wrong) and rng.random() < FALSE_CLAIM_SHARE
        claimed = rng.choice(wrong) if claim_false else ruling.ruling
        label = rule_choice(rules[primary])
        where = "under the house rules" if rules[primary]["source"] == "dttf" else "under TDA 2024"
        verdict = (f"False. The ruling is: {ruling.ruling}" if claim_false else "True.")
        out.items.append(Item(
            id=item_id, kind="true-false", topic=scene.topic, topics=scene.topics,
            sources=sources_of(ruling.cites, rules),
            prompt=f"{_scene_prompt(scene)}\nTrue or false? {label} decides it, and {where} the ruling is: {claimed}",
            choices=(TRUE, FALSE), answer=1 if claim_false else 0,
            explanation=_join(verdict, ruling.why, cite_text(ruling.cites, rules)),
            cites=tuple(ruling.cites), ref=scene.sid,
            walk=walk_command(scene.sid, ruling.path), link=walk_link(scene.sid, ruling.path), draws_on=(scene.sid,),
        ))


# ---------------------------------------------------------------- which rule part decides this?


def _tree_cites(situation: dict) -> set[str]:
    cited = set()
    for outcome in situation.get("outcomes", {}).values():
        cited |= set(outcome.get("cite") or []) | set((outcome.get("tda") or {}).get("cite") or [])
    return cited


def _which_part_items(corpus: dict, firsts: list[Walked], topics_of_rules: dict, seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    for scene in firsts:
        item_id = f"part:{scene.sid}:{scene.outcome}"
        ruling = scene.landed
        primary = _governing_primary(ruling.cites, rules)
        if primary is None:
            out.skipped.append((item_id, "no-governing-part: the ruling rests first on a rule that does not govern"))
            continue
        rule = rules[primary]
        # Anything the tree cites anywhere could be argued to decide some of it: never a wrong answer.
        cited = _tree_cites(scene.situation)
        excluded = (cited | {(rules.get(c) or {}).get("parent") for c in cited} | UNIVERSAL_RULES
                    | {r["to"] for r in rule.get("related", [])}) - {None}
        peers = [r for r in rules.values() if r["source"] == rule["source"] and r["id"] not in excluded and not r.get("parts")]
        siblings = [r for r in peers if rule.get("parent") and r.get("parent") == rule.get("parent")]
        tiers: list[LabelTier] = [
            [rule_choice(r) for r in siblings],
            [rule_choice(r) for r in peers if r.get("section") == rule.get("section")],
            [rule_choice(r) for r in peers if topics_of_rules.get(r["id"]) == topics_of_rules.get(primary)],
            lambda peers=peers: [rule_choice(r) for r in peers],
        ]
        right = rule_choice(rule)
        distractors = _pick_distinct_labels(right, tiers, _rng(seed, item_id))
        if len(distractors) < MIN_DISTRACTORS:
            out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} rule(s) the tree does not cite"))
            continue
        choices, answer = _shuffled_choices(right, distractors, _rng(seed, item_id))
        question = ("Which house rule (DTTF) decides this at the league?" if rule["source"] == "dttf"
                    else "Which TDA 2024 rule part decides this?" if rule.get("parent") else "Which TDA 2024 rule decides this?")
        out.items.append(Item(
            id=item_id, kind="which-part", topic=scene.topic, topics=scene.topics, sources=(rule["source"],),
            prompt=f"{_scene_prompt(scene)}\nThe ruling: {ruling.ruling}\n{question}",
            choices=choices, answer=answer,
            explanation=_join(f"{right} [{primary}] decides it.", str(rule.get("summary", "")).strip(), ruling.why,
                              cite_text(ruling.cites, rules)),
            cites=tuple(ruling.cites), ref=scene.sid,
            walk=walk_command(scene.sid, ruling.path), link=walk_link(scene.sid, ruling.path), draws_on=(scene.sid,),
        ))


# ---------------------------------------------------------------- what does the house rule change here?


def house_change_choices(house: str, tda: str) -> tuple[str, list[str]]:
    """The right reading (the house rules one way, TDA 2024 the other) and the three that get it wrong."""
    right = f"The house rules (DTTF): {house} — where pure TDA 2024 would rule: {tda}"
    return right, [
        f"The house rules (DTTF): {tda} — where pure TDA 2024 would rule: {house}",
        f"Nothing: the house and TDA 2024 both rule: {house}",
        f"Nothing: the house and TDA 2024 both rule: {tda}",
    ]


def _change_items(corpus: dict, walked: list[Walked], seed: int, out: Generated) -> None:
    rules = corpus["rules"]
    for scene in walked:
        if not scene.differs:
            continue
        item_id = f"change:{scene.sid}:{scene.key}"
        house, tda = scene.landed, scene.tda
        right, wrong = house_change_choices(house.ruling, tda.ruling)
        choices, answer = _shuffled_choices(right, wrong, _rng(seed, item_id))
        cites = tuple(dict.fromkeys(list(house.cites) + list(tda.cites)))
        note = str(scene.situation["outcomes"][scene.outcome].get("house", "")).strip()
        out.items.append(Item(
            id=item_id, kind="house", topic="house", topics=tuple(dict.fromkeys(("house",) + scene.topics)),
            sources=sources_of(cites, rules),
            prompt=f"{_scene_prompt(scene)}\nWhat does the house rule change here?",
            choices=choices, answer=answer,
            explanation=_join(note, f"At the league: {house.ruling}", f"Pure TDA 2024: {tda.ruling}", tda.why,
                              cite_text(cites, rules)),
            cites=cites, ref=scene.sid,
            walk=walk_command(scene.sid, house.path), link=walk_link(scene.sid, house.path), draws_on=(scene.sid,),
        ))


# ---------------------------------------------------------------- select all that apply


def _select_explanation(entries: list[tuple[str, bool, Walked]], rules: dict, house: str, yes_word: str) -> str:
    lines = []
    for number, (_text, right, scene) in enumerate(entries, 1):
        ruling = scene.ruling(house)
        decided = rule_choice(rules[ruling.cites[0]]) if ruling.cites and ruling.cites[0] in rules else ""
        lines.append(f"{number}) {'Yes' if right else 'No'}{' — ' + yes_word if right and yes_word else ''}: {ruling.ruling}"
                     + (f" ({decided})" if decided else ""))
    return "\n".join(lines)


def _select_item(item_id: str, topic: str, topics: tuple[str, ...], prompt: str, entries: list[tuple[str, bool, Walked]],
                 rules: dict, house: str, yes_word: str, seed: int) -> Item:
    rng = _rng(seed, item_id)
    order = list(range(len(entries)))
    rng.shuffle(order)
    entries = [entries[i] for i in order]
    cites = tuple(dict.fromkeys(c for _t, _r, scene in entries for c in scene.ruling(house).cites[:1]))
    right = tuple(n for n, (_t, is_right, _s) in enumerate(entries) if is_right)
    first = next(scene for _t, is_right, scene in entries if is_right)
    commands = [walk_command(scene.sid, scene.ruling(house).path, house) for _t, _r, scene in entries]
    return Item(
        id=item_id, kind="select-all", topic=topic, topics=topics,
        sources=sources_of(cites, rules), prompt=prompt, choices=tuple(t for t, _r, _s in entries),
        answer=right[0], answer_set=right,
        explanation=_join(_select_explanation(entries, rules, house, yes_word), cite_text(cites, rules)),
        cites=cites, ref=first.sid, walk="\n".join(commands),  # one walk per choice, in the choices' order
        link=walk_link(first.sid, first.ruling(house).path, house),
        draws_on=tuple(dict.fromkeys(scene.sid for _t, _r, scene in entries)),
    )


def _select_in_tree_items(corpus: dict, walked: list[Walked], out: Generated) -> None:
    """One tree, one dispute: which of these facts lead to this ruling (under the house rules)?

    One item per dispute (the tree, or each first answer of a `dispute_kinds` tree): the ruling
    that splits its told scenarios most evenly, so the list is worth reading."""
    rules = corpus["rules"]
    by_tree: dict[str, list[Walked]] = {}
    for scene in walked:
        if scene.told:
            by_tree.setdefault(scene.sid, []).append(scene)
    for sid, scenes in sorted(by_tree.items()):
        situation = scenes[0].situation
        best: dict[frozenset, tuple] = {}
        for oid in dict.fromkeys(s.outcome for s in scenes):
            target = next(s for s in scenes if s.outcome == oid)
            branch = frozenset(_same_branch(situation, oid))
            pool = [s for s in scenes if s.outcome in branch][:SELECT_CHOICES + 1]
            facts = [s.facts for s in pool]
            if len(pool) < 3 or len(set(facts)) != len(facts):
                continue  # too few to choose from, or two scenarios tell the same facts
            right = [same_ruling(s.landed.ruling, target.landed.ruling) for s in pool]
            if all(right) or not any(right):
                continue
            balance = abs(sum(right) - len(right) / 2)
            if branch not in best or balance < best[branch][0]:
                best[branch] = (balance, oid, target, pool, right)
        for _balance, oid, target, pool, right in (best[b] for b in sorted(best, key=sorted)):
            entries = [(s.facts, r, s) for s, r in zip(pool, right, strict=True)]
            out.items.append(_select_item(
                f"select:{sid}:{oid}", target.topic, target.topics,
                f"{_sentence(situation['title'])}\nIn which of these does the floor rule: {target.landed.ruling}\n"
                "(Select every one that applies.)",
                entries, rules, "dttf", "", 0,
            ))


@dataclass(frozen=True)
class VerdictClass:
    """A kind of ruling a rule part decides, read from the ruling's opening words under pure TDA 2024."""

    name: str
    topic: str
    question: str
    yes: re.Pattern
    no: re.Pattern
    yes_word: str


VERDICT_CLASSES = (
    VerdictClass("misdeal", "dealing", "Under TDA 2024, which of these are misdeals?",
                 re.compile(r"^misdeal\b"), re.compile(r"^(?:no|not a) misdeal\b"), "a misdeal"),
    VerdictClass("dead-hand", "showdown", "Under TDA 2024, in which of these is the player's hand dead?",
                 re.compile(r"^(?:the|his|her|their) hand is dead\b"), re.compile(r"^(?:the|his|her|their) hand (?:is|stays) live\b"),
                 "the hand is dead"),
    VerdictClass("only-a-call", "betting", "Under TDA 2024, which of these are only a call?",
                 re.compile(r"^it is (?:only )?a call\b"), re.compile(r"^it is a (?:full |complete )?raise\b"), "only a call"),
)


def _select_by_class_items(corpus: dict, walked: list[Walked], seed: int, out: Generated) -> None:
    """Across trees: which of these are misdeals (dead hands, only calls) under pure TDA 2024?"""
    rules = corpus["rules"]
    for kind in VERDICT_CLASSES:
        yes, no = [], []
        for scene in _first_per_outcome([s for s in walked if s.told]):
            text = normalised(scene.tda.ruling)
            entry = (f"{scene.situation['title'].rstrip('.')}: {scene.facts}", scene)
            if kind.yes.search(text):
                yes.append(entry)
            elif kind.no.search(text):
                no.append(entry)
        rng = random.Random(f"select-class:{kind.name}")  # the grouping is the content's, whatever the run's seed
        rng.shuffle(yes)
        rng.shuffle(no)
        number = 0
        while yes and no:
            take_yes = min(len(yes), rng.choice((1, 2, 2, 3)))
            take_no = min(len(no), SELECT_CHOICES - take_yes)
            group = [(t, True, s) for t, s in yes[:take_yes]] + [(t, False, s) for t, s in no[:take_no]]
            del yes[:take_yes], no[:take_no]
            if len(group) < 3:
                break
            number += 1
            out.items.append(_select_item(
                f"select:{kind.name}:{number}", kind.topic, (kind.topic,), f"{kind.question} (Select every one that applies.)",
                group, rules, "none", kind.yes_word, seed,
            ))


# ---------------------------------------------------------------- the arithmetic of the trees' calc lines


@dataclass(frozen=True)
class Worked:
    prompt: str
    right: str
    wrong: list[str]
    explanation: str
    rule: str  # the rule the calculator applies (a whole rule: its part is taken from the trees)


def _options(words: list[str]) -> dict[str, str | bool]:
    found: dict[str, str | bool] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--"):
            if i + 1 < len(words) and not words[i + 1].startswith("--"):
                found[word] = words[i + 1]
                i += 2
                continue
            found[word] = True
        i += 1
    return found


def _figures(right: int, candidates: list[int]) -> tuple[str, list[str]]:
    wrong = [f"{n:,}" for n in dict.fromkeys(c for c in candidates if c > 0 and c != right)]
    return f"{right:,}", wrong


def work_out(command: str) -> Worked | None:
    """The question a `floor calc` line answers, worked by the calculator; None for the kinds not asked."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words[:2] != ["floor", "calc"] or len(words) < 3:
        return None
    what, options = words[2], _options(words[3:])
    try:
        if what == "raise" and set(options) <= {"--blinds", "--actions", "--preflop"}:
            blinds = calc.parse_blinds(str(options["--blinds"]))
            preflop = options.get("--preflop") is True
            result = calc.raise_state(blinds, calc.parse_actions(str(options["--actions"])), preflop)
            right, wrong = _figures(result.min_raise_to, [
                2 * result.current_bet, result.current_bet + blinds.big, result.current_bet + 2 * result.min_raise,
                result.current_bet + result.min_raise // 2, result.min_raise, result.current_bet + result.min_raise + blinds.big])
            return Worked(
                f"No-limit, blinds {blinds.small:,}/{blinds.big:,}{', pre-flop' if preflop else ''}. The betting so far: "
                f"{options['--actions']}. What is the smallest total the next player may raise to?",
                right, wrong, result.explanation, calc.R_RAISE_AMOUNTS)
        if what == "penalty" and set(options) <= {"--players", "--rounds"}:
            players, rounds = int(str(options["--players"])), int(str(options.get("--rounds", "1")))
            penalty = calc.missed_hand_penalty(players, rounds)
            right, wrong = _figures(penalty.hands, [(players - 1) * rounds, players * (rounds + 1), players + rounds,
                                                   (players + 1) * rounds, 10 * rounds])
            return Worked(
                f"A missed-round penalty of {rounds} round{'s' if rounds != 1 else ''} is given at a table of {players} players "
                "(the offender included). How many hands does the offender sit out?",
                right, wrong, penalty.explanation, calc.R_PENALTIES)
        if what == "pot" and set(options) <= {"--pot", "--call"}:
            pot, call = int(str(options["--pot"])), int(str(options.get("--call", "0")))
            limit = calc.pot_limit(pot, call)
            right, wrong = _figures(limit.max_total, [pot + call, 2 * pot, pot + 2 * call + pot // 2, pot + call // 2, pot * 3 // 2])
            ask = (f"Pot-limit. The pot holds {pot:,} (everything in the middle and in front of the players) and no one has bet. "
                   "What is the largest bet the next player may make?") if call == 0 else (
                   f"Pot-limit. The pot holds {pot:,} (everything in the middle and in front of the players, the bet included) and "
                   f"the next player must call {call:,}. To what total may the player raise at most?")
            return Worked(ask, right, wrong, limit.explanation, calc.R_POT_LIMIT)
    except (FloorError, KeyError, ValueError):
        return None
    return None


def calc_slug(command: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", command.lower().removeprefix("floor calc ")))


def _calc_items(corpus: dict, seed: int, out: Generated) -> None:
    rules, situations = corpus["rules"], corpus["situations"]
    used: dict[str, list[tuple[str, str, dict]]] = {}
    for sid in sorted(situations):
        for oid, outcome in situations[sid].get("outcomes", {}).items():
            for position in (outcome, outcome.get("tda") or {}):
                if position.get("calc"):
                    used.setdefault(" ".join(str(position["calc"]).split()), []).append((sid, oid, position))
    for command, places in sorted(used.items()):
        worked = work_out(command)
        item_id = f"calc:{calc_slug(command)}"
        if worked is None:
            continue  # a calculator this item kind does not ask about (chips, h4h, balance, miscounts)
        cited = [c for _sid, _oid, position in places for c in position.get("cite") or []]
        parts = [c for c in cited if (rules.get(c) or {}).get("parent") == worked.rule]
        part = parts[0] if parts else (worked.rule if not (rules.get(worked.rule) or {}).get("parts") else None)
        if part is None or part not in rules:
            out.skipped.append((item_id, f"no-deciding-part: no tree using it cites a part of {worked.rule}"))
            continue
        distractors = worked.wrong[:MAX_DISTRACTORS]
        if len(distractors) < MIN_DISTRACTORS:
            out.skipped.append((item_id, f"too-few-distractors: only {len(distractors)} distinct wrong figure(s)"))
            continue
        choices, answer = _shuffled_choices(worked.right, distractors, _rng(seed, item_id))
        first_sid = places[0][0]
        topic = tree_topic(situations[first_sid], rules)
        out.items.append(Item(
            id=item_id, kind="arithmetic", topic=topic, topics=(topic,), sources=(rules[part]["source"],),
            prompt=worked.prompt, choices=choices, answer=answer,
            explanation=_join(worked.explanation, cite_text((part,), rules)),
            cites=(part,), ref=first_sid, walk=command, link=rule_link(part),
            draws_on=tuple(dict.fromkeys(sid for sid, _o, _p in places)),
        ))
