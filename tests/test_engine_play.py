"""The terminal player driven by a script: numbered moves, typed moves, refusals, undo, restart, the end."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from cardz_tools.play import deal_text, run_play
from tests.engine_support import GAMES


def run(game: str, script: str, seed: int | None = 12, deck: Path | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = run_play(
        GAMES / f"{game}.cardz", seed, deck, io.StringIO(script), Console(file=out, width=100, color_system=None)
    )
    return code, out.getvalue()


def test_a_typed_move_the_rules_refuse_prints_the_rule_reason_and_changes_nothing() -> None:
    code, text = run("monte-carlo", "cell[4] cell[5]\nq\n")
    assert code == 0
    assert "Not allowed: A card pairs with one of its rank that touches it" in text
    assert text.count("move 0 · score 0") == 1  # the board is not redrawn after a refusal


def test_numbered_moves_undo_and_restart() -> None:
    _, text = run("monte-carlo", "1\n1\nu\nr\nq\n")
    boards = [line for line in text.splitlines() if line.startswith("move ")]
    assert boards == [
        "move 0 · score 0",
        "move 1 · score 2",
        "move 2 · score 4",
        "move 1 · score 2",
        "move 0 · score 0",
    ]


def test_the_end_shows_outcome_and_score(tmp_path: Path) -> None:
    deck = tmp_path / "sorted.txt"
    deck.write_text(" ".join(f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS"), encoding="utf-8")
    _, text = run("monte-carlo", "1\n" * 40, seed=None, deck=deck)
    assert "You won! Score 52." in text


def test_weathervane_typed_eight_must_name_a_suit(tmp_path: Path) -> None:
    from cardz_tools.cards import card_str
    from tests.test_engine_golden import weathervane_shut_deck

    deck = tmp_path / "shut.txt"
    deck.write_text(" ".join(card_str(c) for c in weathervane_shut_deck()), encoding="utf-8")
    script = "tab[0] vane\ntab[1] vane\ntab[2] vane\ntab[2] vane diamonds\nq\n"
    _, text = run("weathervane", script, seed=None, deck=deck)
    assert "Not allowed: playing 8♣ on vane names a suit" in text
    assert "move 3 · score 39 · vane names Diamonds" in text


def test_bad_design_and_bad_deck_print_a_message_and_exit_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.cardz"
    broken.write_text('{"name": "x", "depots": [', encoding="utf-8")
    out = io.StringIO()
    code = run_play(broken, 1, None, io.StringIO(""), Console(file=out, width=200, color_system=None))
    assert code == 1 and "CZ104" in out.getvalue() and "cannot be played" in out.getvalue()
    wrong_type = tmp_path / "wrong.cardz"
    wrong_type.write_text(
        '{"name": "x", "depots": [{"name": "a", "type": "Pile"}], '
        '"winCondition": {"kind": "allCardsIn", "depots": "a"}}',
        encoding="utf-8",
    )
    out = io.StringIO()
    code = run_play(wrong_type, 1, None, io.StringIO(""), Console(file=out, width=200, color_system=None))
    assert code == 1 and "CZ2" in out.getvalue()
    short = tmp_path / "short.txt"
    short.write_text("AS KD", encoding="utf-8")
    code, text = run("monte-carlo", "", seed=None, deck=short)
    assert code == 1 and "missing:" in text


def test_deal_prints_the_board_for_a_seed() -> None:
    text = deal_text(GAMES / "weathervane.cardz", 1, None)
    first_lines = text.splitlines()[:3]
    assert first_lines[0] == "Weathervane · seed 1"
    assert first_lines[1].split() == ["stock", "waste", "vane"]
    assert sum(line.count("##") for line in text.splitlines()) == 35 + 1  # 35 hidden tab cards + the stock back


def test_cli_deal_and_play() -> None:
    from typer.testing import CliRunner

    from cardz_tools.cli import app

    runner = CliRunner()
    dealt = runner.invoke(app, ["deal", str(GAMES / "monte-carlo.cardz"), "--seed", "12"])
    assert dealt.exit_code == 0 and dealt.output.startswith("Monte Carlo · seed 12\n")
    assert dealt.output == deal_text(GAMES / "monte-carlo.cardz", 12, None) + "\n"
    played = runner.invoke(
        app, ["play", str(GAMES / "monte-carlo.cardz"), "--seed", "12"], input="cell[4] cell[5]\n1\nq\n"
    )
    assert played.exit_code == 0
    assert "A card pairs with one of its rank that touches it" in played.output and "move 1 · score 2" in played.output
    missing = runner.invoke(app, ["deal", "no-such-file.cardz", "--seed", "1"])
    assert missing.exit_code == 1


def test_a_missing_design_is_named_once_by_play_and_by_the_cli(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardz_tools.cli import app

    missing = tmp_path / "missing.cardz"
    out = io.StringIO()
    code = run_play(missing, 1, None, io.StringIO(""), Console(file=out, width=200, color_system=None))
    assert code == 1 and out.getvalue().count(str(missing)) == 1, out.getvalue()
    for command in (["deal", str(missing)], ["sim", str(missing)], ["expr", "true", "--design", str(missing)]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code in (1, 2) and result.output.count(str(missing)) == 1, (command, result.output)
