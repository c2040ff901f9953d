"""The derived tables committed in stats_cache/ are current and reproducible.

Rebuilding a bundled season from the mirror must give byte-identical files: otherwise the
committed tables are stale (regenerate with `python -m cardgen.stats.load ../shared/data/cricsheet`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.cache import TableStore
from cardgen.competitions import get_competition, set_name
from cardgen.stats.load import BUNDLED_SEASONS, TABLES_VERSION, write_bundled

COMMITTED = TableStore(Path(__file__).resolve().parent.parent / "stats_cache")


@pytest.mark.needs_data
@pytest.mark.parametrize("code, season", BUNDLED_SEASONS)
def test_committed_tables_equal_fresh_ones(code, season, mirror, tmp_path, monkeypatch):
    monkeypatch.delenv("CARDGEN_CRICINFO", raising=False)
    monkeypatch.delenv("CARDGEN_PLAYERS", raising=False)
    comp = get_competition(code)
    name = set_name(comp, season)
    assert COMMITTED.is_complete(name), f"stats_cache/{name} is missing or damaged"
    manifest = COMMITTED.read_manifest(name)
    assert manifest["tables_version"] == TABLES_VERSION
    fresh = TableStore(tmp_path)
    write_bundled(comp, season, str(mirror), fresh.root)  # what the maintainer command writes
    assert fresh.read_manifest(name) == manifest
    for fname in manifest["files"]:
        assert (fresh.table_dir(name) / fname).read_bytes() == \
            (COMMITTED.table_dir(name) / fname).read_bytes(), fname


def test_no_per_delivery_table_is_committed():
    for folder in COMMITTED.root.iterdir():
        if not folder.is_dir() or folder.name == "raw":
            continue
        files = {p.name for p in folder.iterdir()}
        if folder.name == "card-sets":  # the calibrated sets that ship (cardgen.calibrate.reuse)
            assert all(f.endswith(".json.gz") for f in files), files
            continue
        assert not any("deliver" in f for f in files), folder
        assert files <= {"batting.csv", "bowling.csv", "fielding.csv", "lineups.csv", "innings.csv",
                         "matches.csv", "attributes.csv", "league.json", "manifest.json",
                         "situations.csv"}, folder


def test_raw_downloads_are_git_ignored():
    ignore = (COMMITTED.root.parent / ".gitignore").read_text().splitlines()
    assert "/stats_cache/raw/" in ignore
