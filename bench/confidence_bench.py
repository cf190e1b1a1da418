#!/usr/bin/env python3
"""How often `floor lookup` says it is confident, per query set.

In-scope sets (the eval YAML format, `query:` per case) should stay confident (>= 90 %); the
out-of-scope list (bench/lookup-out-of-scope.yaml, plain strings) should not be. Runs the
library's ranker on the current content, so it measures what `floor lookup --json` answers.

    uv run python bench/confidence_bench.py ../shared/eval/dev-cases.yaml bench/lookup-cases*.yaml \
        bench/lookup-out-of-scope.yaml [--show]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "cli"))

from floorcall.content import corpus as corpus_module  # noqa: E402
from floorcall.engines.lookup import rank  # noqa: E402


def queries(path: str) -> list[str]:
    items = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    return [item if isinstance(item, str) else item["query"] for item in items]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--show", action="store_true", help="print each query whose answer is the minority one")
    args = parser.parse_args()
    index = corpus_module.load_lookup(REPO)["index"]
    for path in args.files:
        found = [(query, rank(index, query)) for query in queries(path)]
        confident = [q for q, r in found if r.confident]
        print(f"{path}: confident {len(confident)}/{len(found)} = {100 * len(confident) / max(len(found), 1):.1f} %")
        if args.show:
            out_of_scope = "out-of-scope" in path
            for query, result in found:
                if result.confident == out_of_scope:
                    print(f"   {'CONFIDENT' if result.confident else 'weak'}: {query}  ({result.why_weak or result.situations[0].id})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
