"""``cardz lsp``: the pygls wiring of the language server (stdio).

Everything a request answers is computed by the pure feature modules; this
module converts their results to LSP types, debounces linting while the
designer types, and remembers the last design that could be modelled.

Nothing heavy runs in the server's interpreter, so typing never waits: linting,
modelling the linted text and the requests that walk a whole design (formatting,
outline, folding, references, rename, semantic tokens, the lens's place) run in
worker processes (:mod:`.workers`, :mod:`.jobs`), and the live analysis of a save
in a child process of its own (:mod:`.live`). A request's result for a text that
changed while it ran is dropped (``ContentModified``: the client asks again).
Hover, completion, definition and quick fixes answer on the loop;
``bench/bench_lsp.py`` measures all of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, ParamSpec, TypeVar
from urllib.parse import urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..diagnostics import Severity
from ..lint import SUFFIX
from .actions import quick_fixes
from .completion import ItemKind, complete
from .definition import definition
from .document import DesignContext, EditorDiagnostic, Snapshot, design_context, lint_document
from .formatting import NotFormatted
from .hover import hover
from .jobs import (
    context_job,
    folding_job,
    format_job,
    hints_job,
    name_range_job,
    outline_job,
    prepare_rename_job,
    references_job,
    rename_job,
    tokens_job,
)
from .live import LiveAnalysis, LiveOptions, LiveResult
from .outline import Symbol, SymbolKind
from .positions import Encoding, Position, Range, TextIndex
from .rename import RenameRefused
from .tokens import TOKEN_MODIFIERS, TOKEN_TYPES
from .workers import WORKER_PROCESSES, JobFailed, Workers

__all__ = ["CardzLanguageServer", "build_server", "run", "settle_heap"]

DEBOUNCE_SECONDS = 0.15
"""How long typing must pause before a document is linted again."""

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_ITEM_KIND = {
    ItemKind.KEY: types.CompletionItemKind.Property,
    ItemKind.VALUE: types.CompletionItemKind.EnumMember,
    ItemKind.FUNCTION: types.CompletionItemKind.Function,
    ItemKind.FIELD: types.CompletionItemKind.Field,
    ItemKind.VARIABLE: types.CompletionItemKind.Variable,
    ItemKind.DEPOT: types.CompletionItemKind.Reference,
    ItemKind.CONSTANT: types.CompletionItemKind.Constant,
    ItemKind.KEYWORD: types.CompletionItemKind.Keyword,
}
_SYMBOL_KIND = {
    SymbolKind.DESIGN: types.SymbolKind.File,
    SymbolKind.DEPOT: types.SymbolKind.Class,
    SymbolKind.GROUP: types.SymbolKind.Array,
    SymbolKind.RULE: types.SymbolKind.Boolean,
    SymbolKind.LIST: types.SymbolKind.Namespace,
    SymbolKind.EVENT: types.SymbolKind.Event,
    SymbolKind.DEAL: types.SymbolKind.Method,
    SymbolKind.CONDITION: types.SymbolKind.Boolean,
    SymbolKind.SCORING: types.SymbolKind.Number,
}
SEMANTIC_LEGEND = types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))


class _Refused(JsonRpcException):
    """A request the server declines, with the reason for the user (LSP's RequestFailed)."""

    CODE = int(types.LSPErrorCodes.RequestFailed)


class _ContentModified(JsonRpcException):
    """The document changed while the request ran: its answer would be for an older text."""

    CODE = int(types.LSPErrorCodes.ContentModified)


_P = ParamSpec("_P")
_T = TypeVar("_T")


@dataclasses.dataclass
class _Known:
    """The last design context of a document that could be modelled, and the text it came from."""

    text: str
    context: DesignContext | None


class CardzLanguageServer(LanguageServer):
    """The server, with its per-document state."""

    def __init__(self) -> None:
        super().__init__("cardz", __version__)
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.known: dict[str, _Known] = {}
        self.live = LiveAnalysis(self._analysed)
        self.workers = Workers()
        self.live_enabled = True
        self._loop: asyncio.AbstractEventLoop | None = None

    def configure(self, options: object) -> None:
        """Apply the client's ``initializationOptions``.

        ``{"liveAnalysis": false}`` or ``{"liveAnalysis": {...}}``; ``{"workerProcesses": n}``
        (0 runs the heavy work in the server's threads, which slows typing down while it runs).
        """
        if not isinstance(options, dict):
            return
        processes = options.get("workerProcesses", WORKER_PROCESSES)
        if isinstance(processes, int) and not isinstance(processes, bool) and 0 <= processes <= 8:
            self.workers = Workers(processes)
        live = options.get("liveAnalysis")
        if live is False:
            self.live_enabled = False
        elif isinstance(live, dict):
            self.live.options = LiveOptions.from_settings(live)

    def analyse_saved(self, uri: str) -> None:
        """Start the background analysis of a saved design (replacing the one under way)."""
        if not self.live_enabled or not self.is_design(uri) or uri not in self.workspace.text_documents:
            return
        self._loop = asyncio.get_running_loop()
        self.live.submit(uri, self.workspace.get_text_document(uri).source, self.document_path(uri))
        self._refresh_lenses()

    def _analysed(self, uri: str, result: LiveResult) -> None:
        """Called from the analysis' watcher thread: ask the client to show the new lens."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._refresh_lenses)

    def _refresh_lenses(self) -> None:
        try:
            capabilities = self.client_capabilities.workspace
        except AttributeError:  # not initialised
            return
        lens = capabilities.code_lens if capabilities else None
        if lens is not None and lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    @property
    def encoding(self) -> Encoding:
        """The position encoding agreed with the client (UTF-16 unless it asked for another)."""
        try:
            agreed = self.workspace.position_encoding
        except RuntimeError:  # not initialised yet
            return Encoding.UTF16
        try:
            return Encoding(getattr(agreed, "value", agreed))
        except ValueError:
            return Encoding.UTF16

    def document_path(self, uri: str) -> Path | None:
        """Where a document lives on disk (None for an unsaved buffer)."""
        if urlparse(uri).scheme != "file":
            return None
        path = to_fs_path(uri)
        return Path(path) if path else None

    def is_design(self, uri: str) -> bool:
        """Whether the server speaks about this document: a ``.cardz`` file or an unsaved buffer.

        Editors often hand every JSON file to the server (``.cardz`` is associated
        with JSON); other JSON files are left alone.
        """
        path = self.document_path(uri)
        return path is None or path.suffix == SUFFIX

    def snapshot(self, uri: str) -> Snapshot:
        """The document's current text with the freshest design context there is."""
        text = self.workspace.get_text_document(uri).source
        path = self.document_path(uri)
        known = self.known.get(uri)
        if known is not None and known.text != text and uri in self.pending:
            # A lint of the new text is on its way and brings its context: answer with the last one
            # instead of modelling a large design on the request loop.
            return Snapshot(text, known.context, path, self.encoding)
        if known is None or known.text != text:
            context = design_context(text, path)
            if context is not None or known is None:
                known = _Known(text, context)
                self.known[uri] = known
        return Snapshot(text, known.context, path, self.encoding)

    def current(self, uri: str) -> Snapshot:
        """The document's current text with the context of that very text (None while it does not model)."""
        return Snapshot.of(self.workspace.get_text_document(uri).source, self.document_path(uri), self.encoding)

    async def publish(self, uri: str) -> None:
        """Lint the document's current text in the lint process, then publish the diagnostics.

        Linting a large design takes longer than a keystroke may wait, so it never runs on
        the request loop, nor in a thread that would share the interpreter with it; the
        design context of the same text is built meanwhile in another worker process.
        """
        if not self.is_design(uri):
            return
        document = self.workspace.get_text_document(uri)
        text, version, path, encoding = document.source, document.version, self.document_path(uri), self.encoding
        linted = asyncio.ensure_future(self.workers.run(lint_document, text, path, encoding))
        try:
            context = await self.workers.run(context_job, text, path)
            found = await linted
        except asyncio.CancelledError:
            linted.cancel()  # a newer text is on its way
            raise
        except Exception as exc:  # noqa: BLE001 - a broken installation must not kill the server
            self.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error, message=f"cardz: cannot lint {uri}: {type(exc).__name__}: {exc}"))
            return
        if uri not in self.workspace.text_documents:
            return  # closed meanwhile
        known = self.known.get(uri)
        if context is not None or known is None:
            self.known[uri] = _Known(text, context)  # keep the design context in step with the text
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[_diagnostic(d) for d in found], version=version)
        )

    def schedule(self, uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        """Lint ``uri`` after ``delay``, replacing a lint that has not finished yet (the latest text wins)."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay))

    async def _lint_later(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        if uri in self.workspace.text_documents:
            await self.publish(uri)
        if self.pending.get(uri) is asyncio.current_task():
            del self.pending[uri]

    async def job(self, uri: str, job: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """A request's result computed in a worker from the document's current text.

        :raises _ContentModified: when the document changed (or closed) meanwhile: the result is dropped.
        :raises _Refused: when the job did not finish (past its time bound).
        """
        version = self.workspace.get_text_document(uri).version
        try:
            result = await self.workers.run(job, *args, **kwargs)
        except JobFailed as failed:
            raise _Refused(f"cardz: this request {failed}") from None
        if uri not in self.workspace.text_documents or self.workspace.get_text_document(uri).version != version:
            raise _ContentModified("the document changed while the request ran")
        return result

    def open_variants(self, uri: str) -> list[tuple[str, Path, str]]:
        """The other open designs that may extend ``uri`` (uri, path, text): those on disk that say ``extends``."""
        found = []
        for other, document in list(self.workspace.text_documents.items()):
            path = self.document_path(other)
            if other != uri and path is not None and self.is_design(other) and '"extends"' in document.source:
                found.append((other, path, document.source))
        return found

    def text_of(self, uri: str) -> str:
        """The document's current text."""
        return self.workspace.get_text_document(uri).source


_WARM_UP = (
    '{"name": "w", "depots": [{"type": "Foundation", "col": 0, "row": 0, "name": "f", "acceptRule": {"when":'
    ' "empty(depot)"}}], "dealRules": [], "winCondition": {"kind": "allCardsIn", "depots": "Foundation"}}'
)


def settle_heap() -> None:
    """Load what the request loop's handlers load on first use, then exempt it all from garbage collection.

    The modules, the schema and the expression grammar are never garbage, yet every full collection
    walks them again: 40-60 ms on the request loop, in the middle of a keystroke's completion.
    Frozen (:func:`gc.freeze`), a full collection walks only what the open documents made.
    """
    snapshot = Snapshot.of(_WARM_UP)
    at_rule = snapshot.index.position(_WARM_UP.index("empty(") + 3)
    complete(snapshot, at_rule)
    hover(snapshot, at_rule)
    gc.collect()
    gc.freeze()


def _position(position: Position) -> types.Position:
    return types.Position(line=position.line, character=position.character)


def _range(span: Range) -> types.Range:
    return types.Range(start=_position(span.start), end=_position(span.end))


def _uri(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()


def _diagnostic(found: EditorDiagnostic) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=_uri(r.file), range=_range(r.range)), message=r.message
        )
        for r in found.related
    ]
    return types.Diagnostic(
        range=_range(found.range),
        message=found.message,
        severity=_SEVERITY[found.severity],
        code=found.code,
        source="cardz",
        related_information=related or None,
    )


def build_server() -> CardzLanguageServer:
    """A server with every feature registered."""
    server = CardzLanguageServer()

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: CardzLanguageServer, params: types.InitializeParams) -> None:
        ls.configure(params.initialization_options)
        ls.workers.start()
        settle_heap()

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: CardzLanguageServer, params: None) -> None:
        ls.live.close()  # terminate a running analysis with the server
        ls.workers.close()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: CardzLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: CardzLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: CardzLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        for uri in list(ls.workspace.text_documents):  # open variants of the saved design change with it
            ls.schedule(uri, delay=0)
        ls.analyse_saved(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: CardzLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.known.pop(uri, None)
        ls.live.cancel(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: CardzLanguageServer, params: types.HoverParams) -> types.Hover | None:
        if not ls.is_design(params.text_document.uri):
            return None
        position = Position(params.position.line, params.position.character)
        found = hover(ls.snapshot(params.text_document.uri), position)
        if found is None:
            return None
        contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.markdown)
        return types.Hover(contents=contents, range=_range(found.range))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", '"']))
    def on_completion(ls: CardzLanguageServer, params: types.CompletionParams) -> types.CompletionList:
        if not ls.is_design(params.text_document.uri):
            return types.CompletionList(is_incomplete=False, items=[])
        position = Position(params.position.line, params.position.character)
        items = [
            types.CompletionItem(
                label=item.label,
                kind=_ITEM_KIND[item.kind],
                detail=item.detail,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=item.documentation)
                if item.documentation
                else None,
                text_edit=types.TextEdit(range=_range(item.range), new_text=item.new_text),
                sort_text=f"{number:04d}",
            )
            for number, item in enumerate(complete(ls.snapshot(params.text_document.uri), position))
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: CardzLanguageServer, params: types.DefinitionParams) -> list[types.Location]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        position = Position(params.position.line, params.position.character)
        return [
            types.Location(uri=uri if file is None else _uri(file), range=_range(found))
            for file, found in definition(ls.snapshot(uri), position)
        ]

    _register_editing(server)
    return server


def _symbol(symbol: Symbol) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KIND[symbol.kind],
        range=_range(symbol.range),
        selection_range=_range(symbol.selection),
        detail=symbol.detail,
        children=[_symbol(child) for child in symbol.children] or None,
    )


def _register_editing(server: CardzLanguageServer) -> None:
    """Quick fixes, formatting, outline, folding, references, rename, semantic tokens and the live code lens."""

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def on_code_action(ls: CardzLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        text = ls.workspace.get_text_document(uri).source
        index = TextIndex(text, ls.encoding)
        actions = []
        for diagnostic in params.context.diagnostics:
            if diagnostic.source not in (None, "cardz"):
                continue
            start = index.offset(Position(diagnostic.range.start.line, diagnostic.range.start.character))
            end = index.offset(Position(diagnostic.range.end.line, diagnostic.range.end.character))
            code = str(diagnostic.code) if diagnostic.code is not None else ""
            for fix in quick_fixes(text, start, end, code, diagnostic.message):
                edit = types.TextEdit(range=_range(index.offset_range(fix.start, fix.end)), new_text=fix.new_text)
                actions.append(
                    types.CodeAction(
                        title=fix.title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        is_preferred=fix.preferred,
                        edit=types.WorkspaceEdit(changes={uri: [edit]}),
                    )
                )
        return actions

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    async def on_formatting(
        ls: CardzLanguageServer, params: types.DocumentFormattingParams
    ) -> list[types.TextEdit] | None:
        return await _format(ls, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    async def on_range_formatting(
        ls: CardzLanguageServer, params: types.DocumentRangeFormattingParams
    ) -> list[types.TextEdit] | None:
        return await _format(ls, params.text_document.uri, params.range)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_document_symbol(
        ls: CardzLanguageServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        return [_symbol(symbol) for symbol in await ls.job(uri, outline_job, ls.text_of(uri), ls.encoding)]

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def on_folding_range(ls: CardzLanguageServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        return [
            types.FoldingRange(start_line=fold.start_line, end_line=fold.end_line)
            for fold in await ls.job(uri, folding_job, ls.text_of(uri))
        ]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def on_references(ls: CardzLanguageServer, params: types.ReferenceParams) -> list[types.Location]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        position = Position(params.position.line, params.position.character)
        others = ls.open_variants(uri)
        found, in_variants = await ls.job(uri, references_job, ls.text_of(uri), ls.document_path(uri), ls.encoding,
                                          position, params.context.include_declaration,
                                          [(path, text) for _, path, text in others])
        return [types.Location(uri=uri, range=_range(where)) for where in found] + [
            types.Location(uri=other, range=_range(where))
            for (other, _, _), places in zip(others, in_variants, strict=True) for where in places
        ]

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def on_prepare_rename(ls: CardzLanguageServer, params: types.PrepareRenameParams) -> types.Range | None:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return None
        position = Position(params.position.line, params.position.character)
        try:
            return _range(await ls.job(uri, prepare_rename_job, ls.text_of(uri), ls.document_path(uri), ls.encoding,
                                       position))
        except RenameRefused as refused:
            raise _Refused(str(refused)) from None

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    async def on_rename(ls: CardzLanguageServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return None
        position = Position(params.position.line, params.position.character)
        others = ls.open_variants(uri)
        versions = [ls.workspace.get_text_document(other).version for other, _, _ in others]
        try:
            edits, in_variants = await ls.job(uri, rename_job, ls.text_of(uri), ls.document_path(uri), ls.encoding,
                                              position, params.new_name, [(path, text) for _, path, text in others])
        except RenameRefused as refused:
            raise _Refused(str(refused)) from None
        if [ls.workspace.get_text_document(other).version for other, _, _ in others] != versions:
            raise _ContentModified("a variant changed while the rename ran")
        changes = {uri: [types.TextEdit(range=_range(r), new_text=t) for r, t in edits]}
        for (other, _, _), other_edits in zip(others, in_variants, strict=True):
            if other_edits:
                changes[other] = [types.TextEdit(range=_range(r), new_text=t) for r, t in other_edits]
        return types.WorkspaceEdit(changes=changes)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
    async def on_semantic_tokens(ls: CardzLanguageServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return types.SemanticTokens(data=[])
        return types.SemanticTokens(data=await ls.job(uri, tokens_job, uri, ls.text_of(uri), ls.document_path(uri),
                                                      ls.encoding))

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    async def on_inlay_hint(ls: CardzLanguageServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        uri = params.text_document.uri
        if not ls.is_design(uri) or '"extends"' not in ls.text_of(uri):
            return []  # only a variant has hints: spare the worker
        shown = params.range
        return [
            types.InlayHint(position=_position(hint.position), label=hint.label, padding_left=True,
                            tooltip=hint.tooltip)
            for hint in await ls.job(uri, hints_job, ls.text_of(uri), ls.document_path(uri), ls.encoding)
            if (shown.start.line, shown.start.character) <= (hint.position.line, hint.position.character)
            <= (shown.end.line, shown.end.character)
        ]

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def on_code_lens(ls: CardzLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        result = ls.live.latest(uri)
        if not ls.is_design(uri) or result is None:
            return []
        where = await ls.job(uri, name_range_job, ls.text_of(uri), ls.encoding)
        return [types.CodeLens(range=_range(where), command=types.Command(title=result.label(), command=""))]


async def _format(ls: CardzLanguageServer, uri: str, within: types.Range | None) -> list[types.TextEdit] | None:
    if not ls.is_design(uri):
        return None
    span = None if within is None else Range(
        Position(within.start.line, within.start.character), Position(within.end.line, within.end.character))
    try:
        edits = await ls.job(uri, format_job, ls.text_of(uri), ls.encoding, span)
    except NotFormatted as refused:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"cardz fmt: {refused}"))
        return None
    return [types.TextEdit(range=_range(where), new_text=new_text) for where, new_text in edits]


SWITCH_INTERVAL_SECONDS = 0.001
"""How often a busy thread (the pool's result reader, or a job with ``workerProcesses`` 0) hands the interpreter
to the request loop (Python's default: 5 ms)."""


class _SerialisedOutput:
    """stdout for the server: one message is written whole before the next starts.

    Every reply is written on the request loop today (the heavy work runs in worker processes,
    the live analysis reports through the loop), but a message written from a thread would
    otherwise interleave with one from the loop on the pipe and corrupt both.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, data: bytes) -> int:
        with self._lock:
            written = self._stream.write(data)
            self._stream.flush()
        return written

    def flush(self) -> None:
        with self._lock:
            self._stream.flush()

    def close(self) -> None:
        self._stream.close()


def run() -> None:
    """Serve over stdin/stdout until the client says exit."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)  # a request in a worker thread must not make typing wait
    build_server().start_io(stdout=_SerialisedOutput(sys.stdout.buffer))  # type: ignore[arg-type]
