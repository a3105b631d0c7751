"""Generated settling: every pass of due triggers tested inline, in depot order, fired as they hold.

Settling after a move checks the triggers of every changed depot; most rules are
false, and calling each compiled rule costs more than testing it. The passes of
:meth:`cardz_tools.engine.state.State._settle` are written here as Python source
with every trigger's rule inline, in the manner of the move lister
(:mod:`cardz_tools.engine.lister`).

A pass walks ``due`` (sorted depots with a trigger to check). A local trigger is
tested only while its depot is in ``recheck`` (changed before the pass, or fired in
it) or ``touched`` (changed earlier in the pass); a depot with a trigger that fires
may touch later depots, which join ``due`` in order. Passes repeat until one fires
nothing. A pass that fires and leaves the piles and named suits as they were would
repeat for ever: the game ends there as a cascade, as it does past the firing limit.
The piles are copied for that comparison only when a trigger first fires in a pass
(before it, the pass has changed nothing).
"""

from __future__ import annotations

from bisect import insort

from ..model import Design
from .plan import GamePlan, Settle
from .rules import Site, inline_code, inline_rule

_ATTRIBUTES = frozenset(
    {"stats", "run", "add", "append", "sort", "clear", "touched", "cascade", "declared", "transfer"}
)
"""The attributes the generated lines read or write (for the sandbox audit)."""


def build_settle(game: GamePlan, design: Design, limit: int) -> tuple[Settle, str]:
    """The generated settling of ``game`` and its source; ``limit`` is the cascade bound."""
    code = inline_code(design)
    blocks: dict[tuple[str, ...], int] = {}
    makes_due = False  # whether a firing may make later depots due (its lines then call _insort)
    specs = [-1] * len(game.names)
    effects = code.constant(tuple(tuple(t.effects for t in triggers) for triggers in game.triggers_of))
    stats = code.constant(tuple(tuple(t.stat for t in triggers) for triggers in game.triggers_of))
    snapshot = ["    if _before is None:", "        _before = P[:]"]
    start = "    _before = _declared_before = None" if game.has_declarations else "    _before = None"
    if game.has_declarations:  # else every named suit stays -1 and needs no comparing
        snapshot.append("        _declared_before = S.declared[:]")
    for depot, triggers in enumerate(game.triggers_of):
        if not triggers:
            continue
        lines: list[str] = []
        for number, (trigger, rule) in enumerate(zip(triggers, design.depots[depot].spec.triggers, strict=True)):
            # A pile read once is read in place: naming it would cost more than reading it.
            test = inline_rule(code, rule.when, Site.TRIGGER, design, {"depot": "_depot"}, "_pd", pile_once="P[_depot]")
            fire = [f"if {test.text}:"]
            if test.reads.get("_pd"):
                fire.insert(0, "_pd = P[_depot]")
            inline = [effect.inline("_depot") for effect in trigger.effects]
            reaches: set[int] | None
            if all(written is not None for written in inline):  # written out: no call per effect
                run = ["    " + line for written in inline if written is not None for line in written.lines]
                # Written-out effects name the depots they change: -1 for the owner itself.
                reaches = {d for written in inline if written is not None for d in written.depots}
            else:
                run = [f"    for _effect in {effects}[_depot][{number}]: _effect.run(S, _depot)"]
                reaches = None
            fire += [
                *snapshot,
                *run,
                # A depot that fired is checked again next pass, changed or not.
                "    _touched.add(_depot)",
                "    _fired += 1",
                f"    if _stats is not None: _stats[{stats}[_depot][{number}]] += 1",
                f"    if _fired > {int(limit)}:",
                "        S.cascade = True",
                "        return",
            ]
            if reaches is None or any(d >= 0 and game.has_trigger[d] for d in reaches):
                # Depots after this one that it changed are due later in the pass.
                makes_due = True
                fire += [
                    "    for _later in _touched:",
                    "        if _later > _depot and _has[_later] and _later not in _due: _insort(_due, _later)",
                ]
            if trigger.local and depot in game.always_checked:
                # Any other depot is due only while in recheck or touched: the test would always hold.
                fire = ["if _depot in _recheck or _depot in _touched:", *("    " + line for line in fire)]
            lines += fire
        specs[depot] = blocks.setdefault(tuple(lines), len(blocks))
    has = code.constant(game.has_trigger)
    # A pass's due depots: those changed (or fired) that have a trigger, and those always checked.
    due = ["_due = _new_list()", "for _depot in _recheck:", "    if _has[_depot]: _due.append(_depot)"]
    if game.always_checked:
        always = code.constant(game.always_checked)
        due += [f"for _depot in {always}:", "    if _depot not in _recheck: _due.append(_depot)"]
    body = [
        "_recheck = S.touched",
        f"_has = {has}",
        f"_new_list = {code.constant(list)}",
        *due,
        "if not _due:",
        "    _recheck.clear()",
        "    return",
        "_due.sort()",
        "_stats = S.stats",
        f"_new_set = {code.constant(set)}",
        "_fired = 0",
        "while True:",
        "    _touched = _new_set()",
        "    S.touched = _touched",
        start,
        "    _fired_before = _fired",
        # Depots join _due only after the one being visited: the list iterator sees them.
        "    for _depot in _due:",
    ]
    if not blocks:
        body.append("        pass")
    elif len(blocks) == 1:
        body += ["        " + line for line in next(iter(blocks))]
    else:
        body.append(f"        _spec = {code.constant(tuple(specs))}[_depot]")
        for number, block in enumerate(blocks):
            body.append(f"        {'if' if number == 0 else 'elif'} _spec == {number}:")
            body += ["            " + line for line in block]
    unchanged = "P == _before" + (" and S.declared == _declared_before" if game.has_declarations else "")
    body += [
        "    if _fired == _fired_before: return",
        f"    if {unchanged}:",
        "        S.cascade = True",
        "        return",
        "    _recheck = _touched",
        *("    " + line for line in due),
        "    _due.sort()",
    ]
    if not game.triggers:
        body = ["_recheck = S.touched", "_recheck.clear()"]
    if makes_due:  # a trigger may make later depots due
        start_at = body.index("_fired = 0")
        body.insert(start_at, f"_insort = {code.constant(insort)}")
    return code.function("_settle", ["P", "S"], body, _ATTRIBUTES)
