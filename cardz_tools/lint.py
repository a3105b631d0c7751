"""``cardz lint``: every stage over every file, with the configuration applied.

Per file: read (:mod:`.source`) -> schema (:mod:`.schema`) -> model
(:mod:`.model`) -> semantic checks (:mod:`.checks`) -> rule expressions. A stage
runs only when the one before it left usable input: a file that is not JSON has
no schema errors. A design that fails the schema is modelled from the parts the
schema accepted (:mod:`.salvage`), so its reference and expression mistakes are
reported in the same run, each once.

A variant (a design with ``extends``) is linted as the standalone design it
stands for (:mod:`.variants`); each finding is moved, through the provenance of
the merge, to the file and place where the value at fault was written.
"""

from __future__ import annotations

import collections
import dataclasses
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from . import diagnostics as dx
from .checks import run_checks
from .config import LintConfig
from .diagnostics import RULES, Diagnostic, Rule, Severity
from .expr import check_design
from .model import Design, ModelError, build_design
from .salvage import salvage, value_at
from .schema import SchemaChecker, check_source
from .source import SourceFile, load_source, parent_pointer
from .todos import TODO_MARKER, todo_markers
from .variants import EXTENDS, Provenance, VariantError, flatten_file

SUFFIX = ".cardz"
IO_ERROR = "CZ100"


class LintPathError(FileNotFoundError):
    """A path given on the command line does not exist."""


@dataclasses.dataclass(frozen=True)
class FileReport:
    """The reported diagnostics of one file, with the source (for showing lines).

    A variant's diagnostics may lie in the files it extends: ``sources`` holds those.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...]
    source: SourceFile
    sources: Mapping[str, SourceFile] = dataclasses.field(default_factory=dict)

    def source_for(self, file: str) -> SourceFile:
        """The source a diagnostic's ``file`` names (this report's own file by default)."""
        return self.sources.get(file, self.source)


@dataclasses.dataclass(frozen=True)
class LintResult:
    """What a lint run found, file by file in a stable order."""

    files: tuple[FileReport, ...]
    strict: bool = False

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """All reported diagnostics, by file then position."""
        return [d for report in self.files for d in report.diagnostics]

    def count(self, severity: Severity) -> int:
        """How many diagnostics have this severity."""
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def failed(self) -> bool:
        """Whether the run fails: any error, or any warning under ``--strict``."""
        return self.errors > 0 or (self.strict and self.warnings > 0)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 problems found, 2 a file could not be read."""
        if any(d.code == IO_ERROR for d in self.diagnostics):
            return 2
        return 1 if self.failed else 0

    def statistics(self) -> list[tuple[Rule, int]]:
        """Each code found with its count, most frequent first."""
        counts = collections.Counter(d.code for d in self.diagnostics)
        return [(RULES[code], n) for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


# ---------------------------------------------------------------- finding files


def collect_files(paths: Iterable[str | Path]) -> list[Path]:
    """The .cardz files named by ``paths`` (directories are searched recursively), sorted, once each.

    :raises LintPathError: for a path that does not exist.
    """
    found: dict[str, Path] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            candidates = [p for p in path.rglob(f"*{SUFFIX}") if p.is_file()]
        elif path.exists():
            candidates = [path]
        else:
            raise LintPathError(f"{given}: no such file or directory")
        for candidate in candidates:
            found.setdefault(display_path(candidate), candidate)
    return [found[name] for name in sorted(found)]


def display_path(path: Path) -> str:
    """How a file is named in reports: relative to the working directory when inside it, with ``/``."""
    if path.is_absolute():
        try:
            return path.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return path.as_posix()
    return Path(os.path.normpath(path)).as_posix()


# ---------------------------------------------------------------- linting


def lint_paths(
    paths: Sequence[str | Path],
    config: LintConfig | None = None,
    *,
    checker: SchemaChecker | None = None,
) -> LintResult:
    """Lint files and directories.

    :raises LintPathError: if a path does not exist.
    :raises cardz_tools.schema.SchemaUnavailable: if the packaged schema is missing.
    """
    config = config or LintConfig()
    reports = [lint_file(path, config, checker=checker) for path in collect_files(paths)]
    return LintResult(_without_repeats(reports), strict=config.strict)


def lint_file(
    path: Path, config: LintConfig | None = None, *, checker: SchemaChecker | None = None, text: str | None = None
) -> FileReport:
    """Lint one file on disk (a variant as its flattened design).

    ``text``, when given, is linted instead of the file's contents (an editor's unsaved
    buffer); a variant's ``extends`` is still resolved next to ``path``.
    """
    source = load_source(path, display_path(path)) if text is None else SourceFile.from_text(text, display_path(path))
    sources: dict[str, SourceFile] = {}
    if source.ok and isinstance(source.data, dict) and EXTENDS in source.data:
        found = _lint_variant(path, source, sources, checker, text)
    else:
        found = lint_source(source, checker=checker)
    kept = _reported(found, source, config or LintConfig(), path)
    return FileReport(source.filename, tuple(kept), source, sources)


def lint_text(
    text: str, filename: str = "<text>", config: LintConfig | None = None, *, checker: SchemaChecker | None = None
) -> list[Diagnostic]:
    """Lint a design held in memory (editors, tests)."""
    source = SourceFile.from_text(text, filename)
    return _reported(lint_source(source, checker=checker), source, config or LintConfig(), None)


def lint_source(source: SourceFile, *, checker: SchemaChecker | None = None) -> list[Diagnostic]:
    """Every diagnostic for one file, unfiltered, in file order."""
    found = list(source.diagnostics)
    if source.ok:
        schema_found = check_source(source, checker)
        found.extend(schema_found)
        if not any(d.severity is Severity.ERROR for d in schema_found):
            design = _model(source, found)
            if design is not None:
                found.extend(run_checks(design, source))
                found.extend(_expression_diagnostics(design, source))
        else:
            found.extend(_salvaged_diagnostics(source, schema_found))
        found.extend(_todo_diagnostics(source))
    return sorted(found, key=Diagnostic.sort_key)


def _lint_variant(
    path: Path,
    source: SourceFile,
    sources: dict[str, SourceFile],
    checker: SchemaChecker | None,
    text: str | None = None,
) -> list[Diagnostic]:
    """Lint the design a variant stands for; ``sources`` collects the files its findings lie in."""
    try:
        flattened = flatten_file(path, text)
    except VariantError as exc:
        return sorted(
            [*source.diagnostics, *(dataclasses.replace(d, file=display_path(Path(d.file))) for d in exc.diagnostics)],
            key=Diagnostic.sort_key,
        )
    merged = SourceFile.from_text(flattened.text(), source.filename)
    sources[source.filename] = source
    found = [
        *source.diagnostics,
        *(_relocate(d, merged, flattened.provenance, sources) for d in lint_source(merged, checker=checker)),
    ]
    return sorted(found, key=Diagnostic.sort_key)


def _relocate(
    diagnostic: Diagnostic, merged: SourceFile, provenance: Provenance, sources: dict[str, SourceFile]
) -> Diagnostic:
    """Move a finding about a merged design to the file and place that wrote the value."""
    anchor = merged.anchor(diagnostic.pointer, diagnostic.span)
    pointer = anchor.pointer
    while pointer not in provenance and pointer:
        pointer = parent_pointer(pointer)
    origin = provenance.get(pointer)
    if origin is None:  # pragma: no cover - the root is always in the provenance
        return diagnostic
    name = display_path(origin.file)
    if name not in sources:
        sources[name] = load_source(origin.file, name)
    target = (
        dataclasses.replace(anchor, pointer=origin.pointer)
        if pointer == anchor.pointer
        else dataclasses.replace(anchor, pointer=origin.pointer, part="head")
    )
    return dataclasses.replace(diagnostic, file=name, span=sources[name].locate(target), pointer=origin.pointer)


def _without_repeats(reports: list[FileReport]) -> tuple[FileReport, ...]:
    """Drop from a variant's report what the report of the file it extends already says."""
    own = {report.path: set(report.diagnostics) for report in reports}
    return tuple(
        dataclasses.replace(
            report,
            diagnostics=tuple(d for d in report.diagnostics if d.file == report.path or d not in own.get(d.file, ())),
        )
        for report in reports
    )


def _salvaged_diagnostics(source: SourceFile, schema_found: list[Diagnostic]) -> list[Diagnostic]:
    """Reference and expression findings on the parts the schema accepted, follow-ons left out (:mod:`.salvage`)."""
    try:
        salvaged = salvage(source.data, schema_found)
        if salvaged is None:
            return []
        later = [*run_checks(salvaged.design, source), *_expression_diagnostics(salvaged.design, source)]
    except Exception:  # noqa: BLE001 - the checks assume schema-valid input; the schema errors are reported anyway
        return []
    return [d for d in later if salvaged.keeps(d, value_at(source.data, d.pointer), _underlined(source, d))]


def _underlined(source: SourceFile, diagnostic: Diagnostic) -> str:
    """The text a diagnostic underlines (its first line only)."""
    span = diagnostic.span
    line = source.line_text(span.line)
    end = span.end_column - 1 if span.end_line == span.line else len(line)
    return line[span.column - 1 : end]


def _model(source: SourceFile, found: list[Diagnostic]) -> Design | None:
    try:
        return build_design(source.data)
    except ModelError as exc:
        found.append(
            dx.make("CZ299", str(exc), source.filename, span=source.head_span(exc.pointer), pointer=exc.pointer)
        )
        return None


def _todo_diagnostics(source: SourceFile) -> list[Diagnostic]:
    """A CZ601 warning under every ``TODO:`` marker a template or ``from-rules`` left."""
    found: list[Diagnostic] = []
    if TODO_MARKER not in source.text:  # the common case: no need to walk every string
        return found
    for pointer, start, message in todo_markers(source.data):
        span = source.string_span(pointer, start, start + len(message))
        found.append(
            dx.make(
                "CZ601",
                message,
                source.filename,
                span=span,
                pointer=pointer,
                hint="make the decision, then delete the marker",
            )
        )
    return found


def _expression_diagnostics(design: Design, source: SourceFile) -> list[Diagnostic]:
    """Diagnostics for the rule expressions of a design (CZ4xx).

    Each issue carries offsets into the decoded expression string; the caret
    goes under that exact sub-expression in the file, escapes accounted for.
    """
    return [
        dx.make(
            issue.code,
            issue.message,
            source.filename,
            span=source.string_span(issue.pointer, issue.start, issue.end),
            pointer=issue.pointer,
            hint=issue.hint,
            severity=issue.severity,
        )
        for issue in check_design(design)
    ]


def _reported(found: list[Diagnostic], source: SourceFile, config: LintConfig, path: Path | None) -> list[Diagnostic]:
    """The diagnostics the configuration lets through.

    A file that could not be read at all is always reported: ignoring that
    would pass a broken file.
    """
    if not source.ok:
        return found
    return [d for d in found if config.reports(d, path)]
