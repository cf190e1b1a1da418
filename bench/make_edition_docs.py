"""Write the invented two-edition rules documents the tests use, to try `floor import` by hand.

    uv run python bench/make_edition_docs.py OUT_DIR

Writes invented-2024.pdf/.docx/.txt and invented-2026.pdf/.docx/.txt: the TDA's layout with made-up
words (tests/editiondocs.py). 2026 splits Rule 10, merges 20 and 21, adds two rules and so renumbers
2024's 43 as 45 and 47 as 49. The README's import demo runs on these with the small test rulebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import editiondocs  # noqa: E402  (the tests' own generator)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for edition in (editiondocs.edition_2024(), editiondocs.edition_2026()):
        for kind, writer in (("pdf", editiondocs.write_pdf), ("docx", editiondocs.write_docx), ("txt", editiondocs.write_txt)):
            path = writer(out / f"invented-{edition.year}.{kind}", edition)
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
