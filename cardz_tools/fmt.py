"""``cardz fmt``: the canonical layout of a .cardz file.

The layout is the one the hand-written seed files use (``docs/fmt.md`` explains
it with examples). In short, with a line budget of :data:`WIDTH` characters:

* A value that fits on the rest of its line is written on one line: objects as
  ``{ "a": 1, "b": 2 }``, arrays as ``[1, 2]`` (so ``[{ ... }]`` hugs).
* An array that does not fit puts each item on its own line.
* An object that does not fit is written one of two ways. As an item of an
  array (a depot, a trigger, a deal rule) it is *filled* like a paragraph: it
  opens ``{ "first": ...,`` and packs members onto lines indented two more,
  starting a fresh line for a member that does not fit or spans several lines,
  and closes with `` }`` on its last line. As the value of a key (an accept
  rule, the scoring) it is *vertical*: one member per line, ``}`` on its own line.
* The whole design is always vertical and ``depots`` always has one depot per block.
* Known keys come in the canonical order of :data:`KEY_ORDER` (the order of
  ``docs/format.md``); other keys follow in the order they were written.

Nothing but whitespace and the order of object members changes: tokens keep
their text (``1.0`` stays ``1.0``, ``"\\u00e9"`` and ``"é"`` stay as written).
A file that is not strict JSON is never rewritten.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from . import diagnostics, jsoncst
from .diagnostics import Diagnostic
from .jsoncst import Array, Member, Node, Object, Scalar

WIDTH = 100
"""Line budget: a value goes on one line when the whole line stays within it."""
INDENT = 2


class Context(enum.Enum):
    """Where an object or array sits in a design; it decides the order of known keys."""

    ROOT = "root"
    DEPOT_LIST = "depots"
    DEPOT = "depot"
    ACCEPT = "acceptRule"
    EJECT = "ejectRule"
    DRAW = "draw"
    TRIGGER_LIST = "triggers"
    TRIGGER = "trigger"
    ACTION_LIST = "actions"
    ACTION = "action"
    EFFECT_LIST = "do"
    EFFECT = "effect"
    DEAL_LIST = "dealRules"
    DEAL = "dealRule"
    CONDITION = "condition"
    SCORING = "scoring"
    OTHER = "other"


KEY_ORDER: dict[Context, tuple[str, ...]] = {
    Context.ROOT: (
        "$schema",
        "name",
        "family",
        "aliases",
        "tagline",
        "description",
        "extends",
        "decks",
        "suits",
        "jokers",
        "depots",
        "dealRules",
        "depotOnly",
        "winCondition",
        "lossCondition",
        "scoring",
        "planner",
        "tools",
    ),
    Context.DEPOT: (
        "type",
        "fanDirection",
        "col",
        "row",
        "name",
        "repeat",
        "perRow",
        "align",
        "colStep",
        "rowStep",
        "acceptRule",
        "ejectRule",
        "autoFlipTop",
        "draw",
        "actions",
        "triggers",
    ),
    Context.ACCEPT: ("single", "follow", "wildRank", "wildDeclares", "when", "reason", "allow"),
    Context.EJECT: ("when", "reason"),
    Context.DRAW: ("to", "count", "redeals", "faceUp"),
    Context.TRIGGER: ("when", "do"),
    Context.ACTION: ("name", "when", "limit", "do"),
    Context.EFFECT: ("kind", "group", "from", "where", "to", "depot", "keep", "count", "faceUp"),
    Context.DEAL: ("kind", "to", "match", "faceDown", "faceUp", "roundRobin", "ranks"),
    Context.CONDITION: ("kind", "depots", "when"),
    Context.SCORING: ("value", "better", "keep"),
}
"""Canonical member order of the objects the format defines (unknown keys go after)."""

_MEMBER_CONTEXT: dict[tuple[Context, str], Context] = {
    (Context.ROOT, "depots"): Context.DEPOT_LIST,
    (Context.ROOT, "dealRules"): Context.DEAL_LIST,
    (Context.ROOT, "winCondition"): Context.CONDITION,
    (Context.ROOT, "lossCondition"): Context.CONDITION,
    (Context.ROOT, "scoring"): Context.SCORING,
    (Context.DEPOT, "acceptRule"): Context.ACCEPT,
    (Context.DEPOT, "ejectRule"): Context.EJECT,
    (Context.DEPOT, "draw"): Context.DRAW,
    (Context.DEPOT, "triggers"): Context.TRIGGER_LIST,
    (Context.DEPOT, "actions"): Context.ACTION_LIST,
    (Context.TRIGGER, "do"): Context.EFFECT_LIST,
    (Context.ACTION, "do"): Context.EFFECT_LIST,
}
_ITEM_CONTEXT: dict[Context, Context] = {
    Context.DEPOT_LIST: Context.DEPOT,
    Context.TRIGGER_LIST: Context.TRIGGER,
    Context.ACTION_LIST: Context.ACTION,
    Context.EFFECT_LIST: Context.EFFECT,
    Context.DEAL_LIST: Context.DEAL,
}
_ALWAYS_BROKEN = frozenset({Context.ROOT, Context.DEPOT_LIST})


def ordered_members(node: Object, context: Context) -> list[tuple[Member, Context]]:
    """An object's members in canonical order, each with the context of its value."""
    order = KEY_ORDER.get(context, ())
    rank = {key: i for i, key in enumerate(order)}
    members = sorted(node.members, key=lambda m: rank.get(m.key, len(order)))  # stable: unknown keep order
    # A list given as an object keyed by index (a variant's ``"dealRules": { "0": {...} }``)
    # holds the same kind of items as the list.
    by_index = _ITEM_CONTEXT.get(context, Context.OTHER)
    return [(m, _MEMBER_CONTEXT.get((context, m.key), by_index)) for m in members]


class _Printer:
    """Lays out one tree. Flat forms are cached: each is asked for at every level above it."""

    def __init__(self) -> None:
        self._flat: dict[tuple[int, Context], str] = {}

    def flat(self, node: Node, context: Context) -> str:
        if isinstance(node, Scalar):
            return node.text
        cache_key = (id(node), context)
        cached = self._flat.get(cache_key)
        if cached is not None:
            return cached
        if isinstance(node, Array):
            item_context = _ITEM_CONTEXT.get(context, Context.OTHER)
            text = "[" + ", ".join(self.flat(item, item_context) for item in node.items) + "]"
        elif node.members:
            parts = (f"{m.key_text}: {self.flat(m.value, ctx)}" for m, ctx in ordered_members(node, context))
            text = "{ " + ", ".join(parts) + " }"
        else:
            text = "{}"
        self._flat[cache_key] = text
        return text

    def layout(self, node: Node, context: Context, indent: int, column: int, trailer: int, *, item: bool) -> str:
        """``node`` written from ``column`` on a line indented ``indent``; ``trailer``
        characters (commas, closing brackets) follow it on its last line."""
        flat = self.flat(node, context)
        fits = column + len(flat) + trailer <= WIDTH
        if isinstance(node, Scalar) or (fits and context not in _ALWAYS_BROKEN):
            return flat
        if isinstance(node, Array):
            return self.broken_array(node, context, indent) if node.items else flat
        if not node.members:
            return flat
        if item and context is not Context.ROOT:
            return self.filled_object(node, context, indent, trailer)
        return self.vertical_object(node, context, indent)

    def broken_array(self, node: Array, context: Context, indent: int) -> str:
        inner = indent + INDENT
        item_context = _ITEM_CONTEXT.get(context, Context.OTHER)
        last = len(node.items) - 1
        lines = [
            " " * inner
            + self.layout(child, item_context, inner, inner, 0 if i == last else 1, item=True)
            + ("" if i == last else ",")
            for i, child in enumerate(node.items)
        ]
        return "[\n" + "\n".join(lines) + "\n" + " " * indent + "]"

    def vertical_object(self, node: Object, context: Context, indent: int) -> str:
        inner = indent + INDENT
        members = ordered_members(node, context)
        last = len(members) - 1
        lines = []
        for i, (member, child_context) in enumerate(members):
            key = member.key_text + ": "
            value = self.layout(member.value, child_context, inner, inner + len(key), 0 if i == last else 1, item=False)
            lines.append(" " * inner + key + value + ("" if i == last else ","))
        return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"

    def filled_object(self, node: Object, context: Context, indent: int, trailer: int) -> str:
        inner = indent + INDENT
        members = ordered_members(node, context)
        last = len(members) - 1
        text = "{ "
        column = indent + 2
        line_has_member = False
        line_is_closed = False  # a member that spanned lines ends the line it ends on
        for i, (member, child_context) in enumerate(members):
            comma = "" if i == last else ","
            member_trailer = len(comma) + (2 + trailer if i == last else 0)
            key = member.key_text + ": "
            flat = key + self.flat(member.value, child_context)
            if line_has_member:
                if not line_is_closed and column + 1 + len(flat) + member_trailer <= WIDTH:
                    text += " " + flat + comma
                    column += 1 + len(flat) + len(comma)
                    continue
                text += "\n" + " " * inner
                column = inner
            value = self.layout(member.value, child_context, inner, column + len(key), member_trailer, item=False)
            text += key + value + comma
            line_has_member = True
            line_is_closed = "\n" in value
            column = len(text) - text.rfind("\n") - 1 if line_is_closed else column + len(key) + len(value) + len(comma)
        return text + " }"


def format_node(node: Node) -> str:
    """The canonical text of a tree, ending with a newline."""
    return _Printer().layout(node, Context.ROOT, 0, 0, 0, item=False) + "\n"


def format_text(text: str) -> str:
    """The canonical text of a JSON document.

    :raises jsoncst.JsonSyntaxError: when the text is not strict JSON.
    """
    return format_node(jsoncst.parse(text))


# ---------------------------------------------------------------- files


class Outcome(enum.Enum):
    """What ``cardz fmt`` found (or did) for one file."""

    UNCHANGED = "unchanged"
    REFORMATTED = "reformatted"
    WOULD_REFORMAT = "would reformat"
    INVALID = "invalid"
    UNWRITABLE = "unwritable"


@dataclasses.dataclass(frozen=True, slots=True)
class FileResult:
    """The outcome for one file, with its text before and after when it parsed."""

    path: Path
    outcome: Outcome
    original: str = ""
    formatted: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()

    def diff(self) -> str:
        """A unified diff from the file as it is to its canonical form."""
        name = str(self.path)
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.formatted.splitlines(keepends=True),
                fromfile=name,
                tofile=f"{name} (formatted)",
            )
        )


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace a file's content in one step, keeping its permission bits (a new file gets the umask's).

    ``text`` is written as UTF-8 with ``\n`` line ends; ``bytes`` are written as they are.

    The text goes to a temporary file in the same directory, is flushed to disk,
    then renamed over the original, so a crash leaves the old or the new file,
    never half of one.
    """
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as temp:
            temp.write(text.encode("utf-8") if isinstance(text, str) else text)
            temp.flush()
            os.fsync(temp.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def format_file(path: Path, *, write: bool) -> FileResult:
    """Check one file against its canonical form and, when ``write``, rewrite it.

    A file that cannot be read or parsed is left untouched and reported.
    """
    parsed, problems = jsoncst.read_file(path)
    if parsed is None:
        return FileResult(path, Outcome.INVALID, diagnostics=tuple(problems))
    formatted = format_node(parsed.root)
    if formatted == parsed.text:
        return FileResult(path, Outcome.UNCHANGED, parsed.text, formatted)
    if not write:
        return FileResult(path, Outcome.WOULD_REFORMAT, parsed.text, formatted)
    try:
        write_atomic(path, formatted)
    except OSError as exc:  # a read-only folder, a full disk, the file replaced by a folder meanwhile
        problem = diagnostics.make("CZ100", f"cannot write the file: {exc.strerror or exc}", str(path))
        return FileResult(path, Outcome.UNWRITABLE, parsed.text, formatted, (problem,))
    return FileResult(path, Outcome.REFORMATTED, parsed.text, formatted)


def expand_paths(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named directly, and the ``*.cardz`` files under named directories (sorted)."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.cardz") if p.is_file())
        else:
            yield path


def describe(diagnostic: Diagnostic) -> str:
    """A diagnostic on one line: ``file:line:col: CODE name message``."""
    where = f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}"
    return f"{where}: {diagnostic.code} {diagnostic.name} {diagnostic.message}"


def run(paths: Sequence[Path], *, check: bool = False, diff: bool = False, out: TextIO, err: TextIO) -> int:
    """``cardz fmt``: format (or with ``check`` only inspect) files; returns the exit code.

    ``diff`` implies ``check``: it prints the changes instead of making them.
    Exit codes: 0 all files canonical (or rewritten), 1 under ``check`` some file
    would change, 2 some file could not be read, parsed or written (it is left as it was).
    """
    check = check or diff
    results = [format_file(path, write=not check) for path in expand_paths(paths)]
    for result in results:
        for diagnostic in result.diagnostics:
            err.write(describe(diagnostic) + "\n")
        if result.outcome is Outcome.INVALID:
            err.write(f"{result.path}: not formatted: the file does not parse\n")
        elif result.outcome is Outcome.UNWRITABLE:
            err.write(f"{result.path}: not formatted: the file cannot be written (it is unchanged)\n")
        elif result.outcome is Outcome.WOULD_REFORMAT:
            out.write(f"would reformat {result.path}\n")
            if diff:
                out.write(result.diff())
        elif result.outcome is Outcome.REFORMATTED:
            out.write(f"reformatted {result.path}\n")
    if any(r.outcome in (Outcome.INVALID, Outcome.UNWRITABLE) for r in results):
        return 2
    if any(r.outcome is Outcome.WOULD_REFORMAT for r in results):
        return 1
    return 0
