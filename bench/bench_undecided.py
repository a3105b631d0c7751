"""Why deals stay undecided: wins the portfolio has not found, or losses it has not proven.

    python bench/bench_undecided.py [--games klondike,canfield] [--deals N] [--seed S]
                                    [--budget N] [--factor K] [--narrowed]

Every deal is solved with the portfolio (``Pruning()``) at ``--budget`` positions. Each deal it
leaves unknown is then searched again at ``--factor`` times that budget, by each member alone:
the greedy best-first pass (``quick``, wins only unless it runs out), the depth-first search
with every piece (``search``: wins and proofs) and the depth-first search in the plain order
without stock moves (``plain``); with ``--narrowed``, also the depth-first search over the narrowed
move set of the ``runs`` members (``narrowed``: wins only). Budgets are positions, so the answers do not depend on the
load of the machine. The table gives, per deal, what each member found and in how many
positions, and the CPU seconds of the whole run; the totals count the unknown deals that turn
out won (some member found a win) and lost (a complete member proved it), and those still open.
Published winnability says how many of the open ones to expect to be wins.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.run_moves import run_moves  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.tableau_search import (  # noqa: E402
    Pruning,
    _Budget,
    _Search,
    plan_for,
    replays_to_a_win,
    search,
)
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def alone(root: object, member: str, budget: int) -> tuple[str, int]:
    """(result, positions) of one portfolio member searching alone with ``budget`` positions; ``narrowed`` is
    the depth-first search over the ``runs`` members' move set (:mod:`.run_moves`) even where the portfolio
    leaves those members out (a trigger refills emptied depots): incomplete, its "lost" proves nothing."""
    pruning = Pruning(quick=False)
    if member == "plain":
        pruning = dataclasses.replace(pruning, ordering=False, stock=False)
    plan = plan_for(root.game, pruning)  # type: ignore[attr-defined]
    if member == "narrowed":
        game = root.game  # type: ignore[attr-defined]
        narrowed = run_moves(game, tuple(d for d in range(len(game.names)) if d not in game.win_depots))
        if isinstance(narrowed, str):
            return f"no narrowed set: {narrowed}", 0
        plan = dataclasses.replace(plan, runs=narrowed)
    found = _Search(root, plan, pruning, budget, None, narrow=member == "narrowed")
    steps = found.best_first() if member == "quick" else found.run()
    try:
        while True:
            next(steps)
    except StopIteration as done:
        result, line = done.value
    except _Budget:
        result, line = "unknown", []
    if result == "won" and not replays_to_a_win(root, line):
        raise AssertionError(f"{member}: a win that does not replay")
    return result, len(found.seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="klondike,canfield")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--factor", type=int, default=5)
    parser.add_argument("--narrowed", action="store_true", help="also the depth-first search over the narrowed set")
    args = parser.parse_args()
    for name in args.games.split(","):
        started = time.process_time()
        game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
        won = lost = still = 0
        print(f"{name}: {args.deals} deals of seed {args.seed}, portfolio at {args.budget:,} positions, "
              f"members alone at {args.factor * args.budget:,}")
        for index in range(args.deals):
            root = game.new_initial_state(seed=deal_seed(args.seed, index))
            first = search(root, args.budget, None, Pruning())
            if first.result != "unknown":
                print(f"  deal {index:3}: {first.result} by the portfolio ({first.nodes:,} positions, {first.stage})")
                continue
            members = ("quick", "search", "plain", "narrowed") if args.narrowed else ("quick", "search", "plain")
            answers = {member: alone(root, member, args.factor * args.budget) for member in members}
            cells = ", ".join(f"{member} {result} ({nodes:,})" for member, (result, nodes) in answers.items())
            if any(result == "won" for result, _ in answers.values()):  # a narrowed win is a win too
                won += 1
            elif answers["search"][0] == "lost" or answers["plain"][0] == "lost":
                lost += 1
            else:
                still += 1
            print(f"  deal {index:3}: unknown; alone: {cells}")
        print(f"  unknown deals: {won} won, {lost} lost, {still} still open; "
              f"{time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    main()
