"""The language server for .cardz files (``cardz lsp``).

:mod:`.server` only wires pygls to the features; the features themselves are
pure functions over text and offsets (:mod:`.positions`, :mod:`.locate`,
:mod:`.schemadoc`, :mod:`.document`, :mod:`.expressions`, :mod:`.hover`,
:mod:`.completion`, :mod:`.definition`, :mod:`.actions`, :mod:`.formatting`,
:mod:`.outline`, :mod:`.rename`, :mod:`.tokens`), so tests call them without a
server; :mod:`.live` runs the background analysis of saves.
"""
