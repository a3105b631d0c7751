"""``cardz publish``: lint, gate, analyse and write a folder of game pages (docs/publishing.md).

The whole publication is refused, and ``--out`` left as it was, when any design
has lint errors, two designs would share a file name, or (with ``--gate``) play
finds one of the gated kinds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import diagnostics as dx
from ..analysis.check import CheckOptions, PlaySummary, finding_diagnostic, play_summaries
from ..analysis.deals import winnable_deals
from ..analysis.findings import FindingKind
from ..analysis.playable import DealError
from ..analysis.playout import deal_seed
from ..analysis.solve import DEFAULT_BUDGET
from ..cache import Cache
from ..config import LintConfig
from ..diagnostics import Diagnostic, Severity
from ..engine import Game
from ..lint import FileReport, LintResult, collect_files, lint_paths
from ..model import build_design
from ..preview.board import Board, board_svg
from ..preview.replay import Replay, line_replay
from ..preview.sources import BoardUnavailable, sample_game_and_board
from ..variants import VariantError, flatten_file
from . import output
from .facts import analysis_of, board_summary, decks_phrase, slugify, tagline
from .pages import GameInfo, game_page, index_page

DEFAULT_OPTIONS = CheckOptions(playouts=1000, deals=10, budget=DEFAULT_BUDGET, seed=0, workers=1)
"""How much play a publication does per game with fixed counts (the same bytes anywhere)."""

DEFAULT_SECONDS = 12.0
"""The time budget per game of ``cardz publish`` (``--seconds``; 0 for the fixed counts alone)."""


class PublishError(Exception):
    """The publication cannot be made for a reason outside the designs (exit 2)."""


class GateError(ValueError):
    """A ``--gate`` name that is not a finding kind."""


def parse_gate(values: Iterable[str]) -> frozenset[FindingKind]:
    """Finding kinds from ``--gate`` values (comma-separated names).

    :raises GateError: for an unknown name, with a did-you-mean hint.
    """
    names = [FindingKind(kind).value for kind in FindingKind]
    kinds = set()
    for value in values:
        for name in (part.strip() for part in value.split(",")):
            if not name:
                continue
            if name not in names:
                hint = dx.did_you_mean(name, names)
                raise GateError(
                    f"--gate: '{name}' is not a finding kind"
                    + (f" ({hint})" if hint else f" (one of {', '.join(names)})")
                )
            kinds.add(FindingKind(name))
    return frozenset(kinds)


@dataclasses.dataclass(frozen=True)
class PublishResult:
    """What a run did: the games written, or the diagnostics that refused the publication."""

    games: tuple[GameInfo, ...] = ()
    refused: LintResult | None = None
    warnings: LintResult | None = None
    """The lint report of a publication that went ahead (warnings and infos only)."""

    @property
    def exit_code(self) -> int:
        """0 published, 1 refused."""
        return 1 if self.refused is not None else 0


@dataclasses.dataclass(frozen=True)
class _Candidate:
    report: FileReport
    data: Any
    text: str
    slug: str


def _candidates(linted: LintResult) -> tuple[list[_Candidate], list[FileReport]]:
    """Each design flattened and formatted, with its slug; reports of missing or repeated slugs."""
    candidates = []
    problems: list[FileReport] = []
    for report in linted.files:
        try:
            flattened = flatten_file(Path(report.source.filename))
        except VariantError as exc:  # the file changed or went away after it was linted
            problems.append(FileReport(report.path, tuple(exc.diagnostics), report.source, report.sources))
            continue
        name = flattened.design.get("name", "") if isinstance(flattened.design, dict) else ""
        candidates.append(_Candidate(report, flattened.design, flattened.text(), slugify(str(name))))
    by_slug: dict[str, list[_Candidate]] = {}
    for candidate in candidates:
        by_slug.setdefault(candidate.slug, []).append(candidate)
    for candidate in candidates:
        source = candidate.report.source
        span = source.head_span("/name")
        found: Diagnostic | None = None
        if not candidate.slug:
            found = dx.make(
                "CZ661",
                f"the name '{candidate.data.get('name', '')}' has no ASCII letter or digit to make a file name from",
                source.filename,
                span,
                "/name",
            )
        elif len(by_slug[candidate.slug]) > 1:
            others = ", ".join(c.report.path for c in by_slug[candidate.slug] if c is not candidate)
            found = dx.make(
                "CZ660",
                f"'{candidate.slug}.cardz' would be written for this design and for {others}",
                source.filename,
                span,
                "/name",
                hint="give one of them another name",
            )
        if found is not None:
            problems.append(FileReport(candidate.report.path, (found,), source, candidate.report.sources))
    return candidates, problems


def _page_replay(
    game: Game, played: PlaySummary, seed: int, winnable: Sequence[Mapping[str, Any]]
) -> tuple[Replay | None, int | None]:
    """The winning line a page replays: the first listed winnable deal's, else the first deal the check won."""
    design = game.design
    if winnable:
        first = winnable[0]
        return line_replay(game.new_initial_state(seed=first["seed"]), first["line"], design.name), first["seed"]
    for index, line in played.won_lines:
        deal = deal_seed(seed, index)
        return line_replay(game.new_initial_state(seed=deal), line, design.name), deal
    return None, None


def _game(
    candidate: _Candidate,
    options: CheckOptions,
    gate: frozenset[FindingKind],
    played: PlaySummary,
    dealt: tuple[Game, Any],
    winnable: int = 0,
) -> tuple[GameInfo, tuple[Diagnostic, ...]]:
    """The page facts of one design (``dealt``: its compiled game and the deal pictured), and the
    diagnostics of its gated findings."""
    game, piles = dealt
    design = game.design
    # A gated finding refuses the publication, so it is reported as an error whatever its usual severity.
    gated = tuple(
        dataclasses.replace(finding_diagnostic(finding, design, candidate.report.source), severity=Severity.ERROR)
        for finding in played.findings
        if finding.kind in gate
    )
    info = GameInfo(
        name=design.name,
        slug=candidate.slug,
        family=design.family,
        aliases=design.aliases,
        tagline=tagline(design),
        decks=decks_phrase(design),
        board=board_summary(design),
        board_svg=board_svg(Board(design, piles)),
        description=design.description,
        text=candidate.text,
        analysis=analysis_of(played),
        seed=options.seed,
    )
    if options.deals or winnable:
        deals: tuple[dict[str, Any], ...] = ()
        if winnable:
            listed = winnable_deals(
                json.dumps(candidate.data, sort_keys=True),
                winnable,
                options.seed,
                budget=options.node_budget,
                deal_seconds=options.deal_seconds,
                workers=options.workers,
            )
            deals = tuple(listed.to_dict()["deals"])
        replay, replay_seed = _page_replay(game, played, options.seed, deals)
        info = dataclasses.replace(info, replay=replay, replay_seed=replay_seed, winnable=deals)
    return info, gated


def catalog_entry(game: GameInfo) -> dict[str, Any]:
    """One game in ``catalog.json``."""
    data = game.text.encode("utf-8")
    a = game.analysis
    return {
        "name": game.name,
        "slug": game.slug,
        "family": game.family,
        "aliases": list(game.aliases),
        "tagline": game.tagline,
        "file": game.file,
        "page": game.page,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "lines": game.lines,
        "decks": game.decks,
        "board": game.board,
        "playouts": a.playouts,
        "win_rate": a.win_rate,
        "win_rate_interval": list(a.win_rate_interval),
        "deals": a.deals,
        "won": a.won,
        "lost": a.lost,
        "unknown": a.unknown,
        "winnability": a.winnability,
        "winnability_interval": list(a.winnability_interval),
        "difficulty": a.difficulty.value,
        "seed": game.seed,
        "replay_seed": game.replay_seed,
        "winnable_deals": list(game.winnable),
    }


def publication_files(games: Sequence[GameInfo]) -> dict[str, bytes]:
    """Every file of a publication by name: designs, pages, the index and the catalog."""
    ordered = sorted(games, key=lambda g: g.slug)
    files: dict[str, bytes] = {}
    for game in ordered:
        files[game.file] = game.text.encode("utf-8")
        files[game.page] = game_page(game).encode("utf-8")
    files[output.INDEX] = index_page(ordered).encode("utf-8")
    catalog = json.dumps([catalog_entry(g) for g in ordered], indent=2, ensure_ascii=False) + "\n"
    files[output.CATALOG] = catalog.encode("utf-8")
    return files


def publish(
    paths: Sequence[str | Path],
    out: Path,
    *,
    options: CheckOptions = DEFAULT_OPTIONS,
    gate: frozenset[FindingKind] = frozenset(),
    config: LintConfig | None = None,
    on_design: Callable[[str], None] | None = None,
    cache: Cache | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    winnable: int = 0,
) -> PublishResult:
    """Publish the designs under ``paths`` into ``out`` (see the module docstring).

    Games are played in parallel over ``workers`` processes (or a Dask cluster at
    ``scheduler``) and through ``cache``; ``on_progress(done, total)`` is told as games finish.
    ``winnable`` deals the solver proves winnable are listed per game (page and catalog).

    :raises PublishError: when ``out`` may not be replaced, no design was found, or a design cannot be dealt.
    :raises cardz_tools.lint.LintPathError: when a path does not exist.
    """
    try:
        output.check_target(out)
    except (output.OutputError, OSError) as exc:
        raise PublishError(str(exc)) from None
    config = config or LintConfig()
    # A folder published into a folder of designs must not publish its own downloads next time.
    target = out.resolve()
    files = [f for f in collect_files(paths) if not f.resolve().is_relative_to(target)]
    linted = lint_paths(files, config)
    if not linted.files:
        raise PublishError("no .cardz designs found in " + ", ".join(str(p) for p in paths))
    if linted.failed:
        return PublishResult(refused=linted)
    candidates, slug_problems = _candidates(linted)
    if slug_problems:
        return PublishResult(refused=LintResult(tuple(slug_problems)))
    games: list[GameInfo] = []
    gated_reports: list[FileReport] = []
    boards = []
    for candidate in candidates:
        try:
            # one compiled game per design here, for the board pictured and the replay both
            boards.append(sample_game_and_board(build_design(candidate.data), options.seed))
        except BoardUnavailable as exc:  # before any play: a design that cannot be dealt stops the run at once
            raise PublishError(f"{candidate.report.path}: {exc}") from exc
        if on_design:
            on_design(candidate.report.path)
    done = [0]

    def advance(count: int) -> None:
        done[0] += count
        if on_progress:
            on_progress(done[0], len(candidates))

    played = play_summaries([c.data for c in candidates], options, cache, workers, scheduler, advance)
    for candidate, summary, piles in zip(candidates, played, boards, strict=True):
        if isinstance(summary, DealError):  # sample_board dealt it above: only a changed file gets here
            raise PublishError(f"{candidate.report.path}: {summary.message}")
        info, gated = _game(candidate, options, gate, summary, piles, winnable)
        games.append(info)
        if gated:
            gated_reports.append(
                FileReport(candidate.report.path, gated, candidate.report.source, candidate.report.sources)
            )
    if gated_reports:
        return PublishResult(refused=LintResult(tuple(gated_reports)))
    publication = publication_files(games)
    try:
        with output.staging(out) as staged:
            output.write_files(staged, publication)
            output.check_target(out)  # again: the folder may have changed while the games were played
            output.commit(staged, out)
    except output.OutputError as exc:
        raise PublishError(str(exc)) from None
    except OSError as exc:
        raise PublishError(f"{out}: {exc.strerror or exc}") from None
    return PublishResult(games=tuple(sorted(games, key=lambda g: g.slug)), warnings=linted)
