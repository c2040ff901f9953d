"""On-disk tables and downloads: the user's cache, and the read-only tables bundled with cardgen.

The cache lives in the user's cache directory (platformdirs; `CARDGEN_CACHE` moves it). A marker
file (`.cardgen-cache`) identifies it, and cardgen writes only three folders inside it: `raw/`
(downloads, keyed by source and arguments), `tables/` (derived tables, one folder per season
*and source*) and `card-sets/` (calibrated card sets kept for reuse). Clearing removes only entries cardgen itself wrote, and only in a folder that
carries the marker, so pointing `CARDGEN_CACHE` at a folder of one's own files loses nothing.

The bundled seasons' tables ship with the package (`stats_cache/` in the repository) and are only
ever read; `python -m cardgen.stats.load` (a maintainer command) rewrites them in a checkout.

Every set of tables has a `manifest.json` listing each file and its SHA-256, so a truncated or
hand-edited file is detected and the tables are rebuilt.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from cardgen import options
from cardgen.errors import CacheError
from cardgen.fingerprint import content_digest
from cardgen.fingerprint import key as fingerprint_key
from cardgen.paths import CACHE_ENV, bundled_tables_dir, user_cache_dir
from cardgen.readfile import read_json_file

if TYPE_CHECKING:  # pandas is imported where tables are read or written: `cardgen --help` stays quick
    import pandas as pd

__all__ = ["CACHE_ENV", "MARKER", "Cache", "TableStore", "atomic_write_bytes", "atomic_write_text",
           "default_cache_dir", "sha256"]

MARKER = ".cardgen-cache"
MARKER_TEXT = ("This folder is a cardgen cache: `cardgen cache --clear` removes the raw/, tables/ and\n"
               "card-sets/ entries cardgen wrote here, and nothing else.\n")
RAW = "raw"
TABLES = "tables"
CARD_SETS = "card-sets"  # calibrated card sets kept for reuse (cardgen.calibrate.reuse)
_RAW_NAME = re.compile(r"^[a-z]+-[0-9a-f]{20}$")  # Cache.key(): what put_raw() writes
_CARD_SET_NAME = re.compile(r"^[A-Za-z0-9_.+-]+-[0-9a-f]{20}\.json(\.sha256)?$")  # reuse.kept_path(), its digest
_ENTRY_NAME = re.compile(r"^[A-Za-z0-9_.+-]+-[0-9a-f]{12}$")  # Cache.entry_name()
_TEMP_NAME = re.compile(r"^\..+\.[^.]+\.tmp$")  # what an interrupted atomic write leaves


def default_cache_dir() -> Path:
    """The user's cache folder: $CARDGEN_CACHE, else the platform's (e.g. ~/.cache/cardgen)."""
    return user_cache_dir()


def current_umask() -> int:
    umask = os.umask(0o022)  # reading the umask means setting it; put it straight back
    os.umask(umask)
    return umask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temp file beside `path`, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp makes 0600; published files are 0644
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if exc.filename is not None:
            raise
        # a full disk fails the write itself, which names no file: name it, so the message says
        # which folder (the output's, the cache's) needs the space
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def sha256(data: bytes) -> str:
    """The SHA-256 a manifest records of a file's bytes (`fingerprint.content_digest`)."""
    return content_digest(data)


class TableStore:
    """Sets of tables (CSV) and JSON documents, one folder per set, each with its manifest."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def table_dir(self, name: str) -> Path:
        return self.root / name

    def _before_write(self) -> None:
        """Hook: a store that needs to prepare its folder (the cache writes its marker)."""

    def write_tables(self, name: str, tables: dict[str, pd.DataFrame],
                     extra: dict[str, dict] | None = None, meta: dict | None = None) -> Path:
        """Write a set of tables (CSV) and JSON documents as one unit, manifest last."""
        self._before_write()
        folder = self.table_dir(name)
        files: dict[str, str] = {}
        for tname, df in tables.items():
            data = df.to_csv(index=False, lineterminator="\n").encode("utf-8")
            atomic_write_bytes(folder / f"{tname}.csv", data)
            files[f"{tname}.csv"] = sha256(data)
        for jname, doc in (extra or {}).items():
            data = (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode("utf-8")
            atomic_write_bytes(folder / f"{jname}.json", data)
            files[f"{jname}.json"] = sha256(data)
        manifest = {"files": files, **(meta or {})}
        atomic_write_text(folder / "manifest.json", json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        return folder

    def read_manifest(self, name: str) -> dict | None:
        """The set's manifest, or None when it is missing, unreadable or not a manifest's shape."""
        path = self.table_dir(name) / "manifest.json"
        try:
            doc = read_json_file(path)
        except (OSError, ValueError):
            return None
        files = doc.get("files") if isinstance(doc, dict) else None
        if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in files.items()):
            return None  # valid JSON of the wrong shape: treated as damaged, so it is rebuilt
        return doc

    def is_complete(self, name: str) -> bool:
        """True when every file in the manifest is present with the recorded digest."""
        manifest = self.read_manifest(name)
        if not manifest:
            return False
        folder = self.table_dir(name)
        for fname, digest in manifest["files"].items():
            path = folder / fname
            try:
                # is_file: a FIFO in a table's place would block the read
                if path.parent != folder or not path.is_file() or sha256(path.read_bytes()) != digest:
                    return False
            except OSError:
                return False
        return True

    def read_table(self, name: str, table: str) -> pd.DataFrame:
        import pandas as pd
        return pd.read_csv(self.table_dir(name) / f"{table}.csv", keep_default_na=False,
                           na_values=[""], dtype={"player_id": str, "match_id": str, "overs": str,
                                  "key_cricinfo": str, "known_as": str, "full_name": str,
                                  "inferred_fields": str, "usual_batting_position": "Int64"})

    def read_json(self, name: str, doc: str) -> dict:
        return read_json_file(self.table_dir(name) / f"{doc}.json")

    def complete_sets(self) -> list[str]:
        """Names of the complete sets directly under the root."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and self.is_complete(p.name))


def bundled_tables() -> TableStore:
    """The bundled seasons' tables shipped with the package (read them; never write them)."""
    return TableStore(bundled_tables_dir())


class Cache(TableStore):
    """The user's cache: downloads in `raw/`, derived tables in `tables/`, a marker at the top."""

    def __init__(self, root: Path | None = None) -> None:
        super().__init__(Path(root) if root is not None else default_cache_dir())

    # the marker ------------------------------------------------------------------------------
    @property
    def marker(self) -> Path:
        return self.root / MARKER

    def is_marked(self) -> bool:
        return self.marker.is_file()

    def prepare(self) -> None:
        """Call before writing into the cache: refuses the bundled tables' folder, and marks the
        folder as a cardgen cache (so `--clear` will know what it may remove)."""
        if _same_folder(self.root, bundled_tables_dir()):
            raise CacheError(f"the cache folder {self.root} holds the tables bundled with cardgen; "
                             f"point {CACHE_ENV} at another folder")
        if not self.is_marked():
            atomic_write_text(self.marker, MARKER_TEXT)

    # raw downloads -----------------------------------------------------------------------
    @staticmethod
    def key(source: str, *args: str) -> str:
        """A download's name in `raw/`: its source and the key of its arguments (a URL)."""
        return f"{source}-" + fingerprint_key("download", source, list(args), length=20)

    def raw_path(self, key: str) -> Path:
        return self.root / RAW / key

    def get_raw(self, key: str, validate: Callable[[bytes], bool] | None = None) -> bytes | None:
        path = self.raw_path(key)
        if not path.is_file():
            return None
        data = path.read_bytes()
        if validate is not None and not validate(data):
            path.unlink(missing_ok=True)  # corrupt or partial: drop it so it is re-fetched
            return None
        return data

    def _before_write(self) -> None:
        self.prepare()

    def put_raw(self, key: str, data: bytes) -> None:
        self.prepare()
        atomic_write_bytes(self.raw_path(key), data)

    # derived tables, one entry per season and source ----------------------------------------
    @staticmethod
    def entry_name(set_name: str, source_id: str) -> str:
        """`tables/<CODE>_<season>-<hash of the source>`: a different source is a different entry."""
        return f"{TABLES}/{set_name}-{fingerprint_key('tables-source', source_id, length=12)}"

    def entries(self) -> list[tuple[str, dict | None]]:
        """Every table entry (`tables/...`) with its manifest (None when damaged)."""
        folder = self.root / TABLES
        if not folder.is_dir():
            return []
        return [(f"{TABLES}/{p.name}", self.read_manifest(f"{TABLES}/{p.name}"))
                for p in sorted(folder.iterdir()) if p.is_dir()]

    # clearing ------------------------------------------------------------------------------
    def clear(self, raw_only: bool = False) -> list[Path]:
        """Remove what cardgen wrote here (downloads; with them, unless `raw_only`, the tables and
        the kept card sets).

        Refuses a folder without the marker (it is not a cardgen cache, or not one this version
        wrote): nothing there is removed. Inside a marked folder only cardgen's own entries go:
        raw downloads and kept card sets named as cardgen names them, table folders with a
        cardgen manifest, and temp files of interrupted writes. Anything else (a user's file, the bundled tables) stays.
        """
        if not self.root.exists():
            return []
        if not self.root.is_dir():
            raise CacheError(f"the cache {self.root} is not a folder; nothing removed")
        if not self.is_marked():
            raise CacheError(f"{self.root} is not a cardgen cache (no {MARKER} file); nothing removed. "
                             f"Point {CACHE_ENV} at the cache folder, or delete the files yourself")
        removed = []
        for folder_name, pattern in ((RAW, _RAW_NAME), (CARD_SETS, _CARD_SET_NAME)):
            if raw_only and folder_name != RAW:
                continue
            folder = self.root / folder_name
            if not folder.is_dir() or folder.is_symlink():
                continue
            for child in sorted(folder.iterdir()):
                if child.is_file() and not child.is_symlink() and (
                        pattern.match(child.name) or _TEMP_NAME.match(child.name)):
                    child.unlink()
                    removed.append(child)
            _remove_if_empty(folder)
        if not raw_only:
            tables = self.root / TABLES
            if tables.is_dir() and not tables.is_symlink():
                for child in sorted(tables.iterdir()):
                    if child.is_dir() and not child.is_symlink() and _written_by_cardgen(child):
                        shutil.rmtree(child)
                        removed.append(child)
                _remove_if_empty(tables)
        return removed


def _written_by_cardgen(folder: Path) -> bool:
    """A table folder named as cardgen names them, holding only a cardgen manifest and the files
    it lists (or, when damaged, only tables and temp files)."""
    if not _ENTRY_NAME.match(folder.name):
        return False
    try:
        manifest = read_json_file(folder / "manifest.json")
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or not str(manifest.get("generator", "")).startswith("cardgen"):
        # a damaged entry is still ours when every file in it is a table or an interrupted write
        names = [p.name for p in folder.iterdir()]
        return bool(names) and all(p.is_file() and (p.suffix in {".csv", ".json"} or _TEMP_NAME.match(p.name))
                                   for p in folder.iterdir())
    listed = set(manifest.get("files") or {}) | {"manifest.json"}
    return all(p.name in listed or (p.is_file() and _TEMP_NAME.match(p.name)) for p in folder.iterdir())


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):  # something we did not write is still there: leave it
        folder.rmdir()


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


# --refresh -----------------------------------------------------------------------------------
# RunOptions.refresh: the first read of each season in the command rebuilds it from its source,
# ignoring cached tables and downloads; later reads use the fresh tables


def refresh_due(key: str) -> bool:
    """Whether a refresh was asked for and `key` (a season and source) was not refreshed yet."""
    run = options.current()
    return run.refresh and key not in run.refreshed


def refreshed(key: str) -> None:
    options.current().refreshed.add(key)
