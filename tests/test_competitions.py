"""The competitions table: codes, aliases, formats and season naming."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.competitions import (COMPETITIONS, USER_FILE_ENV, CompetitionsFileError,
                                  cricsheet_season, edition_of_label, get_competition, known_codes,
                                  match_season, normalise_season, read_competitions_file,
                                  season_label, set_name)
from cardgen.errors import UnknownCompetition, UnknownSeason

REQUIRED = {"BBL", "WBBL", "HUNDRED", "HUNDRED-W", "SMASH", "SMASH-W", "IPL", "PSL", "CPL", "SA20",
            "BLAST", "T20I", "WPL", "ILT20", "MLC", "T20I-W", "T20WC", "T20WC-W"}


def test_required_codes_are_present_and_unique():
    assert set(known_codes()) >= REQUIRED
    assert len(known_codes()) == len(set(known_codes()))


@pytest.mark.parametrize("text, code", [("bbl", "BBL"), ("The Hundred", "HUNDRED"),
                                        (" the hundred women ", "HUNDRED-W"), ("Super Smash", "SMASH"),
                                        ("indian premier league", "IPL"), ("t20s", "T20I")])
def test_aliases_are_case_insensitive(text, code):
    assert get_competition(text).code == code


def test_unknown_code_names_the_valid_ones():
    with pytest.raises(UnknownCompetition) as info:
        get_competition("Ashes")
    message = str(info.value)
    assert "\n" not in message and all(code in message for code in REQUIRED)


def test_formats():
    hundred = get_competition("HUNDRED")
    assert (hundred.format, hundred.balls_per_over, hundred.balls_per_innings) == ("100-ball", 5, 100)
    bbl = get_competition("BBL")
    assert (bbl.format, bbl.balls_per_over, bbl.balls_per_innings) == ("T20", 6, 120)
    assert bbl.code_label == "Australia Men's Pro T20 Cricket"  # line A of the rules' example card
    assert get_competition("HUNDRED-W").code_label == "England Women's Pro 100-Ball Cricket"
    assert {c.format for c in COMPETITIONS} == {"T20", "100-ball"}


@pytest.mark.parametrize("code, given, cli, cricsheet", [
    ("BBL", "2024-25", "2024-25", "2024/25"), ("BBL", "2024/25", "2024-25", "2024/25"),
    ("BBL", "2024-2025", "2024-25", "2024/25"), ("BBL", "1999-00", "1999-00", "1999/00"),
    ("IPL", "2025", "2025", "2025"), ("HUNDRED", " 2024 ", "2024", "2024")])
def test_season_naming(code, given, cli, cricsheet):
    comp = get_competition(code)
    assert normalise_season(comp, given) == cli
    assert cricsheet_season(comp, given) == cricsheet


@pytest.mark.parametrize("code, bad", [("BBL", "2024"), ("IPL", "2024-25"), ("HUNDRED", "2023/24"),
                                       ("BBL", "2024-26"),
                                       ("BBL", "24-25"), ("IPL", "next year"), ("IPL", "")])
def test_bad_seasons(code, bad):
    with pytest.raises(UnknownSeason) as info:
        normalise_season(get_competition(code), bad)
    assert "\n" not in str(info.value)


def test_set_name_and_label():
    bbl = get_competition("BBL")
    assert set_name(bbl, "2024/25") == "BBL_2024-25"
    assert season_label(bbl, "2024-25") == "2024-2025"  # line C of the rules' example card
    assert season_label(get_competition("HUNDRED"), "2024") == "2024"


@pytest.mark.parametrize("code, label, dates, season", [
    ("PSL", "2023/24", ["2024-02-17", "2024-03-18"], "2024"),  # Cricsheet's label for PSL 2024
    ("PSL", "2022/23", ["2023-02-13"], "2023"),
    ("PSL", "2020/21", ["2021-02-20", "2021-03-03"], "2021"),  # the Karachi leg of PSL 2021...
    ("PSL", "2021", ["2021-06-09", "2021-06-24"], "2021"),     # ...and the Abu Dhabi leg
    ("IPL", "2020/21", ["2020-09-19", "2020-11-10"], "2020"),  # IPL 2020, played in the UAE in 2020
    ("WPL", "2022/23", ["2023-03-04"], "2023"),
    ("BPL", "2019/20", ["2019-12-11", "2020-01-17"], "2020"),  # straddles New Year: the final's year
    ("BBL", "2024/25", ["2024-12-15", "2025-01-27"], "2024-25"),
    ("SMASH", "2024", ["2024-12-27"], "2024-25"),  # a one-year label in a split-season league
    ("SMASH", "2024", ["2024-02-10"], "2023-24"),
    ("T20WC", "2022/23", ["2022-10-16", "2022-11-13"], "2022"),  # played in Australia in 2022
])
def test_editions_whatever_the_label(code, label, dates, season):
    assert edition_of_label(get_competition(code), label, dates) == season


@pytest.mark.parametrize("code, given, season", [("PSL", "2023-24", "2024"), ("PSL", "2023/24", "2024"),
                                                 ("WPL", "2022-23", "2023"), ("PSL", "2024", "2024")])
def test_a_split_label_names_a_calendar_leagues_edition(code, given, season):
    assert normalise_season(get_competition(code), given) == season


def test_t20is_are_counted_by_calendar_year():
    t20i = get_competition("T20I")
    assert match_season(t20i, "2021/22", "2022-01-15", ["2021-11-01", "2022-01-15"]) == "2022"
    assert match_season(t20i, "2021/22", "2021-11-01", ["2021-11-01", "2022-01-15"]) == "2021"


@pytest.mark.parametrize("text, code", [("WPL", "WPL"), ("Women's Premier League", "WPL"),
                                        ("ilt20", "ILT20"), ("major league cricket", "MLC"),
                                        ("women's t20is", "T20I-W"), ("T20 World Cup", "T20WC"),
                                        ("ICC Women's T20 World Cup", "T20WC-W")])
def test_new_competitions(text, code):
    assert get_competition(text).code == code
    assert get_competition("WPL").sex == "women" and get_competition("T20WC-W").team_type == "international"


TOML = """
[[competition]]
code = "lpl2"
name = "Lanka Premier League (my copy)"
nation = "Sri Lanka"
event_names = ["Lanka Premier League"]
aliases = ["my lpl"]
split_labels = true

[[competition]]
code = "WCPL"
name = "Women's Caribbean Premier League"
sex = "women"
seasons = "calendar"
"""


def test_user_file_toml(tmp_path, monkeypatch):
    path = tmp_path / "comps.toml"
    path.write_text(TOML, encoding="utf-8")
    monkeypatch.setenv(USER_FILE_ENV, str(path))
    lpl = get_competition("my lpl")
    assert (lpl.code, lpl.nation, lpl.sex, lpl.format, lpl.split_season) == ("LPL2", "Sri Lanka", "men", "T20", False)
    assert lpl.event_names == ("Lanka Premier League",) and lpl.mirror_folder == "lpl2"
    assert lpl.split_labels and normalise_season(lpl, "2022/23") == "2023"
    wcpl = get_competition("WCPL")
    assert wcpl.gender == "female" and wcpl.event_names == ("Women's Caribbean Premier League",)
    assert {"LPL2", "WCPL", "BBL"} <= set(known_codes())
    monkeypatch.delenv(USER_FILE_ENV)
    with pytest.raises(UnknownCompetition):
        get_competition("LPL2")


def test_user_file_csv(tmp_path):
    path = tmp_path / "comps.csv"
    path.write_text("code,name,sex,format,event_names,seasons\n"
                    "HND-W,Hundred women,women,100-ball,The Hundred Women's Competition,calendar\n",
                    encoding="utf-8")
    (comp,) = read_competitions_file(path)
    assert (comp.code, comp.balls_per_over, comp.gender) == ("HND-W", 5, "female")
    assert not comp.split_labels


@pytest.mark.parametrize("text, words", [
    ('[[competition]]\ncode = "X"\n', "needs a name"),
    ('[[competition]]\ncode = "X"\nname = "X"\nsex = "mixed"\n', "sex must be"),
    ('[[competition]]\ncode = "X"\nname = "X"\nformat = "ODI"\n', "format must be"),
    ('[[competition]]\ncode = "X"\nname = "X"\ncolour = "red"\n', "unknown field"),
    ('[[competition]\n', "not valid TOML"),
    ('', "defines no competition"),
])
def test_bad_user_files_are_one_line(tmp_path, text, words):
    path = tmp_path / "comps.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CompetitionsFileError) as info:
        read_competitions_file(path)
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow  # a child process: the CLI's imports take a second or more
def test_a_competitions_file_that_is_a_fifo_is_one_line_not_a_hang(tmp_path):
    """A FIFO in the league file's place blocked every command's first read forever (issue 40:
    hostile environments). A child process with a time limit, so a hang fails the test."""
    os.mkfifo(tmp_path / "comps.toml")
    env = {**os.environ, USER_FILE_ENV: str(tmp_path / "comps.toml"),
           "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    run = subprocess.run([sys.executable, "-m", "cardgen", "competitions"], capture_output=True,
                         text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"Error: cannot read competitions file: {tmp_path / 'comps.toml'} is a FIFO, not a regular "
        f"file; give a TOML or CSV file (env {USER_FILE_ENV})"]
