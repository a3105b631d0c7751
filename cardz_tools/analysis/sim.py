"""`cardz sim`: random playouts of a design, summarised with intervals and findings."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .findings import Finding, Thresholds, playout_findings
from .playout import DEFAULT_MAX_MOVES, ENDLESS_BUDGET, Aggregate, can_end, deal_seed, play_range, position_at_bound
from .pointless import pointless_findings
from .runner import default_workers, game_for, run
from .stats import mean_and_stdev, render_histogram, wilson_interval

if TYPE_CHECKING:
    from ..engine import Game


def _sim_task(game: Game, start: int, stop: int, seed: int, options: Mapping[str, Any]) -> Aggregate:
    return play_range(game, start, stop, seed, int(options.get("max_moves", DEFAULT_MAX_MOVES)))


@dataclasses.dataclass(frozen=True)
class SimReport:
    """The result of ``cardz sim``; :meth:`to_dict` gives the documented JSON keys."""

    game: str
    seed: int
    aggregate: Aggregate
    findings: tuple[Finding, ...]
    elapsed_s: float
    workers: int

    @property
    def playouts(self) -> int:
        return self.aggregate.playouts

    @property
    def win_rate(self) -> float:
        return self.aggregate.wins / self.playouts if self.playouts else 0.0

    @property
    def decision_share(self) -> float:
        a = self.aggregate
        return a.choice_positions / a.positions if a.positions else 0.0

    @property
    def mean_branching(self) -> float:
        a = self.aggregate
        return a.branching_total / a.positions if a.positions else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (scripts rely on these keys)."""
        a = self.aggregate
        mean_moves, moves_stdev = mean_and_stdev(a.moves_total, a.moves_squares, a.playouts)
        mean_score, score_stdev = mean_and_stdev(a.score_total, a.score_squares, a.playouts)
        low, high = wilson_interval(a.wins, a.playouts)
        return {
            "game": self.game,
            "playouts": a.playouts,
            "seed": self.seed,
            "wins": a.wins,
            "win_rate": round(self.win_rate, 6),
            "win_rate_interval": [round(low, 6), round(high, 6)],
            "stuck_at_deal": a.stuck_at_deal,
            "non_terminating": a.non_terminating,
            "mean_moves": round(mean_moves, 3),
            "moves_stdev": round(moves_stdev, 3),
            "mean_score": round(mean_score, 3),
            "score_stdev": round(score_stdev, 3),
            "score_distribution": {str(k): v for k, v in sorted(a.scores.items())},
            "moves_distribution": {str(k): v for k, v in sorted(a.moves.items())},
            "mean_branching": round(self.mean_branching, 3),
            "decision_share": round(self.decision_share, 6),
            "rule_fires": dict(sorted(a.rule_fires.items())),
            "findings": [f.to_dict() for f in self.findings],
            "elapsed_s": round(self.elapsed_s, 3),
            "playouts_per_s": round(a.playouts / self.elapsed_s, 1) if self.elapsed_s > 0 else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        """A human report with a score histogram."""
        d = self.to_dict()
        low, high = d["win_rate_interval"]
        workers = f"{self.workers} worker{'s' if self.workers != 1 else ''}"
        lines = [
            f"{self.game}: {d['playouts']} random playouts (seed {self.seed}, {workers})",
            f"  wins            {d['wins']}  ({100 * d['win_rate']:.2f}%, 95% CI {100 * low:.2f}%–{100 * high:.2f}%)",
            f"  stuck at deal   {d['stuck_at_deal']}",
            f"  non-terminating {d['non_terminating']}",
            f"  moves           mean {d['mean_moves']:.1f} (sd {d['moves_stdev']:.1f})",
            f"  score           mean {d['mean_score']:.2f} (sd {d['score_stdev']:.2f})",
            f"  branching       mean {d['mean_branching']:.2f}; "
            f"{100 * d['decision_share']:.1f}% of positions offer a choice",
            f"  speed           {d['playouts_per_s']} playouts/s ({d['elapsed_s']:.2f} s)",
            "",
            "Score distribution:",
            *("  " + line for line in render_histogram(self.aggregate.scores)),
        ]
        if d["rule_fires"]:
            lines += ["", "Rule fires:"]
            width = max(len(k) for k in d["rule_fires"])
            lines += [f"  {k:<{width}} {v}" for k, v in d["rule_fires"].items()]
        lines += ["", "Findings:" if self.findings else "Findings: none"]
        lines += [f"  {f.severity:<7} {f.kind.value}: {f.message}" for f in self.findings]
        return "\n".join(lines) + "\n"


def unused_rules(game: Game, fires: Mapping[str, int]) -> dict[str, str]:
    """Rules of the game that never fired: their stats keys and JSON pointers."""
    return {label: pointer for label, pointer in game.rule_pointers.items() if not fires.get(label)}


def simulate(
    design_json: str,
    playouts: int,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    max_moves: int = DEFAULT_MAX_MOVES,
    thresholds: Thresholds = Thresholds(),
    on_progress: Callable[[int], None] | None = None,
    seconds: float | None = None,
) -> SimReport:
    """Run ``playouts`` random playouts of the design given as JSON text.

    With ``seconds``, playouts stop when that time is up (in this process; at least one
    chunk is played), so ``playouts`` is then the most that are played.
    """
    started = time.perf_counter()
    deadline = time.monotonic() + seconds if seconds is not None else None
    total = Aggregate()
    options = {"max_moves": max_moves}
    chunks = run(_sim_task, design_json, playouts, seed, options, workers, scheduler, on_progress, deadline=deadline)
    for _, part in chunks:
        total.merge(part)
    elapsed = time.perf_counter() - started
    game = game_for(design_json)
    decision = total.choice_positions / total.positions if total.positions else 0.0
    never_from_deal = never_from_stop = 0  # of the step-bound playouts examined
    # A noProgress design's playouts were examined where they stopped: those still going could not be decided.
    examined = () if game.loss_no_progress else total.bound_indexes
    for index in examined:
        if can_end(position_at_bound(game, index, seed, max_moves)) is False:
            never_from_stop += 1
            never_from_deal += can_end(game.new_initial_state(seed=deal_seed(seed, index))) is False
    findings = playout_findings(
        total.playouts,
        total.wins,
        total.stuck_at_deal,
        total.non_terminating,
        decision,
        total.repeating_example,
        unused_rules(game, total.rule_fires),
        thresholds,
        cascades=total.cascades,
        endless=(never_from_deal, never_from_stop, len(examined)),
        positions=(total.fresh_choice_positions, total.fresh_positions),
        gives_up=min(ENDLESS_BUDGET, max_moves) if game.loss_no_progress else 0,
    )
    findings += pointless_findings(game, total)
    return SimReport(
        game=game.design.name,
        seed=seed,
        aggregate=total,
        findings=tuple(findings),
        elapsed_s=elapsed,
        workers=workers or default_workers(),
    )
