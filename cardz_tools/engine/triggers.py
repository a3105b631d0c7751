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

from ..expr.codegen import Block
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
    blocks: dict[tuple[str, ...], tuple[int, Block]] = {}
    makes_due = False  # whether a firing may make later depots due (its lines then call _insort)
    specs = [-1] * len(game.names)
    effects = code.constant(tuple(tuple(t.effects for t in triggers) for triggers in game.triggers_of))
    stats = code.constant(tuple(tuple(t.stat for t in triggers) for triggers in game.triggers_of))
    probes: dict[tuple[str, ...], tuple[int, Block]] = {}  # per spec: its tests alone, for the first look
    probe_specs = [-1] * len(game.names)
    for depot, triggers in enumerate(game.triggers_of):
        if not triggers:
            continue
        checks = Block()
        probe = Block()
        for number, (trigger, rule) in enumerate(zip(triggers, design.depots[depot].spec.triggers, strict=True)):
            # A pile read once is read in place: naming it would cost more than reading it.
            test = inline_rule(code, rule.when, Site.TRIGGER, design, {"depot": "_depot"}, "_pd", pile_once="P[_depot]")
            check = Block()
            if test.reads.get("_pd"):
                check.assign("_pd", "P[_depot]")
            # Before the first pass nothing is touched yet: a local trigger of a depot always checked is due
            # only while its depot is in recheck.
            looked = probe.nest("if _depot in _recheck:") if trigger.local and depot in game.always_checked else probe
            if test.reads.get("_pd"):
                looked.assign("_pd", "P[_depot]")
            looked.line(f"if {test.text}: break")
            fire = check.nest(f"if {test.text}:")
            snapshot = fire.nest("if _before is None:").assign("_before", "P[:]")
            if game.has_declarations:  # else every named suit stays -1 and needs no comparing
                snapshot.assign("_declared_before", "S.declared[:]")
            inline = [effect.inline("_depot") for effect in trigger.effects]
            reaches: set[int] | None
            if all(written is not None for written in inline):  # written out: no call per effect
                fire.lines(line for written in inline if written is not None for line in written.lines)
                # Written-out effects name the depots they change: -1 for the owner itself.
                reaches = {d for written in inline if written is not None for d in written.depots}
            else:
                fire.line(f"for _effect in {effects}[_depot][{number}]: _effect.run(S, _depot)")
                reaches = None
            # A depot that fired is checked again next pass, changed or not.
            fire.line("_touched.add(_depot)").line("_fired += 1")
            fire.line(f"if _stats is not None: _stats[{stats}[_depot][{number}]] += 1")
            fire.nest(f"if _fired > {int(limit)}:").line("S.cascade = True").line("return")
            if reaches is None or any(d >= 0 and game.has_trigger[d] for d in reaches):
                # Depots after this one that it changed are due later in the pass.
                makes_due = True
                fire.nest("for _later in _touched:").line(
                    "if _later > _depot and _has[_later] and _later not in _due: _insort(_due, _later)"
                )
            if trigger.local and depot in game.always_checked:
                # Any other depot is due only while in recheck or touched: the test would always hold.
                checks.nest("if _depot in _recheck or _depot in _touched:").add(check)
            else:
                checks.add(check)
        specs[depot] = blocks.setdefault(checks.key(), (len(blocks), checks))[0]
        probe_specs[depot] = probes.setdefault(probe.key(), (len(probes), probe))[0]
    # The constants in the order the closure has always listed them (the source stays byte for byte the same).
    has = code.constant(game.has_trigger)
    always = code.constant(game.always_checked) if game.always_checked else None
    new_list, new_set = code.constant(list), code.constant(set)
    spec_of = code.constant(tuple(specs)) if len(blocks) > 1 else None
    insorts = code.constant(insort) if makes_due else None
    if not game.triggers:
        body = Block().assign("_recheck", "S.touched").line("_recheck.clear()")
        return code.function("_settle", ["P", "S"], body.render(), _ATTRIBUTES)

    def by_spec(block: Block, table: dict[tuple[str, ...], tuple[int, Block]], spec_of: str | None) -> None:
        """The code of ``_depot``'s kind of trigger: the one kind's, else a branch on its number in ``spec_of``."""
        if spec_of is None:
            block.add(next(iter(table.values()))[1])
            return
        block.assign("_spec", f"{spec_of}[_depot]")
        for number, code_block in table.values():
            block.nest(f"{'if' if number == 0 else 'elif'} _spec == {number}:").add(code_block)

    def due(block: Block) -> Block:
        """A pass's due depots: those changed (or fired) that have a trigger, and those always checked."""
        block.assign("_due", "_new_list()")
        block.nest("for _depot in _recheck:").line("if _has[_depot]: _due.append(_depot)")
        if always is not None:
            block.nest(f"for _depot in {always}:").line("if _depot not in _recheck: _due.append(_depot)")
        return block

    body = Block().assign("_recheck", "S.touched").assign("_has", has).assign("_new_list", new_list)
    due(body).nest("if not _due:").line("_recheck.clear()").line("return")
    # Most moves fire nothing: the due triggers' tests first, in any order, on the piles as the move left them
    # (a pass that fires nothing changes nothing); settling goes on only when one holds.
    look = body.nest("for _depot in _due:")
    by_spec(look, probes, code.constant(tuple(probe_specs)) if len(probes) > 1 else None)
    body.nest("else:").line("_recheck.clear()").line("return")
    body.line("_due.sort()").assign("_stats", "S.stats").assign("_new_set", new_set)
    if insorts is not None:  # a trigger may make later depots due
        body.assign("_insort", insorts)
    body.assign("_fired", "0")
    passes = body.nest("while True:")
    passes.assign("_touched", "_new_set()").line("S.touched = _touched")
    passes.line("_before = _declared_before = None" if game.has_declarations else "_before = None")
    passes.assign("_fired_before", "_fired")
    # Depots join _due only after the one being visited: the list iterator sees them.
    by_spec(passes.nest("for _depot in _due:"), blocks, spec_of)
    unchanged = "P == _before" + (" and S.declared == _declared_before" if game.has_declarations else "")
    passes.line("if _fired == _fired_before: return")
    passes.nest(f"if {unchanged}:").line("S.cascade = True").line("return")
    passes.line("_recheck = _touched")
    due(passes).line("_due.sort()")
    return code.function("_settle", ["P", "S"], body.render(), _ATTRIBUTES)
