"""The grid portfolio's shares replayed: each member of ``grid_solve`` alone once, then any schedule over those runs.

    python bench/bench_grid_shares.py collect --member quick|looser|complete [--game gaps-no-redeal] [--seed S]
                                      [--deals 0,1,2] [--budget N] >> runs.jsonl
    python bench/bench_grid_shares.py simulate runs.jsonl [--budget N] [--schedule NAME=Q,L,C/L2,C2@POSITIONS ...]

``collect`` searches each deal with one member alone (the first quick pass, the looser one newest first, or the
complete depth-first search) up to ``--budget`` positions and prints one JSON line a deal: its result, positions
and whether the pass searched all its streamliner allows. The members of ``grid_solve`` share nothing, so the
portfolio's verdict for any schedule follows from where each decides alone: ``simulate`` gives the members turns
of :data:`TURN` positions, ``Q``, ``L`` and ``C`` turns a round (quick, looser, complete) while the quick pass
has had fewer than ``POSITIONS`` (and has not run dry), then ``L2`` and ``C2``; ``current`` is the schedule of
``grid_solve`` where first-column cards trade places (quick 1, complete 3; the looser pass only once the first has
run dry). Per schedule it prints the deals won within ``--budget``, then per deal the positions of the portfolio
at its win with no bound (``-`` when the runs collected do not reach one; ``*`` when the schedule would ask some
member for more positions than its run has: collect further).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.grid_search import GridSearch, _finish  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
TURN = 4096
"""Positions a turn (:data:`cardz_tools.analysis.grid_search.CLOCK_EVERY`)."""
MEMBERS = ("quick", "looser", "complete")
UNBOUND = 20_000_000
"""The portfolio's positions at which a deal's win with "no bound" is looked for."""


@dataclasses.dataclass(frozen=True)
class Run:
    """One member alone on one deal."""

    result: str
    nodes: int
    exhausted: bool


@dataclasses.dataclass(frozen=True)
class Schedule:
    """Turns a round per member (quick, looser, complete) before and after the quick pass's early share."""

    early: tuple[int, int, int]
    late: tuple[int, int, int]
    quick_early: int
    looser_after_dry: bool = False


CURRENT = Schedule((1, 0, 3), (1, 0, 3), 0, looser_after_dry=True)


def collect(args: argparse.Namespace) -> None:
    """Print one JSON line a deal: ``args.member`` alone up to ``args.budget`` positions."""
    game = game_for(open_design(GAMES / f"{args.game}.cardz").json_text)
    for deal in [int(part) for part in args.deals.split(",")]:
        search = GridSearch.of(game.new_initial_state(seed=deal_seed(args.seed, deal)))
        assert search is not None, "not a grid game"
        search.looser = search.newest_first = args.member == "looser"
        complete = args.member == "complete"
        run = search.depth_first(args.budget, None) if complete else search.best_first(args.budget, None)
        result, _, nodes = _finish(run)
        line = {"member": args.member, "seed": args.seed, "deal": deal, "result": result, "nodes": nodes}
        print(json.dumps({**line, "exhausted": search.exhausted}), flush=True)


def load(path: pathlib.Path) -> dict[int, dict[str, Run]]:
    """The runs of a ``collect`` file by deal and member (the one that went furthest or decided)."""
    runs: dict[int, dict[str, Run]] = {}
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.startswith("{"):
            continue
        row = json.loads(text)
        run = Run(row["result"], row["nodes"], row["exhausted"])
        old = runs.setdefault(row["deal"], {}).get(row["member"])
        if old is None or (old.result == "unknown" and not old.exhausted and (run.nodes > old.nodes or run.exhausted)):
            runs[row["deal"]][row["member"]] = run
    return runs


def simulate(runs: dict[str, Run], schedule: Schedule, budget: int) -> tuple[str, int, bool]:
    """(result, positions of the portfolio, whether a member was asked past its run) for one deal."""
    nodes = dict.fromkeys(MEMBERS, 0)
    alive = {"quick", "complete"} if schedule.looser_after_dry else set(MEMBERS)
    past = False
    while alive:
        early = "quick" in alive and nodes["quick"] < schedule.quick_early
        turns = dict(zip(MEMBERS, schedule.early if early else schedule.late, strict=True))
        if schedule.looser_after_dry and "quick" not in alive:
            turns["looser"] = max(turns["looser"], turns["quick"])
        if not any(turns[member] for member in alive):
            break
        for member in ("quick", "complete", "looser"):
            if member not in alive or not turns[member]:
                continue
            run = runs.get(member, Run("unknown", 0, False))
            nodes[member] += TURN * turns[member]
            if run.result != "unknown" or run.exhausted:
                if nodes[member] >= run.nodes:
                    nodes[member] = run.nodes
                    if run.result != "unknown":
                        return run.result, sum(nodes.values()), past
                    alive.discard(member)
                    if member == "quick" and schedule.looser_after_dry:
                        alive.add("looser")
            elif nodes[member] > run.nodes:
                past = True
            if sum(nodes.values()) > budget:
                return "unknown", sum(nodes.values()), past
    return "unknown", sum(nodes.values()), past


def parse_schedule(text: str) -> tuple[str, Schedule]:
    """``NAME=Q,L,C/L2,C2@POSITIONS``."""
    name, rest = text.split("=")
    turns, at = rest.split("@")
    early, late = turns.split("/")
    q, looser, c = (int(part) for part in early.split(","))
    looser2, c2 = (int(part) for part in late.split(","))
    return name, Schedule((q, looser, c), (0, looser2, c2), int(at))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    collecting = commands.add_parser("collect")
    collecting.add_argument("--member", choices=MEMBERS, required=True)
    collecting.add_argument("--game", default="gaps-no-redeal")
    collecting.add_argument("--seed", type=int, default=0)
    collecting.add_argument("--deals", default=",".join(str(deal) for deal in range(20)))
    collecting.add_argument("--budget", type=int, default=400_000)
    simulating = commands.add_parser("simulate")
    simulating.add_argument("runs", type=pathlib.Path)
    simulating.add_argument("--budget", type=int, default=2_500_000)
    simulating.add_argument("--schedule", nargs="*", default=[])
    args = parser.parse_args()
    if args.command == "collect":
        collect(args)
        return
    runs = load(args.runs)
    for name, schedule in [("current", CURRENT), *(parse_schedule(text) for text in args.schedule)]:
        won, cells = 0, []
        for deal in sorted(runs):
            result, _, _ = simulate(runs[deal], schedule, args.budget)
            unbound, nodes, past = simulate(runs[deal], schedule, UNBOUND)
            won += result == "won"
            cells.append(f"{deal}:{f'{nodes / 1e6:.2f}M' if unbound == 'won' else '-'}{'*' if past else ''}")
        print(f"{name:<10} won {won:>2} within {args.budget:,}  " + " ".join(cells))


if __name__ == "__main__":
    main()
