"""The catalog's designs from Solvitaire's presets (issue 20) play by their rules.

Each test lays out a small position card by card (the other piles empty) or deals a seed,
and asks the engine which moves are legal. Cheap: no search, no playouts.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from cardz_tools.cards import FACE_UP, Card, parse_deck
from cardz_tools.engine import Drag, Game, State, Tap
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def up(text: str) -> tuple[Card, ...]:
    return tuple(c | FACE_UP for c in parse_deck(text))


def down(text: str) -> tuple[Card, ...]:
    return tuple(parse_deck(text))


def position(game: Game, layout: dict[str, tuple[Card, ...]]) -> State:
    """Every pile empty but those of ``layout`` (cards bottom first)."""
    state = game.new_initial_state(seed=0)
    for index in range(len(game.names)):
        state.set_pile(index, ())
    for name, cards in layout.items():
        state.set_pile(game.index[name], cards)
    return state


def legal(state: State, move: Drag | Tap) -> bool:
    return state.why_illegal(move) is None


def heights(game: Game, state: State, group: str) -> list[int]:
    return [len(state.piles[i]) for i, name in enumerate(game.names) if name.startswith(f"{group}[")]


# ------------------------------------------------------------------ the deals


@pytest.mark.parametrize(
    ("name", "group", "expected"),
    [
        ("eight-off", "tab", [6] * 8),
        ("eight-off", "cell", [1, 0] * 4),
        ("fore-cell", "cell", [1] * 4),
        ("seahaven-towers", "tab", [5] * 10),
        ("seahaven-towers", "cell", [0, 1, 1, 0]),
        ("spiderette", "tab", [1, 2, 3, 4, 5, 6, 7]),
        ("spider", "tab", [6] * 4 + [5] * 6),
        ("beleaguered-castle", "tab", [6] * 8),
        ("beleaguered-castle", "found", [1] * 4),
        ("streets-and-alleys", "tab", [7] * 4 + [6] * 4),
        ("king-albert", "tab", list(range(1, 10))),
        ("king-albert", "reserve", [1] * 7),
        ("raglan", "tab", [1, 2, 3, 4, 5, 6, 7, 7, 7]),
        ("raglan", "reserve", [1] * 6),
        ("somerset", "tab", [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]),
        ("simple-simon", "tab", [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]),
        ("fan", "tab", [3] * 16 + [2] * 2),
        ("flower-garden", "bouquet", [1] * 16),
        ("northwest-territory", "tab", list(range(1, 9))),
        ("lucas", "tab", [3] * 9 + [2] * 4),
        ("lucas", "found", [1] * 8),
        ("gargantua", "tab", list(range(1, 10))),
        ("klondike-two-deck-9", "tab", list(range(1, 10))),
        ("ultra-klondike-2-deck", "tab", list(range(1, 13))),
        ("klondike-reserve", "tab", list(range(1, 8))),
        ("klondike-reserve", "reserve", [1] * 24),
        ("freecell-seven-pile", "tab", [8] * 3 + [7] * 4),
        ("fore-cell-same-suit", "cell", [1] * 4),
        ("duchess", "tab", [0] * 4),
        ("thirty", "tab", [6] * 5),
        ("mrs-mop", "tab", [8] * 13),
        ("one-cell", "tab", [4] * 9 + [3] * 4),
        ("two-cell", "cell", [0, 0]),
        ("late-binding", "row", [1] * 18),
    ],
)
def test_the_deal_lays_out_the_presets_piles(name: str, group: str, expected: list[int]) -> None:
    game = game_of(name)
    assert heights(game, game.new_initial_state(seed=5), group) == expected


@pytest.mark.parametrize(
    ("name", "stock"),
    [("spiderette", 24), ("will-o-the-wisp", 31), ("east-haven", 31), ("forty-thieves", 64), ("lucas", 61),
     ("maria", 68), ("limited", 68), ("gargantua", 59), ("gargantua-redeal", 59), ("klondike-two-deck-9", 59),
     ("ultra-klondike-2-deck", 26), ("american-toad", 75), ("duchess", 36), ("chameleon", 36),
     ("fortunes-favor", 36), ("thirty-six", 16), ("late-binding", 34)],
)
def test_the_stock_holds_what_the_preset_leaves(name: str, stock: int) -> None:
    game = game_of(name)
    stock_name = "unused" if name == "late-binding" else "stock"
    assert len(game.new_initial_state(seed=1).piles[game.index[stock_name]]) == stock


def test_late_binding_closes_its_row_of_eighteen_and_is_won_with_one_pile() -> None:
    game = game_of("late-binding")
    state = position(game, {"row[0]": up("5H"), "row[1]": up("9H"), "row[2]": up("KC"), "unused": down("2C 3C")})
    state.apply(Drag("row[1]", 1, "row[0]"))  # same suit, one to the left
    assert state.piles[game.index["row[1]"]] == up("KC") and state.piles[game.index["row[2]"]] == ()
    assert not state.outcome().won
    gathered = position(game, {"row[0]": up("5H 9H KC"), "unused": down("2C 3C")})
    assert gathered.outcome().won  # one pile left; the cards out of play do not count


@pytest.mark.parametrize("seed", range(6))
def test_bakers_dozen_puts_every_king_at_the_bottom_of_its_column(seed: int) -> None:
    game = game_of("bakers-dozen")
    state = game.new_initial_state(seed=seed)
    columns = [state.piles[game.index[f"tab[{i}]"]] for i in range(13)]
    assert sorted(len(column) for column in columns) == [4] * 13
    for column in columns:
        kings = [c & 0x0F == 13 for c in column]
        assert kings == sorted(kings, reverse=True)  # Kings first (at the bottom), then the others


def test_thirty_plays_a_deck_of_ace_to_eight() -> None:
    game = game_of("thirty")
    state = game.new_initial_state(seed=2)
    assert state.cards_in_play == 32
    assert all(1 <= (c & 0xF) <= 8 for p in state.piles for c in p)


# ------------------------------------------------------------------ the FreeCell family


@pytest.mark.parametrize(
    ("name", "cells_used", "allowed"),
    [("eight-off", 6, 3), ("eight-off", 8, 1), ("fore-cell", 2, 3), ("fore-cell", 4, 1), ("seahaven-towers", 3, 2)],
)
def test_with_kings_only_spaces_a_run_moves_through_the_free_cells_alone(
    name: str, cells_used: int, allowed: int
) -> None:
    game = game_of(name)
    same_suit = name != "fore-cell"
    run = "9H 8H 7H 6H" if same_suit else "9H 8S 7H 6S"
    cells = ["KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C"][:cells_used]
    layout = {"tab[0]": up("2D " + run), "tab[1]": up("10H" if same_suit else "10S"), "tab[2]": ()}
    layout |= {f"cell[{i}]": up(card) for i, card in enumerate(cells)}
    layout |= {f"tab[{i}]": up("3D") for i in range(3, 8)}
    state = position(game, layout)
    for count in (1, 2, 3, 4):
        target_fits = count == 4
        assert legal(state, Drag("tab[0]", count, "tab[1]")) == (target_fits and count <= allowed), count
        assert not legal(state, Drag("tab[0]", count, "tab[2]"))  # the empty column takes a King only
    state.set_pile(game.index["tab[3]"], up("KS"))
    assert not legal(state, Drag("tab[3]", 1, "tab[2]"))  # a lone King into a space changes nothing (CZ509)
    state.set_pile(game.index["tab[3]"], up("3D KS"))
    assert legal(state, Drag("tab[3]", 1, "tab[2]"))


def test_bakers_game_builds_in_suit_and_moves_runs_in_suit() -> None:
    game = game_of("bakers-game")
    state = position(game, {"tab[0]": up("8H 7H"), "tab[1]": up("9H"), "tab[2]": up("8S"), "tab[3]": up("9S 8C")})
    assert legal(state, Drag("tab[0]", 2, "tab[1]"))
    assert not legal(state, Drag("tab[0]", 2, "tab[3]"))  # 8♥ on 8♣
    assert not legal(state, Drag("tab[3]", 2, "tab[4]"))  # 9♠ 8♣ is no run in suit
    assert not legal(state, Drag("tab[2]", 1, "tab[1]"))  # 8♠ on 9♥


@pytest.mark.parametrize(("name", "cells"), [("freecell-two-cell", 2), ("freecell-three-cell", 3)])
def test_freecell_variants_have_their_cells_and_the_run_limit_follows(name: str, cells: int) -> None:
    game = game_of(name)
    assert sum(1 for n in game.names if n.startswith("cell[")) == cells
    layout = {"tab[0]": up("2D QS JD 10S 9D"), "tab[1]": up("KH")}
    layout |= {f"tab[{i}]": up("2C") for i in range(2, 8)}
    state = position(game, layout)
    assert not legal(state, Drag("tab[0]", 2, "cell[0]"))  # a cell holds one card
    assert legal(state, Drag("tab[0]", 4, "tab[1]")) == (4 <= cells + 1)  # Q♠..9♦ on K♥


# ------------------------------------------------------------------ open games


@pytest.mark.parametrize(
    ("name", "fills"),
    [("beleaguered-castle", True), ("spanish-patience", True), ("alina", False), ("scotch-patience", False),
     ("bakers-dozen", False),
     ("fan", False), ("british-canister", False)],
)
def test_what_an_empty_column_takes(name: str, fills: bool) -> None:
    game = game_of(name)
    state = position(game, {"tab[0]": up("5D QH"), "tab[1]": (), "tab[2]": up("4C KS")})
    assert legal(state, Drag("tab[0]", 1, "tab[1]")) == fills  # a Queen into the space
    kings = name in ("fan", "british-canister")
    assert legal(state, Drag("tab[2]", 1, "tab[1]")) == (fills or kings)


@pytest.mark.parametrize(
    ("name", "card", "allowed"),
    [("beleaguered-castle", "9S", True), ("beleaguered-castle", "9H", True), ("castles-of-spain", "9C", True),
     ("castles-of-spain", "9D", False), ("castles-of-spain", "9H", False), ("delta-star", "9D", True),
     ("delta-star", "9H", False), ("king-albert", "9S", True), ("king-albert", "9H", False)],
)
def test_the_building_rule(name: str, card: str, allowed: bool) -> None:
    game = game_of(name)
    state = position(game, {"tab[0]": up("10D"), "tab[1]": up(card)})
    assert legal(state, Drag("tab[1]", 1, "tab[0]")) == allowed


def test_alpha_star_moves_any_run_in_suit_and_delta_star_one_card() -> None:
    layout = {"tab[0]": up("10D"), "tab[1]": up("2C 9D 8D 7D")}
    assert legal(position(game_of("alpha-star"), layout), Drag("tab[1]", 3, "tab[0]"))
    assert not legal(position(game_of("delta-star"), layout), Drag("tab[1]", 3, "tab[0]"))


def test_king_albert_plays_from_the_reserve_and_takes_foundation_cards_back() -> None:
    game = game_of("king-albert")
    state = position(game, {"tab[0]": up("10D"), "reserve[3]": up("9S"), "found[0]": up("AC 2C 3C")})
    assert legal(state, Drag("reserve[3]", 1, "tab[0]"))
    assert not legal(state, Drag("tab[0]", 1, "reserve[3]"))  # nothing is built on the reserve
    assert legal(state, Drag("found[0]", 1, "tab[1]"))
    assert not legal(state, Drag("found[0]", 1, "found[1]"))


def test_worm_hole_holds_one_card_that_may_go_into_the_hole() -> None:
    game = game_of("worm-hole")
    state = position(game, {"hole": up("AS"), "fan[0]": up("9C 5H"), "fan[1]": up("2D")})
    state.apply(Drag("fan[0]", 1, "worm"))
    assert not legal(state, Drag("fan[1]", 1, "worm"))  # one card only
    state.apply(Drag("fan[1]", 1, "hole"))  # 2♦ on A♠
    state.set_pile(game.index["hole"], up("AS 2D 3C 4H"))
    assert legal(state, Drag("worm", 1, "hole"))  # 5♥ on 4♥


# ------------------------------------------------------------------ stock games


def test_fortunes_favor_fills_a_space_from_the_waste_then_from_the_stock() -> None:
    game = game_of("fortunes-favor")
    layout = {"found[0]": up("AH"), "tab[0]": up("2H"), "tab[1]": up("3H"), "waste": up("9C"), "stock": down("7D")}
    layout |= {f"tab[{i}]": up("KD") for i in range(2, 12)}
    state = position(game, layout)
    state.apply(Drag("tab[0]", 1, "found[0]"))
    assert state.piles[game.index["tab[0]"]] == up("9C")  # from the waste
    state.apply(Drag("tab[1]", 1, "found[0]"))
    assert state.piles[game.index["tab[1]"]] == up("7D")  # the waste is empty: from the stock


@pytest.mark.parametrize(("name", "empty_column_deal"), [("spiderette", True), ("spider", False)])
def test_spiderette_deals_onto_an_empty_column_and_spider_does_not(name: str, empty_column_deal: bool) -> None:
    game = game_of(name)
    state = game.new_initial_state(seed=3)
    state.set_pile(game.index["tab[2]"], ())
    assert legal(state, Tap("stock", "deal")) == empty_column_deal


def test_american_toad_fills_spaces_from_the_reserve_then_only_from_the_waste() -> None:
    game = game_of("american-toad")
    layout = {"found[0]": up("6H"), "tab[0]": up("7H"), "tab[1]": up("9S"), "tab[2]": up("8S"), "tab[3]": up("3D"),
              "waste": up("10S"), "reserve": up("QC")}
    layout |= {f"tab[{i}]": up("2D") for i in range(4, 8)}
    state = position(game, layout)
    state.apply(Drag("tab[0]", 1, "found[0]"))
    assert state.piles[game.index["tab[0]"]] == up("QC")  # the reserve fills the space at once
    state.apply(Drag("tab[2]", 1, "tab[1]"))  # 8♠ on 9♠: the reserve is empty now, so the space stays
    assert state.piles[game.index["tab[2]"]] == ()
    assert not legal(state, Drag("tab[1]", 2, "tab[2]"))  # a column to the space: no
    assert not legal(state, Drag("tab[4]", 1, "tab[3]"))  # nor 2♦ on 3♦ while the space is open
    assert legal(state, Drag("waste", 1, "tab[2]"))


def test_canfield_runs_moves_runs_but_never_builds_across_the_base_rank() -> None:
    game = game_of("canfield-runs")
    # The foundations' base rank is 7 (the first foundation's card).
    layout = {"found[0]": up("7C"), "tab[0]": up("9D 8S 7H"), "tab[1]": up("9H"), "tab[2]": up("6S"),
              "tab[3]": up("AD"), "reserve": up("2C")}
    runs, book = position(game, layout), position(game_of("canfield"), layout)
    assert legal(runs, Drag("tab[0]", 2, "tab[1]"))  # 8♠ 7♥ on 9♥: part of a column
    assert not legal(book, Drag("tab[0]", 2, "tab[1]"))  # the books: the top card or the whole column
    assert not legal(runs, Drag("tab[2]", 1, "tab[0]"))  # 6♠ on 7♥ would build across the base rank
    assert legal(book, Drag("tab[2]", 1, "tab[0]"))
    runs.set_pile(game.index["tab[2]"], up("KS"))
    assert legal(runs, Drag("tab[2]", 1, "tab[3]"))  # a King on an Ace turns the corner


@pytest.mark.parametrize("row", [0, 1, 2, 3])
@pytest.mark.parametrize("two", ["2C", "2D", "2H", "2S"])
def test_gaps_basic_takes_only_the_rows_own_two_at_the_left(row: int, two: str) -> None:
    """Solvitaire's fixed suit: row i takes the Two of its suit index i (clubs, hearts, spades, diamonds)."""
    game = game_of("gaps-basic")
    cells = [f"cell[{i}]" for i in range(52)]
    state = position(game, {name: up("KC") for name in cells})
    state.set_pile(game.index[f"cell[{13 * row}]"], ())
    source = f"cell[{13 * ((row + 1) % 4) + 5}]"
    state.set_pile(game.index[source], up(two))
    assert legal(state, Drag(source, 1, f"cell[{13 * row}]")) == (two == ["2C", "2H", "2S", "2D"][row])  # card::suit


# ------------------------------------------------------------------ presets one setting away


@pytest.mark.parametrize(
    ("name", "count", "redeals"),
    [
        ("gargantua", 1, 0),
        ("gargantua-redeal", 1, -1),
        ("klondike-two-deck-9", 3, -1),
        ("ultra-klondike-2-deck", 3, -1),
    ],
)
def test_the_two_deck_klondikes_draw_and_redeal_as_their_presets(name: str, count: int, redeals: int) -> None:
    game = game_of(name)
    state = game.new_initial_state(seed=2)
    stock, waste = game.index["stock"], game.index["waste"]
    state.apply(Tap("stock"))
    assert len(state.piles[waste]) == count
    state.set_pile(waste, state.piles[waste] + state.piles[stock])
    state.set_pile(stock, ())
    assert legal(state, Tap("stock")) == (redeals != 0)  # turning the waste over


def test_klondike_reserve_plays_any_reserve_card_and_builds_nothing_on_it() -> None:
    game = game_of("klondike-reserve")
    state = position(game, {"tab[0]": up("10D"), "reserve[5]": up("9S"), "reserve[9]": up("AH")})
    assert "stock" not in game.index and "waste" not in game.index
    assert legal(state, Drag("reserve[5]", 1, "tab[0]"))
    assert legal(state, Drag("reserve[9]", 1, "found[0]"))
    assert not legal(state, Drag("tab[0]", 1, "reserve[0]"))


def test_fore_cell_same_suit_builds_in_suit_and_moves_runs_in_suit() -> None:
    game = game_of("fore-cell-same-suit")
    state = position(game, {"tab[0]": up("2C 9H 8H"), "tab[1]": up("10H"), "tab[2]": up("9S"), "tab[3]": up("10S")})
    assert legal(state, Drag("tab[0]", 2, "tab[1]"))  # 9♥ 8♥ on 10♥ (two cards: four free cells)
    assert not legal(state, Drag("tab[2]", 1, "tab[1]"))  # 9♠ on 10♥
    assert legal(state, Drag("tab[2]", 1, "tab[3]"))
    assert legal(position(game_of("fore-cell"), {"tab[2]": up("9S"), "tab[1]": up("10H")}), Drag("tab[2]", 1, "tab[1]"))


def test_freecell_seven_pile_has_seven_columns_and_four_cells() -> None:
    game = game_of("freecell-seven-pile")
    assert sum(1 for n in game.names if n.startswith("tab[")) == 7
    assert sum(1 for n in game.names if n.startswith("cell[")) == 4


@pytest.mark.parametrize("name", ["canfield-auto-reserve-then-waste", "canfield-strict"])
def test_canfield_spaces_take_the_reserve_then_only_the_waste(name: str) -> None:
    game = game_of(name)
    layout = {"found[0]": up("7C"), "tab[0]": up("8C"), "tab[1]": up("9H"), "tab[2]": up("8S"), "tab[3]": up("KD"),
              "waste": up("10S"), "reserve": up("QC")}
    state = position(game, layout)
    state.apply(Drag("tab[0]", 1, "found[0]"))
    assert state.piles[game.index["tab[0]"]] == up("QC")  # the reserve fills the space at once
    state.apply(Drag("tab[2]", 1, "tab[1]"))  # 8♠ on 9♥: the reserve is empty now, so the space stays
    assert state.piles[game.index["tab[2]"]] == ()
    assert not legal(state, Drag("tab[1]", 2, "tab[2]"))  # a column to the space: no
    assert not legal(state, Drag("tab[1]", 1, "tab[2]"))
    assert legal(state, Drag("waste", 1, "tab[2]"))
    runs = position(game_of("canfield-runs"), layout)
    runs.apply(Drag("tab[0]", 1, "found[0]"))
    runs.apply(Drag("tab[2]", 1, "tab[1]"))
    assert legal(runs, Drag("tab[1]", 1, "tab[2]"))  # the preset `canfield`: any card fills a space


def test_canfield_strict_moves_the_top_card_or_the_whole_column_and_the_other_any_run() -> None:
    # The base rank is 7: 9♠ 8♥ on 10♥ and the column 10♦ 9♠ 8♥ on J♠ are builds down in alternate colours.
    layout = {"found[0]": up("7C"), "tab[0]": up("10D 9S 8H"), "tab[1]": up("10H"), "tab[2]": up("JS"),
              "tab[3]": up("KD"), "reserve": up("2C")}
    strict = position(game_of("canfield-strict"), layout)
    runs = position(game_of("canfield-auto-reserve-then-waste"), layout)
    assert not legal(strict, Drag("tab[0]", 2, "tab[1]"))  # part of a column
    assert legal(runs, Drag("tab[0]", 2, "tab[1]"))
    assert legal(strict, Drag("tab[0]", 3, "tab[2]")) and legal(runs, Drag("tab[0]", 3, "tab[2]"))
    assert legal(strict, Drag("tab[0]", 1, "found[0]")) is False  # 8♥ does not follow 7♣
