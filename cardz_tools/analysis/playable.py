"""Whether the engine can set up a first deal of a design that lints clean, as a diagnostic.

Both the lint-gated loader (:mod:`cardz_tools.loading`) and ``cardz check`` ask this before
playing a design, so a design the engine cannot deal is refused the same way everywhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import diagnostics as dx
from ..diagnostics import Diagnostic
from ..engine.deal import DeckError
from ..engine.game import Game
from ..engine.rules import RuleError
from ..lint import FileReport, LintResult
from ..model import Design


@dataclasses.dataclass(frozen=True)
class DealError:
    """Why the engine cannot deal a design: ``CZ306`` (the deal cannot be laid out) or ``CZ299``
    (a rule it cannot compile, at ``pointer``). Plain data, so a worker process can send it back."""

    code: str
    message: str
    pointer: str = ""


def deal_error(make_game: Callable[[], Game]) -> DealError | None:
    """What stops ``make_game()`` from setting up a first deal, or None."""
    try:
        make_game().new_initial_state(seed=0)
    except DeckError as exc:
        return DealError("CZ306", f"the deal cannot be laid out: {exc}")
    except RuleError as exc:
        return DealError("CZ299", f"the design cannot be played: {exc}", exc.pointer)
    return None


def deal_diagnostic(error: DealError, report: FileReport) -> Diagnostic:
    """``error`` as a diagnostic of ``report``'s file (a deck problem is placed at the deal rules)."""
    if error.code == "CZ306":
        pointer = "/dealRules" if report.source.has("/dealRules") else ""
    else:
        pointer = error.pointer
    return dx.make(error.code, error.message, report.path, span=report.source.head_span(pointer), pointer=pointer)


def deal_problem(design: Design, report: FileReport) -> Diagnostic | None:
    """Why the engine cannot set up a first deal of a design that lints clean, or None.

    The linter cannot evaluate every deal count (``"faceDown": "col(depot)"``), so a
    design can lint clean yet leave cards with no Stock to hold them: every command
    that plays refuses it here, with a diagnostic, instead of failing mid-run.
    """
    error = deal_error(lambda: Game(design))
    return None if error is None else deal_diagnostic(error, report)


def with_diagnostic(result: LintResult, diagnostic: Diagnostic) -> LintResult:
    """``result`` with ``diagnostic`` added to its first file's report."""
    first = result.files[0]
    merged = tuple(sorted((*first.diagnostics, diagnostic), key=Diagnostic.sort_key))
    return dataclasses.replace(result, files=(dataclasses.replace(first, diagnostics=merged), *result.files[1:]))
