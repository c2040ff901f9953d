"""The competitions table: codes, aliases, formats and season naming."""
from __future__ import annotations

import pytest

from cardgen.competitions import (COMPETITIONS, cricsheet_season, get_competition, known_codes,
                                  normalise_season, season_label, set_name)
from cardgen.errors import UnknownCompetition, UnknownSeason

REQUIRED = {"BBL", "WBBL", "HUNDRED", "HUNDRED-W", "SMASH", "SMASH-W", "IPL", "PSL", "CPL", "SA20",
            "BLAST", "T20I"}


def test_required_codes_are_present_and_unique():
    assert REQUIRED <= set(known_codes())
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


@pytest.mark.parametrize("code, bad", [("BBL", "2024"), ("IPL", "2024-25"), ("BBL", "2024-26"),
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
