"""A generated scan that finds the next trigger to fire, its rule written inline.

Settling after a move checks the triggers of every changed depot; most rules are
false, and calling each compiled rule costs more than testing it. The scan walks
the sorted list of due depots and stops at the first one whose trigger holds, or
that has several triggers (the caller checks those one by one, in file order).
The source is written like the drag lister's (:mod:`cardz_tools.engine.lister`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model import Design
from .rules import Site, inline_code, inline_rule

if TYPE_CHECKING:
    from .game import Game

TriggerScan = Callable[[Any, Any, list[int], int, set[int], set[int]], int]
"""``scan(P, S, due, start, recheck, touched)`` -> the index in ``due`` to handle next (``len(due)``: none)."""


def build_trigger_scan(game: Game, design: Design) -> tuple[TriggerScan, str]:
    """The generated scan of ``game`` and its source.

    A local trigger is tested only when its depot is in ``recheck`` or ``touched``
    (see :meth:`cardz_tools.engine.state.State._settle`).
    """
    code = inline_code(design)
    blocks: dict[tuple[str, ...], int] = {}
    specs = [-1] * len(game.names)
    for depot, triggers in enumerate(game.triggers_of):
        if len(triggers) != 1:
            continue
        trigger = triggers[0]
        when = design.depots[depot].spec.triggers[0].when
        test, _ = inline_rule(code, when, Site.TRIGGER, design, {"depot": "_depot"}, "_pd")
        lines = [f"if {test}: return _i"]
        if "_pd" in test:
            lines.insert(0, "_pd = P[_depot]")
        if trigger.local:
            lines = ["if _depot in _recheck or _depot in _touched:", *("    " + line for line in lines)]
        specs[depot] = blocks.setdefault(tuple(lines), len(blocks))
    body = ["_n = len(_due)", "while _i < _n:", "    _depot = _due[_i]"]
    if blocks:
        body.append(f"    _spec = {code.constant(tuple(specs))}[_depot]")
        for number, block in enumerate(blocks):
            body.append(f"    {'if' if number == 0 else 'elif'} _spec == {number}:")
            body += ["        " + line for line in block]
        body += ["    else:", "        return _i"]
    else:
        body.append("    return _i")
    body += ["    _i += 1", "return _i"]
    return code.function("_scan_triggers", ["P", "S", "_due", "_i", "_recheck", "_touched"], body)
