"""The engine's format extensions, each on a small design written for it, with explicit decks.

suits, ``move`` from a group (``where``, ``faceUp``), the ``deal`` and ``redeal``
effects, ``flip``'s ``depot``, ``dealGroup.match``, ``remove.to``, ``toBottom`` and the Joker rank.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardz_tools.cards import FACE_UP, JOKER, Rank, Suit, make_card, shuffle, standard_deck
from cardz_tools.engine import DeckError, Drag, Game, Tap
from cardz_tools.engine.effects import reshuffle_seed
from cardz_tools.model import build_design


def game_of(depots: list[dict[str, Any]], **top: Any) -> Game:
    """A one-rule design: never won (no Foundation unless given)."""
    data: dict[str, Any] = {
        "name": "Test",
        "depots": depots,
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
        "lossCondition": {"kind": "never"},
        **top,
    }
    return Game(build_design(data))


def up(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c | FACE_UP for c in cards)


def down(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c & ~FACE_UP for c in cards)


def pile(game: Game, state: Any, name: str) -> tuple[int, ...]:
    return state.piles[game.index[name]]


STOCK = {"name": "stock", "type": "Stock", "ejectRule": "locked"}


# ------------------------------------------------------------------ suits


def test_suits_make_the_deck_and_a_deck_of_other_suits_is_refused() -> None:
    game = game_of([STOCK], decks=2, suits=["Hearts", "Spades"])
    state = game.new_initial_state(seed=3)
    assert len(pile(game, state, "stock")) == 52
    suits = {(c >> 4) & 7 for c in pile(game, state, "stock")}
    assert suits == {int(Suit.HEARTS), int(Suit.SPADES)}
    expected = shuffle(standard_deck(2, 0, (Suit.HEARTS, Suit.SPADES)), 3)
    assert pile(game, state, "stock") == tuple(reversed(expected))
    with pytest.raises(DeckError, match="missing"):
        game.new_initial_state(deck=standard_deck(1))


# ------------------------------------------------------------------ move from a group


def _group_move(effect: dict[str, Any]) -> tuple[Game, Any]:
    game = game_of(
        [
            {"name": "col", "type": "Tableau", "repeat": 3, "col": 1},
            {"name": "out", "type": "Tableau", "col": 5},
            {**STOCK, "actions": [{"name": "go", "do": [effect]}]},
        ],
        dealRules=[{"kind": "dealGroup", "to": "col", "faceUp": "col(depot) + 1"}],
    )
    # col[0] gets A♣, col[1] 2♣ 3♣, col[2] 4♣ 5♣ 6♣
    state = game.new_initial_state(deck=standard_deck())
    return game, state


def test_move_from_a_group_takes_from_each_member_where_holds_in_reading_order() -> None:
    game, state = _group_move(
        {"kind": "move", "from": "col", "to": "out", "where": "count(depot) >= 2", "faceUp": False}
    )
    col = [pile(game, state, f"col[{i}]") for i in range(3)]
    state.apply(Tap("stock", "go"))
    assert pile(game, state, "col[0]") == col[0]  # one card: not chosen
    assert pile(game, state, "col[1]") == col[1][:-1]
    assert pile(game, state, "col[2]") == col[2][:-1]
    assert pile(game, state, "out") == down([col[1][-1], col[2][-1]])


def test_a_group_moves_count_sees_the_member_as_depot() -> None:
    game, state = _group_move({"kind": "move", "from": "col", "to": "out", "count": "count(depot) - 1"})
    col = [pile(game, state, f"col[{i}]") for i in range(3)]
    state.apply(Tap("stock", "go"))
    assert [pile(game, state, f"col[{i}]") for i in range(3)] == [col[0], col[1][:1], col[2][:1]]
    assert pile(game, state, "out") == col[1][1:] + col[2][1:]  # facing kept: faceUp absent


def test_members_are_chosen_before_any_card_moves() -> None:
    # Moving col[0]'s card onto col[1] first would make col[1] qualify; it must not be re-checked.
    game = game_of(
        [
            {"name": "col", "type": "Tableau", "repeat": 2, "col": 1},
            {**STOCK, "actions": [{"name": "go", "do": [
                {"kind": "move", "from": "col", "to": "col[1]", "where": "count(depot) == 1"}]}]},
        ],
        dealRules=[{"kind": "dealGroup", "to": "col[0]", "faceUp": 1}],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    state.apply(Tap("stock", "go"))
    assert pile(game, state, "col[0]") == ()
    assert pile(game, state, "col[1]") == up(deck[:1])


def test_move_face_up_turns_the_moved_cards() -> None:
    game = game_of(
        [
            {**STOCK, "actions": [{"name": "go", "do": [
                {"kind": "move", "from": "stock", "to": "out", "count": 2, "faceUp": True}]}]},
            {"name": "out", "type": "Tableau", "col": 1},
        ],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    state.apply(Tap("stock", "go"))
    assert pile(game, state, "out") == up([deck[1], deck[0]])  # the stock's top first, order kept


# ------------------------------------------------------------------ deal


def _dealer(count: object) -> Game:
    return game_of(
        [
            {**STOCK, "actions": [{"name": "deal", "do": [
                {"kind": "deal", "from": "stock", "to": "tab", "count": count}]}]},
            {"name": "tab", "type": "Tableau", "repeat": 3, "col": 1},
        ],
    )


def test_deal_gives_one_card_to_each_depot_per_round() -> None:
    game = _dealer(2)
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    state.apply(Tap("stock", "deal"))
    assert [pile(game, state, f"tab[{i}]") for i in range(3)] == [
        up([deck[0], deck[3]]), up([deck[1], deck[4]]), up([deck[2], deck[5]])
    ]
    assert len(pile(game, state, "stock")) == 46


def test_deal_stops_when_the_source_is_empty() -> None:
    game = _dealer("all")
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    state.apply(Tap("stock", "deal"))
    assert pile(game, state, "stock") == ()
    assert [len(pile(game, state, f"tab[{i}]")) for i in range(3)] == [18, 17, 17]
    assert pile(game, state, "tab[0]")[-1] == deck[51] | FACE_UP


# ------------------------------------------------------------------ redeal


def test_redeal_keeps_deals_counts_and_sends_leftovers_to_the_last_member() -> None:
    game = game_of(
        [
            {"name": "cell", "type": "Tableau", "repeat": 4, "perRow": 4, "fanDirection": "None"},
            {"name": "button", "type": "Foundation", "col": 5, "ejectRule": "locked",
             "actions": [{"name": "redeal", "limit": 2, "do": [
                 {"kind": "redeal", "group": "cell", "keep": "col(depot) == 0",
                  "count": "kept(left(depot)) ? 0 : 3"}]}]},
        ],
        dealRules=[
            {"kind": "dealGroup", "to": "cell", "faceDown": 1, "faceUp": 1},
            {"kind": "dealGroup", "to": "cell[3]", "faceUp": 5},
        ],
        suits=["Spades"],
    )
    deck = standard_deck(1, 0, (Suit.SPADES,))
    state = game.new_initial_state(deck=deck)
    before = [pile(game, state, f"cell[{i}]") for i in range(4)]
    assert before[0] == (deck[0], deck[1] | FACE_UP)
    state.apply(Tap("button", "redeal"))
    # cell[0] kept; cell[1] (after a kept cell) gets 0, cell[2] 3; no Stock: cell[3] gets 3 and the 5 left over.
    gathered = list(before[1] + before[2] + before[3])
    order = up(shuffle(gathered, reshuffle_seed(None, 1)))
    assert pile(game, state, "cell[0]") == before[0]
    assert pile(game, state, "cell[1]") == ()
    assert pile(game, state, "cell[2]") == order[:3]
    assert pile(game, state, "cell[3]") == order[3:]
    assert state.reshuffles == 1
    first = state.clone()
    state.apply(Tap("button", "redeal"))
    gathered = list(pile(game, first, "cell[1]") + pile(game, first, "cell[2]") + pile(game, first, "cell[3]"))
    order = up(shuffle(gathered, reshuffle_seed(None, 2)))
    assert pile(game, state, "cell[2]") == order[:3] and pile(game, state, "cell[3]") == order[3:]
    assert state.reshuffles == 2
    assert Tap("button", "redeal") not in state.legal_moves()  # limit 2


def test_redeal_seed_follows_the_games_seed_and_leftovers_go_to_the_stock() -> None:
    game = game_of(
        [
            {"name": "cell", "type": "Tableau", "repeat": 2, "fanDirection": "None"},
            {**STOCK, "col": 3, "actions": [{"name": "redeal", "do": [
                {"kind": "redeal", "group": "cell", "faceUp": False}]}]},
        ],
        dealRules=[{"kind": "dealGroup", "to": "cell", "faceUp": 3}],
    )
    state = game.new_initial_state(seed=11)
    cells = pile(game, state, "cell[0]") + pile(game, state, "cell[1]")
    stock = pile(game, state, "stock")
    state.apply(Tap("stock", "redeal"))
    order = down(shuffle(list(cells), reshuffle_seed(11, 1)))
    assert reshuffle_seed(11, 1) == (11 + 0xD1B54A32D192ED03) % 2**64
    assert pile(game, state, "cell[0]") == order[:1]
    assert pile(game, state, "cell[1]") == order[1:2]
    assert pile(game, state, "stock") == stock + tuple(reversed(order[2:]))  # next in order on top


def test_reshuffles_are_part_of_the_key() -> None:
    game = game_of(
        [
            {"name": "cell", "type": "Tableau", "repeat": 2, "fanDirection": "None"},
            {**STOCK, "col": 3, "actions": [{"name": "redeal", "do": [
                {"kind": "redeal", "group": "cell", "keep": "true"}]}]},
        ],
        dealRules=[{"kind": "dealGroup", "to": "cell", "faceUp": 1}],
    )
    state = game.new_initial_state(deck=standard_deck())
    other = state.clone()
    other.apply(Tap("stock", "redeal"))  # keeps everything: only k changes
    assert other.piles == state.piles and other.reshuffles == 1
    assert other.key() != state.key()


# ------------------------------------------------------------------ flip


def test_flip_turns_the_named_depots_top_card() -> None:
    game = game_of(
        [
            {"name": "col", "type": "Tableau", "repeat": 2, "col": 1},
            {**STOCK, "actions": [{"name": "turn", "do": [{"kind": "flip", "depot": "col[1]"}]}]},
        ],
        dealRules=[{"kind": "dealGroup", "to": "col", "faceDown": 2}],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    state.apply(Tap("stock", "turn"))
    assert pile(game, state, "col[0]") == (deck[0], deck[1])
    assert pile(game, state, "col[1]") == (deck[2], deck[3] | FACE_UP)


# ------------------------------------------------------------------ dealGroup.match


def test_match_deals_the_first_matching_cards_and_the_rest_keep_their_order() -> None:
    game = game_of(
        [STOCK, {"name": "found", "type": "Foundation", "repeat": 2, "col": 1}],
        dealRules=[
            {"kind": "dealGroup", "to": "found", "faceUp": 1, "match": "card.rank == Ace && card.suit.color == Red"}
        ],
    )
    deck = standard_deck()  # clubs, diamonds, hearts, spades
    state = game.new_initial_state(deck=deck)
    assert pile(game, state, "found[0]") == up([deck[13]])  # A♦
    assert pile(game, state, "found[1]") == up([deck[26]])  # A♥
    rest = [c for i, c in enumerate(deck) if i not in (13, 26)]
    assert pile(game, state, "stock") == tuple(reversed(rest))


def test_match_by_depot_and_no_match_deals_nothing() -> None:
    game = game_of(
        [STOCK, {"name": "found", "type": "Foundation", "repeat": 2, "col": 1}],
        dealRules=[{"kind": "dealGroup", "to": "found", "faceUp": 2, "match": "col(depot) == 0 && card.rank == King"}],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    assert pile(game, state, "found[0]") == up([deck[12], deck[25]])
    assert pile(game, state, "found[1]") == ()


# ------------------------------------------------------------------ remove.to and Joker


def test_remove_to_puts_the_cards_there_face_up_in_the_order_found() -> None:
    game = game_of(
        [
            STOCK,
            {"name": "col", "type": "Tableau", "repeat": 2, "col": 1},
            {"name": "aces", "type": "Foundation", "col": 4},
        ],
        dealRules=[
            {"kind": "dealGroup", "to": "col", "faceUp": 14},
            {"kind": "remove", "ranks": ["Ace"], "to": "aces"},
        ],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    # col[0] holds deck[0..13] (A♣, A♦), col[1] deck[14..27] (A♥), A♠ is undealt.
    assert pile(game, state, "aces") == up([deck[0], deck[13], deck[26], deck[39]])
    assert pile(game, state, "col[0]") == up(deck[1:13])
    assert len(pile(game, state, "stock")) == 52 - 28 - 1
    assert state.cards_in_play == 52


def test_to_bottom_moves_the_ranks_under_each_piles_other_cards_keeping_order_and_facing() -> None:
    game = game_of(
        [STOCK, {"name": "col", "type": "Tableau", "repeat": 2, "col": 1}],
        dealRules=[
            {"kind": "dealGroup", "to": "col", "faceDown": 2, "faceUp": 12},
            {"kind": "toBottom", "ranks": ["King", "Queen"], "to": "col[0]"},
        ],
    )
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    # col[0] holds deck[0..13]: A♣..K♣ (Q♣, K♣ face up) and A♦; col[1] is left as dealt.
    dealt = down(deck[0:2]) + up(deck[2:14])
    assert pile(game, state, "col[0]") == (dealt[11], dealt[12]) + dealt[:11] + dealt[13:]
    assert pile(game, state, "col[1]") == down(deck[14:16]) + up(deck[16:28])
    assert len(pile(game, state, "stock")) == 52 - 28  # undealt Kings stay where they are


def test_removing_jokers_and_a_joker_as_wild_rank() -> None:
    game = game_of(
        [
            STOCK,
            {"name": "pile", "type": "Tableau", "col": 1, "acceptRule": {"follow": True, "wildRank": "Joker"}},
            {"name": "hand", "type": "Tableau", "col": 3, "repeat": 2},
        ],
        jokers=2,
        dealRules=[
            {"kind": "dealGroup", "to": "pile", "faceUp": 1},
            {"kind": "dealGroup", "to": "hand", "faceUp": 1},
        ],
    )
    deck = [make_card(Rank.TWO, Suit.CLUBS), JOKER, make_card(Rank.KING, Suit.HEARTS)]
    rest = standard_deck(1, 2)
    for card in deck:
        rest.remove(card)
    deck += rest
    state = game.new_initial_state(deck=deck)
    moves = state.legal_moves()
    assert Drag("hand[0]", 1, "pile", None) in moves  # the joker is wild
    assert Drag("hand[1]", 1, "pile", None) not in moves  # K♥ does not follow 2♣

    remover = game_of([STOCK], jokers=2, dealRules=[{"kind": "remove", "ranks": ["Joker"]}])
    state = remover.new_initial_state(seed=5)
    assert state.cards_in_play == 52 and JOKER not in {c & ~FACE_UP for c in pile(remover, state, "stock")}


def test_a_quantifier_rule_shared_by_several_sources_and_another_quantifier_both_run() -> None:
    # The generated move lister inlines the eject rule once per source; the action's all()
    # must not reuse the name of the eject rule's chain() helper (it did: a TypeError).
    game = game_of(
        [
            {
                **STOCK,
                "actions": [
                    {"name": "go", "when": "all(Tableau, !empty(it))", "do": [{"kind": "flip", "depot": "tab[0]"}]}
                ],
            },
            {
                "name": "tab",
                "type": "Tableau",
                "repeat": 3,
                "col": 1,
                "acceptRule": "any",
                "ejectRule": {"when": "chain(cards, it.rank == prev.rank - 1)"},
            },
        ],
        dealRules=[{"kind": "dealGroup", "to": "tab", "faceUp": 2}],
    )
    deck = [
        make_card(Rank(r), suit)
        for r, suit in (
            (9, Suit.CLUBS),
            (8, Suit.CLUBS),
            (9, Suit.DIAMONDS),
            (7, Suit.DIAMONDS),
            (5, Suit.CLUBS),
            (4, Suit.CLUBS),
        )
    ]
    deck += [c for c in standard_deck() if c not in deck]
    state = game.new_initial_state(deck=deck)
    moves = state.legal_moves()
    assert Drag("tab[0]", 2, "tab[1]", None) in moves  # 9 8 is a run down
    assert Drag("tab[1]", 2, "tab[0]", None) not in moves  # 9 7 is not
    assert Tap("stock", "go") in moves


# ------------------------------------------------------------------ compact


def _compactor(interleaved: bool, refill: bool = True) -> Game:
    """Three Tableau depots compacted from the stock (from nowhere without ``refill``); with
    ``interleaved`` a Cell sits between them."""
    compact = {"kind": "compact", "group": "Tableau", **({"from": "stock"} if refill else {})}
    squeeze = {"name": "squeeze", "do": [compact]}
    tableau = [{"name": name, "type": "Tableau", "col": i + 1} for i, name in enumerate("abc")]
    cells = [{"name": name, "type": "Cell", "col": 5 + i} for i, name in enumerate("xy")]
    depots: list[dict[str, Any]] = [{**STOCK, "actions": [squeeze]}]
    depots += [tableau[0], cells[0], tableau[1], cells[1], tableau[2]] if interleaved else [*tableau, *cells]
    return game_of(depots)


@pytest.mark.parametrize("interleaved", [False, True], ids=["consecutive members", "members apart"])
def test_compact_slides_the_piles_together_and_refills_the_gaps_from_the_stock(interleaved: bool) -> None:
    game = _compactor(interleaved)
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    two, one = up(deck[:2]), up(deck[2:3])
    state.piles[game.index["a"]] = ()
    state.piles[game.index["b"]] = two
    state.piles[game.index["c"]] = ()
    state.piles[game.index["x"]] = one  # not a member: stays
    state.piles[game.index["stock"]] = down(deck[10:13])  # deck[12] on top
    state.apply(Tap("stock", "squeeze"))
    assert [pile(game, state, name) for name in "abcx"] == [two, up([deck[12]]), up([deck[11]]), one]
    assert pile(game, state, "stock") == down(deck[10:11])
    state.apply(Tap("stock", "squeeze"))  # no gap left: nothing moves
    assert [pile(game, state, name) for name in "abc"] == [two, up([deck[12]]), up([deck[11]])]
    assert pile(game, state, "stock") == down(deck[10:11])


def test_compact_with_an_empty_stock_leaves_the_last_members_empty() -> None:
    game = _compactor(interleaved=True)
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    for name, cards in (("a", ()), ("b", ()), ("c", up(deck[:1])), ("stock", ())):
        state.piles[game.index[name]] = cards
    state.apply(Tap("stock", "squeeze"))
    assert [pile(game, state, name) for name in "abc"] == [up(deck[:1]), (), ()]


@pytest.mark.parametrize("interleaved", [False, True], ids=["consecutive members", "members apart"])
def test_compact_without_from_only_slides_the_piles_together(interleaved: bool) -> None:
    # docs/format.md: `from` is optional; without it the gaps stay at the end, and the stock keeps its cards.
    game = _compactor(interleaved, refill=False)
    deck = standard_deck()
    state = game.new_initial_state(deck=deck)
    two, one = up(deck[:2]), up(deck[2:3])
    for name, cards in (("a", ()), ("b", two), ("c", one), ("stock", down(deck[10:13]))):
        state.piles[game.index[name]] = cards
    state.apply(Tap("stock", "squeeze"))
    assert [pile(game, state, name) for name in "abc"] == [two, one, ()]
    assert pile(game, state, "stock") == down(deck[10:13])
