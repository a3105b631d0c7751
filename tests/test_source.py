"""Reading files: positions of keys and values, escapes, and the CZ1xx diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardz_tools.diagnostics import Span
from cardz_tools.source import MAX_DEPTH, MAX_FILE_BYTES, SourceFile, decoded_offsets, load_source

from .conftest import ROOT

SEEDS = [ROOT / "games" / "monte-carlo.cardz", ROOT / "games" / "weathervane.cardz"]


def text_at(source: SourceFile, span: Span) -> str:
    """The file text a single-line span covers."""
    assert span.line == span.end_line
    return source.line_text(span.line)[span.column - 1 : span.end_column - 1]


def codes(source: SourceFile) -> list[str]:
    return [d.code for d in source.diagnostics]


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seeds_read_cleanly_without_building_positions(path: Path) -> None:
    source = load_source(path)
    assert source.ok and source.diagnostics == []
    assert source.data == json.loads(path.read_text(encoding="utf-8"))
    assert source._entries is None  # the common path never scans for positions


def test_value_and_key_spans_cover_the_exact_text() -> None:
    source = load_source(ROOT / "games" / "monte-carlo.cardz")
    pointer = "/depots/0/triggers/0/do/0/to"
    assert text_at(source, source.span(pointer)) == '"discard"'
    assert text_at(source, source.span(pointer, "key")) == '"to"'
    assert text_at(source, source.span("/depots/0/perRow")) == "5"
    assert text_at(source, source.span("/planner")) == "true"
    assert text_at(source, source.span("/depots/2/name", "key")) == '"name"'


def test_key_part_of_an_array_item_is_its_value() -> None:
    source = SourceFile.from_text('{"a": [10, {"b": 2}]}', "t")
    assert text_at(source, source.span("/a/0", "key")) == "10"
    assert source.span("/a/1") == Span(1, 12, 1, 20)


def test_multi_line_values_span_their_lines() -> None:
    source = SourceFile.from_text('{\n  "a": {\n    "b": 1\n  }\n}\n', "t")
    assert source.span("/a") == Span(2, 8, 4, 4)
    assert source.span("") == Span(1, 1, 5, 2)
    assert source.head_span("/a") == Span(2, 3, 2, 6)
    assert source.head_span("") == Span(1, 1, 1, 2)


def test_missing_pointer_falls_back_to_nearest_parent() -> None:
    source = SourceFile.from_text('{"depots": [{"name": "x"}]}', "t")
    assert source.span("/depots/0/draw/to") == source.span("/depots/0")
    assert source.span("/depots/7") == source.span("/depots")
    assert source.span("/nothing") == source.span("")


def test_pointer_tokens_are_escaped() -> None:
    source = SourceFile.from_text('{"a/b": {"c~d": 1}}', "t")
    assert text_at(source, source.span("/a~1b/c~0d")) == "1"
    assert source.has("/a~1b") and not source.has("/a/b")


def test_crlf_and_tabs_count_as_characters() -> None:
    source = SourceFile.from_text('{\r\n\t"a": "é😀",\r\n\t"b": 1\r\n}', "t")
    assert source.span("/b") == Span(3, 7, 3, 8)
    assert source.span("/a") == Span(2, 7, 2, 11)


def test_string_span_accounts_for_escapes() -> None:
    text = r'{"when": "a\"b\n\u00e9\ud83d\ude00 && top"}'
    source = SourceFile.from_text(text, "t")
    decoded = source.data["when"]
    assert decoded == 'a"b\né😀 && top'
    top = decoded.index("top")
    assert text_at(source, source.string_span("/when", top, top + 3)) == "top"
    assert text_at(source, source.string_span("/when", 1, 2)) == r"\""
    assert text_at(source, source.string_span("/when", 4, 6)) == r"\u00e9\ud83d\ude00"


def test_string_span_clamps_and_widens_empty_ranges() -> None:
    source = SourceFile.from_text('{"w": "abc"}', "t")
    assert text_at(source, source.string_span("/w", 1, 1)) == "b"
    assert text_at(source, source.string_span("/w", 2, 99)) == "c"
    assert text_at(source, source.string_span("/w", 3, 3)) == '"'  # the end: the closing quote


def test_string_span_of_a_number_is_the_whole_value() -> None:
    source = SourceFile.from_text('{"count": 25}', "t")
    assert text_at(source, source.string_span("/count", 0, 1)) == "25"


json_strings = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x1F9FF) | st.sampled_from('"\\\n\t/\b'),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(value=json_strings, ascii_only=st.booleans(), data=st.data())
def test_string_span_maps_any_decoded_range_back_to_its_raw_text(
    value: str, ascii_only: bool, data: st.DataObject
) -> None:
    text = '{"k": [1, ' + json.dumps(value, ensure_ascii=ascii_only) + "]}"
    source = SourceFile.from_text(text, "t")
    start = data.draw(st.integers(0, len(value)))
    end = data.draw(st.integers(start, len(value)))
    span = source.string_span("/k/1", start, end)
    raw = text_at(source, span)
    if start < end:
        assert json.loads('"' + raw + '"') == value[start:end]
    else:
        assert len(raw) == 1


def test_decoded_offsets_has_one_entry_per_character_plus_the_end() -> None:
    assert decoded_offsets(r"a\nb") == [0, 1, 3, 4]
    assert decoded_offsets(r"\ud83d\ude00x") == [0, 12, 13]
    assert decoded_offsets(r"\ud83dx") == [0, 6, 7]  # a lone surrogate is one character


# ---------------------------------------------------------------- CZ1xx


@pytest.mark.parametrize(
    "text",
    ['{"a": 1,}', '{"a" 1}', '{\n  "a": [1\n   2]\n}', '{"a": tru}', "[1, 2", '{"a": "\x01"}', "{} []"],
)
def test_syntax_errors_report_the_parsers_exact_position(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    source = SourceFile.from_text(text, "t")
    assert not source.ok and codes(source) == ["CZ104"]
    span = source.diagnostics[0].span
    if "a comma" not in source.diagnostics[0].message:
        assert (span.line, span.column) == (caught.value.lineno, caught.value.colno)


def test_every_deleted_closing_brace_gets_a_hint_about_a_missing_brace() -> None:
    # Issue 21: after deleting a `}`, CZ104's hint said "keys are written in double quotes".
    text = SEEDS[0].read_text(encoding="utf-8")
    hints = set()
    for at in [i for i, char in enumerate(text) if char == "}"]:
        source = SourceFile.from_text(text[:at] + text[at + 1 :], "t")
        assert codes(source) == ["CZ104"], at
        hints.add(source.diagnostics[0].hint)
    assert hints and all("double quotes" not in hint and "comma is missing" not in hint for hint in hints), hints
    assert all("'}'" in hint or "closed" in hint for hint in hints)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("{'a': 1}", "keys are written in double quotes"),
        ('{"a": 1 "b": 2}', "a comma is missing"),
        ('{"a": [1, 2}', "a ']' is missing before this '}'"),
        ('[{"a": 1, {"b": 2}]', "a '}' is missing before the ','"),
    ],
)
def test_syntax_hints_say_what_is_missing(text: str, hint: str) -> None:
    source = SourceFile.from_text(text, "t")
    assert hint in (source.diagnostics[0].hint or "")


def test_trailing_comma_points_at_the_comma() -> None:
    source = SourceFile.from_text('{\n  "a": [1, 2,\n  ]\n}', "t")
    diagnostic = source.diagnostics[0]
    assert diagnostic.span == Span(2, 13, 2, 14)
    assert diagnostic.hint and "comma" in diagnostic.hint


@pytest.mark.parametrize("text", ["", "   ", "\n\t\r\n"])
def test_empty_files(text: str) -> None:
    assert codes(SourceFile.from_text(text, "t")) == ["CZ103"]


def test_byte_order_mark_is_reported_and_the_rest_still_read() -> None:
    source = SourceFile.from_bytes(b'\xef\xbb\xbf{"a": [1, 2]}', "t")
    assert codes(source) == ["CZ102"]
    assert source.data == {"a": [1, 2]}
    assert source.span("/a/1") == Span(1, 11, 1, 12)


def test_byte_order_mark_in_decoded_text_too() -> None:
    source = SourceFile.from_text('\ufeff{"a": 1}', "t")
    assert codes(source) == ["CZ102"] and source.span("/a") == Span(1, 7, 1, 8)


def test_invalid_utf8_gives_the_position_of_the_bad_byte() -> None:
    source = SourceFile.from_bytes('{\n  "name": "é'.encode() + b"\xc3(" + b'"}', "t")
    assert codes(source) == ["CZ101"]
    assert source.diagnostics[0].span.line == 2
    assert source.diagnostics[0].span.column == 13


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_reported_where_they_are(word: str) -> None:
    source = SourceFile.from_text(f'{{"depots": [{{"col": {word}}}]}}', "t")
    assert codes(source) == ["CZ106"]
    assert text_at(source, source.diagnostics[0].span) == word
    assert source.diagnostics[0].pointer == "/depots/0/col"


def test_duplicate_keys_are_reported_at_the_second_key_and_the_last_value_wins() -> None:
    text = '{\n  "a": {"x": {"old": 1}},\n  "b": 2,\n  "a": {"x": 3}\n}'
    source = SourceFile.from_text(text, "t")
    assert codes(source) == ["CZ105"]
    diagnostic = source.diagnostics[0]
    assert diagnostic.span == Span(4, 3, 4, 6)
    assert diagnostic.pointer == "/a"
    assert diagnostic.hint and "line 2, column 3" in diagnostic.hint
    assert source.data["a"] == {"x": 3}
    assert text_at(source, source.span("/a/x")) == "3"
    assert not source.has("/a/x/old")  # positions describe the value that was kept


def test_nested_duplicate_keys_carry_their_pointer() -> None:
    source = SourceFile.from_text('{"depots": [{"name": "a", "name": "b"}]}', "t")
    assert [d.pointer for d in source.diagnostics] == ["/depots/0/name"]


def test_deep_nesting_is_bounded_without_recursion_errors() -> None:
    for depth in (MAX_DEPTH + 1, 100_000):
        source = SourceFile.from_text("[" * depth + "]" * depth, "t")
        assert codes(source) == ["CZ107"]
        assert source.diagnostics[0].span.column == MAX_DEPTH + 1
    fine = SourceFile.from_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "t")
    assert fine.ok and fine.diagnostics == []


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"description": "[" * 1000, "x": [[1]]})
    assert SourceFile.from_text(text, "t").diagnostics == []


def test_large_files_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.cardz"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    assert codes(load_source(big)) == ["CZ107"]


def test_unreadable_path_gives_an_io_diagnostic(tmp_path: Path) -> None:
    source = load_source(tmp_path / "missing.cardz")
    assert codes(source) == ["CZ100"] and not source.ok


# ---------------------------------------------------------------- anchors


def test_anchors_find_the_same_place_in_another_layout_of_the_same_value() -> None:
    data = {"a": {"when": 'x é "q" && top.rank'}, "list": [1, {"k": "v"}]}
    compact = SourceFile.from_text(json.dumps(data, ensure_ascii=True), "compact")
    pretty = SourceFile.from_text(json.dumps(data, indent=4, ensure_ascii=False), "pretty")
    top = data["a"]["when"].index("top")
    cases = [
        ("/a/when", compact.string_span("/a/when", top, top + 3), "top"),
        ("/a/when", compact.string_span("/a/when", 2, 3), "é"),
        ("/a/when", compact.span("/a/when", "key"), '"when"'),
        ("/a/when", compact.span("/a/when"), json.dumps(data["a"]["when"], ensure_ascii=False)),
        ("/list/1", compact.head_span("/list/1"), "{"),
        ("/list/1/k", compact.span("/list/1/k"), '"v"'),
    ]
    for pointer, span, expected in cases:
        assert text_at(pretty, pretty.locate(compact.anchor(pointer, span))) == expected


def test_an_anchor_on_a_missing_member_is_its_nearest_parents_head() -> None:
    source = SourceFile.from_text('{"a": {"b": 1}}', "t")
    anchor = source.anchor("/a/zzz", source.head_span("/a/zzz"))
    assert anchor.part == "head" and text_at(source, source.locate(anchor)) == '"a"'
