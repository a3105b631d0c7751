"""Every member of a portfolio alone once, then the portfolio's turns replayed over those trajectories for any shares.

    python bench/bench_member_shares.py [--game spider] [--seed S] [--deals N | --only 0,2,9] [--cap N]
        [--budget N] [--save FILE | --load FILE] [--weights 2,2,1,4,8,16,16,32,32 ...]

``bench_shares.py`` replays the three complete members of Klondike's portfolio; this replays all of them, the
narrowed ``runs`` and ``beams`` members too, in the order and with the turns :func:`.tableau_search.search` gives
them (:data:`.tableau_search.RUNS_TURN` where there are beams). Each member is built by
:func:`.tableau_search._portfolio` as the portfolio builds it and searched alone up to ``--cap`` positions; the
complete members get a set of proved losses of their own, so where the portfolio shares its proofs
(``shared_losses``) a complete member searches at most what it searches alone (the replay over-counts it). The
narrowed members share nothing with anyone, so their part is exact. The replay: members take turns, each
``turn`` × its share new positions, until one decides or all of them together pass ``--budget``; a narrowed
member's "lost" drops every narrowed member, a complete member's "lost" is a proof. A member whose cap the replay
would pass is marked ``c`` (censored: raise ``--cap``). With two decks the ``runs`` members are searched too (as
with :data:`.tableau_search.TWIN_BEAMS` off); a share of 0 leaves a member out. Positions, not seconds: the load
does not matter. ``--save`` writes the trajectories as JSON, ``--load`` replays saved ones without searching.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis import tableau_search  # noqa: E402
from cardz_tools.analysis.playout import deal_seed  # noqa: E402
from cardz_tools.analysis.runner import game_for  # noqa: E402
from cardz_tools.analysis.tableau_search import (  # noqa: E402
    RUNS_TURN,
    TURN,
    Progress,
    Pruning,
    _Budget,
    _portfolio,
    replays_to_a_win,
)
from cardz_tools.loading import open_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"

Alone = dict[str, object]
"""One member alone: its name, result, positions, cap, whether complete, whether narrowed, whether a beam."""


def member_alone(root: object, index: int, cap: int) -> Alone:
    """Member ``index`` of ``root``'s portfolio searching alone up to ``cap`` positions."""
    members = _portfolio(root, Pruning(), cap, None, set())
    entry = members[index]
    found = entry.search
    result, line = "unknown", []
    try:
        while found.positions() < cap:
            next(entry.steps)
    except StopIteration as done:
        result, line = done.value
    except _Budget:
        result = "unknown"
    if result == "won" and not replays_to_a_win(root, line):
        raise AssertionError(f"member {index}: a win that does not replay")
    positions = found.positions()
    if result == "unknown" and positions >= cap:
        result = "cut"
    return {"result": result, "positions": positions, "cap": cap, "complete": entry.complete,
            "narrowed": found.runs is not None, "beam": entry.beam}


def names(root: object) -> list[str]:
    """Short names of ``root``'s portfolio members, in its order."""
    out = []
    for entry in _portfolio(root, Pruning(), 1, None, set()):
        kind = "beam" if entry.beam else "runs" if entry.search.runs is not None else entry.stage
        hidden = "h" if entry.search.progress.weights[3] != Progress.WEIGHTS[3] else ""  # face-down cards weigh more
        out.append(f"{kind}{hidden}{entry.weight}")
    return out


def replay(members: list[Alone], weights: list[int], budget: int) -> tuple[str, int, int | None]:
    """(the portfolio's verdict: won / lost / unknown / censored; its positions; the member that decided)."""
    turn = RUNS_TURN if any(m["beam"] for m in members) else TURN
    spent = [0] * len(members)
    active = [i for i, w in enumerate(weights) if w > 0]
    while active:
        for i in list(active):
            if i not in active:
                continue
            m = members[i]
            result, positions, cap = str(m["result"]), int(m["positions"]), int(m["cap"])  # type: ignore[call-overload]
            stop = spent[i] + turn * weights[i]
            room = budget - (sum(spent) - spent[i])
            if result != "cut" and positions <= min(stop, room):
                spent[i] = positions
                active.remove(i)
                if result == "won":
                    return "won", sum(spent), i
                if result == "lost" and m["complete"]:
                    return "lost", sum(spent), i
                if result == "lost":  # the narrowed set has no win: every narrowed member goes
                    active[:] = [j for j in active if not members[j]["narrowed"]]
                continue
            reach = min(stop, room + 1)
            if reach > cap:
                return "censored", sum(spent), i
            spent[i] = reach
            if reach > room:
                return "unknown", sum(spent), None
    return "unknown", sum(spent), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spider")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--only", default=None, help="deal indices, comma-separated")
    parser.add_argument("--cap", default="100000", help="one cap, or one per member, comma-separated")
    parser.add_argument("--budget", type=int, default=180_000)
    parser.add_argument("--save", default=None)
    parser.add_argument("--load", default=None)
    parser.add_argument("--weights", nargs="*", default=[], help="one share per member, comma-separated")
    args = parser.parse_args()
    tableau_search.TWIN_BEAMS = False  # every member the portfolio may have; a share of 0 leaves one out
    game = game_for(open_design(GAMES / f"{args.game}.cardz").json_text)
    deals = [int(d) for d in args.only.split(",")] if args.only else list(range(args.deals))
    labels = names(game.new_initial_state(seed=deal_seed(args.seed, deals[0])))
    data: dict[str, list[Alone]] = {}
    if args.load:
        data = json.loads(pathlib.Path(args.load).read_text())
    else:
        caps = [int(c) for c in args.cap.split(",")]
        caps = caps * len(labels) if len(caps) == 1 else caps
        for index in deals:
            started = time.process_time()
            row = []
            for i, cap in enumerate(caps):
                root = game.new_initial_state(seed=deal_seed(args.seed, index))
                row.append(member_alone(root, i, cap))
            data[str(index)] = row
            cells = " ".join(f"{label} {m['result']} {m['positions']:,}" for label, m in zip(labels, row, strict=True))
            print(f"deal {index:3}: {cells} ({time.process_time() - started:.0f} CPU-s)", flush=True)
        if args.save:
            pathlib.Path(args.save).write_text(json.dumps(data))
    print("members:", " ".join(labels))
    for spec in args.weights or [",".join(label.lstrip("abcdefghijklmnopqrstuvwxyz") for label in labels)]:
        weights = [int(w) for w in spec.split(",")]
        shown: list[str] = []
        decided, worst = 0, 0
        for deal, row in data.items():
            result, positions, by = replay(row, weights, args.budget)
            mark = result[0] if result in ("won", "lost", "censored") else "."
            shown.append(f"{deal}:{mark}{positions // 1000}k" + (f"({labels[by]})" if by is not None else ""))
            if result in ("won", "lost"):
                decided += 1
                worst = max(worst, positions)
        print(f"{args.game} seed {args.seed} shares {spec}: decided {decided} of {len(data)} at {args.budget:,}, "
              f"the last at {worst:,}: {' '.join(shown)}")


if __name__ == "__main__":
    main()
