"""The results table: every shipped game played at random and solved, next to published figures.

    python bench/results.py --write              # writes docs/results.md: the whole catalog, 2 games at a time
    python bench/results.py --only spiderette    # one game (repeat --only for more), printed only
    python bench/results.py --list               # the run sizes and the worst-case CPU time, without running
    python bench/results.py --deals 4            # four times every deal and playout count
    python bench/results.py --seed 101           # other deals: the table's seed 0 is the one the solver was tuned on

For each game: random play (win rate with its Wilson 95% interval, mean moves, the share
of positions that offer a choice) and the solver (``cardz solve``: won, lost or unknown per
deal; winnability with the interval that counts unknown deals both ways; time per deal;
positions per second). Games run in parallel (``--jobs``, one process per game), each deal
bounded by its entry's positions and seconds (and some rows by a bound of their own on the
sum of their deals' times), so that this first phase stays within an hour on two cores whatever
the solver's speed (``--list`` prints the bound). A second phase then spends what the hour has
left (``--retry-minutes`` bounds it further): every deal left unknown at a bound below the
issue's measure, 10 s a deal, is solved again at 10 s, undecided rows first.

The verdict: *agree* when the published figure lies inside our interval; *differs* with the
written reason when it does not and the entry documents a difference between our rules and
the rules the figure was measured with; *undecided* when too few deals were decided. A figure
outside our interval with no documented difference is an unexplained *disagree*: the run
reports it and exits 1, since a row must never say that without a reason.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import math
import os
import pathlib
import sys
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cardz_tools.analysis.sim import simulate  # noqa: E402
from cardz_tools.analysis.solve import Verdict, solve  # noqa: E402
from cardz_tools.analysis.stats import bounded_interval, wilson_interval  # noqa: E402
from cardz_tools.loading import open_design  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
OUTPUT = ROOT / "docs" / "results.md"
SEED = 0
"""The seed of the table's deals and playouts (``--seed``)."""
MAX_MOVES = 2000
"""Random playouts stop (not won) after this many moves."""
DECIDED_ENOUGH = 0.9
"""Below this share of decided deals the table prints no winnability, only the interval."""
RUN_SECONDS = 3600.0
"""The whole run's bound on two cores (wall time, × ``--deals``): the first phase's worst case must fit in it."""
RETRY_SECONDS = 10.0
"""The second phase: every deal a row leaves unknown at its own bound is solved again at this bound (the
issue's measure, 10 s a deal), while the run's bound has time left; rows whose own bound is already as long
are not tried again."""
RETRY_MARGIN = 5.0
"""Time kept free beyond a retry's bound when deciding whether it can still start (design loading, start-up)."""
PLAYOUT_SECONDS = 0.08
"""A generous CPU cost of one random playout of MAX_MOVES moves, for the worst-case estimate of ``--list``."""

FIGURES = "shared/published-figures.md"
"""Where every published figure below is written (beside the repository: ``../shared/``)."""
BLAKE_GENT = f"Blake & Gent, JAIR 85 (2026), Solvitaire ({FIGURES})"
BLACK_HOLE_SOLVE = f"black-hole-solve, 200 deals measured on this machine class ({FIGURES})"
WOLTER_TRIGON = (
    "Jan Wolter, Experimental Analysis of Trigon Solitaire (2013), https://politaire.com/article/trigon.html: "
    "Politaire's deals 0 to 999,999 by his exhaustive solver"
)
"""A figure from outside the shared file: a source of its own, with its address."""


@dataclasses.dataclass(frozen=True)
class Published:
    """A published winnability: a value or a range (as fractions) and where it comes from."""

    low: float
    high: float
    text: str
    source: str


def measured(won: int, deals: int, text: str, source: str = BLACK_HOLE_SOLVE) -> Published:
    """A figure published as ``won`` of ``deals`` deals: its Wilson 95% interval (``text`` as published)."""
    low, high = wilson_interval(won, deals)
    return Published(low, high, text, source)


def plus_minus(percent: str, half_width: str, source: str = BLAKE_GENT) -> Published:
    """A figure published as ``percent ± half_width`` (both in percent, written as published)."""
    value, width = float(percent), float(half_width)
    return Published((value - width) / 100, (value + width) / 100, f"{percent}% ± {half_width}%", source)


@dataclasses.dataclass(frozen=True)
class Entry:
    """One row: a design in games/ (its file stem), its run sizes and the published figure.

    ``differs`` documents how our rules differ from those the figure was measured with: the
    verdict's written reason when the figure falls outside our interval.
    """

    file: str
    playouts: int = 200
    deals: int = 20
    budget: int = 1_000_000
    deal_seconds: float = 2.0
    published: Published | None = None
    differs: str = ""
    playout_moves: int = MAX_MOVES
    """How long a random game of this design lasts, at most (for the time estimate of ``--list`` only)."""
    row_seconds: float | None = None
    """A bound on the solver's time over the whole row (the sum of its deals' times), below
    ``deals * deal_seconds``: for rows whose deals nearly all finish far inside their own bound, so that the
    hour's bound need not reserve every deal's whole time. A deal is started only while the time left covers
    its own bound; deals not reached count as unknown, and the row says how many there were."""

    def solve_seconds(self, scale: int = 1) -> float:
        """The most time the solver may take over this row's deals."""
        every_deal = scale * self.deals * self.deal_seconds
        return every_deal if self.row_seconds is None else min(every_deal, scale * self.row_seconds)

    def worst_seconds(self, scale: int = 1) -> float:
        """An upper estimate of this row's CPU time: the solver to its bound, every playout to its length."""
        playout = PLAYOUT_SECONDS * min(self.playout_moves, MAX_MOVES) / MAX_MOVES
        return self.solve_seconds(scale) + scale * self.playouts * playout


ENTRIES = [
    # Golf and Black Hole: the compact sink search decides deals in about a second. Golf's slowest deal of
    # these 150 takes 299k positions (about 5 s), the next 172k (about 3 s): 4.5 s a deal leaves it unknown
    # and gives the Gaps rows the time their proofs of loss take. These rows take 0.3 to 0.6 s a deal
    # (docs/results.md, session 5): their row bounds, about four times that, give the time their deals
    # would reserve at their own bounds to the published rows that need it (Klondike, Canfield, Spiderette).
    Entry("golf", 2000, 150, 3_000_000, 4.5, measured(48, 200, "24% of 200 deals"), playout_moves=60,
          row_seconds=180.0),
    # Solvitaire's Golf puts a Queen on a King and a King on a Queen, as this design does. Its slowest deal of
    # these 120 takes 254k positions (about 4.3 s), the next 197k: 5 s a deal.
    Entry("golf-queen-on-king", 2000, 120, 3_000_000, 5.0, plus_minus("45.109", "0.032"), playout_moves=60,
          row_seconds=240.0),
    Entry("golf-wrap", 2000, 100, 3_000_000, 6.0, measured(187, 200, "93.5% of 200 deals"), playout_moves=60,
          row_seconds=120.0),
    # Black Hole's hardest of these 40 deals takes 87k positions (about 3 CPU-s) since the sink search's first
    # run is 2,000 positions; Worm Hole is a sink game with a free cell now (19 of 20 won within 200k positions
    # each, the 20th unknown at 1M); their time goes to Pyramid (deals 17 and 19 are lost in 1.1M and 0.7M
    # positions, 8 to 9 CPU-s).
    Entry("black-hole", 2000, 40, 4_000_000, 5.0, plus_minus("86.944", "0.022"), playout_moves=60,
          row_seconds=90.0),
    Entry("worm-hole", 500, 20, 1_000_000, 6.0, playout_moves=60, row_seconds=60.0),
    # Klondike and its relatives.
    # Klondike draw three and Canfield at the issue's own measure, 30 s a deal.
    Entry("klondike", deals=10, deal_seconds=30.0, published=plus_minus("81.945", "0.084")),
    Entry("klondike-draw-one", deals=10, deal_seconds=15.0, published=plus_minus("90.480", "0.116")),
    # Trigon's 20 deals are all decided within 100k positions (3 won, 17 lost; session 6), but at about 5k
    # positions a second: deals 1, 3 and 13 need 10k to 22k (2 to 5 s), deal 8 91k; all of them but deal 8
    # take about 81k positions. 5 s a deal, 60 s for the row (40 s at 2 s a deal before).
    Entry("trigon", deal_seconds=5.0, row_seconds=60.0,
          published=measured(160_076, 1_000_000, "160,076 of 10^6 deals (16.0%)", WOLTER_TRIGON)),
    Entry("gargantua", playouts=100, deals=10),
    # The presets one setting away from a design here have no published figure: short runs keep the hour.
    Entry("gargantua-redeal", playouts=100, deals=10, deal_seconds=2.5),
    Entry("klondike-two-deck-9", playouts=100, deals=10, deal_seconds=2.5),
    Entry("ultra-klondike-2-deck", playouts=100, deals=10, deal_seconds=1.5),
    Entry("klondike-reserve", playouts=100, deals=10, deal_seconds=1.5),
    Entry("east-haven"),
    Entry("northwest-territory"),
    # The FreeCell family.
    Entry("freecell", deal_seconds=10.0, published=plus_minus("99.998881", "0.000207")),
    # With fewer cells the last deals need more than 2 s: replayed at each row's quiet node rate (session 6), three
    # cells decide 18 of 20 only at 6 s, two cells 19 at 5 s.
    Entry("freecell-three-cell", deal_seconds=6.0),
    Entry("freecell-two-cell", deal_seconds=5.0),
    Entry("freecell-one-cell"),
    Entry("freecell-no-cell"),
    Entry("one-cell"),
    Entry("two-cell"),
    # 80 deals: its deals are decided in about a second each, and 20 gave an interval (34%-74%) that
    # missed the figure by chance (11 of 20 won; 62 of 80 won with the same seed).
    Entry("bakers-game", deals=80, deal_seconds=2.0, published=plus_minus("75.053", "0.028")),
    Entry("eight-off"),
    Entry("eight-off-any-card"),
    Entry("fore-cell"),
    Entry("fore-cell-same-suit", playouts=100, deals=10, deal_seconds=1.5),
    Entry("freecell-seven-pile", playouts=100, deals=10, deal_seconds=1.5),
    Entry("seahaven-towers"),
    # Open games without cells or stock.
    Entry("beleaguered-castle"),
    Entry("streets-and-alleys"),
    Entry("siegecraft"),
    Entry("stronghold"),
    Entry("spanish-patience"),
    Entry("bakers-dozen"),
    Entry("castles-of-spain"),
    Entry("alina"),
    Entry("king-albert"),
    Entry("raglan", deal_seconds=3.0),  # 17 of 20 decided at 2 s, 18 at 3 s (session 6)
    Entry("somerset"),
    Entry("flower-garden"),
    Entry("fan"),
    Entry("scotch-patience", playouts=100),
    Entry("alpha-star"),
    Entry("delta-star"),
    Entry("american-canister"),
    Entry("british-canister"),
    Entry("thirty", deal_seconds=3.0),  # 18 of 20 decided at 2 s, 19 at 3 s (session 6)
    # Stock games.
    Entry("thirty-six"),
    Entry("fortunes-favor"),
    Entry("forty-thieves", playouts=100, deals=10),
    Entry("lucas", playouts=100, deals=10, deal_seconds=4.0),
    Entry("maria", playouts=100, deals=10),
    Entry("limited", playouts=100, deals=10),
    Entry("streets", playouts=100, deals=10),
    Entry("rank-and-file", playouts=100, deals=10),
    # Canfield and its relatives.
    Entry("canfield", deals=10, deal_seconds=30.0, published=plus_minus("71.245", "0.031"),
          differs="the figure is for Solvitaire's Canfield (canfield-runs.cardz): any run moves and a column never "
                  "builds across the foundations' base rank; this design has the book rules (the top card or the "
                  "whole column moves, a column wraps from Ace to King)"),
    Entry("canfield-runs", deals=10, deal_seconds=30.0, published=plus_minus("71.245", "0.031")),
    Entry("canfield-auto-reserve-then-waste", playouts=100, deals=10, deal_seconds=1.5),
    Entry("canfield-strict", playouts=100, deals=10, deal_seconds=1.5),
    Entry("american-toad", playouts=100, deals=10),
    Entry("duchess"),
    Entry("chameleon"),
    # Spider and its relatives.
    Entry("spider-one-suit", playouts=100, deals=10, deal_seconds=5.0),
    # Spiderette's wins come from the narrowed run moves (7 of 10 within 150k positions, none in 2 s): it gets the
    # issue's 10 s a deal and 100 playouts (random play wins none); Spider 1.2 s (it wins no deal in 2 s), and
    # the random playouts of Will o' the Wisp, Scotch Patience and Simple Simon are 100, not 200.
    Entry("spider", playouts=100, deals=10, deal_seconds=1.2),
    Entry("spiderette", playouts=100, deals=10, deal_seconds=10.0, published=plus_minus("99.620", "0.018")),
    # Will o' the Wisp, seed 0, at a fixed budget: 7 won at 30,000 positions, 17 at 60,000 (session 6): 4 s a deal.
    Entry("will-o-the-wisp", playouts=100, deal_seconds=4.0),
    # Mrs Mop, seed 0, at a fixed budget (one worker): 7 won at 30,000 positions, 8 won and 1 lost at 60,000, every
    # decided deal within 31,000 (about 2.6 s at its 12k positions a second): 4 s a deal, from the time the capped
    # rows freed (at load 4 it stores 7k to 10k a second: 5 won in 3 s).
    Entry("simple-simon", playouts=100),
    Entry("mrs-mop", playouts=100, deals=10, deal_seconds=4.0),
    # Gaps, Accordion, Pyramid and the rest.
    # The grid search, in positions of the portfolio (no time bound): Gaps deals 0-5, 8 and 9 are decided within
    # 400k, deal 7 is lost in 1.82M (about 29 CPU-s), deal 6 in about 2.4M (unknown here); the basic variant's
    # deals are all decided within 1.88M (deal 5 won, about 20 CPU-s; deal 1 lost in 1.81M, about 16 CPU-s).
    # At the 49k and 71k positions a second of a run at load 5 (2 workers), deal 7 takes 37 s, deal 1 of the basic
    # variant 25 s: the basic variant gets 30 s. Since session 6 the search is 1.5 to 1.8 times as fast on Gaps
    # (the same positions; deal 7: 19.7 CPU-s at load 17, 29 before): Gaps gets 30 s a deal (42 s before), and
    # 2.5M positions, within which deal 6 is lost (2,363,870 positions, 17.4 CPU-s), so every deal is decided.
    # Session 7: Gaps plays Solvitaire's gaps-one-deal rule (a Two at the left edge may move to another leftmost
    # gap), a much longer search (Solvitaire's own figure left 608 of its 10^4 deals unknown, at 2,000 CPU-s a
    # deal); 20 deals, as the published interval is wide and the row's agreement was narrow at 10.
    Entry("gaps-no-redeal", deals=20, budget=2_500_000, deal_seconds=30.0, published=plus_minus("85.815", "3.717"),
          playout_moves=100),
    Entry("gaps-basic", deals=10, budget=2_000_000, deal_seconds=30.0, published=plus_minus("24.902", "0.028"),
          playout_moves=100),
    Entry("montana", playouts=500, deals=10, deal_seconds=6.0, playout_moves=200),
    # Accordion: all 20 deals are won within 612k positions (deal 5; 358k deal 13, 1.83M in all, 32 s at load 12):
    # 8 s a deal within the 40 s the row reserved at 2 s a deal.
    Entry("accordion", playouts=500, deal_seconds=8.0, published=plus_minus("99.99948", "0.00052"), playout_moves=60,
          row_seconds=40.0),
    # Late Binding has the row search since session 6: 19 of its 20 deals are decided within 38k positions
    # (under a second), deal 9 is lost in 161k (5.4 s at load 10): 5 s a deal within the 40 s the row reserved.
    Entry("late-binding", playouts=500, playout_moves=40, deal_seconds=5.0, row_seconds=40.0),
    # Pyramid's 20 deals took 25 s in all in session 5 (1.26 s a deal; deals 17 and 19 are lost in 1.1M and 0.7M
    # positions, 8 to 9 CPU-s): 10 s a deal within 60 s for the row (200 s reserved before).
    Entry("pyramid", playouts=500, budget=2_000_000, deal_seconds=10.0, playout_moves=100, row_seconds=60.0),
    Entry("chateau-de-cartes", playouts=500, deals=10, deal_seconds=4.0, playout_moves=100),
    Entry("monte-carlo", 2000, 20, 1_000_000, 2.0, playout_moves=60),
    Entry("weathervane", 2000, 20, 1_000_000, 2.0, playout_moves=60),
    # Weathervane with six hidden: all 20 deals are won within 102k positions (281k in all, about 17k a second);
    # deals 14 and 15 need 73k and 101k: 8 s a deal within the 40 s the row reserved at 2 s a deal.
    Entry("weathervane-6", 2000, 20, 1_000_000, 8.0, playout_moves=60, row_seconds=40.0),
]


@dataclasses.dataclass(frozen=True)
class Row:
    """The measured numbers of one entry."""

    entry: Entry
    title: str
    random: str = "—"
    solver: str = "—"
    decided: str = "—"
    moves: str = "—"
    decision: str = "—"
    per_deal: str = "—"
    speed: str = "—"
    verdict: str = "—"
    seconds: float = 0.0
    second_phase: bool = False
    """Whether some of its unknown deals were due a second try (tried or not)."""


def percent(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f}%"


def verdict(published: Published | None, low: float, high: float, enough: bool, differs: str = "") -> str:
    """agree / differs: reason / disagree / undecided: whether the published figure (or range) meets our interval."""
    if published is None:
        return "—"
    if not enough:
        return "undecided"
    if published.low <= high and published.high >= low:
        return "agree"
    return f"differs: {differs}" if differs else "disagree"


@dataclasses.dataclass
class Sample:
    """What one entry's run measured, before it is written as a row: random play and the solver's verdicts."""

    entry: Entry
    title: str
    random: str
    moves: str
    decision: str
    verdicts: list[Verdict]
    """The first phase's verdicts by deal, at the entry's own bound; a retried deal's is replaced by its retry's."""
    deals: int
    solve_wall: float
    """Wall time of the solver over the row, both phases."""
    seconds: float
    """Wall time of the whole row, both phases."""
    first_seconds: float = 0.0
    """The first phase's solver time on the deals tried again (the second try's own is in its verdict)."""
    first_nodes: int = 0
    retried: int = 0
    retry_decided: int = 0
    """Deals the second phase decided (of ``retried``)."""
    retry_left: int = 0
    """Deals left unknown by the first phase that the second could not start within the run's bound."""
    retry_seconds: float = RETRY_SECONDS
    """The second phase's bound per deal."""
    seed: int = SEED
    """The run's seed: deal ``i`` of the row is deal ``i`` of ``cardz solve --seed``."""

    @property
    def won(self) -> int:
        return sum(v.result == "won" for v in self.verdicts)

    @property
    def lost(self) -> int:
        return sum(v.result == "lost" for v in self.verdicts)

    def retry_candidates(self, retry_seconds: float) -> list[int]:
        """The deals a second phase at ``retry_seconds`` a deal may decide: unknown ones, if that is more time."""
        if self.entry.deal_seconds >= retry_seconds:
            return []
        return [i for i, v in enumerate(self.verdicts) if v.result == "unknown"]

    def needed(self) -> int:
        """How many more deals must be decided for the row to be decided (0 when it is)."""
        return max(0, math.ceil(DECIDED_ENOUGH * self.deals - 1e-9) - self.won - self.lost)


def measure(entry: Entry, scale: int, workers: int, seed: int = SEED) -> Row:
    """Simulate and solve one entry (its first phase only: see :func:`retry_unknown` for the second)."""
    return tabulate(sample(entry, scale, workers, seed), scale)


def sample(entry: Entry, scale: int, workers: int, seed: int = SEED) -> Sample:
    """Simulate one entry and solve its deals at its own bound."""
    began = time.perf_counter()
    opened = open_design(GAMES / f"{entry.file}.cardz")
    text, title = opened.json_text, opened.design.name
    sim = simulate(text, entry.playouts * scale, seed, workers=workers, max_moves=MAX_MOVES)
    sim_d = sim.to_dict()
    low, high = wilson_interval(sim_d["wins"], sim_d["playouts"])
    verdicts, elapsed = solve_row(entry, text, scale, workers, seed)
    return Sample(
        entry,
        title,
        random=f"{percent(sim.win_rate, 2)} ({percent(low, 2)}–{percent(high, 2)})",
        moves=f"{sim_d['mean_moves']:.0f}",
        decision=percent(sim.decision_share),
        verdicts=verdicts,
        deals=entry.deals * scale,
        solve_wall=elapsed,
        seconds=time.perf_counter() - began,
        seed=seed,
    )


def tabulate(measured: Sample, scale: int) -> Row:
    """The row's printed numbers."""
    entry, verdicts, deals = measured.entry, measured.verdicts, measured.deals
    unreached = deals - len(verdicts)
    won, lost = measured.won, measured.lost
    unknown = deals - won - lost
    winnability = won / (won + lost) if won + lost else None
    s_low, s_high = bounded_interval(won, lost, unknown)
    enough = deals > 0 and (won + lost) / deals >= DECIDED_ENOUGH
    interval = f"{percent(s_low)}–{percent(s_high)}"
    if enough and winnability is not None:
        solver = f"{percent(winnability)} ({interval})"
    else:
        solver = f"undecided: {unknown} of {deals} deals beyond the bound (interval {interval})"
    seconds = sum(v.seconds for v in verdicts) + measured.first_seconds
    nodes = sum(v.nodes for v in verdicts) + measured.first_nodes
    notes = []
    if measured.retried:
        again = f"on a second try at {measured.retry_seconds:g} s"
        notes.append(f"{measured.retry_decided} decided {again}" if measured.retry_decided else f"none decided {again}")
    if measured.retry_left:
        notes.append(f"{measured.retry_left} unknown not tried again within the run's bound")
    if unreached:
        notes.append(f"{unreached} not reached within the row's bound")
    decided = f"{won} won, {lost} lost, {unknown} unknown" + "".join(f"; {note}" for note in notes)
    return Row(
        entry,
        measured.title,
        random=measured.random,
        solver=solver,
        decided=decided,
        moves=measured.moves,
        decision=measured.decision,
        per_deal=f"{seconds / max(1, deals):.2f} s",
        speed=f"{len(verdicts) / measured.solve_wall:.2f} deals/s, {nodes / seconds / 1000:.0f}k positions/s"
        if seconds > 0 and measured.solve_wall > 0 else "—",
        verdict=verdict(entry.published, s_low, s_high, enough, entry.differs),
        seconds=measured.seconds,
        second_phase=bool(measured.retried or measured.retry_left),
    )


ROW_BATCH = 10
"""Deals solved between two looks at a capped row's time left."""


def solve_row(entry: Entry, text: str, scale: int, workers: int, seed: int = SEED) -> tuple[list[Verdict], float]:
    """Solve the row's deals (× ``scale``) in order within its bounds: the verdicts reached and the wall time taken.

    Without a row bound every deal is solved. With one, deals are solved in batches, each only as
    large as the time left covers at every deal's own bound, so the row never exceeds its bound.
    """
    began = time.perf_counter()
    deals = entry.deals * scale
    if entry.row_seconds is None:
        report = solve(text, deals, seed, entry.budget, workers=workers, deal_seconds=entry.deal_seconds)
        return list(report.verdicts), time.perf_counter() - began
    verdicts: list[Verdict] = []
    while len(verdicts) < deals:
        left = entry.solve_seconds(scale) - sum(v.seconds for v in verdicts)
        batch = min(ROW_BATCH, deals - len(verdicts), int(left // entry.deal_seconds))
        if batch <= 0:
            break
        report = solve(text, batch, seed, entry.budget, workers=workers, deal_seconds=entry.deal_seconds,
                       first=len(verdicts))
        verdicts.extend(report.verdicts)
    return verdicts, time.perf_counter() - began


def _sample_alone(entry: Entry, scale: int, seed: int) -> Sample:
    """One game in a worker process of its own (the pool runs games side by side)."""
    return sample(entry, scale, 1, seed)


_TEXTS: dict[str, str] = {}


def _retry_deal(entry: Entry, index: int, retry_seconds: float, seed: int) -> Verdict:
    """Solve deal ``index`` of the entry's run again, at ``retry_seconds`` (in a worker process)."""
    if entry.file not in _TEXTS:
        _TEXTS[entry.file] = open_design(GAMES / f"{entry.file}.cardz").json_text
    report = solve(_TEXTS[entry.file], 1, seed, entry.budget, workers=1, deal_seconds=retry_seconds, first=index)
    return report.verdicts[0]


def retry_order(samples: list[Sample], retry_seconds: float = RETRY_SECONDS) -> list[tuple[Sample, int]]:
    """The second phase's deals, most useful first: undecided rows that need the fewest deals to be decided,
    then the unknown deals of rows already decided (they narrow the interval); by deal within a row."""
    candidates = [(s, s.retry_candidates(retry_seconds)) for s in samples]
    ranked = sorted(((s, deals) for s, deals in candidates if deals),
                    key=lambda entry: (entry[0].needed() == 0, entry[0].needed(), entry[0].entry.file))
    return [(s, index) for s, deals in ranked for index in deals]


def retry_unknown(samples: list[Sample], until: float, jobs: int, retry_seconds: float = RETRY_SECONDS,
                  clock: Callable[[], float] = time.perf_counter) -> None:
    """The second phase: solve again, at ``retry_seconds`` each, the deals the first phase left unknown.

    A deal is started only while it can end by ``until`` (a ``clock`` time) at its bound and
    :data:`RETRY_MARGIN`; the others are counted as left. A retry that decides replaces the
    first phase's verdict; the first attempt's time and positions still count in the row.
    """
    pending = retry_order(samples, retry_seconds)
    for measured, _ in pending:
        measured.retry_left += 1
        measured.retry_seconds = retry_seconds
    if not pending:
        return
    began = clock()

    def record(measured: Sample, index: int, again: Verdict) -> None:
        first = measured.verdicts[index]
        measured.first_seconds += first.seconds
        measured.first_nodes += first.nodes
        measured.verdicts[index] = again
        measured.solve_wall += again.seconds
        measured.seconds += again.seconds
        measured.retried += 1
        measured.retry_left -= 1
        measured.retry_decided += again.result != "unknown"

    def may_start() -> bool:
        return clock() + retry_seconds + RETRY_MARGIN <= until

    queue = iter(pending)
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:  # no process until a retry starts
        running: dict[concurrent.futures.Future[Verdict], tuple[Sample, int]] = {}

        def submit() -> None:
            for measured, index in queue:
                if not may_start():
                    return
                future = pool.submit(_retry_deal, measured.entry, index, retry_seconds, measured.seed)
                running[future] = (measured, index)
                if len(running) >= jobs:
                    return

        submit()
        while running:
            finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                measured, index = running.pop(future)
                record(measured, index, future.result())
            submit()
    print(f"second phase: {sum(m.retried for m in samples)} deals tried again at {retry_seconds:g} s, "
          f"{sum(m.retry_decided for m in samples)} decided, {sum(m.retry_left for m in samples)} left "
          f"({clock() - began:.0f} s)", file=sys.stderr, flush=True)


def run(entries: list[Entry], scale: int, jobs: int, workers: int, until: float | None = None,
        retry_minutes: float | None = None, seed: int = SEED) -> list[Row]:
    """Measure every entry: one at a time with ``workers`` each, or ``jobs`` games side by side; then the
    deals left unknown again (:func:`retry_unknown`), until ``until`` (a :func:`time.perf_counter` time; None:
    no second phase) and for at most ``retry_minutes`` (None: no bound of its own; 0: no second phase)."""
    samples: dict[str, Sample] = {}

    def done(measured: Sample) -> None:
        samples[measured.entry.file] = measured
        row = tabulate(measured, scale)
        print(f"{row.title}: {row.solver}; {row.decided}; random {row.random}; {row.verdict} ({row.seconds:.0f} s)",
              file=sys.stderr, flush=True)

    if jobs <= 1:
        for entry in entries:
            done(sample(entry, scale, workers, seed))
    else:
        # The slowest games first, so that the pool does not end on one long game alone.
        ordered = sorted(entries, key=lambda e: -e.worst_seconds(scale))
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_sample_alone, entry, scale, seed) for entry in ordered]
            for future in concurrent.futures.as_completed(futures):
                done(future.result())
    ordered_samples = [samples[entry.file] for entry in entries]
    if until is not None and retry_minutes != 0:
        if retry_minutes is not None:
            until = min(until, time.perf_counter() + 60 * retry_minutes)
        retry_unknown(ordered_samples, until, max(jobs, workers))
    return [tabulate(measured, scale) for measured in ordered_samples]


def render(rows: list[Row], scale: int, jobs: int, elapsed: float, seed: int = SEED) -> str:
    """The markdown page."""
    lines = [
        "# Results: the shipped games, played and solved",
        "",
        "_Generated by `python bench/results.py --write` (see the README); do not edit by hand._",
        "",
        f"Seed {seed}, {jobs} game{'s' if jobs != 1 else ''} at a time, deal counts × {scale}, "
        f"the whole run took {elapsed / 60:.1f} minutes.",
        "",
        f"- **Random play**: uniformly random legal moves, at most {MAX_MOVES:,} per game; the win rate with its "
        "Wilson 95% interval.",
        "- **Solver**: `cardz solve` (depth-first search with a transposition table, knowing every card: the "
        "\"thoughtful\" player of the literature; Golf and Black Hole are searched in the compact form of "
        "`cardz_tools/analysis/sink_search.py`, with sound dead-end tests). A deal is won, lost (every reachable "
        "position searched) or unknown (the position or time bound of its row ran out). The interval counts unknown "
        f"deals as lost at its low end and as won at its high end. Below {percent(DECIDED_ENOUGH, 0)} decided deals "
        "the table prints no winnability.",
        f"- **Two phases**: every deal is first solved at its row's own bound (below); then, while the run's hour "
        f"has time left, every deal left unknown at a bound below {RETRY_SECONDS:g} s is solved again at "
        f"{RETRY_SECONDS:g} s (the measure of issue 15), undecided rows first. The deals column says how many the "
        "second try decided; the time per deal counts both tries.",
        "- **Verdict**: *agree* when the published figure (or range) lies inside our interval; *differs* when it "
        "lies outside and our rules differ from those it was measured with (the reason is written in the row); "
        "*undecided* when the solver decided too few deals to say.",
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
        lines.append(
            f"| {row.title} | {row.random} | {row.solver} | {e.deals * scale} ({row.decided}) | {row.moves} | "
            f"{row.decision} | {row.per_deal} | {row.speed} | {published} | {row.verdict} |"
        )
    lines += ["", "## Run sizes and sources", "",
              "| game | design | playouts | deals | bound per deal | published source |",
              "|---|---|---|---|---|---|"]
    for row in rows:
        e = row.entry
        source = e.published.source if e.published else "—"
        lines.append(f"| {row.title} | `games/{e.file}.cardz` | {e.playouts * scale:,} | {e.deals * scale} | "
                     f"{e.budget:,} positions, {e.deal_seconds:g} s{row_bound(e, scale)}"
                     f"{f'; unknown deals again at {RETRY_SECONDS:g} s' if row.second_phase else ''} | {source} |")
    undecided = [row.title for row in rows if row.solver.startswith("undecided")]
    lines += [
        "",
        (f"Undecided rows ({', '.join(undecided)}): the generic solver did not decide enough of their deals within "
         "the bound, so the rows say how many it decided rather than guessing. " if undecided else "")
        + "`--deals K` multiplies every deal and playout count; `--only NAME` runs the named designs.",
        "",
        "Rows without a published figure: Blake & Gent's tables give a winnability for most of these games, but "
        "those figures were not at hand when the catalog was written, and the table does not print a figure it "
        "cannot cite.",
        "",
    ]
    return "\n".join(lines)


def row_bound(entry: Entry, scale: int) -> str:
    """The row's own time bound, when it is below every deal's bound added up."""
    if entry.solve_seconds(scale) >= scale * entry.deals * entry.deal_seconds:
        return ""
    return f"; {entry.solve_seconds(scale):g} s for the row"


def missing_entries() -> list[str]:
    """Designs in games/ that have no row here."""
    listed = {entry.file for entry in ENTRIES}
    return sorted(path.stem for path in GAMES.glob("*.cardz") if path.stem not in listed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUTPUT.relative_to(ROOT)}")
    parser.add_argument("--deals", type=int, default=1, metavar="K", help="multiply every deal and playout count by K")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="games measured side by side, one process each (default: 2)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes per game when --jobs is 1")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"the seed of the deals and playouts (default: {SEED}, the table's)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="only this design (file stem)")
    parser.add_argument("--list", action="store_true", help="print the run sizes and the worst-case time, run nothing")
    parser.add_argument("--retry-minutes", type=float, default=None, metavar="M",
                        help=f"at most M minutes (wall) for the second phase, the unknown deals again at "
                             f"{RETRY_SECONDS:g} s (default: what the run's hour has left; 0: no second phase)")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.jobs < 1 or args.workers < 1:
        parser.error("--deals, --jobs and --workers must be at least 1")
    if not 0 <= args.seed < 1 << 64:
        parser.error("--seed must be a whole number from 0 to 2**64 - 1")
    if args.retry_minutes is not None and args.retry_minutes < 0:
        parser.error("--retry-minutes must not be negative")
    known = {entry.file for entry in ENTRIES}
    unknown = [name for name in args.only if name not in known]
    if unknown:
        parser.error(f"no results entry for {', '.join(unknown)} (the names are the file stems in games/)")
    if args.write and args.only:
        parser.error("--write writes the whole table: leave out --only")
    if args.write and args.seed != SEED:
        parser.error(f"--write writes the table of seed {SEED}: leave out --seed to write, or print the other seed's")
    entries = [entry for entry in ENTRIES if not args.only or entry.file in args.only]
    if missing_entries():
        print(f"warning: no results entry for {', '.join(missing_entries())}", file=sys.stderr)
    if args.list:
        worst = sum(entry.worst_seconds(args.deals) for entry in entries)
        for entry in entries:
            print(f"{entry.file:24} {entry.playouts * args.deals:6} playouts {entry.deals * args.deals:5} deals "
                  f"{entry.deal_seconds:5g} s per deal{row_bound(entry, args.deals)}   "
                  f"at most {entry.worst_seconds(args.deals):6.0f} CPU-s")
        print(f"at most {worst / 60:.0f} CPU-minutes: {worst / 60 / args.jobs:.0f} minutes with {args.jobs} jobs; "
              f"then the deals left unknown again at {RETRY_SECONDS:g} s each until "
              f"{RUN_SECONDS * args.deals / 60:.0f} minutes from the start")
        return 0
    started = time.perf_counter()
    until = started + RUN_SECONDS * args.deals
    rows = run(entries, args.deals, args.jobs, args.workers, until=until, retry_minutes=args.retry_minutes,
               seed=args.seed)
    page = render(rows, args.deals, args.jobs, time.perf_counter() - started, args.seed)
    if args.write:
        OUTPUT.write_text(page, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(page)
    unexplained = [row.title for row in rows if row.verdict == "disagree"]
    if unexplained:
        print(f"unexplained disagreement (document the rules difference in the entry): {', '.join(unexplained)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
