"""cardz fmt: the seeds are their own canonical form, nothing is lost, files are never damaged."""

from __future__ import annotations

import io
import json
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_tools import fmt, jsoncst
from cardz_tools.fmt import KEY_ORDER, WIDTH, Context, Outcome, format_file, format_text

GAMES = Path(__file__).resolve().parent.parent / "games"
SEEDS = [GAMES / "monte-carlo.cardz", GAMES / "weathervane.cardz"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tagged(text: str) -> Any:
    """The JSON value of a text with every number kept as the exact token written."""
    return json.loads(text, parse_int=lambda t: ("int", t), parse_float=lambda t: ("float", t))


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


# ---------------------------------------------------------------- generated JSON text

NUMBER = st.from_regex(r"-?(0|[1-9][0-9]{0,5})(\.[0-9]{1,4})?([eE][+-]?[0-9]{1,2})?", fullmatch=True)
KEYS = sorted({key for order in KEY_ORDER.values() for key in order}) + ["x", "note", "é", "a/b", "~"]


def string_token(text: str, ascii_only: bool) -> str:
    return json.dumps(text, ensure_ascii=ascii_only)


@st.composite
def json_text(draw: st.DrawFn, depth: int = 0) -> str:
    """JSON text with numbers in any written form, strings escaped or not, random layout."""
    leaf = st.one_of(
        NUMBER,
        st.sampled_from(["true", "false", "null"]),
        st.builds(string_token, st.text(max_size=30), st.booleans()),
    )
    choice = draw(st.integers(0, 4 if depth < 4 else 0))
    space = draw(st.sampled_from(["", " ", "\n  ", "\t", "\r\n"]))
    if choice <= 1:
        return draw(leaf)
    if choice == 2:
        items = draw(st.lists(json_text(depth + 1), max_size=5))
        return "[" + space + ("," + space).join(items) + "]"
    keys = draw(st.lists(st.sampled_from(KEYS) | st.text(max_size=8), max_size=7, unique=True))
    members = [string_token(k, draw(st.booleans())) + space + ":" + draw(json_text(depth + 1)) for k in keys]
    return "{" + space + ("," + space).join(members) + space + "}"


@st.composite
def design_text(draw: st.DrawFn) -> str:
    """A JSON-ish design: canonical top-level keys and depots with rule objects, plus noise."""
    depot_keys = KEY_ORDER[Context.DEPOT] + ("x",)
    depots = []
    for _ in range(draw(st.integers(0, 4))):
        keys = draw(st.lists(st.sampled_from(depot_keys), max_size=len(depot_keys), unique=True))
        depots.append("{" + ", ".join(f'"{k}": {draw(json_text(2))}' for k in keys) + "}")
    keys = draw(st.lists(st.sampled_from(KEY_ORDER[Context.ROOT] + ("zzz", "aaa")), max_size=18, unique=True))
    members = [f'"{k}": ' + ("[" + ", ".join(depots) + "]" if k == "depots" else draw(json_text(1))) for k in keys]
    return "{" + ",\n".join(members) + "}"


# ---------------------------------------------------------------- the seeds


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_seed_is_its_own_canonical_form(seed: Path) -> None:
    text = read(seed)
    assert format_text(text) == text


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
@pytest.mark.parametrize("indent", [None, 4, "\t"])
def test_seed_is_recovered_from_any_whitespace(seed: Path, indent: int | str | None) -> None:
    text = read(seed)
    assert format_text(json.dumps(json.loads(text), indent=indent, ensure_ascii=False)) == text


def _shuffle_keys(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffle_keys(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffle_keys(v, rng) for v in value]
    return value


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
@FAST
@given(rng=st.randoms(use_true_random=False))
def test_seed_is_recovered_whatever_the_key_order(seed: Path, rng: random.Random) -> None:
    text = read(seed)
    shuffled = json.dumps(_shuffle_keys(json.loads(text), rng), ensure_ascii=False)
    assert format_text(shuffled) == text


# ---------------------------------------------------------------- data and stability


@FAST
@given(text=st.one_of(json_text(), design_text()))
def test_formatting_keeps_the_value_and_every_token(text: str) -> None:
    formatted = format_text(text)
    assert tagged(formatted) == tagged(text)
    assert format_text(formatted) == formatted
    assert formatted.endswith("\n") and not formatted.endswith("\n\n")
    for line in formatted.split("\n"):
        assert line == line.rstrip(" \t\r"), f"trailing white space in {line!r}"
        assert line == " " * (len(line) - len(line.lstrip(" "))) + line.lstrip(" \t")


@st.composite
def short_design(draw: st.DrawFn) -> str:
    """A design whose every token is short, so nothing forces a line over the budget."""
    short_leaf = st.one_of(
        st.integers(-999, 999).map(str),
        st.sampled_from(["true", "null", '"Tableau"', '"count(depot) == 2"', '"é"']),
    )
    rule = st.dictionaries(st.sampled_from(KEY_ORDER[Context.ACCEPT]), short_leaf, max_size=6)
    effect = st.dictionaries(st.sampled_from(KEY_ORDER[Context.EFFECT]), short_leaf, max_size=7)
    trigger = st.fixed_dictionaries({"when": short_leaf, "do": st.lists(effect, max_size=3)})
    depot = st.fixed_dictionaries(
        {"type": short_leaf, "name": short_leaf},
        optional={
            "col": short_leaf, "row": short_leaf, "repeat": short_leaf, "perRow": short_leaf,
            "acceptRule": rule, "ejectRule": rule, "triggers": st.lists(trigger, max_size=3),
            "actions": st.lists(trigger, max_size=2),
        },
    )
    design = {"name": '"x"', "depots": draw(st.lists(depot, max_size=4))}

    def dump(value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ",".join(f'"{k}":{dump(v)}' for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ",".join(dump(v) for v in value) + "]"
        return str(value)

    return dump(design)


@FAST
@given(text=short_design())
def test_lines_stay_within_the_budget_when_tokens_are_short(text: str) -> None:
    formatted = format_text(text)
    assert max(len(line) for line in formatted.split("\n")) <= WIDTH
    assert tagged(formatted) == tagged(text)


def _mutate(value: Any, data: st.DataObject, depth: int = 0) -> Any:
    """A random edit somewhere in a JSON value: replace, delete or add."""
    if isinstance(value, (dict, list)) and value and depth < 6 and data.draw(st.booleans()):
        keys = list(value) if isinstance(value, dict) else list(range(len(value)))
        key = data.draw(st.sampled_from(keys))
        copy = dict(value) if isinstance(value, dict) else list(value)
        copy[key] = _mutate(value[key], data, depth + 1)
        return copy
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    leaf = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=8,
    )
    if action == "delete" and isinstance(value, dict) and value:
        copy = dict(value)
        copy.pop(data.draw(st.sampled_from(list(copy))))
        return copy
    if action == "add" and isinstance(value, dict):
        return {**value, data.draw(st.sampled_from(KEYS)): data.draw(leaf)}
    if action == "add" and isinstance(value, list):
        return value + [data.draw(leaf)]
    return data.draw(leaf)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
@FAST
@given(data=st.data())
def test_mutated_seeds_keep_their_value(seed: Path, data: st.DataObject) -> None:
    value = json.loads(read(seed))
    for _ in range(data.draw(st.integers(1, 4))):
        value = _mutate(value, data)
    text = json.dumps(value, ensure_ascii=data.draw(st.booleans()))
    formatted = format_text(text)
    assert tagged(formatted) == tagged(text)
    assert format_text(formatted) == formatted


def test_tokens_keep_their_written_form() -> None:
    text = '{"name":"caf\\u00e9 café \\/","col":1.0,"row":5.50,"x":[1E5,-0,1e-3,0.0]}'
    formatted = format_text(text)
    assert (
        formatted
        == '{\n  "name": "caf\\u00e9 café \\/",\n  "col": 1.0,\n  "row": 5.50,\n  "x": [1E5, -0, 1e-3, 0.0]\n}\n'
    )


def test_unknown_keys_follow_known_ones_in_their_written_order() -> None:
    text = '{"zeta":1,"tools":"None","alpha":2,"name":"n","depots":[{"name":"s","x":0,"type":"Stock"}]}'
    assert format_text(text) == (
        '{\n  "name": "n",\n  "depots": [\n    { "type": "Stock", "name": "s", "x": 0 }\n  ],\n'
        '  "tools": "None",\n  "zeta": 1,\n  "alpha": 2\n}\n'
    )


def test_line_endings_become_newlines() -> None:
    assert format_text('{\r\n"name": "n"\r\n}\r\n') == '{\n  "name": "n"\n}\n'


# ---------------------------------------------------------------- refusing bad input


@pytest.mark.parametrize(
    ("content", "code", "line", "column"),
    [
        (b'{\n  "name": "x",\n}\n', "CZ104", 3, 1),
        (b'{"name": "x", "name": "y"}', "CZ105", 1, 15),
        (b'{"col": NaN}', "CZ106", 1, 9),
        (b"\xef\xbb\xbf{}", "CZ102", 1, 1),
        (b'{"name": "\xff"}', "CZ101", 1, 11),
        (b"  \n", "CZ103", 1, 1),
        (b'{"name": "unterminated}', "CZ104", 1, 10),
        (b'{"name": "a\\qb"}', "CZ104", 1, 12),
    ],
)
def test_unparsable_file_is_reported_and_left_untouched(
    tmp_path: Path, content: bytes, code: str, line: int, column: int
) -> None:
    path = tmp_path / "bad.cardz"
    path.write_bytes(content)
    before = path.stat().st_mtime_ns
    result = format_file(path, write=True)
    assert result.outcome is Outcome.INVALID
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [(code, line, column)]
    assert path.read_bytes() == content
    assert path.stat().st_mtime_ns == before
    out, err = io.StringIO(), io.StringIO()
    assert fmt.run([path], out=out, err=err) == 2
    assert f"{path}:{line}:{column}: {code}" in err.getvalue()
    assert path.read_bytes() == content


def test_nesting_beyond_the_bound_is_refused() -> None:
    with pytest.raises(jsoncst.JsonSyntaxError) as error:
        format_text("[" * (jsoncst.MAX_DEPTH + 5) + "]" * (jsoncst.MAX_DEPTH + 5))
    assert error.value.code == "CZ107"


# ---------------------------------------------------------------- writing files


def test_rewrite_is_atomic_and_keeps_permissions(tmp_path: Path) -> None:
    path = tmp_path / "g.cardz"
    path.write_text(json.dumps(json.loads(read(SEEDS[1])), ensure_ascii=False), encoding="utf-8")
    path.chmod(0o640)
    result = format_file(path, write=True)
    assert result.outcome is Outcome.REFORMATTED
    assert read(path) == read(SEEDS[1])
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cardz"]


def test_failed_rewrite_leaves_the_original_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.cardz"
    original = '{"name":"n"}'
    path.write_text(original, encoding="utf-8")

    def fail(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    result = format_file(path, write=True)  # reported, not raised: `cardz fmt` goes on with the other files
    assert result.outcome.value == "unwritable"
    assert "disk full" in result.diagnostics[0].message
    assert read(path) == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.cardz"]


def test_check_reports_without_writing_and_sets_the_exit_code(tmp_path: Path) -> None:
    clean = tmp_path / "clean.cardz"
    clean.write_text(read(SEEDS[0]), encoding="utf-8")
    messy = tmp_path / "sub" / "messy.cardz"
    messy.parent.mkdir()
    messy.write_text('{"tools":"None","name":"n"}', encoding="utf-8")

    out, err = io.StringIO(), io.StringIO()
    assert fmt.run([clean], check=True, out=out, err=err) == 0
    assert out.getvalue() == ""

    out = io.StringIO()
    assert fmt.run([tmp_path], diff=True, out=out, err=err) == 1
    report = out.getvalue()
    assert f"would reformat {messy}" in report and str(clean) not in report
    assert '+  "name": "n",' in report and '-{"tools":"None","name":"n"}' in report
    assert read(messy) == '{"tools":"None","name":"n"}'

    out = io.StringIO()
    assert fmt.run([tmp_path], check=True, out=out, err=err) == 1
    assert "@@" not in out.getvalue()

    assert fmt.run([tmp_path], out=io.StringIO(), err=err) == 0
    assert read(messy) == '{\n  "name": "n",\n  "tools": "None"\n}\n'
    assert fmt.run([tmp_path], check=True, out=io.StringIO(), err=err) == 0


def test_cli_fmt_and_flatten(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardz_tools import cli

    runner = CliRunner()
    messy = tmp_path / "m.cardz"
    messy.write_text('{"tools":"None","name":"n"}', encoding="utf-8")
    assert runner.invoke(cli.app, ["fmt", "--check", str(GAMES)]).exit_code == 0
    checked = runner.invoke(cli.app, ["fmt", "--diff", str(messy)])
    assert checked.exit_code == 1 and f"would reformat {messy}" in checked.output
    assert runner.invoke(cli.app, ["fmt", str(messy)]).exit_code == 0
    assert read(messy) == '{\n  "name": "n",\n  "tools": "None"\n}\n'
    flat = tmp_path / "flat.cardz"
    assert runner.invoke(cli.app, ["flatten", str(GAMES / "weathervane-6.cardz"), "-o", str(flat)]).exit_code == 0
    assert json.loads(read(flat))["dealRules"][0]["faceDown"] == 6
    assert runner.invoke(cli.app, ["flatten", str(messy)]).output == read(messy)
