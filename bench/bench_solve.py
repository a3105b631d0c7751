"""The compact search of sink games against the search over engine states, in one run;
then the pruned search over engine states against the plain one, and what each piece buys.

    python bench/bench_solve.py [--deals N] [--budget N] [--tableau-deals N] [--deal-seconds S] [--only sink|tableau]
    python bench/bench_solve.py --only open [--baseline CHECKOUT] [--open-deals N] [--open-budget N] [--done-when]
    python bench/bench_solve.py --only stock [--baseline CHECKOUT] [--open-deals N] [--open-budget N]

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
Hole), the pair search (Pyramid) and the row search (Accordion, Late Binding) against the plain
engine-state search. It prints deals decided, CPU seconds, deals decided per CPU second and
the ratio of the times.

For the open tableau games (:data:`OPEN_GAMES`, ``--only open``) ``cardz solve`` runs as a
command, in this tree and, with ``--baseline``, in another checkout (say one made with ``git
archive``), on the same deals of seed 101 with the same fixed position budget and one worker,
taking turns ``--repeat`` times: the node counts and verdicts must be identical deal by deal
(a faster search must search the same positions), and it prints the least CPU seconds of each
and their ratio (baseline / this).
``--only stock`` does the same for the two-deck stock games (:data:`STOCK_GAMES`), whose search
spends its time following the stock.
``--done-when`` adds issue 15's FreeCell measure: 20 deals of seed 101, ``--deal-seconds 10
--workers 2``, every deal decided and a mean under 1 s per deal (wall clock: print the load).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import resource
import subprocess
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
    "chateau-de-cartes", "spiderette", "east-haven", "spider",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=int, default=200_000)
    parser.add_argument("--tableau-deals", type=int, default=3)
    parser.add_argument("--deal-seconds", type=float, default=5.0)
    parser.add_argument("--games", default=",".join(TABLEAU_GAMES), help="Tableau games, comma-separated.")
    parser.add_argument("--only", choices=("sink", "tableau", "compact", "open", "stock"))
    parser.add_argument("--baseline", type=pathlib.Path, default=None, help="A checkout to compare open games with.")
    parser.add_argument("--open-games", default=",".join(OPEN_GAMES), help="Open tableau games, comma-separated.")
    parser.add_argument("--open-deals", type=int, default=5)
    parser.add_argument("--open-budget", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=2, help="Runs of each side of the open games (least CPU).")
    parser.add_argument("--done-when", action="store_true", help="Also FreeCell's done-when run (20 deals, 10 s).")
    args = parser.parse_args()
    if args.only in (None, "sink"):
        sink_games(args)
    if args.only in (None, "tableau"):
        tableau_games(args)
    if args.only in (None, "compact"):
        compact_games(args)
    if args.only in (None, "open"):
        open_games(args)
    if args.only == "stock":
        args.open_games = ",".join(STOCK_GAMES)
        open_games(args)


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
    ("late-binding", row_solve, _engine),
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


OPEN_GAMES = ("freecell", "beleaguered-castle", "king-albert", "fan", "bakers-dozen", "flower-garden")
"""Open tableau games (every card visible, no stock) of issue 15's node-rate work."""
STOCK_GAMES = ("gargantua-redeal", "klondike-two-deck-9", "ultra-klondike-2-deck", "forty-thieves")
"""Two-deck stock games of issue 15 (``--only stock``): the plays after each tap of the stock."""
ROOT = pathlib.Path(__file__).resolve().parents[1]


def _solve_command(checkout: pathlib.Path, game: str, options: list[str]) -> tuple[dict[str, Any], float, float]:
    """(the JSON report, CPU seconds, wall seconds) of ``cardz solve`` run from ``checkout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "cardz_tools", "solve", str(checkout / "games" / f"{game}.cardz"),
               "--seed", "101", "--no-cache", "--format", "json", *options]
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return json.loads(done.stdout), cpu, wall


def open_games(args: argparse.Namespace) -> None:
    """This tree's search against ``--baseline``'s on the open tableau games (module doc)."""
    sides = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline is not None else [])
    print(f"\nopen games: {args.open_deals} deals (seed 101), {args.open_budget:,} positions each, 1 worker; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'game':<20} {'decided':>8} {'positions':>10} {'CPU s (this)':>13} {'CPU s (base)':>13} {'ratio':>6}"
          "  nodes")
    fixed = ["-n", str(args.open_deals), "--budget", str(args.open_budget), "--workers", "1"]
    for game in args.open_games.split(","):
        reports: dict[str, dict[str, Any]] = {}
        cpu: dict[str, float] = {}
        for _ in range(args.repeat):  # the sides take turns; each keeps its least CPU (a shared machine)
            for label, checkout in sides:
                reports[label], spent, _ = _solve_command(checkout, game, fixed)
                cpu[label] = min(spent, cpu.get(label, spent))
        this = reports["this"]
        runs = [(d["result"], d["nodes"]) for d in this["per_deal"]]
        same = "" if "baseline" not in reports else (
            "identical" if runs == [(d["result"], d["nodes"]) for d in reports["baseline"]["per_deal"]] else "DIFFER"
        )
        base = f"{cpu['baseline']:13.2f}" if "baseline" in cpu else f"{'-':>13}"
        ratio = f"{cpu['baseline'] / cpu['this']:5.2f}x" if "baseline" in cpu else f"{'-':>6}"
        decided = this["won"] + this["lost"]
        positions = sum(n for _, n in runs)
        print(f"{game:<20} {decided:>4}/{args.open_deals:<3} {positions:>10,} {cpu['this']:13.2f} {base} {ratio}"
              f"  {same}")
    if args.done_when:
        load = os.getloadavg()[0]
        print(f"\nFreeCell done-when: 20 deals of seed 101, --deal-seconds 10 --workers 2; load {load:.1f}")
        for label, checkout in sides:
            report, spent, wall = _solve_command(
                checkout, "freecell", ["-n", "20", "--deal-seconds", "10", "--budget", "100000000", "--workers", "2"]
            )
            seconds = [d["seconds"] for d in report["per_deal"]]
            mean = sum(seconds) / len(seconds)
            verdict = "met" if report["unknown"] == 0 and mean < 1 else "not met"
            decided = report["won"] + report["lost"]
            print(f"  {label:<9} decided {decided}/20, mean {mean:.2f} s, max {max(seconds):.2f} s a deal, "
                  f"{wall:.1f} s wall, {spent:.1f} CPU-s: {verdict}")
        print(f"  load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
