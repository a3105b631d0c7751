"""Every import in the package follows the one layer order of :mod:`cardz_tools.layers`, and nothing cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardz_tools.layers import LAYERS, PACKAGE_DIR, module_order, update_markdown

from .conftest import ROOT


def _modules() -> dict[str, Path]:
    """Full dotted name -> file, for every module of the package on disk."""
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str:
    """The module a dotted name imports: itself, or the nearest package that defines it."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> set[str]:
    """The package's modules that ``module`` imports anywhere: top level, ``TYPE_CHECKING``, functions."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_resolve(alias.name) for alias in node.names if alias.name.split(".")[0] == "cardz_tools")
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            full = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            if full.split(".")[0] != "cardz_tools":
                continue
            # `from . import diagnostics` imports a module; `from .game import Game` imports game.
            found.update(_resolve(f"{full}.{alias.name}") if f"{full}.{alias.name}" in MODULES else _resolve(full)
                         for alias in node.names)
    found.discard(module)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_is_in_the_layer_order_once() -> None:
    listed = [f"cardz_tools.{name}" if name else "cardz_tools" for layer in LAYERS for name in layer.modules]
    assert len(listed) == len(set(listed)), "a module is listed twice in cardz_tools/layers.py"
    assert sorted(set(MODULES) - set(listed)) == [], "add these modules to cardz_tools/layers.py"
    assert sorted(set(listed) - set(MODULES)) == [], "cardz_tools/layers.py lists modules that do not exist"


def test_the_import_walker_sees_type_checking_and_late_imports() -> None:
    # cli imports nearly everything inside its command functions; layers.py imports nothing of ours.
    assert {"cardz_tools.play", "cardz_tools.repl", "cardz_tools.analysis.stored"} <= GRAPH["cardz_tools.cli"]
    assert GRAPH["cardz_tools.layers"] == set()
    assert "cardz_tools.engine.plan" in GRAPH["cardz_tools.engine.state"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_modules_listed_before_it(module: str) -> None:
    order = module_order()
    if module not in order:
        pytest.skip("not listed (see test_every_module_is_in_the_layer_order_once)")
    upward = sorted(name for name in GRAPH[module] if order.get(name, -1) > order[module])
    assert upward == [], f"{module} imports modules above it in cardz_tools/layers.py"


def test_no_import_cycle() -> None:
    # Depth-first search for a back edge; the order test implies this, but a cycle is named here whole.
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(GRAPH[module]):
            if state.get(imported) == 1:
                return path[path.index(imported):] + [imported]
            if imported not in state and (cycle := visit(imported)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(GRAPH):
        if module not in state:
            cycle = visit(module)
            assert cycle is None, " -> ".join(cycle)


def test_the_architecture_page_shows_the_layer_order() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert update_markdown(page) == page, "run: python -m cardz_tools.layers docs/architecture.md"
