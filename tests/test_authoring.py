"""Tools for content authors: the JSON Schema (generated from the checker's tables), `floor new`,
`floor check --format json|github`, and the pre-commit hook."""

import json
import shutil

import pytest

from conftest import FIXTURES, REPO
from floorcall.content.schema import tree_schema

SCHEMA_FILE = REPO / "rulings" / "tree.schema.json"


def test_committed_schema_is_generated_from_the_checker():
    """rulings/tree.schema.json is exactly what the checker's field tables generate (regenerate: see test)."""
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == tree_schema()


def test_every_real_tree_validates_against_the_schema(corpus):
    """The schema accepts every tree in rulings/ (it never disagrees with `floor check` on a valid tree)."""
    import jsonschema
    import yaml

    validator = jsonschema.Draft202012Validator(tree_schema())
    bad = []
    for path in sorted((REPO / "rulings").glob("*.yaml")):
        if path.name in ("synonyms.yaml", "uncovered.yaml", "out-of-scope.yaml"):
            continue
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        if errors:
            bad.append((path.name, errors[0].message))
    assert bad == []


@pytest.mark.parametrize("code", ["FC202", "FC204", "FC205", "FC207", "FC208"])
def test_schema_rejects_the_shape_fixtures(code):
    """The schema also refuses the invalid fixtures of the shape codes."""
    import jsonschema
    import yaml

    folder = FIXTURES / "invalid" / code / "rulings"
    validator = jsonschema.Draft202012Validator(tree_schema())
    trees = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in folder.glob("*.yaml") if p.name != "uncovered.yaml"]
    assert trees and all(list(validator.iter_errors(t)) for t in trees)


def test_editor_settings_point_at_the_schema():
    """VS Code's YAML extension maps the schema onto the trees (and not the support files)."""
    settings = json.loads((REPO / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"] == {"rulings/tree.schema.json": ["rulings/*.yaml", "!rulings/synonyms.yaml",
                                                                      "!rulings/uncovered.yaml", "!rulings/out-of-scope.yaml"]}


def test_floor_new_writes_a_skeleton_that_passes_check(floor, tmp_path):
    """`floor new ID` writes rulings/ID.yaml that `floor check` accepts, and never overwrites a file."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "rulebook", root / "rulebook")
    shutil.copytree(REPO / "rulings", root / "rulings")
    result = floor("--root", root, "new", "chip-knocked-over")
    assert result.exit_code == 0, result.stderr
    assert floor("--root", root, "check", root / "rulings" / "chip-knocked-over.yaml").stdout.startswith("ok:")
    again = floor("--root", root, "new", "chip-knocked-over")
    assert again.exit_code == 2 and "already exists" in again.stderr
    assert floor("--root", root, "new", "Bad_Id").exit_code == 2


@pytest.mark.parametrize("fmt, first", [
    ("github", "::error file=rulings/overchip.yaml,line=5,title=FC232::sibling 'overchips' is no situation"),
    ("text", "rulings/overchip.yaml:5: FC232 sibling 'overchips' is no situation"),
])
def test_check_formats(floor, mini_root, fmt, first):
    """`floor check --format github` prints annotations CI shows on the file and line; text is the default."""
    shutil.copytree(FIXTURES / "invalid" / "FC232", mini_root, dirs_exist_ok=True)
    result = floor("--root", mini_root, "check", "--format", fmt)
    assert result.exit_code == 1 and result.stdout.splitlines()[0] == first


def test_check_json(floor, mini_root):
    """`floor check --format json` gives every problem as data, and exit 1 when there is any."""
    shutil.copytree(FIXTURES / "invalid" / "FC213", mini_root, dirs_exist_ok=True)
    result = floor("--root", mini_root, "check", "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.stdout)["problems"]
    assert {"path": "rulings/overchip.yaml", "line": 17, "code": "FC213",
            "message": "outcome 'call' cites unknown rule 'tda-2024:444'", "hint": "did you mean 'tda-2024:44'?"} in problems


def test_pre_commit_runs_floor_check():
    """The pre-commit hook and the repository's own config run `floor check` on changed trees."""
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hooks[0]["id"] == "floor-check" and hooks[0]["entry"] == "floor check"
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    local = [h for repo in config["repos"] for h in repo["hooks"]]
    assert any(h["id"] == "floor-check" and "floor check" in h["entry"] for h in local)
