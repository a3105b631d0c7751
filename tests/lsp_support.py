"""Helpers for the language-server tests: apply LSP-style edits to a text."""

from __future__ import annotations

from cardz_tools.lsp.positions import Range, TextIndex


def apply_edits(text: str, edits: list[tuple[Range, str]]) -> str:
    """``text`` with each ``(range, new_text)`` applied as a client applies a list of edits (ranges of the old text)."""
    index = TextIndex(text)
    spans = sorted(((index.offset(r.start), index.offset(r.end), new) for r, new in edits), reverse=True)
    for (_, end, _), (next_start, _, _) in zip(spans[1:], spans[:-1], strict=True):
        assert end <= next_start, "edits overlap"
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_offsets(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with offset edits ``(start, end, new_text)`` applied (offsets of the old text)."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
