"""The preview page: one self-contained HTML file with the board, the rules, the diagnostics and the summary.

The rules come from the design's ``description``, written in a small markdown
subset (the one the seed designs use): paragraphs separated by blank lines,
``- `` bullets and ``**bold**``. Everything else is shown as text: the
description is escaped first, and only those constructs become tags.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from ..config import LintConfig
from ..diagnostics import Severity
from ..engine import Game
from ..model import Design
from .board import Board, board_svg
from .replay import REPLAY_CSS, REPLAY_SCRIPT, Replay, random_replay, replay_html, winning_replay
from .sources import (
    DEFAULT_PLAYOUTS,
    BoardUnavailable,
    CheckedFile,
    Summary,
    SummaryStatus,
    check_file,
    safe_summary,
    sample_board,
)

_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_BULLET = re.compile(r"^\s{0,3}[-*] +(.*)$")


def _inline(text: str) -> str:
    return _BOLD.sub(r"<strong>\1</strong>", escape(text, quote=False))


def markdown_to_html(text: str) -> str:
    """HTML for the markdown subset: paragraphs, ``- `` bullets, ``**bold**``; everything else escaped.

    >>> markdown_to_html("**Goal:** win.\\n\\n- one\\n- <two>")
    '<p><strong>Goal:</strong> win.</p>\\n<ul><li>one</li><li>&lt;two&gt;</li></ul>'
    """
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + _inline(" ".join(paragraph)) + "</p>")
            paragraph.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + "</ul>")
            items.clear()

    for line in text.splitlines():
        bullet = _BULLET.match(line)
        if not line.strip():
            flush()
        elif bullet:
            if paragraph:
                flush()
            items.append(bullet.group(1).strip())
        elif items and line[:1].isspace():
            items[-1] += " " + line.strip()  # an indented line continues the bullet
        else:
            if items:
                flush()
            paragraph.append(line.strip())
    flush()
    return "\n".join(out)


_CSS = """
body{margin:0;background:#f5f3ee;color:#222;font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}
header{padding:14px 24px;background:#173d24;color:#fff}
header h1{margin:0;font-size:22px}
header p{margin:2px 0 0;opacity:.8;font-size:13px}
main{display:grid;grid-template-columns:minmax(0,auto) minmax(280px,1fr);gap:20px;padding:20px 24px}
section{background:#fff;border-radius:8px;padding:12px 16px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h2{font-size:15px;margin:0 0 8px;text-transform:uppercase;letter-spacing:.05em;color:#555}
#board{grid-row:span 3;align-self:start;overflow:auto}
#board svg{max-width:100%;height:auto}
.stale{background:#fff4d6;border:1px solid #e0b84c;padding:6px 10px;border-radius:6px;margin-bottom:8px}
.diag{margin:0 0 10px}
.diag pre{margin:4px 0;background:#f3f3f3;padding:6px 8px;border-radius:4px;overflow:auto;font-size:13px}
.sev{font-weight:700;text-transform:uppercase;font-size:12px}
.sev-error{color:#b00020}.sev-warning{color:#a65d00}.sev-info{color:#1d5fa8}
.code{font-family:ui-monospace,monospace;font-size:13px}
.hint{color:#555;font-size:13px}
table{border-collapse:collapse}
td{padding:2px 12px 2px 0}
.muted{color:#666}
"""

_RELOAD_SCRIPT = """<script>
(function () {
  var meta = document.querySelector('meta[name="cardz-version"]');
  var shown = meta ? meta.content : "";
  var scrolled = sessionStorage.getItem("cardz-scroll");
  if (scrolled) { window.scrollTo(0, Number(scrolled)); }
  var events = new EventSource("/events");
  events.onmessage = function (event) {
    if (event.data !== shown) {
      events.close();
      sessionStorage.setItem("cardz-scroll", String(window.scrollY));
      location.reload();
    }
  };
})();
</script>"""


def diagnostics_html(checked: CheckedFile) -> str:
    """The diagnostics with their source lines and a caret under each span."""
    if not checked.diagnostics:
        return '<p class="muted">No problems found.</p>'
    parts = []
    for d in checked.diagnostics:
        where = f"{d.file}:" if checked.is_elsewhere(d) else ""
        head = (
            f'<span class="sev sev-{d.severity.value}">{d.severity.value}</span> '
            f'<span class="code">{escape(d.code)} {escape(d.name)}</span> '
            f'<span class="code">{escape(where)}{d.span.line}:{d.span.column}</span> {escape(d.message)}'
        )
        shown = checked.excerpt_for(d)
        body = ""
        if shown is not None:
            gutter = f"{shown.line_number} | "
            caret = " " * (len(gutter) + shown.start) + "^" * max(1, shown.end - shown.start)
            body = f"<pre>{escape(gutter + shown.text)}\n{caret}</pre>"
        hint = f'<div class="hint">hint: {escape(d.hint)}</div>' if d.hint else ""
        parts.append(f'<div class="diag">{head}{body}{hint}</div>')
    return "".join(parts)


def summary_html(summary: Summary | None) -> str:
    """The simulation summary: win rate with its interval, stuck deals, findings."""
    if summary is None:
        return '<p class="muted">No simulation yet.</p>'
    if summary.status is SummaryStatus.RUNNING:
        return f'<p class="muted">Simulating… {escape(summary.message)}</p>'
    if summary.status is not SummaryStatus.DONE:
        return f'<p class="muted">{escape(summary.status.value)}: {escape(summary.message)}</p>'
    low, high = summary.win_rate_interval
    rows = [
        ("win rate", f"{100 * summary.win_rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)"),
        ("playouts", str(summary.playouts)),
        ("stuck at deal", str(summary.stuck_at_deal)),
        ("non-terminating", str(summary.non_terminating)),
    ]
    table = "<table>" + "".join(f"<tr><td>{k}</td><td><b>{escape(v)}</b></td></tr>" for k, v in rows) + "</table>"
    if summary.findings:
        findings = "<ul>" + "".join(
            f'<li><span class="sev sev-{escape(f.severity)}">{escape(f.severity)}</span> '
            f'<span class="code">{escape(f.kind)}</span>: {escape(f.message)}</li>'
            for f in summary.findings
        ) + "</ul>"
    else:
        findings = '<p class="muted">No findings.</p>'
    return table + findings


def render_page(
    checked: CheckedFile,
    board: Board | None,
    summary: Summary | None,
    *,
    seed: int,
    board_is_current: bool = True,
    board_problem: str | None = None,
    live: bool = False,
    replays: tuple[tuple[str, Replay], ...] = (),
) -> str:
    """The whole page. ``live`` adds the script that reloads it when the server says the file changed;
    ``replays`` (heading, replay) adds a section with a board that steps through each line."""
    design = checked.design or (board.design if board else None)
    title = design.name if design and design.name else checked.path.name
    if checked.missing:
        why = "The file was deleted"
    else:
        why = escape(board_problem) if board_problem and not checked.has_errors else "This save has errors"
    if board is None:
        board_part = f'<p class="stale">No board yet. {why}.</p>' if board_problem else (
            '<p class="muted">No board yet: the design does not load.</p>'
        )
    else:
        stale = "" if board_is_current else f'<p class="stale">{why}: showing the last board that loaded.</p>'
        board_part = stale + board_svg(board)
    no_description = '<p class="muted">No description.</p>'
    rules = markdown_to_html(design.description) if design and design.description else no_description
    errors = sum(1 for d in checked.diagnostics if d.severity is Severity.ERROR)
    status = f"{errors} error{'s' if errors != 1 else ''}" if errors else "no errors"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · cardz preview</title>"
        f"<style>{_CSS}{REPLAY_CSS if replays else ''}</style></head>\n<body>"
        f"<header><h1>{escape(title)}</h1><p>{escape(checked.path.name)} · deal seed {seed} · {status}</p></header>\n"
        f'<main><section id="board"><h2>Board</h2>{board_part}</section>\n'
        f'<section id="diagnostics" data-count="{len(checked.diagnostics)}"><h2>Diagnostics</h2>'
        f"{diagnostics_html(checked)}</section>\n"
        f'<section id="summary" data-status="{summary.status.value if summary else "none"}"><h2>Simulation</h2>'
        f"{summary_html(summary)}</section>\n"
        f'<section id="rules"><h2>Rules</h2>{rules}</section>\n'
        + "".join(replay_html(replay, heading) + "\n" for heading, replay in replays)
        + "</main>\n"
        + (REPLAY_SCRIPT + "\n" if replays else "")
        + (_RELOAD_SCRIPT if live else "")
        + "</body></html>\n"
    )


def preview_page(
    path: Path, *, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS, config: LintConfig | None = None
) -> str:
    """The page for ``cardz preview``: checks the file, deals ``seed`` and simulates (in this process)."""
    checked = check_file(path, config)
    board, problem = None, None
    if checked.design is not None:
        try:
            board = Board(checked.design, sample_board(checked.design, seed))
        except BoardUnavailable as exc:
            problem = str(exc)
    replays: tuple[tuple[str, Replay], ...] = ()
    if board is None or checked.has_errors or checked.design_json is None:
        summary = Summary(SummaryStatus.SKIPPED, "fix the errors first")
    else:
        summary = safe_summary(checked.design_json, playouts, seed)
        replays = preview_replays(checked.design, seed)
    return render_page(
        checked, board, summary, seed=seed, board_is_current=board is not None, board_problem=problem, replays=replays
    )


PREVIEW_SOLVE_BUDGET = 10_000
PREVIEW_SOLVE_SECONDS = 2.0
"""The preview looks for a winning line this long at most: a page is written in seconds, whatever the design."""


def preview_replays(design: Design | None, seed: int) -> tuple[tuple[str, Replay], ...]:
    """A winning line of deal ``seed`` when the solver finds one quickly, and one random playout."""
    if design is None:
        return ()
    game = Game(design)
    found = winning_replay(game, seed, budget=PREVIEW_SOLVE_BUDGET, seconds=PREVIEW_SOLVE_SECONDS)
    random = ("A random playout of this deal", random_replay(game, seed))
    return ((("A winning line of this deal", found),) if found else ()) + (random,)
