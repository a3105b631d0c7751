"""Quick fixes: code actions that apply what a diagnostic suggests.

* Every diagnostic whose hint says ``did you mean 'x'?`` offers to write ``x`` in
  its place: a field, name or function in an expression, a key, an enum value, a
  depot reference. A JSON string in the range keeps its quotes (the suggestion is
  written as a JSON string).
* An unknown key (CZ204) without a close match offers the allowed key closest
  to it that the object does not have yet.
* A TODO marker (CZ601) offers to remove the marker (the decision is made; the
  text after the marker stays).

The fixes are computed from the diagnostic the client sends back (its range,
code and message), so they apply to the text that diagnostic was made for.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re

from ..todos import TODO_MARKER
from .locate import Where, locate
from .schemadoc import schema_root

__all__ = ["Fix", "quick_fixes", "suggestion"]

_DID_YOU_MEAN = re.compile(r"did you mean '([^'\n]+)'\?")
UNKNOWN_KEY = "CZ204"
TODO = "CZ601"


@dataclasses.dataclass(frozen=True, slots=True)
class Fix:
    """A quick fix: replace document offsets ``[start, end)`` with ``new_text``."""

    title: str
    start: int
    end: int
    new_text: str
    code: str
    preferred: bool = True


def suggestion(message: str) -> str | None:
    """The replacement a diagnostic's message (with its hint) suggests, if any."""
    match = _DID_YOU_MEAN.search(message)
    return match.group(1) if match else None


def quick_fixes(text: str, start: int, end: int, code: str, message: str) -> list[Fix]:
    """The fixes for one diagnostic at document offsets ``[start, end)`` of ``text``."""
    written = text[start:end]
    if code == TODO:
        return _remove_marker(text, start, end)
    suggested = suggestion(message)
    preferred = True
    if code == UNKNOWN_KEY:
        # The schema's did-you-mean does not know what the object already has: a key written twice is CZ105.
        closest = _closest_key(text, start, written, suggested)
        preferred = closest is not None and closest == suggested
        suggested = closest
    if suggested is None or not written:
        return []
    if _is_string_token(written):
        new_text = json.dumps(suggested, ensure_ascii=False)
        if new_text == written:
            return []
    elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", written) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", suggested):
        new_text = suggested  # a name inside an expression string
    else:
        return _inside(text, start, end, code, message, suggested)
    return [Fix(f"Change to '{suggested}'", start, end, new_text, code, preferred)]


_STRING_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_QUOTED = re.compile(r"['`]([^'`\n]+)['`]")


def _inside(text: str, start: int, end: int, code: str, message: str, suggested: str) -> list[Fix]:
    """A fix for a diagnostic on a larger range (a variant's whole depot entry): the one string in it that
    the message quotes as the misspelled name."""
    quoted = set(_QUOTED.findall(message.split("\nhint:", 1)[0])) - {suggested}
    matches = [m for m in _STRING_TOKEN.finditer(text, start, end) if _is_string_token(m.group())
               and json.loads(m.group()) in quoted]
    if len(matches) != 1:
        return []
    match = matches[0]
    new_text = json.dumps(suggested, ensure_ascii=False)
    return [Fix(f"Change to '{suggested}'", match.start(), match.end(), new_text, code)]


def _is_string_token(written: str) -> bool:
    if len(written) < 2 or not (written.startswith('"') and written.endswith('"')):
        return False
    try:
        return isinstance(json.loads(written), str)
    except ValueError:
        return False


def _closest_key(text: str, start: int, written: str, suggested: str | None) -> str | None:
    """The allowed key nearest to an unknown one (``suggested`` first), among those its object does not have yet."""
    if not _is_string_token(written):
        return None
    location = locate(text, start + 1)
    if location.where is not Where.KEY:
        return None
    unknown = json.loads(written)
    allowed = [key for key in schema_root().at(location.path).properties() if key not in location.keys]
    if suggested in allowed:
        return suggested
    close = difflib.get_close_matches(unknown, allowed, n=1, cutoff=0.0)
    return close[0] if close else None


def _remove_marker(text: str, start: int, end: int) -> list[Fix]:
    if not text.startswith(TODO_MARKER, start):
        return []
    stop = start + len(TODO_MARKER)
    while stop < end and text[stop] == " ":
        stop += 1
    return [Fix("Remove the TODO marker", start, stop, "", TODO)]
