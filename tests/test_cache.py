"""The analysis cache: keys, atomic entries, corruption, concurrency, and check/publish reusing it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from cardz_tools import cache as cache_module
from cardz_tools.analysis import check as check_module
from cardz_tools.analysis.check import CheckOptions, PlaySummary, check_paths
from cardz_tools.analysis.findings import Finding, FindingKind
from cardz_tools.cache import CACHEDIR_TAG, Cache, cache_folder
from cardz_tools.diagnostics import Severity

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SMALL = CheckOptions(playouts=20, deals=1, budget=200, max_moves=300)


def test_a_key_follows_the_content_the_settings_and_the_code(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    store = Cache(tmp_path)
    design = {"name": "A", "depots": [{"name": "x"}]}
    key = store.key("play", design, {"playouts": 10})
    assert store.key("play", {"depots": [{"name": "x"}], "name": "A"}, {"playouts": 10}) == key  # key order: no matter
    assert store.key("play", {**design, "name": "B"}, {"playouts": 10}) != key
    assert store.key("play", design, {"playouts": 11}) != key
    assert store.key("sim", design, {"playouts": 10}) != key
    monkeypatch.setattr(cache_module, "code_fingerprint", lambda: "another solver")
    assert store.key("play", design, {"playouts": 10}) != key


def test_the_code_fingerprint_covers_the_solver_source() -> None:
    files = {p.name for p in (ROOT / "cardz_tools" / "analysis").glob("*.py")}
    assert "solve.py" in files  # the fingerprint hashes every module of analysis/, engine/ and expr/
    assert cache_module.code_fingerprint() == cache_module.code_fingerprint()
    assert len(cache_module.code_fingerprint()) == 64


def test_entries_round_trip_and_the_folder_is_tagged(tmp_path: Path) -> None:
    folder = tmp_path / ".cardz_cache"
    store = Cache(folder)
    store.put("ab" * 32, {"x": 1})
    assert store.get("ab" * 32) == {"x": 1}
    assert (folder / "CACHEDIR.TAG").read_text(encoding="utf-8") == CACHEDIR_TAG
    assert CACHEDIR_TAG.startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (folder / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert not list(folder.rglob("*.tmp"))


def test_a_corrupt_entry_is_a_miss_and_is_rewritten(tmp_path: Path) -> None:
    store = Cache(tmp_path)
    key = "cd" * 32
    store.put(key, {"x": 1})
    entry = next(tmp_path.rglob(f"{key}.json"))
    for junk in (b"{\"key\": ", b"\xff\xfe", b"[]", json.dumps({"key": "other", "value": {}}).encode()):
        entry.write_bytes(junk)
        assert store.get(key) is None
    store.put(key, {"x": 2})
    assert store.get(key) == {"x": 2}


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    store = Cache(blocked / ".cardz_cache")
    store.put("ef" * 32, {"x": 1})  # no exception
    assert store.get("ef" * 32) is None


def test_the_folder_is_next_to_the_nearest_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "games" / "deep").mkdir(parents=True)
    assert cache_folder(tmp_path / "games" / "deep") == tmp_path / ".cardz_cache"
    alone = tmp_path.parent / f"{tmp_path.name}-alone"
    alone.mkdir()
    monkeypatch.chdir(alone)
    if cache_module.find_pyproject(alone) is None:
        assert cache_folder(alone) == alone / ".cardz_cache"


def test_two_processes_writing_the_same_entries_leave_every_entry_whole(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from pathlib import Path
        from cardz_tools.cache import Cache
        store = Cache(Path({str(tmp_path)!r}))
        for round in range(150):
            for n in range(8):
                key = f"{{n:064x}}"
                store.put(key, {{"n": n, "payload": "x" * 5000, "writer": sys.argv[1]}})
                got = store.get(key)
                assert got is not None and got["n"] == n and len(got["payload"]) == 5000, got
        """
    )
    writers = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    store = Cache(tmp_path)
    assert all(store.get(f"{n:064x}")["n"] == n for n in range(8))  # type: ignore[index]
    assert not list(tmp_path.rglob("*.tmp"))


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    played: list[str] = []
    real = check_module.play_analysis

    def counted(data: Any, options: CheckOptions) -> Any:
        played.append(str(data.get("name")))
        return real(data, options)

    monkeypatch.setattr(check_module, "play_analysis", counted)
    return played


def test_check_plays_again_only_the_file_that_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("golf.cardz", "monte-carlo.cardz"):
        (tmp_path / name).write_text((GAMES / name).read_text(encoding="utf-8"), encoding="utf-8")
    store = Cache(tmp_path / ".cardz_cache")
    played = _counting(monkeypatch)
    first = check_paths([tmp_path], options=SMALL, cache=store)
    assert sorted(played) == ["Golf", "Monte Carlo"]
    played.clear()
    again = check_paths([tmp_path], options=SMALL, cache=store)
    assert played == []
    assert [d.to_dict() for d in again.diagnostics] == [d.to_dict() for d in first.diagnostics]
    # Reformatting changes nothing the cache keys on; a changed rule does.
    golf = tmp_path / "golf.cardz"
    data = json.loads(golf.read_text(encoding="utf-8"))
    golf.write_text(json.dumps(data, indent=4), encoding="utf-8")
    check_paths([tmp_path], options=SMALL, cache=store)
    assert played == []
    data["description"] = "changed"
    golf.write_text(json.dumps(data, indent=2), encoding="utf-8")
    check_paths([tmp_path], options=SMALL, cache=store)
    assert played == ["Golf"]
    played.clear()
    check_paths([tmp_path], options=SMALL, cache=Cache(None))  # --no-cache
    assert sorted(played) == ["Golf", "Monte Carlo"]


def test_a_corrupt_summary_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "golf.cardz").write_text((GAMES / "golf.cardz").read_text(encoding="utf-8"), encoding="utf-8")
    store = Cache(tmp_path / ".cardz_cache")
    check_paths([tmp_path], options=SMALL, cache=store)
    for entry in (tmp_path / ".cardz_cache").rglob("*.json"):
        broken = {"key": entry.stem, "value": {"findings": [{"kind": "no-such-kind"}]}}
        entry.write_text(json.dumps(broken), encoding="utf-8")
    played = _counting(monkeypatch)
    result = check_paths([tmp_path], options=SMALL, cache=store)
    assert played == ["Golf"] and result.exit_code == 0


def test_a_summary_survives_the_round_trip() -> None:
    summary = PlaySummary(10, 3, 2, 1, 0, (Finding(FindingKind.RULE_NEVER_FIRES, Severity.INFO, "never", "/depots/1"),))
    assert PlaySummary.from_dict(json.loads(json.dumps(summary.to_dict()))) == summary


def test_sim_and_solve_reports_come_back_from_the_cache_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardz_tools.analysis import stored
    from cardz_tools.loading import open_design

    opened = open_design(GAMES / "golf.cardz")
    store = Cache(tmp_path)
    first_sim = stored.cached_simulate(store, opened.data, opened.json_text, 30, seed=4, workers=1, max_moves=200)
    first_solve = stored.cached_solve(store, opened.data, opened.json_text, 2, seed=4, budget=300, workers=1)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("played again")

    monkeypatch.setattr(stored, "simulate", refuse)
    monkeypatch.setattr(stored, "solve", refuse)
    again_sim = stored.cached_simulate(store, opened.data, opened.json_text, 30, seed=4, workers=2, max_moves=200)
    again_solve = stored.cached_solve(store, opened.data, opened.json_text, 2, seed=4, budget=300, workers=2)
    assert again_sim.to_json() == first_sim.to_json() and again_sim.to_text() == first_sim.to_text()
    assert again_solve.to_json() == first_solve.to_json()
    with pytest.raises(AssertionError, match="played again"):
        stored.cached_simulate(store, opened.data, opened.json_text, 31, seed=4, workers=1, max_moves=200)


def test_a_verbose_solve_is_neither_answered_from_the_cache_nor_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardz_tools.analysis import stored
    from cardz_tools.loading import open_design

    opened = open_design(GAMES / "golf.cardz")
    store = Cache(tmp_path)
    calls: list[bool] = []
    real_solve = stored.solve

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(bool(kwargs.get("verbose")))
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(stored, "solve", counted)
    for verbose in (False, True, True, False):
        stored.cached_solve(store, opened.data, opened.json_text, 1, seed=4, budget=200, workers=1, verbose=verbose)
    assert calls == [False, True, True]  # the plain run is kept; each verbose one runs, and is not kept


def test_check_in_parallel_gives_the_same_report_in_file_order() -> None:
    files = [GAMES / "weathervane.cardz", GAMES / "golf.cardz", GAMES / "monte-carlo.cardz"]
    alone = check_paths(files, options=SMALL, workers=1)
    spread = check_paths(files, options=SMALL, workers=2)
    assert [r.path for r in spread.files] == sorted(r.path for r in spread.files)
    assert [d.to_dict() for d in spread.diagnostics] == [d.to_dict() for d in alone.diagnostics]
