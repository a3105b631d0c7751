"""Findings: what playouts and the solver say about a design, in words a designer understands."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import NamedTuple

from ..diagnostics import RULES, Severity
from .stats import bounded_interval, wilson_interval


class FindingKind(enum.StrEnum):
    """The kinds of findings; the value is the stable name scripts and ``--gate`` use.

    Each kind is reported as the CZ5xx diagnostic of the same name (:attr:`code`).
    """

    STUCK_AT_DEAL = "stuck-at-deal"
    NEVER_WON = "never-won"
    UNWINNABLE = "unwinnable"
    ALWAYS_WON = "always-won"
    FORCED_PLAY = "forced-play"
    NON_TERMINATING = "non-terminating"
    RULE_NEVER_FIRES = "rule-never-fires"
    SKILL_GAP = "skill-gap"
    POINTLESS_MOVE = "pointless-move"

    @property
    def code(self) -> str:
        """The CZ5xx diagnostic code that reports findings of this kind."""
        return _CODE_OF_KIND[self]


_CODE_OF_KIND = {FindingKind(rule.name): rule.code for rule in RULES.values() if rule.code.startswith("CZ5")}
assert set(_CODE_OF_KIND) == set(FindingKind), "every finding kind has its CZ5xx code, and every CZ5xx code a kind"


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """One finding: its kind, a severity and a message."""

    kind: FindingKind
    severity: Severity
    message: str
    pointer: str = ""
    """The JSON pointer of the rule the finding is about, when it is about one rule."""

    def to_dict(self) -> dict[str, str]:
        """The JSON shape reports use: ``{"kind", "severity", "message"}``."""
        return {"kind": self.kind.value, "severity": self.severity.value, "message": self.message}


@dataclasses.dataclass(frozen=True, slots=True)
class Thresholds:
    """When findings are raised; configurable under ``[tool.cardz.check]``.

    Each is a share that a finding's 95% interval must clear, so that a warning is
    never the luck of a few deals: ``always-won`` warns when even the low end of the
    random win rate's interval reaches it, ``forced-play`` when even the high end of
    the share of positions with a choice stays below it, ``stuck-at-deal`` when the
    low end of the share of deals with no first move reaches it, and ``skill-gap``
    says "a lot" or "little" only when the two intervals put the gap on one side of it.
    """

    always_won: float = 0.95
    forced_play: float = 0.05
    skill_gap: float = 0.25
    stuck_at_deal: float = 0.10


NEVER_WON_BELOW = 0.05
"""``never-won`` is said only once the random win rate's interval lies below this (74 playouts or more):
no win in five playouts says nothing about a game."""


def describe_rule(label: str) -> str:
    """Words for an engine rule label: ``trigger:cell#0`` -> "trigger 1 of 'cell'"."""
    kind, _, rest = label.partition(":")
    if kind == "accept":
        return f"the accept rule of '{rest}'"
    if kind == "trigger":
        name, _, index = rest.partition("#")
        return f"trigger {int(index or 0) + 1} of '{name}'"
    if kind == "draw":
        return f"drawing from '{rest}'"
    if kind == "action":
        name, _, action = rest.partition(".")
        return f"the action '{action}' of '{name}'"
    return label


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval_text(pair: tuple[float, float]) -> str:
    return f"95% CI {100 * pair[0]:.1f}–{100 * pair[1]:.1f}%"


def playout_findings(
    playouts: int,
    wins: int,
    stuck_at_deal: int,
    non_terminating: int,
    decision_share: float,
    repeating: tuple[str, ...],
    unused_rules: Mapping[str, str],
    thresholds: Thresholds = Thresholds(),
    cascades: int | None = None,
    endless: tuple[int, int, int] = (0, 0, 0),
    positions: tuple[int, int] | None = None,
    gives_up: int = 0,
) -> list[Finding]:
    """Findings from random playouts alone.

    ``cascades`` says how many of the ``non_terminating`` playouts a trigger cascade
    stopped: those are a design error; the others only reached the step bound, which
    a game with reversible moves does. ``endless`` is (from the deal, from the stop,
    examined): of the step-bound playouts examined with :func:`~.playout.can_end`, how
    many deals can never end at all (a design error), and how many stopped where no
    sequence of moves ends the game any more (a warning: play then goes on until the
    player gives up). Otherwise reaching the step bound is an info. None for
    ``cascades`` counts every non-terminating playout as an error. ``positions`` is
    (positions with a choice, positions) that CZ505 counts: those a playout met before it first
    returned to a position it had met (what follows only goes round); without it ``decision_share``
    is taken as exact over 10,000 positions. ``gives_up`` is, for a design whose loss
    condition is ``noProgress``, the positions searched where a playout stopped (0 otherwise).
    """
    if playouts == 0:
        return []
    choice_positions, positions_seen = positions if positions is not None else (round(decision_share * 10_000), 10_000)
    cycle = " → ".join(repeating) if repeating else "(no move history)"
    found = [
        _stuck_at_deal(stuck_at_deal, playouts, thresholds),
        _non_terminating(non_terminating, playouts, cascades, Endless(*endless), gives_up, cycle),
        _win_rate(wins, playouts, thresholds),
    ]
    if stuck_at_deal < playouts and non_terminating < playouts:
        found.append(_forced_play(choice_positions, positions_seen, thresholds))
    if non_terminating < playouts:  # when nothing ran to completion, "never used" would only mislead
        found += [
            Finding(
                FindingKind.RULE_NEVER_FIRES,
                Severity.INFO,
                f"{describe_rule(rule)} was never used in {playouts} playouts",
                pointer,
            )
            for rule, pointer in unused_rules.items()
        ]
    return [finding for finding in found if finding is not None]


class Endless(NamedTuple):
    """Of the step-bound playouts examined with :func:`~.playout.can_end`: how many deals can never end."""

    from_deal: int
    """Deals where no sequence of moves from the deal ends the game (a design error)."""
    from_stop: int
    """Playouts that stopped where no sequence of moves ends the game any more."""
    examined: int


def _stuck_at_deal(stuck_at_deal: int, playouts: int, thresholds: Thresholds) -> Finding | None:
    """CZ501: deals with no legal move at the start."""
    if not stuck_at_deal:
        return None
    if stuck_at_deal == playouts:
        message = f"every one of {playouts} deals has no legal move at the start: the game cannot be played"
        return Finding(FindingKind.STUCK_AT_DEAL, Severity.ERROR, message)
    share = wilson_interval(stuck_at_deal, playouts)
    told = (
        f"{stuck_at_deal} of {playouts} deals ({interval_text(share)}) have no legal move at the start: "
        "they are lost before play begins"
    )
    if share[0] >= thresholds.stuck_at_deal:
        return Finding(FindingKind.STUCK_AT_DEAL, Severity.WARNING, told)
    return Finding(FindingKind.STUCK_AT_DEAL, Severity.INFO, told + " (a few such deals are how some games are)")


def _non_terminating(
    non_terminating: int, playouts: int, cascades: int | None, endless: Endless, gives_up: int, cycle: str
) -> Finding | None:
    """CZ506: playouts stopped by a trigger cascade (an error), or by the step bound (how serious
    depends on whether the game can still end where they stopped)."""
    step_bound = non_terminating if cascades is None else non_terminating - cascades
    cascaded = non_terminating - step_bound
    if cascaded:
        return Finding(
            FindingKind.NON_TERMINATING,
            Severity.ERROR,
            f"{cascaded} of {playouts} playouts were stopped by a trigger cascade that did not settle; "
            f"the repeating moves: {cycle}",
        )
    if not step_bound:
        return None
    if endless.from_stop and endless.from_deal:
        return Finding(
            FindingKind.NON_TERMINATING,
            Severity.ERROR,
            f"{step_bound} of {playouts} playouts never ended (step bound), and in {endless.from_deal} of the "
            f"{endless.examined} deals examined no sequence of moves from the deal ends the game (every reachable "
            f"position searched): it can be neither won nor lost; the repeating moves: {cycle}",
        )
    if endless.from_stop:
        return Finding(
            FindingKind.NON_TERMINATING,
            Severity.WARNING,
            f"{step_bound} of {playouts} playouts never ended (step bound); {endless.from_stop} of the "
            f"{endless.examined} examined stopped where no sequence of moves wins or loses any more, so the game "
            'goes on until the player gives up (the loss condition {"kind": "noProgress"} ends it there, '
            f"docs/format.md); the repeating moves: {cycle}",
        )
    # Endless play is how games with reversible moves or unlimited redeals are
    # (docs/format.md: such a game ends when the player gives up), not a design error,
    # as long as some sequence of moves still ends the game.
    if gives_up:
        message = (
            f"{step_bound} of {playouts} playouts never ended (step bound), and where they stopped a search "
            f"of {gives_up:,} positions could not yet prove that nothing ends the game (noProgress); those "
            f"playouts count as not won; the repeating moves: {cycle}"
        )
    else:
        message = (
            f"{step_bound} of {playouts} playouts never ended (step bound): the rules let play go on for "
            f"ever, and those playouts count as not won; the repeating moves: {cycle}"
        )
    return Finding(FindingKind.NON_TERMINATING, Severity.INFO, message)


def _win_rate(wins: int, playouts: int, thresholds: Thresholds) -> Finding | None:
    """CZ502 when random play never won (and the interval says that is rare), CZ504 when it almost always wins."""
    rate = wilson_interval(wins, playouts)
    if wins == 0:
        if rate[1] >= NEVER_WON_BELOW:
            return None
        return Finding(
            FindingKind.NEVER_WON,
            Severity.INFO,
            f"no random playout won in {playouts} ({interval_text(rate)}); random play is a weak player, "
            "so run `cardz solve` to learn whether a thoughtful player can win",
        )
    if rate[0] < thresholds.always_won:
        return None
    return Finding(
        FindingKind.ALWAYS_WON,
        Severity.WARNING,
        f"random play won {wins} of {playouts} playouts ({_percent(wins / playouts)}, "
        f"{interval_text(rate)}): the player's choices hardly matter",
    )


def _forced_play(choice_positions: int, positions_seen: int, thresholds: Thresholds) -> Finding | None:
    """CZ505: almost no position a playout met (before it first came back to one) offers a choice."""
    if not positions_seen:
        return None
    choice = wilson_interval(choice_positions, positions_seen)
    if choice[1] >= thresholds.forced_play:
        return None
    return Finding(
        FindingKind.FORCED_PLAY,
        Severity.WARNING,
        f"only {choice_positions} of {positions_seen} positions "
        f"({_percent(choice_positions / positions_seen)}, {interval_text(choice)}) that playouts met "
        "before they first came back to one offer more than one legal move: the game plays itself",
    )


UNWINNABLE_CEILING = 0.25
"""All sampled deals proven lost is an error (CZ503) only when it puts the winnability's 95% upper
bound below this, which takes 12 or more deals; fewer are a warning that says to solve more."""


def solver_findings(
    deals: int,
    won: int,
    lost: int,
    unknown: int,
    random_win_rate: float | None,
    thresholds: Thresholds = Thresholds(),
) -> list[Finding]:
    """Findings that need the solver's verdicts."""
    found: list[Finding] = []
    if deals and lost == deals:
        high = wilson_interval(0, deals)[1]
        if high <= UNWINNABLE_CEILING:
            message = (
                f"the solver proved all {deals} sampled deals lost (winnability 95% CI 0–{_percent(high)}): "
                "no deal it tried can be won"
            )
            found.append(Finding(FindingKind.UNWINNABLE, Severity.ERROR, message))
        else:
            message = (
                f"the solver proved all {deals} sampled deals lost, which leaves the winnability anywhere from 0 to "
                f"{_percent(high)} (95% CI): solve more deals (`cardz solve -n 20`) to tell a hard game from one "
                "no one can win"
            )
            found.append(Finding(FindingKind.UNWINNABLE, Severity.WARNING, message))
    if deals and random_win_rate is not None:
        skill = skill_gap_finding(won, lost, unknown, (random_win_rate, random_win_rate), thresholds)
        if skill is not None:
            found.append(skill)
    return found


def skill_gap_finding(
    won: int,
    lost: int,
    unknown: int,
    random_interval: tuple[float, float],
    thresholds: Thresholds = Thresholds(),
    random_text: str | None = None,
) -> Finding | None:
    """"Skill matters a lot / little", only when the intervals put the gap on one side of the threshold.

    The solver's winnability interval counts undecided deals both ways
    (:func:`~.stats.bounded_interval`); ``random_interval`` is the random win rate's
    (Wilson) interval. "A lot" needs even the smallest gap the intervals allow to
    reach ``skill_gap``; "little" needs even the largest to stay below it. Anything
    in between is not worth a CI user's attention, so it is not reported.
    """
    deals = won + lost + unknown
    if not deals:
        return None
    solver = bounded_interval(won, lost, unknown)
    undecided = f", {unknown} undecided" if unknown else ""
    random_words = random_text or f"random play {_percent(random_interval[0])}"
    told = f"a thoughtful player won {won} of {deals} deals{undecided} ({interval_text(solver)}), {random_words}"
    if solver[0] - random_interval[1] >= thresholds.skill_gap:
        return Finding(FindingKind.SKILL_GAP, Severity.INFO, f"{told}: skill matters a lot")
    if solver[1] - random_interval[0] < thresholds.skill_gap:
        return Finding(FindingKind.SKILL_GAP, Severity.INFO, f"{told}: skill matters little")
    return None
