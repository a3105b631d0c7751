"""The ``cardz`` command line: a thin Typer app that parses arguments and calls the library.

Exit status: 0 no errors (warnings allowed unless ``--strict``), 1 problems
found, 2 usage or I/O error. No traceback ever reaches the user: an unexpected
failure is reported in one line with status 2.
"""

from __future__ import annotations

import contextlib
import enum
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import __version__
from .config import ConfigError, LintConfig, load_config
from .lint import LintPathError, LintResult, lint_paths
from .reporters import ReportOptions, render, statistics_report
from .schema import SchemaUnavailable

if TYPE_CHECKING:
    from .analysis.check import CheckOptions
    from .analysis.findings import Thresholds
    from .analysis.sim import SimReport
    from .analysis.solve import SolveReport
    from .loading import OpenDesign

USAGE_ERROR = 2

app = typer.Typer(
    name="cardz",
    help="Write, check, try out and publish .cardz solitaire designs.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print ``cardz: message`` to stderr; the caller raises the returned exit (status 2)."""
    typer.echo(f"cardz: {message}", err=True)
    return typer.Exit(USAGE_ERROR)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cardz {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
) -> None:
    """Write, check, try out and publish .cardz solitaire designs."""


class OutputFormat(enum.StrEnum):
    """The output formats of ``cardz lint`` (names of :data:`cardz_tools.reporters.REPORTERS`)."""

    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    GITHUB = "github"
    SARIF = "sarif"
    JUNIT = "junit"


def _split(values: list[str] | None) -> list[str] | None:
    """``--select CZ3,CZ2 --select CZ1`` -> ``["CZ3", "CZ2", "CZ1"]``."""
    if not values:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _write_report(result: LintResult, format: OutputFormat, output_file: Path | None, statistics: bool = False) -> None:
    """Render diagnostics (colour only on a terminal) to ``output_file`` or stdout."""
    to_terminal = output_file is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    options = ReportOptions(color=to_terminal, strict=result.strict)
    report = statistics_report(result, format.value) if statistics else render(result, format.value, options)
    if output_file is not None:
        output_file.write_text(report, encoding="utf-8")
    else:
        typer.echo(report, nl=False)


@app.command()
def lint(
    paths: Annotated[list[Path], typer.Argument(help="Design files, or directories to search for *.cardz.")],
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.")] = OutputFormat.TEXT,
    select: Annotated[
        list[str] | None, typer.Option("--select", help="Report only these codes or code prefixes (CZ3) or rule names.")
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option("--ignore", help="Do not report these codes, prefixes or names.")
    ] = None,
    strict: Annotated[bool | None, typer.Option("--strict/--no-strict", help="Warnings fail the run too.")] = None,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Print how often each code occurs instead of the diagnostics.")
    ] = False,
    output_file: Annotated[
        Path | None, typer.Option("--output-file", "-o", help="Write the report to this file.")
    ] = None,
) -> None:
    """Check designs: JSON, schema, references, deal and board (exit 1 on errors)."""
    try:
        config = load_config(paths[0]).with_overrides(select=_split(select), ignore=_split(ignore), strict=strict)
        result = lint_paths(paths, config)
        _write_report(result, format, output_file, statistics)
    except (ConfigError, LintPathError, SchemaUnavailable) as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")) from None
    except Exception as exc:  # noqa: BLE001 - the promise is "never a traceback"
        raise fail(f"internal error: {type(exc).__name__}: {exc}") from None
    raise typer.Exit(result.exit_code)


def main() -> None:
    """Entry point of the ``cardz`` script."""
    try:
        app()
    except Exception as exc:  # noqa: BLE001 - last resort: report in one line, exit 2
        typer.echo(f"cardz: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(USAGE_ERROR)


# Commands of the other parts go below, one small block each: parse arguments, call library code.


# ---------------------------------------------------------------- play analysis: sim, solve, check


class ReportFormat(enum.StrEnum):
    """Output formats of ``cardz sim`` and ``cardz solve``."""

    TEXT = "text"
    JSON = "json"


# Options several commands share, each written once (Typer copies the option for every command).
Workers = Annotated[
    int | None, typer.Option("--workers", "-w", min=1, max=1024, help="Processes (default: one per CPU).")
]
Scheduler = Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address (needs the 'dist' extra).")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write .cardz_cache.")]
_BUDGET = typer.Option("--budget", min=1, max=100_000_000, help="Solver positions per deal before 'unknown'.")
Budget = Annotated[int, _BUDGET]
BudgetOverride = Annotated[int | None, _BUDGET]
"""``--budget`` where leaving it out means ``[tool.cardz.check]``'s."""
DealSeconds = Annotated[
    float | None, typer.Option("--deal-seconds", min=0.001, help="Solver time bound per deal before 'unknown'.")
]
Seconds = Annotated[
    float | None,
    typer.Option(
        "--seconds",
        min=0,
        max=86_400,
        help="Time budget per design (0: the fixed counts alone, the same result on any machine).",
    ),
]


def _progress(total: int, label: str) -> contextlib.AbstractContextManager[Callable[[int], None]]:
    """A rich progress bar on stderr for long runs (nothing when stderr is not a terminal)."""
    from .analysis.progress import progress_bar

    return progress_bar(total, label)


def _open_for_play(file: Path) -> OpenDesign:
    """The design ready to play, or the linter's report and exit 1."""
    from .loading import OpenDesign, open_or_report

    opened = open_or_report(file)
    if isinstance(opened, OpenDesign):
        return opened
    if opened.result is None:
        raise fail(opened.message)
    typer.echo(render(opened.result, "text", ReportOptions(color=sys.stdout.isatty())), nl=False, err=True)
    raise typer.Exit(opened.exit_code)


def _finish_analysis(report: SimReport | SolveReport, format: ReportFormat) -> None:
    """Print a sim or solve report; exit 1 when it has an error-level finding."""
    from .diagnostics import Severity

    typer.echo(report.to_json() if format is ReportFormat.JSON else report.to_text(), nl=format is ReportFormat.JSON)
    raise typer.Exit(1 if any(f.severity is Severity.ERROR for f in report.findings) else 0)


@app.command()
def sim(
    file: Annotated[Path, typer.Argument(help="The design to play.")],
    playouts: Annotated[
        int, typer.Option("--playouts", "-n", min=1, max=10_000_000, help="How many random playouts.")
    ] = 1000,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the run: the same seed gives the same report.")
    ] = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    max_moves: Annotated[
        int, typer.Option("--max-moves", min=1, max=10_000_000, help="Step bound per playout.")
    ] = 5_000,
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="Report format.")] = ReportFormat.TEXT,
    no_cache: NoCache = False,
) -> None:
    """Random playouts: win rate with its interval, moves, scores, rule use and findings."""
    from .analysis.stored import cached_simulate
    from .cache import Cache

    opened = _open_for_play(file)
    try:
        cache = Cache.for_paths(file, enabled=not no_cache)
        with _progress(playouts, "playouts") as advance:
            report = cached_simulate(
                cache, opened.data, opened.json_text, playouts, seed, workers, scheduler, max_moves, on_progress=advance
            )
    except (RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    _finish_analysis(report, format)


@app.command()
def solve(
    file: Annotated[Path, typer.Argument(help="The design to solve.")],
    deals: Annotated[int, typer.Option("--deals", "-n", min=1, max=1_000_000, help="How many deals.")] = 10,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the run (deal i is the same as in sim).")
    ] = 0,
    budget: Budget = 50_000,
    deck: Annotated[
        Path | None, typer.Option("--deck", help="Solve this one deal, a deck order file (AS 10H QC ...).")
    ] = None,
    deal_seconds: DealSeconds = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="Report format.")] = ReportFormat.TEXT,
    no_cache: NoCache = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also say which search pruning does not apply, and why.")
    ] = False,
) -> None:
    """A solver that knows every card: won (with the line), lost (proven) or unknown, per deal."""
    from .analysis.stored import cached_solve
    from .cache import Cache
    from .cards import CardSyntaxError, parse_deck
    from .engine.deal import DeckError, deck_for

    opened = _open_for_play(file)
    order = None
    if deck is not None:
        try:
            order = deck_for(opened.design, None, parse_deck(deck.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, CardSyntaxError, DeckError) as exc:
            raise fail(f"{deck}: {exc}") from None
    try:
        cache = Cache.for_paths(file, enabled=not no_cache)
        with _progress(1 if order else deals, "deals") as advance:
            report = cached_solve(
                cache, opened.data, opened.json_text, deals, seed, budget, order, workers, scheduler,
                on_progress=advance, deal_seconds=deal_seconds, verbose=verbose,
            )
    except (RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    _finish_analysis(report, format)


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="Design files, or directories to search for *.cardz.")],
    format: Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.")] = OutputFormat.TEXT,
    strict: Annotated[bool | None, typer.Option("--strict/--no-strict", help="Warnings fail the run too.")] = None,
    playouts: Annotated[
        int | None,
        typer.Option(
            "--playouts", min=0, max=1_000_000, help="Random playouts per file (at most, under a time budget)."
        ),
    ] = None,
    deals: Annotated[
        int | None, typer.Option("--deals", min=0, max=100_000, help="Deals the solver tries per file.")
    ] = None,
    budget: BudgetOverride = None,
    seconds: Seconds = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    no_cache: NoCache = False,
    output_file: Annotated[
        Path | None, typer.Option("--output-file", "-o", help="Write the report to this file.")
    ] = None,
) -> None:
    """Lint plus a short simulation and solve per file, findings as diagnostics: the command for CI."""
    from .analysis.check import check_paths
    from .cache import Cache

    try:
        config = load_config(paths[0]).with_overrides(strict=strict)
        options = _check_options(config, playouts, deals, budget, seconds)
        cache = Cache.for_paths(paths[0], enabled=not no_cache)
        with _progress_of_files("checking") as on_progress:
            result = check_paths(
                paths, config, options, cache=cache, workers=workers, scheduler=scheduler, on_progress=on_progress
            )
        _write_report(result, format, output_file)
    except (ConfigError, LintPathError, SchemaUnavailable) as exc:
        raise fail(str(exc)) from None
    except (RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    raise typer.Exit(result.exit_code)


def _check_options(
    config: LintConfig,
    playouts: int | None,
    deals: int | None,
    budget: int | None,
    seconds: float | None,
    base: CheckOptions | None = None,
) -> CheckOptions:
    """``[tool.cardz.check]`` (or ``base``) with the command line's counts and seconds applied."""
    import dataclasses as _dc

    from .analysis.check import CheckOptions

    options = base or CheckOptions.from_config(config)
    options = _dc.replace(
        options,
        playouts=options.playouts if playouts is None else playouts,
        deals=options.deals if deals is None else deals,
        budget=options.budget if budget is None else budget,
    )
    if seconds is not None:
        options = _dc.replace(options, seconds=seconds or None)
    return options


@contextlib.contextmanager
def _progress_of_files(label: str) -> Iterator[Callable[[int, int], None]]:
    """A bar over files on stderr, shown once a run has taken a second (``on_progress(done, total)``)."""
    from .analysis.progress import progress_bar

    advance: Callable[[int], None] | None = None
    shown = 0
    with contextlib.ExitStack() as stack:

        def on_progress(done: int, total: int) -> None:
            nonlocal advance, shown
            if advance is None:
                advance = stack.enter_context(progress_bar(total, label, delay=1.0))
            advance(done - shown)
            shown = done

        yield on_progress


class SweepFormat(enum.StrEnum):
    """Output formats of ``cardz sweep``."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"


@app.command()
def sweep(
    file: Annotated[Path, typer.Argument(help="The design to vary.")],
    set_: Annotated[
        list[str],
        typer.Option(
            "--set", help="POINTER=VALUES: a range 4..7, a list 4,5,6 or true,false, or expressions. Repeat for more."
        ),
    ],
    playouts: Annotated[
        int, typer.Option("--playouts", "-n", min=1, max=10_000_000, help="Random playouts per variant.")
    ] = 1000,
    deals: Annotated[
        int, typer.Option("--deals", min=0, max=1_000_000, help="Deals the solver tries per variant (0: none).")
    ] = 0,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the run: every variant gets the same deals.")
    ] = 0,
    budget: Budget = 50_000,
    deal_seconds: DealSeconds = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    format: Annotated[SweepFormat, typer.Option("--format", "-f", help="Report format.")] = SweepFormat.TEXT,
    chart: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Also draw the chart to FILE.svg or FILE.png (the 'plot' extra)."),
    ] = None,
) -> None:
    """Play every combination of the --set values with the same deals: one row per variant."""
    from .analysis.sweep import Parameter, SweepError, variant_count
    from .analysis.sweep import sweep as run_sweep
    from .analysis.sweep_chart import ChartError, write_chart

    opened = _open_for_play(file)
    try:
        parameters = [Parameter.parse(text) for text in set_]
        total = variant_count(parameters) * (playouts + deals)
        with _progress(total, "variants") as advance:
            report = run_sweep(
                opened.data,
                parameters,
                playouts=playouts,
                deals=deals,
                seed=seed,
                budget=budget,
                deal_seconds=deal_seconds,
                workers=workers,
                scheduler=scheduler,
                filename=str(file),
                on_progress=advance,
            )
        if chart is not None:
            write_chart(report, chart)
    except (SweepError, ChartError, RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    text = {SweepFormat.TEXT: report.to_text, SweepFormat.JSON: report.to_json, SweepFormat.CSV: report.to_csv}[
        format
    ]()
    typer.echo(text, nl=not text.endswith("\n"))
    if chart is not None:
        typer.echo(f"wrote {chart}", err=True)
    raise typer.Exit(0 if any(row.playable for row in report.rows) else 1)


class DifficultyOption(enum.StrEnum):
    """The bands of ``cardz deals --difficulty`` (see cardz_tools.analysis.deals)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@app.command("deals")
def deals_command(
    file: Annotated[Path, typer.Argument(help="The design.")],
    winnable: Annotated[int, typer.Option("--winnable", min=1, max=10_000, help="How many winnable deals to list.")],
    difficulty: Annotated[
        DifficultyOption | None, typer.Option("--difficulty", help="Only deals of this band.")
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the run (deal i is the same as in sim).")
    ] = 0,
    budget: Budget = 50_000,
    deal_seconds: DealSeconds = 10.0,
    max_tries: Annotated[
        int, typer.Option("--max-tries", min=1, max=100_000, help="The most deals to look at.")
    ] = 2_000,
    playouts: Annotated[
        int, typer.Option("--playouts", "-n", min=1, max=100_000, help="Random playouts per deal for its difficulty.")
    ] = 60,
    workers: Workers = None,
    scheduler: Scheduler = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the deals as JSON to this file (atomically).")
    ] = None,
    format: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="Report format on stdout.")
    ] = ReportFormat.TEXT,
) -> None:
    """List deals the solver proves winnable, each with its difficulty, seed, deck and winning line."""
    from .analysis.deals import Difficulty, winnable_deals
    from .fmt import write_atomic

    opened = _open_for_play(file)
    wanted = None if difficulty is None else Difficulty(difficulty.value)
    try:
        with _progress(winnable, "winnable deals") as advance:
            report = winnable_deals(
                opened.json_text,
                winnable,
                seed,
                wanted,
                budget,
                deal_seconds,
                playouts,
                max_tries=max_tries,
                workers=workers,
                scheduler=scheduler,
                on_progress=advance,
            )
        if output is not None:
            write_atomic(output, report.to_json() + "\n")
    except (RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    typer.echo(report.to_json() if format is ReportFormat.JSON else report.to_text(), nl=format is ReportFormat.JSON)
    raise typer.Exit(0 if len(report.deals) == winnable else 1)


# ---------------------------------------------------------------- publishing: fmt, flatten (issue 8)


@app.command("fmt")
def fmt_command(
    paths: Annotated[list[Path], typer.Argument(help="Design files, or directories to search for *.cardz.")],
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; list the files that would change (exit 1 if any).")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Like --check, and print a unified diff of each change.")
    ] = False,
) -> None:
    """Rewrite designs in the canonical layout; a file that does not parse is left untouched (exit 2)."""
    from . import fmt

    raise typer.Exit(fmt.run(paths, check=check, diff=diff, out=sys.stdout, err=sys.stderr))


@app.command("flatten")
def flatten_command(
    file: Annotated[Path, typer.Argument(help="A variant: a design with extends.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the design to this file, not to stdout.")
    ] = None,
) -> None:
    """Write a variant as the standalone design it stands for, in the canonical layout."""
    from .variants import run_flatten

    raise typer.Exit(run_flatten(file, output, out=sys.stdout, err=sys.stderr))


# ---- cardz expr (rule expressions) ----
from .expr import Site  # noqa: E402


@app.command("expr")
def expr_command(
    expression: Annotated[str, typer.Argument(help="The expression, in quotes.")],
    site: Annotated[
        Site, typer.Option("--site", "-s", help="The rule site that gives the names in scope.")
    ] = Site.ACCEPT,
    design: Annotated[
        Path | None, typer.Option("--design", "-d", help="Design whose depots and groups are in scope.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Evaluate on the deal of this seed (needs --design).")
    ] = None,
) -> None:
    """Check one rule expression, with a caret under each problem; with --seed, evaluate it on a deal."""
    from .repl import run_expr

    result = run_expr(expression, site, design, seed)
    typer.echo(result.output)
    raise typer.Exit(result.exit_code)


# ---- engine: cardz deal / cardz play (cardz_tools/play.py) ----


@app.command()
def deal(
    file: Annotated[Path, typer.Argument(help="The design file.")],
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Deal number: the documented shuffle of the design's deck (random if omitted)."),
    ] = None,
    deck: Annotated[
        Path | None, typer.Option("--deck", help="A deck order file (cards like AS 10H QC), instead of --seed.")
    ] = None,
) -> None:
    """Print the board of a deal (exit 1 when the design or the deck cannot be played)."""
    from .play import LoadError, deal_text

    try:
        typer.echo(deal_text(file, seed, deck))
    except LoadError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None


@app.command()
def play(
    file: Annotated[Path, typer.Argument(help="The design file.")],
    seed: Annotated[
        int | None, typer.Option("--seed", help="Deal number (random when neither --seed nor --deck is given).")
    ] = None,
    deck: Annotated[
        Path | None, typer.Option("--deck", help="A deck order file (cards like AS 10H QC), instead of --seed.")
    ] = None,
) -> None:
    """Play a design in the terminal: numbered moves, 'from to', u undo, r restart, q quit."""
    from rich.console import Console

    from .play import run_play

    raise typer.Exit(run_play(file, seed, deck, sys.stdin, Console()))


# ---------------------------------------------------------------- authoring: from-rules, new


@app.command("from-rules")
def from_rules(
    rules: Annotated[
        Path, typer.Argument(help="A rules text (UTF-8) in English, French, Russian, German, Spanish or Italian.")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the design to this file (atomically) instead of stdout."),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="The text's language: auto, en, fr, ru, de, es or it.")] = "auto",
    compare: Annotated[
        Path | None,
        typer.Option("--compare", help="A design to compare with: report where the two play differently (exit 1)."),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", min=1, max=1000, help="Deals played by both designs with --compare.")
    ] = 6,
) -> None:
    """Turn a rules text into a .cardz design template; every open decision is a TODO (CZ601)."""
    from .authoring.rules_text import run_from_rules

    raise typer.Exit(run_from_rules(rules, output, lang, compare=compare, deals=deals))


@app.command("new")
def new(
    name: Annotated[str | None, typer.Argument(help="The new game's name.")] = None,
    template: Annotated[str, typer.Option("--template", "-t", help="The starting design (see --list).")] = "klondike",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="The file to write ('-': stdout); default NAME.cardz here.")
    ] = None,
    list_templates: Annotated[bool, typer.Option("--list", help="List the templates and exit.")] = False,
) -> None:
    """Start a new design from a template (one per family of board)."""
    from .authoring.new import run_new

    raise typer.Exit(run_new(name, template, output, list_templates))


# ---------------------------------------------------------------- watch, preview (issue #6)

PREVIEW_PORT = 8765


@app.command()
def watch(
    target: Annotated[Path, typer.Argument(help="A design file, or a directory (its newest .cardz file is shown).")],
    seed: Annotated[int, typer.Option("--seed", help="The deal to draw, and the simulation's seed.")] = 0,
    playouts: Annotated[int, typer.Option("--playouts", min=1, help="Random playouts of the quick simulation.")] = 500,
    serve: Annotated[
        bool, typer.Option("--serve", help="Also serve the page on 127.0.0.1; it reloads on every save.")
    ] = False,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port for --serve (0: any free port).")
    ] = PREVIEW_PORT,
) -> None:
    """Show the board, the diagnostics and a quick simulation, updated on every save (Ctrl-C quits)."""
    from .preview.server import ServeError
    from .preview.watch import run_watch

    if not target.exists():
        raise fail(f"{target}: no such file or directory")
    try:
        run_watch(target, seed=seed, playouts=playouts, serve=serve, port=port, config=load_config(target))
    except (ConfigError, ServeError) as exc:
        raise fail(str(exc)) from None


@app.command()
def preview(
    path: Annotated[Path, typer.Argument(help="The design file.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the HTML page.")] = Path("board.html"),
    seed: Annotated[int, typer.Option("--seed", help="The deal to draw, and the simulation's seed.")] = 0,
    playouts: Annotated[
        int, typer.Option("--playouts", min=1, help="Random playouts of the simulation summary.")
    ] = 500,
) -> None:
    """Write a self-contained HTML page: the board, the rules, the diagnostics and a simulation summary."""
    from .preview.html import preview_page

    if not path.is_file():
        raise fail(f"{path}: no such file")
    try:
        output.write_text(preview_page(path, seed=seed, playouts=playouts, config=load_config(path)), encoding="utf-8")
    except ConfigError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{output}: {exc.strerror or exc}") from None
    typer.echo(f"wrote {output}")


# ---------------------------------------------------------------- publish (issue 8)


@app.command("publish")
def publish_command(
    paths: Annotated[list[Path], typer.Argument(help="Design files, or directories to search for *.cardz.")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The folder to write (replaced whole; see docs/publishing.md).")
    ],
    gate: Annotated[
        list[str] | None,
        typer.Option("--gate", help="Also refuse on findings of these kinds (stuck-at-deal,unwinnable,...)."),
    ] = None,
    playouts: Annotated[
        int | None, typer.Option("--playouts", min=0, max=1_000_000, help="Random playouts per game.")
    ] = None,
    deals: Annotated[
        int | None, typer.Option("--deals", min=0, max=100_000, help="Deals the solver tries per game.")
    ] = None,
    budget: BudgetOverride = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the analysis and of the deal pictured."),
    ] = None,
    seconds: Seconds = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    no_cache: NoCache = False,
    winnable: Annotated[
        int, typer.Option("--winnable", min=0, max=1_000, help="List this many proven-winnable deals per game.")
    ] = 0,
) -> None:
    """Write a folder of game pages: each design flattened and formatted, its page, an index and catalog.json."""
    import dataclasses as _dc

    from .cache import Cache
    from .publish import DEFAULT_OPTIONS, GateError, PublishError, parse_gate, publish
    from .publish.build import DEFAULT_SECONDS

    try:
        kinds = parse_gate(gate or [])
        config = load_config(paths[0])
        base = _dc.replace(
            DEFAULT_OPTIONS, thresholds=_check_thresholds(config), seed=DEFAULT_OPTIONS.seed if seed is None else seed
        )
        check_options = _check_options(
            config, playouts, deals, budget, DEFAULT_SECONDS if seconds is None else seconds, base
        )
        cache = Cache.for_paths(paths[0], enabled=not no_cache)
        with _progress_of_files("playing") as on_progress:
            result = publish(
                paths,
                out,
                options=check_options,
                gate=kinds,
                config=config,
                cache=cache,
                workers=workers,
                scheduler=scheduler,
                on_progress=on_progress,
                winnable=winnable,
            )
    except (GateError, ConfigError, LintPathError, SchemaUnavailable, PublishError) as exc:
        raise fail(str(exc)) from None
    except (RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None
    options = ReportOptions(color=sys.stderr.isatty() and "NO_COLOR" not in os.environ)
    if result.refused is not None:
        typer.echo(render(result.refused, "text", options), nl=False, err=True)
        typer.echo(f"cardz: nothing published; {out} is unchanged", err=True)
        raise typer.Exit(1)
    if result.warnings is not None and result.warnings.diagnostics:
        typer.echo(render(result.warnings, "text", options), nl=False, err=True)
    typer.echo(f"published {len(result.games)} game{'s' if len(result.games) != 1 else ''} to {out}")


def _check_thresholds(config: LintConfig) -> Thresholds:
    """The finding thresholds of ``[tool.cardz.check]``."""
    from .analysis.check import CheckOptions

    return CheckOptions.from_config(config).thresholds


# ---------------------------------------------------------------- lsp (issue #11)


@app.command("lsp")
def lsp() -> None:
    """Run the language server over stdio, for editors (see docs/editors.md)."""
    try:
        from .lsp.server import run as run_language_server
    except ImportError:
        raise fail("the language server needs pygls: pip install 'cardz-tools[lsp]'") from None
    run_language_server()
