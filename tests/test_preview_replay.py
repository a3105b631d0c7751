"""The replay: a line drawn frame by frame, on game pages and in cardz preview, driven in headless Chromium."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from cardz_tools.analysis.check import CheckOptions
from cardz_tools.analysis.solve import solve_state
from cardz_tools.engine import Game
from cardz_tools.loading import open_design
from cardz_tools.preview.board import Board, board_svg
from cardz_tools.preview.html import preview_page
from cardz_tools.preview.replay import line_replay, random_replay, replay_of
from cardz_tools.publish import publish

ROOT = Path(__file__).resolve().parent.parent
MONTE_CARLO = ROOT / "games" / "monte-carlo.cardz"
CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (.ci/run installs Debian's chromium package)"
)


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(open_design(MONTE_CARLO).design)


def test_frames_are_the_positions_of_the_line_drawn_as_the_board_is(game: Game) -> None:
    state = game.new_initial_state(seed=1)
    result, line, _ = solve_state(state, 20_000)
    assert result == "won"
    replay = replay_of(state, line, "Monte Carlo")
    assert len(replay.frames) == len(line) + 1 and len(replay.moves) == len(line)
    assert replay.ending == "won"
    # Frame k is exactly the static board of the position after k moves, pile by pile.
    for k in (0, 1, len(line)):
        probe = state.clone()
        for move in line[:k]:
            probe.apply(move)
        drawn = "".join(replay.pieces[i] for i in replay.frames[k])
        expected = board_svg(Board(game.design, tuple(tuple(p) for p in probe.piles)))
        assert drawn in expected
    assert state.move_count == 0  # the state given is not changed
    # Piles that do not change are stored once.
    assert len(replay.pieces) < len(replay.frames) * len(game.design.depots) // 4


def test_the_data_cannot_close_its_script_element(game: Game) -> None:
    replay = random_replay(game, 2, moves=5)
    data = replay.to_json()
    assert "</" not in data
    assert json.loads(data)["frames"] == [list(frame) for frame in replay.frames]


def test_a_line_that_does_not_play_gives_no_replay(game: Game) -> None:
    state = game.new_initial_state(seed=1)
    first = str(state.legal_moves()[0])
    assert line_replay(state, [first], "x") is not None
    assert line_replay(state, ["cell[0] cell[0]"], "x") is None
    assert line_replay(state, ["no such depot"], "x") is None


def test_the_preview_page_has_a_winning_line_and_a_random_playout() -> None:
    page = preview_page(MONTE_CARLO, seed=1, playouts=20)
    assert page.count('class="cz-replay"') == 2
    assert "A winning line of this deal" in page and "A random playout of this deal" in page
    assert page.count("<script>") == 1


def test_publish_pages_replay_a_won_deal_and_list_winnable_deals(tmp_path: Path) -> None:
    out = tmp_path / "site"
    options = CheckOptions(playouts=30, deals=3, budget=20_000, seed=0, workers=1)
    result = publish([MONTE_CARLO], out, options=options, winnable=2)
    assert result.refused is None
    (entry,) = json.loads((out / "catalog.json").read_text(encoding="utf-8"))
    assert len(entry["winnable_deals"]) == 2
    assert entry["replay_seed"] == entry["winnable_deals"][0]["seed"]
    page = (out / entry["page"]).read_text(encoding="utf-8")
    assert 'class="cz-replay"' in page and f"deal --seed {entry['replay_seed']}" in page
    assert '<section class="winnable">' in page and str(entry["winnable_deals"][1]["seed"]) in page


DRIVER = """<script>
(function () {
  var r = document.querySelector(".cz-replay"), c = r.querySelector(".cz-replay-controls"), out = {};
  function click(a) { c.querySelector("[data-act=" + a + "]").click(); }
  function cards() { return r.querySelectorAll(".cz-replay-piles .cz-card").length; }
  out.ready = r.getAttribute("data-ready"); out.frames = +r.getAttribute("data-frames"); out.atDeal = cards();
  click("forward"); click("forward"); out.afterTwo = +r.getAttribute("data-step");
  out.caption = r.querySelector(".cz-replay-caption").textContent;
  click("back"); out.afterBack = +r.getAttribute("data-step");
  click("end"); out.atEnd = +r.getAttribute("data-step");
  out.endCaption = r.querySelector(".cz-replay-caption").textContent;
  out.cardsAtEnd = cards(); click("start"); out.backAtDeal = cards();
  click("play"); out.playing = r.getAttribute("data-playing");
  setTimeout(function () {
    out.later = +r.getAttribute("data-step"); out.playingLater = r.getAttribute("data-playing");
    document.body.setAttribute("data-result", JSON.stringify(out));
  }, 600000);
})();
</script>"""


def drive(page: Path) -> dict:  # type: ignore[type-arg]
    """Open ``page`` with the driver script in headless Chromium; virtual time lets "play" run to the end."""
    driven = page.with_name("driven-" + page.name)
    driven.write_text(page.read_text(encoding="utf-8").replace("</body>", DRIVER + "</body>"), encoding="utf-8")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:  # see browser_support.dump_dom
        done = subprocess.run(
            [
                str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", f"--user-data-dir={profile}",
                "--virtual-time-budget=900000", "--dump-dom", driven.as_uri(),
            ],
            capture_output=True, text=True, timeout=90,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'data-result="([^"]*)"', done.stdout)
    assert found, "the driver did not finish"
    return json.loads(found[1].replace("&quot;", '"').replace("&amp;", "&"))  # type: ignore[no-any-return]


def check_driven(result: dict) -> None:  # type: ignore[type-arg]
    last = result["frames"] - 1
    assert result["ready"] == "true" and last > 2
    assert (result["afterTwo"], result["afterBack"], result["atEnd"]) == (2, 1, last)
    assert result["caption"].startswith(f"Move 2 of {last}: ")
    assert result["backAtDeal"] == result["atDeal"] and result["cardsAtEnd"] != result["atDeal"]
    assert result["playing"] == "true" and (result["later"], result["playingLater"]) == (last, "false")


@needs_chromium
def test_a_game_page_steps_plays_and_pauses_in_the_browser(tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish([MONTE_CARLO], out, options=CheckOptions(playouts=20, deals=2, budget=20_000, seed=0, workers=1))
    result = drive(out / "monte-carlo.html")
    check_driven(result)
    assert result["endCaption"].endswith("— won.")


@needs_chromium
def test_the_preview_replays_in_the_browser(tmp_path: Path) -> None:
    page = tmp_path / "board.html"
    page.write_text(preview_page(MONTE_CARLO, seed=1, playouts=20), encoding="utf-8")
    check_driven(drive(page))
