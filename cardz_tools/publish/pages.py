"""The HTML of a publication: one page per game and an index.

Pages are self-contained (inline CSS, inline SVG) HTML5. The one script is the
replay's (:mod:`cardz_tools.preview.replay`): it steps through a winning line drawn
in advance, computes no rule and loads nothing. Every string a designer wrote is
escaped; the rules go through the preview's markdown subset, which escapes first and
only then adds its few tags.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from html import escape
from typing import Any

from ..preview.html import markdown_to_html
from ..preview.replay import REPLAY_CSS, REPLAY_SCRIPT, Replay, replay_html
from .facts import DIFFICULTY_THRESHOLDS, MIN_DECIDED, Analysis, Difficulty

_CSS = """
*{box-sizing:border-box}
body{margin:0;background:#f6f4ef;color:#1f2328;font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
a{color:#17603a}
.wrap{max-width:960px;margin:0 auto;padding:0 20px}
.top{background:#173d24;color:#fff}
.top .wrap{padding-top:22px;padding-bottom:22px}
.top a{color:#cfe8d6}
.crumbs{margin:0 0 6px;font-size:14px}
.family{margin:0;font-size:13px;letter-spacing:.08em;text-transform:uppercase;opacity:.8}
h1{margin:2px 0 4px;font-size:32px;line-height:1.2}
.tagline{margin:0 0 10px;font-size:18px;opacity:.92}
.facts{margin:0;display:flex;flex-wrap:wrap;gap:8px 18px;font-size:14px;align-items:center}
main.wrap{padding-top:24px;padding-bottom:40px}
section,figure{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.1);margin:0 0 20px;padding:16px 20px}
h2{margin:0 0 10px;font-size:15px;letter-spacing:.06em;text-transform:uppercase;color:#57606a}
figure svg{display:block;max-width:100%;height:auto;margin:0 auto}
figcaption{margin-top:10px;font-size:14px;color:#57606a}
.rules li{margin:4px 0}
.button{
  display:inline-block;
  background:#1f6b3a;
  color:#fff;
  text-decoration:none;
  font-weight:600;
  padding:8px 16px;
  border-radius:6px
}
.button:hover{background:#17552e}
.top .button{color:#fff;background:#2c8a4f;padding:4px 12px;font-size:14px}
.badge{
  display:inline-block;
  padding:2px 10px;
  border-radius:999px;
  font-size:13px;
  font-weight:700;
  color:#fff;
  white-space:nowrap
}
.d-easy{
  background:#2e7d32}.d-medium{background:#b7791f}.d-hard{background:#c2410c}.d-very-hard{background:#9f1239}.d-undecided{background:#6b7280
}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:10px 0}
dt{font-weight:600}dd{margin:0}
.note{font-size:13px;color:#57606a;margin:8px 0 0}
details summary{cursor:pointer;font-weight:600}
.lines{color:#57606a;font-weight:400;margin-left:6px}
pre{
  background:#f3f4f6;
  border-radius:6px;
  padding:12px;
  overflow:auto;
  font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
  white-space:pre
}
.games{
  list-style:none;
  margin:0;
  padding:0;
  display:grid;
  grid-template-columns:repeat(auto-fill,minmax(280px,1fr));
  gap:16px
}
.game{
  background:#fff;
  border-radius:10px;
  box-shadow:0 1px 3px rgba(0,0,0,.1);
  padding:14px 18px;
  display:flex;
  flex-direction:column;
  gap:6px
}
.game h2{margin:0;font-size:20px;letter-spacing:0;text-transform:none;color:inherit}
.game h2 a{text-decoration:none}
.game p{margin:0}
.game .family{color:#57606a;opacity:1}
.game .meta{font-size:14px;color:#57606a}
.game .links{
  margin-top:auto;
  padding-top:6px;
  display:flex;
  flex-wrap:wrap;
  gap:8px 14px;
  align-items:center;
  font-size:14px;
  white-space:nowrap
}
"""


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """Everything the pages and the catalog say about one published game."""

    name: str
    slug: str
    family: str
    aliases: tuple[str, ...]
    tagline: str
    decks: str
    board: str
    board_svg: str
    description: str
    text: str
    """The published design file: flattened and in the canonical layout."""
    analysis: Analysis
    seed: int
    replay: Replay | None = None
    """A winning line (of a solved deal) drawn for the page's replay, when the solver found one."""
    replay_seed: int | None = None
    """The ``cardz deal --seed`` of the replayed deal."""
    winnable: tuple[dict[str, Any], ...] = ()
    """Proven-winnable deals (``cardz publish --winnable N``), as ``cardz deals`` lists them."""

    @property
    def file(self) -> str:
        return f"{self.slug}.cardz"

    @property
    def page(self) -> str:
        return f"{self.slug}.html"

    @property
    def lines(self) -> int:
        return self.text.count("\n")


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(pair: tuple[float, float]) -> str:
    return f"95% CI {100 * pair[0]:.1f}–{100 * pair[1]:.1f}%"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def difficulty_badge(word: Difficulty) -> str:
    """The difficulty as a coloured badge."""
    return f'<span class="badge d-{word.value.replace(" ", "-")}">{escape(word.value)}</span>'


def _document(title: str, body: str, script: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}{REPLAY_CSS if script else ''}</style>\n</head>\n<body>\n"
        f"{body}{script + chr(10) if script else ''}</body>\n</html>\n"
    )


def replay_section(game: GameInfo) -> str:
    """The replay of a winning line, or a note that the solver found none in the deals it tried."""
    if game.replay is None:
        return (
            '<section class="replay"><h2>A winning line</h2><p class="note">The solver found no winning line '
            "in the deals it tried, so there is nothing to replay.</p></section>\n"
        )
    heading = f"A winning line (deal --seed {game.replay_seed})" if game.replay_seed is not None else "A winning line"
    return replay_html(game.replay, heading) + "\n"


def winnable_section(game: GameInfo) -> str:
    """The proven-winnable deals, with their seeds and difficulty, when the publication lists any."""
    if not game.winnable:
        return ""
    rows = "".join(
        f"<tr><td><code>{escape(str(deal['seed']))}</code></td><td>{escape(str(deal['difficulty']))}</td>"
        f"<td>{escape(str(deal['moves']))}</td></tr>"
        for deal in game.winnable
    )
    return (
        f'<section class="winnable"><h2>Winnable deals</h2><p>{_plural(len(game.winnable), "deal")} the solver won, '
        "each with its seed (<code>cardz play --seed N</code>) and its difficulty for this game.</p>"
        f"<table><thead><tr><th>seed</th><th>difficulty</th><th>moves to win</th></tr></thead><tbody>{rows}"
        "</tbody></table></section>\n"
    )


def _download(game: GameInfo, label: str, css: str = "button") -> str:
    file = escape(game.file)
    return f'<a class="{css}" href="{file}" download="{file}">{escape(label)}</a>'


def random_play_text(analysis: Analysis) -> str:
    """``wins 25.0% of 100 playouts (95% CI 17.6–34.3%)``."""
    if not analysis.playouts:
        return "not simulated"
    playouts = _plural(analysis.playouts, "playout")
    return f"wins {_percent(analysis.win_rate)} of {playouts} ({_interval(analysis.win_rate_interval)})"


def solver_text(analysis: Analysis) -> str:
    """``won 2, lost 0, undecided 1 of 3 deals: winnable 100.0% of decided deals (95% CI 20.8–100.0%)``."""
    if not analysis.deals:
        return "not solved"
    counts = (
        f"won {analysis.won}, lost {analysis.lost}, undecided {analysis.unknown} of {_plural(analysis.deals, 'deal')}"
    )
    if analysis.winnability is None:
        return f"{counts}: none decided ({_interval(analysis.winnability_interval)}, undecided deals counted both ways)"
    return (
        f"{counts}: winnable {_percent(analysis.winnability)} of decided deals "
        f"({_interval(analysis.winnability_interval)}, undecided deals counted both ways)"
    )


def _thresholds_note() -> str:
    steps = ", ".join(f"{word.value} from {_percent(floor)}" for floor, word in DIFFICULTY_THRESHOLDS[:-1])
    return (
        f"The word comes from the share of deals the solver won, undecided deals counted as lost: {steps}, "
        f"{DIFFICULTY_THRESHOLDS[-1][1].value} below; undecided while the solver has decided fewer than "
        f"{MIN_DECIDED} deals or fewer than half of them."
    )


def game_page(game: GameInfo) -> str:
    """The page of one game: facts, board, rules, difficulty, the design file and its download."""
    a = game.analysis
    aliases = f"<span>Also known as {escape(', '.join(game.aliases))}</span>" if game.aliases else ""
    tagline = f'<p class="tagline">{escape(game.tagline)}</p>' if game.tagline else ""
    rules = markdown_to_html(game.description) if game.description.strip() else "<p>No rules written yet.</p>"
    body = (
        '<header class="top"><div class="wrap">'
        '<p class="crumbs"><a href="index.html">All games</a></p>'
        f'<p class="family">{escape(game.family)}</p>'
        f"<h1>{escape(game.name)}</h1>{tagline}"
        f'<p class="facts"><span class="decks">{escape(game.decks)}</span>{aliases}'
        f"{difficulty_badge(a.difficulty)}{_download(game, 'Download')}</p>"
        "</div></header>\n"
        '<main class="wrap">\n'
        f'<figure class="board">{game.board_svg}'
        f"<figcaption>The {escape(game.name)} board: {escape(game.board)}. "
        f"Deal {game.seed} is shown; fanned piles are shown with a trail of cards.</figcaption></figure>\n"
        f'<section class="rules"><h2>Rules</h2>{rules}</section>\n'
        + replay_section(game)
        + winnable_section(game)
        + f'<section class="difficulty" data-difficulty="{escape(a.difficulty.value)}"><h2>Difficulty</h2>'
        f"<p>{difficulty_badge(a.difficulty)}</p>"
        f"<dl><dt>Random play</dt><dd>{escape(random_play_text(a))}</dd>"
        f"<dt>A solver that sees every card</dt><dd>{escape(solver_text(a))}</dd></dl>"
        f'<p class="note">{escape(_thresholds_note())}</p></section>\n'
        f'<section class="file"><details><summary>Read its design file'
        f'<span class="lines">{_plural(game.lines, "line")}</span></summary>'
        f"<pre><code>{escape(game.text)}</code></pre></details>"
        f"<p>{_download(game, f'Download {game.file}')}</p></section>\n"
        "</main>\n"
    )
    return _document(game.name, body, REPLAY_SCRIPT if game.replay is not None else "")


def index_page(games: Sequence[GameInfo]) -> str:
    """The list of every game: name, family, tagline, difficulty, page and download links."""
    items = []
    for game in sorted(games, key=lambda g: (g.name.casefold(), g.slug)):
        page = escape(game.page)
        tagline = f"<p>{escape(game.tagline)}</p>" if game.tagline else ""
        items.append(
            f'<li class="game" data-slug="{escape(game.slug)}">'
            f'<p class="family">{escape(game.family)}</p>'
            f'<h2><a href="{page}">{escape(game.name)}</a></h2>{tagline}'
            f'<p class="meta">{escape(game.decks)} · {escape(game.board)}</p>'
            f'<p class="links">{difficulty_badge(game.analysis.difficulty)}'
            f'<a href="{page}">Rules and board</a>{_download(game, "Download", "download")}</p></li>\n'
        )
    count = _plural(len(games), "game")
    body = (
        '<header class="top"><div class="wrap"><h1>Solitaire games</h1>'
        f'<p class="tagline">{count}, each with its rules, its board and its design file.</p></div></header>\n'
        f'<main class="wrap">\n<ul class="games">\n{"".join(items)}</ul>\n</main>\n'
    )
    return _document("Solitaire games", body)
