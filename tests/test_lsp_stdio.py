"""Done-when for issue #11: a real LSP client drives ``python -m cardz_tools lsp`` over stdio.

pygls's own client starts the server as a subprocess, opens a seed design,
introduces a typo in a rule through ``didChange`` and receives the diagnostic at
the right range (0-based, UTF-16); hover, completion and definition answer inside
an expression. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from tests.conftest import ROOT  # noqa: E402

SEED = ROOT / "games" / "monte-carlo.cardz"
TIMEOUT = 20.0


class _Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("cardz-test", "1")
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()


def _position_of(text: str, needle: str, shift: int = 0) -> types.Position:
    """0-based line and UTF-16 character of ``needle`` (+ shift) in ``text``."""
    offset = text.index(needle) + shift
    line = text.count("\n", 0, offset)
    column = text[text.rfind("\n", 0, offset) + 1 : offset]
    return types.Position(line=line, character=len(column.encode("utf-16-le")) // 2)


async def _diagnostics_for(client: _Client, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics published for ``version`` of ``uri`` (earlier versions are skipped)."""
    while True:
        params = await asyncio.wait_for(client.published.get(), TIMEOUT)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)


async def _session(tmp_path: Path) -> None:
    # An emoji (two UTF-16 units) before the typo on the same line makes the
    # UTF-16 column differ from the code-point column.
    rule = '"when": "adjacent(source, depot) && !empty(depot) && card.rank == top.rank"'
    reason = '"reason": "A card pairs with one of its rank that touches it"'
    seed = SEED.read_text(encoding="utf-8")
    text = seed.replace(f"{rule},\n        {reason}", f'"reason": "🃏 pairs", {rule}')
    assert text != seed and "🃏" in text.splitlines()[_position_of(text, "card.rank").line]
    path = tmp_path / "monte-carlo.cardz"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()

    client = _Client()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(_client: _Client, params: types.PublishDiagnosticsParams) -> None:
        client.published.put_nowait(params)

    await asyncio.wait_for(client.start_io(sys.executable, "-m", "cardz_tools", "lsp", cwd=str(ROOT)), TIMEOUT)
    try:
        await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri(), process_id=None)), TIMEOUT)
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cardz", version=1, text=text)))
        assert await _diagnostics_for(client, uri, 1) == []

        typo = text.replace("card.rank", "card.rnak")
        start = _position_of(typo, "card.rnak", len("card."))
        # Two quick edits: only the latest text is reported for its version.
        for version, edited in ((2, text.replace("card.rank", "card.rn")), (3, typo)):
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
        found = await _diagnostics_for(client, uri, 3)
        assert [(d.code, d.source, d.severity) for d in found] == [("CZ402", "cardz", types.DiagnosticSeverity.Error)]
        assert found[0].range == types.Range(
            start=start, end=types.Position(line=start.line, character=start.character + 4)
        )
        assert "did you mean 'rank'" in found[0].message

        document = types.TextDocumentIdentifier(uri=uri)
        hovered = await asyncio.wait_for(
            client.text_document_hover_async(
                types.HoverParams(text_document=document, position=_position_of(typo, "adjacent(source", 3))
            ),
            TIMEOUT,
        )
        assert hovered is not None and "adjacent(a: Depot, b: Depot) -> Bool" in hovered.contents.value

        completed = await asyncio.wait_for(
            client.text_document_completion_async(
                types.CompletionParams(text_document=document, position=_position_of(typo, "card.rnak", len("card.rn")))
            ),
            TIMEOUT,
        )
        items = completed.items if isinstance(completed, types.CompletionList) else completed or []
        assert {item.label for item in items} == {"rank", "suit", "color", "value", "faceUp"}
        rank = next(item for item in items if item.label == "rank")
        assert rank.text_edit is not None and rank.text_edit.range.start == start

        located = await asyncio.wait_for(
            client.text_document_definition_async(
                types.DefinitionParams(text_document=document, position=_position_of(typo, '"to": "discard"', 8))
            ),
            TIMEOUT,
        )
        assert isinstance(located, list) and len(located) == 1
        assert located[0].range.start == _position_of(typo, '"name": "discard"', len('"name": '))

        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
    finally:
        if client._server is not None and client._server.returncode is None:
            try:
                await asyncio.wait_for(client._server.wait(), 5)
            except TimeoutError:
                client._server.kill()
        await asyncio.wait_for(client.stop(), TIMEOUT)


def test_a_real_client_gets_diagnostics_hover_completion_and_definition_over_stdio(tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(_session(tmp_path), 4 * TIMEOUT))
