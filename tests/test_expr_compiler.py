"""Compiled rules on hand-built piles, the static filter, and what the generated code may touch."""

from __future__ import annotations

import re
import types

import pytest

from cardz_tools.cards import JOKER, NO_CARD, Suit, face_up, make_card
from cardz_tools.expr import DesignEnv, ExprCompileError, Site, check, compile_expr, compile_rule
from cardz_tools.model import build_design
from tests.expr_support import seed_env

MC_ACCEPT = "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"
MC_ACTION = "any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) && !empty(c))))"
WV_SCORING = "sum(Tableau, count(it)) - count(stock, empty(Tableau))"
STOCK, DISCARD = 25, 26


def card(rank: int, suit: int = Suit.SPADES) -> int:
    return face_up(make_card(rank, suit))


def compiled(text: str, site: Site, env: DesignEnv):  # type: ignore[no-untyped-def]
    checked = check(text, site, env)
    assert checked.ok, checked.issues
    return compile_expr(checked, env)


def monte_carlo_piles(ranks: dict[int, int]) -> list[list[int]]:
    """25 cells (given ranks, others empty), the stock, the discard."""
    piles: list[list[int]] = [[card(ranks[i])] if i in ranks else [] for i in range(25)]
    return piles + [[], []]


def touching(a: int, b: int) -> bool:
    """Independent of the model: cell i of the 5x5 grid is at column i % 5, row i // 5."""
    return a != b and abs(a % 5 - b % 5) <= 1 and abs(a // 5 - b // 5) <= 1


def test_monte_carlo_accept_pairs_touching_cards_of_one_rank_including_diagonals() -> None:
    env = seed_env("monte-carlo")
    accept = compiled(MC_ACCEPT, Site.ACCEPT, env)
    P = monte_carlo_piles({i: 7 for i in range(25)})  # every cell a seven
    for source in range(25):
        for depot in range(25):
            result = accept(P, None, P[source][-1], tuple(P[source]), source, depot)
            assert result is touching(source, depot), (source, depot)
    assert accept(P, None, P[0][-1], (P[0][-1],), 0, 6) is True  # diagonal


def test_monte_carlo_rows_do_not_wrap() -> None:
    env = seed_env("monte-carlo")
    accept = compiled(MC_ACCEPT, Site.ACCEPT, env)
    P = monte_carlo_piles({4: 9, 5: 9, 9: 9})
    assert accept(P, None, P[4][-1], (P[4][-1],), 4, 5) is False
    assert accept(P, None, P[5][-1], (P[5][-1],), 5, 4) is False
    assert accept(P, None, P[4][-1], (P[4][-1],), 4, 9) is True


def test_monte_carlo_accept_needs_same_rank_and_a_card_to_pair_with() -> None:
    env = seed_env("monte-carlo")
    accept = compiled(MC_ACCEPT, Site.ACCEPT, env)
    P = monte_carlo_piles({0: 3, 1: 4, 5: 3})
    assert accept(P, None, P[0][-1], (P[0][-1],), 0, 1) is False  # rank differs
    assert accept(P, None, P[0][-1], (P[0][-1],), 0, 6) is False  # cell[6] is empty
    assert accept(P, None, P[0][-1], (P[0][-1],), 0, 5) is True
    assert accept(P, None, P[0][-1], (P[0][-1],), 0, STOCK) is False  # the stock is not next to cell[0]


def test_monte_carlo_trigger_count_and_scoring() -> None:
    env = seed_env("monte-carlo")
    trigger = compiled("count(depot) == 2", Site.TRIGGER, env)
    count = compiled("2", Site.COUNT, env)
    score = compiled("count(discard)", Site.SCORING, env)
    P = monte_carlo_piles({0: 1})
    P[3] = [card(5), card(5, Suit.HEARTS)]
    P[DISCARD] = [card(2)] * 6
    assert [trigger(P, None, d) for d in (0, 3, 4)] == [False, True, False]
    assert count(P, None, 3) == 2
    assert score(P, None) == 6


@pytest.mark.parametrize(
    ("filled", "stock", "expected"),
    [
        (set(range(25)), 0, False),  # no gap
        (set(range(24)), 0, False),  # the only gap is last and the stock is empty
        (set(range(24)), 3, True),  # a gap and cards to refill it
        (set(range(25)) - {3}, 0, True),  # a gap with cards after it
        ({0, 1, 2}, 0, False),  # everything already at the front
    ],
)
def test_monte_carlo_consolidate_action(filled: set[int], stock: int, expected: bool) -> None:
    env = seed_env("monte-carlo")
    action = compiled(MC_ACTION, Site.ACTION, env)
    P = monte_carlo_piles({i: 2 for i in filled})
    P[STOCK] = [make_card(9, 0)] * stock
    assert action(P, None, STOCK) is expected


@pytest.mark.parametrize(
    ("tableau", "stock", "expected"),
    [([6, 6, 6, 6, 6, 6, 6], 9, 42), ([0, 0, 1, 0, 0, 0, 0], 9, 1), ([0] * 7, 9, -9), ([0] * 7, 0, 0)],
)
def test_weathervane_scoring(tableau: list[int], stock: int, expected: int) -> None:
    env = seed_env("weathervane")
    score = compiled(WV_SCORING, Site.SCORING, env)
    P: list[list[int]] = [[make_card(3, 0)] * stock, [], [card(8)]] + [[make_card(4, 1)] * n for n in tableau]
    assert score(P, None) == expected


def test_rank_arithmetic_out_of_range_matches_nothing() -> None:
    env = seed_env("monte-carlo")
    rule = compiled("!empty(depot) && card.rank == top.rank - 1", Site.ACCEPT, env)
    P = monte_carlo_piles({0: 1, 1: 13})
    assert rule(P, None, JOKER, (JOKER,), 5, 0) is False  # Ace - 1 is no rank, not the joker's 0
    assert rule(P, None, card(12), (card(12),), 5, 1) is True
    shifted = compiled("!empty(depot) && card.rank == top.rank + 1", Site.ACCEPT, env)
    assert shifted(P, None, card(1), (card(1),), 5, 1) is False  # no wrap from King to Ace


def test_run_helpers() -> None:
    env = seed_env("monte-carlo")
    rule = compiled("descending(cards) && alternating(cards) && !sameSuit(cards)", Site.EJECT, env)
    run = (card(9, Suit.SPADES), card(8, Suit.HEARTS), card(7, Suit.CLUBS))
    assert rule([[]] * 27, None, run[0], run, 0) is True
    broken = (card(9, Suit.SPADES), card(8, Suit.CLUBS))
    assert rule([[]] * 27, None, broken[0], broken, 0) is False
    assert compiled("ascending(cards) && sameSuit(cards)", Site.EJECT, env)(
        [[]] * 27, None, card(1), (card(1), card(2), card(3)), 0) is True


def test_grid_neighbours_stay_in_the_row() -> None:
    env = seed_env("monte-carlo")
    rule = compiled("exists(left(depot)) ? index(left(depot)) : -1", Site.COUNT, env)
    P = monte_carlo_piles({})
    assert [rule(P, None, d) for d in (0, 1, 5, 6, 24)] == [-1, 0, -1, 5, 23]
    below = compiled("exists(below(depot)) ? index(below(depot)) : -1", Site.COUNT, env)
    assert [below(P, None, d) for d in (0, 19, 20)] == [5, 24, -1]
    assert compiled("exists(right(cell[4]))", Site.WIN, env)(P, None) is False


def test_declared_suit_reads_the_state() -> None:
    env = seed_env("weathervane")
    rule = compiled("declared(depot) == card.suit", Site.ACCEPT, env)
    state = types.SimpleNamespace(declared=[-1, -1, Suit.HEARTS] + [-1] * 7)  # -1: nothing declared
    P: list[list[int]] = [[] for _ in range(10)]
    assert rule(P, state, card(4, Suit.HEARTS), (), 3, 2) is True
    assert rule(P, state, card(4, Suit.SPADES), (), 3, 2) is False
    assert rule(P, state, card(4, Suit.SPADES), (), 3, 1) is False  # nothing declared
    assert compiled("exists(declared(depot))", Site.TRIGGER, env)(P, state, 1) is False
    assert compiled("exists(declared(depot))", Site.TRIGGER, env)(P, state, 2) is True


def test_division_by_a_runtime_zero_gives_zero() -> None:
    env = seed_env("monte-carlo")
    rule = compiled("10 / count(depot) + 10 % count(depot)", Site.COUNT, env)
    assert rule(monte_carlo_piles({}), None, 0) == 0
    assert rule(monte_carlo_piles({0: 3}), None, 0) == 10


def test_top_of_an_empty_pile_is_no_card() -> None:
    env = seed_env("monte-carlo")
    rule = compiled("top(depot).rank == top(stock).rank", Site.TRIGGER, env)
    P = monte_carlo_piles({})
    assert rule(P, None, 0) is True  # both absent: NO_CARD's rank 15 on each side
    assert compiled("exists(top)", Site.TRIGGER, env)(P, None, 0) is False
    assert NO_CARD == 0x7F


def test_static_filter_of_monte_carlo_is_the_adjacency() -> None:
    env = seed_env("monte-carlo")
    cells = env.groups["cell"]
    rule = compile_rule(check(MC_ACCEPT, Site.ACCEPT, env), env, cells)
    assert rule.static is not None and rule.static_pairs is not None and rule.static_targets is not None
    expected = {(s, d) for s in range(25) for d in range(25) if touching(s, d)}
    assert rule.static_pairs == expected
    assert rule.static_targets[12] == (6, 7, 8, 11, 13, 16, 17, 18)
    assert rule.static_targets[STOCK] == ()
    P = monte_carlo_piles({i: (i % 3) + 1 for i in range(24)})
    for s, d in expected:
        c = P[s][-1] if P[s] else NO_CARD
        assert rule.residual(P, None, c, (c,), s, d) == rule.fn(P, None, c, (c,), s, d)


def test_rules_without_a_static_part_have_no_filter() -> None:
    env = seed_env("monte-carlo")
    rule = compile_rule(check("!empty(depot) && card.rank == top.rank", Site.ACCEPT, env), env)
    assert rule.static is None and rule.static_pairs is None
    assert rule.residual is rule.fn


def test_generated_code_holds_no_design_identifiers_and_few_builtins() -> None:
    design = build_design({
        "name": "Names",
        "depots": [{"name": "os", "type": "Stock"}, {"name": "eval", "type": "Tableau", "repeat": 3}],
        "winCondition": {"kind": "allCardsIn", "depots": "os"},
    })
    env = DesignEnv.from_design(design)
    text = "any(system in eval, count(system) > count(os)) && sum(Tableau, count(it)) > 0"
    rule = compile_rule(check(text, Site.WIN, env), env)
    for word in ("os", "eval", "system", "Tableau"):
        assert f"{word}" not in rule.python.replace("_items", "").replace("_pos", ""), word
    builtins = rule.fn.__globals__["__builtins__"]
    assert set(builtins) <= {"len", "any", "all", "sum", "min", "max", "abs", "map"}
    assert "__import__" not in builtins
    P: list[list[int]] = [[1], [1, 2], [], []]
    assert rule.fn(P, None) is True


def test_expressions_with_errors_do_not_compile() -> None:
    env = seed_env("monte-carlo")
    with pytest.raises(ExprCompileError):
        compile_expr(check("count(nothing)", Site.SCORING, env), env)


def test_every_quantifier_over_piles_groups_and_runs() -> None:
    env = seed_env("monte-carlo")
    P = monte_carlo_piles({0: 1, 1: 5, 2: 13})
    P[STOCK] = [card(2), card(3, Suit.HEARTS), card(4)]
    value = lambda text: compiled(text, Site.SCORING, env)(P, None)  # noqa: E731
    assert value("count(cell, !empty(it))") == 3
    assert value("count(stock, it.color == Red)") == 1
    assert value("sum(stock, it.value)") == 9
    assert value("min(stock, it.value) + 10 * max(c in cell, count(c))") == 12
    assert value("min(discard, it.value)") == 0
    assert value("any(stock, it.suit == Hearts) ? 1 : 0") == 1
    assert value("all(cell, empty(it)) ? 1 : 0") == 0
    assert value("max(cell, empty(it) ? 0 : top(it).value)") == 13
    assert value("count(Tableau)") == 3
    assert value("size(cell) + size(Cell)") == 25


def test_a_quantifier_works_out_what_its_body_does_not_vary_once_but_never_a_guarded_top() -> None:
    env = seed_env("monte-carlo")
    checked = check(MC_ACTION, Site.ACTION, env)
    python = compile_rule(checked, env).python
    inner = python[python.index("def _q"):]
    # index(it) is read before the inner loop, not once per cell
    assert re.search(r"(_x\d+) = _k\d+\[_v\d+\]\n\s+for _v\d+ in _items:\n.*> \1\)", inner), python
    guarded = compiled("any(c in cell, !empty(stock) && top(stock).value == count(c))", Site.TRIGGER, env)
    P = monte_carlo_piles({0: 5, 1: 5})
    assert guarded(P, None, 0) is False  # the stock is empty: its top is never read
    P[STOCK] = [make_card(1, 0)]
    assert guarded(P, None, 0) is True  # ace: rank 1 == one card in cell 0


def test_every_function_the_checker_knows_has_code() -> None:
    from cardz_tools.expr.builtins import FUNCTIONS
    from cardz_tools.expr.codegen import CALL_WRITERS

    impls = {o.impl for f in FUNCTIONS.values() for o in f.overloads if not o.is_binder}
    assert sorted(impls - set(CALL_WRITERS)) == [], "functions the emitter cannot write"
    assert sorted(set(CALL_WRITERS) - impls) == [], "writers for functions no overload names"
