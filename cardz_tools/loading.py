"""Opening a design to play it: lint first, flatten variants, then model.

Every command that plays a design (``play``, ``deal``, ``sim``, ``solve``,
``expr --seed``) goes through :func:`open_design`, so a design with errors is
refused the same way everywhere: with the linter's diagnostics. (``watch`` and
``preview`` must still draw a design with errors, so they lint and flatten it
themselves.)
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from . import diagnostics as dx
from .diagnostics import Diagnostic, Severity
from .lint import FileReport, LintResult, lint_paths
from .model import Design, build_design


class DesignError(Exception):
    """A design that cannot be played; :attr:`result` holds the linter's findings."""

    def __init__(self, result: LintResult) -> None:
        super().__init__(f"{result.errors} error(s) in the design")
        self.result = result


@dataclasses.dataclass(frozen=True)
class OpenDesign:
    """A design ready to play: its standalone JSON value and text, and the model."""

    path: Path
    data: Any
    design: Design
    lint: LintResult

    @property
    def json_text(self) -> str:
        """The standalone design as compact, key-sorted JSON (what analysis workers rebuild from)."""
        return json.dumps(self.data, sort_keys=True, ensure_ascii=False)


def open_design(path: Path) -> OpenDesign:
    """Lint ``path`` and model it.

    :raises DesignError: when the linter finds errors (warnings do not stop play).
    :raises cardz_tools.lint.LintPathError: when the path does not exist.
    """
    result = lint_paths([path])
    if any(d.severity is Severity.ERROR for d in result.diagnostics) or not result.files:
        raise DesignError(result)
    data = result.files[0].source.data
    if isinstance(data, dict) and "extends" in data:
        from .variants import flatten

        data, _ = flatten(path)
    design = build_design(data)
    problem = deal_problem(design, result.files[0])
    if problem is not None:
        raise DesignError(with_diagnostic(result, problem))
    return OpenDesign(path=path, data=data, design=design, lint=result)


def deal_problem(design: Design, report: FileReport) -> Diagnostic | None:
    """Why the engine cannot set up a first deal of a design that lints clean, or None.

    The linter cannot evaluate every deal count (``"faceDown": "col(depot)"``), so a
    design can lint clean yet leave cards with no Stock to hold them: every command
    that plays refuses it here, with a diagnostic, instead of failing mid-run.
    """
    from .engine.deal import DeckError
    from .engine.game import Game
    from .engine.rules import RuleError

    try:
        Game(design).new_initial_state(seed=0)
    except DeckError as exc:
        pointer = "/dealRules" if report.source.has("/dealRules") else ""
        return dx.make("CZ306", f"the deal cannot be laid out: {exc}", report.path, span=report.source.head_span(pointer), pointer=pointer)
    except RuleError as exc:
        return dx.make("CZ299", f"the design cannot be played: {exc}", report.path, span=report.source.head_span(exc.pointer), pointer=exc.pointer)
    return None


def with_diagnostic(result: LintResult, diagnostic: Diagnostic) -> LintResult:
    """``result`` with ``diagnostic`` added to its first file's report."""
    first = result.files[0]
    merged = tuple(sorted((*first.diagnostics, diagnostic), key=Diagnostic.sort_key))
    return dataclasses.replace(result, files=(dataclasses.replace(first, diagnostics=merged), *result.files[1:]))
