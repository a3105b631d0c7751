"""`cardz expr`: carets under the exact sub-expression, and evaluation on a deal."""

from __future__ import annotations

from cardz_tools.engine import Game
from cardz_tools.expr import ExprIssue
from cardz_tools.repl import format_issue, run_expr
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
    piles = Game(seed_design("monte-carlo")).new_initial_state(seed=3).piles
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


def test_cli_command_prints_carets_and_exits_with_the_status() -> None:
    from typer.testing import CliRunner

    from cardz_tools.cli import app

    runner = CliRunner()
    bad = runner.invoke(app, ["expr", "count(discard) + card.value", "--site", "scoring",
                              "--design", str(GAMES / "monte-carlo.cardz")])
    assert bad.exit_code == 1
    assert "error[CZ406]" in bad.output and "^^^^" in bad.output
    good = runner.invoke(app, ["expr", "count(discard)", "-s", "scoring", "-d", str(GAMES / "monte-carlo.cardz"),
                               "--seed", "5"])
    assert good.exit_code == 0
    assert good.output.rstrip().endswith("value: 0")
    missing = runner.invoke(app, ["expr", "true", "--design", "no-such-file.cardz"])
    assert missing.exit_code == 2


def test_a_design_with_errors_gives_names_but_no_deal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    design = tmp_path / "bad.cardz"
    design.write_text('{"name": "Bad", "depots": [{"name": "stock", "type": "Stock", '
                      '"acceptRule": {"when": "card.rnk == Ace"}}], '
                      '"winCondition": {"kind": "allCardsIn", "depots": "stock"}}', encoding="utf-8")
    checked = run_expr("count(stock) > 0", "win", design)
    assert checked.exit_code == 0
    dealt = run_expr("count(stock) > 0", "win", design, seed=1)
    assert dealt.exit_code == 1
    assert "CZ402" in dealt.output and "rank" in dealt.output
