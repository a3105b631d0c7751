"""Fuzzing in CI: broken and hostile designs never crash a command nor break its bounds.

Inputs are mutations of the seed designs, the shipped games and the templates
(:func:`bench.fuzz.make_input`: keys deleted, duplicated and retyped, expressions
corrupted, bytes flipped, text cut, deep nesting, huge numbers, wrong types),
plus arbitrary JSON for ``fmt``. Kept fast: a few hundred examples per property.
The nightly run with many more inputs is ``python bench/fuzz.py``.
"""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bench import fuzz
from cardz_tools import fmt, jsoncst
from cardz_tools.cli import app

SEEDS = fuzz.seed_texts()
CEILING_S = 10.0
"""Generous per call on a loaded 2-core machine; the real calls take milliseconds."""

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
PLAY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

designs = st.builds(lambda rng: fuzz.make_input(rng, SEEDS), st.randoms(use_true_random=False))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=40,
)


def behaves(command: str, text: str) -> None:
    began = time.monotonic()
    failure = fuzz.run_command(command, text, ceiling=CEILING_S)
    assert failure is None, f"{failure} (after {time.monotonic() - began:.1f} s) on:\n{text[:2000]}"


@FAST
@given(designs)
def test_lint_never_raises_on_broken_designs(text: str) -> None:
    behaves("lint", text)


@FAST
@given(designs)
def test_fmt_never_raises_and_keeps_the_data(text: str) -> None:
    behaves("fmt", text)


@FAST
@given(json_values, st.sampled_from([None, 1, 2]), st.booleans())
def test_fmt_keeps_any_json_value(value: object, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    formatted = fmt.format_text(text)
    assert json.loads(formatted) == json.loads(text)
    assert fmt.format_text(formatted) == formatted


@FAST
@given(st.text(max_size=200))
def test_fmt_refuses_or_keeps_any_text(text: str) -> None:
    try:
        formatted = fmt.format_text(text)
    except jsoncst.JsonSyntaxError:
        return
    assert json.loads(formatted) == json.loads(text)


@PLAY
@given(designs)
def test_sim_never_raises_on_broken_designs(text: str) -> None:
    behaves("sim", text)


@PLAY
@given(designs)
def test_solve_never_raises_on_broken_designs(text: str) -> None:
    behaves("solve", text)


@PLAY
@given(designs)
def test_check_never_raises_on_broken_designs(text: str) -> None:
    behaves("check", text)


# ---------------------------------------------------------------- through the command line


def cli_inputs(count: int) -> list[str]:
    rng = random.Random(10)
    return [fuzz.make_input(rng, SEEDS) for _ in range(count)]


@pytest.mark.parametrize(
    "arguments",
    [
        ["lint"],
        ["lint", "-f", "sarif"],
        ["fmt", "--check"],
        ["check", "--playouts", "2", "--deals", "1", "--budget", "50"],
        ["sim", "-n", "2", "-w", "1", "--max-moves", "50"],
        ["solve", "-n", "1", "-w", "1", "--budget", "50", "--deal-seconds", "1"],
        ["deal", "--seed", "1"],
        ["flatten"],
    ],
    ids=lambda a: a[0] + ("-" + a[1].lstrip("-") if len(a) > 1 else ""),
)
def test_the_cli_exits_0_1_or_2_without_a_traceback(arguments: list[str], tmp_path: Path) -> None:
    runner = CliRunner()
    for number, text in enumerate(cli_inputs(20)):
        path = tmp_path / f"design{number}.cardz"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        command = [arguments[0], *arguments[1:], str(path)]
        result = runner.invoke(app, command)
        output = result.output + (result.stderr if result.stderr_bytes is not None else "")
        assert result.exit_code in (0, 1, 2), (command, result.exit_code, output[-2000:], result.exception)
        assert "Traceback" not in output, output[-2000:]
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


# ---------------------------------------------------------------- the editor's language server


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(designs, st.lists(st.tuples(st.integers(0, 120), st.integers(0, 300)), min_size=1, max_size=6))
def test_the_language_server_answers_anything_anywhere(text: str, places: list[tuple[int, int]]) -> None:
    from cardz_tools.lsp.completion import complete
    from cardz_tools.lsp.definition import definition
    from cardz_tools.lsp.document import Snapshot, lint_document
    from cardz_tools.lsp.hover import hover
    from cardz_tools.lsp.positions import Position

    began = time.monotonic()
    lint_document(text, None)
    snapshot = Snapshot.of(text)
    for line, character in places:
        position = Position(line, character)
        complete(snapshot, position)
        hover(snapshot, position)
        definition(snapshot, position)
    assert time.monotonic() - began < CEILING_S


# ---------------------------------------------------------------- the board: deal, preview, watch


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(designs)
def test_deal_preview_and_watch_show_any_design(text: str) -> None:
    import tempfile

    from cardz_tools.play import LoadError, deal_text
    from cardz_tools.preview.html import preview_page
    from cardz_tools.preview.watch import Watcher, frame_renderable

    class NoSimulation:
        def start(self, design_json: str, done: object) -> None: ...
        def cancel(self) -> None: ...
        def close(self) -> None: ...

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "design.cardz"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        began = time.monotonic()
        try:
            deal_text(path, 1, None)
        except LoadError:
            pass
        assert "<html" in preview_page(path, playouts=2).lower()
        frame = Watcher(path, simulator=NoSimulation()).refresh()
        from rich.console import Console

        Console(file=io.StringIO(), width=120).print(frame_renderable(frame))
        assert time.monotonic() - began < CEILING_S
