"""One match counted once (issue 40, case 4).

`copy-of-1443060.json` beside `1443060.json` (what a second download saves as) raised
MT Renshaw's innings 9 -> 10 and runs 280 -> 298 on his card, with no warning. A match is
keyed by its Cricsheet identity: the file's match id, and the match's own date, teams, event
and match number; a second copy is skipped with a warning naming both files (--strict stops).
"""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import EXIT_USAGE, SkippedInput
from cardgen.sources.fetch import DUPLICATES_NAMED, match_files, match_identity
from cardgen.stats.load import load_season_data

BBL = get_competition("BBL")
RENSHAW = "218d4d78"


def _renshaw(root: Path, tmp_path: Path, *extra: str) -> tuple[int, str, list[str]]:
    """(exit code, Renshaw's batting row as CSV, warnings) of `cardgen stats` on a mirror."""
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--source", str(root),
                                       "--table", "batting", "--format", "csv", *extra],
                                env={CACHE_ENV: str(tmp_path / "cache" / str(len(extra))),
                                     "CARDGEN_CRICINFO": None})
    lines = result.output.splitlines()
    row = next((line for line in lines if line.startswith(RENSHAW)), "")
    return result.exit_code, row, [line for line in lines if line.startswith(("warning: ", "Error: "))]


@pytest.fixture
def copied(mirror: Path, tmp_path: Path) -> Path:
    root = tmp_path / "mirror"
    shutil.copytree(mirror / "bbl_2024-25", root / "bbl_2024-25")
    return root


def test_a_second_download_of_a_match_is_counted_once(copied: Path, mirror: Path, tmp_path: Path):
    season = copied / "bbl_2024-25"
    code, clean_row, warned = _renshaw(copied, tmp_path)
    assert code == 0 and not warned
    assert clean_row.split(",")[3:7:3] == ["9", "280"]  # innings, runs: as the issue measured
    shutil.copy(season / "1443060.json", season / "copy-of-1443060.json")
    code, row, warned = _renshaw(copied, tmp_path / "again")
    assert code == 0 and row == clean_row  # not 10 innings and 298 runs
    assert warned == [f"warning: match file {season / 'copy-of-1443060.json'} holds the same match as "
                      f"{season / '1443060.json'} (2024-12-18, Melbourne Stars v Brisbane Heat, Big Bash "
                      f"League, match 4); skipped (--strict stops instead)"]
    code, _, warned = _renshaw(copied, tmp_path / "strict", "--strict")
    assert code == EXIT_USAGE and len(warned) == 1 and warned[0].startswith(
        f"Error: match file {season / 'copy-of-1443060.json'} holds the same match as ")
    assert "skipped" not in warned[0]


def test_a_copy_under_another_name_with_its_fields_reordered_is_still_the_same_match(copied: Path):
    """The identity is read from the match's info, not the file's bytes: the same match saved
    with other whitespace (or by another tool) is still one match."""
    import json
    season = copied / "bbl_2024-25"
    doc = json.loads((season / "1443060.json").read_text(encoding="utf-8"))
    doc["info"]["teams"] = doc["info"]["teams"][::-1]
    (season / "1443060 (1).json").write_text(json.dumps(doc, indent=None), encoding="utf-8")
    with pytest.warns(SkippedInput, match=r"1443060 \(1\).json holds the same match as .*1443060.json"):
        files = match_files(BBL, "2024-25", str(copied))
    assert len(files) == 42 and "1443060 (1)" not in {f.match_id for f in files}


def test_the_season_in_its_folder_and_its_zip_names_five_copies_then_counts_the_rest(copied: Path, mirror: Path):
    """A mirror holding the season twice (its folder and Cricsheet's zip): each match once, the
    first copies (the folder's) kept; five second copies named, then one line for the others."""
    paths = sorted((mirror / "bbl_2024-25").glob("*.json"))
    with zipfile.ZipFile(copied / BBL.download_file, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in paths:
            zf.write(path, path.name)
    with pytest.warns(SkippedInput) as caught:
        data = load_season_data(BBL, "2024-25", str(copied))
    messages = [str(w.message) for w in caught]
    assert len(data.matches) == len(paths) == 42
    assert len(messages) == DUPLICATES_NAMED + 1
    assert messages[0] == (f"match file {paths[0].name} in {copied / BBL.download_file} holds the same match "
                           f"as {copied / 'bbl_2024-25' / paths[0].name} ({_described(paths[0])}); "
                           f"skipped (--strict stops instead)")
    assert messages[-1] == f"and {42 - DUPLICATES_NAMED} more second copies of matches already read; skipped"


def _described(path: Path) -> str:
    import json
    info = json.loads(path.read_text(encoding="utf-8"))["info"]
    return (f"{info['dates'][0]}, {' v '.join(info['teams'])}, {info['event']['name']}"
            + (f", match {info['event']['match_number']}" if "match_number" in info["event"] else ""))


def test_two_matches_on_one_day_between_the_same_sides_are_two_matches(copied: Path):
    """Match numbers keep a double-header apart; the identity is not just date and teams."""
    import json
    season = copied / "bbl_2024-25"
    doc = json.loads((season / "1443060.json").read_text(encoding="utf-8"))
    doc["info"]["event"]["match_number"] = 99
    (season / "9999999.json").write_text(json.dumps(doc), encoding="utf-8")
    assert match_identity(doc["info"]) != match_identity(
        json.loads((season / "1443060.json").read_text(encoding="utf-8"))["info"])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", SkippedInput)
        assert len(match_files(BBL, "2024-25", str(copied))) == 43


def test_competitions_counts_a_renamed_copy_once(copied: Path, tmp_path: Path):
    season = copied / "bbl_2024-25"
    shutil.copy(season / "1443060.json", season / "copy-of-1443060.json")
    result = CliRunner().invoke(main, ["competitions", "--source", str(copied)],
                                env={CACHE_ENV: str(tmp_path / "cache")})
    assert result.exit_code == 0 and "Big Bash League (men) 2024-25: 42 matches" in result.output
