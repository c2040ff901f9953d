"""One fingerprint for every cache and rebuild decision (issue 39).

Every key cardgen keeps something under, or compares to decide whether to make something again,
is a hex string made here, by one builder (`Fingerprint`) in one framing:

- a key names its kind first (`Fingerprint("card-set")`), so two caches' keys never coincide
  even when they hash the same parts;
- then its parts in the order the caller adds them, each as `label NUL length NUL bytes` under
  one SHA-256, so no two different sequences of parts give the same bytes (a part cannot run
  into the next one);
- values are hashed as canonical JSON (`canonical`: sorted keys, `str()` for what JSON lacks),
  files by their bytes, sets of files sorted by their labels, and folder listings (name, size,
  modification time: nothing read) sorted by name, so a key never depends on the order a
  folder is walked or a dict was filled in;
- a key may be cut to a prefix (`hexdigest(length)`) where it names a file.

Who uses it: the tables' source (`stats.load.source_key`) and cache entries (`cache.Cache`), a
card set's inputs (`calibrate.reuse.fingerprint`) and options (`reuse.options_key`), a season
kit's inputs (`catalogue.season.kit_inputs`, `sources_key`, `kit_code_digest`), a finished kit
(`manifest.kit_fingerprint`) and the site code (`site.catalogue.site_code_fingerprint`).

`content_digest` is the other thing hashed: the plain SHA-256 of some bytes, which manifests
record to check that a file is still what was written (it is also what `sha256sum` prints). It is
not a key and has no framing. No other module imports hashlib (`tests/test_fingerprint.py`).
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["Fingerprint", "canonical", "content_digest", "key", "library_versions", "listing",
           "package_files", "tree_listing"]


def canonical(value: Any) -> bytes:
    """A value as the bytes a key hashes: JSON with sorted keys (a dict's order never counts) and
    `str()` of anything JSON has no type for (a Path, a date)."""
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8")


def content_digest(data: bytes) -> str:
    """The SHA-256 of `data`, in hex: what a manifest records of a file's bytes (not a key)."""
    return hashlib.sha256(data).hexdigest()


class Fingerprint:
    """A key being built: labelled, length-prefixed parts under one SHA-256 (see the module
    docstring). Each `add...` returns the builder, so a key is one expression."""

    __slots__ = ("_hash",)

    def __init__(self, kind: str) -> None:
        self._hash = hashlib.sha256()
        self.add("kind", kind)

    def add(self, label: str, data: bytes | str) -> Fingerprint:
        """One part: bytes as they are, text as UTF-8."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self._hash.update(f"{label}\x00{len(raw)}\x00".encode())
        self._hash.update(raw)
        return self

    def value(self, label: str, value: Any) -> Fingerprint:
        """One part: a value, as canonical JSON."""
        return self.add(label, canonical(value))

    def file(self, label: str, path: Path) -> Fingerprint:
        """One part: a file's bytes."""
        return self.add(label, Path(path).read_bytes())

    def files(self, prefix: str, files: Iterable[tuple[str, Path]]) -> Fingerprint:
        """A part per file, `prefix + label`, sorted by label (whatever order they were found in)."""
        for label, path in sorted(files, key=lambda item: item[0]):
            self.file(prefix + label, path)
        return self

    def hexdigest(self, length: int | None = None) -> str:
        """The key: 64 hex digits, or their first `length` (a file name's share of it)."""
        text = self._hash.hexdigest()
        return text if length is None else text[:length]


def key(kind: str, *values: Any, length: int | None = None) -> str:
    """A key of a few values alone (each a part, labelled by its position): `key("download", url)`."""
    fp = Fingerprint(kind)
    for index, value in enumerate(values):
        fp.value(str(index), value)
    return fp.hexdigest(length)


def listing(paths: Iterable[Path], root: Path) -> list[tuple[str, int, int]]:
    """(name under `root`, size, modification time in ns) of each file, sorted by name: what a key
    holds of files it must not read (a mirror of thousands of match files, a kit's PDFs). A file
    gone meanwhile is left out; a file outside `root` is named by its own name."""
    found = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        found.append((name, info.st_size, info.st_mtime_ns))
    return sorted(found)


def tree_listing(root: Path) -> list[tuple[str, int, int]]:
    """`listing` of every file under `root`, walked with strings (a site of 300 kits lists 90,000
    files on every render: Path objects for each cost more than the rest)."""
    top_dir = os.fspath(root)
    found = []
    for top, _dirs, names in os.walk(top_dir):
        prefix = os.path.relpath(top, top_dir).replace(os.sep, "/") + "/" if top != top_dir else ""
        for name in names:
            try:
                info = os.stat(os.path.join(top, name))
            except OSError:
                continue
            found.append((prefix + name, info.st_size, info.st_mtime_ns))
    return sorted(found)


def package_files(root: Path, label_root: Path, suffixes: Iterable[str],
                  skip: Iterable[str] = ()) -> list[tuple[str, Path]]:
    """(label, path) of the files under `root` with one of `suffixes`, sorted by label: the label
    is the path under `label_root` (so a checkout and an installed wheel label a file alike);
    `skip`: names of folders or files directly under `root` left out. __pycache__ never counts."""
    wanted, skipped = tuple(suffixes), set(skip)
    if not root.is_dir():
        return []
    found = [p for p in root.rglob("*") if p.suffix in wanted and "__pycache__" not in p.parts
             and p.relative_to(root).parts[0] not in skipped and p.is_file()]
    return sorted(((p.relative_to(label_root).as_posix(), p) for p in found), key=lambda item: item[0])


def library_versions(dists: Iterable[str] = ("numpy", "scipy", "pandas")) -> str:
    """The installed versions of `dists`, as one line ("numpy 2.1.0 scipy - ..."; "-": not
    installed), read from their metadata without importing them."""
    from importlib.metadata import PackageNotFoundError, version
    found = []
    for dist in dists:
        try:
            found.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            found.append(f"{dist} -")
    return " ".join(found)
