"""``cardz from-rules``: turn a rules text into a .cardz design template.

Offline and deterministic: no model, no network, only word tables (:mod:`.lexicon`).
:func:`convert` reads the text (:mod:`.reading`), lays out the family's board with the
numbers it found (:mod:`.skeletons`) and marks every decision it could not make with a
``TODO:`` that ``cardz lint`` reports as CZ601 (:func:`.todos.find_todos`).
:func:`format_report` says, sentence by sentence, what each became.

>>> conversion = convert("Klondike\\n\\nDeal seven columns. Move all cards to the foundations.", "k")
>>> conversion.design["family"], conversion.design["depots"][3]["repeat"]
('Klondike', 7)
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from ..diagnostics import Severity
from ..fmt import format_text, write_atomic
from ..model import build_design
from ..todos import find_todos
from .compare import DEFAULT_DEALS, compare_designs, format_comparison
from .files import InputError, read_text_file
from .lexicon import Language
from .reading import Analysis, SentenceKind, analyse
from .skeletons import build

LANGUAGE_CHOICES: tuple[str, ...] = ("auto",) + tuple(language.value for language in Language)
"""Values of ``--lang``."""


@dataclasses.dataclass(frozen=True)
class Conversion:
    """A design template made from a rules text, with everything the report needs."""

    design: Mapping[str, Any]
    analysis: Analysis
    outcomes: Mapping[int, tuple[str, ...]]
    """What each sentence (by 1-based index) became."""
    notes: tuple[str, ...]
    """Decisions taken from the family rather than the text."""
    todos: tuple[tuple[str, str], ...]
    """Every TODO left in the design, as ``(json_pointer, message)``."""
    examples: tuple[str, ...] = ()
    """Expressions to start from for the placeholder rules."""

    def to_json(self) -> str:
        """The design as the text of a .cardz file, in the canonical layout of ``cardz fmt``."""
        return format_text(json.dumps(self.design, ensure_ascii=False))


def convert(text: str, source_name: str = "", language: Language | None = None) -> Conversion:
    """Make a design template from a rules text.

    ``source_name`` (a file name or its stem) names the game when the text has no usable
    title; ``language`` forces the language instead of detecting it. The design is
    structurally valid (it models with :func:`cardz_tools.model.build_design`).
    """
    stem = Path(source_name).stem if source_name else ""
    analysis = analyse(text, stem, language)
    design, draft = build(analysis)
    build_design(design)  # a template that does not model is a bug here, not bad input
    return Conversion(
        design=design,
        analysis=analysis,
        outcomes={index: tuple(notes) for index, notes in draft.outcomes.items()},
        notes=tuple(draft.notes),
        todos=tuple(find_todos(design)),
        examples=tuple(draft.examples),
    )


def _quote(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _sets_a_key(note: str) -> bool:
    """Whether a sentence's outcome set a key of the design (not only a description line or a note)."""
    return not note.startswith(("description:", "about another game", "heading", "name")) and "(not used)" not in note


def format_report(conversion: Conversion, source: str = "") -> str:
    """A plain-text report: language, family, name, decisions, each sentence and what it became, TODOs."""
    analysis = conversion.analysis
    language, family = analysis.language, analysis.family
    lines = [f"from-rules: {source or '<text>'}"]
    how = "detected" if language.detected else "not detected"
    lines.append(f"language: {language.language.value} ({how}; {language.evidence})")
    matched = ", ".join(family.matches) or "no family keywords"
    lines.append(f"family: {family.family.value} (confidence {family.confidence:.2f}; matched: {matched})")
    lines.append(f"name: {conversion.design['name']} (from {analysis.name_source})")
    for note in conversion.notes:
        lines.append(f"not from the text: {note}")
    lines.append("")
    lines.append("sentences:")
    if not analysis.sentences:
        lines.append("  (the text is empty)")
    unused: list[int] = []
    for sentence in analysis.sentences:
        became = list(conversion.outcomes.get(sentence.index, ()))
        if sentence.index in analysis.other_games:
            became.append("about another game (ignored)")
        if sentence.kind is SentenceKind.HEADING and not became:
            became.append("heading")
        if sentence.kind is SentenceKind.HEADING and analysis.name_source == f"title line {sentence.line}":
            became.insert(0, "name")
        summary = "; ".join(became) if became else "not understood"
        if sentence.kind is SentenceKind.SENTENCE and sentence.index not in analysis.other_games:
            if not any(_sets_a_key(note) for note in became):
                unused.append(sentence.index)
                if became:
                    summary += " (no key set)"
        lines.append(f"  [{sentence.index}] line {sentence.line}: {_quote(sentence.text)}")
        lines.append(f"      -> {summary}")
    if unused:
        lines.append(f"sentences that set no key (rules the tool could not use): {', '.join(map(str, unused))}")
    lines.append("")
    lines.append(f"TODO ({len(conversion.todos)}): decisions left to the author (cardz lint reports them as CZ601)")
    for pointer, message in conversion.todos:
        lines.append(f"  {pointer}: {message}")
    if conversion.examples:
        lines.append("")
        lines.append("expressions to start from (check them against the text):")
        lines += [f"  {example}" for example in conversion.examples]
    return "\n".join(lines) + "\n"


def compare_with(conversion: Conversion, reference: str | Path, deals: int = DEFAULT_DEALS) -> tuple[str, int]:
    """The comparison report of the converted design against the design file ``reference``, and its exit code.

    0: plays the same game on the deals compared; 1: plays differently; 2: ``reference`` cannot be played.
    """
    from ..loading import OpenDesign, open_or_report

    opened = open_or_report(Path(reference))
    if not isinstance(opened, OpenDesign):
        if opened.result is None:
            return f"cardz: {opened.message}\n", 2
        first = next((d for d in opened.result.diagnostics if d.severity is Severity.ERROR), None)
        detail = f": {first.code} {first.message}" if first is not None else ""
        return f"cardz: {reference} cannot be played ({opened.result.errors} error(s) in the design){detail}\n", 2
    comparison = compare_designs(build_design(conversion.design), opened.design, deals=deals)
    return format_comparison(comparison, "the design from the text", str(reference)), 0 if comparison.same else 1


def run_from_rules(
    rules: str | Path,
    output: str | Path | None = None,
    lang: str = "auto",
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    compare: str | Path | None = None,
    deals: int = DEFAULT_DEALS,
) -> int:
    """The ``cardz from-rules`` command; returns the exit code.

    0: done; 1: the design plays differently from ``compare``; 2: bad input.

    Without ``output`` the design goes to stdout and the report to stderr; with it the
    design is written atomically to ``output`` and the report goes to stdout. With
    ``compare`` (a design file) the report ends with where the two designs play differently.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if lang not in LANGUAGE_CHOICES:
        print(f"cardz: --lang must be one of {', '.join(LANGUAGE_CHOICES)}, not {lang!r}", file=err)
        return 2
    try:
        text = read_text_file(rules)
    except InputError as exc:
        print(f"cardz: {exc}", file=err)
        return 2
    language = None if lang == "auto" else Language(lang)
    conversion = convert(text, str(rules), language)
    report = format_report(conversion, str(rules))
    code = 0
    if compare is not None:
        compared, code = compare_with(conversion, compare, deals)
        if code == 2:
            err.write(compared)
            return 2
        report += "\n" + compared
    if output is None:
        out.write(conversion.to_json())
        err.write(report)
        return code
    try:
        write_atomic(Path(output), conversion.to_json())
    except OSError as exc:
        print(f"cardz: cannot write {output}: {exc.strerror or exc}", file=err)
        return 2
    out.write(report)
    out.write(f"wrote {output}\n")
    return code
