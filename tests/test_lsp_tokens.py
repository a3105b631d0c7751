"""Semantic tokens for the expression language inside strings."""

from __future__ import annotations

from cardz_tools.lsp.document import Snapshot
from cardz_tools.lsp.positions import Encoding, TextIndex
from cardz_tools.lsp.tokens import TOKEN_TYPES, encode, semantic_tokens
from tests.conftest import ROOT

SEED = ROOT / "games" / "monte-carlo.cardz"
TEXT = SEED.read_text(encoding="utf-8")
RULE = "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"


def _tokens(text: str) -> list[tuple[str, str]]:
    snapshot = Snapshot.of(text, SEED)
    return [(text[t.start:t.end], t.type) for t in semantic_tokens(text, snapshot.context)]


def test_an_accept_rule_is_coloured_as_the_checker_reads_it() -> None:
    tokens = _tokens(TEXT)
    start = tokens.index(("adjacent", "function"))
    assert tokens[start:start + 13] == [
        ("adjacent", "function"), ("source", "parameter"), ("depot", "parameter"), ("&&", "operator"),
        ("!", "operator"), ("empty", "function"), ("depot", "parameter"), ("&&", "operator"),
        ("card", "parameter"), ("rank", "property"), ("==", "operator"), ("top", "parameter"), ("rank", "property"),
    ]


def test_depots_binders_constants_and_numbers() -> None:
    text = TEXT.replace("count(depot) == 2", "count(depot) == 2 || any(c in cell, top(c).suit == Hearts)")
    tokens = _tokens(text)
    assert ("cell", "variable") in tokens and ("c", "variable") in tokens and ("in", "keyword") in tokens
    assert ("Hearts", "enumMember") in tokens and ("2", "number") in tokens and ("suit", "property") in tokens
    assert ("Foundation", "type") not in tokens  # a reference value is not an expression


def test_only_expression_strings_are_tokenised_and_a_broken_one_is_skipped() -> None:
    text = TEXT.replace(RULE, "adjacent(source, depot) &&")
    tokens = _tokens(text)
    assert ("adjacent", "function") not in tokens and ("any", "function") in tokens
    assert all(kind != "property" or name in ("rank", "suit", "color", "value", "faceUp") for name, kind in tokens)
    assert semantic_tokens(text.replace('"tools": "None"', '"tools": "None",'), None) == []


def test_the_encoding_is_relative_and_counts_utf16_units_after_an_emoji() -> None:
    text = TEXT.replace('"when": "adjacent', '"reason": "🃏", "when": "adjacent').replace(
        ',\n        "reason": "A card pairs with one of its rank that touches it"', "")
    emoji_line = next(line for line in text.splitlines() if "🃏" in line)
    assert "adjacent(" in emoji_line and len(emoji_line.encode("utf-16-le")) // 2 == len(emoji_line) + 1
    snapshot = Snapshot.of(text, SEED)
    tokens = semantic_tokens(text, snapshot.context)
    data = encode(tokens, TextIndex(text, Encoding.UTF16))
    assert len(data) == 5 * len(tokens)
    line = character = 0
    for i, token in enumerate(tokens):
        delta_line, delta_start, length, kind, _ = data[5 * i : 5 * i + 5]
        line += delta_line
        character = character + delta_start if delta_line == 0 else delta_start
        start = snapshot.index.position(token.start)
        assert (line, character) == (start.line, start.character)
        assert length == len(text[token.start:token.end].encode("utf-16-le")) // 2
        assert TOKEN_TYPES[kind] == token.type
