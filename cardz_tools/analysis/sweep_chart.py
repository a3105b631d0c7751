"""The chart of a sweep: win rates (random and solver, with intervals) and mean score per variant.

Needs matplotlib (the optional ``plot`` extra); :func:`write_chart` says so in a
:class:`ChartError` when it is missing. The file type follows the suffix (``.svg``, ``.png``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .sweep import SweepReport

FORMATS = (".svg", ".png")


class ChartError(RuntimeError):
    """The chart cannot be drawn or written."""


def _label(values: dict[str, Any], shown: list[str]) -> str:
    return ", ".join(
        f"{pointer.rsplit('/', 1)[-1]}={value if isinstance(value, str) else json.dumps(value)}"
        for pointer, value in values.items()
        if pointer in shown
    )


def write_chart(report: SweepReport, path: Path) -> None:
    """Draw ``report`` to ``path``: two panels sharing the x axis (the first parameter's values
    when it is the only one and numeric, else one tick per variant).

    The file is written atomically: a failure leaves no half-written chart.
    """
    if path.suffix.lower() not in FORMATS:
        raise ChartError(f"{path}: the chart is written as .svg or .png")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ChartError("drawing a chart needs matplotlib: pip install 'cardz-tools[plot]'") from None

    rows = [row for row in report.rows if row.sim is not None]
    if not rows:
        raise ChartError("no variant could be played, so there is nothing to draw")
    pointers = [p.pointer for p in report.parameters]
    numeric = len(pointers) == 1 and all(isinstance(r.values[pointers[0]], int | float) for r in rows)
    xs = [r.values[pointers[0]] if numeric else i for i, r in enumerate(rows)]

    figure, (rates, scores) = plt.subplots(2, 1, sharex=True, figsize=(7, 6), constrained_layout=True)
    random_rate = [100 * r.sim.win_rate for r in rows if r.sim]
    low_high = [r.sim.to_dict()["win_rate_interval"] for r in rows if r.sim]
    rates.errorbar(
        xs,
        random_rate,
        yerr=[
            [rate - 100 * lh[0] for rate, lh in zip(random_rate, low_high, strict=True)],
            [100 * lh[1] - rate for rate, lh in zip(random_rate, low_high, strict=True)],
        ],
        marker="o",
        capsize=4,
        label="random play",
    )
    solved = [(x, r.solve.to_dict()) for x, r in zip(xs, rows, strict=True) if r.solve is not None]
    if solved:
        mids = [
            100 * (d["winnability"] if d["winnability"] is not None else (d["interval"][0] + d["interval"][1]) / 2)
            for _, d in solved
        ]
        rates.errorbar(
            [x for x, _ in solved],
            mids,
            yerr=[
                [m - 100 * d["interval"][0] for m, (_, d) in zip(mids, solved, strict=True)],
                [100 * d["interval"][1] - m for m, (_, d) in zip(mids, solved, strict=True)],
            ],
            marker="s",
            capsize=4,
            label="solver (knows every card)",
        )
    rates.set_ylabel("win rate, % (95% interval)")
    rates.set_ylim(-2, 102)
    rates.legend(loc="best")
    rates.grid(alpha=0.3)

    means = [r.sim.to_dict()["mean_score"] for r in rows if r.sim]
    spreads = [r.sim.to_dict()["score_stdev"] for r in rows if r.sim]
    scores.errorbar(xs, means, yerr=spreads, marker="o", capsize=4, color="tab:green")
    scores.set_ylabel("mean score (± sd), random play")
    scores.grid(alpha=0.3)
    if numeric:
        scores.set_xlabel(pointers[0])
        scores.set_xticks(xs)
    else:
        scores.set_xticks(xs, [_label(r.values, pointers) for r in rows], rotation=30, ha="right")
    figure.suptitle(f"{report.game}: sweep of {', '.join(pointers)}")

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(handle)
    try:
        figure.savefig(temporary, format=path.suffix.lower().lstrip("."))
        os.replace(temporary, path)
    except OSError as exc:
        raise ChartError(f"{path}: {exc.strerror or exc}") from None
    finally:
        plt.close(figure)
        if os.path.exists(temporary):
            os.unlink(temporary)
