"""A beam search: the incomplete win-finder of the multi-suit Spider family.

Each level keeps the :data:`width` best positions (by the search's ordering score) among the new children of
the level before; a position stored once is never kept again, so the beam cannot go round in circles and
must go forward. In a design that deals its stock onto the columns (Spider, Spiderette), the best-first pass
spends its budget on the plateau of positions before a deal (every one of its positions scores better than the
deal's child, whose new cards lie loose), and the depth-first searches deal the whole stock within a few
hundred positions and spend the rest below it. The beam deals once the kept positions have no better child
left, which is when a strong player deals.

It is no proof of anything: a level drops every position but the best few. Its wins are wins (the caller
replays them through the engine); when a level has no new child it answers "unknown", never "lost".
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any

Options = Sequence[tuple[tuple[Any, ...], Any, Any, Hashable]]
"""The children a search's ``expand`` gives: (the moves that lead to it, the position or None, its score, its key)."""

Expand = Callable[[Any], tuple["list[Any] | None", Options]]
"""A search's expansion: (the moves of a win one choice away, or None; the new children, best first)."""


def beam(root: Any, prefix: Sequence[Any], expand: Expand, width: int) -> Generator[None, None, tuple[str, list[Any]]]:
    """A beam of ``width`` positions from ``root`` (reached by ``prefix``), yielding after each expansion;
    returns ("won", line from the deal) or ("unknown", []) (module doc). ``expand`` stores each child it
    gives, and gives none it stored before."""
    counter = itertools.count()
    # A line is kept as a link to its parent's (moves, parent link): no copies of long lines.
    Link = tuple[tuple[Any, ...], Any]
    level: list[tuple[Any, Link]] = [(root, (tuple(prefix), None))]
    while level:
        children: list[tuple[Any, int, tuple[Any, ...], Any, Any, Link]] = []
        for state, link in level:
            won, options = expand(state)
            if won is not None:
                parts = [tuple(won)]
                walk: Link | None = link
                while walk is not None:
                    parts.append(walk[0])
                    walk = walk[1]
                return "won", [move for part in reversed(parts) for move in part]
            for moves, child, score, _ in options:
                children.append((score, -next(counter), moves, child, state, link))
            yield
        level = []
        for _, _, moves, child, parent, link in heapq.nlargest(width, children, key=lambda entry: (entry[0], entry[1])):
            if child is None:  # a position with many moves keeps its moves only
                child = parent.clone()
                for move in moves:
                    child.apply(move)
            level.append((child, (moves, link)))
    return "unknown", []
