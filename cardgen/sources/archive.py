"""Bounded reading of match files: a zip archive's (a mirror's or a download's) and a folder's.

A hostile or damaged mirror cannot make a read run for minutes, fill the memory or hang: an
archive is refused, in one line naming it, the limit and how to raise it, when its match files
would unpack beyond a size, one of them beyond the size of one match file, it has too many
entries, or an entry is compressed more than real JSON ever is (a zip bomb: Cricsheet's match
files deflate 9-24:1, an all-zero bomb 1,000:1). A loose match file is read only when
it is a regular file (a FIFO would block the read forever) within the one-file size.
"""
from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterator

from cardgen.errors import CardgenError, ParseError, ReadLimitExceeded
from cardgen.readfile import FileTooLarge, NotARegularFile, read_bounded

MB = 1_000_000
MATCH_FILE_ENV = "CARDGEN_MAX_MATCH_FILE_MB"
ARCHIVE_ENV = "CARDGEN_MAX_ARCHIVE_MB"
ENTRIES_ENV = "CARDGEN_MAX_ARCHIVE_ENTRIES"
RATIO_ENV = "CARDGEN_MAX_COMPRESSION_RATIO"
# the ratio is judged on entries of at least this size: a tiny file (an empty list, a README of
# spaces) may compress far better than a match file without being a bomb
RATIO_FLOOR = MB
CHUNK = 1 << 20
# what zipfile raises for a truncated, corrupt, encrypted or oddly compressed zip
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
              NotImplementedError, RuntimeError, zlib.error)


@dataclass(frozen=True)
class ReadLimits:
    """What one read may unpack. The defaults leave room for any Cricsheet download: a T20
    match file is 60-90 KB (the mirror's nine seasons), so 2,000 MB is some 25,000 of them."""
    match_file: int = 64 * MB  # bytes: one match file, loose or an archive's entry
    archive: int = 2_000 * MB  # bytes: an archive's match files unpacked, together
    entries: int = 50_000  # entries in one archive
    ratio: float = 200.0  # unpacked / compressed size of one entry

    @classmethod
    def from_env(cls) -> ReadLimits:
        def number(name: str, default: float, scale: float = 1) -> float:
            text = os.environ.get(name)
            if not text:
                return default
            try:
                value = float(text) * scale
            except ValueError:
                value = -1.0
            if not 0 < value < float("inf"):
                raise CardgenError(f"{name}={text!r} is not a positive number; e.g. "
                                   f"{name}={default / scale:g}")
            return value
        return cls(match_file=int(number(MATCH_FILE_ENV, cls.match_file, MB)),
                   archive=int(number(ARCHIVE_ENV, cls.archive, MB)),
                   entries=int(number(ENTRIES_ENV, cls.entries)),
                   ratio=number(RATIO_ENV, cls.ratio))


def _mb(n: float) -> str:
    return f"{n / MB:,.1f} MB"


def _refuse(origin: str, what: str, env: str) -> ReadLimitExceeded:
    return ReadLimitExceeded(f"{origin}: {what}; not read (if it is a real Cricsheet archive, "
                             f"raise {env})")


def _ratio(unpacked: int, packed: int) -> float:
    return unpacked / max(packed, 1)


def check_zip(zf: zipfile.ZipFile, origin: str, limits: ReadLimits) -> list[zipfile.ZipInfo]:
    """The archive's match-file entries, once its central directory is within the limits (the
    sizes it declares; `zip_members` holds each entry to them while it unpacks)."""
    infos = zf.infolist()
    if len(infos) > limits.entries:
        raise _refuse(origin, f"{len(infos):,} entries, over the limit of {limits.entries:,}",
                      ENTRIES_ENV)
    members = [i for i in infos if i.filename.endswith(".json") and not i.is_dir()]
    for info in members:
        _check_entry(origin, info, info.file_size, limits)
    total = sum(i.file_size for i in members)
    if total > limits.archive:
        raise _refuse(origin, f"its match files would unpack to {_mb(total)}, over the limit of "
                              f"{_mb(limits.archive)}", ARCHIVE_ENV)
    return members


def _check_entry(origin: str, info: zipfile.ZipInfo, unpacked: int, limits: ReadLimits) -> None:
    if unpacked > limits.match_file:
        raise _refuse(origin, f"{info.filename} unpacks to over {_mb(limits.match_file)}, the limit "
                              f"for one match file", MATCH_FILE_ENV)
    if unpacked >= RATIO_FLOOR and _ratio(unpacked, info.compress_size) > limits.ratio:
        raise _refuse(origin, f"{info.filename} is compressed {_ratio(unpacked, info.compress_size):,.0f}:1, "
                              f"over the limit of {limits.ratio:,.0f}:1 (a zip bomb?)", RATIO_ENV)


def zip_members(zf: zipfile.ZipFile, origin: str, limits: ReadLimits,
                skip: Callable[[str, BaseException], None] | None = None) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each match file in the archive, unpacked within the limits
    (`ReadLimitExceeded` naming the archive otherwise). A damaged entry (one of ZIP_ERRORS) is
    handed to `skip` with its name when given, else raised."""
    members = check_zip(zf, origin, limits)
    total = 0
    for info in members:
        try:
            raw = _read_entry(zf, info, origin, limits, limits.archive - total)
        except ZIP_ERRORS as exc:
            if skip is None:
                raise
            skip(info.filename, exc)
            continue
        total += len(raw)
        yield info.filename, raw


def _read_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo, origin: str, limits: ReadLimits,
                budget: int) -> bytes:
    """One entry, unpacked a chunk at a time and held to the limits as it grows (its declared
    size may lie)."""
    chunks: list[bytes] = []
    got = 0
    with zf.open(info) as member:
        while chunk := member.read(CHUNK):
            got += len(chunk)
            chunks.append(chunk)
            _check_entry(origin, info, got, limits)
            if got > budget:
                raise _refuse(origin, f"its match files unpack to over {_mb(limits.archive)}, the "
                                      f"limit", ARCHIVE_ENV)
    return b"".join(chunks)


def read_match_file(path: Path, limits: ReadLimits) -> bytes:
    """A loose match file's bytes: a regular file (a symlink to one included) within the size
    of one match file. `ParseError` otherwise (the caller skips it with a warning); `OSError`
    when it cannot be opened or read."""
    try:
        return read_bounded(path, limits.match_file)
    except NotARegularFile as exc:
        raise ParseError(f"match file {path} cannot be read (it is {exc.kind}, not a regular file)") from None
    except FileTooLarge:
        raise ParseError(f"match file {path} is over {_mb(limits.match_file)}, the limit for one "
                         f"match file (raise {MATCH_FILE_ENV} if it is real)") from None
