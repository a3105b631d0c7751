"""Diagnostics: what every checker reports, and the table of stable codes.

Checkers never raise on bad input: they append :class:`Diagnostic` objects to a
list and carry on, so that a designer sees every problem in one run (the way the
python-chess PGN reader collects errors).

Codes are stable: a code, once published, keeps its meaning forever. They are
grouped by the stage that finds them:

=========  ==============================================================
CZ1xx      reading the file: encoding, JSON syntax, duplicate keys
CZ2xx      JSON Schema: shape and values of keys
CZ3xx      references and semantics across the design
CZ4xx      rule expressions: syntax, names, types
CZ5xx      findings from playing the design (``cardz check``)
CZ6xx      authoring: TODOs left by templates and ``from-rules``, variants, publishing
=========  ==============================================================
"""

from __future__ import annotations

import dataclasses
import enum


class Severity(enum.StrEnum):
    """How serious a diagnostic or a finding is. Errors fail ``cardz lint``; warnings fail it under ``--strict``.

    A string enum: the value is what JSON, SARIF and the analysis cache carry, byte for byte.
    """

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort key: errors first."""
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {severity: rank for rank, severity in enumerate(Severity)}


@dataclasses.dataclass(frozen=True, slots=True)
class Span:
    """A range in a file: 1-based line and column, end exclusive (column counts characters)."""

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int) -> Span:
        """A one-character span."""
        return cls(line, column, line, column + 1)


UNKNOWN_SPAN = Span(1, 1, 1, 1)
"""Where a diagnostic goes when nothing better is known (the start of the file)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Rule:
    """A kind of diagnostic: its stable code, short kebab-case name and default severity."""

    code: str
    name: str
    severity: Severity
    summary: str


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in one file."""

    code: str
    name: str
    severity: Severity
    message: str
    file: str
    span: Span = UNKNOWN_SPAN
    pointer: str = ""
    hint: str | None = None

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order by file, position, then code."""
        return (self.file, self.span.line, self.span.column, self.code)

    def to_dict(self) -> dict[str, object]:
        """The JSON shape that ``cardz lint --format json`` promises."""
        return {
            "file": self.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity.value,
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "pointer": self.pointer,
            "hint": self.hint,
        }


def _rules(*rows: tuple[str, str, Severity, str]) -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for code, name, severity, summary in rows:
        assert code not in table, f"duplicate diagnostic code {code}"
        table[code] = Rule(code, name, severity, summary)
    return table


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - the severity letters of the table

RULES: dict[str, Rule] = _rules(
    # CZ1xx: reading the file
    ("CZ100", "io-error", E, "The file cannot be read."),
    ("CZ101", "invalid-utf8", E, "The file is not valid UTF-8."),
    ("CZ102", "byte-order-mark", E, "The file starts with a byte order mark."),
    ("CZ103", "empty-file", E, "The file is empty."),
    ("CZ104", "json-syntax", E, "The file is not valid JSON."),
    ("CZ105", "duplicate-key", E, "An object has the same key twice."),
    ("CZ106", "non-finite-number", E, "NaN or Infinity is not JSON."),
    ("CZ107", "too-large", E, "The file or its nesting exceeds a safety bound."),
    # CZ2xx: schema
    ("CZ201", "schema-type", E, "A value has the wrong JSON type."),
    ("CZ202", "schema-required", E, "A required key is missing."),
    ("CZ203", "schema-enum", E, "A value is not one of the allowed values."),
    ("CZ204", "unknown-key", W, "A key the format does not define (ignored)."),
    ("CZ205", "schema-range", E, "A number or list is out of its allowed range."),
    ("CZ206", "schema-pattern", E, "A string does not have the required form."),
    ("CZ299", "schema", E, "The design does not match the schema."),
    # CZ3xx: references and semantics
    ("CZ301", "duplicate-depot", E, "Two depots have the same name."),
    ("CZ302", "unknown-depot", E, "A reference names no depot, group or depot type."),
    ("CZ303", "deal-overflow", E, "The deal needs more cards than the deck holds."),
    ("CZ304", "overlapping-depots", E, "Two depots are placed on the same board cell."),
    ("CZ305", "unreachable-depot", W, "No deal, rule or effect can ever put a card into or take one from this depot."),
    ("CZ306", "undealt-cards", E, "Cards are left after the deal but there is no stock to hold them."),
    ("CZ307", "key-not-for-kind", W, "An effect or deal rule has a key that its kind does not read (ignored)."),
    ("CZ308", "row-lengths-mismatch", E, "A perRow list adds up to another number than repeat."),
    ("CZ309", "needs-one-depot", E, "A reference that must name one depot names several."),
    (
        "CZ310",
        "depot-named-like-type",
        W,
        "A depot or group is named like a depot type, which makes references ambiguous.",
    ),
    # CZ4xx: rule expressions
    ("CZ400", "expr-syntax", E, "A rule expression does not parse."),
    ("CZ401", "unknown-name", E, "A name in an expression is not defined at this rule site."),
    ("CZ402", "unknown-field", E, "A field that the value does not have."),
    ("CZ403", "unknown-function", E, "A call to a function that does not exist."),
    ("CZ404", "wrong-arity", E, "A call with the wrong number of arguments."),
    ("CZ405", "type-mismatch", E, "A value of the wrong type."),
    ("CZ406", "name-outside-site", E, "A name that exists, but not at this rule site."),
    ("CZ407", "it-outside-binder", E, "`it` used outside any/all/count/sum/min/max."),
    ("CZ408", "maybe-absent", W, "A value that may be absent is used without a guard."),
    ("CZ409", "constant-condition", W, "A condition that is always true or always false."),
    ("CZ410", "expr-too-complex", E, "An expression exceeds the length, nesting or evaluation-cost bound."),
    # CZ5xx: findings from play (cardz check); names match analysis.findings.FindingKind
    ("CZ501", "stuck-at-deal", E, "Some or all deals have no legal move at the start."),
    ("CZ502", "never-won", I, "No random playout won."),
    ("CZ503", "unwinnable", E, "The solver proved every sampled deal lost."),
    ("CZ504", "always-won", W, "Random play wins almost every deal: choices do not matter."),
    ("CZ505", "forced-play", W, "Almost no position offers a choice."),
    ("CZ506", "non-terminating", E, "A playout or a trigger cascade hit its bound."),
    ("CZ507", "rule-never-fires", I, "A rule, action or draw that no playout used."),
    ("CZ508", "skill-gap", I, "How much a thoughtful player beats random play."),
    ("CZ509", "pointless-move", W, "A legal move that only swaps two interchangeable piles: it changes nothing."),
    # CZ6xx: authoring
    ("CZ601", "todo", W, "A decision the author still has to make."),
    # CZ65x: variants (`extends`)
    ("CZ650", "extends-not-found", E, "The design named by `extends` does not exist."),
    (
        "CZ651",
        "extends-outside-folder",
        E,
        "`extends` leads out of the design's folder (absolute path, `..` or a symbolic link).",
    ),
    ("CZ652", "extends-cycle", E, "Designs extend each other in a cycle."),
    ("CZ653", "extends-too-deep", E, "A chain of `extends` is longer than 8 designs."),
    ("CZ654", "variant-change", E, "A variant's change cannot be applied to the design it extends."),
    # CZ66x: publishing (`cardz publish`)
    ("CZ660", "slug-collision", E, "Two designs published together would get the same file name."),
    ("CZ661", "no-slug", E, "A design's name has no ASCII letter or digit to make its file name from."),
)
"""Every diagnostic code the project can emit, by code."""

RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES.values()}


def make(
    code: str,
    message: str,
    file: str,
    span: Span = UNKNOWN_SPAN,
    pointer: str = "",
    hint: str | None = None,
    severity: Severity | None = None,
) -> Diagnostic:
    """Build a diagnostic for a registered code (its name and default severity come from :data:`RULES`)."""
    rule = RULES[code]
    return Diagnostic(
        code=code,
        name=rule.name,
        severity=severity or rule.severity,
        message=message,
        file=file,
        span=span,
        pointer=pointer,
        hint=hint,
    )


def did_you_mean(word: str, candidates: list[str] | tuple[str, ...] | set[str] | dict[str, object]) -> str | None:
    """A hint naming the closest candidate to ``word``, or None when nothing is close."""
    import difflib

    options = sorted(candidates)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        lowered = {o.lower(): o for o in options}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return f"did you mean '{close[0]}'?" if close else None
