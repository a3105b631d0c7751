"""Live preview of a design: the board, its diagnostics and a quick simulation (issue #6)."""
