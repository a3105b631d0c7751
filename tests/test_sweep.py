"""cardz sweep: parameters, variants, common random numbers, reports, chart and CLI."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardz_tools.analysis.sweep import MAX_VARIANTS, Parameter, SweepError, set_pointer, sweep, variants
from cardz_tools.cli import app
from cardz_tools.loading import open_design

ROOT = Path(__file__).parent.parent
WEATHERVANE = ROOT / "games" / "weathervane.cardz"


@pytest.fixture(scope="module")
def weathervane() -> dict:  # type: ignore[type-arg]
    return open_design(WEATHERVANE).data  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "pointer", "values"),
    [
        ("/dealRules/0/faceDown=3..6", "/dealRules/0/faceDown", (3, 4, 5, 6)),
        ("/a=4,5,6", "/a", (4, 5, 6)),
        ("/a=true,false", "/a", (True, False)),
        ('/a="x",null', "/a", ("x", None)),
        (
            "/when=card.rank == Ace, max(count(Tableau), 2) > 1",
            "/when",
            ("card.rank == Ace", "max(count(Tableau), 2) > 1"),
        ),
        ("/a= -2..0", "/a", (-2, -1, 0)),
    ],
)
def test_values_are_ranges_lists_json_or_expressions(text: str, pointer: str, values: tuple) -> None:  # type: ignore[type-arg]
    parameter = Parameter.parse(text)
    assert parameter.pointer == pointer
    assert parameter.values == values


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("dealRules/0/faceDown=3", "starts with '/'"),
        ("/dealRules/0/faceDown", "POINTER=VALUES"),
        ("/a=6..3", "is empty"),
        ("/a=1..5000", "more than"),
        ("/a= , ", "no values"),
    ],
)
def test_a_bad_set_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(SweepError, match=says):
        Parameter.parse(text)


def test_every_combination_is_a_variant_with_its_values_written(weathervane: dict) -> None:  # type: ignore[type-arg]
    parameters = [Parameter.parse("/dealRules/0/faceDown=3..4"), Parameter.parse("/depotOnly=true,false")]
    found = variants(weathervane, parameters)
    assert [values for values, _ in found] == [
        {"/dealRules/0/faceDown": 3, "/depotOnly": True},
        {"/dealRules/0/faceDown": 3, "/depotOnly": False},
        {"/dealRules/0/faceDown": 4, "/depotOnly": True},
        {"/dealRules/0/faceDown": 4, "/depotOnly": False},
    ]
    assert [(d["dealRules"][0]["faceDown"], d["depotOnly"]) for _, d in found] == [
        (3, True),
        (3, False),
        (4, True),
        (4, False),
    ]
    assert weathervane["dealRules"][0]["faceDown"] == 5  # the base design is not changed


def test_a_pointer_with_no_place_and_too_many_combinations_are_refused(weathervane: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(SweepError, match="no such value"):
        variants(weathervane, [Parameter.parse("/dealRules/9/faceDown=1")])
    with pytest.raises(SweepError, match="more than"):
        variants(weathervane, [Parameter.parse("/a=1..999"), Parameter.parse("/b=1..999")])
    assert MAX_VARIANTS < 999 * 999


def test_set_pointer_follows_rfc6901_escapes() -> None:
    document = {"a/b": {"~c": [1, 2]}}
    set_pointer(document, "/a~1b/~0c/1", 7)
    assert document == {"a/b": {"~c": [1, 7]}}


def test_rows_share_deals_and_move_streams(weathervane: dict) -> None:  # type: ignore[type-arg]
    """Common random numbers: a change that only rescores the game leaves every playout as it was."""
    report = sweep(
        weathervane,
        [Parameter.parse("/scoring/value=sum(Tableau, count(it)),count(stock)")],
        playouts=40,
        seed=3,
        workers=1,
    )
    first, second = (row.sim.to_dict() for row in report.rows if row.sim)
    for key in ("wins", "mean_moves", "moves_distribution", "stuck_at_deal"):
        assert first[key] == second[key]
    assert first["mean_score"] != second["mean_score"]


def test_mean_score_rises_with_the_hidden_cards(weathervane: dict) -> None:  # type: ignore[type-arg]
    report = sweep(
        weathervane, [Parameter.parse("/dealRules/0/faceDown=3..6")], playouts=60, deals=2, budget=3000, workers=1
    )
    means = [row.sim.to_dict()["mean_score"] for row in report.rows if row.sim]
    assert len(means) == 4
    assert means == sorted(means) and means[0] < means[-1]
    assert all(row.solve is not None and len(row.solve.verdicts) == 2 for row in report.rows)


def test_a_variant_that_does_not_lint_is_a_row_with_its_diagnostics(weathervane: dict) -> None:  # type: ignore[type-arg]
    report = sweep(weathervane, [Parameter.parse("/depots/0/type=Stock,Stok")], playouts=10, workers=1)
    good, bad = report.rows
    assert good.playable and not bad.playable
    assert any(d.code.startswith("CZ2") for d in bad.diagnostics)
    row = report.to_dict()["rows"][1]
    assert row["sim"] is None and row["diagnostics"][0]["code"].startswith("CZ2")
    assert "CZ2" in report.to_text().splitlines()[-1]


def test_json_and_csv_reports(weathervane: dict) -> None:  # type: ignore[type-arg]
    report = sweep(
        weathervane, [Parameter.parse("/dealRules/0/faceDown=4,5")], playouts=20, deals=1, budget=2000, workers=1
    )
    data = json.loads(report.to_json())
    assert data["parameters"] == [{"pointer": "/dealRules/0/faceDown", "values": [4, 5]}]
    assert [row["values"] for row in data["rows"]] == [{"/dealRules/0/faceDown": 4}, {"/dealRules/0/faceDown": 5}]
    assert {"win_rate", "mean_score", "playouts"} <= set(data["rows"][0]["sim"])
    assert {"won", "lost", "unknown", "per_deal"} <= set(data["rows"][0]["solve"])
    table = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [row["/dealRules/0/faceDown"] for row in table] == ["4", "5"]
    assert float(table[0]["win_rate"]) == data["rows"][0]["sim"]["win_rate"]


def test_the_cli_prints_rows_and_draws_the_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "sweep.svg"
    result = CliRunner().invoke(
        app, ["sweep", str(WEATHERVANE), "--set", "/dealRules/0/faceDown=3..4", "-n", "20", "-w", "1", "-o", str(chart)]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 4  # title, header, two rows
    assert chart.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert not list(tmp_path.glob(".sweep.svg*"))  # no temporary left behind


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--set", "faceDown=3"], "starts with '/'"),
        (["--set", "/dealRules/0/faceDown=3", "-o", "chart.txt"], ".svg or .png"),
    ],
)
def test_the_cli_refuses_bad_input_in_one_line(arguments: list[str], says: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sweep", str(WEATHERVANE), "-n", "5", "-w", "1", *arguments])
    assert result.exit_code == 2
    assert says in result.stderr and "Traceback" not in result.output


def test_dask_runs_the_same_sweep(weathervane: dict) -> None:  # type: ignore[type-arg]
    distributed = pytest.importorskip("distributed")
    parameters = [Parameter.parse("/dealRules/0/faceDown=4,5")]
    local = sweep(weathervane, parameters, playouts=30, deals=2, budget=2000, seed=5, workers=1).to_dict()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        remote = sweep(
            weathervane, parameters, playouts=30, deals=2, budget=2000, seed=5, scheduler=cluster.scheduler_address
        )
    remote_dict = remote.to_dict()
    for data in (local, remote_dict):
        for row in data["rows"]:
            for part in (row["sim"], row["solve"]):
                for volatile in ("elapsed_s", "playouts_per_s", "deals_per_s"):
                    part.pop(volatile, None)
                for deal in part.get("per_deal", []):
                    deal.pop("seconds", None)
    assert local == remote_dict
