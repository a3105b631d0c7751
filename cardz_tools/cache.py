"""The analysis cache: results of play kept in ``.cardz_cache/``, the way ruff and mypy keep theirs.

An entry is found by a key that is the SHA-256 of

* the flattened design as canonical JSON (sorted keys, no spaces), so a variant is
  cached by what it stands for and reformatting a file changes nothing;
* :func:`code_fingerprint`: the cardz-tools version, :data:`FORMAT_VERSION` and a hash of
  the source of every module that decides a result (the engine, the expressions, the
  analysis), so any change to the solver or the engine invalidates every entry without
  anyone having to remember to bump a number;
* every setting that changes the result (counts, budgets, seconds, seed, thresholds),
  given by the caller as a JSON-able mapping.

The folder is next to the nearest ``pyproject.toml`` (else in the working directory) and
holds a ``CACHEDIR.TAG`` and a ``.gitignore`` of ``*``. Writes are atomic (a temporary
file in the same folder, then :func:`os.replace`), so two concurrent runs can share a
cache: each entry is whole or absent. A corrupt or unreadable entry is treated as
missing and rewritten; a cache that cannot be written is silently skipped. The cache
never decides anything: a miss only costs time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import __version__
from .config import find_pyproject

CACHE_DIR = ".cardz_cache"
FORMAT_VERSION = 2
"""The shape of a stored entry; bump it when the stored JSON changes shape."""

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by cardz-tools.\n"
    "# For information about cache directory tags, see: https://bford.info/cachedir/\n"
)

_FINGERPRINTED = ("analysis", "engine", "expr")
"""Packages of cardz_tools whose source decides what play finds (with the modules below)."""
_FINGERPRINTED_MODULES = ("cards.py", "model.py", "variants.py")


@functools.cache
def code_fingerprint() -> str:
    """A hash of the version, the entry format and the source of the code that plays designs."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{__version__}\0{FORMAT_VERSION}\0".encode())
    files = [package / name for name in _FINGERPRINTED_MODULES]
    for folder in _FINGERPRINTED:
        files.extend(sorted((package / folder).glob("*.py")))
        files.extend(sorted((package / folder).glob("*.lark")))
    for file in files:
        digest.update(file.relative_to(package).as_posix().encode() + b"\0")
        try:
            digest.update(file.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()


def canonical_json(data: Any) -> str:
    """The canonical JSON text of a value: sorted keys, no spaces, non-ASCII kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_folder(start: Path | None = None) -> Path:
    """``.cardz_cache`` next to the nearest ``pyproject.toml`` above ``start``, else in the working directory."""
    pyproject = find_pyproject(start or Path.cwd())
    return (pyproject.parent if pyproject is not None else Path.cwd()) / CACHE_DIR


class Cache:
    """A folder of JSON entries; ``Cache(None)`` (``--no-cache``) stores nothing and finds nothing."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0

    @classmethod
    def for_paths(cls, start: Path | None, enabled: bool = True) -> Cache:
        """The cache that serves files under ``start`` (disabled: one that keeps nothing)."""
        return cls(cache_folder(start) if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.folder is not None

    def key(self, kind: str, design: Any, settings: Mapping[str, Any]) -> str:
        """The key of one result: the kind of result, the design, the code and the settings."""
        text = "\0".join((kind, code_fingerprint(), canonical_json(design), canonical_json(dict(settings))))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _entry(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / __version__ / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value of ``key``, or None when absent, unreadable or corrupt."""
        if self.folder is None:
            return None
        try:
            stored = json.loads(self._entry(key).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            self.misses += 1
            return None
        if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("value"), dict):
            self.misses += 1
            return None
        self.hits += 1
        return stored["value"]

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        """Store ``value`` under ``key`` atomically; a cache that cannot be written is skipped."""
        if self.folder is None:
            return
        try:
            self._prepare()
            entry = self._entry(key)
            entry.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(entry, json.dumps({"key": key, "value": value}, ensure_ascii=False))
        except OSError:
            pass

    def _prepare(self) -> None:
        """Create the folder with its ``CACHEDIR.TAG`` and ``.gitignore`` (once)."""
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "# Created by cardz-tools.\n*\n")):
            if not (self.folder / name).is_file():
                _write_atomically(self.folder / name, text)


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
