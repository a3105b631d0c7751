"""LSP positions: 0-based lines, UTF-16 code units; our spans: 1-based, code points."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardz_tools.diagnostics import Span
from cardz_tools.lsp.positions import Encoding, Position, Range, TextIndex, utf16_length

TEXT = '{\n  "description": "😀 é 🂡 x",\n  "name": "a"\n}\n'


def test_astral_characters_take_two_utf16_units_and_bmp_characters_one() -> None:
    index = TextIndex(TEXT)
    line = TEXT.splitlines()[1]
    x = line.index("x")  # after 😀, é and 🂡: 3 code points but 5 UTF-16 units before the spaces
    assert index.span_position(2, x + 1) == Position(1, x + 2)
    assert index.span_range(Span(2, x + 1, 2, x + 2)) == Range(Position(1, x + 2), Position(1, x + 3))


def test_a_span_across_lines_converts_both_ends() -> None:
    index = TextIndex(TEXT)
    assert index.span_range(Span(1, 1, 4, 2)) == Range(Position(0, 0), Position(3, 1))


def test_an_offset_inside_a_surrogate_pair_gives_the_character_start() -> None:
    index = TextIndex("a😀b")
    assert index.offset(Position(0, 2)) == 1  # between the two halves of 😀
    assert index.offset(Position(0, 3)) == 2
    assert index.offset(Position(0, 99)) == 3  # past the end of the line
    assert index.offset(Position(9, 0)) == 3  # past the last line


def test_other_negotiated_encodings_count_their_own_units() -> None:
    assert TextIndex("é😀x", Encoding.UTF8).position(2) == Position(0, 6)
    assert TextIndex("é😀x", Encoding.UTF32).position(2) == Position(0, 2)


@given(st.text(alphabet=st.sampled_from(["a", "é", "😀", "\n", "\r", "🂡", " "]), max_size=40))
def test_offsets_round_trip_and_characters_count_utf16_units(text: str) -> None:
    index = TextIndex(text)
    for offset in range(len(text) + 1):
        position = index.position(offset)
        assert index.offset(position) == offset
        line_start = text.rfind("\n", 0, offset) + 1
        assert position.character == len(text[line_start:offset].encode("utf-16-le")) // 2
        assert position.line == text.count("\n", 0, offset)
    assert utf16_length(text) == len(text.encode("utf-16-le")) // 2
