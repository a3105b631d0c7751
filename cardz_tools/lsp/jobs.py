"""The heavy requests as jobs for a worker process: plain arguments in, plain results out.

Each job takes the document's text (and its path and the position encoding) and
returns what the feature module computes from that very text, in editor
coordinates, so that nothing but the conversion to LSP types is left for the
request loop. Arguments and results cross a process boundary: they are texts,
paths, enums and the feature modules' small frozen dataclasses, never a design
context (that would cost more to copy than to build).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from pathlib import Path

from .. import jsoncst
from .document import DesignContext, Snapshot, design_context, json_tree
from .formatting import format_document, format_range
from .hints import Hint, inlay_hints
from .outline import Fold, Symbol, folding_ranges, outline
from .positions import Encoding, Position, Range, TextIndex
from .rename import prepare_rename, references_with_variants, rename_with_variants
from .tokens import encode, semantic_tokens

__all__ = ["format_job", "outline_job", "folding_job", "references_job", "prepare_rename_job", "rename_job",
           "tokens_job", "name_range_job", "context_job", "hints_job"]

_last_context: collections.OrderedDict[str, DesignContext] = collections.OrderedDict()
"""In a worker: the last context of each document (by URI) that modelled, for tokens while the text does not."""
_LAST_CONTEXTS = 16


def context_job(text: str, path: Path | None) -> DesignContext | None:
    """The design context of ``text`` (see :func:`.document.design_context`)."""
    return design_context(text, path)


def format_job(text: str, encoding: Encoding, within: Range | None) -> list[tuple[Range, str]]:
    """The edits of ``cardz fmt`` (of the range ``within`` only, when given).

    :raises NotFormatted: as :func:`.formatting.format_document` does.
    """
    index = TextIndex(text, encoding)
    if within is None:
        edits = format_document(text)
    else:
        edits = format_range(text, index.offset(within.start), index.offset(within.end))
    return [(index.offset_range(edit.start, edit.end), edit.new_text) for edit in edits]


def outline_job(text: str, encoding: Encoding) -> list[Symbol]:
    """The document's outline."""
    return outline(text, TextIndex(text, encoding))


def folding_job(text: str) -> list[Fold]:
    """The document's folding ranges."""
    return folding_ranges(text)


def references_job(text: str, path: Path | None, encoding: Encoding, position: Position, include_declaration: bool,
                   others: Sequence[tuple[Path, str]] = ()) -> tuple[list[Range], list[list[Range]]]:
    """Where the depot or group name at ``position`` is written, here and in each of ``others`` that is a variant."""
    variants = [Snapshot(other_text, None, other_path, encoding) for other_path, other_text in others]
    return references_with_variants(Snapshot.of(text, path, encoding), position, include_declaration, variants)


def prepare_rename_job(text: str, path: Path | None, encoding: Encoding, position: Position) -> Range:
    """The range of the name to rename (:raises RenameRefused: saying why not)."""
    return prepare_rename(Snapshot.of(text, path, encoding), position)


_Edits = list[tuple[Range, str]]


def rename_job(text: str, path: Path | None, encoding: Encoding, position: Position, new_name: str,
               others: Sequence[tuple[Path, str]] = ()) -> tuple[_Edits, list[_Edits]]:
    """The edits of a rename in this document, and in each of the ``others`` (path and text) that is a variant of it.

    :raises RenameRefused: saying why not.
    """
    variants = [Snapshot(other_text, None, other_path, encoding) for other_path, other_text in others]
    return rename_with_variants(Snapshot.of(text, path, encoding), position, new_name, variants)


def tokens_job(uri: str, text: str, path: Path | None, encoding: Encoding) -> list[int]:
    """The encoded semantic tokens of the document ``uri`` (with the last context that modelled while it does not).

    The last context is this worker's: a document whose text stops modelling keeps its expression
    tokens when its last good text was tokenised by the same worker (usually: tokens follow each edit).
    """
    context = design_context(text, path)
    if context is not None:
        _last_context[uri] = context
        _last_context.move_to_end(uri)
        while len(_last_context) > _LAST_CONTEXTS:
            _last_context.popitem(last=False)
    else:
        context = _last_context.get(uri)
    return encode(semantic_tokens(text, context), TextIndex(text, encoding))


def name_range_job(text: str, encoding: Encoding) -> Range:
    """Where the design's ``name`` is written (the start of the document when it has none): the lens's place."""
    root = json_tree(text)
    name = jsoncst.node_at(root, "/name") if root is not None else None
    if name is None:
        return Range(Position(0, 0), Position(0, 0))
    return TextIndex(text, encoding).offset_range(name.start, name.end)


def hints_job(text: str, path: Path | None, encoding: Encoding) -> list[Hint]:
    """The inlay hints of the document (a variant's inherited depot types and the name of the design it extends)."""
    return inlay_hints(Snapshot.of(text, path, encoding))
