"""The cache: atomic writes, digests in the manifest, corrupt entries detected, safe clearing."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from cardgen.cache import CACHE_ENV, MARKER, Cache, atomic_write_bytes, bundled_tables
from cardgen.errors import CacheError


def test_atomic_write_replaces_whole_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "a" / "table.csv"
    atomic_write_bytes(target, b"old")
    atomic_write_bytes(target, b"new contents")
    assert target.read_bytes() == b"new contents"
    assert [p.name for p in target.parent.iterdir()] == ["table.csv"]


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "table.csv"
    atomic_write_bytes(target, b"old")

    def crash(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr("cardgen.cache.os.replace", crash)
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_raw_entries_are_keyed_and_validated(tmp_cache):
    key = Cache.key("cricsheet", "http://x/bbl_male_json.zip")
    assert key == Cache.key("cricsheet", "http://x/bbl_male_json.zip")
    assert key != Cache.key("cricsheet", "http://y/bbl_male_json.zip")
    tmp_cache.put_raw(key, b"PK-good")
    assert tmp_cache.get_raw(key, validate=lambda b: b.startswith(b"PK")) == b"PK-good"
    tmp_cache.put_raw(key, b"half")
    assert tmp_cache.get_raw(key, validate=lambda b: b.startswith(b"PK")) is None
    assert not tmp_cache.raw_path(key).exists()  # dropped, so the next run fetches again


def _write(cache: Cache) -> Path:
    df = pd.DataFrame({"player_id": ["0a1"], "runs": [12]})
    return cache.write_tables("BBL_2024-25", {"batting": df}, extra={"league": {"matches": 1}},
                              meta={"tables_version": 1})


def test_tables_round_trip_and_are_complete(tmp_cache):
    _write(tmp_cache)
    assert tmp_cache.is_complete("BBL_2024-25")
    back = tmp_cache.read_table("BBL_2024-25", "batting")
    assert back["player_id"].tolist() == ["0a1"]  # ids stay text, leading zero kept
    assert tmp_cache.read_json("BBL_2024-25", "league") == {"matches": 1}


@pytest.mark.parametrize("damage", ["truncate", "delete", "edit", "manifest"])
def test_damaged_tables_are_detected(tmp_cache, damage):
    folder = _write(tmp_cache)
    if damage == "truncate":
        (folder / "batting.csv").write_bytes((folder / "batting.csv").read_bytes()[:5])
    elif damage == "delete":
        (folder / "league.json").unlink()
    elif damage == "edit":
        (folder / "batting.csv").write_text("player_id,runs\n0a1,13\n")
    else:
        (folder / "manifest.json").write_text("{not json")
    assert not tmp_cache.is_complete("BBL_2024-25")


def test_write_is_deterministic(tmp_path):
    a, b = Cache(tmp_path / "a"), Cache(tmp_path / "b")
    _write(a)
    _write(b)
    for name in ("batting.csv", "league.json", "manifest.json"):
        assert (a.root / "BBL_2024-25" / name).read_bytes() == (b.root / "BBL_2024-25" / name).read_bytes()
    assert json.loads((a.root / "BBL_2024-25" / "manifest.json").read_text())["tables_version"] == 1


def _write_entry(cache: Cache) -> Path:
    df = pd.DataFrame({"player_id": ["0a1"], "runs": [12]})
    return cache.write_tables(cache.entry_name("BBL_2024-25", "/some/mirror"), {"batting": df},
                              extra={"league": {"matches": 1}},
                              meta={"tables_version": 1, "generator": "cardgen test"})


def test_writing_marks_the_folder_as_a_cardgen_cache(tmp_cache):
    assert not tmp_cache.is_marked()
    tmp_cache.put_raw(Cache.key("cricsheet", "u"), b"zip")
    assert tmp_cache.is_marked() and (tmp_cache.root / MARKER).read_text().startswith("This folder")


def test_clear_removes_only_what_cardgen_wrote(tmp_cache):
    entry = _write_entry(tmp_cache)
    key = Cache.key("cricsheet", "http://x/bbl_male_json.zip")
    tmp_cache.put_raw(key, b"x")
    kept = tmp_cache.root / "card-sets" / f"BBL_2024-25-{'0' * 20}.json"  # calibrate.reuse's name
    kept.parent.mkdir()
    kept.write_text("{}")
    (tmp_cache.root / "card-sets" / "my-own.json").write_text("{}")
    # a user's files beside and inside cardgen's folders
    (tmp_cache.root / "README.md").write_text("kept\n")
    (tmp_cache.root / "raw" / "my-notes.txt").write_text("kept\n")
    (tmp_cache.root / "tables" / "mine").mkdir()
    (tmp_cache.root / "tables" / "mine" / "data.csv").write_text("a\n1\n")
    (entry / "extra.xlsx").write_bytes(b"a user's file dropped into an entry")
    assert [p.name for p in tmp_cache.clear(raw_only=True)] == [key]
    assert tmp_cache.is_complete(entry.relative_to(tmp_cache.root).as_posix())
    # the entry holds a file cardgen did not write: left alone
    assert [p.name for p in tmp_cache.clear()] == [kept.name]
    (entry / "extra.xlsx").unlink()
    assert [p.name for p in tmp_cache.clear()] == [entry.name]
    left = sorted(p.relative_to(tmp_cache.root).as_posix() for p in tmp_cache.root.rglob("*"))
    assert left == [MARKER, "README.md", "card-sets", "card-sets/my-own.json", "raw",
                    "raw/my-notes.txt", "tables", "tables/mine", "tables/mine/data.csv"]
    assert Cache(tmp_cache.root / "nowhere").clear() == []


def test_clear_refuses_a_folder_that_is_not_a_cardgen_cache(tmp_path):
    """The data-loss case of issue 15: CARDGEN_CACHE pointing at a folder of one's own files."""
    folder = tmp_path / "documents"
    (folder / "raw").mkdir(parents=True)
    (folder / "thesis.txt").write_text("years of work\n")
    (folder / "raw" / Cache.key("cricsheet", "x")).write_text("looks like ours, is not\n")
    (folder / "BBL_2024-25").mkdir()
    with pytest.raises(CacheError, match="not a cardgen cache"):
        Cache(folder).clear()
    assert sorted(p.name for p in folder.rglob("*")) == sorted(
        ["thesis.txt", "raw", Cache.key("cricsheet", "x"), "BBL_2024-25"])


def test_the_bundled_tables_are_never_the_cache(monkeypatch):
    bundled = bundled_tables()
    assert bundled.complete_sets()  # the six bundled seasons ship with the package
    cache = Cache(bundled.root)
    with pytest.raises(CacheError, match="bundled"):
        cache.put_raw(Cache.key("cricsheet", "u"), b"zip")
    with pytest.raises(CacheError, match="not a cardgen cache"):
        cache.clear()
    assert not cache.is_marked() and not (bundled.root / "raw").exists()


@pytest.mark.parametrize("shape", ['[]', '{"files": []}', '{"files": {"a.csv": 3}}', '"x"'])
def test_manifest_of_the_wrong_shape_reads_as_damaged(tmp_cache, shape):
    folder = _write(tmp_cache)
    (folder / "manifest.json").write_text(shape)
    assert tmp_cache.read_manifest("BBL_2024-25") is None
    assert not tmp_cache.is_complete("BBL_2024-25")


def test_default_cache_is_the_user_cache_dir_not_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert Cache().root == tmp_path / "xdg" / "cardgen"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "elsewhere"))
    assert Cache().root == tmp_path / "elsewhere"


def test_the_marker_names_every_folder_clear_empties(tmp_cache):
    """The note cardgen leaves in its cache says what `cache --clear` removes: all of it."""
    _write_entry(tmp_cache)
    tmp_cache.put_raw(Cache.key("cricsheet", "http://x/bbl_male_json.zip"), b"x")
    kept = tmp_cache.root / "card-sets" / f"BBL_2024-25-{'0' * 8}-{'0' * 20}.json"
    kept.parent.mkdir()
    kept.write_text("{}")
    folders = {p.relative_to(tmp_cache.root).parts[0] for p in tmp_cache.clear()}
    assert folders == {"raw", "tables", "card-sets"}
    text = " ".join((tmp_cache.root / MARKER).read_text().split())
    assert all(f"{folder}/" in text for folder in folders), text
