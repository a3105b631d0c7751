"""Type checking: the seeds are clean, and each diagnostic says what and where."""

from __future__ import annotations

import pytest

from cardz_tools.diagnostics import RULES, Severity
from cardz_tools.expr import DesignEnv, Site, check, check_design
from cardz_tools.expr.types import BOOL, INT
from cardz_tools.model import build_design
from tests.expr_support import seed_design, seed_env

MC = "monte-carlo"


@pytest.mark.parametrize("name", ["monte-carlo", "weathervane"])
def test_seed_designs_have_no_expression_diagnostics(name: str) -> None:
    assert check_design(seed_design(name)) == []


@pytest.mark.parametrize(
    ("name", "text", "site", "type_"),
    [
        (MC, "adjacent(source, depot) && !empty(depot) && card.rank == top.rank", Site.ACCEPT, BOOL),
        (MC, "count(depot) == 2", Site.TRIGGER, BOOL),
        (MC, "2", Site.COUNT, INT),
        (MC, "any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) && !empty(c))))",
         Site.ACTION, BOOL),
        (MC, "count(discard)", Site.SCORING, INT),
        ("weathervane", "sum(Tableau, count(it)) - count(stock, empty(Tableau))", Site.SCORING, INT),
    ],
)
def test_seed_expressions_type_check_with_zero_diagnostics(name: str, text: str, site: Site, type_: object) -> None:
    checked = check(text, site, seed_env(name))
    assert checked.issues == ()
    assert checked.type == type_


def test_check_design_visits_every_site_with_its_pointer() -> None:
    design = build_design({
        "name": "All sites",
        "depots": [
            {"name": "stock", "type": "Stock"},
            {"name": "pile", "type": "Tableau", "repeat": 2,
             "acceptRule": {"when": "cardz"}, "ejectRule": {"when": "cardz"},
             "actions": [{"name": "a", "when": "cardz", "do": [{"kind": "move", "from": "@self", "to": "stock",
                                                                 "count": "cardz"}]}],
             "triggers": [{"when": "cardz", "do": [{"kind": "move", "from": "@self", "to": "stock",
                                                   "count": "cardz"}]}]},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "pile", "faceUp": "cardz", "faceDown": "cardz"}],
        "winCondition": {"kind": "when", "when": "cardz"},
        "lossCondition": {"kind": "when", "when": "cardz"},
        "scoring": {"value": "cardz"},
    })
    issues = check_design(design)
    assert {i.code for i in issues} == {"CZ401"}
    assert all((i.start, i.end) == (0, 5) for i in issues)
    assert sorted(i.pointer for i in issues) == sorted([
        "/depots/1/acceptRule/when", "/depots/1/ejectRule/when", "/depots/1/actions/0/when",
        "/depots/1/actions/0/do/0/count", "/depots/1/triggers/0/when", "/depots/1/triggers/0/do/0/count",
        "/dealRules/0/faceUp", "/dealRules/0/faceDown", "/winCondition/when", "/lossCondition/when",
        "/scoring/value",
    ])


def _only(text: str, site: Site, code: str, env: DesignEnv | None = None):  # type: ignore[no-untyped-def]
    checked = check(text, site, env if env is not None else seed_env(MC))
    matching = [i for i in checked.issues if i.code == code]
    assert len(matching) == 1, checked.issues
    issue = matching[0]
    assert issue.severity is RULES[code].severity
    return issue


def _span(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


def test_syntax_error_is_an_issue_not_an_exception() -> None:
    text = "count(depot) == "
    issue = _only(text, Site.TRIGGER, "CZ400")
    assert issue.start == len(text.rstrip())
    assert "expected an operand after '=='" in issue.message


def test_unknown_name_suggests_what_is_in_scope() -> None:
    text = "count(stok) > 0"
    issue = _only(text, Site.TRIGGER, "CZ401")
    assert (issue.start, issue.end) == _span(text, "stok")
    assert issue.hint == "did you mean 'stock'?"


def test_unknown_name_finds_ranks_suits_and_groups() -> None:
    assert _only("card.rank == ace", Site.ACCEPT, "CZ401").hint == "did you mean 'Ace'?"
    assert _only("card.suit == Heart", Site.ACCEPT, "CZ401").hint == "did you mean 'Hearts'?"
    assert _only("empty(Tablea)", Site.WIN, "CZ401").hint == "did you mean 'Tableau'?"


def test_unknown_field_suggests_a_field() -> None:
    text = "card.rnk == Ace"
    issue = _only(text, Site.ACCEPT, "CZ402")
    assert (issue.start, issue.end) == _span(text, "rnk")
    assert issue.hint == "did you mean 'rank'?"


def test_unknown_function_suggests_a_function() -> None:
    text = "cout(depot) == 2"
    issue = _only(text, Site.TRIGGER, "CZ403")
    assert (issue.start, issue.end) == _span(text, "cout")
    assert issue.hint == "did you mean 'count'?"


def test_wrong_arity_shows_the_signatures() -> None:
    text = "adjacent(depot) && true"
    issue = _only(text, Site.TRIGGER, "CZ404")
    assert (issue.start, issue.end) == _span(text, "adjacent(depot)")
    assert "adjacent(a: Depot, b: Depot) -> Bool" in issue.message


@pytest.mark.parametrize(
    ("text", "site", "part"),
    [
        ("count(depot) == top", Site.TRIGGER, "count(depot) == top"),
        ("true + 1 > 0", Site.WIN, "true + 1"),
        ("empty(Ace)", Site.WIN, "Ace"),
        ("count(discard) == 2 ? 1 : false", Site.SCORING, "count(discard) == 2 ? 1 : false"),
        ("count(discard)", Site.WIN, "count(discard)"),
    ],
)
def test_type_mismatch_points_at_the_wrong_part(text: str, site: Site, part: str) -> None:
    issue = _only(text, site, "CZ405")
    assert (issue.start, issue.end) == _span(text, part)


def test_rank_compared_with_int_has_the_hint() -> None:
    text = "!empty(depot) && card.rank == top.rank + 1 && card.rank > 3"
    issue = _only(text, Site.ACCEPT, "CZ405")
    assert (issue.start, issue.end) == _span(text, "card.rank > 3")
    assert issue.hint == "compare with a rank name like Ace, or use .value"


def test_rank_arithmetic_types() -> None:
    env = seed_env(MC)
    assert check("card.rank - Ace == 3", Site.ACCEPT, env).issues == ()
    assert check("King - Ace", Site.SCORING, env).issues == ()
    assert check("King - Ace", Site.SCORING, env).type == INT
    assert check("card.rank + 1 == King", Site.ACCEPT, env).issues == ()


def test_site_name_outside_its_site() -> None:
    text = "card.value + count(discard)"
    issue = _only(text, Site.SCORING, "CZ406")
    assert (issue.start, issue.end) == _span(text, "card")
    assert issue.message == "`card` is not available in scoring expressions; it exists in accept, eject and match rules"


def test_it_outside_a_binder() -> None:
    text = "count(it) > 0"
    issue = _only(text, Site.TRIGGER, "CZ407")
    assert (issue.start, issue.end) == _span(text, "it")


def test_named_binder_does_not_define_it() -> None:
    text = "any(c in cell, empty(it))"
    issue = _only(text, Site.WIN, "CZ407")
    assert (issue.start, issue.end) == _span(text, "it")


def test_maybe_absent_top_is_a_warning_at_the_value() -> None:
    text = "card.rank == top.rank"
    issue = _only(text, Site.ACCEPT, "CZ408")
    assert issue.severity is Severity.WARNING
    assert (issue.start, issue.end) == _span(text, "top")
    assert "!empty(depot)" in (issue.hint or "")


@pytest.mark.parametrize(
    "text",
    [
        "!empty(depot) && top.rank == Ace",
        "empty(depot) || top.rank == Ace",
        "!empty(depot) ? top.rank == Ace : false",
        "empty(depot) ? false : top.rank == Ace",
        "!empty(stock) && top(stock).rank == Ace",
        "count(depot) > 0 && top(depot).suit == Hearts",
        "count(depot) == 0 || top.suit == Hearts",
        "0 < count(depot) ? top.faceUp : false",
        "exists(top) && top.faceUp",
        "exists(left(depot)) && empty(left(depot))",
        "!(empty(depot) || empty(stock)) && top.rank == top(stock).rank",
        "any(c in cell, !empty(c) && top(c).rank == King)",
    ],
)
def test_guards_narrow_maybe_absent_values(text: str) -> None:
    assert check(text, Site.TRIGGER, seed_env(MC)).issues == ()


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("empty(depot) && top.rank == Ace", "top"),
        ("!empty(stock) && top.rank == Ace", "top"),
        ("!empty(depot) || top.rank == Ace", "top"),
        ("empty(left(depot))", "left(depot)"),
        ("count(depot) < 2 && top.rank == Ace", "top"),
        ("any(cell, !empty(it) && any(cell, top(it).rank == Ace))", "top(it)"),
    ],
)
def test_guards_that_do_not_hold_still_warn(text: str, part: str) -> None:
    issue = _only(text, Site.TRIGGER, "CZ408")
    assert (issue.start, issue.end) == _span(text, part)


@pytest.mark.parametrize(
    ("text", "part", "value"),
    [
        ("1 == 1", "1 == 1", "true"),
        ("count(depot) > 0 || true", "count(depot) > 0 || true", "true"),
        ("count(depot) == 2 && Ace > King", "Ace > King", "false"),
        ("adjacent(cell[4], cell[5]) || empty(depot)", "adjacent(cell[4], cell[5])", "false"),
    ],
)
def test_constant_conditions_warn(text: str, part: str, value: str) -> None:
    issue = _only(text, Site.TRIGGER, "CZ409")
    assert (issue.start, issue.end) == _span(text, part)
    assert issue.message.endswith(value)


def test_literal_true_is_a_deliberate_condition() -> None:
    assert check("true", Site.TRIGGER, seed_env(MC)).issues == ()


@pytest.mark.parametrize("text", ["(" * 200 + "true" + ")" * 200, "x" * 5000])
def test_bounds_are_cz410(text: str) -> None:
    checked = check(text, Site.WIN)
    assert [i.code for i in checked.issues] == ["CZ410"]
    assert checked.node is None and not checked.ok


def test_member_index_out_of_range() -> None:
    text = "empty(cell[25])"
    issue = _only(text, Site.WIN, "CZ405")
    assert (issue.start, issue.end) == _span(text, "25")
    assert "cell[0] .. cell[24]" in issue.message


def test_all_is_a_whole_count_only() -> None:
    env = seed_env(MC)
    assert check("all", Site.COUNT, env).issues == ()
    assert _only("all - 1", Site.COUNT, "CZ405").start == 0
    assert _only("all", Site.SCORING, "CZ406").start == 0
