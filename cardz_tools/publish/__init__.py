"""Publishing: a folder of self-contained game pages, the designs to download, an index and a catalog.

``build`` runs a publication, ``facts`` derives what a page says about a game,
``pages`` writes the HTML and ``output`` owns the output folder (atomic swap).
"""

from .build import DEFAULT_OPTIONS, GateError, PublishError, PublishResult, parse_gate, publish

__all__ = ["DEFAULT_OPTIONS", "GateError", "PublishError", "PublishResult", "parse_gate", "publish"]
