"""Properties: printing and parsing agree on well-typed trees; no input crashes the parser or checker."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_tools.expr import ExprSyntaxError, Site, check, parse, to_source
from cardz_tools.expr.ast import Binary, BoolLit, Call, Conditional, Field, Index, IntLit, Name, Node, Unary
from cardz_tools.expr.types import BOOL, INT, RANK, Kind, Type

from tests.expr_support import seed_env

ENV = seed_env("monte-carlo")
SITE = Site.TRIGGER  # depot, top, plus Monte Carlo's cell, stock, discard
RANK_NAMES = ["Ace", "Five", "King"]
VARS = ["c", "d"]

Scope = tuple[tuple[str, Kind], ...]  # binder variables in scope, innermost last


def depots(scope: Scope) -> st.SearchStrategy[Node]:
    options: list[st.SearchStrategy[Node]] = [
        st.sampled_from([Name("depot"), Name("stock"), Name("discard")]),
        st.integers(0, 24).map(lambda i: Index(Name("cell"), IntLit(i))),
    ]
    bound = [name for name, kind in scope if kind is Kind.DEPOT]
    if bound:
        options.append(st.sampled_from(bound).map(Name))
    return st.one_of(options)


def groups() -> st.SearchStrategy[Node]:
    return st.sampled_from([Name("cell"), Name("Tableau"), Name("Foundation")])


def binder(scope: Scope, func: str, depth: int,
           kind: Type) -> st.SearchStrategy[Node]:
    @st.composite
    def build(draw: st.DrawFn) -> Node:
        var = draw(st.sampled_from([None, *VARS]))
        inner = scope + (((var or "it"), Kind.DEPOT),)
        return Call(func, (draw(groups()), draw(expr(kind, inner, depth - 1))), var)

    return build()


def expr(kind: Type, scope: Scope = (), depth: int = 4) -> st.SearchStrategy[Node]:
    """Well-typed trees of ``kind`` at the trigger site of Monte Carlo."""
    if kind == INT:
        leaves: st.SearchStrategy[Node] = st.one_of(
            st.integers(0, 30).map(IntLit), depots(scope).map(lambda d: Call("count", (d,))),
            depots(scope).map(lambda d: Call("index", (d,))))
        if depth <= 0:
            return leaves
        sub = expr(INT, scope, depth - 1)
        return st.one_of(
            leaves,
            st.tuples(st.sampled_from(["+", "-", "*"]), sub, sub).map(lambda t: Binary(t[0], t[1], t[2])),
            st.tuples(st.sampled_from(["/", "%"]), sub, st.integers(1, 5).map(IntLit)).map(
                lambda t: Binary(t[0], t[1], t[2])),
            sub.map(lambda n: Unary("-", n)),
            sub.map(lambda n: Call("abs", (n,))),
            st.tuples(sub, sub).map(lambda t: Call("max", t)),
            st.tuples(expr(BOOL, scope, depth - 1), sub, sub).map(lambda t: Conditional(*t)),
            expr(RANK, scope, depth - 1).flatmap(lambda r: st.just(Binary("-", r, Name("Ace")))),
            binder(scope, "sum", depth, INT),
            binder(scope, "count", depth, BOOL),
        )
    if kind == RANK:
        leaves = st.one_of(st.sampled_from(RANK_NAMES).map(Name), st.just(Field(Name("top"), "rank")))
        if depth <= 0:
            return leaves
        return st.one_of(leaves, st.tuples(leaves, st.sampled_from(["+", "-"]), st.integers(0, 3).map(IntLit)).map(
            lambda t: Binary(t[1], t[0], t[2])))
    # Bool
    leaves = st.one_of(
        st.booleans().map(BoolLit),
        depots(scope).map(lambda d: Call("empty", (d,))),
        st.tuples(depots(scope), depots(scope)).map(lambda t: Call("adjacent", t)),
        st.tuples(depots(scope), groups()).map(lambda t: Binary("in", t[0], t[1])),
    )
    if depth <= 0:
        return leaves
    sub = expr(BOOL, scope, depth - 1)
    ints = expr(INT, scope, depth - 1)
    return st.one_of(
        leaves,
        st.tuples(st.sampled_from(["&&", "||", "==", "!="]), sub, sub).map(lambda t: Binary(t[0], t[1], t[2])),
        sub.map(lambda n: Unary("!", n)),
        st.tuples(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), ints, ints).map(
            lambda t: Binary(t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["<", "=="]), expr(RANK, scope, depth - 1), expr(RANK, scope, depth - 1)).map(
            lambda t: Binary(t[0], t[1], t[2])),
        st.tuples(sub, sub, sub).map(lambda t: Conditional(*t)),
        binder(scope, "any", depth, BOOL),
        binder(scope, "all", depth, BOOL),
    )


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(st.sampled_from([BOOL, INT]).flatmap(lambda kind: st.tuples(st.just(kind), expr(kind))))
def test_well_typed_trees_survive_print_parse_check(case: tuple[Type, Node]) -> None:
    kind, node = case
    text = to_source(node)
    reparsed = parse(text)
    assert reparsed == node
    assert to_source(reparsed) == text
    site = Site.TRIGGER if kind == BOOL else Site.COUNT
    checked = check(text, site, ENV)
    assert [i for i in checked.issues if i.severity.value == "error"] == [], (text, checked.issues)
    assert checked.type == kind
    for issue in checked.issues:
        assert 0 <= issue.start <= issue.end <= len(text)


EXPRESSION_ALPHABET = st.sampled_from(list("()[]!&|=<>+-*/%?:,. 0129") + ["it", "in", "cell", "count", "top",
                                                                           "rank", "any", "c", "true", "Ace"])


@PROPERTY_SETTINGS
@given(st.lists(EXPRESSION_ALPHABET, max_size=40).map("".join))
def test_token_soup_gives_issues_never_exceptions(text: str) -> None:
    for site in (Site.TRIGGER, Site.SCORING, Site.ACCEPT):
        checked = check(text, site, ENV)
        for issue in checked.issues:
            assert issue.code.startswith("CZ4")
            assert 0 <= issue.start <= issue.end


@PROPERTY_SETTINGS
@given(st.text(max_size=60))
def test_any_text_gives_issues_never_exceptions(text: str) -> None:
    checked = check(text, Site.ACCEPT, ENV)
    assert checked.ok or checked.issues
    try:
        parse(text)
    except ExprSyntaxError as error:
        assert error.start >= 0


@settings(max_examples=40, deadline=None)
@given(st.integers(101, 1500), st.sampled_from(["(", "!", "-", "abs(", "any(cell, "]))
def test_deep_nesting_is_cz410(depth: int, opener: str) -> None:
    closer = {"(": ")", "abs(": ")", "any(cell, ": ")"}.get(opener, "")
    text = opener * depth + "1" + closer * depth
    if len(text) > 4000:
        text = text[:4001]
    checked = check(text, Site.SCORING, ENV)
    assert [i.code for i in checked.issues] == ["CZ410"] or checked.issues[0].code in ("CZ400", "CZ410")
    if len(text) <= 4000:
        assert [i.code for i in checked.issues] == ["CZ410"]
