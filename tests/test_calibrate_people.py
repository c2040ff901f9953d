"""Printed batting roles (cardgen.calibrate.people.batting_role): the season beats a career label."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cardgen.calibrate.people import batting_role
from conftest import _shipped_rule_set

PLAYERS = Path(__file__).resolve().parents[2] / "shared" / "data" / "players"

MIDDLE_ORDER = {"playing_role": "Middle order Batter"}


def test_a_keeper_is_the_wicketkeeper_whatever_the_attributes_say():
    # Yastika Bhatia, WPL 2023: "Middle order Batter" in the attributes; kept and opened
    assert batting_role(MIDDLE_ORDER, 1, 0, 0, 250, kept=True) == "Wicketkeeper"


@pytest.mark.parametrize("position, role", [(1, "Opening"), (2, "Opening"), (3, "Top"), (6, "Middle")])
def test_a_batters_place_in_the_order_is_the_seasons(position, role):
    assert batting_role(MIDDLE_ORDER, position, 0, 0, 200, kept=False) == role


@pytest.mark.parametrize("attrs, role", [({"playing_role": "Bowling Allrounder"}, "All-Rounder"),
                                         ({"playing_role": "Bowler"}, "*")])
def test_all_rounders_and_bowlers_keep_their_attribute(attrs, role):
    # one season's figures show these less well than a career: a bowler sent in at 3 stays `*`
    assert batting_role(attrs, 3, 0, 0, 20, kept=False) == role


def test_no_attributes_no_order_known_is_a_tail_ender():
    assert batting_role(None, None, 0, 0, 0, kept=False) == "*"


@pytest.mark.needs_data
@pytest.mark.parametrize("season, players_file, name, attribute, role", [
    ("IPL_2024", "ipl_2024_players.csv", "Rohit Sharma", "Top order Batter", "Opening"),  # opened
    ("IPL_2024", "ipl_2024_players.csv", "KL Rahul", "Opening Batter", "Wicketkeeper"),   # kept
    ("BBL_2024-25", "bbl_2024-25_players.csv", "Usman Khawaja", "Top order Batter", "Opening"),
])
def test_shipped_cards_print_the_seasons_role(season, players_file, name, attribute, role):
    card_set = _shipped_rule_set(season)
    cards = [c for c in card_set["cards"] if c["kind"] == "striker" and c["player"]["name"] == name]
    assert cards and all(c["player"]["batting_role"] == role for c in cards), (name, cards[:1])
    # the attributes said otherwise: the season's keeping and batting order decided
    with open(PLAYERS / players_file, newline="", encoding="utf-8") as f:
        labels = {r["cricsheet_id"]: r["playing_role"] for r in csv.DictReader(f)}
    assert labels[cards[0]["player"]["id"]] == attribute
