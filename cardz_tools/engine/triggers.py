"""A generated settle pass: the due triggers tested inline, in depot order, fired as they hold.

Settling after a move checks the triggers of every changed depot; most rules are
false, and calling each compiled rule costs more than testing it. One pass of
:meth:`cardz_tools.engine.state.State._settle` is written here as Python source
with every trigger's rule inline, in the manner of the move lister
(:mod:`cardz_tools.engine.lister`).

The pass walks ``due`` (sorted depots with a trigger to check). A local trigger is
tested only while its depot is in ``recheck`` or ``touched``; a depot with a trigger
that fires may touch later depots, which join ``due`` in order.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model import Design
from .rules import Site, inline_code, inline_rule

if TYPE_CHECKING:
    from .game import Game

SettlePass = Callable[[Any, Any, list[int], set[int], set[int], set[int], int], int]
"""``settle_pass(P, S, due, recheck, touched, fired_here, fired)`` -> firings so far; it stops
as soon as they pass the cascade limit."""


def build_settle_pass(game: Game, design: Design, limit: int) -> tuple[SettlePass, str]:
    """The generated pass of ``game`` and its source; ``limit`` is the cascade bound."""
    code = inline_code(design)
    blocks: dict[tuple[str, ...], int] = {}
    specs = [-1] * len(game.names)
    effects = code.constant(tuple(tuple(t.effects for t in triggers) for triggers in game.triggers_of))
    stats = code.constant(tuple(tuple(t.stat for t in triggers) for triggers in game.triggers_of))
    for depot, triggers in enumerate(game.triggers_of):
        if not triggers:
            continue
        lines: list[str] = []
        for number, (trigger, rule) in enumerate(zip(triggers, design.depots[depot].spec.triggers, strict=True)):
            test, _ = inline_rule(code, rule.when, Site.TRIGGER, design, {"depot": "_depot"}, "_pd")
            fire = [f"if {test}:"]
            if "_pd" in test:
                fire.insert(0, "_pd = P[_depot]")
            fire += [
                f"    for _effect in {effects}[_depot][{number}]: _effect.run(S, _depot)",
                "    _fired_here.add(_depot)",
                "    _fired += 1",
                f"    if _stats is not None: _stats[{stats}[_depot][{number}]] += 1",
                f"    if _fired > {int(limit)}: return _fired",
                "    for _later in _touched:",
                "        if _later > _depot and _has[_later] and _later not in _due: _insort(_due, _later)",
            ]
            if trigger.local:
                fire = ["if _depot in _recheck or _depot in _touched:", *("    " + line for line in fire)]
            lines += fire
        specs[depot] = blocks.setdefault(tuple(lines), len(blocks))
    body = [
        "_stats = S.stats",
        f"_has = {code.constant(tuple(bool(t) for t in game.triggers_of))}",
        f"_insort = {code.constant(insort)}",
        f"_specs = {code.constant(tuple(specs))}",
        "_i = 0",
        "while _i < len(_due):",
        "    _depot = _due[_i]",
        "    _i += 1",
        "    _spec = _specs[_depot]",
    ]
    for number, block in enumerate(blocks):
        body.append(f"    {'if' if number == 0 else 'elif'} _spec == {number}:")
        body += ["        " + line for line in block]
    body.append("return _fired")
    params = ["P", "S", "_due", "_recheck", "_touched", "_fired_here", "_fired"]
    return code.function("_settle_pass", params, body, {"stats", "run", "add"})
