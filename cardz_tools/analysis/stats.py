"""Small, exact statistics for playouts and solver runs.

Aggregates hold integer sums so that merging partial results from any number of
workers, in any order, gives bit-identical reports.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson_interval(50, 100); round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and trials")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - margin), min(1.0, centre + margin))


def bounded_interval(won: int, lost: int, unknown: int, z: float = Z_95) -> tuple[float, float]:
    """Winnability interval where undecided deals count as lost for the low end and won for the high end."""
    deals = won + lost + unknown
    low, _ = wilson_interval(won, deals, z)
    _, high = wilson_interval(won + unknown, deals, z)
    return (low, high)


def mean_and_stdev(total: int, total_squares: int, count: int) -> tuple[float, float]:
    """Mean and population standard deviation from exact integer sums."""
    if count <= 0:
        return (0.0, 0.0)
    mean = total / count
    variance = max(0.0, total_squares / count - mean * mean)
    return (mean, math.sqrt(variance))


def histogram_bins(values: Mapping[int, int], bins: int = 10) -> list[tuple[int, int, int]]:
    """Group a value → count table into at most ``bins`` equal ranges: (low, high, count), high inclusive."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    out: list[tuple[int, int, int]] = []
    start = low
    while start <= high:
        end = start + width - 1
        out.append((start, end, sum(c for v, c in values.items() if start <= v <= end)))
        start = end + 1
    return out


def render_histogram(values: Mapping[int, int], bins: int = 10, width: int = 40) -> list[str]:
    """Text bars for a value → count table, one line per bin."""
    rows = histogram_bins(values, bins)
    if not rows:
        return []
    peak = max(count for _, _, count in rows) or 1
    label_width = max(len(f"{a}..{b}" if a != b else str(a)) for a, b, _ in rows)
    lines = []
    for a, b, count in rows:
        label = f"{a}..{b}" if a != b else str(a)
        bar = "█" * max(1 if count else 0, round(width * count / peak))
        lines.append(f"{label:>{label_width}} │{bar} {count}")
    return lines
