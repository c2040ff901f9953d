"""Dot faces on the cards that ship: every player who had dot balls shows some, and a bowler's
dot faces follow his real dot share (calibrate.dot_faces).

Read from the shipped sets (every bundled season, with the rule and --classic) and the
committed tables, not calibrated, so every season is checked at no cost. Before the dot split
was chosen, 23 qualified bowler cards of the six rule sets had no dot face (Harshal Patel,
IPL 2024: 294 balls, 86 of them dots).
"""
from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from scipy.stats import spearmanr

from cardgen.calibrate.model import CARD_INDEX, chart_to_slots, card_where
from cardgen.competitions import get_competition
from cardgen.stats.load import season_stats
from test_calibrate_targets import _shipped_sets

QUALIFIED = 60
SHIPPED = _shipped_sets()


def _real_dots(card_set: dict) -> dict[tuple[str, str, str], tuple[int, int]]:
    """(kind, player id, team) -> (real dots, real balls) from the season's committed tables."""
    return _season_dots(card_set["competition"]["code"], card_set["season"])


@cache  # each season's tables are read once (a rule set and a classic set each)
def _season_dots(code: str, season: str) -> dict[tuple[str, str, str], tuple[int, int]]:
    stats = season_stats(get_competition(code), season)
    out = {}
    for r in stats.batting.itertuples():
        out["striker", r.player_id, r.team] = (int(r.dots), int(r.balls))
    for r in stats.bowling.itertuples():
        out["bowler", r.player_id, r.team] = (int(r.dots), int(r.legal_balls))
    return out


def _dot_faces(card: dict) -> int:
    return int(chart_to_slots(card["chart"], card_where(card))[CARD_INDEX["0"]])


@pytest.mark.parametrize("name,card_set", SHIPPED, ids=[n for n, _ in SHIPPED])
def test_every_card_whose_player_had_dots_shows_a_dot_face(name, card_set):
    real = _real_dots(card_set)
    missing = []
    for c in card_set["cards"]:
        dots, balls = real[c["kind"], c["player"]["id"], c["team"]]
        if dots > 0 and _dot_faces(c) == 0:
            missing.append((c["kind"], c["player"]["name"], balls))
    assert not missing, missing


@pytest.mark.parametrize("name,card_set", SHIPPED, ids=[n for n, _ in SHIPPED])
def test_bowler_dot_faces_follow_real_dot_shares(name, card_set):
    """Qualified bowlers ranked by dot faces and by real dot share agree (Spearman >= 0.6: the
    cards' W and F slots carry dots too, so a wicket-taker or a wide bowler shows fewer dot
    faces than his share alone would; 0.73-0.89 measured over the twelve sets), and the bowlers
    above the league's dot share show more dot faces on average than those below (15-23 more
    measured). Both held before the floor too: this guards that lifting the cards with none
    keeps the bowlers in their order."""
    real = _real_dots(card_set)
    league = card_set["league"]
    league_share = league["outcomes_faced"]["0"] / league["legal_balls"]
    faces, shares = [], []
    for c in card_set["cards"]:
        dots, balls = real[c["kind"], c["player"]["id"], c["team"]]
        if c["kind"] == "bowler" and balls >= QUALIFIED:
            faces.append(_dot_faces(c))
            shares.append(dots / balls)
    faces, shares = np.array(faces), np.array(shares)
    assert spearmanr(faces, shares)[0] >= 0.6
    assert faces[shares > league_share].mean() > faces[shares < league_share].mean() + 5
