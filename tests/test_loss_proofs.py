"""Positions proved lost during a depth-first search, shared by the portfolio (:mod:`cardz_tools.analysis.loss_proofs`).

A proof made before the search ends must be a proof: on random graphs, each searched the way
:meth:`_Search.run` searches (children stored when generated, stored ones skipped), stopped at any
point, and sharing with a second search in another order, no position proved lost reaches a win;
the obvious unsound rule (a position is lost once its last child is done) does prove winnable positions
lost on the same graphs. On real designs the portfolio with shared proofs gets the plain search's verdict
deal by deal, every position it proved lost is lost by the plain exhaustive search from there, and the
sharing saves positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

import pytest

from cardz_tools.analysis import tableau_search
from cardz_tools.analysis.loss_proofs import LossProofs, Mark
from cardz_tools.analysis.playout import deal_seed
from cardz_tools.analysis.stock_moves import CoveredLosses, TapCover
from cardz_tools.analysis.tableau_search import Pruning, replays_to_a_win, search
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from tests.test_relaxation import GAMES, castle
from tests.test_solver_tableau import SMALL

Graph = dict[int, list[int]]
BUDGET = 300_000


def random_graph(rng: random.Random, size: int) -> tuple[Graph, set[int]]:
    """A graph on ``size`` nodes, one to three edges from each, most short and a third anywhere (so
    cycles and cross links abound), and the nodes that are wins."""
    graph = {
        node: [
            rng.randrange(size) if rng.random() < 0.3 else max(0, min(size - 1, node + rng.randint(-2, 3)))
            for _ in range(rng.randint(1, 3))
        ]
        for node in range(size)
    }
    wins = {node for node in range(1, size) if rng.random() < 0.02}
    return graph, wins


def winnable(graph: Graph, wins: set[int]) -> set[int]:
    """The nodes from which some path reaches a win."""
    back: dict[int, list[int]] = {node: [] for node in graph}
    for node, children in graph.items():
        for child in children:
            back[child].append(node)
    found, todo = set(wins), list(wins)
    while todo:
        for parent in back[todo.pop()]:
            if parent not in found:
                found.add(parent)
                todo.append(parent)
    return found


class NaiveProofs(LossProofs):
    """The unsound rule: a position is lost once its last child is done."""

    def searched(self, key: Hashable, skipped: Any, children: Any) -> Mark:
        self._trail.append(key)
        return [0, 0, len(self._trail) - 1]

    def done(self, mark: Mark, parent: Mark | None) -> None:
        self.lost.add(self._trail[mark[2]])


class NoWaitingChildren(LossProofs):
    """Unsound: a stored child waiting on an ancestor's list is taken as settled."""

    def searched(self, key: Hashable, skipped: Any, children: Any) -> Mark:
        return super().searched(key, skipped, [])


class NoLowPassedUp(LossProofs):
    """Unsound: a position does not inherit what its searched children depend on."""

    def done(self, mark: Mark, parent: Mark | None) -> None:
        super().done(mark, None)


def depth_first(graph: Graph, wins: set[int], lost: set[Hashable], rng: random.Random, proofs: LossProofs) -> Any:
    """:meth:`_Search.run`'s order of work on ``graph`` from node 0, children in a random order; yields after
    each expansion and returns when won or done."""
    seen = {0}

    def expand(node: int, skipped: list[Hashable]) -> tuple[bool, list[int]]:
        fresh = []
        for child in rng.sample(graph[node], len(graph[node])):
            if child in seen or child in lost:
                skipped.append(child)
                continue
            seen.add(child)
            if child in wins:
                return True, []
            fresh.append(child)
        return False, fresh

    skipped: list[Hashable] = []
    won, children = expand(0, skipped)
    if won:
        return
    marks = [proofs.searched(0, skipped, children)]
    stack = [iter(children)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            mark = marks.pop()
            proofs.done(mark, marks[-1] if marks else None)
            continue
        if child in lost:
            proofs.drop(child)
            continue
        skipped = []
        won, children = expand(child, skipped)
        if won:
            return
        mark = proofs.searched(child, skipped, children)
        if children:
            marks.append(mark)
            stack.append(iter(children))
        else:
            proofs.done(mark, marks[-1])
        yield


def false_proofs(make: Callable[[set[Hashable]], LossProofs], graphs: int) -> int:
    """Over ``graphs`` random graphs, two searches sharing one set of proofs, taking turns of random
    length and stopped at a random point: how many proved-lost nodes can reach a win."""
    wrong = 0
    for number in range(graphs):
        rng = random.Random(number)
        graph, wins = random_graph(rng, rng.randint(8, 60))
        good = winnable(graph, wins)
        lost: set[Hashable] = set()
        searches = [depth_first(graph, wins, lost, random.Random(number * 2 + i), make(lost)) for i in range(2)]
        stop = rng.randint(1, 80)
        for _ in range(stop):
            for steps in list(searches):
                for _ in range(rng.randint(1, 4)):
                    if next(steps, "end") == "end":
                        searches.remove(steps)
                        break
        wrong += len(lost & good)
    return wrong


def test_a_position_proved_lost_before_the_search_ends_is_lost() -> None:
    assert false_proofs(LossProofs, 400) == 0


@pytest.mark.parametrize("unsound", [NaiveProofs, NoWaitingChildren, NoLowPassedUp])
def test_each_shortcut_in_the_proof_conditions_proves_a_winnable_position_lost(unsound: type[LossProofs]) -> None:
    """The graphs test something: each unsound rule proves winnable positions lost on them."""
    assert false_proofs(unsound, 400) > 0


def test_a_component_is_proved_only_when_it_depends_on_nothing_above_it() -> None:
    """0 → 1 → 2 → 1 and 2 → 0: nothing is proved before 0 is done, then all three at once."""
    lost: set[Hashable] = set()
    proofs = LossProofs(lost)
    root = proofs.searched(0, [], [1])
    one = proofs.searched(1, [], [2])
    two = proofs.searched(2, [1, 0], [])
    proofs.done(two, one)
    assert not lost
    proofs.done(one, root)
    assert not lost  # 1 depends on 0 through 2
    proofs.done(root, None)
    assert lost == {0, 1, 2}


def test_a_position_that_waits_on_an_ancestors_list_is_not_proved_before_it() -> None:
    """0 stores 1 and 2; 1's child 3 leads to 2, which 0 has not searched yet: 3 and 1 wait for 0."""
    lost: set[Hashable] = set()
    proofs = LossProofs(lost)
    root = proofs.searched(0, [], [1, 2])
    one = proofs.searched(1, [], [3])
    three = proofs.searched(3, [2], [])
    proofs.done(three, one)
    proofs.done(one, root)
    assert not lost
    proofs.done(proofs.searched(2, [], []), root)
    assert lost == {2}  # 2 leads nowhere: lost on its own
    proofs.done(root, None)
    assert lost == {0, 1, 2, 3}


def recording_tables(monkeypatch: pytest.MonkeyPatch) -> list[set[Hashable]]:
    """Make every portfolio remember the set of positions its members prove lost (the last search's is last)."""
    tables: list[set[Hashable]] = []
    real = tableau_search._portfolio

    def portfolio(*args: Any) -> list[tableau_search._Member]:
        tables.append(args[4])
        return real(*args)

    monkeypatch.setattr(tableau_search, "_portfolio", portfolio)
    return tables


def recording_keys(monkeypatch: pytest.MonkeyPatch) -> dict[Hashable, Any]:
    """Make every plan's key function remember a copy of a position for each key it gives."""
    states: dict[Hashable, Any] = {}
    real = tableau_search.plan_for

    def plan_for(game: Any, pruning: Pruning) -> tableau_search.Plan:
        plan = real(game, pruning)
        key_of = plan.key_of
        if getattr(key_of, "recording", False):
            return plan

        def recorded(state: Any) -> Hashable:
            key = key_of(state)
            states.setdefault(key, state.clone())
            return key

        recorded.recording = True  # type: ignore[attr-defined]
        plan.key_of = recorded
        plan.child_key = None  # every key then worked out on a built position, which is what is recorded
        return plan

    monkeypatch.setattr(tableau_search, "_PLANS", {})  # plans made here, with the recording keys, go afterwards
    monkeypatch.setattr(tableau_search, "plan_for", plan_for)
    return states


@pytest.mark.parametrize("columns, per_column", [(4, 6), (5, 5)])
def test_the_positions_the_portfolio_proves_lost_are_lost(
    columns: int, per_column: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small castles, short turns and the late restarts joining early: the verdicts are the plain search's, and
    positions proved lost (also in deals the budget stops) are lost by the plain exhaustive search from there."""
    monkeypatch.setattr(tableau_search, "LATE_SHARE", 3 / BUDGET)
    monkeypatch.setattr(tableau_search, "RESTART_UNIT", 4)
    monkeypatch.setattr(tableau_search, "TURN", 5)
    game = castle("Nine", columns, per_column)
    states = recording_keys(monkeypatch)
    tables = recording_tables(monkeypatch)
    rng = random.Random(5)
    checked = verdicts = 0
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(3, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        found = search(root, BUDGET if deal % 3 else 60, None, Pruning())
        assert plain.result != "unknown"
        if found.result != "unknown":
            verdicts += 1
            assert found.result == plain.result, f"deal {deal}"
        if found.result == "won":
            assert replays_to_a_win(root, found.line)
        proved = sorted(tables[-1], key=repr)
        for key in rng.sample(proved, min(12, len(proved))):
            assert search(states[key], BUDGET, None, Pruning.none()).result == "lost", f"deal {deal}"
            checked += 1
    assert verdicts >= 5 and checked >= 30, (verdicts, checked)


def test_the_complete_members_that_key_positions_alike_share_losses() -> None:
    """Without stock moves every complete member shares. With them the plain-order member taps one card at a time
    and keys the stock otherwise, and the restarts keep their own draw: only where a second depth-first member searches
    beside the first (the Canfields whose columns are kept full) do the two share, the best-first pass reading their
    proofs; not in Canfield, Klondike, Ultra Klondike or Rank and File."""
    assert tableau_search.shares_losses(castle("Nine", 4, 6), Pruning())
    assert not tableau_search.shares_losses(castle("Nine", 4, 6), Pruning(shared_losses=False))
    assert not tableau_search.shares_losses(castle("Nine", 4, 6), Pruning(quick=False))
    games = {name: Game(open_design(GAMES / f"{name}.cardz").design) for name in (
        "canfield", "klondike", "ultra-klondike-2-deck", "rank-and-file", "canfield-strict",
        "canfield-auto-reserve-then-waste",
    )}
    sharing = {name for name, game in games.items() if tableau_search.shares_losses(game, Pruning())}
    assert sharing == {"canfield-strict", "canfield-auto-reserve-then-waste"}, sharing
    for name in sorted(sharing):
        lost: set[Hashable] = set()
        root = games[name].new_initial_state(seed=deal_seed(0, 2))
        members = tableau_search._portfolio(root, Pruning(), BUDGET, None, lost)
        roles = sorted((entry.steps.__name__, entry.search.pruning.stock, entry.search.sharing) for entry in members)
        assert roles == [  # the best-first pass, the restarts, the plain order, the two depth-first members
            ("best_first", True, True), ("restarts", True, False), ("run", False, False), ("run", True, True),
            ("run", True, True),
        ], (name, roles)
        assert all(entry.search.lost is lost for entry in members if entry.search.sharing)


@pytest.mark.parametrize("name", ["canfield-strict", "canfield-spaces"])
def test_the_positions_proved_lost_under_the_tap_cover_are_lost(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small Canfields whose columns are kept full (the strict rules, and spaces filled from the waste), where the tap
    cover skips positions the taps of a stored one lead to and the two depth-first members share their proofs with
    each other and the best-first pass, a covered child waiting for the position covering it: the verdicts are the
    plain search's, and positions proved lost, and those the taps of one lead to (which the set holds too), are lost
    by the plain exhaustive search from there."""
    monkeypatch.setattr(tableau_search, "TURN", 2)
    game = SMALL[name]()
    states = recording_keys(monkeypatch)
    tables = recording_tables(monkeypatch)
    rng = random.Random(5)
    checked = covers = 0
    for deal in range(16):
        root = game.new_initial_state(seed=deal_seed(7, deal))
        plain = search(root, BUDGET, None, Pruning.none())
        found = search(root, BUDGET, None, Pruning())
        assert found.result == plain.result != "unknown", f"deal {deal}"
        table = tables[-1]
        assert isinstance(table, CoveredLosses)
        proved = sorted(table, key=repr)
        covered = sorted((key for key in states if not set.__contains__(table, key) and key in table), key=repr)
        for key in rng.sample(proved, min(8, len(proved))) + rng.sample(covered, min(4, len(covered))):
            assert search(states[key], BUDGET, None, Pruning.none()).result == "lost", f"deal {deal}"
            checked += 1
            covers += key in covered
    assert checked >= 30 and covers >= 5, (checked, covers)


def test_a_child_the_tap_cover_skips_waits_for_the_position_covering_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """While proving, every child the tap cover skips is listed as depending on the stored position whose taps lead
    to it (Canfield, seed 0, deal 2: about half the children of its proof are covered)."""
    game = Game(open_design(GAMES / "canfield.cardz").design)
    coverings: list[Hashable] = []
    real_cover = TapCover.covers_else_add

    def covers_else_add(self: TapCover, key: Any) -> Hashable | None:
        covering = real_cover(self, key)
        if covering is not None:
            coverings.append(covering)
        return covering

    real_searched = LossProofs.searched
    waited = missed = 0

    def searched(self: LossProofs, key: Hashable, skipped: Any, children: Any) -> Mark:
        nonlocal waited, missed
        listed = set(skipped)
        waited += sum(covering in listed for covering in coverings)
        missed += sum(covering not in listed for covering in coverings)
        coverings.clear()
        return real_searched(self, key, skipped, children)

    monkeypatch.setattr(TapCover, "covers_else_add", covers_else_add)
    monkeypatch.setattr(LossProofs, "searched", searched)
    pruning = Pruning(quick=False)
    root = game.new_initial_state(seed=deal_seed(0, 2))
    found = tableau_search._Search(root, tableau_search.plan_for(game, pruning), pruning, 3_000, None, lost=set())
    assert found.proving and found.cover is not None
    with pytest.raises(tableau_search._Budget):
        for _ in found.run():
            pass
    assert waited > 100 and missed == 0, (waited, missed)


def test_sharing_saves_positions_and_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tableau_search, "TURN", 5)  # the members take turns within these small deals
    game = castle("Nine", 4, 6)
    shared = alone = 0
    for deal in range(8):
        root = game.new_initial_state(seed=deal_seed(3, deal))
        with_proofs = search(root, BUDGET, None, Pruning())
        without = search(root, BUDGET, None, Pruning(shared_losses=False))
        assert with_proofs.result == without.result != "unknown", f"deal {deal}"
        shared += with_proofs.nodes
        alone += without.nodes
    assert shared < 0.9 * alone, (shared, alone)


def restarts_alone(root: Any, lost: set[Hashable]) -> tuple[str, int]:
    """(verdict, positions) of the ``restarts`` member searching alone, skipping ``lost`` (proving nothing itself)."""
    pruning = Pruning()
    found = tableau_search._Search(root, tableau_search.plan_for(root.game, pruning), pruning, BUDGET, None, lost=lost)
    found.proving = False  # the set stays what the others proved
    steps = found.restarts()
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            return finished.value[0], found.positions()


def lost_by_the_others(root: Any) -> set[Hashable]:
    """What the portfolio's other members prove lost in their first 300 expansions each."""
    lost: set[Hashable] = set()
    for entry in tableau_search._portfolio(root, Pruning(), BUDGET, None, lost):
        try:
            for _ in range(300):
                next(entry.steps)
        except (StopIteration, tableau_search._Budget):
            pass
    return lost


def restarts_with_and_without_the_others(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Per deal of a small castle, the restarts' positions with what the others proved lost and without."""
    monkeypatch.setattr(tableau_search, "RESTART_UNIT", 4)
    game = castle("Nine", 5, 5)
    counts = []
    for deal in range(12):
        root = game.new_initial_state(seed=deal_seed(3, deal))
        shared, with_set = restarts_alone(root, lost_by_the_others(root))
        alone, without = restarts_alone(root, set())
        assert shared == alone != "unknown", f"deal {deal}"
        counts.append((with_set, without))
    return counts


def test_a_restart_skipping_what_others_proved_lost_decides_no_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The jitter keyed by the position (``keyed_noise``): the restarts meet the positions not proved lost in the
    same order with the others' set as without it, so they never store more before they decide (FreeCell's deal 17
    was won later with the set than without: the noise was drawn from one stream)."""
    counts = restarts_with_and_without_the_others(monkeypatch)
    assert all(with_set <= without for with_set, without in counts), counts
    assert any(with_set < without for with_set, without in counts), counts


def test_jitter_drawn_from_one_stream_lets_the_others_proofs_delay_a_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The unkeyed jitter: a child skipped as proved lost is not scored, every later draw moves, and on some deal
    the restarts store more with the set than without."""
    real = tableau_search.Progress.jitter
    monkeypatch.setattr(tableau_search.Progress, "jitter", lambda self, seed, keyed=False: real(self, seed))
    counts = restarts_with_and_without_the_others(monkeypatch)
    assert any(with_set > without for with_set, without in counts), counts


def test_keyed_noise_is_fixed_by_the_seed_and_the_key() -> None:
    keys = [((i, (i, 2)), (), (), 0, False) for i in range(200)]
    noise = [tableau_search.keyed_noise(3, key, 4) for key in keys]
    assert noise == [tableau_search.keyed_noise(3, key, 4) for key in keys]
    assert set(noise) == {0, 1, 2, 3, 4}
    assert noise != [tableau_search.keyed_noise(4, key, 4) for key in keys]
