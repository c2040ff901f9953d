"""Damaged match files: every one is read or skipped with a one-line warning, never a traceback.

A mirror with one truncated file, a folder named like a match file and a dangling link still
gives its season (`--strict` makes the first problem the error); a hypothesis test feeds randomly
damaged Cricsheet JSON (truncated, wrong types, missing keys) to the parser and the tables.
"""
from __future__ import annotations

import json
import math
import shutil
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import EXIT_USAGE, ParseError, SkippedInput
from cardgen.sources.cricsheet import ParsedMatch, combine, parse_match
from cardgen.sources.fetch import MatchFile
from cardgen.stats.load import load_season_data
from cardgen.stats.tables import build_stats

pytestmark = pytest.mark.needs_data

BBL = get_competition("BBL")


@pytest.fixture
def damaged_mirror(mirror: Path, tmp_path: Path) -> tuple[Path, int]:
    """BBL 2024-25 with one match file cut in half, a folder `dir.json` and a dangling link."""
    root = tmp_path / "mirror"
    season = root / "bbl_2024-25"
    shutil.copytree(mirror / "bbl_2024-25", season)
    files = sorted(season.glob("*.json"))
    victim = files[0]
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    (season / "dir.json").mkdir()
    (season / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    return root, len(files)


def test_one_damaged_file_is_skipped_with_a_warning(damaged_mirror, tmp_path: Path):
    root, n_files = damaged_mirror
    with pytest.warns(SkippedInput) as caught:
        data = load_season_data(BBL, "2024-25", str(root))
    messages = [str(w.message) for w in caught]
    assert len(messages) == 3 and all("\n" not in m and m.endswith("skipped (--strict stops instead)")
                                      for m in messages), messages
    assert any("not valid JSON" in m for m in messages)
    assert any("dir.json cannot be read" in m for m in messages)
    assert any("dangling.json cannot be read" in m for m in messages)
    assert len(data.matches) == n_files - 1  # every other match is there


def test_cli_skips_with_one_line_per_file_and_strict_stops(damaged_mirror, tmp_path: Path):
    root, _ = damaged_mirror
    env = {CACHE_ENV: str(tmp_path / "cache"), "CARDGEN_CRICINFO": None}
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--source", str(root), "--table", "league",
            "--format", "json"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warned) == 3 and "Traceback" not in result.output
    strict = CliRunner().invoke(main, [*args, "--strict"], env={**env, CACHE_ENV: str(tmp_path / "c2")})
    assert strict.exit_code == EXIT_USAGE and "Traceback" not in strict.output
    lines = strict.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: match file") and "skipped" not in lines[0]
    env_strict = CliRunner().invoke(main, args, env={**env, CACHE_ENV: str(tmp_path / "c3"),
                                                      "CARDGEN_STRICT": "1"})
    assert env_strict.exit_code == EXIT_USAGE


def test_strict_after_a_lenient_run_reads_the_files_again(damaged_mirror, tmp_path: Path):
    """The season's tables cached by a lenient run leave the damaged file out and do not remember
    it: a --strict run on the same mirror and cache read them and passed. It reads the files
    again now, and stops at the damaged one; a lenient run afterwards still has its tables."""
    root, _ = damaged_mirror
    env = {CACHE_ENV: str(tmp_path / "cache"), "CARDGEN_CRICINFO": None}
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--source", str(root), "--table", "league"]
    assert CliRunner().invoke(main, args, env=env).exit_code == 0
    strict = CliRunner().invoke(main, [*args, "--strict"], env=env)
    assert strict.exit_code == EXIT_USAGE and "Traceback" not in strict.output, strict.output
    assert strict.output.strip().splitlines()[-1].startswith("Error: match file")
    again = CliRunner().invoke(main, args, env=env)
    assert again.exit_code == 0 and not any(line.startswith("warning: ") for line in again.output.splitlines())


def test_a_damaged_zip_in_a_mirror_is_skipped_with_a_warning(mirror: Path, tmp_path: Path):
    """A garbage Cricsheet zip beside the season's folder does not stop the season (strict: it does)."""
    root = tmp_path / "mirror"
    shutil.copytree(mirror / "bbl_2024-25", root / "bbl_2024-25")
    (root / BBL.download_file).write_bytes(b"<html>not a zip</html>")
    with pytest.warns(SkippedInput) as caught:
        data = load_season_data(BBL, "2024-25", str(root))
    (message,) = [str(w.message) for w in caught]
    assert f"{BBL.download_file}: not a readable zip" in message and "\n" not in message
    assert len(data.matches) == len(list((root / "bbl_2024-25").glob("*.json")))
    env = {CACHE_ENV: str(tmp_path / "cache"), "CARDGEN_CRICINFO": None}
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--source", str(root), "--table", "league"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert sum(line.startswith("warning: ") for line in result.output.splitlines()) == 1
    strict = CliRunner().invoke(main, [*args, "--strict"], env={**env, CACHE_ENV: str(tmp_path / "c2")})
    assert strict.exit_code == EXIT_USAGE and "not a readable zip" in strict.output


def test_a_damaged_member_of_a_mirror_zip_is_skipped_alone(mirror: Path, tmp_path: Path):
    """A zip whose one match file is corrupt (bad CRC) still gives every other match in it."""
    paths = sorted((mirror / "bbl_2024-25").glob("*.json"))
    root = tmp_path / "mirror"
    root.mkdir()
    with zipfile.ZipFile(root / BBL.download_file, "w", zipfile.ZIP_STORED) as zf:
        for path in paths:
            zf.writestr(path.name, path.read_bytes())
    victim = paths[3].read_bytes()
    data = (root / BBL.download_file).read_bytes()
    at = data.index(victim) + len(victim) // 2  # stored, so the member's bytes are in the zip as is
    (root / BBL.download_file).write_bytes(data[:at] + b"#" + data[at + 1:])
    with pytest.warns(SkippedInput) as caught:
        season = load_season_data(BBL, "2024-25", str(root))
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(f"match file {paths[3].name} in ") and "cannot be read" in message
    assert len(season.matches) == len(paths) - 1


def test_a_season_with_no_readable_file_is_one_error(tmp_path: Path, mirror: Path):
    season = tmp_path / "bbl_2024-25"
    season.mkdir()
    for path in sorted((mirror / "bbl_2024-25").glob("*.json"))[:2]:
        (season / path.name).write_bytes(path.read_bytes()[:100])
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--source", str(tmp_path)],
                                env={CACHE_ENV: str(tmp_path / "cache")})
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error: BBL 2024-25")


# --- randomly damaged Cricsheet JSON ----------------------------------------------------------

def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) into a JSON document."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, prefix + (i,))
    return out


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=8)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=6)


@st.composite
def damaged(draw: st.DrawFn, doc: dict, raw: bytes) -> bytes:
    """One real match file, damaged one to three times: cut short, a key removed, a value retyped."""
    kind = draw(st.sampled_from(["truncate", "mutate"]))
    if kind == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        if not path:
            doc = draw(JSON_VALUES)
            continue
        parent = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            if draw(st.booleans()) and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier damage moved this path: nothing to do
    return json.dumps(doc, allow_nan=True).encode()


class RealMatch(tuple):
    def __repr__(self) -> str:  # keep hypothesis' reports short
        return f"RealMatch({self[2]})"


@pytest.fixture(scope="module")
def real_match(mirror: Path) -> RealMatch:
    # a short match (fewer paths, faster examples) that is still a full T20 file
    path = min(sorted((mirror / "bbl_2024-25").glob("*.json"))[:20], key=lambda p: p.stat().st_size)
    raw = path.read_bytes()
    return RealMatch((json.loads(raw), raw, path.stem))


@pytest.fixture(scope="module")
def good_season(mirror: Path) -> list[MatchFile]:
    return [MatchFile(p.stem, p.read_bytes()) for p in sorted((mirror / "bbl_2024-25").glob("*.json"))[:2]]


@pytest.fixture(scope="module")
def attributes(good_season) -> pd.DataFrame:
    from cardgen.sources.players import default_players_dir, load_attributes
    data = load_season_data(BBL, "2024-25", files=good_season)
    return load_attributes(default_players_dir(None), sorted(set(data.players["player_id"])))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_json_is_read_or_a_one_line_parse_error(real_match, data):
    doc, raw, match_id = real_match
    broken = data.draw(damaged(doc, raw), label="damaged file")
    try:
        parsed = parse_match(broken, "damaged")
    except ParseError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("match damaged"), str(exc)
        return
    assert isinstance(parsed, ParsedMatch)
    for row in parsed.deliveries:  # whatever was read is of the types the tables expect
        assert all(isinstance(row[k], int) and not isinstance(row[k], bool)
                   for k in ("over", "runs_batter", "runs_extras", "runs_total", "wides", "noballs"))
        assert isinstance(row["batter"], str) and isinstance(row["bowler"], str)
    assert all(isinstance(p["player_id"], str) for p in parsed.players), parsed.players
    combine([parsed])


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_file_among_good_ones_gives_tables_or_one_warning(real_match, good_season, attributes, data):
    doc, raw, match_id = real_match
    files = [*good_season, MatchFile("damaged", data.draw(damaged(doc, raw)))]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        season = load_season_data(BBL, "2024-25", files=files)
    skipped = [w for w in caught if issubclass(w.category, SkippedInput)]
    assert len(skipped) <= 1 and all("\n" not in str(w.message) for w in skipped)
    assert len(season.matches) == len(files) - len(skipped)
    stats = build_stats(season, BBL, attributes)  # the tables are built from whatever was read
    assert len(stats.batting) and math.isfinite(float(stats.league["average_first_innings_total"] or 0))
