"""The cache: atomic writes, digests in the manifest, corrupt entries detected, clearing."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from cardgen.cache import Cache, atomic_write_bytes


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


def test_clear(tmp_cache):
    _write(tmp_cache)
    tmp_cache.put_raw("k", b"x")
    (tmp_cache.root / "README.md").write_text("kept\n")
    assert [p.name for p in tmp_cache.clear(raw_only=True)] == ["raw"]
    assert tmp_cache.is_complete("BBL_2024-25")
    assert [p.name for p in tmp_cache.clear()] == ["BBL_2024-25"]
    assert [p.name for p in tmp_cache.root.iterdir()] == ["README.md"]
    assert Cache(tmp_cache.root / "nowhere").clear() == []
