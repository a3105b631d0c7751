"""The compact search for grid games: it plays the engine's rules and agrees with the engine-state search."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from cardz_tools.analysis import grid_search
from cardz_tools.analysis.compact import compact_solve
from cardz_tools.analysis.grid_search import GridSearch, Seen, grid_shape
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.solve import search_states
from cardz_tools.engine import Drag, Game, State, Tap
from cardz_tools.loading import open_design
from cardz_tools.model import build_design

GAMES = Path(__file__).resolve().parent.parent / "games"
HIGH = ["Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]

TWO_STAYS = (
    "empty(depot) && (col(depot) == 0 ? card.rank == Two && col(source) != 0 : !empty(left(depot))"
    " && card.suit == top(left(depot)).suit && card.rank == top(left(depot)).rank + 1)"
)
"""The rule of this project's Gaps before session 7: a Two already at the left edge does not move (Solvitaire's
gaps-one-deal lets it move to another leftmost gap; its loss proofs are far shorter)."""


def game_of(name: str) -> Game:
    return Game(open_design(GAMES / f"{name}.cardz").design)


def small_gaps(accept: str | None = None, columns: int = 5, redeal: bool = False) -> Game:
    """Gaps with four suits of Ace to ``columns``: four rows of ``columns`` cells, the Aces taken out.

    With ``redeal``, Montana's two redeals; without, none.
    """
    raw = json.loads((GAMES / "montana.cardz").read_text(encoding="utf-8"))
    cell, aces = raw["depots"]
    cell["repeat"], cell["perRow"] = 4 * columns, columns
    if accept is not None:
        cell["acceptRule"]["when"] = accept
    if not redeal:
        aces["actions"] = []
    else:  # a gap after the highest card is dead
        top_rank = (["Five"] + HIGH)[columns - 5]
        aces["actions"][0]["when"] = aces["actions"][0]["when"].replace("== King", f"== {top_rank}")
    raw["dealRules"] = [
        {"kind": "remove", "to": "aces", "ranks": HIGH[columns - 5 :]},
        {"kind": "dealGroup", "to": "cell", "faceUp": 1},
        {"kind": "remove", "to": "aces", "ranks": ["Ace"]},
    ]
    raw["winCondition"]["when"] = raw["winCondition"]["when"].replace("col(c) == 12", f"col(c) == {columns - 1}")
    raw["scoring"]["value"] = "0"
    return Game(build_design(raw))


def test_the_shape_is_read_off_the_rules() -> None:
    shape = grid_shape(game_of("gaps-no-redeal"))
    assert shape is not None and shape.columns == 13 and len(shape.cells) == 52
    assert shape.rows_alike and shape.suits_alike
    # The leftmost gap takes any Two from any column, the first too (Solvitaire's gaps-one-deal).
    assert sorted(card for card, _ in shape.fills[0][0]) == [0x02, 0x12, 0x22, 0x32]
    assert all(mask == (1 << 13) - 1 for _, mask in shape.fills[0][0])
    # After the Five of hearts, the Six of hearts from anywhere; after a King, nothing.
    assert shape.fills[1][0x25] == ((0x26, (1 << 13) - 1),)
    assert shape.fills[1][0x2D] == () and shape.fills[1][0] == ()
    # Each row its own suit: rows and suits are no longer interchangeable.
    basic = grid_shape(game_of("gaps-basic"))
    assert basic is not None and not basic.rows_alike and not basic.suits_alike


def test_designs_outside_the_shape_keep_the_general_search() -> None:
    for name in ("accordion", "klondike", "golf", "pyramid", "monte-carlo"):
        assert grid_shape(game_of(name)) is None, name
    # A rule reading another cell than the left neighbour is not a table of the left neighbour.
    above = "empty(depot) && !empty(left(depot)) && card.suit == top(left(depot)).suit && count(cell) > 0"
    assert grid_shape(small_gaps(above)) is None
    # A filled cell that takes a card would stack two cards in a cell.
    assert grid_shape(small_gaps("col(depot) == 0 ? card.rank == Two : card.rank != Two")) is None


def check_moves_along_random_games(game: Game, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    for deal in range(deals):
        state = game.new_initial_state(seed=deal_seed(seed, deal))
        search = GridSearch.of(state)
        assert search is not None
        while True:
            cells = search.pack(state.piles)
            where = [-1] * 128
            for i, code in enumerate(cells):
                if code:
                    where[code] = i
            moves = {search.engine_move(step) for step in search.steps(cells, where)}
            legal = [] if state.is_terminal() else state.legal_moves()
            assert moves == set(legal) or (state.is_terminal() and state.outcome().won), (deal, state.move_count)
            if not legal:
                break
            state.apply(legal[rng.randrange(len(legal))])


def test_the_grid_moves_are_the_engines_legal_moves() -> None:
    check_moves_along_random_games(game_of("gaps-no-redeal"), 6, 5)
    check_moves_along_random_games(game_of("gaps-basic"), 3, 6)
    check_moves_along_random_games(small_gaps(), 20, 7)


def replays_to_a_win(state: State, line: list) -> bool:
    replay = state.clone()
    for move in line:
        replay.apply(move)
    return replay.outcome().won


def checked_grid_verdict(state: State, budget: int) -> tuple[GridSearch, str, list, int]:
    """The grid search of ``state`` and its (verdict, line, positions), checked against the plain engine-state search:
    both decide, the same way, and a win's line replays through the engine."""
    search = GridSearch.of(state)
    assert search is not None
    engine_result, _, _ = search_states(state.clone(), budget)
    grid_result, line, nodes = search.search(budget, None)
    assert engine_result != "unknown", state.piles
    assert grid_result == engine_result, state.piles
    if line:
        assert replays_to_a_win(state, line)
    return search, grid_result, line, nodes


def test_the_grid_search_agrees_with_the_search_over_engine_states() -> None:
    """Symmetry and the table lose nothing: small deals get the plain engine-state search's verdicts."""
    verdicts = {"won": 0, "lost": 0}
    for game in (small_gaps(), small_gaps(
        "empty(depot) && (col(depot) == 0 ? card.rank == Two && card.suit == (row(depot) < 2 ? Clubs : Hearts)"
        " : !empty(left(depot)) && card.suit == top(left(depot)).suit && card.rank == top(left(depot)).rank + 1)"
    )):
        for deal in range(30):
            state = game.new_initial_state(seed=deal_seed(17, deal))
            _, grid_result, _, _ = checked_grid_verdict(state, 300_000)
            verdicts[grid_result] += 1
    assert verdicts["won"] >= 5 and verdicts["lost"] >= 5, verdicts


def leftmost_two_moves(search: GridSearch, line: list) -> int:
    """How many moves of ``line`` take a card from a first-column cell to another (only a Two can go there)."""
    cell_of = {search.names[d]: i for i, d in enumerate(search.shape.cells)}
    columns = search.shape.columns
    return sum(
        1 for move in line
        if isinstance(move, Drag) and cell_of[move.source] % columns == 0 and cell_of[move.target] % columns == 0
    )


def test_a_two_moves_between_leftmost_gaps_as_solvitaire_allows() -> None:
    """Solvitaire's gaps-one-deal: a leftmost gap takes any Two, one at another row's left edge too. Deals lost
    when such a Two stays are won with that move, by the grid search as by the engine-state search; a complete
    search that takes every first-column Two for locked (the quick pass's streamliner) loses a win."""
    game, stays = small_gaps(), small_gaps(TWO_STAYS)
    for deal in (4, 15, 25):
        seed = deal_seed(17, deal)
        staying = GridSearch.of(stays.new_initial_state(seed=seed))
        assert staying is not None and staying.search(300_000, None)[0] == "lost", deal
        search, result, line, _ = checked_grid_verdict(game.new_initial_state(seed=seed), 300_000)
        assert result == "won" and leftmost_two_moves(search, line) >= 1, deal
    eager_result = []
    for deal in (4, 15, 25):
        eager = GridSearch.of(game.new_initial_state(seed=deal_seed(17, deal)))
        assert eager is not None
        eager.locked = lambda cells, search=eager: {  # type: ignore[method-assign]
            i for i in search.first_column if cells[i] and search.lock_dest[cells[i]] is not None
        }
        eager_result.append(eager.search(300_000, None)[0])
    assert "lost" in eager_result, eager_result


def test_fixed_cards_never_move_again_along_random_games() -> None:
    """A card GridSearch.fixed calls fixed (first-column locks included) is never dragged by a later legal move of
    the engine, along random games of both Gaps rules and the basic variant; the locks are met."""
    locked_positions = 0
    games = ((game_of("gaps-no-redeal"), 4), (game_of("gaps-basic"), 4), (small_gaps(), 30), (small_gaps(
        "empty(depot) && (col(depot) == 0 ? card.rank == Two && card.suit == (row(depot) < 2 ? Clubs : Hearts)"
        " : !empty(left(depot)) && card.suit == top(left(depot)).suit && card.rank == top(left(depot)).rank + 1)"
    ), 30))
    for game, deals in games:
        rng = random.Random(13)
        for deal in range(deals):
            state = game.new_initial_state(seed=deal_seed(47, deal))
            search = GridSearch.of(state)
            if search is None:
                continue
            cell_of = {search.names[d]: i for i, d in enumerate(search.shape.cells)}
            once_fixed: set[int] = set()
            for _ in range(120):  # random play may send Twos to and fro between leftmost gaps for long
                if state.is_terminal() or not (legal := state.legal_moves()):
                    break
                cells = search.pack(state.piles)
                fixed = search.fixed(cells)
                once_fixed |= {cells[i] for i, is_fixed in enumerate(fixed) if is_fixed}
                locked_positions += bool(search.locked(cells))
                for move in legal:
                    assert isinstance(move, Drag) and cells[cell_of[move.source]] not in once_fixed, (deal, move)
                state.apply(legal[rng.randrange(len(legal))])
    assert locked_positions >= 50, locked_positions


def test_the_solver_wins_full_deals_with_a_line_the_engine_replays() -> None:
    game = game_of("gaps-no-redeal")
    won = 0
    for deal in (4, 7, 9):
        state = game.new_initial_state(seed=deal_seed(101, deal))
        answer = compact_solve(state.clone(), 200_000, None)
        assert answer is not None and answer[0] in ("won", "unknown")
        if answer[0] == "won":
            won += 1
            assert replays_to_a_win(state, answer[1])
    assert won >= 2


def test_the_key_merges_swapped_rows_and_renamed_suits_only_where_the_rules_allow() -> None:
    for name, merged in (("gaps-no-redeal", True), ("gaps-basic", False)):
        state = game_of(name).new_initial_state(seed=deal_seed(101, 0))
        search = GridSearch.of(state)
        assert search is not None
        cells = search.pack(state.piles)
        swapped_rows = cells[13:26] + cells[:13] + cells[26:]
        renamed = bytearray(code ^ 0x10 if code else 0 for code in cells)  # clubs <-> diamonds, hearts <-> spades
        assert (search.key(swapped_rows) == search.key(cells)) is merged, name
        assert (search.key(renamed) == search.key(cells)) is merged, name
        moved = bytearray(cells)
        gap, full = cells.index(0), next(i for i, code in enumerate(cells) if code)
        moved[gap], moved[full] = moved[full], 0
        assert search.key(moved) != search.key(cells)


def test_the_symmetric_key_is_kept_only_while_it_merges_positions(monkeypatch: Any) -> None:
    """Seen: past SYMMETRY_TRIAL positions with no merge it keys positions as they lie, and still finds the
    positions stored during the trial; a merge during the trial keeps the symmetric key."""
    monkeypatch.setattr(grid_search, "SYMMETRY_TRIAL", 4)
    state = game_of("gaps-no-redeal").new_initial_state(seed=deal_seed(101, 0))
    search = GridSearch.of(state)
    assert search is not None
    cells = search.pack(state.piles)
    swapped_rows = cells[13:26] + cells[:13] + cells[26:]
    distinct = []
    for i in range(1, 7):  # positions that are not equal up to symmetry: one card moved into a gap each
        moved = bytearray(cells)
        gap, full = cells.index(0), [j for j, code in enumerate(cells) if code][i]
        moved[gap], moved[full] = moved[full], 0
        distinct.append(moved)
    dropped = Seen(search)
    assert dropped.symmetric and dropped.add_new(cells)
    assert all(dropped.add_new(moved) for moved in distinct[:3])
    assert not dropped.symmetric and dropped.merges == 0 and len(dropped) == 4
    assert not dropped.add_new(cells) and not dropped.add_new(distinct[0])  # stored in the trial: still found
    assert dropped.add_new(swapped_rows) and dropped.add_new(distinct[3]) and len(dropped) == 6
    kept = Seen(search)
    assert kept.add_new(cells) and not kept.add_new(swapped_rows)
    assert all(kept.add_new(moved) for moved in distinct[:3])
    assert kept.symmetric and kept.merges == 1 and not kept.on_trial
    assert not kept.add_new(distinct[0][13:26] + distinct[0][:13] + distinct[0][26:])


def test_the_search_agrees_with_the_engine_state_search_after_the_symmetry_trial(monkeypatch: Any) -> None:
    """With a trial of a few positions (the symmetric key dropped early in almost every search), small deals
    still get the plain engine-state search's verdicts, and the positions are those of a search keyed as they lie."""
    monkeypatch.setattr(grid_search, "SYMMETRY_TRIAL", 8)
    game = small_gaps()
    verdicts = {"won": 0, "lost": 0}
    for deal in range(24):
        state = game.new_initial_state(seed=deal_seed(23, deal))
        search, grid_result, _, nodes = checked_grid_verdict(state, 300_000)
        verdicts[grid_result] += 1
        as_they_lie = GridSearch(state, dataclasses.replace(search.shape, rows_alike=False, suits_alike=False))
        assert as_they_lie.search(300_000, None)[::2] == (grid_result, nodes), deal
    assert verdicts["won"] >= 3 and verdicts["lost"] >= 2, verdicts


def test_the_fixed_cards_after_a_move_are_those_counted_afresh() -> None:
    """GridSearch._fixed_after (only the filled gap's row looked at again) equals fixed() along random games,
    runs grown over cards already in place included, in the complete search and in both quick passes (in the
    looser one a card moving beside a first-column card may lock it)."""
    grown = 0
    locked_beside = 0
    games = ((game_of("gaps-no-redeal"), 3), (small_gaps(columns=6), 30), (small_gaps(LEFTWARDS, columns=6), 10))
    for hopeful, looser in ((False, False), (True, False), (True, True)):
        for game, deals in games:
            rng = random.Random(3)
            for deal in range(deals):
                state = game.new_initial_state(seed=deal_seed(43, deal))
                search = GridSearch.of(state)
                if search is None:  # a deal with no move
                    continue
                search.hopeful, search.looser = hopeful, looser
                cells = search.pack(state.piles)
                where = [-1] * 128
                for i, code in enumerate(cells):
                    if code:
                        where[code] = i
                fixed = search.fixed(cells)
                while steps := search.steps(cells, where, fixed):
                    source, gap = steps[rng.randrange(len(steps))]
                    code = cells[source]
                    cells[gap], cells[source], where[code] = code, 0, gap
                    after = search._fixed_after(cells, fixed, gap)
                    assert after == search.fixed(cells), (hopeful, looser, deal, source, gap)
                    grown += sum(after) > sum(fixed) + 1
                    locked_beside += looser and search.column[gap] == 1 and after[gap - 1] and not fixed[gap - 1]
                    fixed = after
    assert grown >= 3, grown
    assert locked_beside >= 3, locked_beside


def random_position(game: Game, seed: int, rng: random.Random) -> State:
    """A position some random moves into a deal (a few moves short of its end, when it ends)."""
    state = game.new_initial_state(seed=seed)
    for _ in range(rng.randrange(1, 30)):
        legal = [] if state.is_terminal() else state.legal_moves()
        if not legal:
            break
        after = state.clone()
        after.apply(legal[rng.randrange(len(legal))])
        if after.is_terminal():
            break
        state = after
    return state


LEFTWARDS = (
    "empty(depot) && (col(depot) == 0 ? card.rank == Two && col(source) != 0 : !empty(left(depot))"
    " && card.suit == top(left(depot)).suit && card.rank == top(left(depot)).rank + 1 && col(source) > col(depot))"
)
"""A variant where cards only move left: a run's next card lying left of its gap never arrives."""


def check_forced_moves_on_random_positions(game: Game, positions: int, seed: int) -> dict[str, int]:
    """Where the search plays a forced move, the plain search (no forced move) gives the position
    after it the verdict of the position before; where it proves a loss, the plain search agrees."""
    rng = random.Random(seed)
    checked = {"forced": 0, "dead": 0, "won": 0}
    for deal in range(positions):
        state = random_position(game, deal_seed(seed, deal), rng)
        search = GridSearch.of(state)
        if search is None:
            continue
        cells = search.pack(state.piles)
        where = [-1] * 128
        for i, code in enumerate(cells):
            if code:
                where[code] = i
        verdict = search.forced(cells, where, search.fixed(cells), streamline=False)
        if verdict is None:
            continue
        before, _, _ = search.search(2_000_000, None, plain=True)
        assert before != "unknown"
        if verdict is False:
            assert before == "lost", deal
            checked["dead"] += 1
            continue
        assert isinstance(verdict, tuple)
        after_state = state.clone()
        after_state.apply(search.engine_move(verdict))
        after = GridSearch.of(after_state)
        after_result = "won" if after_state.outcome().won else "lost"  # when the move ends the game
        if after is not None:
            after_result, _, _ = after.search(2_000_000, None, plain=True)
        assert after_result == before, deal
        checked["forced"] += 1
        checked["won"] += before == "won"
    return checked


def test_forced_moves_and_dead_gaps_never_change_a_verdict() -> None:
    """Property test over random positions of small grids (module doc of grid_search for the proofs)."""
    checked = check_forced_moves_on_random_positions(small_gaps(columns=6), 300, 29)
    assert checked["forced"] >= 20 and checked["won"] >= 5, checked
    leftwards = check_forced_moves_on_random_positions(small_gaps(LEFTWARDS, columns=6), 150, 41)
    assert leftwards["dead"] >= 10, leftwards


def test_the_complete_search_with_forced_moves_agrees_with_the_plain_one() -> None:
    """On both rules for a Two at the left edge (it may move to another leftmost gap, or it stays)."""
    verdicts = {"won": 0, "lost": 0}
    runs = [(small_gaps(columns=6), deal) for deal in (0, 2, 3, 4, 5, 7, 8)]
    runs += [(small_gaps(TWO_STAYS, columns=6), deal) for deal in (0, 3, 4, 5, 9, 11)]
    for game, deal in runs:
        state = game.new_initial_state(seed=deal_seed(31, deal))
        search = GridSearch.of(state)
        assert search is not None
        plain, _, plain_nodes = search.search(2_000_000, None, plain=True)
        assert search.search(2_000_000, None)[0] == plain != "unknown", deal  # with the pooled first column
        search.pool = bytes(128)  # (it may find a win later: the moves come in another order)
        pruned, line, nodes = search.search(2_000_000, None)
        assert pruned == plain, deal
        assert nodes <= plain_nodes
        verdicts[pruned] += 1
        if line:
            assert replays_to_a_win(state, line)
    assert verdicts["won"] >= 2 and verdicts["lost"] >= 2, verdicts


def test_redeals_are_searched_as_the_engine_deals_them() -> None:
    """Montana's redeals (played through the engine, the reshuffle from the deal's seed) give the
    verdicts of the search over engine states, and some wins need a redeal."""
    game = small_gaps(redeal=True)
    assert grid_shape(game) is not None
    redealt = 0
    for deal in range(16):
        state = game.new_initial_state(seed=deal_seed(37, deal))
        _, _, line, _ = checked_grid_verdict(state, 1_000_000)
        redealt += any(isinstance(move, Tap) for move in line)
    assert redealt >= 2, redealt


def test_montana_deals_are_won_with_their_redeals() -> None:
    game = game_of("montana")
    won = 0
    for deal in (0, 3):
        state = game.new_initial_state(seed=deal_seed(101, deal))
        answer = compact_solve(state.clone(), 300_000, None)
        assert answer is not None and answer[0] in ("won", "unknown")
        if answer[0] == "won":
            won += 1
            assert replays_to_a_win(state, answer[1])
    assert won >= 1


def test_the_quick_pass_gives_way_to_the_complete_search_after_its_early_share(monkeypatch: Any) -> None:
    """Past QUICK_EARLY positions of the quick pass the complete search gets LATE_COMPLETE_TURNS turns to its
    one, so a proof of loss costs the portfolio little more than the complete search alone (the old fixed
    share of one turn in four cost a third more)."""
    monkeypatch.setattr(grid_search, "CLOCK_EVERY", 8)
    monkeypatch.setattr(grid_search, "QUICK_EARLY", 64)
    state = small_gaps(columns=7).new_initial_state(seed=deal_seed(31, 13))
    search = GridSearch.of(state)
    assert search is not None
    alone, _, complete = search.search(1_000_000, None)
    assert alone == "lost"
    result, _, together = compact_solve(state.clone(), 1_000_000, None) or ("", [], 0)
    assert result == "lost"
    late = grid_search.LATE_COMPLETE_TURNS
    assert complete < together <= complete + 64 + complete // late + 2 * 8 * late, (complete, together)


def test_positions_that_differ_only_in_the_first_columns_twos_are_searched_once() -> None:
    """While a leftmost cell is a gap, the Twos of the leftmost column may lie in any order (each reaches the others
    by moves between leftmost cells): the complete search stores one position of each such class and tries the
    moves of every position of it. It agrees with the search over engine states, searches fewer positions, and
    the obvious unsound version (the same key, only the stored position's own moves) turns wins into losses."""
    game = small_gaps()
    pool = GridSearch.of(game.new_initial_state(seed=deal_seed(17, 0)))
    assert pool is not None and sum(pool.pool) == 4
    for design in (game_of("gaps-basic"), small_gaps(TWO_STAYS)):
        search = GridSearch.of(design.new_initial_state(seed=deal_seed(17, 0)))
        assert search is not None and not any(search.pool)  # each row its Two; a Two at the left edge stays
    rng = random.Random(3)
    merged = 0
    for step in range(600):  # along random games: every order of the leftmost Twos, a gap among them, has one key
        if step % 30 == 0:
            state = game.new_initial_state(seed=deal_seed(17, step))
        if state.is_terminal() or not (legal := state.legal_moves()):
            continue
        cells = pool.pack(state.piles)
        spots = [i for i in pool.first_column if not cells[i] or pool.pool[cells[i]]]
        shuffled = bytearray(cells)
        for spot, code in zip(spots, rng.sample([cells[i] for i in spots], len(spots)), strict=True):
            shuffled[spot] = code
        if 0 in [cells[i] for i in spots]:
            assert pool.pooled(shuffled) == pool.pooled(cells)
            merged += shuffled != cells
        else:
            assert pool.pooled(cells) == cells
        state.apply(legal[rng.randrange(len(legal))])
    assert merged >= 5, merged
    pooled_nodes = unpooled_nodes = 0
    unsound = []
    for deal in range(40):  # (test_the_grid_search_agrees_with_the_search_over_engine_states: the engine's verdicts)
        state = game.new_initial_state(seed=deal_seed(17, deal))
        search = GridSearch.of(state)
        assert search is not None
        result, line, nodes = search.search(300_000, None)
        assert search.pooling and result != "unknown"
        if line:
            assert replays_to_a_win(state, line)
        unpooled = GridSearch.of(state)
        assert unpooled is not None
        unpooled.pool = bytes(128)
        assert unpooled.search(300_000, None)[0] == result
        if result == "lost":
            pooled_nodes += nodes
            unpooled_nodes += len(unpooled.seen)
        if deal in (4, 15, 25):
            own = GridSearch.of(state)
            assert own is not None
            own.pool_steps = lambda cells, where, steps, fixed, s=own: [  # type: ignore[method-assign]
                step for step in steps if s.column[step[0]] or s.column[step[1]]
            ]
            unsound.append(own.search(300_000, None)[0])
    assert pooled_nodes < unpooled_nodes, (pooled_nodes, unpooled_nodes)
    assert "lost" in unsound, unsound


def test_a_quick_pass_that_ends_without_a_win_gives_way_to_a_looser_streamliner() -> None:
    """Small deals whose quick pass (every leftmost Two stays) searches all it allows without a win are won by the
    second one (only a Two with its Three beside it stays) in the portfolio, with lines the engine replays;
    neither pass alone ever says lost."""
    game = small_gaps()
    for deal in (4, 54):
        state = game.new_initial_state(seed=deal_seed(17, deal))
        quick, looser = GridSearch.of(state), GridSearch.of(state)
        assert quick is not None and looser is not None
        assert grid_search._finish(quick.best_first(200_000, None))[0] == "unknown" and quick.exhausted
        for newest_first in (False, True):
            looser = GridSearch.of(state)
            assert looser is not None
            looser.looser, looser.newest_first = True, newest_first
            result, line, _ = grid_search._finish(looser.best_first(200_000, None))
            assert result == "won" and replays_to_a_win(state, line), (deal, newest_first)
        answer = grid_search.grid_solve(state.clone(), 200_000, None)
        assert answer is not None and answer[0] == "won" and replays_to_a_win(state, answer[1]), deal
    for deal in (15, 25):  # won only with a Two moving from the left edge, which neither pass tries
        for newest_first in (False, True):
            looser = GridSearch.of(game.new_initial_state(seed=deal_seed(17, deal)))
            assert looser is not None
            looser.looser, looser.newest_first = True, newest_first
            assert grid_search._finish(looser.best_first(200_000, None))[0] == "unknown"
            assert looser.exhausted


def test_either_tie_order_of_a_quick_pass_searches_the_same_positions() -> None:
    """A quick pass, oldest or newest of equally promising positions first, answers "won" with a line the engine
    replays or "unknown" (never "lost"), and only on deals the complete search wins; the two orders search one
    streamlined space in another order, so on small deals (searched to the end) they win the same deals and an
    exhausted pass has stored the same positions either way."""
    game = small_gaps()
    wins = 0
    for deal in range(24):
        state = game.new_initial_state(seed=deal_seed(17, deal))
        complete = GridSearch.of(state)
        assert complete is not None
        verdict = complete.search(300_000, None)[0]
        for looser in (False, True):
            answers = []
            for newest_first in (False, True):
                quick = GridSearch.of(state)
                assert quick is not None
                quick.looser, quick.newest_first = looser, newest_first
                result, line, nodes = grid_search._finish(quick.best_first(300_000, None))
                assert result == "won" or (result == "unknown" and quick.exhausted), (deal, looser, newest_first)
                if result == "won":
                    assert verdict == "won" and replays_to_a_win(state, line), (deal, looser, newest_first)
                answers.append((result, nodes if result == "unknown" else None))
            assert answers[0] == answers[1], (deal, looser, answers)
            wins += answers[0][0] == "won"
    assert wins >= 10, wins
