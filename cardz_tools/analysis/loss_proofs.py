"""Positions a depth-first search has proved lost before it ends, for the other searches of a portfolio.

A depth-first search with a transposition table skips a child it has stored before. When it has
searched a position's last child, that position is not yet proved lost: a child it skipped may be
one of its own ancestors, still on the stack, or a child an ancestor has stored but not searched
yet, and either may still lead to a win along another line. The position is lost once every
position it depends on is (Tarjan's strongly connected components): each searched position gets an
index in the order it is searched, and its *low*, the least index it depends on,

* its own index;
* the index of a stored child not yet proved lost: a searched one's own, and for one still waiting on
  some ancestor's list of children, that ancestor's (it will be searched below that ancestor); a child the
  tap cover skips counts as the stored position whose taps lead to it (:class:`.stock_moves.TapCover`: every line
  of the child is a line of that one after the taps, so it is lost once that one is);
* the low of each child it searched (passed up when the child is done).

A position whose low is its own index when its last child is done depends on nothing outside what was
searched below it: it, and every position searched below it not yet proved, are lost (the search found
no win there, and everything they lead to is searched, proved lost, or an end that is not a win). Every
pruning piece of the search keeps "no win below" true (each is sound alone), so the proof holds for any
search that keys positions alike, whatever its order, its pruning or its budget, and stays true after
the search that made it is stopped.

A search that cut something (a line longer than :data:`.tableau_search.MAX_LINE`, an unfinished stock
play) proves nothing from then on: a cut child lies below a position on the stack, so no proof made
before depends on it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

Mark = list[int]
"""[index, low, place in the trail] of a position on the search's stack."""


class LossProofs:
    """The bookkeeping of one depth-first search that adds the positions it proves lost to ``lost``."""

    def __init__(self, lost: set[Hashable]) -> None:
        self.lost = lost
        self._index: dict[Hashable, int] = {}
        """Stored positions not yet proved: a searched one's index; a child waiting to be searched, the index of
        the position whose list of children holds it."""
        self._trail: list[Hashable] = []
        """The searched positions not yet proved, in the order they were searched."""
        self._count = 0

    def searched(self, key: Hashable, skipped: Iterable[Hashable], children: Iterable[Hashable]) -> Mark:
        """The mark of the position ``key`` just expanded: ``skipped``, the stored children its expansion
        left out; ``children``, the keys of the children it will search."""
        index = self._count
        self._count += 1
        table = self._index
        table[key] = index
        low = index
        get = table.get
        for other in skipped:
            depends = get(other)
            if depends is not None and depends < low:
                low = depends
        for child in children:
            table[child] = index
        mark = [index, low, len(self._trail)]
        self._trail.append(key)
        return mark

    def done(self, mark: Mark, parent: Mark | None) -> None:
        """The position of ``mark`` has had its last child searched: prove it lost with everything searched
        below it, if it depends on nothing above it; else pass its low up to ``parent``."""
        index, low, place = mark
        if low == index:
            trail, table, lost = self._trail, self._index, self.lost
            for key in trail[place:]:
                lost.add(key)
                del table[key]
            del trail[place:]
        elif parent is not None and low < parent[1]:
            parent[1] = low

    def drop(self, key: Hashable) -> None:
        """Forget the waiting child ``key``: another search proved it lost before this one got to it."""
        self._index.pop(key, None)
