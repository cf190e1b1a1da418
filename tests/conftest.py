"""Shared fixtures: the real content root, its compiled corpus, and a CLI runner."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED_SEEDS = REPO.parent / "shared" / "seeds"
DEV_CASES = REPO.parent / "shared" / "eval" / "dev-cases.yaml"
OWN_CASES = REPO / "bench" / "lookup-cases.yaml"


def eval_queries() -> list[str]:
    """Floor queries to compare rankers on: the shared dev cases when beside the checkout, and our own set."""
    import yaml

    queries = []
    for path in (DEV_CASES, OWN_CASES):
        if path.exists():
            queries += [case["query"] for case in yaml.safe_load(path.read_text(encoding="utf-8"))]
    return queries


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Every test run compiles its own corpus cache and keeps its own settings and saved data:
    the user's cache, config file, ruling log and quiz progress are never touched."""
    os.environ["FLOORCALL_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    for name in ("FLOORCALL_ROOT", "FLOORCALL_HOUSE", "FLOORCALL_NAME", "FLOORCALL_EVENT", "FLOORCALL_DB", "FLOORCALL_CONFIG"):
        os.environ.pop(name, None)
    # The director's imported editions (floor import) never leak in: each test run starts with none.
    os.environ["FLOORCALL_DATA"] = str(tmp_path_factory.mktemp("editions"))
    os.environ["NO_COLOR"] = "1"
    yield


@pytest.fixture(scope="session")
def root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def corpus(root):
    from floorcall.content import corpus as corpus_module

    return corpus_module.load(root)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def floor(runner):
    """Run `floor ARGS…` in-process; returns the click Result (exit_code, stdout, stderr)."""
    from floorcall.commands.app import app

    def run(*args, input=None, env=None):
        return runner.invoke(app, [str(a) for a in args], input=input, env=env)

    return run


@pytest.fixture
def mini_root(tmp_path) -> Path:
    """A small, valid content root (tests/fixtures/base) copied to a temp folder."""
    target = tmp_path / "content"
    shutil.copytree(FIXTURES / "base", target)
    return target
