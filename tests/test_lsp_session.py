"""Every request of the language server, answered over stdio to pygls's own client.

One session opens a seed design with a typo and asks for each feature in turn:
a quick fix, formatting (whole and range), the outline, folding, references,
prepareRename (accepted and refused), rename, semantic tokens, and the live
code lens after a save. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402

from cardz_tools import fmt  # noqa: E402
from cardz_tools.lsp.positions import Position, Range  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.lsp_support import apply_edits  # noqa: E402
from tests.test_lsp_stdio import TIMEOUT, _Client, _diagnostics_for, _position_of  # noqa: E402

SEED = ROOT / "games" / "monte-carlo.cardz"


def _edits(edits: list[types.TextEdit] | None) -> list[tuple[Range, str]]:
    def point(p: types.Position) -> Position:
        return Position(p.line, p.character)
    return [(Range(point(e.range.start), point(e.range.end)), e.new_text) for e in edits or []]


async def _session(tmp_path: Path) -> None:
    seed = SEED.read_text(encoding="utf-8")
    text = seed.replace("card.rank", "card.rnak").replace('"depotOnly": true', '"depotOnly":true')
    path = tmp_path / "monte-carlo.cardz"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    document = types.TextDocumentIdentifier(uri=uri)
    client = _Client()
    lenses_refreshed = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(_client: _Client, params: types.PublishDiagnosticsParams) -> None:
        client.published.put_nowait(params)

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def on_refresh(_client: _Client, _params: None) -> None:
        lenses_refreshed.set()

    capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
        code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True)))
    await asyncio.wait_for(client.start_io(sys.executable, "-m", "cardz_tools", "lsp", cwd=str(ROOT)), TIMEOUT)
    try:
        initialized = await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=capabilities, root_uri=tmp_path.as_uri(), process_id=None,
            initialization_options={"liveAnalysis": {"playouts": 20, "deals": 1, "budget": 2000}})), TIMEOUT)
        offered = initialized.capabilities
        assert offered.code_action_provider and offered.document_formatting_provider
        assert offered.document_range_formatting_provider and offered.document_symbol_provider
        assert offered.folding_range_provider and offered.references_provider and offered.code_lens_provider
        assert offered.rename_provider and offered.semantic_tokens_provider and offered.inlay_hint_provider
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cardz", version=1, text=text)))
        found = await _diagnostics_for(client, uri, 1)
        assert [d.code for d in found] == ["CZ402"]

        actions = await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
            text_document=document, range=found[0].range, context=types.CodeActionContext(diagnostics=found))), TIMEOUT)
        assert actions and actions[0].title == "Change to 'rank'" and actions[0].edit is not None
        fixed = apply_edits(text, _edits(actions[0].edit.changes[uri]))
        assert "card.rank" in fixed and "rnak" not in fixed

        formatted = await asyncio.wait_for(client.text_document_formatting_async(types.DocumentFormattingParams(
            text_document=document, options=types.FormattingOptions(tab_size=2, insert_spaces=True))), TIMEOUT)
        assert apply_edits(text, _edits(formatted)) == fmt.format_text(text)
        line = _position_of(text, '"depotOnly"').line
        ranged = await asyncio.wait_for(client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
            text_document=document, range=types.Range(start=types.Position(line=line, character=0),
                                                      end=types.Position(line=line, character=5)),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True))), TIMEOUT)
        assert apply_edits(text, _edits(ranged)) == fmt.format_text(text)  # the design's own member: the whole

        symbols = await asyncio.wait_for(client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=document)), TIMEOUT)
        depots = next(s for s in symbols if s.name == "depots")
        assert [d.name for d in depots.children] == ["cell", "stock", "discard"]

        folds = await asyncio.wait_for(client.text_document_folding_range_async(types.FoldingRangeParams(
            text_document=document)), TIMEOUT)
        assert folds and folds[0].start_line == 0

        at_cell = _position_of(text, '"name": "cell"', 10)
        found_refs = await asyncio.wait_for(client.text_document_references_async(types.ReferenceParams(
            text_document=document, position=at_cell, context=types.ReferenceContext(include_declaration=True))),
            TIMEOUT)
        assert len(found_refs) == 5 and all(r.uri == uri for r in found_refs)

        prepared = await asyncio.wait_for(client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=document, position=at_cell)), TIMEOUT)
        assert prepared == types.Range(start=_position_of(text, '"name": "cell"', 9),
                                       end=_position_of(text, '"name": "cell"', 13))
        with pytest.raises(JsonRpcException, match="depot type"):
            await asyncio.wait_for(client.text_document_prepare_rename_async(types.PrepareRenameParams(
                text_document=document, position=_position_of(text, '"depots": "Foundation"', 13))), TIMEOUT)
        variant_path = tmp_path / "variant.cardz"
        variant = '{ "name": "V", "extends": "monte-carlo.cardz", "dealRules": [{ "kind": "dealGroup", "to": "cell" }]}'
        variant_path.write_text(variant, encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=variant_path.as_uri(), language_id="cardz", version=1, text=variant)))
        with_variant = await asyncio.wait_for(client.text_document_references_async(types.ReferenceParams(
            text_document=document, position=at_cell, context=types.ReferenceContext(include_declaration=True))),
            TIMEOUT)
        assert [r.uri for r in with_variant] == [uri] * 5 + [variant_path.as_uri()]
        renamed = await asyncio.wait_for(client.text_document_rename_async(types.RenameParams(
            text_document=document, position=at_cell, new_name="grid")), TIMEOUT)
        assert renamed is not None and renamed.changes is not None
        assert '"cell"' not in apply_edits(text, _edits(renamed.changes[uri]))
        assert '"to": "grid"' in apply_edits(variant, _edits(renamed.changes[variant_path.as_uri()]))  # open variant
        hints = await asyncio.wait_for(client.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=variant_path.as_uri()), range=types.Range(
                start=types.Position(line=0, character=0), end=types.Position(line=1, character=0)))), TIMEOUT)
        assert hints is not None and [h.label for h in hints] == ["= Monte Carlo"]
        assert hints[0].position == _position_of(variant, '"dealRules"', -2)
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=variant_path.as_uri())))

        tokens = await asyncio.wait_for(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
            text_document=document)), TIMEOUT)
        assert tokens is not None and len(tokens.data) % 5 == 0 and len(tokens.data) > 100

        assert not await asyncio.wait_for(client.text_document_code_lens_async(types.CodeLensParams(
            text_document=document)), TIMEOUT)  # nothing before the first save
        fixed_text = seed
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed_text)]))
        path.write_text(fixed_text, encoding="utf-8")
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=document))
        label = ""
        for _ in range(60):
            lenses_refreshed.clear()
            lenses = await asyncio.wait_for(client.text_document_code_lens_async(types.CodeLensParams(
                text_document=document)), TIMEOUT)
            assert len(lenses) == 1 and lenses[0].range.start == _position_of(fixed_text, '"Monte Carlo"')
            label = lenses[0].command.title if lenses[0].command else ""
            if "solver" in label:
                break
            await asyncio.wait_for(lenses_refreshed.wait(), 2 * TIMEOUT)
        assert "random win" in label and "solver" in label, label

        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
    finally:
        if client._server is not None and client._server.returncode is None:
            try:
                await asyncio.wait_for(client._server.wait(), 5)
            except TimeoutError:
                client._server.kill()
        await asyncio.wait_for(client.stop(), TIMEOUT)


def test_every_request_is_answered_over_stdio(tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(_session(tmp_path), 6 * TIMEOUT))
