"""Reading a file whatever is found in its place: a regular file of a bounded size, never a hang
on a FIFO, a device or a file that grows without end, and JSON that is damaged, not a crash, when
it is nested deeper than Python's parser goes (a 100,000-deep `[[[...` in a cache's manifest or a
kit's marker was exit 70, "cardgen hit a bug (RecursionError ...)").

Layer: below every package (the sources, the cache, the card set's loader, render, the site and
the games read through it).
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

MB = 1_000_000
# The largest JSON file cardgen writes and reads back (a cache's manifest, a kit's marker, a
# kit's manifests) is some 100 KB; a file far beyond it is not one of them.
MOST_JSON_BYTES = 50 * MB


class NotARegularFile(ValueError):
    """The path names a FIFO, a device, a socket or a folder (`kind` says which)."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path} is {kind}, not a regular file")
        self.kind = kind


class FileTooLarge(ValueError):
    """The file holds more than the reader's limit (`limit`, in bytes)."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(f"{path} is over {limit / MB:,.1f} MB")
        self.limit = limit


class NestedTooDeeply(ValueError):
    """JSON nested deeper than Python's parser goes."""


def kind_of(mode: int) -> str:
    """What a file of this st_mode is, in words ("a FIFO", "a folder", ...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "special" if not stat.S_ISREG(mode) else "a regular file"


def read_bounded(path: Path, most_bytes: int) -> bytes:
    """The bytes of a regular file (a symlink to one included) of at most `most_bytes`.
    `NotARegularFile` or `FileTooLarge` otherwise; `OSError` when it cannot be opened or read."""
    # O_NONBLOCK: opening a FIFO without a writer would block; it has no effect on a regular file
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # before open(), which refuses a folder as IsADirectoryError
            raise NotARegularFile(Path(path), kind_of(mode))
        with open(fd, "rb", closefd=False) as f:
            raw = f.read(most_bytes + 1)
    finally:
        os.close(fd)
    if len(raw) > most_bytes:
        raise FileTooLarge(Path(path), most_bytes)
    return raw


def parse_json(text: str | bytes) -> Any:
    """`json.loads`, with nesting too deep for the parser a `NestedTooDeeply` (a ValueError, as
    every other damage to the text is) rather than a RecursionError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise NestedTooDeeply("JSON nested too deeply to read") from None


def read_json_file(path: Path, most_bytes: int = MOST_JSON_BYTES) -> Any:
    """The parsed JSON of a UTF-8 file cardgen wrote and reads back. Whatever is in its place, a
    ValueError (damaged, too deep, not a regular file, too large, not UTF-8) or an OSError (cannot
    be opened): what its callers already take as a file that is missing or damaged."""
    return parse_json(read_bounded(path, most_bytes).decode("utf-8"))


def toml_module() -> Any:
    """The TOML parser of this Python: tomllib (3.11+) or the tomli package (pyproject requires it
    below 3.11); None when neither is there, so each reader words its own one-line error."""
    try:
        import tomllib
        return tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        try:
            import tomli
            return tomli
        except ModuleNotFoundError:
            return None
