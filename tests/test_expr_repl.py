"""`cardz expr`: carets under the exact sub-expression, and evaluation on a deal."""

from __future__ import annotations

from cardz_tools.expr.repl import format_issue, initial_piles, run_expr
from cardz_tools.expr import ExprIssue

from tests.expr_support import GAMES, seed_design


def test_caret_sits_under_the_sub_expression() -> None:
    text = "count(depot) == card"
    result = run_expr(text, "trigger", GAMES / "monte-carlo.cardz")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("error[CZ406]")
    assert lines[1] == "  " + text
    assert lines[2] == "  " + " " * text.index("card") + "^^^^"


def test_caret_at_the_end_for_a_missing_operand() -> None:
    issue = ExprIssue("CZ400", "expected an operand after '&&'", 4, 5)
    assert format_issue("a &&", issue).splitlines()[2] == "      ^"


def test_warnings_do_not_fail() -> None:
    result = run_expr("card.rank == top.rank", "accept", None)
    assert result.exit_code == 0
    assert "warning[CZ408]" in result.output and "ok: accept expression of type Bool" in result.output


def test_bad_site_and_seed_without_design_are_usage_errors() -> None:
    assert run_expr("true", "nowhere").exit_code == 2
    assert run_expr("true", "win", None, seed=1).exit_code == 2


def test_evaluation_on_a_deal_lists_the_pairs_that_touch() -> None:
    result = run_expr("adjacent(source, depot) && !empty(depot) && card.rank == top.rank", "accept",
                      GAMES / "monte-carlo.cardz", seed=3)
    assert result.exit_code == 0
    piles = initial_piles(seed_design("monte-carlo"), 3)
    assert [len(p) for p in piles] == [1] * 25 + [27, 0]
    pairs = [line for line in result.output.splitlines() if "->" in line and "cell[" in line]
    for line in pairs:
        source = int(line.split("[")[1].split("]")[0])
        for target in line.split("->")[1].split(","):
            depot = int(target.strip()[5:-1])
            assert abs(source % 5 - depot % 5) <= 1 and abs(source // 5 - depot // 5) <= 1
            assert piles[source][-1] & 0x0F == piles[depot][-1] & 0x0F


def test_weathervane_score_of_a_fresh_deal() -> None:
    result = run_expr("sum(Tableau, count(it)) - count(stock, empty(Tableau))", "scoring",
                      GAMES / "weathervane.cardz", seed=1)
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == "value: 42"
