"""Shared fixtures for the tests.

Until the real schema lands in ``cardz_tools/data/cardz.schema.json`` the lint
tests validate against a small stub (``tests/support/stub.schema.json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardz_tools import schema

TESTS = Path(__file__).parent
ROOT = TESTS.parent
STUB_SCHEMA = TESTS / "support" / "stub.schema.json"


def _packaged_schema_available() -> bool:
    try:
        schema.load_packaged_schema()
    except schema.SchemaUnavailable:
        return False
    return True


@pytest.fixture(autouse=True)
def _schema_for_tests(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Use the stub schema only while the packaged one is missing."""
    if not _packaged_schema_available():
        checker = schema.SchemaChecker(json.loads(STUB_SCHEMA.read_text(encoding="utf-8")))
        monkeypatch.setattr(schema, "packaged_checker", lambda: checker)
    yield
