"""``cardz lsp``: the pygls wiring of the language server (stdio).

Everything a request answers is computed by the pure feature modules; this
module converts their results to LSP types, debounces linting while the
designer types, and remembers the last design that could be modelled.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from urllib.parse import urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..diagnostics import Severity
from ..lint import SUFFIX
from .completion import ItemKind, complete
from .definition import definition
from .document import DesignContext, EditorDiagnostic, Snapshot, design_context, lint_document
from .hover import hover
from .positions import Encoding, Position, Range

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
        if known is None or known.text != text:
            context = design_context(text, path)
            if context is not None or known is None:
                known = _Known(text, context)
                self.known[uri] = known
        return Snapshot(text, known.context, path, self.encoding)

    def publish(self, uri: str) -> None:
        """Lint the document's current text and publish the diagnostics."""
        if not self.is_design(uri):
            return
        document = self.workspace.get_text_document(uri)
        path = self.document_path(uri)
        try:
            found = lint_document(document.source, path, self.encoding)
            self.snapshot(uri)  # keep the design context in step with the text
        except Exception as exc:  # noqa: BLE001 - a broken installation must not kill the server
            self.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error, message=f"cardz: cannot lint {uri}: {type(exc).__name__}: {exc}"))
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[_diagnostic(d) for d in found], version=document.version)
        )

    def schedule(self, uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        """Lint ``uri`` after ``delay``, replacing a lint that has not started yet (the latest text wins)."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay))

    async def _lint_later(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        self.pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.publish(uri)


def _position(position: Position) -> types.Position:
    return types.Position(line=position.line, character=position.character)


def _range(span: Range) -> types.Range:
    return types.Range(start=_position(span.start), end=_position(span.end))


def _uri(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()


def _diagnostic(found: EditorDiagnostic) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(location=types.Location(uri=_uri(r.file), range=_range(r.range)), message=r.message)
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

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: CardzLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.known.pop(uri, None)
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
                if item.documentation else None,
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

    return server


def run() -> None:
    """Serve over stdin/stdout until the client says exit."""
    build_server().start_io()
