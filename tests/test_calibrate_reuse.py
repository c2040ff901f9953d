"""Card-set reuse (cardgen.calibrate.reuse): a kept set is used only when every input matches."""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from cardgen.cache import Cache
from cardgen.calibrate.cardset import build_card_set
from cardgen.cardset import dumps
from cardgen.calibrate.reuse import (FOLDER, SHIPPED_ENV, SHIPPED_OPTIONS, fingerprint,
                                    reuse_or_build, shipped_path)
from cardgen.paths import bundled_tables_dir
from cardgen.stats.load import BUNDLED_SEASONS, season_stats
from cardgen.competitions import get_competition
from cardgen.sim.example import example_card_set

pytestmark = pytest.mark.needs_data


class Builder:
    """Stands in for the calibration (seconds) in the logic tests: counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict:
        self.calls += 1
        return example_card_set("T20")


def test_kept_set_is_reused_only_for_the_same_inputs(bbl_stats, tmp_cache: Cache) -> None:
    comp, build = get_competition("BBL"), Builder()
    first, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert (reused, build.calls) == (False, 1)
    again, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert (reused, build.calls) == (True, 1) and dumps(again) == dumps(first)
    # one run more for one batter is another season: calibrate again, keep only the new set
    batting = bbl_stats.batting.copy()
    batting.loc[batting.index[0], "runs"] += 1
    changed = dataclasses.replace(bbl_stats, batting=batting)
    _, reused = reuse_or_build(changed, comp, "2024-25", tmp_cache, build)
    assert (reused, build.calls) == (False, 2)
    assert len(list((tmp_cache.root / FOLDER).glob("*.json"))) == 1
    # other calibration options, another competition definition: misses too
    _, reused = reuse_or_build(changed, comp, "2024-25", tmp_cache, build, options={"seed": 3})
    assert (reused, build.calls) == (False, 3)
    other = dataclasses.replace(comp, name=comp.name + " (renamed)")
    _, reused = reuse_or_build(changed, other, "2024-25", tmp_cache, build, options={"seed": 3})
    assert (reused, build.calls) == (False, 4)


def test_sets_of_other_options_are_kept_side_by_side(bbl_stats, tmp_cache: Cache) -> None:
    """`build` and `build --rules advanced` (or --names) alternate without recalibrating: a new
    set replaces only the older set of the same season and options."""
    comp, build = get_competition("BBL"), Builder()
    advanced = {"names": None, "rules": "advanced"}
    for options in ({"names": None}, advanced, {"names": None}, advanced):
        reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build, options=options)
    assert build.calls == 2  # one calibration per options, then each kept set is reused
    folder = tmp_cache.root / FOLDER
    legacy = folder / ("BBL_2024-25-" + "0" * 20 + ".json")  # the layout before options had a key
    legacy.write_text("{}", encoding="utf-8")
    other_season = folder / ("BBL_2024-" + "0" * 8 + "-" + "0" * 20 + ".json")  # not this set's
    other_season.write_text("{}", encoding="utf-8")
    batting = bbl_stats.batting.copy()
    batting.loc[batting.index[0], "runs"] += 1
    changed = dataclasses.replace(bbl_stats, batting=batting)
    _, reused = reuse_or_build(changed, comp, "2024-25", tmp_cache, build, options=advanced)
    assert not reused and build.calls == 3
    kept = sorted(p.name for p in folder.glob("BBL_2024-25-*.json"))
    # the new advanced set and the default one; the old advanced set and the legacy file are gone
    assert len(kept) == 2 and legacy.name not in kept and other_season.is_file()
    _, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build, options={"names": None})
    assert reused and build.calls == 3


def test_damaged_or_unwritable_cache_only_costs_the_reuse(bbl_stats, tmp_cache: Cache) -> None:
    comp, build = get_competition("BBL"), Builder()
    reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    [kept] = (tmp_cache.root / FOLDER).glob("*.json")
    kept.write_text('{"schema_version": 1, "cards": [', encoding="utf-8")  # cut short
    card_set, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert (reused, build.calls) == (False, 2) and card_set["cards"]
    assert dumps(card_set) == kept.read_text(encoding="utf-8")  # replaced by a good copy
    kept.write_bytes(dumps(card_set).encode("utf-8")[:-3] + "\u00e9".encode("utf-8")[:1])  # cut mid-character
    card_set, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert (reused, build.calls) == (False, 3) and dumps(card_set) == kept.read_text(encoding="utf-8")
    blocked = Cache(tmp_cache.root.parent / "blocked")  # card-sets/ cannot be created
    blocked.root.mkdir()
    (blocked.root / FOLDER).write_text("a file where the folder should be", encoding="utf-8")
    card_set, reused = reuse_or_build(bbl_stats, comp, "2024-25", blocked, build)
    assert not reused and card_set["cards"]
    assert (blocked.root / FOLDER).read_text(encoding="utf-8").startswith("a file")


def test_reused_card_set_is_the_calibrated_one_byte_for_byte(mirror: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             render_card_sets: dict[str, dict]) -> None:
    """A real calibrated set (the session's, standing in for the calibration: it takes 12 s),
    then the kept file: same JSON (so the same kit)."""
    import copy
    monkeypatch.setenv(SHIPPED_ENV, "0")  # the set that ships would be reused at once
    cache = Cache(tmp_path / "cache")
    comp = get_competition("HUNDRED")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("cardgen.calibrate.cardset.card_set_from_stats",
                      lambda *a, **k: copy.deepcopy(render_card_sets["HUNDRED"]))
        calibrated = build_card_set(comp, "2024", str(mirror), cache=cache, reuse=True)
    kept = list((cache.root / FOLDER).glob("HUNDRED_2024-*.json"))
    assert len(kept) == 1
    with pytest.MonkeyPatch.context() as patch:  # the second call must not calibrate at all
        patch.setattr("cardgen.calibrate.cardset.card_set_from_stats",
                      lambda *a, **k: pytest.fail("calibrated again instead of reusing the kept set"))
        reused = build_card_set(comp, "2024", str(mirror), cache=cache, reuse=True)
    assert dumps(reused) == dumps(calibrated)


def test_a_kept_set_is_read_unchecked_only_while_its_bytes_match_its_digest(bbl_stats, tmp_cache: Cache) -> None:
    """Reuse skips the schema check for the exact bytes it wrote (digest beside them); an edited
    set that still parses but breaks the schema is checked, refused and calibrated again."""
    comp, build = get_competition("BBL"), Builder()
    first, _ = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    [kept] = (tmp_cache.root / FOLDER).glob("*.json")
    digest = kept.with_name(kept.name + ".sha256")
    assert digest.read_text().strip() == hashlib.sha256(kept.read_bytes()).hexdigest()
    again, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert reused and again == first and build.calls == 1
    broken = json.loads(kept.read_text(encoding="utf-8"))
    broken["cards"][0]["chart"] = "not a chart"
    kept.write_text(dumps(broken), encoding="utf-8")
    again, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build)
    assert not reused and build.calls == 2 and again == first
    assert digest.read_text().strip() == hashlib.sha256(kept.read_bytes()).hexdigest()  # a good copy again


def test_the_shipped_sets_are_current_and_are_what_calibrating_gives(render_card_sets: dict[str, dict]) -> None:
    """stats_cache/card-sets/ holds, for every bundled season, the Quicket rules' set (the
    default build's) and the advanced rules' set, each named by the fingerprint of today's code
    and tables (a stale set would never be used: every first build would calibrate); the BBL
    and Hundred advanced sets are byte for byte the ones this session calibrated."""
    import gzip
    folder = bundled_tables_dir() / FOLDER
    expected = {}
    for code, season in BUNDLED_SEASONS:
        comp = get_competition(code)
        stats = season_stats(comp, season)
        for options in SHIPPED_OPTIONS:
            digest = fingerprint(stats, comp, season, options, versions=False)
            expected[code, season, options["rules"]] = shipped_path(comp, season, digest, options)
    assert sorted(p.name for p in folder.glob("*.json.gz")) == sorted(p.name for p in expected.values()), \
        "the shipped card sets are stale: python3 -m cardgen.calibrate.reuse ../shared/data/cricsheet"
    for code, season in (("BBL", "2024-25"), ("HUNDRED", "2024")):
        shipped = gzip.decompress(expected[code, season, "advanced"].read_bytes()).decode("utf-8")
        assert shipped == dumps(render_card_sets[code]), code


def test_a_first_build_of_a_bundled_season_uses_the_shipped_set(bbl_stats, tmp_cache: Cache,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    comp, build = get_competition("BBL"), Builder()
    for options in SHIPPED_OPTIONS:
        card_set, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build, options=options)
        assert reused and build.calls == 0 and len(card_set["cards"]) > 200
        assert card_set["rules"] == options["rules"]
        assert (card_set["rule"] == "classic") == (options["rules"] == "quicket")   # (older readers)
    assert not (tmp_cache.root / FOLDER).exists()  # nothing calibrated, nothing kept
    # other inputs (a names file, one run more for one batter) or the switch: calibrate
    _, reused = reuse_or_build(bbl_stats, comp, "2024-25", tmp_cache, build,
                               options={"names": {"10735e1d": "Jordie Buckingham"}})
    assert (reused, build.calls) == (False, 1)
    batting = bbl_stats.batting.copy()
    batting.loc[batting.index[0], "runs"] += 1
    changed = dataclasses.replace(bbl_stats, batting=batting)
    _, reused = reuse_or_build(changed, comp, "2024-25", tmp_cache, build, options=SHIPPED_OPTIONS[0])
    assert (reused, build.calls) == (False, 2)
    monkeypatch.setenv(SHIPPED_ENV, "0")
    other = Cache(tmp_cache.root.parent / "other-cache")
    _, reused = reuse_or_build(bbl_stats, comp, "2024-25", other, build, options=SHIPPED_OPTIONS[0])
    assert (reused, build.calls) == (False, 3)


def test_a_damaged_shipped_set_is_ignored(bbl_stats, tmp_cache: Cache, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped set that cannot be read whole (cut short, a flipped byte, not gzip, a folder in
    its place) is never used: the season is calibrated instead."""
    import gzip
    comp, options = get_competition("BBL"), SHIPPED_OPTIONS[0]
    real = shipped_path(comp, "2024-25", fingerprint(bbl_stats, comp, "2024-25", options,
                                                       versions=False), options)
    good = real.read_bytes()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x01
    fake_root = tmp_path / "shipped"
    monkeypatch.setattr("cardgen.calibrate.reuse.bundled_tables_dir", lambda: fake_root)
    damaged = {"cut short": good[: len(good) // 2], "a flipped byte": bytes(flipped),
               "not gzip": b"{}", "empty": b"", "not a card set": gzip.compress(b"[1, 2]"),
               "a folder": None}
    for what, data in damaged.items():
        target = fake_root / FOLDER / real.name
        if target.is_dir():
            target.rmdir()
        target.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            target.unlink(missing_ok=True)
            target.mkdir()
        else:
            target.write_bytes(data)
        build = Builder()
        _, reused = reuse_or_build(bbl_stats, comp, "2024-25", Cache(tmp_path / what), build,
                                   options=options)
        assert (reused, build.calls) == (False, 1), what
    target = fake_root / FOLDER / real.name
    target.rmdir()
    target.write_bytes(good)  # the same bytes in the same place: used
    build = Builder()
    _, reused = reuse_or_build(bbl_stats, comp, "2024-25", Cache(tmp_path / "good"), build, options=options)
    assert (reused, build.calls) == (True, 0)


def test_text_columns_hash_alike_under_pandas_2_and_3(bbl_stats) -> None:
    """pandas 3 names text columns "str", pandas 2 "object": the same tables must give the same
    fingerprint under either (else no shipped set would match under pandas 2)."""
    comp = get_competition("BBL")
    as_object = dataclasses.replace(bbl_stats, **{
        name: df.astype({c: object for c in df.columns if df[c].dtype.kind in "OUT"
                         or str(df[c].dtype) in ("str", "string")})
        for name, df in bbl_stats.tables().items() if hasattr(bbl_stats, name)})
    assert fingerprint(as_object, comp, "2024-25", {}) == fingerprint(bbl_stats, comp, "2024-25", {})
