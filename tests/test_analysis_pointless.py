"""CZ509 pointless-move: moves that only swap two interchangeable piles, found along random play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardz_tools.analysis.check import CheckOptions, check_paths
from cardz_tools.analysis.findings import FindingKind
from cardz_tools.analysis.playout import Aggregate, play_range
from cardz_tools.analysis.pointless import PointlessMoves, interchangeable_classes
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.sim import simulate
from cardz_tools.engine import Drag, Game, Tap
from cardz_tools.lint import lint_file
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "games"
OLD_KLONDIKE = Path(__file__).parent / "examples" / "analysis" / "klondike-foundation-to-foundation.cardz"
"""games/klondike.cardz before issue 22: an Ace passes between empty foundations, a lone King between columns."""


def game_of(path: Path) -> Game:
    return game_for(open_design(path).json_text)


def classes_by_name(game: Game) -> list[list[str]]:
    by_class: dict[int, list[str]] = {}
    for depot, group in enumerate(interchangeable_classes(game)):
        by_class.setdefault(group, []).append(game.names[depot])
    return [names for names in by_class.values() if len(names) > 1]


def test_interchangeable_piles_come_from_the_compiled_rules() -> None:
    foundations, columns = [f"found[{i}]" for i in range(4)], [f"tab[{i}]" for i in range(7)]
    assert classes_by_name(game_of(GAMES / "klondike.cardz")) == [foundations, columns]
    # Canfield's rules read found[0] by name (the base rank): only the other three are alike
    assert classes_by_name(game_of(GAMES / "canfield.cardz"))[0] == ["found[1]", "found[2]", "found[3]"]
    # the stock deals to the columns in order; a card's place in the pyramid is read by covered()
    assert classes_by_name(game_of(GAMES / "spider-one-suit.cardz")) == []
    assert classes_by_name(game_of(GAMES / "pyramid.cardz")) == []
    # a group no card can be dropped on needs no watching: the check costs nothing there
    assert PointlessMoves.of(game_of(GAMES / "golf.cardz")) is None


def test_the_old_klondike_rules_are_flagged_at_each_rule_that_allows_them() -> None:
    report = simulate(open_design(OLD_KLONDIKE).json_text, 20, seed=0, workers=1, max_moves=300)
    found = {f.pointer: f for f in report.findings if f.kind is FindingKind.POINTLESS_MOVE}
    assert set(found) == {"/depots/2/acceptRule", "/depots/3/acceptRule"}
    foundation = found["/depots/2/acceptRule"]
    assert foundation.severity == "warning"
    assert "the accept rule of 'found' allows them" in foundation.message
    assert "found[" in foundation.message.split("For example")[1]  # the example move names two foundations
    counted = report.aggregate.pointless_moves["accept:found"]
    assert 0 < counted < report.aggregate.moves_total
    assert f"{counted} of {report.aggregate.moves_total} random moves" in foundation.message


def test_a_move_counted_pointless_really_leaves_the_position_unchanged_up_to_a_swap() -> None:
    game = game_of(OLD_KLONDIKE)
    check = PointlessMoves.of(game)
    assert check is not None
    def ace_up(state: object) -> Drag | None:
        moves = state.legal_moves()  # type: ignore[attr-defined]
        return next((m for m in moves if isinstance(m, Drag) and m.target.startswith("found")), None)

    state = next(s for s in map(game.new_initial_state, range(100)) if ace_up(s))  # a deal with an Ace on top
    ace = ace_up(state)
    assert ace is not None
    state.apply(ace)
    other = next(f"found[{i}]" for i in range(4) if f"found[{i}]" != ace.target)
    pass_on = Drag(ace.target, 1, other)
    assert pass_on in state.legal_moves()
    before = {tuple(sorted(state.piles[d] for d in range(len(game.names)) if game.names[d].startswith("found")))}
    assert check.apply(state, pass_on) is not None
    after = {tuple(sorted(state.piles[d] for d in range(len(game.names)) if game.names[d].startswith("found")))}
    assert before == after
    # a move that changes the position is played and not counted
    moves = state.move_count
    assert check.apply(state, Tap("stock")) is None
    assert state.move_count == moves + 1 and state.piles[game.index["waste"]]


def test_allow_on_the_rule_silences_it_and_lints_clean(tmp_path: Path) -> None:
    data = json.loads(OLD_KLONDIKE.read_text(encoding="utf-8"))
    data["depots"][2]["acceptRule"]["allow"] = ["pointless-move"]
    path = tmp_path / "allowed.cardz"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert not [d for d in lint_file(path).diagnostics if d.severity.name == "ERROR"]
    assert build_design(data).depots[2].spec.accept.allow == ("pointless-move",)
    result = check_paths([path], options=CheckOptions(playouts=20, deals=0, max_moves=300))
    codes = [(d.code, d.pointer) for d in result.files[0].diagnostics if d.code == "CZ509"]
    assert codes == [("CZ509", "/depots/3/acceptRule")]  # the columns' rule still speaks


def test_an_unknown_allow_entry_is_a_schema_error(tmp_path: Path) -> None:
    data = json.loads(OLD_KLONDIKE.read_text(encoding="utf-8"))
    data["depots"][2]["acceptRule"]["allow"] = ["pointless-moves"]
    path = tmp_path / "typo.cardz"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert any(d.code.startswith("CZ2") for d in lint_file(path).diagnostics)


@pytest.mark.parametrize("name", ["klondike", "freecell", "canfield"])
def test_the_shipped_games_make_no_pointless_move(name: str) -> None:
    aggregate = play_range(game_of(GAMES / f"{name}.cardz"), 0, 15, 0, max_moves=400)
    assert not aggregate.pointless_moves


@pytest.mark.parametrize("name", ["spider-one-suit", "pyramid", "golf", "weathervane", "accordion"])
def test_games_without_interchangeable_piles_that_take_cards_are_not_watched(name: str) -> None:
    design = build_design(json.loads((GAMES / f"{name}.cardz").read_text(encoding="utf-8")))
    assert PointlessMoves.of(Game(design)) is None


def test_chunks_merge_to_the_same_counts_and_the_lowest_example() -> None:
    game = game_of(OLD_KLONDIKE)
    whole = play_range(game, 0, 6, 3, max_moves=200)
    parts = Aggregate().merge(play_range(game, 3, 6, 3, max_moves=200)).merge(play_range(game, 0, 3, 3, max_moves=200))
    assert whole.pointless_moves == parts.pointless_moves
    assert whole.pointless_playouts == parts.pointless_playouts
    assert whole.pointless_examples == parts.pointless_examples
