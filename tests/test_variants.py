"""Variants: the merge rules, provenance, the chain checks and the weathervane-6 variant."""

from __future__ import annotations

import copy
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_tools import jsoncst, model, variants
from cardz_tools.fmt import format_text
from cardz_tools.variants import MAX_EXTENDS_DEPTH, Origin, VariantError, flatten, flatten_file

GAMES = Path(__file__).resolve().parent.parent / "games"

BASE: dict[str, Any] = {
    "name": "Base",
    "family": "Golf",
    "tagline": "A base game",
    "depots": [
        {"type": "Stock", "name": "stock", "acceptRule": "none", "draw": {"to": "waste", "count": 1}},
        {"type": "Waste", "name": "waste", "col": 1},
        {
            "type": "Tableau", "name": "tab", "repeat": 7,
            "acceptRule": {"single": True, "when": "card.rank == top.rank + 1", "reason": "one higher"},
            "triggers": [{"when": "empty(depot)", "do": [{"kind": "flip", "depot": "@self"}]}],
        },
    ],
    "dealRules": [
        {"kind": "dealGroup", "to": "tab", "faceDown": 5, "roundRobin": True},
        {"kind": "dealGroup", "to": "tab", "faceUp": 1},
        {"kind": "dealGroup", "to": "waste", "faceUp": 1},
    ],
    "winCondition": {"kind": "depotsEmpty", "depots": "Tableau"},
    "scoring": {"value": "count(stock)", "better": "Low"},
}


def write(folder: Path, name: str, value: Any) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def variant_of(tmp_path: Path, changes: dict[str, Any]) -> Any:
    write(tmp_path, "base.cardz", BASE)
    design, _ = flatten(write(tmp_path, "variant.cardz", {"extends": "base.cardz", **changes}))
    return design


def problems(path: Path) -> list[tuple[str, str, str]]:
    with pytest.raises(VariantError) as error:
        flatten_file(path)
    return [(d.code, Path(d.file).name, d.pointer) for d in error.value.diagnostics]


def assert_provenance_is_exact(flattened: variants.Flattened) -> None:
    """Every pointer of the merged design has an origin holding exactly that leaf value."""
    pointers = [pointer for pointer, _ in jsoncst.walk(flattened.tree)]
    assert sorted(flattened.provenance) == sorted(pointers)
    for pointer, node in jsoncst.walk(flattened.tree):
        origin = flattened.provenance[pointer]
        source = jsoncst.parse(origin.file.read_text(encoding="utf-8"))
        written = jsoncst.node_at(source, origin.pointer)
        assert written is not None, (pointer, origin)
        if isinstance(node, jsoncst.Scalar):
            assert jsoncst.to_python(written) == jsoncst.to_python(node), (pointer, origin)


# ---------------------------------------------------------------- the weathervane-6 variant


def test_weathervane_six_flattens_to_weathervane_with_six_hidden_cards() -> None:
    flattened = flatten_file(GAMES / "weathervane-6.cardz")
    base = json.loads((GAMES / "weathervane.cardz").read_text(encoding="utf-8"))
    own = json.loads((GAMES / "weathervane-6.cardz").read_text(encoding="utf-8"))
    expected = copy.deepcopy(base)
    expected["name"] = "Weathervane (six hidden)"
    expected["description"] = own["description"]
    expected["dealRules"][0]["faceDown"] = 6
    assert flattened.design == expected
    assert "six face-down cards" in own["description"] and "5 or 6" not in own["description"]
    assert set(own) == {"name", "description", "extends", "dealRules"}
    assert flattened.chain == (GAMES / "weathervane-6.cardz", GAMES / "weathervane.cardz")
    assert format_text(flattened.text()) == flattened.text()
    assert_provenance_is_exact(flattened)
    origin = Origin(GAMES / "weathervane-6.cardz", "/dealRules/0/faceDown")
    assert flattened.provenance["/dealRules/0/faceDown"] == origin
    assert flattened.provenance["/dealRules/0/kind"] == Origin(GAMES / "weathervane.cardz", "/dealRules/0/kind")
    assert flattened.provenance["/depots/2/acceptRule"] == Origin(GAMES / "weathervane.cardz", "/depots/2/acceptRule")


def test_weathervane_six_is_a_playable_model_and_its_file_is_canonical() -> None:
    design = model.build_design(flatten(GAMES / "weathervane-6.cardz")[0])
    first = design.deal_rules[0]
    assert first.face_down is not None and first.face_down.text == "6"
    dealt = sum(int(r.face_down.text if r.face_down else 0) + int(r.face_up.text if r.face_up else 0)
                for r in design.deal_rules for _ in design.resolve(r.to or "") or ())
    assert dealt == 7 * 6 + 7 + 1 <= design.deck_size
    text = (GAMES / "weathervane-6.cardz").read_text(encoding="utf-8")
    assert format_text(text) == text


# ---------------------------------------------------------------- merge rules


def test_top_level_keys_replace_whole_and_null_removes(tmp_path: Path) -> None:
    design = variant_of(tmp_path, {"scoring": {"better": "High"}, "tagline": None, "planner": True})
    assert design["scoring"] == {"better": "High"}
    assert "tagline" not in design and "extends" not in design
    assert design["planner"] is True
    assert design["depots"] == BASE["depots"] and design["dealRules"] == BASE["dealRules"]


def test_depots_merge_by_name(tmp_path: Path) -> None:
    design = variant_of(tmp_path, {"depots": [
        {"name": "tab", "repeat": 8, "acceptRule": {"single": False, "reason": None}, "triggers": []},
        {"name": "cell", "type": "Cell", "col": 9, "ejectRule": None},
        {"name": "waste", "remove": True},
        {"name": "stock", "draw": {"count": 3}},
    ]})
    names = [d["name"] for d in design["depots"]]
    assert names == ["stock", "tab", "cell"]
    stock, tab, cell = design["depots"]
    assert stock["draw"] == {"to": "waste", "count": 3}
    assert tab["repeat"] == 8 and tab["type"] == "Tableau"
    assert tab["acceptRule"] == {"single": False, "when": "card.rank == top.rank + 1"}
    assert tab["triggers"] == []
    assert cell == {"name": "cell", "type": "Cell", "col": 9}


def test_deal_rules_replace_as_a_list_or_change_by_index(tmp_path: Path) -> None:
    replaced = variant_of(tmp_path, {"dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 3}]})
    assert replaced["dealRules"] == [{"kind": "dealGroup", "to": "tab", "faceUp": 3}]
    changed = variant_of(tmp_path, {"dealRules": {"0": None, "2": {"faceUp": 2, "to": "stock"}}})
    assert changed["dealRules"] == [
        {"kind": "dealGroup", "to": "tab", "faceUp": 1},
        {"kind": "dealGroup", "to": "stock", "faceUp": 2},
    ]


def test_provenance_follows_removed_and_shifted_entries(tmp_path: Path) -> None:
    write(tmp_path, "base.cardz", BASE)
    path = write(tmp_path, "variant.cardz", {
        "extends": "base.cardz",
        "depots": [{"name": "waste", "remove": True}, {"name": "tab", "acceptRule": {"when": "true"}}],
        "dealRules": {"0": None},
    })
    flattened = flatten_file(path)
    assert_provenance_is_exact(flattened)
    base, variant = tmp_path / "base.cardz", path
    assert flattened.provenance["/depots/1"] == Origin(variant, "/depots/1")
    assert flattened.provenance["/depots/1/repeat"] == Origin(base, "/depots/2/repeat")
    assert flattened.provenance["/depots/1/acceptRule/when"] == Origin(variant, "/depots/1/acceptRule/when")
    assert flattened.provenance["/depots/1/acceptRule/reason"] == Origin(base, "/depots/2/acceptRule/reason")
    assert flattened.provenance["/depots/1/triggers/0/do/0/kind"] == Origin(base, "/depots/2/triggers/0/do/0/kind")
    assert flattened.provenance["/dealRules/1"] == Origin(base, "/dealRules/2")
    assert flattened.provenance[""] == Origin(variant, "")


def test_design_without_extends_is_its_own_flat_form(tmp_path: Path) -> None:
    path = write(tmp_path, "base.cardz", BASE)
    flattened = flatten_file(path)
    assert flattened.design == BASE
    assert all(origin == Origin(path, pointer) for pointer, origin in flattened.provenance.items())


def test_chains_merge_in_order_and_keep_number_text(tmp_path: Path) -> None:
    write(tmp_path, "c.cardz", BASE)
    b_text = '{"extends": "c.cardz", "name": "B", "depots": [{"name": "waste", "col": 1.0}]}'
    (tmp_path / "b.cardz").write_text(b_text, encoding="utf-8")
    write(tmp_path, "a.cardz", {"extends": "b.cardz", "name": "A", "family": "Other"})
    flattened = flatten_file(tmp_path / "a.cardz")
    assert [p.name for p in flattened.chain] == ["a.cardz", "b.cardz", "c.cardz"]
    assert (flattened.design["name"], flattened.design["family"], flattened.design["tagline"]) == (
        "A",
        "Other",
        "A base game",
    )
    assert '"col": 1.0' in flattened.text()
    assert flattened.provenance["/depots/1/col"] == Origin(tmp_path / "b.cardz", "/depots/0/col")
    assert flattened.provenance["/tagline"] == Origin(tmp_path / "c.cardz", "/tagline")
    assert_provenance_is_exact(flattened)


# ---------------------------------------------------------------- what may not be followed


def test_cycles_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.cardz", {"extends": "b.cardz"})
    write(tmp_path, "b.cardz", {"extends": "a.cardz"})
    write(tmp_path, "self.cardz", {"extends": "./self.cardz"})
    assert problems(tmp_path / "a.cardz") == [("CZ652", "b.cardz", "/extends")]
    assert problems(tmp_path / "self.cardz") == [("CZ652", "self.cardz", "/extends")]


def test_chains_longer_than_the_bound_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "d0.cardz", BASE)
    for i in range(1, MAX_EXTENDS_DEPTH + 2):
        write(tmp_path, f"d{i}.cardz", {"extends": f"d{i - 1}.cardz", "name": f"D{i}"})
    assert flatten(tmp_path / f"d{MAX_EXTENDS_DEPTH}.cardz")[0]["name"] == f"D{MAX_EXTENDS_DEPTH}"
    assert problems(tmp_path / f"d{MAX_EXTENDS_DEPTH + 1}.cardz") == [("CZ653", "d1.cardz", "/extends")]


@pytest.mark.parametrize(
    ("reference", "code"),
    [
        ("/etc/passwd", "CZ651"),
        ("../outside.cardz", "CZ651"),
        ("sub/../../outside.cardz", "CZ651"),
        ("C:/games/x.cardz", "CZ651"),
        ("missing.cardz", "CZ650"),
        ("sub\\base.cardz", "CZ654"),
        ("", "CZ654"),
        (7, "CZ654"),
    ],
)
def test_extends_may_not_leave_the_folder(tmp_path: Path, reference: object, code: str) -> None:
    write(tmp_path, "outside.cardz", BASE)
    path = write(tmp_path / "games", "v.cardz", {"name": "V", "extends": reference})
    assert problems(path) == [(code, "v.cardz", "/extends")]


def test_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "outside.cardz", BASE)
    games = tmp_path / "games"
    games.mkdir()
    (games / "link.cardz").symlink_to(tmp_path / "outside.cardz")
    write(games, "inside.cardz", BASE)
    (games / "ok-link.cardz").symlink_to(games / "inside.cardz")
    (games / "sub").mkdir()
    assert problems(write(games, "v.cardz", {"extends": "link.cardz"})) == [("CZ651", "v.cardz", "/extends")]
    assert flatten(write(games, "w.cardz", {"extends": "sub/../ok-link.cardz", "name": "W"}))[0]["name"] == "W"


def test_bad_changes_are_all_reported_with_their_place(tmp_path: Path) -> None:
    write(tmp_path, "base.cardz", BASE)
    path = write(
        tmp_path,
        "v.cardz",
        {
            "extends": "base.cardz",
            "depots": [{"type": "Cell"}, {"name": "tabb", "remove": True}, {"name": "tab", "remove": True, "col": 1}],
            "dealRules": {"3": {"faceUp": 1}, "x": {}, "1": 5},
        },
    )
    assert problems(path) == [
        ("CZ654", "v.cardz", "/depots/0"),
        ("CZ654", "v.cardz", "/depots/1"),
        ("CZ654", "v.cardz", "/depots/2"),
        ("CZ654", "v.cardz", "/dealRules/3"),
        ("CZ654", "v.cardz", "/dealRules/x"),
        ("CZ654", "v.cardz", "/dealRules/1"),
    ]
    with pytest.raises(VariantError) as error:
        flatten_file(path)
    first, unknown = error.value.diagnostics[:2]
    assert (first.line, first.column) == (4, 5)
    assert unknown.hint == "did you mean 'tab'?"


def test_a_broken_base_is_reported_in_the_base(tmp_path: Path) -> None:
    (tmp_path / "base.cardz").write_text('{"name": "x",}', encoding="utf-8")
    assert problems(write(tmp_path, "v.cardz", {"extends": "base.cardz"})) == [("CZ104", "base.cardz", "")]


def test_run_flatten_writes_the_canonical_standalone_design(tmp_path: Path) -> None:
    out_path = tmp_path / "flat.cardz"
    assert variants.run_flatten(GAMES / "weathervane-6.cardz", out_path, out=io.StringIO(), err=io.StringIO()) == 0
    text = out_path.read_text(encoding="utf-8")
    assert format_text(text) == text and json.loads(text) == flatten(GAMES / "weathervane-6.cardz")[0]
    assert oct(out_path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    err = io.StringIO()
    bad = write(tmp_path, "bad.cardz", {"extends": "../x.cardz"})
    assert variants.run_flatten(bad, tmp_path / "none.cardz", out=io.StringIO(), err=err) == 2
    assert not (tmp_path / "none.cardz").exists()
    assert f"{bad}:2:" in err.getvalue() and "CZ651 extends-outside-folder" in err.getvalue()


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


# ---------------------------------------------------------------- the merge against an oracle


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396, written out independently of the module under test."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


SMALL_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(["none", "any", "waste", "x"]),
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from(["to", "when", "single", "count"]), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def depot_changes(draw: st.DrawFn) -> list[dict[str, Any]]:
    names = draw(st.lists(st.sampled_from(["stock", "waste", "tab", "cell", "extra"]), unique=True, max_size=5))
    entries = []
    for name in names:
        if name in ("stock", "waste", "tab") and draw(st.booleans()):
            entries.append({"name": name, "remove": True})
        else:
            keys = st.sampled_from(["type", "col", "acceptRule", "draw", "triggers", "repeat"])
            entries.append({"name": name, **draw(st.dictionaries(keys, SMALL_JSON, max_size=4))})
    return entries


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=depot_changes())
def test_depot_changes_match_a_plain_merge_patch(tmp_path: Path, entries: list[dict[str, Any]]) -> None:
    write(tmp_path, "base.cardz", BASE)
    flattened = flatten_file(write(tmp_path, "v.cardz", {"extends": "base.cardz", "depots": entries}))
    expected = list(BASE["depots"])
    position = {d["name"]: i for i, d in enumerate(expected)}
    for entry in entries:
        if entry.get("remove") is True:
            expected[position[entry["name"]]] = None
        elif entry["name"] in position:
            expected[position[entry["name"]]] = merge_patch(expected[position[entry["name"]]], entry)
        else:
            expected.append(merge_patch(None, entry))
    assert flattened.design["depots"] == [d for d in expected if d is not None]
    assert_provenance_is_exact(flattened)


# ---------------------------------------------------------------- linting a variant


def test_lint_reports_a_variant_in_the_files_that_wrote_each_value(tmp_path: Path) -> None:
    from cardz_tools.lint import lint_paths, lint_source
    from cardz_tools.reporters import ReportOptions, render
    from cardz_tools.source import SourceFile

    base_text = (GAMES / "weathervane.cardz").read_text(encoding="utf-8")
    (tmp_path / "weathervane.cardz").write_text(base_text, encoding="utf-8")
    variant_text = (
        '{\n  "name": "Broken",\n  "extends": "weathervane.cardz",\n  "depots": [\n'
        '    { "name": "waste", "remove": true },\n'
        '    { "name": "tab", "acceptRule": { "when": "card.rnk == 1" }, "colour": 3 }\n  ]\n}\n'
    )
    variant = tmp_path / "v.cardz"
    variant.write_text(variant_text, encoding="utf-8")
    result = lint_paths([variant])
    found = {(d.code, Path(d.file).name, d.pointer): d.span for d in result.diagnostics}

    def at(text: str, needle: str, width: int) -> tuple[int, int, int]:
        offset = text.index(needle)
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return line, column, column + width

    def where(span: Any) -> tuple[int, int, int]:
        return span.line, span.column, span.end_column

    assert set(found) == {
        ("CZ402", "v.cardz", "/depots/1/acceptRule/when"),
        ("CZ204", "v.cardz", "/depots/1/colour"),
        ("CZ302", "weathervane.cardz", "/depots/0/draw/to"),
    }
    rnk = found[("CZ402", "v.cardz", "/depots/1/acceptRule/when")]
    merged = SourceFile.from_text(flatten_file(variant).text(), "merged")
    [in_merged] = [d.span for d in lint_source(merged) if d.code == "CZ402"]
    underlined = merged.line_text(in_merged.line)[in_merged.column - 1 : in_merged.end_column - 1]
    assert "rnk" in underlined and rnk.line == 6
    assert variant_text.splitlines()[rnk.line - 1][rnk.column - 1 : rnk.end_column - 1] == underlined
    assert where(found[("CZ204", "v.cardz", "/depots/1/colour")]) == at(variant_text, '"colour"', len('"colour"'))
    assert where(found[("CZ302", "weathervane.cardz", "/depots/0/draw/to")]) == at(
        base_text, '"waste" }', len('"waste"')
    )
    report = render(result, "text", ReportOptions(color=False))
    assert "weathervane.cardz:7:" in report and "7 |   ]" not in report


def test_lint_accepts_weathervane_six_and_reports_flatten_errors(tmp_path: Path) -> None:
    from cardz_tools.lint import lint_paths

    assert lint_paths([GAMES / "weathervane-6.cardz"]).diagnostics == []
    bad = write(tmp_path, "v.cardz", {"name": "V", "extends": "../x.cardz"})
    assert [(d.code, d.pointer) for d in lint_paths([bad]).diagnostics] == [("CZ651", "/extends")]


def test_a_variant_opens_from_a_string_path_as_from_a_path() -> None:
    """``open_design`` takes a string too: a variant's chain is read relative to the file either way."""
    from cardz_tools.loading import open_design

    path = GAMES / "weathervane-6.cardz"
    assert open_design(str(path)).data == open_design(path).data
