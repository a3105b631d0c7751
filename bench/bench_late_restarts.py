"""When the late restarts should join the portfolio on an open board: a replay of the schedule.

    python bench/bench_late_restarts.py [--games king-albert,beleaguered-castle] [--deals N] [--seed S]
                                        [--data FILE] [--budgets 30000,200000] [--shares 0.1,0.5]
                                        [--joins 5000] [--late] [--cap 60000]

The members of :func:`.tableau_search.search`'s portfolio are independent searches (each its own
table), so what the portfolio answers is fixed by where each member, searching alone, decides: the
positions it stores until it wins, proves a loss or gives up. This bench measures that once per
deal and member (positions, so the answers do not depend on the machine's load; ``--data`` keeps
them in a JSON file between runs), then replays the portfolio's turns (:data:`.tableau_search.TURN`
× weight) for each budget and each rule for when the ``restarts`` member joins and what share the
members then take (``--late``: :data:`.tableau_search.LATE_WEIGHTS`, beside the weights they had), and
prints the deals decided. The replay is exact up to the positions one expansion adds past the end of
a turn. On a deal bounded by seconds the restarts join at the first turn after their share of the
seconds: after 5,000 positions on a 2 s deal (``--joins 5000``; at about 10,000 positions a second,
2 s is 20,000).
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.tableau_search import (  # noqa: E402
    LATE_WEIGHTS,
    TURN,
    Pruning,
    _Budget,
    _portfolio,
    _restarts_member,
    open_board,
    replays_to_a_win,
)
from cardz_tools.loading import open_design  # noqa: E402

FIXED = 20_000
"""The rule before :data:`.tableau_search.LATE_SHARE`: the restarts joined after this many positions."""
GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"
CAP = 200_000
"""The largest budget replayed: each member is searched alone for its share of it (by weight, a turn more);
a replay that needs more of a member counts the deal unknown and shows ``?n`` after the count."""

Point = tuple[str, float]
"""(result, positions): where a member searching alone decided; ("unknown", inf) past :data:`CAP`."""


def alone(member: Any, cap: int) -> Point:
    """Where one portfolio member decides, searching alone for at most ``cap`` positions."""
    steps, found = member.steps, member.search
    try:
        while found.positions() <= cap:
            next(steps)
        return "unknown", math.inf
    except StopIteration as done:
        result, line = done.value
    except _Budget:
        result, line = "unknown", []
    if result == "won" and not replays_to_a_win(found.root, line):
        raise AssertionError(f"{member.stage}: a win that does not replay")
    return result, found.positions()


def measure(name: str, deals: int, seed: int, cap: int = CAP) -> list[list[tuple[int, Point]]]:
    """Per deal, (weight, where it decides) of each member in the portfolio's order, the late restarts last."""
    game = game_for(open_design(GAMES / f"{name}.cardz").json_text)
    rows = []
    for index in range(deals):
        root = game.new_initial_state(seed=deal_seed(seed, index))
        if not open_board(root):
            raise SystemExit(f"{name}: not an open board, no late restarts")
        members = _portfolio(root, Pruning(), cap, None) + [_restarts_member(root, Pruning(), cap, None)]
        # A member's share of the cap (the restarts' with everyone, at their weight or at LATE_WEIGHTS'), and a
        # turn more: the others' shares at LATE_WEIGHTS are less than before the restarts join.
        first = sum(m.weight for m in members[:-1])
        caps = [cap * m.weight // first + TURN * m.weight for m in members[:-1]]
        pass_weight, search_weight, restarts_weight = LATE_WEIGHTS
        late = pass_weight + search_weight * (len(members) - 2) + restarts_weight
        restarts = max(members[-1].weight / (first + members[-1].weight), restarts_weight / late)
        caps.append(int(cap * restarts) + TURN * max(members[-1].weight, restarts_weight))
        row = [(m.weight, alone(m, cap)) for m, cap in zip(members, caps, strict=True)]
        rows.append(row)
        print(f"  {name} deal {index}: " + ", ".join(f"{r} {p:,.0f}" for _, (r, p) in row), flush=True)
    return rows


def replay(row: list[tuple[int, Point]], budget: int, join: float, late: tuple[int, int, int] | None = None) -> str:
    """What the portfolio answers on one deal at ``budget`` positions, the restarts joining at ``join``
    and, with ``late``, the best-first pass (the first member), the depth-first searches and the restarts
    taking those weights from then on (:data:`.tableau_search.LATE_WEIGHTS`; None: their own)."""
    *first, restarts = row
    members = [[weight, result, at, 0.0] for weight, (result, at) in first]
    waiting = [[restarts[0], restarts[1][0], restarts[1][1], 0.0]]
    quick = members[0]
    while members:
        if waiting and sum(m[3] for m in members) >= join:
            if late is not None:
                for member in members:
                    member[0] = late[0] if member is quick else late[1]
                waiting[0][0] = late[2]
            members.append(waiting.pop())
        for member in list(members):
            weight, result, at, done = member
            others = sum(m[3] for m in members) - done
            reach = min(done + TURN * weight, budget - others + 1)
            if at <= reach:
                if at == math.inf:
                    return "past"  # the member alone was not searched this far: counted unknown
                member[3] = at
                members.remove(member)
                if result != "unknown":
                    return result
                continue
            member[3] = reach
            if others + reach > budget:
                return "unknown"
    return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="king-albert,beleaguered-castle,streets-and-alleys")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", default="")
    parser.add_argument("--budgets", default="30000,200000")
    parser.add_argument("--cap", type=int, default=CAP, help="The largest budget replayed (members measured for it).")
    parser.add_argument("--shares", default="0.1,0.25,0.5,0.75")
    parser.add_argument("--joins", default="", help="Join points in positions, besides the shares (5000: a 2 s deal).")
    parser.add_argument("--late", action="store_true",
                        help=f"Also each rule with the weights of LATE_WEIGHTS {LATE_WEIGHTS} once the restarts join.")
    args = parser.parse_args(argv)
    path = pathlib.Path(args.data) if args.data else None
    data: dict[str, Any] = json.loads(path.read_text()) if path and path.exists() else {}
    began = time.process_time()
    for name in args.games.split(","):
        key = f"{name} seed {args.seed} deals {args.deals}"
        if key not in data:
            data[key] = measure(name, args.deals, args.seed, args.cap)
            if path:
                path.write_text(json.dumps(data))
    budgets = [int(b) for b in args.budgets.split(",")]
    joins: list[tuple[str, Any]] = [(f"at {FIXED:,}", lambda b: FIXED)]
    joins += [(f"at {int(j):,}", lambda b, j=int(j): j) for j in args.joins.split(",") if j]
    joins += [(f"share {s:g}", lambda b, s=s: s * b) for s in map(float, args.shares.split(","))]
    weights: list[tuple[int, int, int] | None] = [None, LATE_WEIGHTS] if args.late else [None]
    rules: list[tuple[str, Any, tuple[int, int, int] | None]] = [("never", lambda b: math.inf, None)]
    rules += [(label + (" late" if w else ""), join, w) for label, join in joins for w in weights]
    print(f"decided deals (won+lost of {args.deals}), seed {args.seed}; CPU {time.process_time() - began:.0f} s")
    print(f"{'game':24} {'budget':>8} " + " ".join(f"{label:>14}" for label, _, _ in rules))
    for name in args.games.split(","):
        measured = data[f"{name} seed {args.seed} deals {args.deals}"]
        rows = [[(w, (r, float(p))) for w, (r, p) in row] for row in measured]
        for budget in budgets:
            cells = []
            for _, rule, weight in rules:
                answers = [replay(row, budget, rule(budget), weight) for row in rows]
                past = sum(a == "past" for a in answers)
                cells.append(f"{sum(a == 'won' for a in answers)}+{sum(a == 'lost' for a in answers)}"
                             + (f"?{past}" if past else ""))
            print(f"{name:24} {budget:>8,} " + " ".join(f"{cell:>14}" for cell in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
