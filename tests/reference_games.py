"""Hand-written random playouts of the seed games, independent of the engine.

They serve two purposes: an independent check that the engine plays the seed designs as
their pages say (``tests/test_engine_playouts.py`` and ``tests/test_analysis_sim.py``
compare them move for move and by win rate), and the yardstick for the engine's speed
(``bench/bench_engine.py``).

Each playout deals with the documented shuffle, lists the legal moves in the same
order the engine's ``legal_moves()`` documents (sources, then targets, in depot
order; taps last) and picks uniformly with :class:`SplitMix64`.
"""

from __future__ import annotations

from cardz_tools.cards import SplitMix64, card_rank, card_suit, shuffle, standard_deck

MAX_MOVES = 10_000

_GRID = 5
_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        other
        for other in range(_GRID * _GRID)
        if other != cell
        and abs(other % _GRID - cell % _GRID) <= 1
        and abs(other // _GRID - cell // _GRID) <= 1
    )
    for cell in range(_GRID * _GRID)
)


def monte_carlo_playout(deal_seed: int, play_seed: int) -> tuple[bool, int, int]:
    """One random game of Monte Carlo: (won, score, moves)."""
    deck = shuffle(standard_deck(), deal_seed)
    ranks = [card_rank(c) for c in deck]
    cells: list[int] = ranks[:25]  # 0 marks an empty cell
    stock = ranks[25:][::-1]  # top is the end of the list
    discarded = 0
    rng = SplitMix64(play_seed)
    moves = 0
    while moves < MAX_MOVES:
        options: list[tuple[int, int]] = []
        for source in range(25):
            rank = cells[source]
            if rank:
                for target in _NEIGHBOURS[source]:
                    if cells[target] == rank:
                        options.append((source, target))
        can_consolidate = False
        seen_gap = False
        for rank in cells:
            if not rank:
                seen_gap = True
                if stock:
                    can_consolidate = True
                    break
            elif seen_gap:
                can_consolidate = True
                break
        choices = len(options) + can_consolidate
        if discarded == 52 or not choices:
            break
        pick = rng.below(choices)
        moves += 1
        if pick < len(options):
            source, target = options[pick]
            cells[source] = cells[target] = 0
            discarded += 2
        else:
            survivors = [rank for rank in cells if rank]
            while len(survivors) < 25 and stock:
                survivors.append(stock.pop())
            cells = survivors + [0] * (25 - len(survivors))
    return discarded == 52, discarded, moves


_EIGHT = 8


def weathervane_playout(deal_seed: int, play_seed: int, hidden: int = 5) -> tuple[bool, int, int]:
    """One random game of Weathervane: (won, score, moves). Lower scores are better."""
    deck = shuffle(standard_deck(), deal_seed)
    position = 0
    columns: list[list[int]] = [[] for _ in range(7)]
    for _ in range(hidden):
        for column in columns:
            column.append(deck[position])
            position += 1
    for column in columns:
        column.append(deck[position])
        position += 1
    vane_top = deck[position]
    position += 1
    declared = -1
    stock = deck[position:][::-1]
    waste: list[int] = []
    rng = SplitMix64(play_seed)
    moves = 0
    while moves < MAX_MOVES:
        if not any(columns):
            break
        options: list[tuple[int, int]] = []  # (source: -1 waste or column, declared suit or -1)
        top_rank, top_suit = card_rank(vane_top), card_suit(vane_top)
        for source in range(-1, 7):
            pile = waste if source < 0 else columns[source]
            if not pile:
                continue
            card = pile[-1]
            rank, suit = card_rank(card), card_suit(card)
            if rank == _EIGHT:
                options.extend((source, named) for named in range(4))
            elif (suit == declared) if declared >= 0 else (rank == top_rank or suit == top_suit):
                options.append((source, -1))
        choices = len(options) + bool(stock)
        if not choices:
            break
        pick = rng.below(choices)
        moves += 1
        if pick < len(options):
            source, named = options[pick]
            pile = waste if source < 0 else columns[source]
            vane_top = pile.pop()
            declared = named
        else:
            waste.append(stock.pop())
    left = sum(len(column) for column in columns)
    won = left == 0
    return won, left - (len(stock) if won else 0), moves
