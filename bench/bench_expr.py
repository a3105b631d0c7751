"""Compiled seed rules against hand-written Python doing the same tests, in one run.

    python bench/bench_expr.py [--number N]

Prints time per call for each pair and the ratio compiled / hand-written
(requirement: at most about 1.0 for accept rules).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import timeit
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.cards import NO_CARD, RANK_OF, face_up, shuffle, standard_deck  # noqa: E402
from cardz_tools.expr import DesignEnv, Site, check, compile_rule  # noqa: E402
from cardz_tools.model import build_design  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def _design(name: str) -> Any:
    return build_design(json.loads((GAMES / name).read_text(encoding="utf-8")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=200_000)
    number = parser.parse_args().number

    monte = _design("monte-carlo.cardz")
    env = DesignEnv.from_design(monte)
    deck = [face_up(c) for c in shuffle(standard_deck(), 7)]
    P: list[list[int]] = [[deck[i]] for i in range(25)] + [deck[25:], []]
    P[12] = []  # one empty cell, so the empty-pile path runs too
    cells = env.groups["cell"]
    adjacent_pairs = frozenset((a, b) for a in range(env.size) for b in range(env.size) if env.adjacent(a, b))

    def hand_accept(P: Any, S: Any, card: int, cards: Any, source: int, depot: int) -> bool:
        pile = P[depot]
        return (source, depot) in adjacent_pairs and bool(pile) and RANK_OF[card] == RANK_OF[pile[-1]]

    def hand_trigger(P: Any, S: Any, depot: int) -> bool:
        return len(P[depot]) == 2

    def hand_action(P: Any, S: Any, depot: int) -> bool:
        stock = 25
        for it in cells:
            if not P[it] and (P[stock] or any(c > it and P[c] for c in cells)):
                return True
        return False

    def hand_score(P: Any, S: Any) -> int:
        return len(P[26])

    accept = compile_rule(check("adjacent(source, depot) && !empty(depot) && card.rank == top.rank",
                                Site.ACCEPT, env), env, cells)
    trigger = compile_rule(check("count(depot) == 2", Site.TRIGGER, env), env)
    action = compile_rule(check("any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) "
                                "&& !empty(c))))", Site.ACTION, env), env)
    score = compile_rule(check("count(discard)", Site.SCORING, env), env)

    weather = _design("weathervane.cardz")
    wenv = DesignEnv.from_design(weather)
    tableau = wenv.groups["Tableau"]
    WP: list[list[int]] = [list(range(1, 20)), [], [5]] + [[1, 2, 3] for _ in tableau]
    wscore = compile_rule(check("sum(Tableau, count(it)) - count(stock, empty(Tableau))", Site.SCORING, wenv), wenv)

    def hand_wscore(P: Any, S: Any) -> int:
        left = sum(len(P[t]) for t in tableau)
        return left - (len(P[0]) if left == 0 else 0)

    pairs = [(s, d) for s in cells for d in cells]

    def run_accept(fn: Callable[..., Any]) -> Callable[[], None]:
        def run() -> None:
            for s, d in pairs:
                fn(P, None, P[s][-1] if P[s] else NO_CARD, P[s], s, d)
        return run

    def run_filtered() -> None:
        residual, targets = accept.residual, accept.static_targets
        assert targets is not None
        for s in cells:
            card = P[s][-1] if P[s] else NO_CARD
            for d in targets[s]:
                residual(P, None, card, P[s], s, d)

    trigger_fn, action_fn, score_fn, wscore_fn = trigger.fn, action.fn, score.fn, wscore.fn
    rows: list[tuple[str, Callable[[], Any], Callable[[], Any], int]] = [
        ("accept (625 pairs)", run_accept(accept.fn), run_accept(hand_accept), len(pairs)),
        ("trigger", lambda: trigger_fn(P, None, 3), lambda: hand_trigger(P, None, 3), 1),
        ("action", lambda: action_fn(P, None, 25), lambda: hand_action(P, None, 25), 1),
        ("scoring", lambda: score_fn(P, None), lambda: hand_score(P, None), 1),
        ("weathervane scoring", lambda: wscore_fn(WP, None), lambda: hand_wscore(WP, None), 1),
        ("accept via static_targets", run_filtered, run_accept(hand_accept), len(pairs)),
    ]
    print(f"{'rule':28} {'compiled ns':>12} {'hand ns':>10} {'ratio':>7}")
    for name, compiled, hand, calls in rows:
        loops = max(1, number // calls)
        # Alternate the two and keep the best of each: the machine is shared, so noise only adds time.
        compiled_runs, hand_runs = [], []
        for _ in range(7):
            compiled_runs.append(timeit.timeit(compiled, number=loops))
            hand_runs.append(timeit.timeit(hand, number=loops))
        t_compiled = min(compiled_runs) / (loops * calls) * 1e9
        t_hand = min(hand_runs) / (loops * calls) * 1e9
        print(f"{name:28} {t_compiled:12.1f} {t_hand:10.1f} {t_compiled / t_hand:7.2f}")


if __name__ == "__main__":
    main()
