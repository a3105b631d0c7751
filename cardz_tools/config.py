"""``[tool.cardz]`` in the nearest ``pyproject.toml``: which diagnostics to report.

.. code-block:: toml

    [tool.cardz]
    select = ["CZ"]                 # code prefixes or rule names; default: everything
    ignore = ["CZ305", "unknown-key"]
    strict = false                  # true: warnings fail the run too
    per-file-ignores = { "drafts/*.cardz" = ["CZ3"] }

    [tool.cardz.check]              # sections for other commands, kept as written
    runs = 200

Selectors are code prefixes (``CZ3``, ``CZ302``) or rule names
(``unknown-depot``). Invalid configuration raises :class:`ConfigError`, which
the CLI turns into exit status 2.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any

from .diagnostics import RULES, RULES_BY_NAME, Diagnostic, did_you_mean

PYPROJECT = "pyproject.toml"
SECTIONS = ("check",)
"""Sub-tables of ``[tool.cardz]`` that other commands read (``[tool.cardz.check]``)."""
_KEYS = ("select", "ignore", "strict", "per-file-ignores")
_CODE_PREFIX = re.compile(r"CZ[0-9]{0,3}")


class ConfigError(ValueError):
    """The configuration cannot be used; the message says where and why."""


def check_selector(selector: str, origin: str) -> str:
    """A valid selector (a code prefix or a rule name), or :class:`ConfigError`."""
    if _CODE_PREFIX.fullmatch(selector) or selector in RULES_BY_NAME:
        return selector
    hint = did_you_mean(selector, [*RULES, *RULES_BY_NAME])
    raise ConfigError(
        f"{origin}: '{selector}' is neither a code prefix (such as CZ3 or CZ302) nor a rule name"
        + (f"; {hint}" if hint else "")
    )


def selector_matches(selector: str, diagnostic: Diagnostic) -> bool:
    """Whether a selector names a diagnostic (by code prefix or rule name)."""
    return diagnostic.code.startswith(selector) or diagnostic.name == selector


@dataclasses.dataclass(frozen=True)
class LintConfig:
    """What ``cardz lint`` reports. The defaults report everything."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    strict: bool = False
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: Path | None = None
    """The directory of the pyproject.toml (per-file-ignores globs are relative to it)."""
    sections: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    """Other sub-tables of ``[tool.cardz]``, by name (see :data:`SECTIONS`)."""

    def with_overrides(
        self,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        strict: bool | None = None,
    ) -> LintConfig:
        """This configuration with command-line options applied.

        ``--select`` replaces the configured selection; ``--ignore`` adds to it.
        """
        return dataclasses.replace(
            self,
            select=tuple(check_selector(s, "--select") for s in select) if select else self.select,
            ignore=self.ignore + tuple(check_selector(s, "--ignore") for s in ignore or ()),
            strict=self.strict if strict is None else strict,
        )

    def reports(self, diagnostic: Diagnostic, path: Path | None = None) -> bool:
        """Whether a diagnostic is reported for the file at ``path``."""
        if self.select and not any(selector_matches(s, diagnostic) for s in self.select):
            return False
        ignored = self.ignore + self.ignored_for(path)
        return not any(selector_matches(s, diagnostic) for s in ignored)

    def ignored_for(self, path: Path | None) -> tuple[str, ...]:
        """The selectors that per-file-ignores adds for one file."""
        if path is None or not self.per_file_ignores:
            return ()
        relative = _relative(path, self.root)
        return tuple(
            selector
            for pattern, selectors in self.per_file_ignores
            if fnmatch.fnmatch(relative, pattern) or PurePath(relative).match(pattern)
            for selector in selectors
        )


def _relative(path: Path, root: Path | None) -> str:
    resolved = path.resolve()
    if root is not None:
        try:
            return resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml in ``start`` (a file's directory) or a directory above it."""
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / PYPROJECT
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> LintConfig:
    """The configuration that applies to ``start`` (default: the working directory).

    :raises ConfigError: if the nearest pyproject.toml is unreadable or its
        ``[tool.cardz]`` table is invalid.
    """
    pyproject = find_pyproject(start or Path.cwd())
    if pyproject is None:
        return LintConfig()
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{pyproject}: cannot read the configuration: {exc}") from exc
    table = document.get("tool", {}).get("cardz")
    if table is None:
        return LintConfig(root=pyproject.parent)
    return parse_config(table, origin=f"{pyproject} [tool.cardz]", root=pyproject.parent)


def parse_config(table: object, origin: str = "[tool.cardz]", root: Path | None = None) -> LintConfig:
    """Validate a ``[tool.cardz]`` table.

    :raises ConfigError: naming the key that is wrong.
    """
    if not isinstance(table, dict):
        raise ConfigError(f"{origin} must be a table")
    for key in table:
        if key not in _KEYS and key not in SECTIONS:
            hint = did_you_mean(key, [*_KEYS, *SECTIONS])
            raise ConfigError(f"{origin}: unknown key '{key}'" + (f"; {hint}" if hint else ""))
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{origin}: 'strict' must be true or false")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{origin}: 'per-file-ignores' must be a table of glob = [codes]")
    sections = {}
    for name in SECTIONS:
        if name in table:
            if not isinstance(table[name], dict):
                raise ConfigError(f"{origin}: '{name}' must be a table ([tool.cardz.{name}])")
            sections[name] = dict(table[name])
    return LintConfig(
        select=_selectors(table.get("select", []), f"{origin} select"),
        ignore=_selectors(table.get("ignore", []), f"{origin} ignore"),
        strict=strict,
        per_file_ignores=tuple(
            (str(glob), _selectors(codes, f"{origin} per-file-ignores '{glob}'")) for glob, codes in per_file.items()
        ),
        root=root,
        sections=sections,
    )


def _selectors(value: object, origin: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{origin} must be a list of strings such as [\"CZ3\", \"unknown-key\"]")
    return tuple(check_selector(item, origin) for item in value)
