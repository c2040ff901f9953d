"""The on-disk cache in `stats_cache/`: raw downloads and derived tables, written atomically.

Raw downloads live in `raw/` (never committed), keyed by source and arguments. Derived tables
live in `<CODE>_<season>/` with a `manifest.json` that lists every file and its SHA-256, so a
truncated or hand-edited file is detected and the tables are rebuilt.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pandas is imported where tables are read or written: `cardgen --help` stays quick
    import pandas as pd

CACHE_ENV = "CARDGEN_CACHE"


def default_cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    # the repository's stats_cache/ when running from a checkout, else the working directory's
    repo = Path(__file__).resolve().parent.parent / "stats_cache"
    return repo if repo.is_dir() else Path.cwd() / "stats_cache"


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
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Cache:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()

    # raw downloads -----------------------------------------------------------------------
    @staticmethod
    def key(source: str, *args: str) -> str:
        return f"{source}-" + hashlib.sha256("\x1f".join(args).encode()).hexdigest()[:20]

    def raw_path(self, key: str) -> Path:
        return self.root / "raw" / key

    def get_raw(self, key: str, validate: Callable[[bytes], bool] | None = None) -> bytes | None:
        path = self.raw_path(key)
        if not path.is_file():
            return None
        data = path.read_bytes()
        if validate is not None and not validate(data):
            path.unlink(missing_ok=True)  # corrupt or partial: drop it so it is re-fetched
            return None
        return data

    def put_raw(self, key: str, data: bytes) -> None:
        atomic_write_bytes(self.raw_path(key), data)

    # derived tables ------------------------------------------------------------------------
    def table_dir(self, name: str) -> Path:
        return self.root / name

    def write_tables(self, name: str, tables: dict[str, pd.DataFrame],
                     extra: dict[str, dict] | None = None, meta: dict | None = None) -> Path:
        """Write a set of tables (CSV) and JSON documents as one unit, manifest last."""
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
        path = self.table_dir(name) / "manifest.json"
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        # valid JSON of the wrong shape is as unusable as a damaged file: rebuild the entry
        files = manifest.get("files") if isinstance(manifest, dict) else None
        if not (isinstance(files, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())):
            return None
        return manifest

    def is_complete(self, name: str) -> bool:
        """True when every file in the manifest is present with the recorded digest."""
        manifest = self.read_manifest(name)
        if not manifest or "files" not in manifest:
            return False
        folder = self.table_dir(name)
        for fname, digest in manifest["files"].items():
            path = folder / fname
            if not path.is_file() or sha256(path.read_bytes()) != digest:
                return False
        return True

    def read_table(self, name: str, table: str) -> pd.DataFrame:
        import pandas as pd
        return pd.read_csv(self.table_dir(name) / f"{table}.csv", keep_default_na=False,
                           na_values=[""], dtype={"player_id": str, "match_id": str, "overs": str,
                                  "key_cricinfo": str, "known_as": str, "full_name": str,
                                  "inferred_fields": str, "usual_batting_position": "Int64"})

    def read_json(self, name: str, doc: str) -> dict:
        return json.loads((self.table_dir(name) / f"{doc}.json").read_text())

    def clear(self, raw_only: bool = False) -> list[Path]:
        """Remove cached entries; returns what was removed. Committed tables survive raw_only."""
        removed = []
        if not self.root.is_dir():
            return removed
        for child in sorted(self.root.iterdir()):
            if child.name.startswith(".") or child.name == "README.md":
                continue
            if raw_only and child.name != "raw":
                continue
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed.append(child)
        return removed
