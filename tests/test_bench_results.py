"""bench/results.py: a row for every shipped game, and the verdict rule (issue 20)."""

from __future__ import annotations

import dataclasses

import pytest

from bench import results


def test_every_design_in_games_has_a_results_entry_and_no_entry_is_stale() -> None:
    assert results.missing_entries() == []
    files = [entry.file for entry in results.ENTRIES]
    assert len(files) == len(set(files))
    assert all((results.GAMES / f"{name}.cardz").exists() for name in files)


def test_the_whole_catalog_is_bounded_within_an_hour_on_two_cores() -> None:
    worst = sum(entry.worst_seconds() for entry in results.ENTRIES)
    assert worst / 2 < 3600


def test_a_row_bound_lowers_the_worst_case_and_is_printed_only_when_it_binds() -> None:
    capped = results.Entry("golf", playouts=0, deals=10, deal_seconds=2.0, row_seconds=5.0)
    assert capped.worst_seconds() == 5.0
    assert capped.worst_seconds(scale=2) == 10.0
    assert results.row_bound(capped, 1) == "; 5 s for the row"
    loose = dataclasses.replace(capped, row_seconds=50.0)
    assert loose.worst_seconds() == 20.0
    assert results.row_bound(loose, 1) == ""


def test_a_capped_row_solves_the_same_deals_in_batches_and_starts_none_it_cannot_finish() -> None:
    text = (results.GAMES / "golf.cardz").read_text(encoding="utf-8")
    plain = results.Entry("golf", deals=3, budget=2_000, deal_seconds=1.0)
    expected, _ = results.solve_row(plain, text, 1, workers=1)
    capped = dataclasses.replace(plain, row_seconds=2.5)  # at 1 s a deal: batches of 2, then 1 (each deal is quick)
    reached, _ = results.solve_row(capped, text, 1, workers=1)
    assert [(v.index, v.result, v.nodes) for v in reached] == [(v.index, v.result, v.nodes) for v in expected]
    none, _ = results.solve_row(dataclasses.replace(plain, row_seconds=0.5), text, 1, workers=1)
    assert none == []  # not even one deal fits in the row's bound
    row = results.measure(dataclasses.replace(plain, playouts=5, row_seconds=0.5), scale=1, workers=1)
    assert row.decided == "0 won, 0 lost, 3 unknown; 3 not reached within the row's bound"
    assert row.solver.startswith("undecided: 3 of 3 deals")


def sample_of(entry: results.Entry, outcomes: str) -> results.Sample:
    """A measured row whose deals ended as ``outcomes`` says (w won, l lost, u unknown), one second each."""
    names = {"w": "won", "l": "lost", "u": "unknown"}
    verdicts = [results.Verdict(i, names[o], 100, seconds=1.0) for i, o in enumerate(outcomes)]
    return results.Sample(entry, entry.file, "—", "—", "—", verdicts, len(outcomes), solve_wall=1.0, seconds=1.0)


def test_the_second_phase_takes_undecided_rows_first_fewest_deals_short_and_skips_long_bounds() -> None:
    short = results.Entry("a", deals=10, deal_seconds=2.0)
    near = sample_of(short, "wwwwwwwwuu")  # needs 1 more of 10
    far = sample_of(dataclasses.replace(short, file="b"), "wwwuuuuuuu")  # needs 6
    decided = sample_of(dataclasses.replace(short, file="c"), "wwwwwwwwwu")  # decided: narrows only
    long = sample_of(dataclasses.replace(short, file="d", deal_seconds=30.0), "uuuuuuuuuu")  # already past 10 s
    order = [(s.entry.file, i) for s, i in results.retry_order([decided, far, long, near])]
    assert order == [("a", 8), ("a", 9)] + [("b", i) for i in range(3, 10)] + [("c", 9)]
    assert (near.needed(), far.needed(), decided.needed()) == (1, 6, 0)


def test_the_second_phase_starts_no_deal_it_cannot_finish_before_the_bound() -> None:
    row = sample_of(results.Entry("golf", deals=3, deal_seconds=1.0), "uwu")
    now = 100.0
    results.retry_unknown([row], until=now + results.RETRY_SECONDS + results.RETRY_MARGIN - 0.01, jobs=1,
                          clock=lambda: now)
    assert (row.retried, row.retry_left) == (0, 2)
    assert [v.result for v in row.verdicts] == ["unknown", "won", "unknown"]
    assert "2 unknown not tried again within the run's bound" in results.tabulate(row, 1).decided


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_second_try_replaces_an_unknown_deal_and_both_tries_count_in_the_row(jobs: int) -> None:
    text = (results.GAMES / "monte-carlo.cardz").read_text(encoding="utf-8")
    entry = results.Entry("monte-carlo", deals=2, budget=50_000, deal_seconds=1e-6)  # too short for any deal
    first, _ = results.solve_row(entry, text, 1, workers=1)
    assert [v.result for v in first] == ["unknown", "unknown"]
    row = results.Sample(entry, "Monte Carlo", "—", "—", "—", list(first), 2, solve_wall=0.01, seconds=0.01)
    first_nodes = sum(v.nodes for v in first)
    results.retry_unknown([row], until=float("inf"), jobs=jobs, retry_seconds=5.0)
    alone = results.solve(text, 2, results.SEED, 50_000, workers=1)  # the same deals at a bound that decides them
    assert [v.result for v in row.verdicts] == [v.result for v in alone.verdicts] != ["unknown", "unknown"]
    assert (row.retried, row.retry_left, row.first_nodes) == (2, 0, first_nodes)
    assert row.retry_decided == sum(v.result != "unknown" for v in alone.verdicts)
    table = results.tabulate(row, 1)
    assert table.decided == f"{sum(v.result == 'won' for v in alone.verdicts)} won, " \
        f"{sum(v.result == 'lost' for v in alone.verdicts)} lost, 0 unknown; 2 decided on a second try at 5 s"
    assert table.second_phase


def test_a_run_at_another_seed_solves_that_seeds_deals_in_both_phases() -> None:
    text = (results.GAMES / "monte-carlo.cardz").read_text(encoding="utf-8")
    alone = results.solve(text, 3, 101, 50_000, workers=1)
    assert [v.line for v in alone.verdicts] != [v.line for v in results.solve(text, 3, 0, 50_000, workers=1).verdicts]
    entry = results.Entry("monte-carlo", deals=3, budget=50_000, deal_seconds=5.0)
    seeded, _ = results.solve_row(entry, text, 1, workers=1, seed=101)
    assert [(v.result, v.line) for v in seeded] == [(v.result, v.line) for v in alone.verdicts]
    short = dataclasses.replace(entry, deal_seconds=1e-6)  # too short for any deal: the second phase decides them
    first, _ = results.solve_row(short, text, 1, workers=1, seed=101)
    row = results.Sample(short, "Monte Carlo", "—", "—", "—", list(first), 3, solve_wall=0.01, seconds=0.01, seed=101)
    results.retry_unknown([row], until=float("inf"), jobs=1, retry_seconds=5.0)
    assert [(v.result, v.line) for v in row.verdicts] == [(v.result, v.line) for v in alone.verdicts]


FIGURE = results.plus_minus("75.053", "0.028")


@pytest.mark.parametrize(
    ("low", "high", "enough", "differs", "expected"),
    [
        (0.60, 0.80, True, "", "agree"),
        (0.7505, 0.7506, True, "", "agree"),  # overlaps the published ± range
        (0.80, 0.95, False, "", "undecided"),
        (0.80, 0.95, True, "", "disagree"),
        (0.80, 0.95, True, "a rules difference", "differs: a rules difference"),
    ],
)
def test_the_verdict_agrees_only_inside_our_interval_and_never_disagrees_without_a_reason(
    low: float, high: float, enough: bool, differs: str, expected: str
) -> None:
    assert results.verdict(FIGURE, low, high, enough, differs) == expected
    assert results.verdict(None, low, high, enough, differs) == "—"


def test_a_figure_is_printed_as_published() -> None:
    assert results.plus_minus("90.480", "0.116").text == "90.480% ± 0.116%"


def test_only_names_a_known_design(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        results.main(["--only", "no-such-game", "--list"])
    assert exit_info.value.code == 2
    assert "no results entry for no-such-game" in capsys.readouterr().err


def test_list_prints_one_line_per_design_and_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert results.main(["--only", "spiderette", "--only", "gaps-basic", "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:-1]] == ["spiderette", "gaps-basic"]  # in the table's order
    assert out[-1].startswith("at most")


FIGURES_FILE = results.ROOT.parent / "shared" / "published-figures.md"


@pytest.mark.skipif(not FIGURES_FILE.exists(), reason="shared/published-figures.md is not beside the repository")
def test_every_published_figure_is_written_in_the_shared_figures_file_and_cites_it_or_its_own_address() -> None:
    text = FIGURES_FILE.read_text(encoding="utf-8")
    figures = [entry.published for entry in results.ENTRIES if entry.published is not None]
    assert len(figures) >= 12
    for figure in figures:
        if results.FIGURES not in figure.source:  # a source of its own, cited with its address
            assert "https://" in figure.source and 0 <= figure.low <= figure.high <= 1, figure.source
            continue
        if figure.source == results.BLAKE_GENT:
            assert figure.text.replace("% ±", " ±") in text, figure.text  # the table writes "81.945 ± 0.084%"
        else:
            assert figure.text.split("%")[0] + "%" in text, figure.text  # "Golf 1.7 deals/s (24%)"
        assert 0 <= figure.low <= figure.high <= 1
