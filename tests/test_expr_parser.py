"""Parsing: the seeds' expressions, precedence, binders, offsets, readable errors and bounds."""

from __future__ import annotations

import pytest

from cardz_tools.expr import MAX_DEPTH, MAX_LENGTH, ExprSyntaxError, ExprTooComplex, parse, to_source
from cardz_tools.expr.ast import Binary, Call, Conditional, Field, Index, Name, Unary, names, walk

SEED_EXPRESSIONS = [
    "adjacent(source, depot) && !empty(depot) && card.rank == top.rank",
    "count(depot) == 2",
    "2",
    "any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) && !empty(c))))",
    "count(discard)",
    "sum(Tableau, count(it)) - count(stock, empty(Tableau))",
]


@pytest.mark.parametrize("text", SEED_EXPRESSIONS)
def test_seed_expressions_parse_and_print_back_unchanged(text: str) -> None:
    node = parse(text)
    assert to_source(node) == text
    assert parse(to_source(node)) == node


def test_precedence_lowest_first() -> None:
    node = parse("a || b && c == d < e in g + f * h")
    assert isinstance(node, Binary) and node.op == "||"
    chain = node.right
    ops = []
    while isinstance(chain, Binary):
        ops.append(chain.op)
        chain = chain.right
    assert ops == ["&&", "==", "<", "in", "+", "*"]


def test_conditional_is_loosest_and_right_associative() -> None:
    node = parse("a || b ? c : d ? e : f")
    assert isinstance(node, Conditional)
    assert isinstance(node.test, Binary) and node.test.op == "||"
    assert isinstance(node.otherwise, Conditional)


def test_binary_operators_group_left_to_right() -> None:
    node = parse("1 - 2 - 3")
    assert isinstance(node, Binary) and isinstance(node.left, Binary)
    assert to_source(parse("1 - (2 - 3)")) == "1 - (2 - 3)"


def test_postfix_binds_tighter_than_unary() -> None:
    node = parse("!cell[3].faceUp")
    assert isinstance(node, Unary)
    assert isinstance(node.operand, Field) and isinstance(node.operand.value, Index)


def test_named_binder_and_implicit_it() -> None:
    named = parse("any(c in cell, empty(c))")
    assert isinstance(named, Call) and named.var == "c" and named.args[0] == Name("cell")
    implicit = parse("any(cell, empty(it))")
    assert isinstance(implicit, Call) and implicit.var is None


def test_parenthesised_in_stays_a_condition() -> None:
    node = parse("any((d in cell), true)")
    assert isinstance(node, Call) and node.var is None
    assert isinstance(node.args[0], Binary)
    assert parse(to_source(node)) == node


def test_offsets_cover_each_subexpression() -> None:
    text = "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"
    spans = {to_source(n): text[n.start:n.end] for n in walk(parse(text))}
    for source, covered in spans.items():
        assert covered == source
    top = next(n for n in walk(parse(text)) if isinstance(n, Name) and n.name == "top")
    assert (top.start, top.end) == (text.index("top"), text.index("top") + 3)


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("a &&", "expected an operand after '&&'", 4),
        ("a && )", "expected an operand after '&&', found ')'", 5),
        ("(a", "'(' is not closed", 2),
        ("a = b", "unexpected character '='", 2),
        ("count(x,", "expected an operand after ','", 8),
        ("a b", "unexpected 'b'; expected an operator", 2),
        ("", "the expression is empty", 0),
    ],
)
def test_syntax_errors_read_like_sentences(text: str, message: str, at: int) -> None:
    with pytest.raises(ExprSyntaxError) as caught:
        parse(text)
    assert message in caught.value.message
    assert caught.value.start == at
    assert "ANDAND" not in caught.value.message and "$END" not in caught.value.message


def test_syntax_error_hints_for_words_from_other_languages() -> None:
    with pytest.raises(ExprSyntaxError) as caught:
        parse("empty(a) and empty(b)")
    assert caught.value.hint is not None and "&&" in caught.value.hint
    with pytest.raises(ExprSyntaxError) as caught:
        parse("a = b")
    assert caught.value.hint is not None and "==" in caught.value.hint


@pytest.mark.parametrize(
    "text",
    ["(" * 3000 + "1" + ")" * 3000, "!" * 3999 + "x", "-" * 3999 + "1", "+".join(["1"] * 1500),
     "f(" * 1300 + "1" + ")" * 1300, "x" + ".rank" * 700, "x" * (MAX_LENGTH + 1)],
)
def test_deep_or_long_input_is_too_complex_not_a_recursion_error(text: str) -> None:
    with pytest.raises(ExprTooComplex) as caught:
        parse(text)
    assert caught.value.code == "CZ410"


def test_nesting_just_under_the_bound_parses() -> None:
    depth = MAX_DEPTH - 1
    node = parse("!" * (depth - 1) + "x")
    assert node.depth == depth


def test_parser_works_when_the_cache_cannot_be_written(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import tempfile

    from cardz_tools.expr import parser as parser_module

    # A file where the cache directory should be: no one, not even root, can write under it.
    not_a_dir = tmp_path / "not-a-directory"
    not_a_dir.write_text("")
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(not_a_dir))
    parser_module._parser.cache_clear()
    try:
        assert to_source(parse("count(depot) == 2")) == "count(depot) == 2"
    finally:
        parser_module._parser.cache_clear()


def test_names_lists_what_a_rule_reads_with_members_and_skipped_parts() -> None:
    tree = parse("count(tab[2]) > 1 && source == waste || card.rank == King")
    assert names(tree) == {"count", "tab", "source", "waste", "card", "rank", "King"}
    assert names(tree, members=True) == names(tree) | {"tab[2]"}
    comparison = parse("source == waste")
    assert names(tree, skip=lambda part: part == comparison) == {"count", "tab", "card", "rank", "King"}
    assert names(parse("true || 3 > 2")) == set()  # literals are not names
