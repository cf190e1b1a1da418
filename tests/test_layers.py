"""The package's folders are its layers, and imports flow one way: commands → publish → store →
engines → content → core. A module may import its own layer or a lower one, never a higher one."""

import ast
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE = REPO / "cli" / "floorcall"
LAYERS = ["core", "content", "engines", "store", "publish", "commands"]


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        found[".".join(("floorcall",) + rel.parts).removesuffix(".__init__")] = path
    return found


def imports_of(path: Path) -> set[str]:
    """Every floorcall module `path` imports, at any depth of the file (lazy imports count too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("floorcall"):
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("floorcall"))
    return {name for name in names if name in modules()}


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 2 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    """Apart from the package's own entry files, each module sits in one of the layer folders."""
    loose = [m for m in modules() if layer(m) is None and m not in ("floorcall", "floorcall.__main__")
             and m.removeprefix("floorcall.") not in LAYERS]
    assert loose == []


@pytest.mark.parametrize("module", sorted(m for m in modules() if layer(m) is not None))
def test_imports_flow_downwards(module):
    """MODULE imports nothing from a layer above its own."""
    upward = sorted(name for name in imports_of(modules()[module])
                    if layer(name) is not None and layer(name) > layer(module))
    assert upward == []


def test_no_import_cycles_at_module_level():
    """Top-level imports between modules form no cycle (lazy imports inside functions may go sideways)."""
    graph = {}
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("floorcall"):
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
        graph[module] = {n for n in names if n in modules() and n != module}
    state, cycles = {}, []

    def visit(node, trail):
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycles.append(trail + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])
    assert cycles == []
