"""File system faults: watch and fmt survive files deleted, renamed, replaced, unreadable or oddly named.

Tests run as root, where ``chmod 000`` does not stop a read: an unreadable file is a
folder in its place, or ``open`` patched to raise :class:`PermissionError`.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
import watchfiles

from cardz_tools import fmt
from cardz_tools.preview.watch import Frame, Watcher, frame_renderable
from tests.conftest import ROOT

SEED_TEXT = (ROOT / "games" / "monte-carlo.cardz").read_text(encoding="utf-8")
NON_UTF8_NAME = b"caf\xe9.cardz"


class NoSimulation:
    """A simulator that never starts a process."""

    def start(self, design_json: str, done: Any) -> None: ...
    def cancel(self) -> None: ...
    def close(self) -> None: ...


def watcher_for(target: Path) -> Watcher:
    return Watcher(target, simulator=NoSimulation())


def shows(frame: Frame | None) -> str:
    """The frame as the terminal would show it (rendering must not fail either)."""
    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=160).print(frame_renderable(frame))
    return out.getvalue()


def codes(frame: Frame | None) -> set[str]:
    assert frame is not None
    return {d.code for d in frame.checked.diagnostics}


def unreadable(monkeypatch: pytest.MonkeyPatch, victim: Path) -> None:
    """Make ``open`` refuse ``victim`` as an unreadable file would."""
    real_open = builtins.open

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)) and Path(os.fsdecode(file)) == victim:
            raise PermissionError(13, "Permission denied", str(victim))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_open)


# ---------------------------------------------------------------- watch


def test_watch_survives_the_file_being_deleted_then_coming_back(tmp_path: Path) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(SEED_TEXT, encoding="utf-8")
    watcher = watcher_for(design)
    assert watcher.refresh() is not None and not watcher.frame.checked.has_errors  # type: ignore[union-attr]
    design.unlink()
    frame = watcher.handle([(watchfiles.Change.deleted, str(design))])
    assert "CZ100" in codes(frame)
    assert frame is not None and frame.board is not None and not frame.board_is_current  # the last good board stays
    shows(frame)
    design.write_text(SEED_TEXT, encoding="utf-8")
    frame = watcher.handle([(watchfiles.Change.added, str(design))])
    assert frame is not None and frame.board_is_current and not frame.checked.has_errors


def test_watch_of_a_folder_follows_a_rename_and_ignores_a_vanished_other_file(tmp_path: Path) -> None:
    first = tmp_path / "a.cardz"
    first.write_text(SEED_TEXT, encoding="utf-8")
    watcher = watcher_for(tmp_path)
    watcher.refresh()
    renamed = tmp_path / "b.cardz"
    first.rename(renamed)
    frame = watcher.handle([(watchfiles.Change.deleted, str(first)), (watchfiles.Change.added, str(renamed))])
    assert watcher.file == renamed and frame is not None and not frame.checked.has_errors
    assert watcher.handle([(watchfiles.Change.deleted, str(tmp_path / "other.cardz"))]) is None


@pytest.mark.parametrize("cut", [0, 1, 100, len(SEED_TEXT) // 2, len(SEED_TEXT.rstrip()) - 1])
def test_watch_survives_a_file_caught_half_written(tmp_path: Path, cut: int) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(SEED_TEXT, encoding="utf-8")
    watcher = watcher_for(design)
    watcher.refresh()
    design.write_bytes(SEED_TEXT.encode("utf-8")[:cut])
    frame = watcher.handle([(watchfiles.Change.modified, str(design))])
    assert frame is not None and frame.checked.has_errors and codes(frame) & {"CZ103", "CZ104"}
    shows(frame)


def test_watch_survives_a_folder_in_place_of_the_file(tmp_path: Path) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(SEED_TEXT, encoding="utf-8")
    watcher = watcher_for(design)
    watcher.refresh()
    design.unlink()
    design.mkdir()
    frame = watcher.handle([(watchfiles.Change.modified, str(design))])
    assert "CZ100" in codes(frame)
    shows(frame)


def test_watch_survives_an_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(SEED_TEXT, encoding="utf-8")
    watcher = watcher_for(design)
    watcher.refresh()
    unreadable(monkeypatch, design)
    frame = watcher.handle([(watchfiles.Change.modified, str(design))])
    assert "CZ100" in codes(frame)
    assert any("Permission denied" in d.message for d in frame.checked.diagnostics)  # type: ignore[union-attr]


def test_watch_shows_a_design_whose_name_is_not_utf8(tmp_path: Path) -> None:
    raw = os.path.join(os.fsencode(tmp_path), NON_UTF8_NAME)
    with open(raw, "w", encoding="utf-8") as handle:
        handle.write(SEED_TEXT)
    watcher = watcher_for(tmp_path)
    frame = watcher.refresh()
    assert frame is not None and not frame.checked.has_errors
    assert "caf" in shows(frame)
    assert "caf" in frame.page()
    frame = watcher.handle([(watchfiles.Change.modified, os.fsdecode(raw))])
    assert frame is not None and not frame.checked.has_errors


def test_watch_run_ends_calmly_when_its_folder_is_removed(tmp_path: Path) -> None:
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "game.cardz").write_text(SEED_TEXT, encoding="utf-8")
    watcher = Watcher(folder, simulator=NoSimulation(), step_ms=20, debounce_ms=50)
    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            watcher.run(stop)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            failures.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert watcher.ready.wait(10)
    (folder / "game.cardz").unlink()
    folder.rmdir()
    thread.join(5)
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert not failures, failures


# ---------------------------------------------------------------- fmt

UGLY = '{"name": "x",\n"depots": []}'


def run_fmt(*paths: Path, check: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = fmt.run(list(paths), check=check, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_fmt_reports_a_file_deleted_before_it_is_read(tmp_path: Path) -> None:
    code, _, err = run_fmt(tmp_path / "gone.cardz")
    assert code == 2 and "CZ100" in err


def test_fmt_reports_a_folder_in_place_of_a_named_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    odd = tmp_path / "odd.cardz"
    odd.mkdir()
    monkeypatch.setattr(fmt, "expand_paths", lambda paths: iter(paths))  # as if it became a folder after the listing
    code, _, err = run_fmt(odd)
    assert code == 2 and "CZ100" in err


def test_fmt_leaves_an_unreadable_file_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(UGLY, encoding="utf-8")
    unreadable(monkeypatch, design)
    code, _, err = run_fmt(design)
    assert code == 2 and "Permission denied" in err
    monkeypatch.undo()
    assert design.read_text(encoding="utf-8") == UGLY


def test_fmt_reports_a_file_it_cannot_write_and_leaves_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(UGLY, encoding="utf-8")

    def refuse(*args: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fmt.os, "replace", refuse)
    code, _, err = run_fmt(design)
    monkeypatch.undo()
    assert code == 2 and "cannot write" in err
    assert design.read_text(encoding="utf-8") == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.cardz"]  # no temporary file left behind


def test_fmt_rewrites_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    raw = os.path.join(os.fsencode(tmp_path), NON_UTF8_NAME)
    with open(raw, "w", encoding="utf-8") as handle:
        handle.write(UGLY)
    code, out, _ = run_fmt(tmp_path)
    assert code == 0 and "reformatted" in out
    assert os.listdir(os.fsencode(tmp_path)) == [NON_UTF8_NAME]
    with open(raw, encoding="utf-8") as handle:
        assert json.loads(handle.read()) == json.loads(UGLY)


def test_fmt_on_a_file_replaced_between_listing_and_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    design = tmp_path / "game.cardz"
    design.write_text(UGLY, encoding="utf-8")
    real_read = fmt.jsoncst.read_file

    def swapped(path: Path) -> Any:
        path.write_text(UGLY[: len(UGLY) // 2], encoding="utf-8")  # the editor is mid-write
        return real_read(path)

    monkeypatch.setattr(fmt.jsoncst, "read_file", swapped)
    code, _, err = run_fmt(design)
    assert code == 2 and "does not parse" in err
    assert design.read_text(encoding="utf-8") == UGLY[: len(UGLY) // 2]  # left as it was found


# ---------------------------------------------------------------- publish

FAST_PLAY = None


def publish_options() -> Any:
    from cardz_tools.analysis.check import CheckOptions

    return CheckOptions(playouts=3, deals=1, budget=50, max_moves=50, deal_seconds=1.0)


def test_publish_refuses_calmly_a_design_deleted_after_it_was_linted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardz_tools.publish import build

    designs = tmp_path / "designs"
    designs.mkdir()
    doomed = designs / "game.cardz"
    doomed.write_text(SEED_TEXT, encoding="utf-8")
    real_lint = build.lint_paths

    def lint_then_delete(*args: Any, **kwargs: Any) -> Any:
        result = real_lint(*args, **kwargs)
        doomed.unlink()
        return result

    monkeypatch.setattr(build, "lint_paths", lint_then_delete)
    result = build.publish([designs], tmp_path / "site", options=publish_options())
    assert result.refused is not None and "CZ100" in {d.code for d in result.refused.diagnostics}
    assert not (tmp_path / "site").exists()


def test_publish_reports_a_folder_it_cannot_write_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardz_tools.publish import PublishError, build

    designs = tmp_path / "designs"
    designs.mkdir()
    (designs / "game.cardz").write_text(SEED_TEXT, encoding="utf-8")
    site = tmp_path / "site"
    build.publish([designs], site, options=publish_options())
    before = sorted(p.name for p in site.iterdir())

    def refuse(*args: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(build.output, "write_files", refuse)
    with pytest.raises(PublishError, match="Permission denied"):
        build.publish([designs], site, options=publish_options())
    assert sorted(p.name for p in site.iterdir()) == before


def test_publish_refuses_a_file_in_place_of_its_folder(tmp_path: Path) -> None:
    from cardz_tools.publish import PublishError, build

    designs = tmp_path / "designs"
    designs.mkdir()
    (designs / "game.cardz").write_text(SEED_TEXT, encoding="utf-8")
    site = tmp_path / "site"
    site.write_text("not a folder", encoding="utf-8")
    with pytest.raises(PublishError):
        build.publish([designs], site, options=publish_options())
    assert site.read_text(encoding="utf-8") == "not a folder"


def test_publish_takes_a_design_whose_file_name_is_not_utf8(tmp_path: Path) -> None:
    from cardz_tools.publish import build

    designs = tmp_path / "designs"
    designs.mkdir()
    with open(os.path.join(os.fsencode(designs), NON_UTF8_NAME), "w", encoding="utf-8") as handle:
        handle.write(SEED_TEXT)
    result = build.publish([designs], tmp_path / "site", options=publish_options())
    assert result.refused is None and [g.slug for g in result.games] == ["monte-carlo"]


# ---------------------------------------------------------------- files that are not files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_is_reported_not_read_for_ever(tmp_path: Path) -> None:
    from cardz_tools.lint import lint_paths

    pipe = tmp_path / "pipe.cardz"
    os.mkfifo(pipe)
    result = lint_paths([pipe])  # a read would block: nobody writes to the pipe
    assert [d.code for d in result.diagnostics] == ["CZ100"]
    code, _, err = run_fmt(pipe)
    assert code == 2 and "not a regular file" in err
    watcher = watcher_for(pipe)
    assert "CZ100" in codes(watcher.refresh())


def test_a_device_is_reported_not_read(tmp_path: Path) -> None:
    from cardz_tools.lint import lint_paths

    assert [d.code for d in lint_paths([Path(os.devnull)]).diagnostics] == ["CZ100"]
