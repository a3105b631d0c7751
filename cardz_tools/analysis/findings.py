"""Findings: what playouts and the solver say about a design, in words a designer understands."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping


class FindingKind(enum.Enum):
    """The kinds of findings; the value is the stable name scripts and ``--gate`` use."""

    STUCK_AT_DEAL = "stuck-at-deal"
    NEVER_WON = "never-won"
    UNWINNABLE = "unwinnable"
    ALWAYS_WON = "always-won"
    FORCED_PLAY = "forced-play"
    NON_TERMINATING = "non-terminating"
    RULE_NEVER_FIRES = "rule-never-fires"
    SKILL_GAP = "skill-gap"
    POINTLESS_MOVE = "pointless-move"


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """One finding: its kind, a severity (``error``, ``warning``, ``info``) and a message."""

    kind: FindingKind
    severity: str
    message: str
    pointer: str = ""
    """The JSON pointer of the rule the finding is about, when it is about one rule."""

    def to_dict(self) -> dict[str, str]:
        """The JSON shape reports use: ``{"kind", "severity", "message"}``."""
        return {"kind": self.kind.value, "severity": self.severity, "message": self.message}


@dataclasses.dataclass(frozen=True, slots=True)
class Thresholds:
    """When findings are raised; configurable under ``[tool.cardz.check]``."""

    always_won: float = 0.99
    forced_play: float = 0.05
    skill_gap: float = 0.25


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
) -> list[Finding]:
    """Findings from random playouts alone.

    ``cascades`` says how many of the ``non_terminating`` playouts a trigger cascade
    stopped: those are a design error; the others only reached the step bound, which
    a game with reversible moves does. ``endless`` is (from the deal, from the stop,
    examined): of the step-bound playouts examined with :func:`~.playout.can_end`, how
    many deals can never end at all (a design error), and how many stopped where no
    sequence of moves ends the game any more (a warning: play then goes on until the
    player gives up). Otherwise reaching the step bound is an info. None for
    ``cascades`` counts every non-terminating playout as an error.
    """
    found: list[Finding] = []
    if playouts == 0:
        return found
    if stuck_at_deal:
        every = stuck_at_deal == playouts
        message = (
            f"every one of {playouts} deals has no legal move at the start: the game cannot be played"
            if every
            else f"{stuck_at_deal} of {playouts} deals have no legal move at the start"
        )
        found.append(Finding(FindingKind.STUCK_AT_DEAL, "error" if every else "warning", message))
    step_bound = non_terminating if cascades is None else non_terminating - cascades
    cascaded = non_terminating - step_bound
    if cascaded:
        cycle = " → ".join(repeating) if repeating else "(no move history)"
        found.append(
            Finding(
                FindingKind.NON_TERMINATING,
                "error",
                f"{cascaded} of {playouts} playouts were stopped by a trigger cascade that did not settle; "
                f"the repeating moves: {cycle}",
            )
        )
    elif step_bound and endless[1]:
        cycle = " → ".join(repeating) if repeating else "(no move history)"
        never, stopped, examined = endless
        if never:
            severity = "error"
            message = (
                f"{step_bound} of {playouts} playouts never ended (step bound), and in {never} of the {examined} "
                "deals examined no sequence of moves from the deal ends the game (every reachable position "
                f"searched): it can be neither won nor lost; the repeating moves: {cycle}"
            )
        else:
            severity = "warning"
            message = (
                f"{step_bound} of {playouts} playouts never ended (step bound); {stopped} of the {examined} examined "
                "stopped where no sequence of moves wins or loses any more, so the game goes on until the player "
                f"gives up (a loss condition would end it); the repeating moves: {cycle}"
            )
        found.append(Finding(FindingKind.NON_TERMINATING, severity, message))
    elif step_bound:
        # Endless play is how games with reversible moves or unlimited redeals are
        # (docs/format.md: such a game ends when the player gives up), not a design error,
        # as long as some sequence of moves still ends the game.
        cycle = " → ".join(repeating) if repeating else "(no move history)"
        found.append(
            Finding(
                FindingKind.NON_TERMINATING,
                "info",
                f"{step_bound} of {playouts} playouts never ended (step bound): the rules let play go on for ever, "
                f"and those playouts count as not won; the repeating moves: {cycle}",
            )
        )
    win_rate = wins / playouts
    if wins == 0:
        found.append(
            Finding(
                FindingKind.NEVER_WON,
                "info",
                f"no random playout won in {playouts}; random play is a weak player, so run `cardz solve` "
                "to learn whether a thoughtful player can win",
            )
        )
    elif win_rate >= thresholds.always_won:
        found.append(
            Finding(
                FindingKind.ALWAYS_WON,
                "warning",
                f"random play wins {_percent(win_rate)} of deals: the player's choices hardly matter",
            )
        )
    if decision_share < thresholds.forced_play and stuck_at_deal < playouts and non_terminating < playouts:
        found.append(
            Finding(
                FindingKind.FORCED_PLAY,
                "warning",
                f"only {_percent(decision_share)} of positions offer more than one legal move: the game plays itself",
            )
        )
    if non_terminating == playouts:
        unused_rules = {}  # nothing ran to completion: "never used" would only mislead
    for rule, pointer in unused_rules.items():
        found.append(
            Finding(
                FindingKind.RULE_NEVER_FIRES, "info", f"{describe_rule(rule)} was never used in {playouts} playouts", pointer
            )
        )
    return found


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
        found.append(
            Finding(FindingKind.UNWINNABLE, "error", f"the solver proved all {deals} sampled deals lost: no one can win")
        )
    if deals and random_win_rate is not None and unknown < deals:
        decided = won + lost
        winnability = won / decided if decided else 0.0
        gap = winnability - random_win_rate
        undecided = f", {unknown} undecided" if unknown else ""
        found.append(
            Finding(
                FindingKind.SKILL_GAP,
                "info",
                f"a thoughtful player won {won} of {decided} decided deals ({_percent(winnability)}{undecided}), "
                f"random play {_percent(random_win_rate)}: "
                + ("skill matters a lot" if gap >= thresholds.skill_gap else "skill matters little"),
            )
        )
    return found
