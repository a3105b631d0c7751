"""Whether the engine can set up a first deal of a design that lints clean, as a diagnostic.

Both the lint-gated loader (:mod:`cardz_tools.loading`) and ``cardz check`` ask this before
playing a design, so a design the engine cannot deal is refused the same way everywhere.
"""

from __future__ import annotations

import dataclasses

from .. import diagnostics as dx
from ..diagnostics import Diagnostic
from ..engine.deal import DeckError
from ..engine.game import Game
from ..engine.rules import RuleError
from ..lint import FileReport, LintResult
from ..model import Design


def deal_problem(design: Design, report: FileReport) -> Diagnostic | None:
    """Why the engine cannot set up a first deal of a design that lints clean, or None.

    The linter cannot evaluate every deal count (``"faceDown": "col(depot)"``), so a
    design can lint clean yet leave cards with no Stock to hold them: every command
    that plays refuses it here, with a diagnostic, instead of failing mid-run.
    """
    try:
        Game(design).new_initial_state(seed=0)
    except DeckError as exc:
        pointer = "/dealRules" if report.source.has("/dealRules") else ""
        span = report.source.head_span(pointer)
        return dx.make("CZ306", f"the deal cannot be laid out: {exc}", report.path, span=span, pointer=pointer)
    except RuleError as exc:
        span = report.source.head_span(exc.pointer)
        return dx.make("CZ299", f"the design cannot be played: {exc}", report.path, span=span, pointer=exc.pointer)
    return None


def with_diagnostic(result: LintResult, diagnostic: Diagnostic) -> LintResult:
    """``result`` with ``diagnostic`` added to its first file's report."""
    first = result.files[0]
    merged = tuple(sorted((*first.diagnostics, diagnostic), key=Diagnostic.sort_key))
    return dataclasses.replace(result, files=(dataclasses.replace(first, diagnostics=merged), *result.files[1:]))
