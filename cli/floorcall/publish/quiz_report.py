"""The printable HTML exam report for the training coordinator.

Rendered from site/templates/quiz-report.html.j2 with autoescape and StrictUndefined; one
self-contained file (inline CSS, no scripts, no external requests) that prints cleanly on A4 or
Letter. jinja2 is imported only here, so `floor quiz` without --report never pays for it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from floorcall.core.errors import FloorError
from floorcall.publish.report_file import replace_ours

TEMPLATE = "quiz-report.html.j2"
# Written into every report; an existing file is replaced only when it carries this mark, so
# --report can never overwrite a document the coordinator saved under the same name.
GENERATOR_MARK = '<meta name="generator" content="Floorcall quiz report">'


def report_context(graded, rules: dict, *, seed: int, pass_mark: float, name: str | None, taken: str,
                   minutes: float | None = None, used_seconds: int | None = None) -> dict:
    """Everything the template shows, as plain data."""
    from floorcall.core.labels import full_text_label, rule_label
    from floorcall.engines.editions import full_text_for
    from floorcall.engines.exam import countdown
    from floorcall.engines.quiz import KIND_NAMES

    def cite_rows(cites):
        rows = []
        for rid in cites:
            rule = rules.get(rid)
            full = full_text_for(rule)  # the director's own imported copy, if any
            rows.append({"id": rid, "label": rule_label(rule) if rule else rid, "title": rule["title"] if rule else "",
                         "summary": (rule or {}).get("summary", ""),
                         "words": full["text"] if full else "", "words_from": full_text_label(full) if full else ""})
        return rows

    missed = []
    for number, result in enumerate(graded.results, 1):
        if result.correct:
            continue
        item = result.item
        missed.append({
            "number": number, "id": item.id, "topic": item.topic, "kind": KIND_NAMES.get(item.kind, item.kind),
            "prompt": item.prompt, "given": result.chosen_text, "ruling": item.right, "multi": item.multi,
            "explanation": item.explanation, "cites": cite_rows(item.cites), "walk": item.walk.split("\n"),
        })
    return {
        "name": name or "(no name given)",
        "taken": taken,
        "seed": seed,
        "score": graded.score,
        "total": graded.total,
        "percent": f"{graded.percent:g}",
        "pass_mark": f"{pass_mark:g}",
        "passed": graded.passed(pass_mark),
        "topics": [{"topic": t, "right": a, "of": b} for t, (a, b) in graded.by_topic().items()],
        "kinds": [{"kind": KIND_NAMES.get(k, k), "right": a, "of": b} for k, (a, b) in graded.by_kind().items()],
        "time": (f"{countdown(used_seconds)} of {countdown(int(minutes * 60))}" if used_seconds is not None and minutes
                 else f"{minutes:g} minutes allowed" if minutes else ""),
        "missed": missed,
    }


def template_folder(root: Path, template: str = TEMPLATE) -> Path:
    """The content root's site/templates, else the one shipped with Floorcall (a --root may hold content only)."""
    package = Path(__file__).resolve().parent.parent  # floorcall/, above publish/
    candidates = [Path(root) / "site" / "templates", package.parent.parent / "site" / "templates",
                  package / "_data" / "site" / "templates"]
    for folder in candidates:
        if (folder / template).is_file():
            return folder
    raise FloorError(f"the report template {candidates[0] / template} is missing — reinstall Floorcall or run from a checkout")


def render_report(root: Path, context: dict) -> str:
    import jinja2

    folder = template_folder(root)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    try:
        return env.get_template(TEMPLATE).render(**context)
    except jinja2.TemplateError as exc:
        raise FloorError(f"the report template {folder / TEMPLATE} failed: {exc}") from None


def write_report(path: Path, root: Path, graded, rules: dict, *, seed: int, pass_mark: float, name: str | None,
                 taken: str | None = None, minutes: float | None = None, used_seconds: int | None = None) -> Path:
    """Render and write the report atomically; refuse to replace a file that is not one of ours."""
    taken = taken or datetime.now(UTC).astimezone().strftime("%Y-%m-%d %H:%M")
    html = render_report(root, report_context(graded, rules, seed=seed, pass_mark=pass_mark, name=name, taken=taken,
                                              minutes=minutes, used_seconds=used_seconds))
    return replace_ours(path, html, is_ours=lambda head: GENERATOR_MARK in head, what="quiz report", flag="--report",
                        example="exam-ana.html")
