"""The walk engine: from a situation and the answers given so far to the next question or the ruling.

Pure: data in, data out. The CLI and the site drive it; nothing here prints or prompts.
"""

from __future__ import annotations

from floorcall.core.errors import EXIT_NOT_FOUND, FloorError, shown

HOUSE_MODES = ("dttf", "none")  # dttf: the league's house rules govern; none: pure TDA 2024

# Plain classes, not dataclasses: importing dataclasses costs a table command ~10 ms at start.


class Step:
    """One answered question on the path."""

    __slots__ = ("question", "ask", "answer", "label")

    def __init__(self, question: str, ask: str, answer: str, label: str):
        self.question, self.ask, self.answer, self.label = question, ask, answer, label

    def __eq__(self, other):
        return isinstance(other, Step) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self):
        return f"Step({self.question!r}, {self.answer!r})"


class Ruling:
    """The outcome as shown under a house mode."""

    def __init__(self, situation: str, title: str, outcome: str, ruling: str, why: str, cites: list[str],
                 house_note: str, other_position: dict | None, note_2019: str, calc: str,
                 path: list[Step] | None = None, house: str = "dttf", sourcing: str = "",
                 house_adds: bool = False, siblings: list[str] | None = None):
        self.situation, self.title, self.outcome = situation, title, outcome
        self.ruling, self.why, self.cites = ruling, why, cites
        self.house_note = house_note
        self.other_position = other_position  # the position not applied: TDA 2024 under the house (None under `none`)
        self.note_2019, self.calc = note_2019, calc
        self.path: list[Step] = list(path or [])
        self.house = house
        self.sourcing = sourcing  # remarks on where a fact comes from: shown only with --full, never read out
        self.house_adds = house_adds  # the house rule adds to TDA or fills a gap it leaves (no recorded conflict)
        self.siblings: list[str] = list(siblings or [])  # neighbouring situations: "not this? see …"

    def __repr__(self):
        return f"Ruling({self.situation!r}, {self.outcome!r}, house={self.house!r})"

    def as_json(self) -> dict:
        return {
            "situation": self.situation,
            "title": self.title,
            "outcome": self.outcome,
            "house": self.house,
            "ruling": self.ruling,
            "why": self.why,
            "cites": self.cites,
            "house_note": self.house_note,
            "other_position": self.other_position,
            "note_2019": self.note_2019,
            "calc": self.calc,
            "sourcing": self.sourcing,
            "in_force": "DTTF house rules over TDA 2024" if self.house == "dttf" else "TDA 2024",
            "siblings": self.siblings,
            "path": [{"question": s.question, "answer": s.answer} for s in self.path],
        }


class Pending:
    """The walk stops at a question that has not been answered yet."""

    def __init__(self, situation: str, question: str, ask: str, help: str, answers: list[tuple[str, str]],
                 path: list[Step] | None = None):
        self.situation, self.question, self.ask, self.help = situation, question, ask, help
        self.answers = answers  # (answer id, label) in order
        self.path: list[Step] = list(path or [])

    def __repr__(self):
        return f"Pending({self.situation!r}, {self.question!r})"

    def as_json(self) -> dict:
        return {
            "situation": self.situation,
            "question": self.question,
            "ask": self.ask,
            "help": self.help,
            "answers": [{"id": aid, "label": label} for aid, label in self.answers],
            "path": [{"question": s.question, "answer": s.answer} for s in self.path],
        }


def get_situation(corpus: dict, situation_id: str) -> dict:
    situation = corpus["situations"].get(situation_id)
    if situation is None:
        from floorcall.core.problems import did_you_mean

        hint = did_you_mean(situation_id, corpus["situations"])
        raise FloorError(f"no situation '{shown(situation_id)}'" + (f" — {hint}" if hint else " — try `floor lookup WORDS` or `floor situations`"),
                         EXIT_NOT_FOUND)
    return situation


def rule_for_house(situation: dict, outcome_id: str, house: str = "dttf", path: list[Step] | None = None) -> Ruling:
    """The outcome's ruling under a house mode (`dttf` applies the house rules, `none` pure TDA 2024)."""
    if house not in HOUSE_MODES:
        raise FloorError(f"unknown house mode '{house}' — use one of: {', '.join(HOUSE_MODES)}")
    outcome = situation["outcomes"][outcome_id]
    tda = outcome.get("tda")
    house_ruling = {"ruling": outcome["ruling"], "why": outcome.get("why", ""), "cite": list(outcome.get("cite", [])),
                    "calc": outcome.get("calc", ""), "sourcing": outcome.get("sourcing", "")}
    house_note = outcome.get("house", "")
    if house == "dttf":
        applied = house_ruling
        other = {"label": "TDA 2024", **tda} if tda else None
    else:
        # Pure TDA 2024: the tda position where there is one, else the outcome (which `floor check`
        # keeps free of house talk); never a DTTF citation, a house note or the house's position.
        applied = house_ruling if tda is None else {
            "ruling": tda["ruling"], "why": tda.get("why", ""), "cite": list(tda["cite"]),
            "calc": tda.get("calc", ""), "sourcing": tda.get("sourcing", "")}
        applied = dict(applied, cite=[c for c in applied["cite"] if not c.startswith("dttf:")])
        other, house_note = None, ""
    return Ruling(
        situation=situation["id"], title=situation["title"], outcome=outcome_id,
        ruling=applied["ruling"], why=applied["why"], cites=applied["cite"],
        house_note=house_note, other_position=other,
        note_2019=outcome.get("note_2019", ""), calc=applied.get("calc", ""),
        path=list(path or []), house=house, sourcing=applied.get("sourcing", ""),
        siblings=list(situation.get("siblings") or []),
        # A TDA position that no recorded DTTF-vs-TDA conflict backs is one the house rule adds to; one
        # that a conflict backs is a real difference (`tda_conflict`, marked when the corpus is compiled,
        # as floor check FC227 reads it).
        house_adds=tda is not None and not outcome.get("tda_conflict", False),
    )


def house_line(ruling) -> str:
    """One line on house vs TDA, or '' (pure TDA 2024 never speaks of the house)."""
    if ruling.house != "dttf":
        return ""
    if ruling.other_position:
        other = ruling.other_position["ruling"]
        if ruling.house_adds:
            # No recorded conflict: the house rule fills a gap TDA leaves or adds to a TDA rule that leaves
            # the point to the house (26's "as prescribed by the house"); either way TDA is not silent on
            # the topic as a whole, only without a position that contradicts the house.
            return f"House vs TDA: the house rule adds to TDA 2024 here; under TDA 2024 alone: {other}"
        return f"House vs TDA: the house rule governs here; TDA 2024 would rule: {other}"
    return f"House vs TDA: {ruling.house_note}" if ruling.house_note else ""


def advance(situation: dict, answers: dict[str, str], house: str = "dttf") -> Ruling | Pending:
    """Follow `answers` (question id -> answer id) from the start; answers off the path are ignored."""
    questions = situation.get("questions") or {}
    for qid in answers:
        if qid not in questions:
            from floorcall.core.problems import did_you_mean

            hint = did_you_mean(qid, questions) or ("questions: " + ", ".join(questions) if questions else "it asks no questions")
            raise FloorError(f"situation '{situation['id']}' has no question '{shown(qid)}' — {hint}")
    node = situation["start"]
    path: list[Step] = []
    seen = set()
    while node in questions:
        if node in seen:
            raise FloorError(f"situation '{situation['id']}' loops at question '{node}' — run `floor check`")
        seen.add(node)
        question = questions[node]
        options = question["answers"]
        if node not in answers:
            return Pending(situation["id"], node, question["ask"], question.get("help", ""),
                           [(aid, a["label"]) for aid, a in options.items()], path)
        aid = answers[node]
        if aid not in options:
            raise FloorError(f"'{shown(aid)}' is not an answer to '{node}' — answers: {', '.join(options)}")
        path.append(Step(node, question["ask"], aid, options[aid]["label"]))
        node = options[aid]["next"]
    if node not in situation["outcomes"]:
        raise FloorError(f"situation '{situation['id']}' leads to unknown node '{node}' — run `floor check`")
    return rule_for_house(situation, node, house, path)


class WalkSession:
    """An interactive walk: answer, go back, restart. Holds only the answers taken, in order."""

    def __init__(self, situation: dict, house: str = "dttf"):
        self.situation = situation
        self.house = house
        self.taken: list[tuple[str, str]] = []

    def state(self) -> Ruling | Pending:
        return advance(self.situation, dict(self.taken), self.house)

    def answer(self, answer_id: str) -> Ruling | Pending:
        current = self.state()
        if not isinstance(current, Pending):
            raise FloorError("the walk has already reached a ruling")
        self.taken.append((current.question, answer_id))
        try:
            return self.state()
        except FloorError:
            self.taken.pop()
            raise

    def back(self) -> Ruling | Pending:
        if self.taken:
            self.taken.pop()
        return self.state()

    def restart(self) -> Ruling | Pending:
        self.taken.clear()
        return self.state()


def parse_answer_options(pairs: list[str]) -> dict[str, str]:
    """`--answer QID=AID` options into a dict; a malformed pair is an error naming it."""
    answers = {}
    for pair in pairs:
        qid, sep, aid = pair.partition("=")
        if not sep or not qid.strip() or not aid.strip():
            raise FloorError(f"--answer '{pair}' is not QUESTION=ANSWER, e.g. --answer declared=silent")
        answers[qid.strip()] = aid.strip()
    return answers
