"""Attributes for every player of a season, and who kept wicket, on the real data."""
from __future__ import annotations

import pandas as pd
import pytest

from cardgen.stats.attributes import batting_role


def _one(attrs: pd.DataFrame, player: str) -> pd.Series:
    rows = attrs[attrs["player"] == player]
    assert len(rows) == 1, player
    return rows.iloc[0]


def _kept(stats, player: str, team: str) -> tuple[int, int]:
    """(matches kept, matches played) for a player and team from the line-ups."""
    mine = stats.lineups[(stats.lineups["player"] == player) & (stats.lineups["team"] == team)]
    return int(mine["keeper"].sum()), len(mine)


@pytest.mark.needs_data
def test_every_player_of_the_season_has_attributes(bbl_stats, hundred_stats):
    for st in (bbl_stats, hundred_stats):
        attrs = st.attributes
        assert set(attrs["player_id"]) == set(st.lineups["player_id"])
        assert attrs["player_id"].is_unique
        assert attrs["playing_role"].notna().all()
        assert attrs["attribute_source"].isin(["player_meta", "season_squads", "cricinfo", "inferred"]).all()


@pytest.mark.needs_data
def test_player_no_table_knows_is_inferred(bbl_stats):
    # HD Weibgen (Sydney Thunder) is in neither players table: his role comes from the
    # scorecards, his nation from his team's country, and his identity from the season alone
    w = _one(bbl_stats.attributes, "HD Weibgen")
    assert w["attribute_source"] == "inferred"
    assert w["inferred_fields"] == "playing_role;country" and w["country"] == "Australia"
    assert w["identity"] == "season" and w["identity_note"] == "no source describes the player"
    assert w["usual_batting_position"] == bbl_stats.batting.set_index("player").loc["HD Weibgen", "batting_position"]
    assert w["playing_role"] == "Middle order Batter" and not w["is_keeper"]


@pytest.mark.needs_data
def test_known_as_is_empty_offline(bbl_stats):
    # the offline tables only know full names ("Christopher James Green"), never "Chris Green"
    assert bbl_stats.attributes["known_as"].isna().all()
    assert _one(bbl_stats.attributes, "CJ Green")["full_name"] == "Christopher James Green"


def test_batting_roles_follow_the_rules():
    assert [batting_role(p) for p in (1, 2, 3, 4, 8, 9, None)] == [
        "Opening", "Opening", "Top", "Middle", "Middle", "Lower", None]


@pytest.mark.needs_data
def test_openers_and_bowlers(bbl_stats):
    attrs = bbl_stats.attributes
    assert _one(attrs, "DA Warner")["inferred_batting_role"] == "Opening"
    green = _one(attrs, "CJ Green")
    assert green["inferred_bowler"] and green["bowling_type"] == "Spin"
    assert not _one(attrs, "DA Warner")["inferred_bowler"]


@pytest.mark.needs_data
def test_one_keeper_per_team_per_match_who_did_not_bowl(bbl_stats, hundred_stats):
    for st in (bbl_stats, hundred_stats):
        per_xi = st.lineups.groupby(["match_id", "team"])["keeper"].sum()
        assert (per_xi == 1).all()
        assert (st.lineups.loc[st.lineups["keeper"], "balls_bowled"] == 0).all()


@pytest.mark.needs_data
def test_melbourne_stars_keeper_is_harper_not_maxwell(bbl_stats):
    # Sam Harper kept in all 11 Stars matches of BBL|14; Maxwell (who bowled off-spin and took
    # catches in the field) never had the gloves
    assert _kept(bbl_stats, "SB Harper", "Melbourne Stars") == (11, 11)
    assert _kept(bbl_stats, "GJ Maxwell", "Melbourne Stars")[0] == 0
    harper = _one(bbl_stats.attributes, "SB Harper")
    # the tables call him a "Top order Batter": the keeper flag is inferred
    assert harper["is_keeper"] and harper["inferred_keeper"] and harper["inferred_fields"] == "is_keeper"


@pytest.mark.needs_data
def test_stumping_settles_who_kept_between_two_part_time_keepers(bbl_stats):
    # Perth: Hurst stumped a batter in a match Finn Allen also played, so Hurst kept whenever
    # both played; the specialist Inglis kept the matches he played
    lineups = bbl_stats.lineups[bbl_stats.lineups["team"] == "Perth Scorchers"]
    by_match = lineups.groupby("match_id")
    for _, xi in by_match:
        players = set(xi["player"])
        keeper = xi.loc[xi["keeper"], "player"].iloc[0]
        if "JP Inglis" in players:
            assert keeper == "JP Inglis"
        elif "MF Hurst" in players:
            assert keeper == "MF Hurst"


@pytest.mark.needs_data
def test_fielding_uses_the_keeper(bbl_stats):
    f = bbl_stats.fielding.set_index(["player", "team"])
    harper = f.loc[("SB Harper", "Melbourne Stars")]
    assert harper["matches_kept"] == 11 and harper["catches_as_fielder"] == 0
    assert harper["catches_as_keeper"] == harper["catches"] > 0
    maxwell = f.loc[("GJ Maxwell", "Melbourne Stars")]
    assert maxwell["catches_as_keeper"] == 0 and maxwell["catches_as_fielder"] == maxwell["catches"]


@pytest.mark.needs_data
@pytest.mark.parametrize("team, keeper", [("Sydney Thunder", "SW Billings"),
                                          ("Sydney Sixers", "JR Philippe"),
                                          ("Melbourne Renegades", "TL Seifert")])
def test_specialist_keepers_keep(bbl_stats, team, keeper):
    kept, played = _kept(bbl_stats, keeper, team)
    assert kept == played > 0
