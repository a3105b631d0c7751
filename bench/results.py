"""The results table: every shipped game played at random and solved, next to published figures.

    python bench/results.py --write        # writes docs/results.md (about 10 minutes on 2 cores)
    python bench/results.py --deals 4      # four times the default deal counts, printed only
    python bench/results.py --only golf --only black-hole

For each game: random play (win rate with its Wilson 95% interval, mean moves, the share
of positions that offer a choice) and the solver (``cardz solve``: won, lost or unknown per
deal; winnability with the interval that counts unknown deals both ways; time per deal;
positions per second). Where a published figure exists the verdict says whether it lies
inside our interval (agree), outside it (disagree), or whether too many deals stayed
undecided to say (undecided). The default deal counts and node budgets below keep the whole
run near ten minutes on two cores; ``--deals K`` multiplies every count by K.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.sim import simulate  # noqa: E402
from cardz_tools.analysis.solve import solve  # noqa: E402
from cardz_tools.analysis.stats import bounded_interval, wilson_interval  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
OUTPUT = ROOT / "docs" / "results.md"
SEED = 0
DECIDED_ENOUGH = 0.9
"""Below this share of decided deals the table prints no winnability, only the interval."""


@dataclasses.dataclass(frozen=True)
class Published:
    """A published winnability: a value or a range (as fractions) and where it comes from."""

    low: float
    high: float
    text: str
    source: str


@dataclasses.dataclass(frozen=True)
class Entry:
    """One row: a shipped design (or None when it cannot be written yet) and its run sizes."""

    title: str
    file: str | None
    playouts: int
    deals: int
    budget: int
    published: Published | None = None
    note: str = ""


ENTRIES = [
    Entry("Golf (nothing on a King)", "golf", 2000, 150, 3_000_000,
          Published(0.24, 0.28, "about 26%", "brief for issue #9 (published solver surveys)")),
    Entry("Golf (Queen on a King)", "golf-queen-on-king", 2000, 120, 3_000_000,
          Published(0.45, 0.49, "about 45–49%", "brief for issue #9 (published solver surveys)")),
    Entry("Golf (ranks wrap)", "golf-wrap", 2000, 100, 3_000_000,
          Published(0.92, 0.94, "about 93%", "brief for issue #9 (published solver surveys)")),
    Entry("Black Hole", "black-hole", 2000, 80, 4_000_000,
          Published(0.86941, 0.86941, "86.94% (869,413 of 1,000,000; 87.5% of ~2,500)",
                    "Shlomi Fish's black-hole-solver on PySol deals 1..1,000,000; Gent et al.")),
    Entry("Klondike (draw three)", "klondike", 200, 8, 20_000,
          Published(0.81861, 0.82029, "81.945% ± 0.084%", "Blake & Gent, thoughtful Klondike")),
    Entry("FreeCell", "freecell", 200, 8, 20_000,
          Published(0.9999, 0.9999, "about 99.99%", "the FreeCell solver surveys (all but a handful of 32,000 deals)")),
    Entry("Gaps (no redeal)", "gaps-no-redeal", 200, 6, 20_000,
          Published(0.821, 0.895, "85.8% ± 3.7%", "Solvitaire (Blake & Gent)")),
    Entry("Montana (two redeals)", "montana", 500, 4, 20_000),
    Entry("Canfield", "canfield", 200, 8, 20_000),
    Entry("Accordion", "accordion", 500, 8, 20_000),
    Entry("Pyramid", "pyramid", 500, 8, 20_000),
    Entry("Spider (one suit)", "spider-one-suit", 100, 4, 20_000),
    Entry("Château de cartes", "chateau-de-cartes", 500, 8, 20_000),
    Entry("Monte Carlo (seed)", "monte-carlo", 2000, 20, 50_000),
    Entry("Weathervane (seed)", "weathervane", 2000, 20, 50_000),
    Entry("Weathervane (six hidden)", "weathervane-6", 2000, 20, 50_000),
]


@dataclasses.dataclass(frozen=True)
class Row:
    """The measured numbers of one entry."""

    entry: Entry
    random: str = "—"
    solver: str = "—"
    decided: str = "—"
    moves: str = "—"
    decision: str = "—"
    per_deal: str = "—"
    speed: str = "—"
    verdict: str = "—"


def percent(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f}%"


def verdict(published: Published | None, low: float, high: float, enough: bool) -> str:
    """agree / disagree / undecided: whether the published figure (or range) meets our interval."""
    if published is None:
        return "—"
    if not enough:
        return "undecided"
    return "agree" if published.low <= high and published.high >= low else "disagree"


def measure(entry: Entry, scale: int, workers: int) -> Row:
    """Simulate and solve one entry."""
    if entry.file is None:
        return Row(entry, verdict="not measured" if entry.published else "—")
    text = open_design(GAMES / f"{entry.file}.cardz").json_text
    sim = simulate(text, entry.playouts * scale, SEED, workers=workers, max_moves=2000)
    sim_d = sim.to_dict()
    low, high = wilson_interval(sim_d["wins"], sim_d["playouts"])
    random = f"{percent(sim.win_rate, 2)} ({percent(low, 2)}–{percent(high, 2)})"
    deals = entry.deals * scale
    report = solve(text, deals, SEED, entry.budget, workers=workers)
    won, lost, unknown = report.count("won"), report.count("lost"), report.count("unknown")
    s_low, s_high = bounded_interval(won, lost, unknown)
    enough = deals > 0 and (won + lost) / deals >= DECIDED_ENOUGH
    interval = f"{percent(s_low)}–{percent(s_high)}"
    if enough and report.winnability is not None:
        solver = f"{percent(report.winnability)} ({interval})"
    else:
        solver = f"undecided: {unknown} of {deals} deals beyond {entry.budget:,} positions (interval {interval})"
    seconds = sum(v.seconds for v in report.verdicts)
    nodes = sum(v.nodes for v in report.verdicts)
    return Row(
        entry,
        random=random,
        solver=solver,
        decided=f"{won} won, {lost} lost, {unknown} unknown",
        moves=f"{sim_d['mean_moves']:.0f}",
        decision=percent(sim.decision_share),
        per_deal=f"{seconds / max(1, deals):.2f} s",
        speed=f"{deals / report.elapsed_s:.2f} deals/s, {nodes / seconds / 1000:.0f}k positions/s"
        if seconds > 0
        else "—",
        verdict=verdict(entry.published, s_low, s_high, enough),
    )


def render(rows: list[Row], scale: int, workers: int, elapsed: float) -> str:
    """The markdown page."""
    lines = [
        "# Results: the shipped games, played and solved",
        "",
        "_Generated by `python bench/results.py --write` (see the README); do not edit by hand._",
        "",
        f"Seed {SEED}, {workers} worker{'s' if workers != 1 else ''}, deal counts × {scale}, "
        f"the whole run took {elapsed / 60:.1f} minutes.",
        "",
        "- **Random play**: uniformly random legal moves, at most 2,000 per game; the win rate with its Wilson 95% "
        "interval.",
        "- **Solver**: `cardz solve` (depth-first search with a transposition table, knowing every card: the "
        '"thoughtful" player of the literature; Golf and Black Hole are searched in the compact form of '
        "`cardz_tools/analysis/sink_search.py`, with sound dead-end tests). A deal is won, lost (every reachable "
        "position searched) or "
        "unknown (the position budget ran out). The interval counts unknown deals as lost at its low end and as won "
        "at its high end. Below "
        f"{percent(DECIDED_ENOUGH, 0)} decided deals the table prints no winnability.",
        "- **Verdict**: *agree* when the published figure (or range) lies inside our interval, *disagree* when it "
        "lies outside, *undecided* when the solver decided too few deals to say.",
        "- **Moves** and **choice** come from random play: mean moves per game, and the share of positions that "
        "offer more than one legal move.",
        "",
        "| game | random win rate | solver winnability (95%) | deals | moves | choice | time per deal | solver speed "
        "| published | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        e = row.entry
        published = e.published.text if e.published else "—"
        size = f"{e.deals * scale} ({row.decided})" if e.file else "—"
        solver = row.solver if e.file else e.note
        lines.append(
            f"| {e.title} | {row.random} | {solver} | {size} | {row.moves} | {row.decision} | "
            f"{row.per_deal} | {row.speed} | {published} | {row.verdict} |"
        )
    undecided = [row.entry.title for row in rows if row.solver.startswith("undecided")]
    lines += [
        "",
        "## Run sizes and sources",
        "",
        "| game | design | playouts | deals | budget (positions per deal) | published source |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        e = row.entry
        design = f"`games/{e.file}.cardz`" if e.file else "—"
        source = e.published.source if e.published else "—"
        lines.append(f"| {e.title} | {design} | {e.playouts * scale:,} | {e.deals * scale} | {e.budget:,} | {source} |")
    lines += [
        "",
        (
            f"Undecided rows ({', '.join(undecided)}): these games have far larger state spaces than this generic "
            "solver searches within its budget, so the rows say how many deals it decided rather than guessing. "
            if undecided
            else ""
        )
        + "`--deals K` multiplies every deal and playout count; `--only NAME` runs the named designs.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUTPUT.relative_to(ROOT)}")
    parser.add_argument("--deals", type=int, default=1, metavar="K", help="multiply every deal and playout count by K")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    started = time.perf_counter()
    rows = []
    for entry in ENTRIES:
        if args.only and entry.file not in args.only:
            continue
        began = time.perf_counter()
        row = measure(entry, args.deals, args.workers)
        rows.append(row)
        print(
            f"{entry.title}: {row.solver}; {row.decided}; random {row.random}; {row.verdict} "
            f"({time.perf_counter() - began:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    page = render(rows, args.deals, args.workers, time.perf_counter() - started)
    if args.write:
        OUTPUT.write_text(page, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
