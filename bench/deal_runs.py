"""The search's portfolio over a run of deals: what the benches comparing two settings of it print.

Each bench sets up one side of its comparison (a piece switched on or off) and calls
:func:`portfolio_run` on the same deals and budget for both sides, with no time bound, so that
the counts are deterministic whatever the machine's load; :func:`print_comparison` prints the two.
"""

from __future__ import annotations

import pathlib
import sys
import time
from collections.abc import Iterable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.engine import Game  # noqa: E402


def portfolio_run(
    game: Game, deals: Iterable[int], seed: int, budget: int, pruning: tableau_search.Pruning | None = None
) -> tuple[str, int, float]:
    """(the verdicts, w won, l lost, . unknown; the positions of all the deals; the CPU seconds) of
    :func:`.tableau_search.search` on ``deals`` of ``seed``; a win that does not replay stops the bench."""
    pruning = tableau_search.Pruning() if pruning is None else pruning
    verdicts, positions = [], 0
    started = time.process_time()
    for index in deals:
        root = game.new_initial_state(seed=deal_seed(seed, index))
        found = tableau_search.search(root, budget, None, pruning)
        if found.result == "won" and not tableau_search.replays_to_a_win(root, found.line):
            raise SystemExit(f"deal {index}: a win that does not replay")
        verdicts.append(found.result[0] if found.result != "unknown" else ".")
        positions += found.nodes
    return "".join(verdicts), positions, time.process_time() - started


Run = tuple[str, int, float]
"""What :func:`portfolio_run` gives: the verdicts, the positions, the CPU seconds."""


def print_comparison(name: str, first: tuple[str, Run], second: tuple[str, Run]) -> None:
    """Print each side's verdicts, deals decided, positions and CPU seconds, then the ratio of their positions
    (first / second); verdicts that contradict each other (a deal won on one side, lost on the other) stop the
    bench."""
    width = max(len(first[0]), len(second[0]))
    for label, (verdicts, positions, cpu) in (first, second):
        decided = sum(v != "." for v in verdicts)
        print(f"{name:16} {label:{width}} {verdicts}  decided {decided:2}  positions {positions:>9,}  CPU {cpu:6.1f} s")
    pairs = enumerate(zip(first[1][0], second[1][0], strict=True))
    disagree = [i for i, (a, b) in pairs if "." not in (a, b) and a != b]
    if disagree:
        raise SystemExit(f"{name}: the verdicts disagree on deals {disagree}")
    print(f"{name:16} positions {first[0]} / {second[0]}: {first[1][1] / max(1, second[1][1]):.2f}")
