"""Code generation: the block builder, the move lister written with it, and building generated code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardz_tools.engine import Game
from cardz_tools.engine.lister import lister_block
from cardz_tools.expr import codegen
from cardz_tools.expr.codegen import Block
from cardz_tools.expr.sandbox import UnsafeCode
from cardz_tools.model import build_design
from cardz_tools.variants import flatten

GAMES = Path(__file__).parent.parent / "games"


def test_a_block_indents_its_children_and_a_plain_block_adds_in_place() -> None:
    inner = Block().assign("_x", "1").line("_y += _x", {"_x", "_y"})
    loop = Block("for _i in _items:", {"_items"})
    loop.nest("if _i:").add(inner).line("continue")
    body = Block().assign("_y", "0").add(loop).line("return _y", {"_y"})
    assert body.render("    ") == [
        "    _y = 0",
        "    for _i in _items:",
        "        if _i:",
        "            _x = 1",
        "            _y += _x",
        "            continue",
        "    return _y",
    ]
    assert body.all_reads() == {"_items", "_x", "_y"}
    assert body.all_defines() == {"_x", "_y"}
    assert loop.reads == {"_items"}  # its own header; the nested block keeps its own
    assert Block().lines(["a", "b"]).key() == Block().line("a").line("b").key()


# Written out and looped (Gaps, Pyramid: over 512 pairs), wild cards naming suits, runs, taps with actions.
LISTERS = ("klondike", "freecell", "spider", "weathervane", "gaps-basic", "pyramid", "monte-carlo", "canfield")


def test_the_move_lister_defines_every_local_it_reads() -> None:
    for name in LISTERS:
        data, _ = flatten(GAMES / f"{name}.cardz")
        game = Game(build_design(data))
        block, _ = lister_block(game, game.design)
        assert block.all_reads() - block.all_defines() <= {"P", "S"}, name
        source = "\n".join(["def _f(P, S):", *block.render("    ")])
        assert "\n".join(block.render(" " * 8)) in game.move_lister_source  # the block is what was compiled
        assigned = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)
                    and isinstance(node.ctx, ast.Store)}
        assert block.all_defines() <= assigned, name  # what the blocks say they assign, the code does


def test_a_generated_text_is_audited_once_and_a_refused_one_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    audited: list[str] = []
    real_audit = codegen.audit

    def counted(source: str, attributes: frozenset[str]) -> None:
        audited.append(source)
        real_audit(source, attributes)

    monkeypatch.setattr(codegen, "audit", counted)
    codegen._audited.cache_clear()
    safe = ["def _f(x):\n    return x + _k0"]
    first, _ = codegen.build(safe, "_f", [("_k0", 1)], "<test>")
    second, _ = codegen.build(safe, "_f", [("_k0", 10)], "<test>")
    assert (first(1), second(1), len(audited)) == (2, 11, 1)  # one audit; each build runs with its own constants
    for _ in range(2):
        with pytest.raises(UnsafeCode):
            codegen.build(["def _f(x):\n    return x.__class__"], "_f", [], "<test>")
    assert len(audited) == 3
