"""The content fingerprint: which rulebook and rulings produced a ruling.

A hash of the content files' names and bytes — the same files the corpus manifest tracks — and
not of the manifest itself: the manifest holds absolute paths, modification times and the Python
version, so two TD laptops with identical content would disagree and a `touch` would change it.
This one changes exactly when a rule record or a tree does.

Hashing ~170 files costs 6-20 ms, so the result is cached beside the corpus cache under the
manifest's hash: while no content file changes (size, mtime, ctime), the cached value is used.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from floorcall.content.corpus import _content_files, cache_path, manifest

FINGERPRINT_CHARS = 16  # 64 bits of sha256: enough to tell content versions apart, short enough to read
PREFIX = "sha256:"


def hash_content(root: Path) -> str:
    """'sha256:1a2b…' over every content file of `root` (relative name and bytes, in a fixed order)."""
    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(_content_files(root)):
        try:
            data = path.read_bytes()
        except OSError:
            continue  # a file that vanished or cannot be read is not part of the content the ruling came from
        try:
            name = path.relative_to(root).as_posix()
        except ValueError:
            name = path.name
        digest.update(len(name).to_bytes(4, "big") + name.encode() + len(data).to_bytes(8, "big") + data)
    return PREFIX + digest.hexdigest()[:FINGERPRINT_CHARS]


def content_fingerprint(root: Path) -> str:
    """The fingerprint of `root`'s content, from the small cache when no content file has changed."""
    root = Path(root)
    stamp = hashlib.sha256(json.dumps(manifest(root)).encode()).hexdigest()
    cache = cache_path(root, "fingerprint", "txt")
    try:
        cached_stamp, _, value = cache.read_text(encoding="ascii").partition(" ")
        if cached_stamp == stamp and value.startswith(PREFIX) and len(value) == len(PREFIX) + FINGERPRINT_CHARS:
            return value
    except (OSError, UnicodeDecodeError, ValueError):
        pass  # no cache yet, or an unreadable one: hash the files
    value = hash_content(root)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(f"{stamp} {value}", encoding="ascii")
        os.replace(tmp, cache)  # atomic: a reader sees the old stamp or the new one
    except OSError:
        pass  # a read-only cache folder only costs speed
    return value
