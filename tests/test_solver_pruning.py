"""The solver's generic reductions: order-blind sink keys and dead-card pruning."""

from __future__ import annotations

from pathlib import Path

from cardz_tools.analysis.dead_cards import dead_card_check
from cardz_tools.analysis.position_key import key_function, order_blind_sinks
from cardz_tools.analysis.solve import solve_state
from cardz_tools.cards import FACE_UP, Card, parse_deck, standard_deck
from cardz_tools.engine import Drag, Game, State
from cardz_tools.loading import open_design

GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c | FACE_UP for c in parse_deck(text))


def test_sinks_are_the_locked_piles_nothing_takes_from() -> None:
    golf, klondike, freecell, monte = game_of("golf"), game_of("klondike"), game_of("freecell"), game_of("monte-carlo")
    assert [golf.names[d] for d in order_blind_sinks(golf)] == ["pile"]
    assert order_blind_sinks(klondike) == ()  # its foundations give cards back
    assert [freecell.names[d] for d in order_blind_sinks(freecell)] == [f"found[{i}]" for i in range(4)]
    assert [monte.names[d] for d in order_blind_sinks(monte)] == ["discard"]


def test_a_rule_that_reads_a_piles_order_keeps_every_sink_ordered() -> None:
    canfield = game_of("canfield")  # bottom(found[0]) reads the order of a foundation
    assert order_blind_sinks(canfield) == ()


def test_positions_that_differ_only_under_the_sink_top_share_a_key() -> None:
    game = game_of("black-hole")
    one = game.new_initial_state(deck=standard_deck())
    two = one.clone()
    hole = game.index["hole"]
    one.piles[hole] = cards("AS 2C 2H 3D")
    two.piles[hole] = cards("AS 2H 2C 3D")
    key = key_function(game)
    assert key(one) == key(two)
    two.piles[hole] = cards("AS 2H 3D 2C")  # another top card
    assert key(one) != key(two)


def position(game: Game, layout: dict[str, str]) -> State:
    """The named piles as given, every other card in the hole (a sink), the Ace of Spades on top."""
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    used: set[Card] = set()
    for name, text in layout.items():
        piles[game.index[name]] = cards(text)
        used |= set(parse_deck(text))
    rest = [c | FACE_UP for c in standard_deck() if c not in used]
    piles[game.index["hole"]] = tuple(rest)
    return State(game, piles)


def test_a_card_no_reachable_top_accepts_loses_the_position() -> None:
    game = game_of("black-hole")
    dead = dead_card_check(game)
    assert dead is not None
    # 7♣ needs a Six or an Eight on the hole; the only ones left lie under it in its own fan.
    buried = position(game, {"fan[0]": "6C 6D 6H 6S 8C 8D 8H 8S 7C", "fan[1]": "KS"})
    assert dead(buried)
    assert solve_state(buried, budget=10_000)[0] == "lost"
    # With one Eight in another fan the position is not known to be dead.
    alive = position(game, {"fan[0]": "6C 6D 6H 6S 8C 8D 8H 7C", "fan[1]": "8S KS"})
    assert not dead(alive)


def test_the_pruned_solver_still_finds_a_short_win() -> None:
    game = game_of("black-hole")
    # A♠ on top of the hole; 2♠ 3♠ 4♦ 5♥ is the one way out.
    state = position(game, {"fan[0]": "3S 2S", "fan[1]": "4D", "fan[2]": "5H"})
    hole = game.index["hole"]
    rest = [c for c in state.piles[hole] if c & ~FACE_UP != parse_deck("AS")[0]]
    state.piles[hole] = tuple(rest) + cards("AS")
    result, line, _ = solve_state(state, budget=10_000)
    assert result == "won"
    replay = state.clone()
    for move in line:
        replay.apply(move)
    assert replay.outcome().won and line == [Drag("fan[0]", 1, "hole")] * 2 + [
        Drag(f"fan[{i}]", 1, "hole") for i in (1, 2)
    ]
