"""``cardz lsp``: the pygls wiring of the language server (stdio).

Everything a request answers is computed by the pure feature modules; this
module converts their results to LSP types, debounces linting while the
designer types, and remembers the last design that could be modelled.

Nothing heavy runs on the request loop, so typing never waits: linting runs in
a process of its own (:class:`Linter`; the linted text is modelled meanwhile in a
worker thread), the requests that walk a
whole design (formatting, outline, folding, references, rename, semantic
tokens, the lens) in pygls's worker threads, and the live analysis of a save
in a child process (:mod:`.live`). Hover, completion, definition and quick
fixes answer on the loop; ``bench/bench_lsp.py`` measures all of them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import dataclasses
import multiprocessing
import signal
import sys
import threading
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__, jsoncst
from ..diagnostics import Severity
from ..lint import SUFFIX
from .actions import quick_fixes
from .completion import ItemKind, complete
from .definition import definition
from .document import DesignContext, EditorDiagnostic, Snapshot, design_context, json_tree, lint_document
from .formatting import Edit, NotFormatted, format_document, format_range
from .hover import hover
from .live import LiveAnalysis, LiveOptions, LiveResult, exit_with_parent
from .outline import Symbol, SymbolKind, folding_ranges, outline
from .positions import Encoding, Position, Range, TextIndex
from .rename import RenameRefused, prepare_rename, references, rename
from .tokens import TOKEN_MODIFIERS, TOKEN_TYPES, encode, semantic_tokens

__all__ = ["CardzLanguageServer", "build_server", "run"]

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
        self.linter = Linter()
        self.live_enabled = True
        self._loop: asyncio.AbstractEventLoop | None = None

    def configure(self, options: object) -> None:
        """Apply the client's ``initializationOptions``: ``{"liveAnalysis": false}`` or ``{"liveAnalysis": {...}}``."""
        if not isinstance(options, dict):
            return
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
        design context of the same text is built meanwhile in a worker thread.
        """
        if not self.is_design(uri):
            return
        document = self.workspace.get_text_document(uri)
        text, version, path, encoding = document.source, document.version, self.document_path(uri), self.encoding
        loop = asyncio.get_running_loop()
        linted = asyncio.ensure_future(self.linter.lint(text, path, encoding))
        try:
            context = await loop.run_in_executor(None, design_context, text, path)
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


class Linter:
    """Lints in a process of its own (started on first use, restarted if it dies), in a thread when it cannot run."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet_worker)
            return self._pool

    def start(self) -> None:
        """Start the process now, so that the first lint does not wait for it."""
        self._executor().submit(int)

    async def lint(self, text: str, path: Path | None, encoding: Encoding) -> list[EditorDiagnostic]:
        """The diagnostics of ``text`` (see :func:`.document.lint_document`)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), lint_document, text, path, encoding)
        except concurrent.futures.process.BrokenProcessPool:
            with self._lock:
                self._pool = None  # the next lint starts a new process
            return await loop.run_in_executor(None, lint_document, text, path, encoding)

    def close(self) -> None:
        """Stop the process (a lint under way is abandoned)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the editor's terminal is the server's to handle
    exit_with_parent()


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
        ls.linter.start()

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: CardzLanguageServer, params: None) -> None:
        ls.live.close()  # terminate a running analysis with the server
        ls.linter.close()

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


def _edit(index: TextIndex, edit: Edit) -> types.TextEdit:
    return types.TextEdit(range=_range(index.offset_range(edit.start, edit.end)), new_text=edit.new_text)


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
    @server.thread()
    def on_formatting(ls: CardzLanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        return _format(ls, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    @server.thread()
    def on_range_formatting(
        ls: CardzLanguageServer, params: types.DocumentRangeFormattingParams
    ) -> list[types.TextEdit] | None:
        return _format(ls, params.text_document.uri, params.range)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.thread()
    def on_document_symbol(ls: CardzLanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        text = ls.workspace.get_text_document(uri).source
        return [_symbol(symbol) for symbol in outline(text, TextIndex(text, ls.encoding))]

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @server.thread()
    def on_folding_range(ls: CardzLanguageServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        return [
            types.FoldingRange(start_line=fold.start_line, end_line=fold.end_line)
            for fold in folding_ranges(ls.workspace.get_text_document(uri).source)
        ]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @server.thread()
    def on_references(ls: CardzLanguageServer, params: types.ReferenceParams) -> list[types.Location]:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return []
        position = Position(params.position.line, params.position.character)
        found = references(ls.current(uri), position, params.context.include_declaration)
        return [types.Location(uri=uri, range=_range(where)) for where in found]

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    @server.thread()
    def on_prepare_rename(ls: CardzLanguageServer, params: types.PrepareRenameParams) -> types.Range | None:
        if not ls.is_design(params.text_document.uri):
            return None
        position = Position(params.position.line, params.position.character)
        try:
            return _range(prepare_rename(ls.current(params.text_document.uri), position))
        except RenameRefused as refused:
            raise _Refused(str(refused)) from None

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    @server.thread()
    def on_rename(ls: CardzLanguageServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return None
        position = Position(params.position.line, params.position.character)
        try:
            edits = rename(ls.current(uri), position, params.new_name)
        except RenameRefused as refused:
            raise _Refused(str(refused)) from None
        return types.WorkspaceEdit(changes={uri: [types.TextEdit(range=_range(r), new_text=t) for r, t in edits]})

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
    @server.thread()
    def on_semantic_tokens(ls: CardzLanguageServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
        uri = params.text_document.uri
        if not ls.is_design(uri):
            return types.SemanticTokens(data=[])
        snapshot = ls.snapshot(uri)
        return types.SemanticTokens(data=encode(semantic_tokens(snapshot.text, snapshot.context), snapshot.index))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    @server.thread()
    def on_code_lens(ls: CardzLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        result = ls.live.latest(uri)
        if not ls.is_design(uri) or result is None:
            return []
        text = ls.workspace.get_text_document(uri).source
        root = json_tree(text)
        name = jsoncst.node_at(root, "/name") if root is not None else None
        index = TextIndex(text, ls.encoding)
        where = index.offset_range(name.start, name.end) if name is not None else Range(Position(0, 0), Position(0, 0))
        return [types.CodeLens(range=_range(where), command=types.Command(title=result.label(), command=""))]


def _format(ls: CardzLanguageServer, uri: str, within: types.Range | None) -> list[types.TextEdit] | None:
    if not ls.is_design(uri):
        return None
    text = ls.workspace.get_text_document(uri).source
    index = TextIndex(text, ls.encoding)
    try:
        if within is None:
            edits = format_document(text)
        else:
            start = index.offset(Position(within.start.line, within.start.character))
            end = index.offset(Position(within.end.line, within.end.character))
            edits = format_range(text, start, end)
    except NotFormatted as refused:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"cardz fmt: {refused}"))
        return None
    return [_edit(index, edit) for edit in edits]


SWITCH_INTERVAL_SECONDS = 0.001
"""How often a busy worker thread hands the interpreter to the request loop (Python's default: 5 ms)."""


class _SerialisedOutput:
    """stdout for the server: one message is written whole before the next starts.

    Responses of the handlers that run in worker threads are written from those threads;
    without the lock two large ones could interleave on the pipe and corrupt both.
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
