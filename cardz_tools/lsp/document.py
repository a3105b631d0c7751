"""One open document as the features see it: its diagnostics and its design.

Diagnostics are exactly those of ``cardz lint`` (:func:`cardz_tools.lint.lint_file`
on the editor's unsaved text, so a variant's ``extends`` is resolved next to the
file on disk). The :class:`DesignContext` (depot names, the rule site of every
expression string) comes from the same model the linter builds; while the text
does not parse, the server keeps the last context that did.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from pathlib import Path

from .. import jsoncst
from ..config import ConfigError, LintConfig, load_config
from ..diagnostics import Diagnostic, Severity
from ..expr import DesignEnv, Site, design_sites
from ..lint import lint_file, lint_text
from ..model import DepotSpec, Design, ModelError, build_design
from ..source import SourceFile, load_source
from ..variants import EXTENDS, Origin, VariantError, flatten_file
from .positions import Encoding, Range, TextIndex

__all__ = [
    "EditorDiagnostic",
    "Related",
    "DesignContext",
    "Target",
    "Snapshot",
    "lint_document",
    "design_context",
    "target_range",
    "json_tree",
]

UNTITLED = "untitled.cardz"


@dataclasses.dataclass(frozen=True, slots=True)
class Related:
    """A place in another file that a diagnostic is about."""

    file: Path
    range: Range
    message: str


@dataclasses.dataclass(frozen=True, slots=True)
class EditorDiagnostic:
    """A lint diagnostic placed in the editor's coordinates."""

    range: Range
    severity: Severity
    code: str
    message: str
    related: tuple[Related, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Target:
    """A place to jump to: a JSON pointer in this document (``file`` None) or in another file."""

    pointer: str
    file: Path | None = None


@functools.lru_cache(maxsize=8)
def json_tree(text: str) -> jsoncst.Node | None:
    """The strict-JSON tree of a text, or None when it is not strict JSON.

    Cached: the requests that follow an edit (outline, folding, semantic tokens, the
    lens) all read the same text. Trees are immutable, so sharing one is safe.
    """
    try:
        return jsoncst.parse(text)
    except jsoncst.JsonSyntaxError:
        return None


def _message(diagnostic: Diagnostic) -> str:
    return diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")


def _config(path: Path | None) -> LintConfig:
    """The ``[tool.cardz]`` configuration that ``cardz lint`` would use for ``path``."""
    try:
        return load_config(path) if path is not None else LintConfig()
    except ConfigError:
        return LintConfig()  # the editor still gets diagnostics; `cardz lint` reports the bad config


def lint_document(text: str, path: Path | None, encoding: Encoding = Encoding.UTF16) -> list[EditorDiagnostic]:
    """The diagnostics of ``cardz lint`` for a document's text, in editor coordinates.

    ``path`` is where the document lives on disk (None for an unsaved buffer). A
    variant's finding that lies in a design it extends is shown on ``extends``,
    with the place in that file as related information.
    """
    index = TextIndex(text, encoding)
    if path is None:
        return [
            EditorDiagnostic(index.span_range(d.span), d.severity, d.code, _message(d))
            for d in lint_text(text, UNTITLED, _config(None))
        ]
    report = lint_file(path, _config(path), text=text)
    found: list[EditorDiagnostic] = []
    for diagnostic in report.diagnostics:
        if diagnostic.file == report.path:
            found.append(
                EditorDiagnostic(
                    index.span_range(diagnostic.span), diagnostic.severity, diagnostic.code, _message(diagnostic)
                )
            )
            continue
        other = report.source_for(diagnostic.file)
        where = TextIndex(other.text, encoding).span_range(diagnostic.span)
        found.append(
            EditorDiagnostic(
                index.span_range(report.source.span("/" + EXTENDS)),
                diagnostic.severity,
                diagnostic.code,
                f"in {diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {_message(diagnostic)}",
                (Related(_on_disk(diagnostic.file), where, diagnostic.message),),
            )
        )
    return found


def _on_disk(file: str) -> Path:
    """The path of a file a report names (relative to the working directory, or absolute)."""
    named = Path(file)
    return named if named.is_absolute() else (Path.cwd() / named).resolve()


@dataclasses.dataclass(frozen=True)
class DesignContext:
    """What the features know about a document's design.

    ``sites`` maps the JSON pointer of every expression string in this document
    to its rule site; ``origins`` maps pointers of a variant's merged design to
    where they were written (None for a design without ``extends``).
    """

    design: Design
    env: DesignEnv
    sites: Mapping[str, Site]
    origins: Mapping[str, Origin] | None = None
    path: Path | None = None

    def site_at(self, pointer: str) -> Site | None:
        """The rule site of the expression string at ``pointer``, if it holds one."""
        return self.sites.get(pointer)

    def specs_named(self, name: str) -> tuple[DepotSpec, ...]:
        """The depot entries a reference names: a depot or group name (``cell[3]`` names ``cell``), or a type."""
        base = name.split("[", 1)[0]
        named = tuple(spec for spec in self.design.specs if spec.name == base)
        return named or tuple(spec for spec in self.design.specs if spec.type.value == base)

    def target(self, pointer: str) -> Target | None:
        """Where a pointer of the (merged) design was written."""
        if self.origins is None:
            return Target(pointer)
        origin = self.origins.get(pointer)
        if origin is None:
            return None
        same = self.path is not None and origin.file.resolve() == self.path.resolve()
        return Target(origin.pointer, None if same else origin.file)


def design_context(text: str, path: Path | None) -> DesignContext | None:
    """The design of a document, or None when it cannot be modelled (yet)."""
    source = SourceFile.from_text(text, str(path or UNTITLED))
    if not source.ok or not isinstance(source.data, dict):
        return None
    origins: Mapping[str, Origin] | None = None
    data = source.data
    if EXTENDS in data:
        if path is None:
            return None
        try:
            flattened = flatten_file(path, text)
        except VariantError:
            return None
        data, origins = flattened.design, flattened.provenance
    try:
        design = build_design(data)
    except ModelError:
        return None
    context = DesignContext(design, DesignEnv.from_design(design), {}, origins, path)
    sites: dict[str, Site] = {}
    for site, _, pointer in design_sites(design):
        target = context.target(pointer)
        if target is not None and target.file is None:
            sites[target.pointer] = site
    return dataclasses.replace(context, sites=sites)


def target_range(target: Target, text: str, encoding: Encoding = Encoding.UTF16) -> tuple[Path | None, Range]:
    """The file (None: this document) and range of a target's value."""
    if target.file is None:
        source = SourceFile.from_text(text, UNTITLED)
    else:
        source = load_source(target.file)
    return target.file, TextIndex(source.text, encoding).span_range(source.span(target.pointer))


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """A document's text at one moment, with the design context the features use.

    ``context`` may come from an earlier text that could be modelled (the server
    keeps the last one while the designer is typing).
    """

    text: str
    context: DesignContext | None = None
    path: Path | None = None
    encoding: Encoding = Encoding.UTF16

    @functools.cached_property
    def index(self) -> TextIndex:
        """Offsets <-> LSP positions in :attr:`text`."""
        return TextIndex(self.text, self.encoding)

    @classmethod
    def of(cls, text: str, path: Path | None = None, encoding: Encoding = Encoding.UTF16) -> Snapshot:
        """A snapshot with the context of this very text."""
        return cls(text, design_context(text, path), path, encoding)
