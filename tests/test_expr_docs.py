"""docs/format.md carries the expression reference exactly as the checker's tables generate it."""

from __future__ import annotations

import pathlib

from cardz_tools.expr.builtins import CONSTANTS, FIELDS, FUNCTIONS
from cardz_tools.expr.docs import BEGIN, END, current_section, render, replace_section
from cardz_tools.expr.sites import Site

FORMAT_MD = pathlib.Path(__file__).resolve().parents[1] / "docs" / "format.md"


def test_format_md_section_is_up_to_date() -> None:
    section = current_section(FORMAT_MD.read_text(encoding="utf-8"))
    assert section is not None, f"{FORMAT_MD} lacks {BEGIN} ... {END}"
    assert section == render(), "run: python -m cardz_tools.expr.docs --write"


def test_every_function_field_constant_and_site_is_documented() -> None:
    text = render()
    for function in FUNCTIONS.values():
        for overload in function.overloads:
            assert overload.description in text.replace("\\|", "|")
        assert f"`{function.name}(" in text
    for spec in FIELDS.values():
        assert f"`{spec.receiver.value}.{spec.name}`" in text
    for name in CONSTANTS:
        assert f"`{name}`" in text
    for site in Site:
        assert f"| {site.value} |" in text
        for name in site.names:
            assert f"`{name}`" in text


def test_replace_section_keeps_the_rest_of_the_document() -> None:
    document = f"# Title\n\nintro\n\n{BEGIN}\nold\n{END}\n\n## After\n"
    updated = replace_section(document, "new\n")
    assert updated == f"# Title\n\nintro\n\n{BEGIN}\nnew\n{END}\n\n## After\n"
    assert current_section(updated) == "new\n"
    appended = replace_section("# Only a title\n", "body\n")
    assert appended.startswith("# Only a title\n") and current_section(appended) == "body\n"
