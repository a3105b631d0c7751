"""The compact search of sink games against the search over engine states, in one run;
then the pruned search over engine states against the plain one, and what each piece buys.

    python bench/bench_solve.py [--deals N] [--budget N] [--tableau-deals N] [--deal-seconds S] [--only sink|tableau]

Both searches get the same deals and the same position budget. For each sink game it
prints how many deals each decided (won or proved lost), their CPU time, positions per
second, and the ratio of the times (engine-state search / compact search): how many
times faster the compact search reaches its answers. Decided deals must agree.

For the tableau games (:data:`TABLEAU_GAMES`) every deal gets the same time per deal
(``--deal-seconds``) under the search as it was (:meth:`Pruning.none`), under the search
with every pruning piece, and with each piece switched off in turn (the ablation table of
Blake & Gent, JAIR 2026): deals decided, total time (an undecided deal counts its whole
budget) and positions, and the ratio of the times of the plain and the pruned search.

For the searches of issue 15 part 2 (``--only compact``) every deal gets the same budget and
``--deal-seconds`` of CPU under the solver before them and now: the sink search with its
rank-reachability test and restarts against the same search without them (Golf, Black
Hole), the pair search (Pyramid) and the row search (Accordion) against the plain
engine-state search. It prints deals decided, CPU seconds, deals decided per CPU second and
the ratio of the times.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.grid_search import grid_solve  # noqa: E402
from cardz_tools.analysis.pair_search import pair_solve  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.row_search import row_solve  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.sink_search import CompactSearch, compact_solve  # noqa: E402
from cardz_tools.analysis.solve import MAX_POSITIONS, search_states  # noqa: E402
from cardz_tools.analysis.tableau_search import Pruning, search  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
SINK_GAMES = ("golf", "golf-queen-on-king", "golf-wrap", "black-hole")
TABLEAU_GAMES = (
    "freecell", "bakers-game", "klondike", "klondike-draw-one", "canfield", "spider-one-suit", "weathervane-6",
    "chateau-de-cartes",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=int, default=200_000)
    parser.add_argument("--tableau-deals", type=int, default=3)
    parser.add_argument("--deal-seconds", type=float, default=5.0)
    parser.add_argument("--games", default=",".join(TABLEAU_GAMES), help="Tableau games, comma-separated.")
    parser.add_argument("--only", choices=("sink", "tableau", "compact"))
    args = parser.parse_args()
    if args.only in (None, "sink"):
        sink_games(args)
    if args.only in (None, "tableau"):
        tableau_games(args)
    if args.only in (None, "compact"):
        compact_games(args)


def sink_games(args: argparse.Namespace) -> None:
    """The compact search against the search over engine states (module doc)."""
    print(f"budget {args.budget:,} positions per deal, {args.deals} deals per game (seed 0)")
    print(f"{'game':<20} {'engine-state search':>34} {'compact search':>34} {'time ratio':>10}")
    for name in SINK_GAMES:
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        totals = {"engine": [0, 0.0, 0], "compact": [0, 0.0, 0]}  # decided, seconds, positions
        for index in range(args.deals):
            state = game.new_initial_state(seed=deal_seed(0, index))
            answers = {}
            for side in ("engine", "compact"):
                started = time.process_time()
                if side == "engine":
                    result, _, nodes = search_states(state.clone(), args.budget)
                else:
                    answer = compact_solve(state.clone(), args.budget, None)
                    assert answer is not None, f"{name} is not a sink game"
                    result, _, nodes = answer
                totals[side][1] += time.process_time() - started
                totals[side][2] += nodes
                totals[side][0] += result != "unknown"
                answers[side] = result
            if "unknown" not in answers.values():
                assert answers["engine"] == answers["compact"], f"{name} deal {index}: {answers}"
        cells = []
        for side in ("engine", "compact"):
            decided, seconds, nodes = totals[side]
            cells.append(f"{decided:>2}/{args.deals} decided {seconds:7.1f} s {nodes / seconds / 1000:5.0f}k pos/s")
        ratio = totals["engine"][1] / totals["compact"][1]
        print(f"{name:<20} {cells[0]:>34} {cells[1]:>34} {ratio:>9.1f}x")


def _configurations() -> list[tuple[str, Pruning]]:
    pieces = [field.name for field in dataclasses.fields(Pruning)]
    rows = [("plain (as before)", Pruning.none()), ("all pieces", Pruning())]
    rows += [(f"  without {piece}", dataclasses.replace(Pruning(), **{piece: False})) for piece in pieces]
    return rows


def tableau_games(args: argparse.Namespace) -> None:
    """The pruned search against the plain one, and the ablation table (module doc)."""
    print(f"\n{args.deal_seconds:g} s per deal, {args.tableau_deals} deals per game (seed 101); CPU seconds")
    print(f"{'game / search':<28} {'decided':>8} {'seconds':>9} {'positions':>10}")
    for name in args.games.split(","):
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        deals = [game.new_initial_state(seed=deal_seed(101, i)) for i in range(args.tableau_deals)]
        print(name)
        answers: dict[int, str] = {}
        seconds: dict[str, float] = {}
        for label, pruning in _configurations():
            decided, spent, nodes = 0, 0.0, 0
            for index, state in enumerate(deals):
                started, clock = time.process_time(), time.monotonic()
                found = search(state.clone(), 10**8, clock + args.deal_seconds, pruning)
                spent += time.process_time() - started
                nodes += found.nodes
                if found.result != "unknown":
                    decided += 1
                    earlier = answers.setdefault(index, found.result)
                    assert earlier == found.result, f"{name} deal {index}: {label} says {found.result}, not {earlier}"
            seconds[label] = spent
            print(f"  {label:<26} {decided:>4}/{len(deals):<3} {spent:>9.1f} {nodes:>10,}")
        ratio = seconds["plain (as before)"] / max(seconds["all pieces"], 1e-9)
        print(f"  time ratio plain / all pieces: {ratio:.1f}x")


Solver = Callable[[Any, int, "float | None"], "tuple[str, list[Any], int] | None"]


def _as_before(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int] | None:
    """The sink search as it was before issue 15: no rank-reachability test, no restarts."""
    found = CompactSearch.of(state)
    if found is None:
        return None
    found._unreachable = lambda *_: False  # type: ignore[method-assign]
    return found.search(budget, deadline, restarts=False)


def _engine(state: Any, budget: int, deadline: float | None) -> tuple[str, list[Any], int]:
    """The plain search over engine states (its memory bound kept)."""
    return search_states(state, min(budget, MAX_POSITIONS), deadline)


NEW_AGAINST_OLD: tuple[tuple[str, Solver, Solver], ...] = (
    ("golf-queen-on-king", compact_solve, _as_before),
    ("black-hole", compact_solve, _as_before),
    ("pyramid", pair_solve, _engine),
    ("accordion", row_solve, _engine),
    ("gaps-no-redeal", grid_solve, _engine),
)


def compact_games(args: argparse.Namespace) -> None:
    """The compact searches of issue 15 part 2 against the solver before them (module doc)."""
    print(f"\nbudget {args.budget:,} positions and {args.deal_seconds:g} CPU s per deal, {args.deals} deals (seed 101)")
    print(f"{'game':<20} {'before':>36} {'now':>36} {'time ratio':>10}")
    for name, new, old in NEW_AGAINST_OLD:
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        totals = {"old": [0, 0.0], "new": [0, 0.0]}
        for index in range(args.deals):
            state = game.new_initial_state(seed=deal_seed(101, index))
            answers = {}
            for side, solver in (("old", old), ("new", new)):
                started = time.process_time()
                answer = _within_cpu(solver, state.clone(), args.budget, args.deal_seconds)
                totals[side][1] += time.process_time() - started
                totals[side][0] += answer != "unknown"
                answers[side] = answer
            if "unknown" not in answers.values():
                assert answers["old"] == answers["new"], f"{name} deal {index}: {answers}"
        cells = []
        for side in ("old", "new"):
            decided, seconds = totals[side]
            cells.append(f"{decided:>2}/{args.deals} decided {seconds:7.1f} s {decided / seconds:6.2f} deals/s")
        ratio = totals["old"][1] / totals["new"][1]
        print(f"{name:<20} {cells[0]:>36} {cells[1]:>36} {ratio:>9.1f}x")


def _within_cpu(solver: Solver, state: Any, budget: int, seconds: float) -> str:
    """The solver's answer within ``seconds`` of CPU time.

    The searches take a wall-clock deadline; on a shared machine that is a generous multiple
    of ``seconds``, and an answer that took more CPU time than ``seconds`` counts as unknown.
    """
    started = time.process_time()
    answer = solver(state, budget, time.monotonic() + seconds * 10)
    assert answer is not None
    result = answer[0]
    return "unknown" if time.process_time() - started > seconds else result


if __name__ == "__main__":
    main()
