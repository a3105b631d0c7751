"""cardz new: the templates ship in the package, lint clean but for their TODOs, and play."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_tools.authoring.new import (
    DEFAULT_TEMPLATE,
    TemplateError,
    default_path,
    format_list,
    new_design,
    run_new,
    templates,
)
from cardz_tools.cards import FACE_UP
from cardz_tools.engine import Game
from cardz_tools.lint import lint_text
from cardz_tools.model import build_design
from cardz_tools.todos import find_todos

ROOT = Path(__file__).parent.parent
SOURCE = ROOT / "templates"
PACKAGED = ROOT / "cardz_tools" / "templates"
IDS = [t.id for t in templates()]


def test_packaged_templates_are_identical_to_the_source() -> None:
    source = {p.name: p.read_bytes() for p in SOURCE.glob("*.cardz")}
    packaged = {p.name: p.read_bytes() for p in PACKAGED.glob("*.cardz")}
    assert source and source == packaged


def test_one_template_per_kind_of_board() -> None:
    families = {t.id: t.family for t in templates()}
    assert families == {
        "pairing-grid": "Pyramid",
        "golf": "Golf",
        "klondike": "Klondike",
        "freecell": "FreeCell",
        "gaps": "Gaps",
        "spider": "Spider",
    }
    assert DEFAULT_TEMPLATE in families


@pytest.mark.parametrize("template_id", IDS)
def test_template_lints_clean_except_its_todos(template_id: str) -> None:
    text = new_design("Test game", template_id)
    problems = [
        f"{d.code} {d.pointer}: {d.message}" for d in lint_text(text, f"{template_id}.cardz") if d.code != "CZ601"
    ]
    assert problems == []
    todos = find_todos(json.loads(text))
    assert any("change first" in message for _, message in todos)


@pytest.mark.parametrize("template_id", IDS)
def test_template_plays(template_id: str) -> None:
    game = Game(build_design(json.loads(new_design("Test game", template_id))))
    state = game.new_initial_state(seed=7)
    assert state.legal_moves(), "the first deal of the template offers a move"
    dealt = sorted(card & ~FACE_UP for pile in state.piles for card in pile)
    rng = random.Random(7)
    for _ in range(150):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
        assert sorted(card & ~FACE_UP for pile in state.piles for card in pile) == dealt, "a move lost or made a card"
    assert state.move_count > 0


def test_new_design_sets_the_name_and_keeps_the_rest() -> None:
    template = next(t for t in templates() if t.id == "gaps")
    data: dict[str, Any] = json.loads(new_design("  Ma   réussite ", "gaps"))
    assert data["name"] == "Ma réussite"
    assert {k: v for k, v in data.items() if k != "name"} == {k: v for k, v in template.data.items() if k != "name"}


@pytest.mark.parametrize(
    ("name", "template_id", "message"),
    [("", "golf", "empty"), ("x" * 81, "golf", "at most 80"), ("X", "klondik", "did you mean 'klondike'")],
)
def test_bad_name_or_template(name: str, template_id: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        new_design(name, template_id)


def test_list_names_every_template_and_what_to_change_first() -> None:
    listing = format_list()
    for template in templates():
        assert f"{template.id}" in listing and template.family in listing
    assert listing.count("change first:") == len(templates())


def _run(*args: Any, **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_new(*args, stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_run_writes_name_dot_cardz_and_never_overwrites_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert default_path("My Game!") == Path("my-game.cardz")
    code, out, _ = _run("My Game!", "golf")
    assert code == 0 and "wrote my-game.cardz" in out
    assert json.loads((tmp_path / "my-game.cardz").read_text(encoding="utf-8"))["family"] == "Golf"
    code, _, err = _run("My Game!", "klondike")
    assert code == 2 and "already exists" in err
    assert json.loads((tmp_path / "my-game.cardz").read_text(encoding="utf-8"))["family"] == "Golf"


def test_run_to_stdout_and_errors() -> None:
    code, out, _ = _run("Solo", "freecell", "-")
    assert code == 0 and json.loads(out)["name"] == "Solo"
    assert _run(None)[0] == 2
    code, _, err = _run("Solo", "nope")
    assert code == 2 and "no template named 'nope'" in err and "Traceback" not in err
    code, out, _ = _run(None, list_templates=True)
    assert code == 0 and "pairing-grid" in out


def test_cli_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardz_tools import cli

    runner = CliRunner()
    target = tmp_path / "mine.cardz"
    result = runner.invoke(cli.app, ["new", "Mine", "--template", "golf", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["name"] == "Mine"
    listing = runner.invoke(cli.app, ["new", "--list"])
    assert listing.exit_code == 0 and "pairing-grid" in listing.output
