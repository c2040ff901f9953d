"""Any competition in a mirror, one command: `cardgen competitions --source`, user competitions
files and seasons whatever Cricsheet labelled them, on the shared mirror (issue 11)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import USER_FILE_ENV, get_competition
from cardgen.sources.fetch import SOURCE_ENV, match_files

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def run(tmp_path, mirror):
    env = {CACHE_ENV: str(tmp_path / "stats_cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None,
           USER_FILE_ENV: None}

    def invoke(*args: str, **extra_env: str | None):
        return CliRunner().invoke(main, list(args), env={**env, **extra_env})
    return invoke


@pytest.mark.needs_data
@pytest.mark.parametrize("code, season, n, labels", [
    ("PSL", "2021", 34, {"2020/21", "2021"}),  # one edition, two Cricsheet labels: read whole
    ("WPL", "2023", 22, {"2022/23"}),          # the 2023 edition, labelled 2022/23
    ("WPL", "2022-23", 22, {"2022/23"}),       # the label itself names the same edition
    ("SMASH-W", "2022-23", 30, {"2022/23"}),
])
def test_seasons_are_read_whole_from_the_mirror(mirror, code, season, n, labels):
    files = match_files(get_competition(code), season, str(mirror))
    assert len(files) == n
    assert {json.loads(f.raw)["info"]["season"] for f in files} == labels


@pytest.mark.needs_data
def test_competitions_lists_every_event_with_its_command(run, mirror, tmp_path):
    # a mirror holding an event the table does not know: WPL files renamed to another event
    own = tmp_path / "mirror"
    (own / "psl_2021").mkdir(parents=True)
    for path in sorted((mirror / "psl_2021").glob("*.json"))[:3]:
        shutil.copy(path, own / "psl_2021" / path.name)
    for path in sorted((mirror / "wpl_2023").glob("*.json"))[:2]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"]["event"]["name"] = "Tropical Women's League"
        (own / "misc").mkdir(exist_ok=True)
        (own / "misc" / path.name).write_text(json.dumps(doc), encoding="utf-8")
    result = run("competitions", "--source", str(own))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Pakistan Super League (men) 2021: 3 matches" in out
    assert f"cardgen build -c PSL -s 2021 --source {own}" in out
    assert "Tropical Women's League (women) 2023: 2 matches" in out and "not in the table" in out
    assert 'code = "TWL"' in out and 'sex = "women"' in out
    assert f"cardgen build -c TWL -s 2023 --source {own}" in out


@pytest.mark.needs_data
def test_every_season_listed_is_one_the_reader_finds(run, mirror, tmp_path):
    """What `competitions --source` lists is what a build reads: files outside the per-season
    folders (when there are some) and IT20 matches of the T20I table entry are not counted."""
    own = tmp_path / "mirror"
    (own / "ipl_2024").mkdir(parents=True)
    for path in sorted((mirror / "ipl_2024").glob("*.json"))[:3]:
        shutil.copy(path, own / "ipl_2024" / path.name)
    (own / "all").mkdir()
    for path in sorted((mirror / "ipl_2025").glob("*.json"))[:2]:  # beside a per-season folder: not read
        shutil.copy(path, own / "all" / path.name)
    # internationals (loose files): one T20I and one IT20, which the T20I entry does not read
    for kind, path in zip(("T20", "IT20"), sorted((mirror / "psl_2021").glob("*.json"))[:2]):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"].update(match_type=kind, team_type="international", event={"name": "A tour"})
        (own / f"{kind}-{path.name}").write_text(json.dumps(doc), encoding="utf-8")
    result = run("competitions", "--source", str(own))
    assert result.exit_code == 0, result.output
    listed = [(line.split()[3], line.split()[5]) for line in result.output.splitlines()
              if line.strip().startswith("cardgen build")]
    assert listed == [("IPL", "2024"), ("T20I", "2021")], result.output
    assert "Indian Premier League (men) 2024: 3 matches" in result.output
    assert "Men's T20 Internationals (men) 2021: 1 match" in result.output  # singular
    assert "1 matches" not in result.output
    for code, season in listed:  # and each builds from exactly those matches
        assert len(match_files(get_competition(code), season, str(own))) == (3 if code == "IPL" else 1)


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_competition_from_a_user_file_builds_a_kit(run, tmp_path):
    comps = tmp_path / "cardgen-competitions.toml"
    comps.write_text('[[competition]]\ncode = "WOMENS-IPL"\nname = "Women\'s IPL (my name)"\n'
                     'nation = "India"\nsex = "women"\nevent_names = ["Women\'s Premier League"]\n'
                     'mirror_folder = "wpl"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", "-c", "womens-ipl", "-s", "2023", "--out", str(out), "--no-images",
                 "--paper", "a4", **{USER_FILE_ENV: str(comps)})
    assert result.exit_code == 0, result.output
    assert "used 22 matches of WOMENS-IPL 2023 (Cricsheet label 2022/23)" in result.output
    kit = out / "WOMENS-IPL_2023"
    card_set = json.loads((kit / "card-set.json").read_text(encoding="utf-8"))
    assert card_set["competition"]["code"] == "WOMENS-IPL" and card_set["competition"]["sex"] == "women"
    assert len(card_set["teams"]) == 5
    assert any(p.suffix == ".pdf" for p in kit.iterdir())


def test_coverage_names_the_missing_league_matches():
    import pandas as pd
    from cardgen.stats.load import coverage, coverage_text
    matches = pd.read_csv(ROOT / "stats_cache" / "BBL_2024-25" / "matches.csv", dtype={"season": str})
    text = coverage_text(get_competition("BBL"), "2024-25", coverage(matches))
    # SOURCES.md: league matches 21 and 27 of BBL 2024-25 were washed out and have no file
    assert text.startswith("used 42 matches of BBL 2024-25 (Cricsheet label 2024/25)")
    assert "league matches 21, 27" in text


@pytest.mark.needs_data
def test_a_bad_user_file_is_one_line(run, tmp_path):
    comps = tmp_path / "c.toml"
    comps.write_text('[[competition]]\ncode = "X"\n', encoding="utf-8")
    result = run("build", "-c", "X", "-s", "2023", **{USER_FILE_ENV: str(comps)})
    assert result.exit_code != 0
    assert len(result.output.strip().splitlines()) == 1 and "needs a name" in result.output
    comps.write_text('[[competition]]\ncode = "X"\nname = "X League"\nteam_aliases = ["Old", "New"]\n',
                     encoding="utf-8")
    result = run("build", "-c", "X", "-s", "2023", **{USER_FILE_ENV: str(comps)})
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and "team_aliases" in result.output


def test_team_aliases_in_a_csv_cell():
    from cardgen.competitions import competition_from_entry
    comp = competition_from_entry({"code": "X", "name": "X League",
                                   "team_aliases": "Haier Peshawar Zalmi = Peshawar Zalmi; B Old=B"}, "row 2")
    assert comp.team_aliases == (("B Old", "B"), ("Haier Peshawar Zalmi", "Peshawar Zalmi"))


@pytest.mark.needs_data
def test_psl_later_editions_under_split_labels(mirror, tmp_path):
    """PSL 2024 is filed by Cricsheet as "2023/24": `-s 2024` and `-s 2023-24` both find it,
    and it is not mistaken for the 2023 edition."""
    own = tmp_path / "mirror" / "psl_2023-24"
    own.mkdir(parents=True)
    for path in sorted((mirror / "psl_2021").glob("*.json"))[:4]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"]["season"] = "2023/24"
        doc["info"]["dates"] = [d.replace("2021-", "2024-") for d in doc["info"]["dates"]]
        (own / path.name).write_text(json.dumps(doc), encoding="utf-8")
    psl = get_competition("PSL")
    assert len(match_files(psl, "2024", str(own.parent))) == 4
    assert len(match_files(psl, "2023-24", str(own.parent))) == 4
    with pytest.raises(Exception) as info:
        match_files(psl, "2023", str(own.parent))
    assert "2023" in str(info.value)


@pytest.mark.slow
@pytest.mark.needs_data
def test_build_psl_2021_uses_all_34_matches(run, tmp_path, pdf_words):
    result = run("build", "-c", "PSL", "-s", "2021", "--out", str(tmp_path / "out"), "--no-images",
                 "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert "used 34 matches of PSL 2021 (Cricsheet labels 2020/21 + 2021)" in result.output
    # the season tracker lists both legs (Karachi, then Abu Dhabi) through the final, which Multan
    # Sultans won by 47 runs against Peshawar Zalmi
    tracker = pdf_words(tmp_path / "out" / "PSL_2021" / "season-tracker-a4.pdf")
    assert tracker.count(" won by ") + tracker.count("No result") + tracker.count("(DLS)") >= 34
    assert "Final: Multan Sultans" in tracker and "Multan Sultans won by 47 runs" in tracker
    card_set = json.loads((tmp_path / "out" / "PSL_2021" / "card-set.json").read_text(encoding="utf-8"))
    assert {t["short_name"] for t in card_set["teams"]} == {"Islamabad", "Karachi", "Lahore", "Multan",
                                                            "Peshawar", "Quetta"}


@pytest.mark.needs_data
def test_the_listing_counts_each_match_once_and_offers_only_what_builds(run, mirror, tmp_path):
    """A mirror holding the same files twice counts each match once, as the reader does; an event
    of 10-over matches gets no build command (build refuses it); an event the table lacks whose
    season straddles New Year is suggested as a split season, one played in a year as calendar."""
    own = tmp_path / "mirror"
    for copy in ("a", "b"):  # the same six PSL files, twice
        (own / copy).mkdir(parents=True)
        for path in sorted((mirror / "psl_2021").glob("*.json"))[:6]:
            shutil.copy(path, own / copy / path.name)
    for path in sorted((mirror / "bbl_2024-25").glob("*.json")):  # labelled 2024/25, Dec to Jan
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"]["event"]["name"] = "Southern Bash"
        (own / "bash").mkdir(exist_ok=True)
        (own / "bash" / path.name).write_text(json.dumps(doc), encoding="utf-8")
    for path in sorted((mirror / "ipl_2024").glob("*.json"))[:4]:  # 10-over matches
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"].update(overs=10, event={"name": "Indus Ten"})
        (own / "ten").mkdir(exist_ok=True)
        (own / "ten" / path.name).write_text(json.dumps(doc), encoding="utf-8")
    result = run("competitions", "--source", str(own))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Pakistan Super League (men) 2021: 6 matches" in out            # not 12
    assert len(match_files(get_competition("PSL"), "2021", str(own))) == 6
    assert "Southern Bash (men) 2024-25:" in out and 'seasons = "split"' in out
    assert "cardgen build -c SB -s 2024-25" in out
    assert "Indus Ten (men) 2024: 4 matches; 10-over matches" in out
    assert "-c IT " not in out and "-c IT\n" not in out                     # no command for it
    assert 'seasons = "calendar"' not in out.split("Southern Bash")[1].split("then:")[0]


def test_coverage_says_one_match():
    from cardgen.stats.load import coverage_text
    text = coverage_text(get_competition("PSL"), "2021", {"matches": 1, "labels": ["2021"],
                                                         "missing_match_numbers": []})
    assert text.startswith("used 1 match of PSL 2021")
