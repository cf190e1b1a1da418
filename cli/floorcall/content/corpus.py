"""The compiled corpus: rulebook + rulings + lookup index in one JSON cache.

Reading 150 YAML files costs ~35 ms even with LibYAML; one JSON file costs ~1 ms. The cache is
rebuilt whenever any content file (or the code that shapes it) changes, checked by size, mtime
and ctime on every start, and written atomically so two processes building at once never see a
half-written file.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from pathlib import Path

from floorcall.core.errors import FloorError

# The support files in rulings/ that are not trees: a problem in one of them is not a left-out tree.
SUPPORT_PATHS = ("rulings/uncovered.yaml", "rulings/synonyms.yaml", "rulings/out-of-scope.yaml")

# Bump when the JSON shape changes; the manifest below also tracks the shaping code's files.
CACHE_FORMAT = 10
CACHE_ENV = "FLOORCALL_CACHE_DIR"
# Modules whose changes alter what the cache holds: their stats join the manifest.
SHAPING_MODULES = ("content/corpus.py", "content/index.py", "engines/lookup.py", "core/textnorm.py", "content/reader.py",
                   "content/check.py", "content/imported.py")


def cache_dir() -> Path:
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "floorcall"


def cache_path(root: Path, kind: str = "corpus", suffix: str = "marshal") -> Path:
    digest = format(zlib.crc32(str(root).encode()), "08x")  # names the content root's cache; not security
    return cache_dir() / f"{kind}-{digest}.{suffix}"


def lookup_cache_path(root: Path) -> Path:
    return cache_path(root, "lookup")


def _content_files(root: Path) -> list[Path]:
    # Kept free of the YAML import so a warm start never loads yaml.
    files = [root / "rulebook" / "sources.yaml"]
    for folder in ("rulebook", "rulings"):
        try:
            files += sorted(Path(entry.path) for entry in os.scandir(root / folder) if entry.name.endswith(".yaml"))
        except FileNotFoundError:
            pass
    return list(dict.fromkeys(files))


def manifest(root: Path) -> list:
    from floorcall.content.imported import edition_files

    package = Path(__file__).resolve().parent.parent  # floorcall/, above content/
    entries = [["python", sys.version, 0]]
    # The director's imported editions (floor import) are content too: importing one rebuilds the cache.
    for path in _content_files(root) + [package / name for name in SHAPING_MODULES] + edition_files():
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        # ctime too: an edit that keeps size and mtime (cp -p, touch -r, tar) still changes the inode's ctime
        entries.append([str(path), stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size])
    return entries


def load(root: Path) -> dict:
    """The corpus for `root`, from the cache when it is current, else rebuilt (and cached).

    Both caches are marshal files: it loads ~2-3x faster than json, and it is tied to the Python
    version, which the manifest records."""
    path = cache_path(root)
    current = manifest(root)
    cached = _read_cache(path)
    if cached is not None and cached.get("format") == CACHE_FORMAT and cached.get("manifest") == current:
        return cached
    corpus = build(root)
    corpus["manifest"] = current
    _write_atomically(path, marshal.dumps(corpus))
    _write_atomically(lookup_cache_path(root), marshal.dumps(lookup_part(corpus)))
    _write_atomically(cache_path(root, "content"), marshal.dumps({k: v for k, v in corpus.items() if k != "index"}))
    return corpus


def load_content(root: Path) -> dict:
    """The corpus without the lookup index (half the bytes): what walk, rule and situations read.
    From its own cache when current, else the full corpus is loaded (and all three caches written)."""
    current = manifest(root)
    cached = _read_cache(cache_path(root, "content"))
    if cached is not None and cached.get("format") == CACHE_FORMAT and cached.get("manifest") == current:
        return cached
    return load(root)


def lookup_part(corpus: dict) -> dict:
    """What a lookup needs and nothing more: the index and the names and citations it prints.

    Postings are packed to bytes per term: unpacking 40,000 small lists costs ~35 ms at every
    start, while a lookup touches only its own few terms (see index.postings_of).
    """
    from floorcall.content.index import pack_postings

    index = dict(corpus["index"])
    for key in ("situation_postings", "rule_postings"):
        index[key] = {term: pack_postings(pairs) for term, pairs in index[key].items()}
    return {
        "format": CACHE_FORMAT,
        "manifest": corpus["manifest"],
        "skipped": corpus.get("skipped", []),
        "index": index,
        "situations": {sid: {"title": s["title"], "cites": s["cites"]} for sid, s in corpus["situations"].items()},
        "rules": {rid: {k: r[k] for k in ("title", "source", "source_short", "number", "section") + tuple(
            k for k in ("topic", "parent") if k in r)} for rid, r in corpus["rules"].items()},
    }


def load_lookup(root: Path) -> dict:
    """The lookup part of the corpus, from its own small cache when current."""
    current = manifest(root)
    cached = _read_cache(lookup_cache_path(root))
    if cached is not None and cached.get("format") == CACHE_FORMAT and cached.get("manifest") == current:
        return cached
    corpus = load(root)
    return lookup_part(corpus)


def warn_if_skipped(corpus: dict) -> None:
    """One stderr line when some ruling files were left out for problems, and one per imported edition left out."""
    skipped = corpus.get("skipped") or []
    if skipped:
        sys.stderr.write(f"floor: warning: {len(skipped)} ruling file(s) left out for problems, e.g. {skipped[0]} — run `floor check`\n")
    for problem in corpus.get("edition_problems") or []:
        sys.stderr.write(f"floor: warning: imported edition not used: {problem}\n")


def _read_cache(path: Path) -> dict | None:
    """A cache file's contents, or None when missing, unreadable or corrupt (then it is rebuilt silently)."""
    try:
        with open(path, "rb") as handle:
            cached = marshal.loads(handle.read())  # one read: marshal.load on a file reads piecemeal, ~4x slower
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return cached if isinstance(cached, dict) else None


def _write_atomically(path: Path, payload: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # only on a rebuild: it costs ~5 ms to import

        fd, tmp = tempfile.mkstemp(prefix=".corpus-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(tmp, path)  # atomic on POSIX: readers see the old file or the new one
    except OSError:
        pass  # a read-only cache folder only costs speed, never correctness


def build(root: Path) -> dict:
    """Read every content file and compile the corpus; a file that cannot be read is an error."""
    from floorcall.content import index as lookup_index
    from floorcall.content.reader import read_all

    raw = read_all(root)
    # A tree file that cannot be read is left out like any bad tree; a broken rulebook stops everything.
    unreadable_trees = [p for p in raw.problems if p.path.startswith("rulings/") and p.path.count("/") == 1
                        and p.path not in SUPPORT_PATHS]
    fatal = [p for p in raw.problems if p not in unreadable_trees]
    if fatal:
        first = fatal[0]
        more = f" (and {len(fatal) - 1} more)" if len(fatal) > 1 else ""
        raise FloorError(f"{first}{more} — run `floor check` for details")
    rules = _compile_rules(raw)
    from floorcall.content.imported import attach_full_text, edition_files, read_editions

    editions, edition_problems = read_editions(edition_files())
    attach_full_text(rules, editions)
    situations, skipped = _compile_situations(raw, set(rules))
    _mark_recorded_conflicts(raw, situations)
    skipped = [str(p) for p in unreadable_trees] + skipped
    corpus = {
        "format": CACHE_FORMAT,
        "root": str(root),
        "sources": [_plain(s) for s in raw.sources],
        "rules": rules,
        "situations": situations,
        "skipped": skipped,
        "editions": editions,
    }
    if edition_problems:
        corpus["edition_problems"] = edition_problems
    corpus["index"] = lookup_index.build_index(corpus, raw.synonyms, raw.out_of_scope)
    return corpus


def _plain(value):
    """Strip line-number mappings down to plain JSON values."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _compile_rules(raw) -> dict:
    sources = {s.get("id"): s for s in raw.sources}
    owner = {}
    for source in raw.sources:
        files = source.get("file")
        for name in files if isinstance(files, list) else [files]:
            owner[f"rulebook/{name}"] = source.get("id")
    from floorcall.content.check import rule_shape_problems

    rules = {}
    for path, record in raw.rules:
        if rule_shape_problems(path, record):
            continue  # a malformed record is left out (floor check names it); the rest still load
        rule = _plain(record)
        rule["source"] = owner.get(path)
        rule["source_short"] = (sources.get(rule["source"]) or {}).get("short", rule["source"])
        rule.setdefault("relations", [])
        rule["related"] = []
        if "parts" in rule:  # the part records follow their rule; the rule keeps only their ids
            rule["parts"] = [f"{rule['id']}-{part.get('part')}" for part in rule["parts"]]
        rules[rule["id"]] = rule
    # Every relation is shown from both ends: outgoing as written, incoming as its inverse.
    inverse = {"supersedes": "superseded-by", "same": "same", "conflicts": "conflicts", "see-also": "see-also"}
    for rule in rules.values():
        for relation in rule["relations"]:
            target = rules.get(relation.get("to"))
            entry = dict(relation)
            rule["related"].append(entry)
            if target is not None:
                back = dict(entry, type=inverse.get(relation.get("type"), relation.get("type")), to=rule["id"])
                target["related"].append(back)
    return rules


def _mark_recorded_conflicts(raw, situations: dict) -> None:
    """Each outcome with a TDA position learns whether a recorded conflict backs it (`tda_conflict`),
    so the walk can say "the house rule governs" for a conflict and "the house rule adds to TDA" otherwise."""
    from floorcall.content.check import conflict_pairs, conflicts_backing, parent_ids

    pairs, parents = conflict_pairs(raw), parent_ids(raw)
    for situation in situations.values():
        for outcome in situation["outcomes"].values():
            tda = outcome.get("tda")
            if isinstance(tda, dict):
                outcome["tda_conflict"] = bool(conflicts_backing(outcome.get("cite", []), tda.get("cite", []), pairs, parents))


def _compile_situations(raw, rule_ids: set[str]) -> tuple[dict, list[str]]:
    """Trees that pass the per-file check; the others are left out and named, never half-loaded."""
    from floorcall.content.check import check_tree, structural_problems

    situations, skipped = {}, []
    for path, record in raw.trees:
        problems = check_tree(path, record, rule_ids) or structural_problems(path, record, rule_ids)
        if problems:
            skipped.append(str(problems[0]))
            continue
        tree = _plain(record)
        tree.setdefault("questions", {})
        cites: list[str] = []
        for outcome in tree.get("outcomes", {}).values():
            tda_cites = (outcome.get("tda") or {}).get("cite") or []
            for rid in list(outcome.get("cite") or []) + list(tda_cites):
                if rid not in cites:
                    cites.append(rid)
        tree["cites"] = cites  # primary first: outcomes in file order, each outcome's cites in order
        situations[tree["id"]] = tree
    return situations, skipped
