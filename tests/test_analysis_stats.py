"""Statistics used by sim and solve reports."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardz_tools.analysis.playout import Aggregate, deal_seed, play_seed
from cardz_tools.analysis.runner import chunks
from cardz_tools.analysis.stats import bounded_interval, histogram_bins, mean_and_stdev, wilson_interval


def test_wilson_matches_textbook_values() -> None:
    # 10 successes in 100 trials: Wilson 95% interval is about 5.52% .. 17.44%.
    low, high = wilson_interval(10, 100)
    assert low == pytest.approx(0.0552, abs=1e-4)
    assert high == pytest.approx(0.1744, abs=1e-4)


@given(st.integers(0, 500), st.integers(0, 500))
def test_wilson_contains_the_observed_rate(successes: int, extra: int) -> None:
    trials = successes + extra
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= high <= 1.0
    if trials:
        assert low - 1e-12 <= successes / trials <= high + 1e-12


def test_bounded_interval_counts_unknown_both_ways() -> None:
    low, high = bounded_interval(won=40, lost=40, unknown=20)
    assert low == pytest.approx(wilson_interval(40, 100)[0])
    assert high == pytest.approx(wilson_interval(60, 100)[1])


def test_mean_and_stdev_from_integer_sums() -> None:
    values = [3, 5, 5, 9]
    mean, sd = mean_and_stdev(sum(values), sum(v * v for v in values), len(values))
    assert mean == pytest.approx(5.5)
    assert sd == pytest.approx(math.sqrt(sum((v - 5.5) ** 2 for v in values) / 4))


def test_histogram_bins_cover_every_value_once() -> None:
    table = {0: 3, 7: 1, 52: 4, 20: 2}
    rows = histogram_bins(table, bins=5)
    assert sum(count for _, _, count in rows) == 10
    assert rows[0][0] == 0 and rows[-1][1] >= 52


@given(st.integers(0, 3000), st.integers(1, 16))
def test_chunks_partition_the_range(total: int, workers: int) -> None:
    parts = chunks(total, workers)
    covered = [i for start, stop in parts for i in range(start, stop)]
    assert covered == list(range(total))


def test_aggregate_merge_is_order_independent() -> None:
    a = Aggregate(playouts=2, wins=1, moves_total=10)
    a.scores.update({3: 1, 5: 1})
    b = Aggregate(playouts=1, wins=0, moves_total=4)
    b.scores.update({3: 1})
    left = Aggregate().merge(a).merge(b)
    right = Aggregate().merge(b).merge(a)
    assert left == right
    assert left.playouts == 3 and left.scores[3] == 2


def test_seeds_are_stable_and_distinct() -> None:
    assert deal_seed(7, 3) == deal_seed(7, 3)
    seeds = {deal_seed(7, i) for i in range(1000)} | {play_seed(7, i) for i in range(1000)}
    assert len(seeds) == 2000
