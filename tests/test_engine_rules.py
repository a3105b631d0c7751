"""Engine semantics on small designs written for one rule each, plus the seed deals."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from cardz_tools import cards as cards_module
from cardz_tools.cards import FACE_UP, MAX_DECK_CARDS, SplitMix64, parse_deck, shuffle, standard_deck
from cardz_tools.engine import DeckError, Drag, Game, IllegalMoveError, RuleError, Tap, Termination
from cardz_tools.model import build_design
from tests.engine_support import load_design


def design(depots: list[dict[str, Any]], **top: Any) -> Game:
    data: dict[str, Any] = {
        "name": "Test",
        "depots": depots,
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},  # never: no foundation
        **top,
    }
    return Game(build_design(data))


STOCK = {"name": "stock", "type": "Stock", "ejectRule": "locked"}


def test_splitmix64_gives_the_reference_outputs_and_below_rejects_over_them() -> None:
    """The generator's published outputs for seed 1234567, and ``below`` (which inlines ``next``) as the
    documented rejection over those outputs: a draw above the largest multiple of the bound is drawn again."""
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    mask = (1 << 64) - 1
    for bound in (1, 2, 3, 7, 52, 1000, 3 << 62, (1 << 63) + 1):
        fast, plain = SplitMix64(bound), SplitMix64(bound)
        for _ in range(200):
            limit = mask - (mask + 1) % bound
            value = plain.next()
            while value > limit:
                value = plain.next()
            assert fast.below(bound) == value % bound
            assert fast.state == plain.state


def test_shuffle_is_fisher_yates_over_below() -> None:
    """``shuffle`` inlines ``below`` and looks its rejection limits up: the same orders as the documented loop,
    for decks up to the largest and beyond (where the limit is worked out)."""
    for size in (0, 1, 2, 52, 104, MAX_DECK_CARDS, MAX_DECK_CARDS + 3):
        cards = list(range(size))
        for seed in (0, 1, 42, (1 << 64) - 1, 1 << 70, -5):
            rng = SplitMix64(seed)
            expected = cards.copy()
            for i in range(size - 1, 0, -1):
                j = rng.below(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert shuffle(cards, seed) == expected, (size, seed)
    # a rejection is too rare to meet in a test: the limits themselves are below's
    mask = (1 << 64) - 1
    assert all(cards_module._BELOW_LIMITS[bound] == mask - (mask + 1) % bound for bound in range(1, MAX_DECK_CARDS + 1))


def test_seed_deal_is_the_documented_shuffle_and_leftovers_go_to_stock_next_card_on_top() -> None:
    game = Game(load_design("monte-carlo"))
    deck = shuffle(standard_deck(), 42)
    state = game.new_initial_state(seed=42)
    cells = [state.piles[game.index[f"cell[{i}]"]] for i in range(25)]
    assert [pile[0] for pile in cells] == [c | FACE_UP for c in deck[:25]]
    stock = state.piles[game.index["stock"]]
    assert stock[-1] == deck[25] and stock[0] == deck[-1] and not stock[-1] & FACE_UP


def test_round_robin_deals_round_after_round() -> None:
    game = Game(load_design("weathervane"))
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    tab3 = state.piles[game.index["tab[3]"]]
    assert tab3 == tuple(deck[r * 7 + 3] for r in range(5)) + (deck[35 + 3] | FACE_UP,)
    assert state.piles[game.index["vane"]] == (deck[42] | FACE_UP,)


def test_dealing_each_depot_in_turn_and_removing_ranks() -> None:
    game = design(
        [STOCK, {"name": "col", "type": "Tableau", "repeat": 2, "col": 1}],
        dealRules=[
            {"kind": "dealGroup", "to": "col", "faceDown": 1, "faceUp": 2},
            {"kind": "remove", "ranks": ["Ace"]},
        ],
    )
    deck = standard_deck()  # A♣ 2♣ 3♣ 4♣ 5♣ 6♣ ...
    state = game.new_initial_state(deck=deck)
    assert state.piles[1] == (deck[1] | FACE_UP, deck[2] | FACE_UP)  # the ace is gone
    assert state.piles[2] == (deck[3], deck[4] | FACE_UP, deck[5] | FACE_UP)
    # docs/format.md: the undealt aces leave too, not only the dealt one
    assert not any(c & 0x0F == 1 for c in state.piles[0])
    assert state.cards_in_play == 48


def test_a_deck_that_is_not_the_designs_is_refused_naming_missing_and_extra_cards() -> None:
    game = Game(load_design("monte-carlo"))
    deck = standard_deck()
    deck[0] = deck[1]
    with pytest.raises(DeckError, match="missing: AC.*extra: 2C"):
        game.new_initial_state(deck=deck)
    with pytest.raises(DeckError, match="holds 51"):
        game.new_initial_state(deck=standard_deck()[:51])


def test_eject_rules_decide_which_runs_can_be_dragged() -> None:
    depots = [
        STOCK,
        {"name": "runs", "type": "Tableau", "col": 1, "ejectRule": "faceUp", "acceptRule": "any"},
        {"name": "tops", "type": "Tableau", "col": 2, "acceptRule": "any"},
        {"name": "one", "type": "Cell", "col": 3, "acceptRule": {"single": True, "reason": "one at a time"}},
    ]
    game = design(depots, dealRules=[{"kind": "dealGroup", "to": "runs", "faceDown": 1, "faceUp": 3}])
    state = game.new_initial_state(seed=1)
    drags = [m for m in state.legal_moves() if isinstance(m, Drag) and m.source == "runs"]
    assert sorted((m.count, m.target) for m in drags) == [(1, "one"), (1, "tops"), (2, "tops"), (3, "tops")]
    assert state.why_illegal(Drag("runs", 4, "tops")) == "face-down cards cannot be moved from runs"
    assert state.why_illegal(Drag("runs", 2, "one")) == "one at a time"
    assert state.why_illegal(Drag("stock", 1, "tops")) == "cards cannot be taken from stock"
    state.apply(Drag("runs", 3, "tops"))
    assert len(state.piles[2]) == 3 and not state.piles[1][-1] & FACE_UP  # no autoFlipTop here
    assert state.why_illegal(Drag("tops", 2, "runs")) == "only the top card of tops can be moved"


def test_draw_with_redeals_turns_the_waste_back_over() -> None:
    depots = [
        {**STOCK, "draw": {"to": "waste", "count": 3, "redeals": 1}},
        {"name": "waste", "type": "Waste", "col": 1},
    ]
    game = design(depots, decks=1)
    state = game.new_initial_state(seed=3)
    stock_at_start = state.piles[0]
    for _ in range(18):  # 52 cards, three at a time
        state.apply(Tap("stock"))
    assert not state.piles[0] and len(state.piles[1]) == 52
    assert state.piles[1][-3:] == tuple(c | FACE_UP for c in reversed(stock_at_start[:3]))
    state.apply(Tap("stock"))  # the redeal
    assert state.piles[0] == stock_at_start and state.redeals[0] == 0
    for _ in range(18):
        state.apply(Tap("stock"))
    assert state.why_illegal(Tap("stock")) is not None
    assert state.is_terminal() and state.outcome().termination is Termination.LOST_NO_MOVES


def test_a_trigger_cascade_that_never_settles_ends_the_game_instead_of_hanging() -> None:
    ping = {"when": "true", "do": [{"kind": "move", "from": "@self", "to": "b", "count": "all"}]}
    pong = {"when": "true", "do": [{"kind": "move", "from": "@self", "to": "a", "count": "all"}]}
    depots = [STOCK, {"name": "a", "type": "Cell", "col": 1, "triggers": [ping]},
              {"name": "b", "type": "Cell", "col": 2, "triggers": [pong]}]
    game = design(depots, dealRules=[{"kind": "dealGroup", "to": "a", "faceUp": 1}])
    state = game.new_initial_state(seed=0)
    assert state.is_terminal() and state.non_terminating
    assert state.outcome().reason == "trigger cascade did not settle"
    assert state.legal_moves() == []


def test_actions_respect_their_limit_and_effects_flip_and_move() -> None:
    action = {"name": "peek", "limit": 2, "do": [
        {"kind": "move", "from": "stock", "to": "pile", "count": 2},
        {"kind": "flip", "depot": "pile"},
    ]}
    idle = {"name": "idle", "do": [{"kind": "flip", "depot": "pile"}]}
    depots = [{**STOCK, "actions": [action, idle]}, {"name": "pile", "type": "Reserve", "col": 1}]
    game = design(depots)
    state = game.new_initial_state(seed=5)
    state.stats = collections.Counter()
    top_two = state.piles[0][-2:]
    state.apply(Tap("stock", "peek"))
    assert state.piles[1] == (top_two[0], top_two[1] | FACE_UP)
    state.apply(Tap("stock", "peek"))
    assert Tap("stock", "peek") not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="may be used 2 times"):
        state.apply(Tap("stock", "peek"))
    assert state.stats == collections.Counter({"action:stock.peek": 2})


def test_illegal_moves_raise_with_the_rule_reason() -> None:
    game = Game(load_design("monte-carlo"))
    state = game.new_initial_state(seed=12)
    with pytest.raises(IllegalMoveError, match="touches it"):
        state.apply(Drag("cell[0]", 1, "cell[4]"))
    assert state.why_illegal(Tap("discard")) == "tapping discard draws nothing"
    assert state.why_illegal(Drag("cell[0]", 1, "nowhere")) == "there is no depot named 'nowhere'"
    assert state.move_count == 0


def test_rule_fire_counters_count_only_when_enabled() -> None:
    game = Game(load_design("monte-carlo"))
    state = game.new_initial_state(seed=12)
    state.apply(state.legal_moves()[0])
    assert state.stats is None
    state.stats = collections.Counter()
    state.apply(state.legal_moves()[0])
    assert state.stats == collections.Counter({"accept:cell": 1, "trigger:cell#0": 1})
    assert set(state.stats) <= set(game.rule_labels())


def test_a_wild_card_dealt_names_nothing_and_follows_as_an_ordinary_card() -> None:
    game = Game(load_design("weathervane"))
    placed = dict(zip(range(35, 43), parse_deck("5C 8H KH 9D 10D JD QD 8C"), strict=True))  # tops, then the vane
    rest = [c for c in standard_deck() if c not in placed.values()]
    state = game.new_initial_state(deck=[placed[i] if i in placed else rest.pop(0) for i in range(52)])
    assert state.declared[game.index["vane"]] == -1
    drags = [state.describe(m) for m in state.legal_moves() if isinstance(m, Drag)]
    namings = [f"tab[1] → vane (8♥, naming {s})" for s in ("Clubs", "Diamonds", "Hearts", "Spades")]
    assert drags == ["tab[0] → vane (5♣)", *namings]
    assert state.why_illegal(Drag("tab[2]", 1, "vane")) == "K♥ does not follow 8♣: it must match in rank or suit"


def test_a_rule_that_does_not_compile_is_a_rule_error_naming_where_it_is() -> None:
    depots = [STOCK, {"name": "pile", "type": "Tableau", "col": 1, "acceptRule": {"when": "card.rnak == 1"}}]
    with pytest.raises(RuleError, match=r"does not compile.*at /depots/1/acceptRule/when"):
        design(depots)


def test_deal_counts_and_effect_counts_may_be_expressions() -> None:
    spill = {
        "when": "count(depot) > 2",
        "do": [{"kind": "move", "from": "@self", "to": "spill", "count": "count(depot) - 2"}],
    }
    depots = [
        STOCK,
        {"name": "col", "type": "Tableau", "repeat": 3, "col": 1, "triggers": [spill]},
        {"name": "spill", "type": "Reserve", "col": 5},
    ]
    game = design(depots, dealRules=[{"kind": "dealGroup", "to": "col", "faceUp": "index(depot) + 1"}])
    state = game.new_initial_state(seed=4)
    # col[0] gets 1 card, col[1] 2, col[2] 3 -- then its trigger moves the card above the second away
    assert [len(state.piles[game.index[f"col[{i}]"]]) for i in range(3)] == [1, 2, 2]
    assert len(state.piles[game.index["spill"]]) == 1
    assert len(state.piles[0]) == 52 - 6


def test_win_and_loss_conditions_written_as_expressions() -> None:
    depots = [{**STOCK, "draw": {"to": "waste"}}, {"name": "waste", "type": "Waste", "col": 1}]
    won = design(depots, winCondition={"kind": "when", "when": "count(waste) >= 3"})
    state = won.new_initial_state(seed=2)
    for _ in range(3):
        assert not state.is_terminal()
        state.apply(Tap("stock"))
    assert state.outcome().won and state.returns() == [1.0]
    lost = design(
        depots, lossCondition={"kind": "when", "when": "count(waste) == 2"}, scoring={"value": "count(stock)"}
    )
    state = lost.new_initial_state(seed=2)
    state.apply(Tap("stock"))
    state.apply(Tap("stock"))
    outcome = state.outcome()
    assert (outcome.lost, outcome.termination, outcome.score) == (True, Termination.LOST_CONDITION, 50)
    assert state.legal_moves() == [] and state.returns() == [0.0]
