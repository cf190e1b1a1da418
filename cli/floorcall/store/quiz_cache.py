"""The quiz's items, compiled once per version of the content and kept in a marshal cache.

Building every item walks every scenario and compares thousands of rulings (about a second); a
quiz must show its first question about as fast as a lookup answers. So the items are built once,
with the content seed, and kept beside the corpus cache, keyed like it by the content files'
fingerprint (size, mtime, ctime) plus the engine modules that shape the items. A cache is not user
data: a missing, stale or damaged one is rebuilt silently, and a read-only cache folder only costs
speed. Each quiz then orders the choices with its own seed (`quiz.present`).
"""

from __future__ import annotations

from pathlib import Path

from floorcall.content import corpus as corpus_module
from floorcall.engines.quiz import Item

CACHE_KIND = "quiz"
# Bump when Item's fields change.
ITEM_CACHE_FORMAT = 1
# The items are built with this seed (distractors and their order); a quiz's own seed orders choices.
CONTENT_SEED = 0
SHAPING_MODULES = ("engines/quiz.py", "engines/quiz_kinds.py", "engines/walk.py", "engines/calc.py", "core/labels.py",
                   "core/textnorm.py", "store/quiz_cache.py")
FIELDS = ("id", "kind", "topic", "topics", "sources", "prompt", "choices", "answer", "explanation", "cites", "ref",
          "answer_set", "walk", "link", "draws_on")


def cache_path(root: Path) -> Path:
    return corpus_module.cache_path(root, CACHE_KIND)


def fingerprint(root: Path) -> list:
    package = Path(__file__).resolve().parent.parent
    entries = corpus_module.manifest(root)
    for name in SHAPING_MODULES:
        try:
            stat = (package / name).stat()
        except FileNotFoundError:
            continue
        entries.append([name, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size])
    return entries


def load_items(root: Path) -> tuple[list[Item], dict[str, int]]:
    """Every item of the content at `root` (from the cache when current) and the skipped counts."""
    current = fingerprint(root)
    cached = corpus_module._read_cache(cache_path(root))
    if cached is not None and cached.get("format") == ITEM_CACHE_FORMAT and cached.get("fingerprint") == current:
        try:
            return [Item(*row) for row in cached["items"]], dict(cached["skipped"])
        except (KeyError, TypeError, ValueError):
            pass  # a cache from other code: rebuild
    return build(root, current)


def build(root: Path, current: list | None = None) -> tuple[list[Item], dict[str, int]]:
    import marshal

    from floorcall.engines import quiz

    data = corpus_module.load(root)
    corpus_module.warn_if_skipped(data)
    generated = quiz.generate(data, CONTENT_SEED)
    payload = {"format": ITEM_CACHE_FORMAT, "fingerprint": current or fingerprint(root),
               "items": [tuple(getattr(item, f) for f in FIELDS) for item in generated.items],
               "skipped": generated.skipped_counts()}
    corpus_module._write_atomically(cache_path(root), marshal.dumps(payload))
    return generated.items, generated.skipped_counts()
