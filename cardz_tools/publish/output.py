"""The output folder of ``cardz publish``: built aside, swapped in whole, never half written.

Policy: publish owns its ``--out`` folder entirely. It writes into a folder that
does not exist yet, an empty folder, or a folder an earlier ``cardz publish``
wrote (recognised by its ``catalog.json``) that holds nothing else. Anything
else is refused, so publishing never deletes a file it did not write.

The new publication is built in a temporary folder next to ``--out`` (same file
system, so renames are atomic); only when every file is written is the old
folder renamed aside, the new one renamed into place and the old one deleted.
A failure or Ctrl-C before that leaves ``--out`` exactly as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

CATALOG = "catalog.json"
INDEX = "index.html"


class OutputError(Exception):
    """The output folder cannot be used; the message says why."""


def owned_files(catalog_text: str) -> set[str] | None:
    """The file names a publication's ``catalog.json`` accounts for, or None when it is not one."""
    try:
        entries = json.loads(catalog_text)
    except ValueError:
        return None
    if not isinstance(entries, list):
        return None
    owned = {CATALOG, INDEX}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("slug"), str):
            return None
        slug = entry["slug"]
        owned |= {f"{slug}.cardz", f"{slug}.html"}
        owned |= {entry[key] for key in ("file", "page") if isinstance(entry.get(key), str)}
    return owned


def check_target(out: Path) -> None:
    """Refuse an ``--out`` that publish may not replace.

    :raises OutputError: when ``out`` is a file, or a folder holding anything a
        previous publication did not write.
    """
    if not out.exists():
        return
    if not out.is_dir() or out.is_symlink():
        raise OutputError(f"{out}: exists and is not a folder")
    present = {entry.name for entry in out.iterdir()}
    if not present:
        return
    catalog = out / CATALOG
    owned = owned_files(catalog.read_text(encoding="utf-8", errors="replace")) if catalog.is_file() else None
    if owned is None:
        raise OutputError(
            f"{out}: not empty and not written by cardz publish (no {CATALOG} of a publication); choose another --out"
        )
    foreign = sorted(present - owned)
    if foreign:
        shown = ", ".join(foreign[:5]) + (", …" if len(foreign) > 5 else "")
        raise OutputError(
            f"{out}: holds files cardz publish did not write ({shown}); move them or choose another --out"
        )


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


@contextlib.contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A temporary folder next to ``out`` to build in; deleted unless :func:`commit` moved it into place."""
    out.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".publishing", dir=out.parent))
    try:
        yield temp
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def write_files(folder: Path, files: Mapping[str, bytes]) -> None:
    """Write every file into ``folder`` (names sorted, so the work is the same every time)."""
    for name in sorted(files):
        with open(folder / name, "wb") as handle:
            handle.write(files[name])
            handle.flush()
            os.fsync(handle.fileno())


def commit(staged: Path, out: Path) -> None:
    """Put the finished ``staged`` folder in place of ``out`` (whatever ``out`` held goes).

    The old folder is renamed aside first and put back if the second rename fails,
    so ``out`` ends as the old publication or the new one.
    """
    os.chmod(staged, 0o777 & ~_umask())
    if not out.exists():
        os.rename(staged, out)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
    os.rmdir(aside)
    os.rename(out, aside)
    try:
        os.rename(staged, out)
    except BaseException:
        os.rename(aside, out)
        raise
    shutil.rmtree(aside, ignore_errors=True)
