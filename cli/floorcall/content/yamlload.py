"""The project's one YAML loader: safe, LibYAML when present, strict about keys, with line numbers.

Every mapping it returns is a `Mapping` (a dict) whose `lines` attribute maps each key to the
1-based line it stood on, so checks can say `path:line:` for any field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:  # LibYAML parses ~15x faster (tech-notes: 35 ms vs 500 ms for the whole corpus) and keeps marks.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - pure-Python fallback when the wheel lacks LibYAML
    # The stubs give CSafeLoader and SafeLoader no common base, though both are the same safe-loader API.
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


class YamlProblem(Exception):
    """A file that is not valid YAML, or breaks the key rules; carries the line it happened on."""

    def __init__(self, code: str, line: int, message: str):
        super().__init__(message)
        self.code = code
        self.line = line
        self.message = message


class Mapping(dict):
    """A dict that remembers the line of each key (and its own line as `line`)."""

    __slots__ = ("lines", "line")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines: dict[str, int] = {}
        self.line: int = 0


class StrictLoader(_BaseLoader):
    pass


def _construct_mapping(loader: StrictLoader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str):
            # `yes:`/`no:`/`1:` keys become booleans/ints in YAML; ids must be strings.
            typed = getattr(key_node, "value", key)
            raise YamlProblem("FC003", line, f"key '{typed}' is read as {type(key).__name__}, not a string — quote it: '{typed}':")
        if key in result:
            raise YamlProblem("FC002", line, f"duplicate key '{key}' (first on line {result.lines[key]})")
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = line
    return result


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _refuse_aliases(root: yaml.Node) -> None:
    """Content may not use anchors and aliases (&a / *a): an alias bomb (a 1 KB file that
    expands to 10^9 items) would take every command down. An alias is the only way two places
    in a YAML document share one node, so a walk that meets a node twice has found one; it
    visits each distinct node once, so a bomb is refused in microseconds."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise YamlProblem("FC004", node.start_mark.line + 1,
                              "YAML anchors and aliases (&name, *name) are not allowed in content — write the value out")
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))


def load_text(text: str):
    try:
        loader = StrictLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _refuse_aliases(node)
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except YamlProblem:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or str(exc)
        raise YamlProblem("FC001", line, f"not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem("FC001", 1, f"not valid YAML: {exc}") from None


def load_file(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise YamlProblem("FC001", 1, "not UTF-8 text") from None
    return load_text(text)


def line_of(node, key: str | None = None) -> int:
    """The line of `key` in `node` (or of the node itself), 1 when unknown."""
    if isinstance(node, Mapping):
        if key is not None and key in node.lines:
            return node.lines[key]
        return node.line or 1
    return 1
