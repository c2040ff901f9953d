"""The core commands (`competitions`, `stats`, `cache`) through click's CliRunner."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from cardgen import __version__
from cardgen.cache import CACHE_ENV, Cache
from cardgen.cli import main
from cardgen.competitions import known_codes
from cardgen.sources.fetch import SOURCE_ENV

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def run(tmp_path, mirror):
    """Invoke the CLI with a throwaway cache and the mirror as source."""
    env = {CACHE_ENV: str(tmp_path / "stats_cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None}

    def invoke(*args: str, **extra_env: str | None):
        return CliRunner().invoke(main, list(args), env={**env, **extra_env})
    return invoke


def _commands() -> list[str]:
    return sorted(main.commands)


@pytest.mark.needs_data
def test_version(run):
    result = run("--version")
    assert result.exit_code == 0
    assert __version__ in result.output


@pytest.mark.needs_data
@pytest.mark.parametrize("command", [None, *_commands()])
def test_help_on_every_command(run, command):
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    if command is None:
        for name in ("competitions", "stats", "cache"):
            assert name in result.output


@pytest.mark.needs_data
def test_unknown_competition_is_one_line_listing_codes(run):
    result = run("stats", "-c", "XYZ", "-s", "2024-25")
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert "XYZ" in lines[0] and all(code in lines[0] for code in known_codes())


@pytest.mark.needs_data
@pytest.mark.parametrize("season, words", [("2024", "span two years: use --season 2023-24 or 2024-25"),
                                           ("20x4", "not a season"),
                                           ("2024-26", "consecutive"), ("2019-20", "available here")])
def test_bad_season_is_one_line(run, season, words):
    result = run("stats", "-c", "BBL", "-s", season)
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output


@pytest.mark.needs_data
def test_competitions_lists_codes_and_offline_seasons(run, mirror):
    result = run("competitions", "--source", str(mirror))
    assert result.exit_code == 0
    table = result.output.split("\n\n")[0]
    rows = {line.split()[0]: line for line in table.splitlines()[1:]}
    assert set(rows) == set(known_codes())
    assert "2023-24, 2024-25" in rows["BBL"]
    assert "2024, 2025" in rows["IPL"]
    assert "100-ball" in rows["HUNDRED"] and rows["HUNDRED"].rstrip().endswith("2024")
    assert rows["PSL"].rstrip().endswith("2021")  # its 34 matches sit under two Cricsheet labels
    assert rows["WPL"].rstrip().endswith("2023")  # Cricsheet labels it 2022/23
    assert rows["CPL"].rstrip().endswith("-")


@pytest.mark.needs_data
def test_competitions_lists_committed_seasons_without_a_mirror(run):
    result = run("competitions", **{CACHE_ENV: None, SOURCE_ENV: None})
    assert result.exit_code == 0
    bbl = next(line for line in result.output.splitlines() if line.startswith("BBL "))
    assert "2023-24, 2024-25" in bbl


@pytest.mark.needs_data
def test_stats_formats(run):
    table = run("stats", "-c", "BBL", "-s", "2024-25", "--table", "bowling")
    assert table.exit_code == 0, table.output
    green = next(line for line in table.output.splitlines() if " CJ Green " in line)
    assert "41.0" in green and "7.34" in green

    as_csv = run("stats", "-c", "bbl", "-s", "2024/25", "--format", "csv", "--table", "batting")
    assert as_csv.exit_code == 0
    text = as_csv.output.split("\n", 1)[1]
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(text))}
    assert (rows["C Connolly"]["runs"], rows["C Connolly"]["balls"]) == ("351", "267")

    as_json = run("stats", "-c", "big bash", "-s", "2024-25", "--format", "json")
    assert as_json.exit_code == 0
    doc = json.loads(as_json.output)
    assert set(doc) == {"batting", "bowling", "fielding", "league"}
    assert doc["league"]["format"] == "T20" and doc["league"]["balls_per_over"] == 6


@pytest.mark.needs_data
def test_stats_hundred_reads_as_100_ball(run):
    result = run("stats", "-c", "The Hundred", "-s", "2024", "--format", "json", "--table", "league")
    league = json.loads(result.output)["league"]
    assert (league["format"], league["balls_per_over"]) == ("100-ball", 5)


def test_stats_offline_from_the_committed_cache(monkeypatch):
    """A fresh clone: no CARDGEN_SOURCE, no network; the committed tables answer."""
    def no_network(*args, **kwargs):
        raise requests.ConnectionError("network disabled in this test")
    monkeypatch.setattr(requests.Session, "get", no_network)
    monkeypatch.setattr("cardgen.stats.load.build_season_stats",
                        lambda *a, **k: pytest.fail("rebuilt instead of reading stats_cache/"))
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--format", "json",
                                       "--table", "bowling"],
                                env={SOURCE_ENV: None, CACHE_ENV: None, "CARDGEN_CRICINFO": None})
    assert result.exit_code == 0, result.output
    green = next(r for r in json.loads(result.output)["bowling"] if r["player"] == "CJ Green")
    assert (green["overs"], green["runs_conceded"], green["wickets"]) == ("41.0", 301, 12)


@pytest.mark.needs_data
def test_uncached_season_without_network_is_one_line(run, monkeypatch):
    def no_network(*args, **kwargs):
        raise requests.ConnectionError("network disabled in this test")
    monkeypatch.setattr(requests.Session, "get", no_network)
    result = run("stats", "-c", "PSL", "-s", "2024", **{SOURCE_ENV: None})
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "could not download" in lines[0]


@pytest.mark.needs_data
def test_cache_show_and_clear(run, tmp_path, mirror):
    assert run("stats", "-c", "BBL", "-s", "2024-25", "--table", "league").exit_code == 0
    shown = run("cache")
    assert "BBL_2024-25" in shown.output and "complete" in shown.output
    assert f"from {mirror.resolve()}" in shown.output  # each entry names its source
    cleared = run("cache", "--clear")
    assert cleared.exit_code == 0 and "removed 1 cache entry" in cleared.output
    assert not (tmp_path / "stats_cache" / "tables").exists()
    after = run("cache").output
    assert "BBL_2024-25" not in after.split("bundled")[0]
    # the folder and its marker stay: the listing still says so (it printed the bare path, as if
    # something were there, where a cache never written says "(empty)") (helper-51)
    assert after.splitlines()[0] == f"cache: {tmp_path / 'stats_cache'} (empty)"
    assert "(empty)" not in shown.output


@pytest.mark.needs_data
def test_cache_clear_raw_only_keeps_tables(run, tmp_path):
    root = tmp_path / "stats_cache"
    Cache(root).put_raw(Cache.key("cricsheet", "x"), b"zip")
    assert run("stats", "-c", "BBL", "-s", "2024-25", "--table", "league").exit_code == 0
    result = run("cache", "--clear", "--raw-only")
    assert "removed 1 cache entry" in result.output
    ((entry, _),) = Cache(root).entries()
    assert not (root / "raw").exists() and Cache(root).is_complete(entry)


@pytest.mark.parametrize("args, said", [
    (["build", "--seed", "-1"], "Error: Invalid value for '--seed': -1 is not in the range x>=0"),
    (["nosuch"], "Error: No such command 'nosuch'"),
    (["build", "--paper", "a5"], "Error: Invalid value for '--paper': 'a5' is not one of"),
    (["--bogus"], "Error: No such option '--bogus'"),
    (["stats", "-c", "BBL", "-s", "2024-25", "--table", "nope"], "Error: Invalid value for '--table'"),
])
def test_a_usage_error_is_one_line_too(args, said):
    """Click prints a usage error on three lines ('Usage: ...', 'Try ... for help.', the error);
    every other error is one line that says what to do, so these are too (exit code 2 as before)."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(said) and "--help')" in lines[0], result.output


def test_cardgen_alone_still_shows_its_help():
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output and "Commands:" in result.output
