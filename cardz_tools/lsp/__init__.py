"""The language server for .cardz files (``cardz lsp``).

:mod:`.server` only wires pygls to the features; the features themselves are
pure functions over text and offsets (:mod:`.positions`, :mod:`.locate`,
:mod:`.schemadoc`, :mod:`.document`, :mod:`.expressions`, :mod:`.hover`,
:mod:`.completion`, :mod:`.definition`), so tests call them without a server.
"""
