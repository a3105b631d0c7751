"""The portfolio's shares replayed: each member alone once, then the turns of any weights over those trajectories.

    python bench/bench_shares.py [--game klondike] [--seed S] [--deals N] [--budget N]
                                 [--caps QUICK,SEARCH,PLAIN] [--weights 1,5,1 1,8,1 ...]

Each deal is searched by each complete member of the portfolio alone (``bench_undecided.alone``: the
best-first pass, the depth-first search with every piece, the depth-first search in the plain order),
each up to its cap of positions. Where they share no proofs (``shared_losses``,
:func:`.tableau_search.shares_losses`: with stock moves, all but the designs with a second depth-first member),
the portfolio's verdict for any weights follows from where each member decides alone: the members take turns in
the portfolio's order (pass, depth-first, plain), each :data:`TURN` × its weight new positions, until one
decides or the positions of all of them pass ``--budget``; the best-first pass stops at
:data:`.tableau_search.QUICK_POSITIONS`. A member whose cap the replay would pass is shown as ``c`` (censored:
raise its cap). Positions, not seconds, so the figures do not depend on the machine's load. On Klondike draw
three, seed 0, the replay gives the positions the real portfolio
reports (deal 0 won at 268k, deal 3 lost at 215k with five shares; 238k and 193k with eight).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from bench_undecided import alone  # noqa: E402

from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.tableau_search import QUICK_POSITIONS, TURN  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
MEMBERS = ("quick", "search", "plain")
"""The complete members, in the portfolio's order of turns where the tap cover applies without triggers."""

Alone = dict[str, tuple[str, int, int]]
"""Per member: (its result alone, the positions it stored, its cap)."""


def replay(members: Alone, weights: dict[str, int], budget: int) -> tuple[str, int, str | None]:
    """(the portfolio's verdict, won / lost / unknown / censored; its positions; the member that decided)."""
    spent = {name: 0 for name in MEMBERS if weights.get(name, 0) > 0}
    active = list(spent)
    while active:
        for name in list(active):
            result, positions, cap = members[name]
            stop = spent[name] + TURN * weights[name]
            room = budget - (sum(spent.values()) - spent[name])
            if result != "unknown" and positions <= min(stop, room):
                spent[name] = positions
                return result, sum(spent.values()), name
            if result == "unknown" and positions < cap and positions <= min(stop, room):
                spent[name] = positions  # the best-first pass stored all it may
                active.remove(name)
                continue
            reach = min(stop, room + 1)
            if reach > cap:
                return "censored", sum(spent.values()), name
            spent[name] = reach
            if reach > room:
                return "unknown", sum(spent.values()), None
    return "unknown", sum(spent.values()), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="klondike")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--budget", type=int, default=270_000)
    parser.add_argument("--caps", default="60000,280000,60000", help="quick,search,plain")
    parser.add_argument("--weights", nargs="+", default=["1,5,1", "1,8,1"], help="quick,search,plain shares")
    args = parser.parse_args()
    caps = dict(zip(MEMBERS, (min(int(c), QUICK_POSITIONS) if i == 0 else int(c)
                              for i, c in enumerate(args.caps.split(","))), strict=True))
    game = game_for(open_design(GAMES / f"{args.game}.cardz").json_text)
    data: list[Alone] = []
    for index in range(args.deals):
        members: Alone = {}
        for name in MEMBERS:
            root = game.new_initial_state(seed=deal_seed(args.seed, index))
            result, positions = alone(root, name, caps[name])
            members[name] = (result, positions, caps[name])
        data.append(members)
        cells = " ".join(f"{name} {r[0]}{n:,}" for name, (r, n, _) in members.items())
        print(f"deal {index:3}: {cells}", flush=True)
    for spec in args.weights:
        weights = dict(zip(MEMBERS, map(int, spec.split(",")), strict=True))
        cells, decided, worst = [], 0, 0
        for index, members in enumerate(data):
            result, positions, by = replay(members, weights, args.budget)
            mark = result[0] if result in ("won", "lost", "censored") else "."
            cells.append(f"{index}:{mark}{positions // 1000}k" + (f"({by})" if by else ""))
            if result in ("won", "lost"):
                decided += 1
                worst = max(worst, positions)
        print(f"{args.game} seed {args.seed} shares {spec}: decided {decided} of {len(data)} at "
              f"{args.budget:,}, the last at {worst:,}: {' '.join(cells)}")


if __name__ == "__main__":
    main()
