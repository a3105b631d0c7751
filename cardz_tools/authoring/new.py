"""``cardz new``: start a design from a template, one per family of board.

The templates are complete, playable designs that use only features of
``docs/format.md``. Their source is ``templates/`` at the top of the repository; the
package ships identical copies in ``cardz_tools/templates/`` (a test keeps them equal).
Each template's description ends with ``TODO:`` bullets that say what a designer
changes first; ``cardz lint`` reports them (CZ601) until they are resolved.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from ..diagnostics import did_you_mean
from ..fmt import format_text, write_atomic

DEFAULT_TEMPLATE = "klondike"
MAX_NAME = 80
"""The schema's bound on ``name``."""
_CHANGE_FIRST = re.compile(r"TODO: change first: (.+)")


class TemplateError(ValueError):
    """An unknown template or an unusable name; the message is ready to show to a user."""


@dataclasses.dataclass(frozen=True, slots=True)
class Template:
    """A starting design: its id (the file name), family, title and what to change first."""

    id: str
    family: str
    title: str
    change_first: str
    text: str

    @property
    def data(self) -> dict[str, Any]:
        """The design as parsed JSON (a fresh copy each time)."""
        return json.loads(self.text)


def _template(path: Any) -> Template:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    match = _CHANGE_FIRST.search(data.get("description", ""))
    return Template(
        id=path.name.removesuffix(".cardz"),
        family=data.get("family", "Other"),
        title=data["name"],
        change_first=match.group(1) if match else "",
        text=text,
    )


def templates() -> tuple[Template, ...]:
    """Every packaged template, by id."""
    folder = resources.files("cardz_tools") / "templates"
    return tuple(sorted((_template(p) for p in folder.iterdir() if p.name.endswith(".cardz")), key=lambda t: t.id))


def find_template(template_id: str) -> Template:
    """The template with this id.

    :raises TemplateError: when there is none (with a did-you-mean hint).
    """
    found = {t.id: t for t in templates()}
    if template_id in found:
        return found[template_id]
    hint = did_you_mean(template_id, list(found))
    raise TemplateError(
        f"no template named {template_id!r}" + (f"; {hint}" if hint else "") + f" (templates: {', '.join(found)})"
    )


def new_design(name: str, template_id: str = DEFAULT_TEMPLATE) -> str:
    """The text of a new design: the template with ``name``, in the canonical ``cardz fmt`` layout.

    :raises TemplateError: for an unknown template or a name that is empty or too long.
    """
    name = " ".join(name.split())
    if not name:
        raise TemplateError("the name is empty")
    if len(name) > MAX_NAME:
        raise TemplateError(f"the name has {len(name)} characters; at most {MAX_NAME} are allowed")
    data = find_template(template_id).data
    data["name"] = name
    return format_text(json.dumps(data, ensure_ascii=False))


def default_path(name: str) -> Path:
    """``My Game`` -> ``my-game.cardz`` in the current directory."""
    slug = re.sub(r"[^\w]+", "-", name.lower()).strip("-_")
    return Path(f"{slug or 'design'}.cardz")


def format_list() -> str:
    """The ``cardz new --list`` text: each template, its family and what to change first."""
    lines = []
    for template in templates():
        default = " (default)" if template.id == DEFAULT_TEMPLATE else ""
        lines.append(f"{template.id}{default}: {template.title} ({template.family})")
        if template.change_first:
            lines.append(f"    change first: {template.change_first}")
    return "\n".join(lines) + "\n"


def run_new(
    name: str | None,
    template_id: str = DEFAULT_TEMPLATE,
    output: str | Path | None = None,
    list_templates: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """The ``cardz new`` command; returns the exit code (0 done, 2 bad input).

    The design goes to ``output`` (``-`` for stdout), by default ``NAME.cardz`` in the
    current directory; an existing file is never overwritten by the default path.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if list_templates:
        out.write(format_list())
        return 0
    if name is None:
        print("cardz: give the new game's name (or --list to see the templates)", file=err)
        return 2
    try:
        text = new_design(name, template_id)
    except TemplateError as exc:
        print(f"cardz: {exc}", file=err)
        return 2
    if output is not None and str(output) == "-":
        out.write(text)
        return 0
    path = Path(output) if output is not None else default_path(name)
    if output is None and path.exists():
        print(f"cardz: {path} already exists; choose another file with -o", file=err)
        return 2
    try:
        write_atomic(path, text)
    except OSError as exc:
        print(f"cardz: cannot write {path}: {exc.strerror or exc}", file=err)
        return 2
    print(f"wrote {path} (from the {template_id} template); `cardz lint {path}` lists its TODOs", file=out)
    return 0
