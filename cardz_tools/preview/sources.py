"""Where the preview gets its data: diagnostics, a sample deal and a quick simulation.

The preview draws on three parts of cardz-tools, and every call into them goes
through this module, so that the board, the page and the watch loop depend only
on the small shapes defined here:

- diagnostics come from the linter (:func:`cardz_tools.lint.lint_file`), as
  ``cardz lint`` reports them;
- the sample board is the engine's deal (``Game(design).new_initial_state(seed=...)``);
- the summary is :func:`cardz_tools.analysis.sim.simulate` on one worker.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..analysis.sim import simulate
from ..cards import Card
from ..config import LintConfig
from ..diagnostics import Diagnostic, Severity, Span, make
from ..engine import Game
from ..lint import lint_file
from ..model import Design, ModelError, build_design
from ..variants import EXTENDS, VariantError, flatten

Piles = tuple[tuple[Card, ...], ...]
"""One pile per depot (by depot index), each bottom card first, top card last."""

# ---------------------------------------------------------------- checking a file


@dataclasses.dataclass(frozen=True)
class CheckedFile:
    """A file as the preview sees it after one save."""

    path: Path
    text: str | None
    """The file's text, or None when it could not be read."""
    diagnostics: tuple[Diagnostic, ...]
    design: Design | None
    """The modelled design, or None when the file does not model."""
    design_json: str | None = None
    """The standalone design as JSON text (a variant merged with what it extends), for the simulator."""
    filename: str = ""
    """How diagnostics name this file."""
    other_texts: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """The text of the other files a variant's diagnostics lie in, by the name diagnostics use."""
    missing: bool = False
    """Whether the file is gone (deleted, or renamed away) rather than unreadable or broken."""

    @property
    def lines(self) -> list[str]:
        """The text's lines (empty when unreadable)."""
        return self.text.splitlines() if self.text is not None else []

    @property
    def has_errors(self) -> bool:
        """Whether any diagnostic is an error."""
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    def is_elsewhere(self, diagnostic: Diagnostic) -> bool:
        """Whether the diagnostic lies in another file (one that a variant extends)."""
        return bool(diagnostic.file) and diagnostic.file != self.filename

    def excerpt_for(self, diagnostic: Diagnostic, width: int = 100) -> Excerpt | None:
        """The source line of a diagnostic, from whichever file it lies in."""
        if self.is_elsewhere(diagnostic):
            text = self.other_texts.get(diagnostic.file)
            return excerpt(text.splitlines(), diagnostic.span, width) if text is not None else None
        return excerpt(self.lines, diagnostic.span, width)


def check_file(path: Path, config: LintConfig | None = None) -> CheckedFile:
    """Lint ``path`` as ``cardz lint`` does (with ``config``) and model it; never raises for bad input.

    The design is modelled when the file reads and passes the schema, as the
    linter models it: semantic or expression errors still leave a design to draw.
    A variant (``extends``) is linted and modelled merged with what it extends.
    """
    config = config or LintConfig()
    report = lint_file(path, LintConfig())  # everything: whether the design models must not depend on --ignore
    source = report.source
    found = list(report.diagnostics)
    text = source.text if source.ok or source.text else None
    data = source.data
    if source.ok and isinstance(data, Mapping) and EXTENDS in data:
        try:
            data, _ = flatten(path)
        except VariantError:
            data = None  # the linter reported why
    reported = [d for d in found if config.reports(d, path)] if source.ok else found
    design = None
    if data is not None and not any(d.severity is Severity.ERROR and d.code[:3] in ("CZ1", "CZ2") for d in found):
        try:
            design = build_design(data)
        except ModelError as exc:  # the linter modelled the file without this error: a merged variant can differ
            pointer = exc.pointer if source.has(exc.pointer) else ""
            reported.append(make("CZ299", str(exc), source.filename, span=source.head_span(pointer), pointer=pointer))
        except RecursionError:
            reported.append(make("CZ299", "the design nests too deeply to be modelled", source.filename,
                                 span=source.head_span("")))
    design_json = json.dumps(data, sort_keys=True, ensure_ascii=False) if design is not None else None
    others = {name: other.text for name, other in report.sources.items() if name != source.filename}
    missing = text is None and not path.exists()
    return CheckedFile(path, text, tuple(reported), design, design_json, source.filename, others, missing)


def diagnose(path: Path, config: LintConfig | None = None) -> list[Diagnostic]:
    """Every reported diagnostic for the file at ``path``, in file order."""
    return list(check_file(path, config).diagnostics)


@dataclasses.dataclass(frozen=True, slots=True)
class Excerpt:
    """The source line of a diagnostic with the span to underline (0-based, end exclusive)."""

    line_number: int
    text: str
    start: int
    end: int


def excerpt(lines: Sequence[str], span: Span, width: int = 100) -> Excerpt | None:
    """The line a span starts on, clipped to ``width`` characters around the span."""
    if not 1 <= span.line <= len(lines):
        return None
    text = lines[span.line - 1].expandtabs(1)
    start = max(0, min(span.column - 1, len(text)))
    end = span.end_column - 1 if span.end_line == span.line else len(text)
    end = max(start + 1, min(end, len(text) + 1))
    if len(text) <= width:
        return Excerpt(span.line, text, start, end)
    offset = max(0, min(start - width // 3, len(text) - width))
    clipped = text[offset : offset + width]
    head = "…" if offset > 0 else ""
    tail = "…" if offset + width < len(text) else ""
    return Excerpt(span.line, head + clipped + tail, start - offset + len(head), min(end - offset, width) + len(head))


# ---------------------------------------------------------------- the sample deal


class BoardUnavailable(ValueError):
    """The engine cannot deal this design; the message says why."""


def sample_board(design: Design, seed: int) -> Piles:
    """The piles of deal ``seed`` as the engine deals them, by depot index, bottom card first.

    :raises BoardUnavailable: when the engine cannot build or deal the design.
    """
    return sample_game_and_board(design, seed)[1]


def sample_game_and_board(design: Design, seed: int) -> tuple[Game, Piles]:
    """The compiled game and :func:`sample_board`'s piles (for a caller that plays the game too).

    :raises BoardUnavailable: when the engine cannot build or deal the design.
    """
    try:
        game = Game(design)
        state = game.new_initial_state(seed=seed)
    except Exception as exc:  # RuleError, DeckError, or whatever a half-checked design trips on
        raise BoardUnavailable(f"the engine cannot deal this design: {exc}") from exc
    return game, tuple(tuple(pile) for pile in state.piles)


# ---------------------------------------------------------------- the quick simulation


DEFAULT_PLAYOUTS = 500
"""Playouts of the quick simulation: a rough win rate (about ±4 points) in a second or two."""


class SummaryStatus(enum.Enum):
    """Where the background simulation of the current save stands."""

    RUNNING = "running"
    DONE = "done"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclasses.dataclass(frozen=True, slots=True)
class FindingLine:
    """One finding of the simulation, as reported."""

    kind: str
    severity: str
    message: str


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    """The quick simulation summary the preview shows."""

    status: SummaryStatus
    message: str = ""
    playouts: int = 0
    wins: int = 0
    win_rate: float = 0.0
    win_rate_interval: tuple[float, float] = (0.0, 0.0)
    stuck_at_deal: int = 0
    non_terminating: int = 0
    findings: tuple[FindingLine, ...] = ()
    elapsed_s: float = 0.0

    @classmethod
    def from_report(cls, report: Mapping[str, Any]) -> Summary:
        """Build from :meth:`cardz_tools.analysis.sim.SimReport.to_dict` output."""
        low, high = report.get("win_rate_interval", (0.0, 0.0))
        return cls(
            status=SummaryStatus.DONE,
            playouts=int(report.get("playouts", 0)),
            wins=int(report.get("wins", 0)),
            win_rate=float(report.get("win_rate", 0.0)),
            win_rate_interval=(float(low), float(high)),
            stuck_at_deal=int(report.get("stuck_at_deal", 0)),
            non_terminating=int(report.get("non_terminating", 0)),
            findings=tuple(
                FindingLine(str(f.get("kind", "")), str(f.get("severity", "")), str(f.get("message", "")))
                for f in report.get("findings", ())
            ),
            elapsed_s=float(report.get("elapsed_s", 0.0)),
        )


def quick_summary(design_json: str, playouts: int, seed: int) -> Summary:
    """Random playouts of a design in this process, summarised (raises what the simulator raises)."""
    return Summary.from_report(simulate(design_json, playouts, seed, workers=1).to_dict())


def safe_summary(design_json: str, playouts: int, seed: int) -> Summary:
    """:func:`quick_summary` that reports every failure as a summary instead of raising."""
    try:
        return quick_summary(design_json, playouts, seed)
    except Exception as exc:  # a design the engine cannot play must not stop the preview
        return Summary(SummaryStatus.FAILED, f"{type(exc).__name__}: {exc}")
