"""The cache follows the source (issue 15 item 2, issue 11 item 6), through the CLI.

Each test reproduces a failure seen before the cache was keyed by source: a different or changed
mirror silently answered from the cache, a vanished mirror folder was not noticed, `--refresh
--source X` rewrote the bundled tables, and `cache --clear` emptied any folder it was pointed at.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV, MARKER, Cache, bundled_tables
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import UnknownSeason
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.stats.load import season_stats

BBL = get_competition("BBL")
BBL_MATCHES = 42  # BBL 2024-25 in the shared mirror (and in the bundled tables)


def _digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def own_mirror(tmp_path: Path, mirror: Path) -> Path:
    """A user's mirror: a copy of the shared BBL 2024-25 folder (no players/ beside it)."""
    root = tmp_path / "my-mirror"
    shutil.copytree(mirror / "bbl_2024-25", root / "bbl_2024-25")
    return root


@pytest.fixture
def cli(tmp_path: Path):
    """The CLI with a throwaway cache, no source from the environment, no scraping."""
    env = {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: None, "CARDGEN_CRICINFO": None,
           "CARDGEN_PLAYERS": None}

    def invoke(*args: str, **extra: str | None):
        return CliRunner().invoke(main, list(args), env={**env, **extra})
    return invoke


def _matches(cli, *args: str, **env: str | None) -> int:
    result = cli("stats", "-c", "BBL", "-s", "2024-25", "--table", "league", "--format", "json",
                 *args, **env)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["league"]["matches"]


def _drop_matches(folder: Path, n: int) -> None:
    for path in sorted(folder.glob("*.json"))[:n]:
        path.unlink()


@pytest.mark.needs_data
def test_a_different_source_is_not_answered_from_the_cache(cli, own_mirror, tmp_path):
    assert _matches(cli, "--source", str(own_mirror)) == BBL_MATCHES
    smaller = tmp_path / "smaller"
    shutil.copytree(own_mirror, smaller)
    _drop_matches(smaller / "bbl_2024-25", 2)
    assert _matches(cli, "--source", str(smaller)) == BBL_MATCHES - 2
    assert _matches(cli, **{SOURCE_ENV: str(own_mirror)}) == BBL_MATCHES  # its own entry, again
    assert len(Cache(tmp_path / "cache").entries()) == 2


@pytest.mark.needs_data
def test_a_changed_source_rebuilds(cli, own_mirror):
    assert _matches(cli, "--source", str(own_mirror)) == BBL_MATCHES
    _drop_matches(own_mirror / "bbl_2024-25", 1)
    assert _matches(cli, "--source", str(own_mirror)) == BBL_MATCHES - 1


@pytest.mark.needs_data
def test_a_missing_source_folder_is_an_error_even_when_cached(cli, own_mirror):
    assert _matches(cli, "--source", str(own_mirror)) == BBL_MATCHES
    shutil.rmtree(own_mirror)
    for source in ({"--source": str(own_mirror)}, {}):
        args = [a for kv in source.items() for a in kv]
        env = {} if source else {SOURCE_ENV: str(own_mirror)}
        result = cli("stats", "-c", "BBL", "-s", "2024-25", *args, **env)
        assert result.exit_code != 0
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "does not exist" in lines[0] and "Traceback" not in result.output


@pytest.mark.needs_data
def test_an_empty_or_broken_source_is_an_error_not_a_cache_hit(cli, own_mirror, tmp_path):
    assert _matches(cli, "--source", str(own_mirror)) == BBL_MATCHES
    for path in (own_mirror / "bbl_2024-25").glob("*.json"):
        path.unlink()
    result = cli("stats", "-c", "BBL", "-s", "2024-25", "--source", str(own_mirror))
    assert result.exit_code != 0 and "BBL 2024-25" in result.output
    assert len(result.output.strip().splitlines()) == 1
    (own_mirror / "bbl_2024-25" / "1.json").write_text("{not json")
    result = cli("stats", "-c", "BBL", "-s", "2024-25", "--source", str(own_mirror))
    assert result.exit_code != 0 and "Traceback" not in result.output


@pytest.mark.needs_data
def test_refresh_with_a_source_never_rewrites_the_bundled_tables(cli, own_mirror, tmp_path):
    """`stats --refresh --source X` once overwrote the committed tables; later builds used them."""
    bundled = bundled_tables().root
    before = _digests(bundled)
    _drop_matches(own_mirror / "bbl_2024-25", 3)
    # the default cache (no CARDGEN_CACHE) in a throwaway XDG cache home
    env = {CACHE_ENV: None, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert _matches(cli, "--refresh", "--source", str(own_mirror), **env) == BBL_MATCHES - 3
    assert _digests(bundled) == before
    assert (tmp_path / "xdg" / "cardgen" / MARKER).is_file()
    assert _matches(cli, **env) == BBL_MATCHES  # no source: the bundled season, untouched


@pytest.mark.needs_data
def test_refresh_ends_with_its_command(cli, own_mirror, tmp_path):
    """`--refresh` is a process-wide switch for one command: once the command is over, reading a
    season (the next command, or code calling main) uses the cache again (it used to stay on, so
    a later read of the default source went to cricsheet.org)."""
    from cardgen.cache import refresh_due
    env = {CACHE_ENV: str(tmp_path / "cache")}
    assert _matches(cli, "--refresh", "--source", str(own_mirror), **env) == BBL_MATCHES
    assert not refresh_due("BBL 2024-25 any source")


def test_bundled_tables_answer_only_the_default_source(tmp_path, monkeypatch):
    monkeypatch.delenv(SOURCE_ENV, raising=False)
    monkeypatch.setattr("cardgen.stats.load.build_season_stats",
                        lambda *a, **k: pytest.fail("rebuilt instead of reading the bundled tables"))
    cache = Cache(tmp_path / "cache")
    assert season_stats(BBL, "2024-25", cache=cache).league["matches"] == BBL_MATCHES
    assert not (tmp_path / "cache").exists()  # reading the bundled tables writes nothing
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(UnknownSeason):
        season_stats(BBL, "2024-25", str(tmp_path / "elsewhere"), cache=cache)


def test_every_command_that_reads_a_season_has_refresh(cli):
    season_commands = [name for name, cmd in main.commands.items()
                       if any("--competition" in p.opts for p in cmd.params)]
    assert {"stats", "calibrate", "build", "simulate", "validate", "compare-games"} <= set(season_commands)
    for name in season_commands:
        assert any("--refresh" in p.opts for p in main.commands[name].params), name
        assert "--refresh" in cli(name, "--help").output


@pytest.mark.needs_data
def test_refresh_downloads_again_and_the_next_run_does_not(cli, mirror):
    from test_sources_http import LoopbackServer, build_zip
    with LoopbackServer({BBL.download_file: build_zip(mirror, ["bbl_2024-25"])}) as server:
        url = f"{server.url}/good"
        assert _matches(cli, "--source", url) == BBL_MATCHES
        assert _matches(cli, "--source", url) == BBL_MATCHES
        assert server.hits[f"/good/{BBL.download_file}"] == 1  # the second run read the cache
        assert _matches(cli, "--source", url, "--refresh") == BBL_MATCHES
        assert server.hits[f"/good/{BBL.download_file}"] == 2
        assert _matches(cli, "--source", url) == BBL_MATCHES
        assert server.hits[f"/good/{BBL.download_file}"] == 2  # one run's --refresh ends with it


def test_cache_clear_on_a_folder_of_ones_own_files_leaves_them(cli, tmp_path):
    """Issue 15's data loss: CARDGEN_CACHE=~/some/folder cardgen cache --clear."""
    folder = tmp_path / "some" / "folder"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine\n")
    (folder / "photos").mkdir()
    (folder / "photos" / "a.jpg").write_bytes(b"\xff\xd8")
    result = cli("cache", "--clear", **{CACHE_ENV: str(folder)})
    assert result.exit_code != 0 and "not a cardgen cache" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) == [
        "notes.txt", "photos", "photos/a.jpg"]


def test_cache_clear_never_touches_the_bundled_tables(cli, tmp_path):
    bundled = bundled_tables().root
    before = _digests(bundled)
    for env in ({CACHE_ENV: str(bundled)}, {CACHE_ENV: None, "XDG_CACHE_HOME": str(tmp_path / "x")}):
        cli("cache", "--clear", **env)
    assert _digests(bundled) == before


def test_a_kept_card_set_marks_the_cache_so_clear_removes_it(tmp_path):
    """A build of a bundled season writes only a kept card set: the cache is still cardgen's."""
    from cardgen.calibrate.reuse import reuse_or_build
    cache = Cache(tmp_path / "cache")
    stats = season_stats(BBL, "2024-25", cache=cache)
    card_set, reused = reuse_or_build(stats, BBL, "2024-25", cache, build=lambda: {"cards": []})
    assert not reused and cache.is_marked()
    kept = sorted((tmp_path / "cache" / "card-sets").iterdir())  # the set and its digest
    assert [p.suffix for p in kept] == [".json", ".sha256"]
    assert sorted(cache.clear()) == kept and not any(p.exists() for p in kept)


@pytest.mark.needs_data
def test_an_unchanged_mirror_is_not_read_again(own_mirror, tmp_path, monkeypatch):
    """A cache hit looks only at the mirror's file names, sizes and times (a big mirror stays fast)."""
    monkeypatch.delenv("CARDGEN_PLAYERS", raising=False)
    cache = Cache(tmp_path / "cache")
    first = season_stats(BBL, "2024-25", str(own_mirror), cache=cache)
    monkeypatch.setattr("cardgen.stats.load.match_files",
                        lambda *a, **k: pytest.fail("read the unchanged mirror again"))
    assert season_stats(BBL, "2024-25", str(own_mirror), cache=cache).league == first.league
    victim = sorted((own_mirror / "bbl_2024-25").glob("*.json"))[0]
    os.utime(victim, ns=(victim.stat().st_atime_ns, victim.stat().st_mtime_ns + 10**9))  # edited
    with pytest.raises(pytest.fail.Exception, match="read the unchanged mirror again"):
        season_stats(BBL, "2024-25", str(own_mirror), cache=cache)
