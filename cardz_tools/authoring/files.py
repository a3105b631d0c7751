"""Reading a text file given on the command line, with a clear message for every bad input."""

from __future__ import annotations

import os
from pathlib import Path

MAX_TEXT_BYTES = 1_000_000
"""Rules texts are short; anything bigger is refused rather than read."""


class InputError(ValueError):
    """A file that cannot be used as text input; the message is ready to show to a user."""


def read_text_file(path: str | os.PathLike[str]) -> str:
    """The text of a UTF-8 file (a leading byte order mark is dropped).

    :raises InputError: when the file is missing, unreadable, too large, binary or not UTF-8.
    """
    file = Path(path)
    try:
        if file.is_dir():
            raise InputError(f"{file}: is a directory, not a text file")
        size = file.stat().st_size
        if size > MAX_TEXT_BYTES:
            raise InputError(f"{file}: {size} bytes is too large for a rules text (at most {MAX_TEXT_BYTES})")
        data = file.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except PermissionError:
        raise InputError(f"{file}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{file}: cannot be read ({exc.strerror or exc})") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{file}: is UTF-16, not UTF-8; save it as UTF-8")
    if b"\x00" in data:
        raise InputError(f"{file}: looks like a binary file (it contains NUL bytes), not a text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{file}: is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")
