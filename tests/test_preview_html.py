"""The preview page and its markdown subset."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardz_tools.preview.board import Board
from cardz_tools.preview.html import markdown_to_html, preview_page, render_page
from cardz_tools.preview.sources import FindingLine, Summary, SummaryStatus, check_file, sample_board

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_paragraphs_bullets_and_bold() -> None:
    html = markdown_to_html("**Goal:** pair\noff all.\n\n- one **two**\n- three\n  continued\n\nlast")
    assert html == (
        "<p><strong>Goal:</strong> pair off all.</p>\n"
        "<ul><li>one <strong>two</strong></li><li>three continued</li></ul>\n"
        "<p>last</p>"
    )


def test_a_paragraph_right_after_a_list_closes_it() -> None:
    assert markdown_to_html("- a\nafter") == "<ul><li>a</li></ul>\n<p>after</p>"


@pytest.mark.parametrize(
    "text, shown",
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("a & b", "a &amp; b"),
        ("**<b>x</b>**", "<strong>&lt;b&gt;x&lt;/b&gt;</strong>"),
        ("2 ** 3 and ** alone", "2 ** 3 and ** alone"),
        ("[link](javascript:x)", "[link](javascript:x)"),
        ("# not a heading", "# not a heading"),
    ],
)
def test_everything_outside_the_subset_is_escaped_text(text: str, shown: str) -> None:
    assert markdown_to_html(text) == f"<p>{shown}</p>"


def test_the_seed_descriptions_become_a_goal_and_bullets() -> None:
    design = check_file(GAMES / "weathervane.cardz").design
    assert design is not None
    html = markdown_to_html(design.description)
    assert html.startswith("<p><strong>Goal:</strong>")
    assert html.count("<li>") == design.description.count("\n- ")
    assert "**" not in html and "<strong>Eights are wild.</strong>" in html


def _page(name: str, summary: Summary | None, current: bool = True) -> str:
    checked = check_file(GAMES / name)
    assert checked.design is not None
    board = Board(checked.design, sample_board(checked.design, 1))
    return render_page(checked, board, summary, seed=1, board_is_current=current)


def test_page_has_board_rules_summary_and_no_external_resources() -> None:
    summary = Summary(
        SummaryStatus.DONE, playouts=200, wins=24, win_rate=0.12, win_rate_interval=(0.08, 0.17),
        stuck_at_deal=3, findings=(FindingLine("forced-play", "info", "most positions offer one move"),),
    )
    page = _page("monte-carlo.cardz", summary)
    assert page.count('class="cz-pile"') == 27
    assert "<strong>five by five grid</strong>" in page
    assert "12.0%" in page and "8.0–17.0%" in page and "forced-play" in page
    assert 'data-status="done"' in page and "No problems found." in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # self-contained
    assert "EventSource" not in page  # only the served page reloads itself


def test_page_marks_a_stale_board_and_shows_diagnostics_with_a_caret(tmp_path: Path) -> None:
    path = tmp_path / "broken.cardz"
    path.write_text('{\n  "name": "x",\n  "depots" [\n', encoding="utf-8")
    checked = check_file(path)
    good = check_file(GAMES / "weathervane.cardz").design
    assert good is not None
    page = render_page(checked, Board(good, sample_board(good, 0)), None, seed=0, board_is_current=False, live=True)
    assert "last board that loaded" in page and page.count('class="cz-pile"') == 10
    assert "CZ104" in page and "3 |   &quot;depots&quot; [" in page and "\n" + " " * 15 + "^</pre>" in page
    assert "EventSource" in page
    assert "<strong>Goal:</strong> clear all seven tableau columns" in page  # rules of the last good design


def test_preview_page_of_a_seed_design(tmp_path: Path) -> None:
    page = preview_page(GAMES / "weathervane.cardz", seed=3, playouts=5)
    board = page[page.index('<section id="board">') : page.index("</section>")]
    assert page.startswith("<!doctype html>") and board.count('class="cz-pile"') == 10
    assert "deal seed 3" in page and 'id="summary"' in page
    # The replays (a winning line when one is found quickly, a random playout) draw the same piles.
    replays = page.count('class="cz-replay"')
    assert replays in (1, 2) and page.count('class="cz-pile"') == 10 * (1 + replays)
