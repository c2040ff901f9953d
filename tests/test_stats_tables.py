"""Stats tables on the real data: the figures printed on the rules' example cards."""
from __future__ import annotations

import pandas as pd
import pytest

from cardgen.competitions import get_competition
from cardgen.sources.cricsheet import combine, parse_match
from cardgen.sources.fetch import match_files
from cardgen.stats.tables import build_stats


def _row(df: pd.DataFrame, player: str, team: str) -> pd.Series:
    rows = df[(df["player"] == player) & (df["team"] == team)]
    assert len(rows) == 1, f"{player} ({team}) should have exactly one row"
    return rows.iloc[0]


@pytest.mark.needs_data
def test_cj_green_bowling(bbl_stats):
    g = _row(bbl_stats.bowling, "CJ Green", "Sydney Thunder")
    assert g["overs"] == "41.0"
    assert g["legal_balls"] == 246
    assert g["runs_conceded"] == 301
    assert g["economy"] == 7.34
    assert g["wickets"] == 12
    assert g["innings"] == 11


@pytest.mark.needs_data
def test_connolly_batting(bbl_stats):
    c = _row(bbl_stats.batting, "C Connolly", "Perth Scorchers")
    assert (c["balls"], c["runs"], c["fours"], c["sixes"], c["high_score"]) == (267, 351, 20, 19, 66)
    assert c["strike_rate"] == 131.46


@pytest.mark.needs_data
def test_rates_recomputed_from_counts(bbl_stats):
    b = bbl_stats.batting[bbl_stats.batting["balls"] > 0]
    assert ((100 * b["runs"] / b["balls"]).round(2) == b["strike_rate"]).all()
    outcome_runs = b["ones"] + 2 * b["twos"] + 3 * b["threes"] + 4 * b["fours"] + 5 * b["fives"] + 6 * b["sixes"]
    assert (outcome_runs == b["runs"]).all()
    assert (b[["dots", "ones", "twos", "threes", "fours", "fives", "sixes"]].sum(axis=1) == b["balls"]).all()
    w = bbl_stats.bowling
    assert ((6 * w["runs_conceded"] / w["legal_balls"]).round(2) == w["economy"]).all()


@pytest.mark.slow
@pytest.mark.needs_data
def test_totals_reconcile_per_match(mirror):
    """Every match: runs in the batting + extras tables equal the innings totals from deliveries."""
    comp = get_competition("BBL")
    files = match_files(comp, "2024-25", str(mirror))
    for f in files:
        data = combine([parse_match(f.raw, f.match_id)])
        st = build_stats(data, comp)
        season_innings = st.innings[~st.innings["super_over"].astype(bool)]
        d = data.deliveries[~data.deliveries["super_over"]]
        extras = int((d["wides"] + d["noballs"] + d["byes"] + d["legbyes"] + d["penalty"]).sum())
        assert int(st.batting["runs"].sum()) + extras == int(season_innings["runs"].sum()), f.match_id
        # bowlers' conceded runs + byes + leg byes + penalties make the same total
        conceded = int(st.bowling["runs_conceded"].sum())
        others = int((d["byes"] + d["legbyes"] + d["penalty"]).sum())
        assert conceded + others == int(season_innings["runs"].sum()), f.match_id


@pytest.mark.needs_data
def test_hundred_is_100_ball(hundred_stats):
    lg = hundred_stats.league
    assert lg["format"] == "100-ball"
    assert lg["balls_per_over"] == 5
    inn = hundred_stats.innings
    assert inn["legal_balls"].max() == 100


@pytest.mark.needs_data
def test_super_overs_excluded(hundred_stats):
    # the Eliminator 1417822 went to a super over: its super-over balls are not in season figures
    inn = hundred_stats.innings
    assert inn[inn["match_id"] == "1417822"]["super_over"].astype(bool).sum() == 2
    season_balls = int(inn.loc[~inn["super_over"].astype(bool), "legal_balls"].sum())
    assert hundred_stats.league["legal_balls"] == season_balls


@pytest.mark.needs_data
def test_hundred_overs_are_five_ball_sets(mirror):
    comp = get_competition("HUNDRED")
    data = combine(parse_match(f.raw, f.match_id) for f in match_files(comp, "2024", str(mirror)))
    legal = data.deliveries[data.deliveries["legal"] & ~data.deliveries["super_over"]]
    per_set = legal.groupby(["match_id", "innings", "over"]).size()
    assert per_set.max() == 5 and legal["over"].max() == 19  # 20 sets of 5 = 100 balls
    assert (data.matches["balls_per_over"] == 5).all()
    st = build_stats(data, comp)
    # overs are written in 5-ball sets: 20 legal balls is "4.0", 23 is "4.3"
    b = st.bowling
    assert (b["overs"] == [f"{n // 5}.{n % 5}" for n in b["legal_balls"]]).all()
    assert b["overs"].str.split(".").str[1].astype(int).max() <= 4


@pytest.mark.needs_data
def test_no_result_and_dl_matches_are_kept(bbl_stats):
    m = bbl_stats.matches
    kept = m[(m["result"] == "no result") | (m["method"] == "D/L")]["match_id"]
    assert len(kept) == 2
    inn = bbl_stats.innings[~bbl_stats.innings["super_over"].astype(bool)]
    assert inn[inn["match_id"].isin(kept)]["legal_balls"].sum() > 0
    assert bbl_stats.league["legal_balls"] == int(inn["legal_balls"].sum())
    assert bbl_stats.league["matches"] == inn["match_id"].nunique()


@pytest.mark.needs_data
def test_player_who_moved_teams_gets_a_row_per_team(mirror):
    """The same match played again under a renamed team: every player of it now has two teams."""
    comp = get_competition("BBL")
    files = match_files(comp, "2024-25", str(mirror))
    first = next(f for f in files if b"CJ Green" in f.raw)
    renamed = first.raw.replace(b"Sydney Thunder", b"Thunder Reserves")
    data = combine([parse_match(first.raw, first.match_id), parse_match(renamed, "copy")])
    st = build_stats(data, comp)
    green = st.bowling[st.bowling["player"] == "CJ Green"]
    assert sorted(green["team"]) == ["Sydney Thunder", "Thunder Reserves"]
    assert green["legal_balls"].nunique() == 1 and green["innings"].tolist() == [1, 1]
    assert set(st.lineups.loc[st.lineups["player"] == "CJ Green", "team"]) == set(green["team"])


@pytest.mark.needs_data
def test_a_bowlers_balls_by_phase_add_up_to_what_each_innings_lasted_there(bbl_stats, hundred_stats):
    """Balls by phase (the team sheet's PP / Mid / Death): each bowler's add up to his legal
    balls, and a side's bowlers together bowled, in each phase, what the opponents' innings
    lasted in it (from the innings table: min(legal balls, 36) in a T20 powerplay, and so on)."""
    from cardgen.stats.tables import PHASES, phase_ranges
    for stats, balls_per_innings in ((bbl_stats, 120), (hundred_stats, 100)):
        b = stats.bowling
        assert (b[[f"balls_{p}" for p in PHASES]].sum(axis=1) == b["legal_balls"]).all()
        innings = stats.innings[~stats.innings["super_over"].astype(bool)]
        for phase, (lo, hi) in zip(PHASES, phase_ranges(balls_per_innings)):
            lasted = (innings["legal_balls"].clip(upper=hi) - (lo - 1)).clip(lower=0)
            expected = lasted.groupby(innings["bowling_team"]).sum()
            bowled = b.groupby("team")[f"balls_{phase}"].sum()
            assert bowled.to_dict() == expected.to_dict(), phase
            assert bowled.sum() > 0


def test_attributes_line_names_the_data_not_a_folder_the_user_may_not_have():
    """A fresh install builds a bundled season from the tables shipped with cardgen: the line said
    "152 from the players folder" to a user with no players folder (helper-51)."""
    import pandas as pd

    from cardgen.stats.load import attributes_text
    line = attributes_text(pd.DataFrame({"attribute_source": ["player_meta", "player_meta", "season_squads", None]}))
    assert line == ("player attributes: 2 from cricketdata's player table, 1 from the season's squad lists; "
                    "1 of 4 players had none (roles inferred from the ball-by-ball data)")
    assert "folder" not in line
