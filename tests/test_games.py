"""The shipped designs in games/ play by the real rules of their games.

Positions are set up with explicit decks (the deal rules place them) or, where a
deal cannot reach the position cheaply, with piles laid out card by card.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.sim import simulate
from cardz_tools.cards import FACE_UP, Card, card_str, parse_deck, standard_deck
from cardz_tools.engine import Drag, Game, State, Tap
from cardz_tools.lint import lint_paths
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"
SHIPPED = ["klondike", "freecell", "golf", "golf-queen-on-king", "black-hole", "canfield", "accordion"]


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def deck(front: str) -> list[Card]:
    """The cards written in ``front`` first, then the rest of a standard deck in its order."""
    given = parse_deck(front)
    return given + [c for c in standard_deck() if c not in given]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c | FACE_UP for c in parse_deck(text))


def legal(state: State, move: Drag | Tap) -> bool:
    return state.why_illegal(move) is None


def drag(source: str, target: str, count: int = 1) -> Drag:
    return Drag(source, count, target)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_designs_lint_clean(name: str) -> None:
    result = lint_paths([GAMES / f"{name}.cardz"])
    assert [d.code for report in result.files for d in report.diagnostics] == []


# ------------------------------------------------------------------ Klondike

# tab[0] 7♥ | tab[1] · 8♠ | tab[2] · · K♣ | tab[3] · · · Q♦ | tab[4] 4 down, A♥ | tab[5] 5 down, 2♥ | tab[6] 6 down, 7♣
KLONDIKE = "7H  2C 8S  3C 4C KC  5C 6C 7C QD  8C 9C 10C JC AH  QC AD 2D 3D 4D 2H  5D 6D 7D 8D 9D 10D 7S"


def test_klondike_deals_the_triangle_and_the_stock() -> None:
    game = game_of("klondike")
    state = game.new_initial_state(deck=deck(KLONDIKE))
    heights = [len(state.piles[game.index[f"tab[{i}]"]]) for i in range(7)]
    assert heights == [1, 2, 3, 4, 5, 6, 7]
    assert len(state.piles[game.index["stock"]]) == 24
    assert state.piles[game.index["tab[2]"]][-1] == cards("KC")[0]


def test_klondike_builds_down_in_alternate_colours_and_only_a_king_fills_a_gap() -> None:
    state = game_of("klondike").new_initial_state(deck=deck(KLONDIKE))
    assert legal(state, drag("tab[0]", "tab[1]"))  # 7♥ on 8♠
    assert not legal(state, drag("tab[6]", "tab[1]"))  # 7♣ on 8♠: same colour
    assert not legal(state, drag("tab[5]", "tab[1]"))  # 2♥ on 8♠: not one lower
    state.apply(drag("tab[0]", "tab[1]"))
    assert not legal(state, drag("tab[3]", "tab[0]"))  # a Queen into the empty column
    assert legal(state, drag("tab[2]", "tab[0]"))  # a King
    assert legal(state, drag("tab[1]", "tab[0]")) is False  # 8♠ 7♥ is not headed by a King


def test_klondike_foundations_build_up_by_suit_from_the_ace() -> None:
    state = game_of("klondike").new_initial_state(deck=deck(KLONDIKE))
    assert not legal(state, drag("tab[5]", "found[0]"))  # 2♥ on an empty foundation
    state.apply(drag("tab[4]", "found[0]"))  # A♥
    assert legal(state, drag("tab[5]", "found[0]"))  # 2♥ on A♥
    assert not legal(state, drag("tab[5]", "found[1]"))
    assert not legal(state, drag("tab[0]", "found[0]"))  # 7♥ on A♥


def test_klondike_turns_three_and_redeals_without_limit() -> None:
    game = game_of("klondike")
    state = game.new_initial_state(deck=deck(KLONDIKE))
    stock, waste = game.index["stock"], game.index["waste"]
    first = state.piles[stock][-3:]
    state.apply(Tap("stock", None))
    assert len(state.piles[waste]) == 3 and state.piles[waste][-1] == first[0] | FACE_UP
    for _ in range(3):
        while state.piles[stock]:
            state.apply(Tap("stock", None))
        state.apply(Tap("stock", None))  # the redeal
        assert len(state.piles[stock]) == 24 and not state.piles[waste]


# ------------------------------------------------------------------ FreeCell


def freecell_position(game: Game, layout: dict[str, str], empty_columns: int) -> State:
    """Piles as given; the other cards spread over the last columns, leaving ``empty_columns`` empty."""
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    used: set[Card] = set()
    for name, text in layout.items():
        piles[game.index[name]] = cards(text)
        used |= {c & ~FACE_UP for c in piles[game.index[name]]}
    rest = [c | FACE_UP for c in standard_deck() if c not in used]
    free = [f"tab[{i}]" for i in range(8) if f"tab[{i}]" not in layout]
    free = free[: len(free) - empty_columns]
    for k, card in enumerate(rest):
        name = free[k % len(free)]
        piles[game.index[name]] += (card,)
    return State(game, piles)


@pytest.mark.parametrize(
    ("cells", "empty", "target", "allowed"),
    [
        ("KD QD JD 10D", 0, "tab[1]", 1),  # no free cell, no empty column: one card at a time
        ("KD", 0, "tab[1]", 4),  # three free cells: (3 + 1) x 1
        ("KD QD JD", 1, "tab[1]", 4),  # one free cell, one empty column: (1 + 1) x 2
        ("KD QD JD", 1, "empty", 2),  # the empty column is the target: it does not count
    ],
)
def test_freecell_moves_as_many_cards_as_cells_and_empty_columns_allow(
    cells: str, empty: int, target: str, allowed: int
) -> None:
    game = game_of("freecell")
    layout = {"tab[0]": "5S 9C 8H 7S 6H", "tab[1]": "10H"}
    layout |= {f"cell[{i}]": card for i, card in enumerate(cells.split())}
    state = freecell_position(game, layout, empty)
    if target == "empty":
        target = next(f"tab[{i}]" for i in range(8) if not state.piles[game.index[f"tab[{i}]"]])
    for count in (1, 2, 3, 4):
        fits = target != "tab[1]" or count == 4  # only 9♣ (the run of four) goes on 10♥
        assert legal(state, drag("tab[0]", target, count)) == (fits and count <= allowed), count
    assert not legal(state, drag("tab[0]", target, 5))  # 5♠ 9♣ is no run


def test_freecell_deals_seven_and_six_face_up_and_cells_hold_one_card() -> None:
    game = game_of("freecell")
    state = game.new_initial_state(seed=3)
    assert [len(state.piles[game.index[f"tab[{i}]"]]) for i in range(8)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(c & FACE_UP for pile in state.piles for c in pile)
    state.apply(drag("tab[0]", "cell[0]"))
    assert not legal(state, drag("tab[1]", "cell[0]"))


# ------------------------------------------------------------------ Golf


# Columns' top cards (the fifth round) are deck positions 28..34; the pile gets 35; the stock 36..51.
def golf_deck(tops: str, pile: str) -> list[Card]:
    head = [c for c in standard_deck() if c not in parse_deck(tops + " " + pile)][:28]
    return deck(" ".join(map(card_str, head)) + " " + tops + " " + pile)


def test_golf_plays_one_rank_up_or_down_without_wrapping() -> None:
    game = game_of("golf")
    state = game.new_initial_state(deck=golf_deck("8H 6D 9S 7S KD 2D QS", "7H"))
    fits = [legal(state, drag(f"tab[{i}]", "pile")) for i in range(7)]
    assert fits == [True, True, False, False, False, False, False]
    state = game.new_initial_state(deck=golf_deck("KD 2D QS 3C 4C 5C 6C", "AH"))
    assert [legal(state, drag(f"tab[{i}]", "pile")) for i in range(2)] == [False, True]  # no K on A


def test_golf_puts_nothing_on_a_king_and_the_variant_a_queen() -> None:
    golf, variant = game_of("golf"), game_of("golf-queen-on-king")
    layout = golf_deck("QS AD 2C 3C 4C 5C 6C", "KH")
    assert not any(legal(golf.new_initial_state(deck=layout), drag(f"tab[{i}]", "pile")) for i in range(7))
    state = variant.new_initial_state(deck=layout)
    assert [legal(state, drag(f"tab[{i}]", "pile")) for i in range(3)] == [True, False, False]


def test_golf_stock_turns_onto_the_pile_once() -> None:
    game = game_of("golf")
    state = game.new_initial_state(seed=1)
    for _ in range(16):
        state.apply(Tap("stock", None))
    assert not state.piles[game.index["stock"]] and len(state.piles[game.index["pile"]]) == 17
    assert not legal(state, Tap("stock", None))


# ------------------------------------------------------------------ Black Hole


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_black_hole_starts_with_the_ace_of_spades_in_the_hole(seed: int) -> None:
    game = game_of("black-hole")
    state = game.new_initial_state(seed=deal_seed(0, seed))
    assert state.piles[game.index["hole"]] == cards("AS")
    assert [len(state.piles[game.index[f"fan[{i}]"]]) for i in range(17)] == [3] * 17


def test_black_hole_plays_up_or_down_with_king_and_ace_touching() -> None:
    game = game_of("black-hole")
    # the Ace of Spades is matched out of the deck; fan k then gets the next three cards
    state = game.new_initial_state(deck=deck("AS 5C 6C KD  7C 8C 2H  9C 10C 3S  JC QC AH"))
    assert state.piles[game.index["fan[0]"]] == cards("5C 6C KD")
    assert [legal(state, drag(f"fan[{i}]", "hole")) for i in range(4)] == [True, True, False, False]
    state.apply(drag("fan[0]", "hole"))  # K♦ on A♠
    assert legal(state, drag("fan[3]", "hole"))  # A♥ on K♦
    assert not legal(state, drag("fan[1]", "hole"))  # 2♥ on K♦


# ------------------------------------------------------------------ Canfield


def test_canfield_foundations_start_at_the_first_card_and_turn_the_corner() -> None:
    game = game_of("canfield")
    # reserve 13, found[0] 1, tab 4
    state = game.new_initial_state(deck=deck("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC  KD  KH AD QS 8D"))
    assert state.piles[game.index["found[0]"]] == cards("KD")
    assert legal(state, drag("tab[0]", "found[1]"))  # K♥ starts another foundation
    assert not legal(state, drag("tab[3]", "found[1]"))  # 8♦ does not
    assert legal(state, drag("tab[1]", "found[0]"))  # A♦ on K♦: the corner
    state.apply(drag("tab[1]", "found[0]"))
    assert state.piles[game.index["tab[1]"]] == cards("AC")  # refilled from the reserve
    assert legal(state, drag("tab[2]", "tab[0]"))  # Q♠ on K♥: down in alternate colours
    assert not legal(state, drag("tab[3]", "tab[2]"))  # 8♦ on Q♠


# ------------------------------------------------------------------ Accordion


def test_accordion_moves_a_pile_one_or_three_left_onto_a_match_and_closes_up() -> None:
    game = game_of("accordion")
    state = game.new_initial_state(deck=deck("5H 9C 2D 5S 9S 3H"))
    assert not legal(state, drag("row[1]", "row[0]"))  # 9♣ on 5♥: no match
    assert not legal(state, drag("row[2]", "row[0]"))  # two to the left
    assert legal(state, drag("row[3]", "row[0]"))  # 5♠ on 5♥, three to the left
    state.apply(drag("row[3]", "row[0]"))
    assert state.piles[game.index["row[3]"]] == cards("9S")  # the row closed up
    assert not state.piles[game.index["row[51]"]]
    state.apply(drag("row[3]", "row[0]"))  # 9♠ on 5♠: suit
    state.apply(drag("row[1]", "row[0]"))  # 9♣ on 9♠: rank
    assert state.piles[game.index["row[0]"]] == cards("5H 5S 9S 9C")
    assert state.piles[game.index["row[1]"]] == cards("2D")


def test_accordion_pile_moves_only_whole() -> None:
    game = game_of("accordion")
    state = game.new_initial_state(deck=deck("9S 5H 9H"))
    state.apply(drag("row[2]", "row[1]"))  # 9♥ on 5♥: suit
    assert state.piles[game.index["row[1]"]] == cards("5H 9H")
    assert legal(state, drag("row[1]", "row[0]", 2))  # the pile, topped by 9♥, on 9♠
    assert not legal(state, drag("row[1]", "row[0]", 1))


# ------------------------------------------------------------------ analysis on the designs


def test_endless_play_in_a_game_that_can_be_won_is_a_warning_not_a_design_error() -> None:
    # Random Klondike cycles the stock for ever once nothing else helps: from there no move wins
    # or loses (a warning), but every examined deal can still end (so not an error) ...
    design = json.loads((GAMES / "klondike.cardz").read_text(encoding="utf-8"))
    del design["lossCondition"]
    report = simulate(json.dumps(design), 4, workers=1, max_moves=300)
    finding = next(f for f in report.findings if f.kind.value == "non-terminating")
    assert finding.severity == "warning"
    assert "until the player gives up" in finding.message and '"noProgress"' in finding.message


def test_klondike_says_when_the_player_gives_up_so_endless_play_is_a_loss() -> None:
    # ... and with its loss condition noProgress those same playouts are losses, proven by a search.
    report = simulate((GAMES / "klondike.cardz").read_text(encoding="utf-8"), 4, workers=1, max_moves=300)
    assert not [f for f in report.findings if f.kind.value == "non-terminating" and f.severity != "info"]
    assert report.aggregate.non_terminating < 4


# ------------------------------------------------------------------ docs/deals.md

DOCS = GAMES.parent / "docs"


def pysol_board(section: str) -> list[list[str]]:
    """The columns of the board printed in one ``## Golf`` / ``## Black Hole`` section of docs/deals.md."""
    text = (DOCS / "deals.md").read_text(encoding="utf-8").split(f"## {section}\n", 1)[1]
    block = text.split("```text\n", 1)[1].split("```", 1)[0]
    return [line.split() for line in block.splitlines() if line and ":" not in line]


@pytest.mark.parametrize(
    ("design", "section", "columns"), [("golf", "Golf", "tab"), ("black-hole", "Black Hole", "fan")]
)
def test_the_worked_examples_in_docs_deals_reproduce_their_boards(design: str, section: str, columns: str) -> None:
    from typer.testing import CliRunner

    from cardz_tools.cli import app

    deck_file = DOCS / "deals" / f"{design}-example.deck"
    game = game_of(design)
    state = game.new_initial_state(deck=parse_deck(deck_file.read_text(encoding="utf-8")))
    board = pysol_board(section)
    assert [state.piles[game.index[f"{columns}[{i}]"]] for i in range(len(board))] == [
        cards(" ".join(c)) for c in board
    ]
    text = (DOCS / "deals.md").read_text(encoding="utf-8").split(f"## {section}\n", 1)[1]
    foundation = text.split("Foundations: ", 1)[1].split()[0]
    assert state.piles[game.index["pile" if design == "golf" else "hole"]] == cards(foundation)
    if design == "golf":
        talon = text.split("Talon: ", 1)[1].splitlines()[0].split()
        stock = state.piles[game.index["stock"]]
        assert [c | FACE_UP for c in reversed(stock)] == list(cards(" ".join(talon)))  # top of the stock first
    result = CliRunner().invoke(app, ["deal", str(GAMES / f"{design}.cardz"), "--deck", str(deck_file)])
    assert result.exit_code == 0, result.output


def test_a_group_trigger_with_two_quantifiers_fires_on_every_member() -> None:
    """Regression: the generated settle pass once gave two quantifiers of a shared rule one helper name."""
    import json

    from cardz_tools.model import build_design

    data = json.loads((GAMES / "accordion.cardz").read_text(encoding="utf-8"))
    data["depots"][0]["triggers"][0]["when"] = (
        "index(depot) == 51 && max(row, empty(it) ? 0 : index(it) + 1) > count(row, !empty(it))"
    )
    game = Game(build_design(data))
    state = game.new_initial_state(deck=deck("5H 9C 2D 5S 9S 3H"))
    state.apply(drag("row[3]", "row[0]"))
    assert state.piles[game.index["row[3]"]] == cards("9S") and not state.piles[game.index["row[51]"]]
