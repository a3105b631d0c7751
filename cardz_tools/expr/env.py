"""What a design contributes to expressions: its depot and group names and its board."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

from ..model import DepotType, Design
from .types import ABSENT_DEPOT

__all__ = ["DesignEnv"]

DEPOT_TYPE_NAMES: tuple[str, ...] = tuple(t.value for t in DepotType)


@dataclasses.dataclass(frozen=True)
class DesignEnv:
    """Names and static board facts of one design, indexed by depot index.

    ``depots`` maps single depots' names to their index; ``groups`` maps group names
    (``repeat`` entries) and depot types to member indexes. Per-depot tuples hold
    board position (``board``), index in the group (``member``), grid column/row in
    the group (``grid``) and the members of the depot's own group (``siblings``).
    """

    depot_names: tuple[str, ...] = ()
    depots: Mapping[str, int] = dataclasses.field(default_factory=dict)
    groups: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    board: tuple[tuple[float, float], ...] = ()
    member: tuple[int, ...] = ()
    grid: tuple[tuple[int, int], ...] = ()
    siblings: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def from_design(cls, design: Design) -> DesignEnv:
        """The environment of ``design``."""
        depots: dict[str, int] = {}
        groups: dict[str, tuple[int, ...]] = {}
        for spec in design.specs:
            members = tuple(d.index for d in design.depots if d.spec is spec)
            if spec.is_group:
                groups[spec.name] = members
            elif members:
                depots[spec.name] = members[0]
        for depot_type in DepotType:
            groups.setdefault(depot_type.value, tuple(d.index for d in design.depots if d.type is depot_type))
        spec_members = {id(spec): tuple(d.index for d in design.depots if d.spec is spec) for spec in design.specs}
        return cls(
            depot_names=tuple(d.name for d in design.depots),
            depots=depots,
            groups=groups,
            board=tuple((d.col, d.row) for d in design.depots),
            member=tuple(d.member for d in design.depots),
            grid=tuple((d.grid_col, d.grid_row) for d in design.depots),
            siblings=tuple(spec_members[id(d.spec)] for d in design.depots),
        )

    @property
    def size(self) -> int:
        """Number of depots."""
        return len(self.depot_names)

    @property
    def group_names(self) -> tuple[str, ...]:
        """Names of ``repeat`` groups (depot types excluded)."""
        return tuple(name for name in self.groups if name not in DEPOT_TYPE_NAMES)

    def adjacent(self, a: int, b: int) -> bool:
        """Whether two different depots touch on the board (8-neighbourhood)."""
        if a == b or a < 0 or b < 0:
            return False
        (ca, ra), (cb, rb) = self.board[a], self.board[b]
        return abs(ca - cb) <= 1 and abs(ra - rb) <= 1

    def at(self, members: tuple[int, ...], grid_row: int, grid_col: int) -> int:
        """The first of ``members`` at that place of its group's grid, or -1 (``at(g, r, c)``)."""
        return self.grid_places(members).get((grid_col, grid_row), ABSENT_DEPOT)

    def grid_places(self, members: tuple[int, ...]) -> Mapping[tuple[int, int], int]:
        """``(grid col, grid row) -> depot`` for a group's members; the first one wins a shared place."""
        cache = self._places
        if members not in cache:
            places: dict[tuple[int, int], int] = {}
            for index in members:
                places.setdefault(self.grid[index], index)
            cache[members] = places
        return cache[members]

    @functools.cached_property
    def _places(self) -> dict[tuple[int, ...], Mapping[tuple[int, int], int]]:
        return {}

    @functools.cached_property
    def overlapping(self) -> tuple[tuple[int, ...], ...]:
        """For ``covered(d)``: the later depots whose board rectangles overlap depot ``d``'s.

        Each depot is the rectangle ``[col, col + 1) × [row, row + 1)``; rectangles that
        only touch do not overlap.
        """
        board = self.board
        return tuple(
            tuple(later for later in range(d + 1, len(board))
                  if abs(board[later][0] - col) < 1 and abs(board[later][1] - row) < 1)
            for d, (col, row) in enumerate(board)
        )

    @functools.cached_property
    def neighbours(self) -> Mapping[str, tuple[int, ...]]:
        """For ``left``/``right``/``above``/``below``: the neighbour of each depot in its group's grid, or -1."""
        where: dict[tuple[int, int, int], int] = {}
        for index, (col, row) in enumerate(self.grid):
            where[(self.siblings[index][0], col, row)] = index
        table: dict[str, tuple[int, ...]] = {}
        for name, (dc, dr) in {"left": (-1, 0), "right": (1, 0), "above": (0, -1), "below": (0, 1)}.items():
            table[name] = tuple(
                where.get((self.siblings[i][0], col + dc, row + dr), ABSENT_DEPOT)
                for i, (col, row) in enumerate(self.grid)
            )
        return table
