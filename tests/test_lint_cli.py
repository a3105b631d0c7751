"""``cardz lint`` end to end: example-driven acceptance tests, exit codes, options and configuration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardz_tools import cli
from cardz_tools.config import ConfigError, LintConfig, parse_config
from cardz_tools.diagnostics import RULES
from cardz_tools.lint import LintPathError, collect_files, lint_paths, lint_text

from .conftest import ROOT

EXAMPLES = ROOT / "tests" / "examples"
VALID = sorted((EXAMPLES / "valid").glob("*.cardz"))
INVALID = sorted((EXAMPLES / "invalid").glob("*.cardz"))
SEEDS = sorted((ROOT / "games").glob("*.cardz")) + sorted((ROOT.parent / "shared" / "seeds").glob("*.cardz"))

runner = CliRunner()


def expected(path: Path) -> list[str]:
    lines = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def found(path: Path) -> list[str]:
    result = lint_paths([path])
    return sorted(f"{d.code} {d.line}:{d.column}" for d in result.diagnostics)


# ---------------------------------------------------------------- acceptance


@pytest.mark.parametrize("path", VALID + SEEDS, ids=lambda p: p.name)
def test_valid_designs_have_no_diagnostics(path: Path) -> None:
    assert found(path) == []


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_designs_give_exactly_the_expected_diagnostics(path: Path) -> None:
    assert found(path) == expected(path)


def test_every_invalid_example_has_its_expectations() -> None:
    designs = {p.stem for p in INVALID}
    expectations = {p.stem for p in (EXAMPLES / "invalid").glob("*.expected")}
    assert designs == expectations and len(designs) >= 15


def test_seeds_lint_clean_through_the_cli() -> None:
    result = runner.invoke(cli.app, ["lint", str(ROOT / "games")])
    assert result.exit_code == 0, result.output
    shipped = len(list((ROOT / "games").glob("*.cardz")))
    assert f"All checks passed ({shipped} files)." in result.output


def test_broken_files_are_reported_with_positions_and_exit_1() -> None:
    names = ["trailing-comma", "schema-type", "unknown-depot", "duplicate-key"]
    paths = [str(EXAMPLES / "invalid" / f"{name}.cardz") for name in names]
    result = runner.invoke(cli.app, ["lint", "--format", "json", *paths])
    assert result.exit_code == 1
    report = json.loads(result.output)
    seen = {(Path(d["file"]).stem, d["code"], d["line"], d["column"]) for d in report["diagnostics"]}
    for name in names:
        for line in expected(EXAMPLES / "invalid" / f"{name}.cardz"):
            code, position = line.split()
            row, column = map(int, position.split(":"))
            assert (name, code, row, column) in seen
    assert report["summary"]["files"] == 4


# ---------------------------------------------------------------- exit codes and options


def test_missing_path_is_a_usage_error() -> None:
    result = runner.invoke(cli.app, ["lint", "no/such/file.cardz"])
    assert result.exit_code == 2
    assert "no such file or directory" in result.output
    assert "Traceback" not in result.output


def test_no_path_is_a_usage_error() -> None:
    assert runner.invoke(cli.app, ["lint"]).exit_code == 2


def test_unexpected_failures_become_exit_2_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "lint_paths", broken)
    result = runner.invoke(cli.app, ["lint", str(VALID[0])])
    assert result.exit_code == 2
    assert "internal error" in result.output and "boom" in result.output
    assert "Traceback" not in result.output


def test_warnings_pass_unless_strict() -> None:
    path = str(EXAMPLES / "invalid" / "unknown-key.cardz")
    assert runner.invoke(cli.app, ["lint", path]).exit_code == 0
    assert runner.invoke(cli.app, ["lint", "--strict", path]).exit_code == 1


@pytest.mark.parametrize("selector", ["CZ302", "CZ3", "unknown-depot", "CZ302,CZ305"])
def test_ignore_by_code_prefix_or_name(selector: str) -> None:
    path = str(EXAMPLES / "invalid" / "unknown-reference-in-effect.cardz")
    assert runner.invoke(cli.app, ["lint", path]).exit_code == 1
    result = runner.invoke(cli.app, ["lint", "--ignore", selector, path])
    assert result.exit_code == 0, result.output


def test_select_reports_only_what_it_names() -> None:
    path = str(EXAMPLES / "invalid" / "unknown-depot.cardz")
    result = runner.invoke(cli.app, ["lint", "-f", "json", "--select", "CZ305", path])
    assert [d["code"] for d in json.loads(result.output)["diagnostics"]] == ["CZ305"]
    assert result.exit_code == 0  # only a warning is left


def test_bad_selector_is_a_usage_error() -> None:
    result = runner.invoke(cli.app, ["lint", "--ignore", "unknown-depto", str(VALID[0])])
    assert result.exit_code == 2
    assert "did you mean 'unknown-depot'" in result.output


def test_unreadable_files_cannot_be_ignored() -> None:
    assert [d.code for d in lint_text("{", config=LintConfig(ignore=("CZ1",)))] == ["CZ104"]


def test_statistics_counts_codes() -> None:
    result = runner.invoke(cli.app, ["lint", "--statistics", str(EXAMPLES / "invalid")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.split()[1:] == ["CZ104", "json-syntax"] and line.split()[0] == "3" for line in lines)


def test_output_file(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    empty = str(EXAMPLES / "invalid" / "empty.cardz")
    result = runner.invoke(cli.app, ["lint", "-f", "json", "--output-file", str(target), empty])
    assert result.exit_code == 1 and result.output == ""
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["errors"] == 1


def test_version_and_help() -> None:
    assert runner.invoke(cli.app, ["--version"]).output.startswith("cardz 0.")
    help_text = runner.invoke(cli.app, ["lint", "--help"]).output
    for option in ("--format", "--select", "--ignore", "--strict", "--statistics", "--output-file"):
        assert option in help_text


def test_output_formats_match_the_reporter_registry() -> None:
    from cardz_tools.reporters import REPORTERS

    assert {f.value for f in cli.OutputFormat} == set(REPORTERS)


# ---------------------------------------------------------------- files


def test_directories_are_searched_recursively_in_a_stable_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    for target in (tmp_path / "b" / "z.cardz", tmp_path / "a" / "deep" / "y.cardz", tmp_path / "x.cardz"):
        shutil.copy(VALID[0], target)
    (tmp_path / "notes.json").write_text("{")
    files = collect_files([tmp_path, tmp_path / "x.cardz"])
    assert [p.relative_to(tmp_path).as_posix() for p in files] == ["a/deep/y.cardz", "b/z.cardz", "x.cardz"]
    with pytest.raises(LintPathError):
        collect_files([tmp_path / "missing"])


# ---------------------------------------------------------------- configuration


def write_project(tmp_path: Path, table: str) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.cardz]\n" + table, encoding="utf-8")
    designs = tmp_path / "designs"
    (designs / "drafts").mkdir(parents=True)
    shutil.copy(EXAMPLES / "invalid" / "unknown-depot.cardz", designs / "drafts" / "wip.cardz")
    shutil.copy(EXAMPLES / "invalid" / "unknown-key.cardz", designs / "keys.cardz")
    return designs


def test_config_ignore_and_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    designs = write_project(
        tmp_path, 'ignore = ["unknown-key"]\n[tool.cardz.per-file-ignores]\n"designs/drafts/*" = ["CZ3"]\n'
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli.app, ["lint", "-f", "json", str(designs)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["diagnostics"] == []


def test_config_strict_and_cli_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    designs = write_project(tmp_path, "strict = true\n")
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(cli.app, ["lint", str(designs / "keys.cardz")]).exit_code == 1
    assert runner.invoke(cli.app, ["lint", "--no-strict", str(designs / "keys.cardz")]).exit_code == 0


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ('selct = ["CZ3"]\n', "did you mean 'select'"),
        ('ignore = "CZ3"\n', "list of strings"),
        ('ignore = ["XY1"]\n', "'XY1'"),
        ("strict = 1\n", "'strict'"),
        ("strict = \n", "cannot read"),
    ],
)
def test_invalid_config_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, words: str
) -> None:
    designs = write_project(tmp_path, table)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli.app, ["lint", str(designs)])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_later_sections_are_kept() -> None:
    config = parse_config({"check": {"runs": 200}, "select": ["CZ"]})
    assert config.sections["check"] == {"runs": 200}
    with pytest.raises(ConfigError):
        parse_config({"check": 3})


# ---------------------------------------------------------------- robustness

SEED_TEXT = (ROOT / "games" / "weathervane.cardz").read_text(encoding="utf-8")


@settings(max_examples=150, deadline=None)
@given(position=st.integers(0, len(SEED_TEXT)), cut=st.integers(0, 12), insert=st.text(max_size=3))
def test_damaged_designs_give_diagnostics_not_exceptions(position: int, cut: int, insert: str) -> None:
    text = SEED_TEXT[:position] + insert + SEED_TEXT[position + cut :]
    for diagnostic in lint_text(text, "damaged.cardz"):
        assert diagnostic.line >= 1 and diagnostic.column >= 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["tab", "Tableau", "@self", "x", "none", "2"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["name", "type", "to", "depots", "kind", "repeat", "col"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)
@given(
    path=st.sampled_from(["/depots/3", "/dealRules/0", "/depots/0/draw", "/winCondition", "/scoring", "/depots"]),
    value=json_values,
)
def test_odd_values_anywhere_give_diagnostics_not_exceptions(path: str, value: object) -> None:
    data = json.loads(SEED_TEXT)
    *parents, last = path.strip("/").split("/")
    target = data
    for step in parents:
        target = target[int(step)] if isinstance(target, list) else target[step]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    text = json.dumps(data, indent=1)
    for diagnostic in lint_text(text, "odd.cardz"):
        # Every diagnostic is a known code at a real place in the text.
        assert diagnostic.code in RULES, diagnostic.code
        assert 1 <= diagnostic.line <= text.count("\n") + 1 and diagnostic.column >= 1


# ---------------------------------------------------------------- variants


VARIANT = """{
  "name": "Variant",
  "extends": "base.cardz",
  "depots": [
    { "name": "home", "acceptRule": { "when": "!empty(depot) && card.rnk == top.rank" } }
  ],
  "dealRules": { "0": { "to": "tabb" } }
}
"""


def covered(report_source_text: str, line: int, column: int, end_column: int) -> str:
    return report_source_text.splitlines()[line - 1][column - 1 : end_column - 1]


@pytest.fixture
def variant_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = (
        (EXAMPLES / "valid" / "mini-golf.cardz")
        .read_text(encoding="utf-8")
        .replace('"perRow": 2 }', '"perRow": 2, "autoflip": 1 }')
    )
    (tmp_path / "base.cardz").write_text(base, encoding="utf-8")
    (tmp_path / "variant.cardz").write_text(VARIANT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_variant_is_linted_as_its_merged_design_with_findings_where_they_were_written(variant_dir: Path) -> None:
    result = lint_paths([Path("variant.cardz")])
    texts = {name: (variant_dir / name).read_text(encoding="utf-8") for name in ("base.cardz", "variant.cardz")}
    seen = {(d.code, d.file, covered(texts[d.file], d.line, d.column, d.span.end_column)) for d in result.diagnostics}
    assert seen == {
        ("CZ402", "variant.cardz", "rnk"),  # an expression the variant wrote: the caret under the field
        ("CZ302", "variant.cardz", '"tabb"'),  # the variant's change to the deal
        ("CZ305", "base.cardz", '"tab"'),  # the group the base wrote, which the changed deal no longer reaches
        ("CZ204", "base.cardz", '"autoflip"'),  # inherited from the base
    }
    text = cli_text(["lint", "variant.cardz"])
    assert '"autoflip": 1 }' in text  # the base file's own line is shown


def cli_text(arguments: list[str]) -> str:
    return runner.invoke(cli.app, arguments).output


def test_what_the_base_says_itself_is_not_repeated_for_its_variants(variant_dir: Path) -> None:
    result = lint_paths([Path(".")])
    autoflip = [d for d in result.diagnostics if d.code == "CZ204"]
    assert len(autoflip) == 1 and autoflip[0].file == "base.cardz"


def test_a_variant_of_a_missing_design(variant_dir: Path) -> None:
    (variant_dir / "variant.cardz").write_text(VARIANT.replace("base.cardz", "nowhere.cardz"), encoding="utf-8")
    (diagnostic,) = lint_paths([Path("variant.cardz")]).diagnostics
    assert diagnostic.code == "CZ650" and diagnostic.file == "variant.cardz" and diagnostic.line == 3


def test_each_of_two_identical_todo_markers_is_underlined_where_it_stands() -> None:
    from cardz_tools.lint import lint_text

    base = (ROOT / "tests" / "examples" / "invalid" / "todo-marker.cardz").read_text(encoding="utf-8")
    text = base.replace("- TODO: say what happens when the stock is empty", "- TODO: decide\\n- TODO: decide")
    assert text != base
    todos = [d for d in lint_text(text, "t.cardz") if d.code == "CZ601" and d.pointer == "/description"]
    assert [d.message for d in todos] == ["TODO: decide", "TODO: decide"]
    assert todos[1].column - todos[0].column == len("TODO: decide\\n- ")


def test_an_option_several_commands_share_reads_the_same_in_each() -> None:
    import typer.main

    commands = typer.main.get_command(cli.app).commands  # type: ignore[attr-defined]
    seen: dict[str, dict[str, tuple[object, ...]]] = {}
    for name, command in commands.items():
        for param in command.params:
            if param.param_type_name == "option" and param.opts[0] in SHARED_OPTIONS:
                shape = (tuple(param.opts), param.help, getattr(param, "min", None), getattr(param, "max", None))
                seen.setdefault(param.opts[0], {})[name] = shape
    assert set(seen) == set(SHARED_OPTIONS)
    for option, shapes in seen.items():
        assert len(shapes) >= 2 and len(set(shapes.values())) == 1, (option, shapes)


SHARED_OPTIONS = ("--workers", "--scheduler", "--deal-seconds", "--no-cache", "--budget", "--seconds")
