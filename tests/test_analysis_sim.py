"""cardz sim, solve and check on the seed games and on designs built to be broken."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardz_tools.analysis.check import CheckOptions, check_paths, finding_diagnostic, play_analysis
from cardz_tools.analysis.findings import Finding, FindingKind
from cardz_tools.analysis.playout import can_end, deal_seed, play_seed, position_at_bound
from cardz_tools.analysis.runner import game_for
from cardz_tools.analysis.sim import simulate
from cardz_tools.analysis.solve import solve, solve_state
from cardz_tools.cli import app
from cardz_tools.diagnostics import RULES, Severity
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.model import build_design
from cardz_tools.source import load_source
from tests.reference_games import monte_carlo_playout, weathervane_playout

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "games"
BROKEN = Path(__file__).parent / "examples" / "analysis"


def design_text(path: Path) -> str:
    return open_design(path).json_text


def kinds(report) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {f.kind.value: f.severity for f in report.findings}


@pytest.mark.parametrize(
    ("file", "reference"),
    [("monte-carlo.cardz", monte_carlo_playout), ("weathervane.cardz", weathervane_playout)],
)
def test_engine_playouts_agree_with_hand_written_rules(file: str, reference) -> None:  # type: ignore[no-untyped-def]
    """The hand-written playouts list moves in the engine's order and draw the same random
    numbers, so the generic engine must play exactly the same games."""
    n = 600
    engine = simulate(design_text(GAMES / file), n, seed=11, workers=1).aggregate
    results = [reference(deal_seed(11, i), play_seed(11, i)) for i in range(n)]
    assert engine.wins == sum(r[0] for r in results)
    assert engine.score_total == sum(r[1] for r in results)
    assert engine.moves_total == sum(r[2] for r in results)
    assert Counter(r[1] for r in results) == engine.scores


def test_same_report_whatever_the_number_of_workers() -> None:
    text = design_text(GAMES / "monte-carlo.cardz")
    one = simulate(text, 120, seed=5, workers=1).to_dict()
    two = simulate(text, 120, seed=5, workers=2).to_dict()
    for volatile in ("elapsed_s", "playouts_per_s"):
        one.pop(volatile)
        two.pop(volatile)
    assert one == two


def test_sim_json_has_the_documented_keys() -> None:
    result = CliRunner().invoke(
        app, ["sim", str(GAMES / "weathervane.cardz"), "-n", "40", "--seed", "2", "-w", "1", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for key in (
        "game",
        "playouts",
        "seed",
        "wins",
        "win_rate",
        "win_rate_interval",
        "stuck_at_deal",
        "non_terminating",
        "mean_moves",
        "mean_score",
        "score_stdev",
        "decision_share",
        "rule_fires",
        "findings",
        "elapsed_s",
        "playouts_per_s",
    ):
        assert key in report
    assert report["playouts"] == 40 and report["seed"] == 2
    low, high = report["win_rate_interval"]
    assert 0 <= low <= report["win_rate"] <= high <= 1
    assert report["rule_fires"]["draw:stock"] > 0


@pytest.mark.parametrize("file", ["monte-carlo.cardz", "weathervane.cardz"])
def test_seed_games_have_no_error_finding(file: str) -> None:
    report = simulate(design_text(GAMES / file), 300, seed=1, workers=1)
    assert not [f for f in report.findings if f.severity == "error"]
    assert report.aggregate.non_terminating == 0
    # Monte Carlo deals with no touching pair are really stuck (about 2%): a warning, not an error.
    assert report.aggregate.stuck_at_deal < 0.05 * 300


def test_a_design_where_no_pair_forms_is_stuck_at_every_deal() -> None:
    report = simulate(design_text(BROKEN / "no-pairs.cardz"), 50, workers=1)
    assert kinds(report)["stuck-at-deal"] == "error"
    assert report.aggregate.stuck_at_deal == 50


def test_a_design_where_any_card_plays_is_always_won() -> None:
    report = simulate(design_text(BROKEN / "any-card.cardz"), 100, workers=1)
    assert kinds(report)["always-won"] == "warning"
    message = next(f.message for f in report.findings if f.kind is FindingKind.ALWAYS_WON)
    assert "won 100 of 100 playouts" in message and "95% CI 96.3–100.0%" in message


def test_always_won_waits_until_the_interval_supports_it() -> None:
    # 40 of 40 won: the 95% interval reaches down to 91%, short of the 95% threshold.
    report = simulate(design_text(BROKEN / "any-card.cardz"), 40, workers=1)
    assert report.aggregate.wins == 40
    assert "always-won" not in kinds(report)


def test_triggers_that_hand_a_card_back_and_forth_are_non_terminating() -> None:
    report = simulate(design_text(BROKEN / "ping-pong.cardz"), 10, workers=1)
    assert kinds(report)["non-terminating"] == "error"
    assert report.aggregate.non_terminating == 10


def test_a_game_that_can_never_end_is_a_non_terminating_error() -> None:
    report = simulate(design_text(BROKEN / "shuttle.cardz"), 6, workers=1, max_moves=200)
    finding = next(f for f in report.findings if f.kind is FindingKind.NON_TERMINATING)
    assert finding.severity == "error"
    assert "no sequence of moves from the deal ends the game" in finding.message and "left" in finding.message
    assert report.aggregate.bound_indexes == (0, 1, 2)  # the lowest indexes, whatever the workers


def test_can_end_tells_an_endless_position_from_one_that_can_still_end() -> None:
    endless = game_for(design_text(BROKEN / "shuttle.cardz"))
    assert can_end(position_at_bound(endless, 0, 0, 50)) is False
    klondike = game_for(design_text(GAMES / "klondike.cardz"))
    state = klondike.new_initial_state(seed=3)
    assert can_end(state, budget=50) is None  # Klondike can end, but not within 50 positions
    golf = game_for(design_text(GAMES / "golf.cardz"))
    assert can_end(golf.new_initial_state(seed=3)) is True  # Golf always ends: the stock runs out


def test_the_step_bound_reports_the_repeating_moves() -> None:
    design = json.loads(design_text(BROKEN / "any-card.cardz"))
    # Let cards go back from the pile: the game can now cycle for ever.
    design["depots"][1]["ejectRule"] = "topOnly"
    design["depots"][0]["acceptRule"] = "any"
    report = simulate(json.dumps(design), 5, workers=1, max_moves=300)
    finding = next(f for f in report.findings if f.kind is FindingKind.NON_TERMINATING)
    assert "→" in finding.message or "->" in finding.message or "tab" in finding.message


def test_solver_wins_a_weathervane_deal_and_the_line_replays() -> None:
    game = Game(open_design(GAMES / "weathervane.cardz").design)
    state = game.new_initial_state(seed=deal_seed(0, 0))
    result, line, nodes = solve_state(state.clone(), budget=50_000)
    assert result == "won" and nodes > 1
    replay = state.clone()
    for move in line:
        assert move in replay.legal_moves()
        replay.apply(move)
    assert replay.is_terminal() and replay.outcome().won


def test_solver_proves_the_no_pairs_design_unwinnable() -> None:
    report = solve(design_text(BROKEN / "no-pairs.cardz"), 3, workers=1, budget=1000)
    assert report.count("lost") == 3
    assert {f.kind for f in report.findings} == {FindingKind.UNWINNABLE}
    data = report.to_dict()
    assert data["interval"][0] == 0.0 and data["winnability"] == 0.0


def test_solve_interval_counts_unknown_both_ways() -> None:
    report = solve(design_text(GAMES / "monte-carlo.cardz"), 3, budget=5, workers=1)
    data = report.to_dict()
    assert data["unknown"] == 3 and data["winnability"] is None
    assert data["interval"][0] == 0.0 and data["interval"][1] == 1.0


def test_check_reports_findings_as_diagnostics_at_the_rule() -> None:
    options = CheckOptions(playouts=30, deals=2, budget=500)
    result = check_paths([BROKEN / "no-pairs.cardz"], options=options)
    codes = {d.code: d for d in result.diagnostics}
    assert codes["CZ501"].pointer == "/dealRules" and codes["CZ501"].line == 11
    assert codes["CZ503"].severity.value == "error"
    assert result.exit_code == 1
    clean = check_paths([GAMES / "monte-carlo.cardz", GAMES / "weathervane.cardz"], options=options)
    assert clean.exit_code == 0, [d.message for d in clean.diagnostics]


def test_each_finding_kind_is_the_cz5xx_diagnostic_of_its_name_and_serialises_as_plain_text() -> None:
    for kind in FindingKind:
        rule = RULES[kind.code]
        assert rule.name == kind.value and rule.code.startswith("CZ5")
    finding = Finding(FindingKind.FORCED_PLAY, Severity.WARNING, "only 1 of 9", "/depots/0")
    assert json.dumps(finding.to_dict()) == '{"kind": "forced-play", "severity": "warning", "message": "only 1 of 9"}'
    assert f"{finding.severity:<7}|{finding.kind}" == "warning|forced-play"
    monte = GAMES / "monte-carlo.cardz"
    diagnostic = finding_diagnostic(finding, build_design(json.loads(design_text(monte))), load_source(monte))
    assert (diagnostic.code, diagnostic.severity, diagnostic.pointer) == ("CZ505", Severity.WARNING, "/depots/0")


def test_a_rule_that_never_fires_is_reported_at_that_rule(tmp_path: Path) -> None:
    design = json.loads(design_text(BROKEN / "any-card.cardz"))
    design["depots"][1]["triggers"] = [
        {"when": "count(pile) == 60", "do": [{"kind": "flip", "depot": "@self"}]}  # 52 cards: never
    ]
    path = tmp_path / "never.cardz"
    path.write_text(json.dumps(design, indent=2), encoding="utf-8")
    result = check_paths([path], options=CheckOptions(playouts=5, deals=0))
    never = [d for d in result.diagnostics if d.code == "CZ507"]
    assert [d.pointer for d in never] == ["/depots/1/triggers/0"]
    assert "trigger" in never[0].message


def test_check_cli_exit_codes_and_json() -> None:
    runner = CliRunner()
    bad = runner.invoke(
        app, ["check", str(BROKEN / "ping-pong.cardz"), "--playouts", "5", "--deals", "1", "--format", "json"]
    )
    assert bad.exit_code == 1
    found = json.loads(bad.stdout)["diagnostics"]
    assert any(d["code"] == "CZ506" and d["name"] == "non-terminating" for d in found)


def test_dask_cluster_gives_the_same_report() -> None:
    distributed = pytest.importorskip("distributed")
    text = design_text(GAMES / "monte-carlo.cardz")
    local = simulate(text, 60, seed=9, workers=1).to_dict()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        remote = simulate(text, 60, seed=9, scheduler=cluster.scheduler_address).to_dict()
    for volatile in ("elapsed_s", "playouts_per_s"):
        local.pop(volatile)
        remote.pop(volatile)
    assert local == remote


def test_a_time_budget_bounds_check_and_still_plays_and_solves() -> None:
    import time

    from cardz_tools.analysis.check import play_analysis

    text = design_text(GAMES / "klondike.cardz")
    options = CheckOptions(playouts=1_000_000, deals=2, seconds=1.0, max_moves=500)
    assert options.node_budget > CheckOptions().node_budget  # the clock decides, not a small position count
    started = time.monotonic()
    played = play_analysis(json.loads(text), options)
    assert time.monotonic() - started < 1.0 + 10.0  # the budget, plus one chunk and the examinations (a loaded machine)
    assert played.sim is not None and 0 < played.sim.playouts < 1_000_000
    assert played.solve is not None and len(played.solve.verdicts) == 2


def test_seconds_in_the_configuration() -> None:
    from cardz_tools.analysis.check import DEFAULT_SECONDS
    from cardz_tools.config import ConfigError, parse_config

    assert CheckOptions.from_config(parse_config({})).seconds == DEFAULT_SECONDS
    assert CheckOptions.from_config(parse_config({"check": {"seconds": 0}})).seconds is None  # the fixed counts
    assert CheckOptions.from_config(parse_config({"check": {"seconds": 7.5}})).seconds == 7.5
    with pytest.raises(ConfigError, match="seconds"):
        CheckOptions.from_config(parse_config({"check": {"seconds": "soon"}}))
    with pytest.raises(ConfigError, match="did you mean 'seconds'"):
        CheckOptions.from_config(parse_config({"check": {"secnds": 3}}))


def test_forced_play_counts_positions_only_until_a_playout_first_repeats_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each deal offers a choice at nearly every move until the columns are empty; then the one card
    # left shuttles between two cells with a single legal move up to the step bound. Counting those
    # shuttle positions put the share with a choice at 3.6% (CZ505); they only go round, so they do not count.
    from cardz_tools.analysis import playout

    # Play to the step bound, as a playout does whose way round is too big to search (Fore Cell's).
    monkeypatch.setattr(playout._Stuck, "going_round", lambda self, new, moves: False)
    report = simulate(design_text(BROKEN / "shuttle-after-play.cardz"), 50, workers=1, max_moves=2000)
    aggregate = report.aggregate
    assert aggregate.choice_positions / aggregate.positions < 0.05  # what the old count saw
    assert aggregate.fresh_choice_positions / aggregate.fresh_positions > 0.5
    assert "forced-play" not in kinds(report)


def test_forced_play_still_fires_on_a_game_that_plays_itself() -> None:
    report = simulate(design_text(BROKEN / "one-way.cardz"), 50, workers=1)
    finding = next(f for f in report.findings if f.kind is FindingKind.FORCED_PLAY)
    assert finding.severity == "warning" and "only 0 of 2600 positions" in finding.message


def test_solve_from_a_first_deal_continues_a_run_without_solving_its_deals_again() -> None:
    text = design_text(GAMES / "monte-carlo.cardz")
    whole = solve(text, 6, seed=3, budget=2_000, workers=1)
    start = solve(text, 2, seed=3, budget=2_000, workers=1)
    rest = solve(text, 4, seed=3, budget=2_000, workers=1, first=2, earlier=start.verdicts)

    def same(report):  # type: ignore[no-untyped-def]
        return [(v.index, v.result, v.nodes, v.line) for v in report.verdicts]

    assert [v.index for v in rest.verdicts] == list(range(6))
    assert same(rest) == same(whole) and rest.findings == whole.findings
    assert same(solve(text, 4, seed=3, budget=2_000, workers=1, first=2)) == same(whole)[2:]


def test_check_confirms_an_all_lost_sample_on_new_deals_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # No pair ever forms: every deal is lost, so check solves 12 deals in all before CZ503 is an error.
    import cardz_tools.analysis.check as check_module

    solved: list[tuple[int, int]] = []

    def counting_solve(text, deals, *args, first=0, **kwargs):  # type: ignore[no-untyped-def]
        solved.append((first, deals))
        return solve(text, deals, *args, first=first, **kwargs)

    monkeypatch.setattr(check_module, "solve", counting_solve)
    options = CheckOptions(playouts=0, deals=5, budget=1_000, workers=1, deal_seconds=None)
    data = json.loads(design_text(BROKEN / "no-pairs.cardz"))
    analysis = play_analysis(data, options)
    assert solved == [(0, 5), (5, 7)]
    assert analysis.solve is not None and [v.index for v in analysis.solve.verdicts] == list(range(12))
    assert any(f.kind is FindingKind.UNWINNABLE and f.severity == "error" for f in analysis.findings)


def test_a_no_progress_playout_going_round_ends_where_the_search_proves_it_lost() -> None:
    # Once the columns are empty only the shuttle moves: the playout is searched there and lost,
    # instead of shuttling to the step bound (51 column moves and a few shuttles, not 2,000 moves).
    report = simulate(design_text(BROKEN / "shuttle-after-play.cardz"), 20, workers=1, max_moves=2000)
    aggregate = report.aggregate
    assert aggregate.wins == 0 and aggregate.non_terminating == 0
    assert aggregate.moves_total < 20 * 200


@pytest.mark.parametrize(("name", "playouts"), [("trigon", 15), ("fore-cell", 6)])
def test_ending_stuck_playouts_early_never_changes_a_win_or_a_non_terminating_playout(
    name: str, playouts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardz_tools.analysis import playout

    text = design_text(GAMES / f"{name}.cardz")
    early = simulate(text, playouts, seed=4, workers=1, max_moves=2000).aggregate
    monkeypatch.setattr(playout._Stuck, "going_round", lambda self, new, moves: False)
    late = simulate(text, playouts, seed=4, workers=1, max_moves=2000).aggregate
    assert (early.wins, early.non_terminating, early.stuck_at_deal) == (late.wins, late.non_terminating,
                                                                         late.stuck_at_deal)
    assert early.moves_total < late.moves_total  # the stuck playouts did end early
    if name == "trigon":
        assert early.wins > 0  # the comparison covers won playouts too


@pytest.mark.parametrize("workers", [1, 2])
def test_check_refuses_a_design_the_engine_cannot_deal_where_it_would_play_it(tmp_path: Path, workers: int) -> None:
    # Lint cannot count "col(depot) + 1" cards: the deal leaves 42 cards and no Stock to hold them (CZ306).
    undealable = {
        "name": "No Room",
        "depots": [
            {"name": "spare", "type": "Reserve", "col": 0, "row": 0},
            {"name": "home", "type": "Foundation", "col": 3, "row": 0, "acceptRule": "any"},
            {"name": "tab", "type": "Tableau", "col": 0, "row": 1, "repeat": 4},
        ],
        "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": "col(depot) + 1"}],
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
    }
    (tmp_path / "no-room.cardz").write_text(json.dumps(undealable, indent=2), encoding="utf-8")
    (tmp_path / "any-card.cardz").write_text((BROKEN / "any-card.cardz").read_text(encoding="utf-8"), encoding="utf-8")
    options = CheckOptions(playouts=20, deals=1, budget=500, workers=1, deal_seconds=None)
    result = check_paths([tmp_path], options=options, workers=workers)
    by_file = {Path(report.path).name: report.diagnostics for report in result.files}
    (problem,) = [d for d in by_file["no-room.cardz"] if d.code == "CZ306"]
    assert problem.pointer == "/dealRules" and "cannot be laid out" in problem.message
    assert not any(d.code == "CZ306" for d in by_file["any-card.cardz"])
    assert any(d.code.startswith("CZ5") for d in by_file["any-card.cardz"])  # the other file was played
