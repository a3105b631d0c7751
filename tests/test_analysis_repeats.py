"""CZ505's count of positions met before a playout first repeats one: the progress measure keeps it exact."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable
from pathlib import Path

import pytest

from cardz_tools.analysis import playout, repeats
from cardz_tools.analysis.playout import Aggregate, play_range
from cardz_tools.analysis.repeats import AllPositions, ProgressMeasure, progress_measure
from cardz_tools.analysis.runner import game_for
from cardz_tools.cards import SplitMix64
from cardz_tools.engine import Game, State
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from cardz_tools.variants import flatten

GAMES = Path(__file__).parent.parent / "games"
EXAMPLES = Path(__file__).parent / "examples"


def _game(path: Path) -> Game:
    return game_for(open_design(path).json_text)


def _games_without_no_progress() -> list[tuple[str, Game]]:
    """The shipped and valid test designs whose loss is not ``noProgress`` (a design that gives up that way keeps
    every key anyway: :func:`.repeats.positions_tracker`)."""
    games = []
    for path in sorted(GAMES.glob("*.cardz")) + sorted(EXAMPLES.rglob("*.cardz")):
        if "invalid" in path.parts:
            continue
        data, _ = flatten(path)
        if (data.get("lossCondition") or {}).get("kind") != "noProgress":
            games.append((path.stem, Game(build_design(data))))
    return games


def _plain(monkeypatch: pytest.MonkeyPatch, game: Game, playouts: int, max_moves: int) -> Aggregate:
    """The same playouts with every position's key kept (the test before the progress measure)."""
    with monkeypatch.context() as patch:
        patch.setattr(playout, "positions_tracker", lambda game, seed, every=False: AllPositions())
        return play_range(game, 0, playouts, 5, max_moves=max_moves)


def _counts(aggregate: Aggregate) -> dict[str, object]:
    return dataclasses.asdict(aggregate)


def test_every_design_counts_what_keeping_every_key_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    measured = []
    for name, game in _games_without_no_progress():
        if progress_measure(game) is None:
            continue  # played with every key kept, as before
        got = play_range(game, 0, 4, 5, max_moves=150)
        assert _counts(got) == _counts(_plain(monkeypatch, game, 4, 150)), name
        measured.append(name)
    assert {"monte-carlo", "weathervane", "golf", "black-hole", "pyramid"} <= set(measured)


@pytest.mark.parametrize("name", ["monte-carlo", "weathervane", "golf", "pyramid", "black-hole", "late-binding"])
def test_a_wrong_measure_is_caught_and_the_counts_stay_exact(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    game = _game(GAMES / f"{name}.cardz")
    expected = _counts(_plain(monkeypatch, game, 6, 200))
    chooser = random.Random(name)
    misled = 0
    for _ in range(4):
        weights = tuple(chooser.choice((-1, 0, 1)) for _ in game.names)
        wrong = ProgressMeasure(weights, repeats._measure(weights))
        # predict that every move raises the measure: most of those predictions are false
        wrong.raised.update((id(move), repeats.LEARNED) for move in game._drags.values())
        repeats._MEASURES[game] = wrong
        repeats._UNREPEATABLE[game] = False  # test as play goes even where no position can repeat
        assert _counts(play_range(game, 0, 6, 5, max_moves=200)) == expected
        misled += wrong.misled
    repeats._MEASURES.pop(game, None)
    repeats._UNREPEATABLE.pop(game, None)
    assert misled > 0  # the replay was exercised


@pytest.mark.parametrize(("name", "share"), [("monte-carlo", 0.02), ("weathervane", 0.0)])
def test_random_play_of_the_seeds_keys_few_positions(monkeypatch: pytest.MonkeyPatch, name: str, share: float) -> None:
    """Weathervane's every move is predicted from the weights (its playouts are not tested at all); Monte Carlo's
    pairs are learnt, and a consolidation, which raises the measure only while the stock lasts, raises its use
    count: neither is keyed once learnt."""
    game = _game(GAMES / f"{name}.cardz")
    repeats._MEASURES.pop(game, None)
    keyed = 0
    real_key = State.key

    def counted(state: State) -> Hashable:
        nonlocal keyed
        keyed += 1
        return real_key(state)

    play_range(game, 0, 150, 1, max_moves=500)  # each move's first uses are keyed, till it is known to raise
    if name == "weathervane":
        monkeypatch.setitem(repeats._UNREPEATABLE, game, False)  # test as play goes: the weights predict every move
    monkeypatch.setattr(State, "key", counted)
    aggregate = play_range(game, 150, 200, 1, max_moves=500)
    progress = repeats._MEASURES[game]
    assert progress is not None  # still in use (Monte Carlo's consolidation raises it only while the stock lasts)
    assert aggregate.fresh_positions == aggregate.positions  # no position repeats
    assert keyed <= aggregate.positions * share


def test_the_measure_is_read_from_the_rules() -> None:
    weathervane = _game(GAMES / "weathervane.cardz")
    progress = progress_measure(weathervane)
    assert progress is not None
    weights = dict(zip(weathervane.names, progress.weights, strict=True))
    # cards only leave the stock and the columns, only enter the vane; the waste does both
    assert (weights["stock"], weights["waste"], weights["vane"], weights["tab[0]"]) == (-1, 0, 1, -1)
    klondike = progress_measure(_game(GAMES / "klondike.cardz"))
    assert klondike is None or not any(klondike.weights)


@pytest.mark.parametrize(
    "shape", [(1, -1, 0, 0, 0), (1, 1, -1, 0, 0), (1, 0, 0, 0, 0), (-1, -1, 1, 1, 0), (0, 0, 0, 1, 1)]
)
def test_each_form_of_the_measure_is_the_weighted_count_up_to_a_constant(shape: tuple[int, ...]) -> None:
    """Whichever piles :func:`.repeats._measure` reads (one up and one down, a few of each, the level ones), it moves
    with the sum of weight times cards: over random piles of the same cards the two differ by one constant."""
    chooser = random.Random(str(shape))
    measure = repeats._measure(shape)
    offsets = set()
    for _ in range(40):
        places = [chooser.randrange(len(shape)) for _ in range(30)]
        piles = [tuple(card for card, place in enumerate(places) if place == depot) for depot in range(len(shape))]
        offsets.add(measure(piles) - sum(weight * len(pile) for weight, pile in zip(shape, piles, strict=True)))
    assert len(offsets) == 1


def test_where_every_move_raises_the_measure_no_playout_is_tested() -> None:
    """:func:`.repeats.never_repeats`: checked move by move on random playouts of every shipped design it holds for
    (each move raises the measure, which no card movement lowers), and the tracker is skipped there."""
    unrepeatable = []
    for name, game in _games_without_no_progress():
        progress = progress_measure(game)
        if progress is None or not repeats.never_repeats(game, progress):
            continue
        unrepeatable.append(name)
        assert repeats.positions_tracker(game, 1) is None, name
        for index in range(3):
            state = game.new_initial_state(seed=playout.deal_seed(9, index))
            rng = SplitMix64(index)
            value = progress.measure(state.piles)
            for _ in range(60):
                legal = state.legal_moves()
                if not legal:
                    break
                state.apply(legal[rng.below(len(legal))])
                value, last = progress.measure(state.piles), value
                assert value > last, name
    assert {"golf", "golf-wrap", "weathervane", "black-hole"} <= set(unrepeatable)
    assert "monte-carlo" not in unrepeatable  # a consolidation with the stock empty moves no card off the board


def test_a_redeal_lets_play_come_back_so_the_proof_refuses_it() -> None:
    """Golf with a stock that redeals: drags still raise the measure, but a turn through the stock and back returns
    to a position, so a proof that looked at the drags alone would miss the repeats that CZ505 must not count."""
    data, _ = flatten(GAMES / "golf.cardz")
    data["depots"][0]["draw"]["redeals"] = "unlimited"
    game = Game(build_design(data))
    progress = progress_measure(game)
    assert progress is not None
    assert not repeats.never_repeats(game, progress)
    counted = play_range(game, 0, 20, 5, max_moves=300)
    assert counted.fresh_positions < counted.positions  # the repeats happen, and are not counted
