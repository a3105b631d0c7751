"""Properties: printing and parsing agree on well-typed trees; no input crashes the parser or checker."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_tools.cards import make_card
from cardz_tools.expr import ExprSyntaxError, Site, check, compile_expr, parse, to_source
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


PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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


# ---------------------------------------------------------------- compiled == interpreted

class Interpreter:
    """A deliberately plain reading of docs/format.md for the trees generated above."""

    def __init__(self, piles: list[list[int]], depot: int) -> None:
        self.piles = piles
        self.scope: dict[str, object] = {"depot": depot}

    def run(self, node: Node) -> object:
        return getattr(self, type(node).__name__)(node)

    def IntLit(self, node: IntLit) -> object:
        return node.value

    def BoolLit(self, node: BoolLit) -> object:
        return node.value

    def Name(self, node: Name) -> object:
        if node.name in self.scope:
            return self.scope[node.name]
        if node.name == "top":
            pile = self.piles[self.scope["depot"]]  # type: ignore[index]
            return pile[-1] if pile else None
        if node.name in ENV.depots:
            return ENV.depots[node.name]
        if node.name in ENV.groups:
            return ENV.groups[node.name]
        return {"Ace": 1, "Five": 5, "King": 13}[node.name]

    def Field(self, node: Field) -> object:
        value = self.run(node.value)
        return 15 if value is None else value & 0x0F  # type: ignore[operator]

    def Index(self, node: Index) -> object:
        return self.run(node.value)[self.run(node.index)]  # type: ignore[index]

    def Unary(self, node: Unary) -> object:
        value = self.run(node.operand)
        return (not value) if node.op == "!" else -value  # type: ignore[operator]

    def Conditional(self, node: Conditional) -> object:
        return self.run(node.then) if self.run(node.test) else self.run(node.otherwise)

    def Binary(self, node: Binary) -> object:
        op = node.op
        if op == "&&":
            return bool(self.run(node.left)) and bool(self.run(node.right))
        if op == "||":
            return bool(self.run(node.left)) or bool(self.run(node.right))
        a, b = self.run(node.left), self.run(node.right)
        if op == "in":
            return a in b  # type: ignore[operator]
        rank_sides = self.is_rank(node.left), self.is_rank(node.right)
        if op in ("+", "-") and rank_sides[0] != rank_sides[1]:
            rank, n = (a, b) if rank_sides[0] else (b, a)
            total = None if rank is None else rank + (n if op == "+" else -n)  # type: ignore[operator]
            return total if rank is not None and 1 <= rank <= 13 and 1 <= total <= 13 else None  # type: ignore
        if op == "-" and all(rank_sides):
            return 0 if a is None or b is None else a - b  # type: ignore[operator]
        if a is None or b is None:  # a rank that is no rank equals nothing
            return op == "!="
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b,
                "%": lambda: a % b, "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b}[op]()  # type: ignore

    def is_rank(self, node: Node) -> bool:
        if isinstance(node, Name):
            return node.name in ("Ace", "Five", "King")
        if isinstance(node, Field):
            return True
        if not (isinstance(node, Binary) and node.op in ("+", "-")):
            return False
        return self.is_rank(node.left) != self.is_rank(node.right)

    def Call(self, node: Call) -> object:
        args = node.args
        if node.func in ("any", "all", "sum", "count") and len(args) == 2:
            values = []
            for member in self.run(args[0]):  # type: ignore[attr-defined]
                saved = dict(self.scope)
                self.scope[node.var or "it"] = member
                values.append(self.run(args[1]))
                self.scope = saved
            return {"any": any, "all": all, "sum": sum, "count": lambda v: sum(1 for x in v if x)}[node.func](values)
        values = [self.run(a) for a in args]
        if node.func == "count":
            return len(self.piles[values[0]])  # type: ignore[index]
        if node.func == "empty":
            return not self.piles[values[0]]  # type: ignore[index]
        if node.func == "index":
            return values[0] if values[0] < 25 else 0  # type: ignore[operator]
        if node.func == "adjacent":
            a, b = values
            if a == b:
                return False
            (ca, ra), (cb, rb) = ENV.board[a], ENV.board[b]  # type: ignore[index]
            return abs(ca - cb) <= 1 and abs(ra - rb) <= 1
        if node.func == "abs":
            return abs(values[0])  # type: ignore[arg-type]
        return max(values)  # type: ignore[type-var]


CARDS = st.builds(make_card, st.integers(1, 13), st.integers(0, 3), st.booleans())
PILES = st.lists(st.lists(CARDS, max_size=3), min_size=27, max_size=27)


@PROPERTY_SETTINGS
@given(expr(BOOL), PILES, st.integers(0, 26))
def test_compiled_conditions_agree_with_a_plain_interpreter(node: Node, piles: list[list[int]], depot: int) -> None:
    checked = check(to_source(node), Site.TRIGGER, ENV)
    fn = compile_expr(checked, ENV)
    assert fn(piles, None, depot) == Interpreter(piles, depot).run(node), to_source(node)


@PROPERTY_SETTINGS
@given(expr(INT), PILES, st.integers(0, 26))
def test_compiled_numbers_agree_with_a_plain_interpreter(node: Node, piles: list[list[int]], depot: int) -> None:
    checked = check(to_source(node), Site.COUNT, ENV)
    fn = compile_expr(checked, ENV)
    result = fn(piles, None, depot)
    assert result == Interpreter(piles, depot).run(node), to_source(node)
    assert isinstance(result, int)
