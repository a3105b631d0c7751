"""The examples in the package's docstrings run, and show what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

from cardz_tools.layers import PACKAGE_DIR

WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in PACKAGE_DIR.rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_package_has_examples_to_run() -> None:
    assert {"cardz_tools.todos", "cardz_tools.analysis.stats", "cardz_tools.publish.facts"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (see the output above)"
