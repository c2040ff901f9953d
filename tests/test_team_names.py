"""Team lines never cut a name (issue 11): short names from the vocabulary table, full names for
teams it does not know, on every bundled season and the extra seasons of the shared mirror."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from cardgen.calibrate.people import _teams_vocabulary, short_names
from cardgen.competitions import get_competition
from cardgen.sources.fetch import match_files

ROOT = Path(__file__).resolve().parent.parent


def _season_teams(mirror: Path) -> dict[str, list[str]]:
    seasons = {p.name: sorted(set(pd.read_csv(p / "lineups.csv")["team"]))
               for p in sorted((ROOT / "stats_cache").iterdir()) if (p / "lineups.csv").is_file()}
    for code, season in (("PSL", "2021"), ("WPL", "2023"), ("SMASH-W", "2022-23")):
        teams: set[str] = set()
        for f in match_files(get_competition(code), season, str(mirror)):
            teams |= set(json.loads(f.raw)["info"]["teams"])
        seasons[f"{code}_{season}"] = sorted(teams)
    return seasons


@pytest.mark.needs_data
def test_no_team_line_is_a_word_cut(mirror):
    vocabulary = _teams_vocabulary()
    seasons = _season_teams(mirror)
    assert len(seasons) >= 9
    for name, teams in seasons.items():
        shorts = short_names(teams)
        assert len(set(shorts.values())) == len(teams), name  # every team still told apart
        for team, short in shorts.items():
            place = short.split(" (")[0]
            words, full = place.split(), team.split()
            if place == team:
                continue  # printed whole (Canterbury, Central Districts)
            # anything shorter than the full name is a place the vocabulary table gives it,
            # never a run of the name's first words that stops inside the nickname
            assert vocabulary.get(team) == place, (name, team, short)
            cut = full[:len(words)] == words and len(words) >= 2
            assert not cut, (name, team, short)


@pytest.mark.parametrize("team, short", [
    ("Chennai Super Kings", "Chennai"), ("Kolkata Knight Riders", "Kolkata"),
    ("Royal Challengers Bengaluru", "Bengaluru"), ("Trent Rockets", "Nottingham"),
    ("Welsh Fire", "Cardiff"), ("MI Cape Town", "Cape Town"), ("Sunrisers Eastern Cape", "Eastern Cape"),
    ("Joburg Super Kings", "Joburg"), ("Guyana Amazon Warriors", "Guyana"),
    ("Trinbago Knight Riders", "Trinbago"), ("UP Warriorz", "UP"), ("Quetta Gladiators", "Quetta"),
])
def test_the_issues_cut_names(team, short):
    assert short_names([team, "Somebody Else"])[team] == short


def test_shared_cities_and_unknown_teams():
    bbl = short_names(["Sydney Sixers", "Sydney Thunder", "Perth Scorchers"])
    assert bbl == {"Sydney Sixers": "Sydney (S)", "Sydney Thunder": "Sydney (T)", "Perth Scorchers": "Perth"}
    # unknown to the table: the full name, however long (the card fits it to the line)
    assert short_names(["Desert Vipers", "Surrey", "New Zealand", "St Kitts and Nevis Patriots"]) == {
        "Desert Vipers": "Desert Vipers", "Surrey": "Surrey", "New Zealand": "New Zealand",
        "St Kitts and Nevis Patriots": "St Kitts & Nevis"}
    # same place and same initial: both keep their full names rather than print a riddle
    assert short_names(["Alpha Sharks", "Alpha Stars"], {"Alpha Sharks": "Alpha", "Alpha Stars": "Alpha"}) \
        == {"Alpha Sharks": "Alpha Sharks", "Alpha Stars": "Alpha Stars"}


def test_the_hundred_prints_home_cities_in_the_designer_s_style():
    """Issue 42: the Hundred's lines read "Northern", "Southern", "Oval"; a city, as "Sydney (T)",
    with the two London sides told apart by their nicknames' initials."""
    hundred = ["Birmingham Phoenix", "London Spirit", "Manchester Originals", "Northern Superchargers",
               "Oval Invincibles", "Southern Brave", "Trent Rockets", "Welsh Fire"]
    assert short_names(hundred) == {
        "Birmingham Phoenix": "Birmingham", "London Spirit": "London (S)", "Manchester Originals": "Manchester",
        "Northern Superchargers": "Leeds", "Oval Invincibles": "London (I)", "Southern Brave": "Southampton",
        "Trent Rockets": "Nottingham", "Welsh Fire": "Cardiff"}


@pytest.mark.needs_data
def test_every_team_of_the_mirror_has_its_own_colour_and_readable_text(mirror):
    """Every team of the mirror's seasons takes its colour from the table of real teams (not the
    fallback palette): Chennai Super Kings yellow, with black text on the bowler's band (white
    would read at 1.5:1); every band's text reads at 4:1 or better and a card back's team-coloured
    text at 4.5:1 (WCAG AA) on its pale band."""
    from cardgen.render.card import contrast, ink_of, team_colours, text_on
    from cardgen.render.layout import load_layout, mix
    band_white = load_layout("card")["back"]["light"]["band_white"]
    tint = load_layout("card")["band"]["striker_tint"]
    palette = set(load_layout("teams")["palette"])
    for name, teams in _season_teams(mirror).items():
        colours = team_colours(teams)
        for team, colour in colours.items():
            assert colour not in palette, (name, team)
            for band in (colour, mix(colour, 1 - tint)):  # bowler's band, striker's tint
                assert contrast(text_on(band), band) >= 4.0, (team, band)
            back = mix(colour, band_white)
            assert contrast(ink_of(colour, on=back), back) >= 4.5, team
    csk = team_colours(["Chennai Super Kings"])["Chennai Super Kings"]
    red, green, blue = (int(csk[i:i + 2], 16) for i in (1, 3, 5))
    assert red > 200 and green > 170 and blue < 80  # yellow
    assert text_on(csk) == "#000000" and contrast("#ffffff", csk) < 2
