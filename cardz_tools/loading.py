"""Opening a design to play it: lint first, flatten variants, then model.

Every command that plays a design (``play``, ``deal``, ``sim``, ``solve``,
``expr --seed``, ``from-rules --compare``) goes through :func:`open_or_report`, so a design
with errors is refused the same way everywhere: with the linter's diagnostics. (``watch`` and
``preview`` must still draw a design with errors, so they lint and flatten it
themselves.) A front end: it sits above the linter, the engine and analysis in the layer order.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from .analysis.playable import deal_problem, with_diagnostic
from .diagnostics import Severity
from .lint import LintPathError, LintResult, lint_paths
from .model import Design, ModelError, build_design
from .schema import SchemaUnavailable
from .variants import flatten


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


def open_design(path: Path | str) -> OpenDesign:
    """Lint ``path`` (a :class:`~pathlib.Path` or a string) and model it.

    :raises DesignError: when the linter finds errors (warnings do not stop play).
    :raises cardz_tools.lint.LintPathError: when the path does not exist.
    """
    path = Path(path)
    result = lint_paths([path])
    if any(d.severity is Severity.ERROR for d in result.diagnostics) or not result.files:
        raise DesignError(result)
    data = result.files[0].source.data
    if isinstance(data, dict) and "extends" in data:
        data, _ = flatten(path)
    design = build_design(data)
    problem = deal_problem(design, result.files[0])
    if problem is not None:
        raise DesignError(with_diagnostic(result, problem))
    return OpenDesign(path=path, data=data, design=design, lint=result)


@dataclasses.dataclass(frozen=True)
class Unopened:
    """Why a design could not be opened for play, for a front end to report in its own way."""

    message: str
    """One line that names the file."""
    exit_code: int
    """1: the design has errors; 2: the file could not be read or checked at all."""
    result: LintResult | None = None
    """The linter's report, when the design has errors it found."""


def open_or_report(path: Path) -> OpenDesign | Unopened:
    """:func:`open_design`, with every way it can fail as an :class:`Unopened` instead of an exception."""
    try:
        return open_design(path)
    except DesignError as exc:
        return Unopened(f"{path} cannot be played: it has errors", 1, exc.result)
    except LintPathError as exc:
        return Unopened(str(exc), 2)
    except SchemaUnavailable as exc:
        return Unopened(f"{path}: {exc}", 2)
    except ModelError as exc:
        return Unopened(f"{path} cannot be played: {exc}", 1)
