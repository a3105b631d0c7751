"""The stock as one move: "draw k times, then play the waste's top card" is a single move.

A draw-three stock searched one tap at a time puts every tap on the search path, and
the positions between taps are all different. When the stock and its waste are
*separate* from the rest of the game, every winning line can be rearranged so that taps
come only right before a card is played from the waste: a tap changes nothing but the
stock and the waste, and no other move reads or changes them. Then the moves of a
position are its moves other than that tap, plus, for every number ``k`` of taps that
brings a new waste to view (this pass or the next ones, until the stock and waste come
back to a state already seen), each play from the waste after ``k`` taps.

The stock ``s`` and waste ``w`` of a draw are separate when (decided from the compiled
:class:`~cardz_tools.engine.Game`):

* no rule of the design other than the scoring names ``s`` or ``w``, or a group or type
  holding one of them (so no rule reads them);
* neither accepts dragged cards, ``s`` is locked, neither owns a trigger or an action,
  no effect moves cards from or to them, and no other draw touches them;
* the win does not count them, and there is no loss condition (a line rearranged never
  passes through a position the original did not, except for the stock and waste).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable, Iterator
from typing import Any

from ..expr import design_sites
from ..expr.sites import Site
from ..model import EjectKind

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_\[\]]*")
MAX_TAPS = 4096
"""The most taps one stock move looks ahead; a search that reaches it can no longer prove a loss."""


@dataclasses.dataclass(frozen=True)
class StockMoves:
    """The separate draws of a game: for each, its tap and the stock and waste it changes."""

    draws: tuple[Any, ...]

    def taps(self) -> frozenset[Any]:
        """The tap moves this replaces."""
        return frozenset(draw.move for draw in self.draws)

    def plays(self, state: Any) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
        """``(moves, child, complete)`` for every "k taps, then a play from the waste" of ``state``.

        ``complete`` is False when the look-ahead stopped at :data:`MAX_TAPS` before the
        stock came back to a state it had had.
        """
        game = state.game
        indexes = game.drag_indexes
        for draw in self.draws:
            current = state
            seen: set[Hashable] = {self._stock_key(current, draw)}
            taps: list[Any] = []
            while len(taps) < MAX_TAPS:
                if current.is_terminal() or draw.move not in current.legal_moves():
                    break
                current = current.clone()
                current.apply(draw.move)
                taps.append(draw.move)
                stock_key = self._stock_key(current, draw)
                if stock_key in seen:
                    break
                seen.add(stock_key)
                if current.is_terminal():
                    continue
                for move in current.legal_moves():
                    entry = indexes.get(id(move))
                    if entry is not None and entry[0] == draw.to:
                        child = current.clone()
                        child.apply(move)
                        yield (*taps, move), child, True
            else:
                yield (), state, False

    @staticmethod
    def _stock_key(state: Any, draw: Any) -> Hashable:
        return state.piles[draw.depot], state.piles[draw.to], state.redeals[draw.depot]


def stock_moves(game: Any) -> StockMoves | str:
    """The separate draws of ``game`` (module doc), or why there are none."""
    if not game.draws:
        return "it has no stock that draws"
    if game.loss_when is not None:
        return "it has a loss condition"
    design = game.design
    mentioned: set[str] = set()
    for site, text, _ in design_sites(design):
        if site is not Site.SCORING:
            mentioned.update(_IDENTIFIER.findall(text))
    effects = [effect for trigger in game.triggers for effect in trigger.effects]
    effects += [effect for action in game.actions for effect in action.effects]
    touched: set[int] = set()
    for effect in effects:
        for name in ("source", "target"):
            value = getattr(effect, name, None)
            if isinstance(value, int):
                touched.add(value)
        for name in ("members", "targets"):
            touched.update(getattr(effect, name, None) or ())
    owners = {t.depot for t in game.triggers} | {a.depot for a in game.actions}
    separate = []
    reasons = []
    for draw in game.draws:
        pair = (draw.depot, draw.to)
        names = {game.names[d] for d in pair}
        names |= {group for group, members in game.members.items() if set(members) & set(pair)}
        others = [d for d in game.draws if d is not draw and set(pair) & {d.depot, d.to}]
        if names & mentioned:
            reasons.append(f"a rule reads {game.names[draw.depot]} or {game.names[draw.to]}")
        elif any(not game.accept_never[d] for d in pair) or game.eject_kind[draw.depot] is not EjectKind.LOCKED:
            reasons.append(f"{game.names[draw.depot]} or {game.names[draw.to]} takes or gives cards")
        elif set(pair) & (touched | owners | set(game.win_depots)) or others:
            reasons.append(f"an effect, a trigger, another draw or the win touches {game.names[draw.depot]}")
        else:
            separate.append(draw)
    if not separate:
        return "; ".join(reasons)
    return StockMoves(tuple(separate))
