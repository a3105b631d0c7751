"""The compact searches the solver tries before its search over engine states.

Each one recognises its shape of game from the compiled design and returns None for any
other design, so :func:`compact_solve` answers with the first that fits, or None: then the
general search (:func:`.solve.search_states`) runs. Each gives the answers of
:func:`.solve.solve_state`: a winning line replayed through the engine, "lost" only from a
complete search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .grid_search import grid_solve
from .pair_search import pair_solve
from .row_search import row_solve
from .sink_search import compact_solve as sink_solve

CompactSolver = Callable[[Any, int, "float | None"], "tuple[str, list[Any], int] | None"]

COMPACT_SEARCHES: tuple[CompactSolver, ...] = (sink_solve, pair_solve, row_solve, grid_solve)
"""Sink games (:mod:`.sink_search`), pair games (:mod:`.pair_search`), row games (:mod:`.row_search`),
grid games (:mod:`.grid_search`)."""


def compact_solve(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """Solve ``state`` with the first compact search whose shape the design has, or None."""
    for search in COMPACT_SEARCHES:
        answer = search(state, budget, deadline)
        if answer is not None:
            return answer
    return None
