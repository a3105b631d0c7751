"""A replay of a game on the board: step, play and pause through a line of moves in the browser.

The engine plays the line once, here; each position is drawn with the same SVG as
the static board (:mod:`.board`). A move changes one to three piles, so every
distinct pile drawing is stored once (``pieces``) and a frame is the list of its
piles' piece numbers: a page replays a 150-move line in a few hundred kilobytes.
The page's script only swaps those pieces in and out: it computes no rule, needs no
server and loads nothing from the network.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from html import escape
from typing import Any

from .board import board_box, placed_piles, svg_open

MAX_FRAMES = 2_000
"""A longer line is cut here (and says so): a replay must stay a page, not a download."""


@dataclasses.dataclass(frozen=True)
class Replay:
    """A line of moves drawn position by position (frame 0 is the deal)."""

    title: str
    pieces: tuple[str, ...]
    frames: tuple[tuple[int, ...], ...]
    moves: tuple[str, ...]
    """``moves[i]`` leads from frame ``i`` to frame ``i + 1``."""
    box: tuple[float, float, float, float]
    ending: str
    """What the last frame is: "won", "lost", or a note such as "cut after 2000 moves"."""

    def to_json(self) -> str:
        """The data the page's script reads (``</`` escaped so it cannot close its script element)."""
        data = {"pieces": self.pieces, "frames": self.frames, "moves": self.moves, "ending": self.ending}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def replay_of(state: Any, moves: Sequence[Any], title: str) -> Replay:
    """Play ``moves`` from ``state`` (which is not changed) and draw every position.

    :raises cardz_tools.engine.IllegalMoveError: when a move of the line is not legal where it is played.
    """
    design = state.game.design
    state = state.clone()
    pieces: dict[str, int] = {}
    frames: list[tuple[int, ...]] = []
    boxes: list[tuple[float, float, float, float]] = []
    played: list[str] = []

    def snapshot() -> None:
        frame = []
        for svg, x0, y0, x1, y1 in placed_piles(design, state.piles):
            frame.append(pieces.setdefault(svg, len(pieces)))
            boxes.append((x0, y0, x1, y1))
        frames.append(tuple(frame))

    snapshot()
    ending = ""
    for number, move in enumerate(moves):
        if number >= MAX_FRAMES:
            ending = f"cut after {MAX_FRAMES} moves"
            break
        played.append(state.describe(move))
        state.apply(move)
        snapshot()
    if not ending:
        ending = ("won" if state.outcome().won else "lost") if state.is_terminal() else "not over"
    return Replay(title, tuple(pieces), tuple(frames), tuple(played), board_box(boxes), ending)


def replay_html(replay: Replay, heading: str) -> str:
    """A ``<section>`` with the board, the controls and the replay's data; needs :data:`REPLAY_SCRIPT` once per page."""
    first = "".join(replay.pieces[i] for i in replay.frames[0])
    last = len(replay.frames) - 1
    return (
        f'<section class="cz-replay" data-frames="{len(replay.frames)}" data-ending="{escape(replay.ending)}">'
        f"<h2>{escape(heading)}</h2>"
        f'<div class="cz-replay-board">{svg_open(replay.title, replay.box)}'
        f'<g class="cz-replay-piles">{first}</g></svg></div>'
        '<div class="cz-replay-controls">'
        '<button type="button" data-act="start" title="Back to the deal">Deal</button>'
        '<button type="button" data-act="back" title="One move back">◀</button>'
        '<button type="button" data-act="play" title="Play / pause">Play</button>'
        '<button type="button" data-act="forward" title="One move on">▶</button>'
        '<button type="button" data-act="end" title="To the end">End</button>'
        f'<input type="range" min="0" max="{last}" value="0" aria-label="Move">'
        "</div>"
        f'<p class="cz-replay-caption" aria-live="polite">The deal; {last} move{"s" if last != 1 else ""} to go.</p>'
        f'<script type="application/json" class="cz-replay-data">{replay.to_json()}</script>'
        "</section>"
    )


REPLAY_CSS = """
.cz-replay-board svg{display:block;max-width:100%;height:auto;margin:0 auto}
.cz-replay-controls{display:flex;gap:6px;align-items:center;justify-content:center;margin:10px 0 4px;flex-wrap:wrap}
.cz-replay-controls button{font:inherit;min-width:40px;padding:4px 10px;border-radius:6px;border:1px solid #c7ccd1;
  background:#fff;cursor:pointer}
.cz-replay-controls input{flex:1;min-width:160px;max-width:420px}
.cz-replay-caption{text-align:center;font-size:14px;color:#57606a;margin:4px 0 0}
"""

REPLAY_SCRIPT = """<script>
(function () {
  "use strict";
  document.querySelectorAll(".cz-replay").forEach(function (root) {
    var data = JSON.parse(root.querySelector(".cz-replay-data").textContent);
    var piles = root.querySelector(".cz-replay-piles");
    var slider = root.querySelector("input[type=range]");
    var caption = root.querySelector(".cz-replay-caption");
    var playButton = root.querySelector("[data-act=play]");
    var last = data.frames.length - 1;
    var step = 0, timer = null;
    function show(n) {
      step = Math.max(0, Math.min(last, n));
      piles.innerHTML = data.frames[step].map(function (k) { return data.pieces[k]; }).join("");
      slider.value = String(step);
      root.setAttribute("data-step", String(step));
      if (step === 0) {
        caption.textContent = "The deal; " + last + (last === 1 ? " move" : " moves") + " to go.";
      } else {
        caption.textContent = "Move " + step + " of " + last + ": " + data.moves[step - 1] +
          (step === last ? " \u2014 " + data.ending + "." : "");
      }
    }
    function pause() {
      if (timer !== null) { clearInterval(timer); timer = null; }
      playButton.textContent = "Play";
      root.setAttribute("data-playing", "false");
    }
    function play() {
      if (step >= last) { show(0); }
      playButton.textContent = "Pause";
      root.setAttribute("data-playing", "true");
      timer = setInterval(function () { if (step >= last) { pause(); } else { show(step + 1); } }, 700);
    }
    root.querySelector(".cz-replay-controls").addEventListener("click", function (event) {
      var act = event.target.getAttribute && event.target.getAttribute("data-act");
      if (!act) { return; }
      if (act === "play") { if (timer === null) { play(); } else { pause(); } return; }
      pause();
      if (act === "start") { show(0); }
      if (act === "back") { show(step - 1); }
      if (act === "forward") { show(step + 1); }
      if (act === "end") { show(last); }
    });
    slider.addEventListener("input", function () { pause(); show(parseInt(slider.value, 10)); });
    root.setAttribute("data-ready", "true");
  });
})();
</script>"""


RANDOM_MOVES = 400
"""The longest random playout a page replays."""


def line_replay(state: Any, line: Sequence[str], title: str) -> Replay | None:
    """The replay of a line written as move texts (a solver's line), or None when it does not play."""
    from ..engine.moves import IllegalMoveError
    from ..engine.notation import MoveSyntaxError, parse_move

    try:
        moves = [parse_move(text, state.game.names) for text in line]
        return replay_of(state, moves, title)
    except (MoveSyntaxError, IllegalMoveError):
        return None


def winning_replay(game: Any, seed: int, budget: int = 20_000, seconds: float = 5.0) -> Replay | None:
    """The solver's winning line of deal ``seed``, drawn, or None when it finds none in its budget."""
    import time

    from ..analysis.solve import solve_state

    state = game.new_initial_state(seed=seed)
    result, line, _ = solve_state(state, budget, time.monotonic() + seconds)
    return replay_of(state, line, game.design.name) if result == "won" else None


def random_replay(game: Any, seed: int, moves: int = RANDOM_MOVES) -> Replay:
    """One random playout of deal ``seed`` (move choices from the run's play stream), drawn."""
    from ..analysis.playout import play_randomly, play_seed
    from ..cards import SplitMix64

    state = game.new_initial_state(seed=seed)
    line = play_randomly(state.clone(), SplitMix64(play_seed(seed, 0)), moves)
    return replay_of(state, line, game.design.name)
