"""Season stats tables from parsed Cricsheet data: batting, bowling, fielding, line-ups, league.

Every rate is recomputed from counts. Super-over innings are left out of season figures;
no-result and D/L matches are kept (the balls were bowled). A player who moved teams mid-season
gets one row per team.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from cardgen.competitions import Competition
from cardgen.sources.cricsheet import SeasonData
from cardgen.stats.attributes import complete_attributes, team_country
from cardgen.stats.identity import SeasonFacts, fitting_rows
from cardgen.stats.phases import PHASES, phase_ranges

if TYPE_CHECKING:  # the rule is built above this layer; the tables only read it
    from cardgen.wickets_in_hand import WicketsInHand

# Dismissals credited to the bowler (the rest are run-outs and the rare oddities)
BOWLER_WICKETS = ("bowled", "caught", "caught and bowled", "lbw", "stumped", "hit wicket")
# Not a dismissal at all: the batter may return
NOT_OUT_KINDS = ("retired hurt", "retired not out")
DISMISSAL_KINDS = ("caught", "bowled", "lbw", "run out", "stumped", "caught and bowled",
                   "hit wicket", "retired out", "obstructing the field", "timed out",
                   "handled the ball", "hit the ball twice")
RUN_OUTCOMES = (0, 1, 2, 3, 4, 5, 6)


def kind_column(kind: str) -> str:
    return "out_" + kind.replace(" ", "_")


def overs_text(legal_balls: int, balls_per_over: int) -> str:
    """Overs as cricket writes them: 41 balls at 6 a over -> '6.5'."""
    return f"{legal_balls // balls_per_over}.{legal_balls % balls_per_over}"


def phase_of(ball_number: pd.Series, balls_per_innings: int) -> pd.Series:
    """Powerplay / middle / death by legal ball number (`phase_ranges`; a ball past the end is death)."""
    edges = [0] + [hi for _, hi in phase_ranges(balls_per_innings)[:2]] + [10**6]
    return pd.cut(ball_number, bins=edges, labels=list(PHASES)).astype(str)


@dataclass
class SeasonStats:
    batting: pd.DataFrame
    bowling: pd.DataFrame
    fielding: pd.DataFrame
    lineups: pd.DataFrame
    innings: pd.DataFrame
    matches: pd.DataFrame
    league: dict
    attributes: pd.DataFrame
    situations: pd.DataFrame | None = None   # balls per wickets-in-hand band (see below)

    def tables(self) -> dict[str, pd.DataFrame]:
        out = {"batting": self.batting, "bowling": self.bowling, "fielding": self.fielding,
               "lineups": self.lineups, "innings": self.innings, "matches": self.matches,
               "attributes": self.attributes}
        if self.situations is not None:
            out["situations"] = self.situations
        return out


def _season_only(data: SeasonData) -> tuple[pd.DataFrame, pd.DataFrame]:
    d = data.deliveries[~data.deliveries["super_over"].astype(bool)].copy()
    w = data.wickets[~data.wickets["super_over"].astype(bool)].copy()
    return d, w


def batting_positions(d: pd.DataFrame, w: pd.DataFrame) -> pd.DataFrame:
    """Order in which each batter came to the crease in each innings (1 = opener)."""
    seen = pd.concat([
        d[["match_id", "innings", "batting_team", "delivery", "batter", "batter_id"]]
        .rename(columns={"batter": "player", "batter_id": "player_id"}).assign(slot=0),
        d[["match_id", "innings", "batting_team", "delivery", "non_striker", "non_striker_id"]]
        .rename(columns={"non_striker": "player", "non_striker_id": "player_id"}).assign(slot=1),
        w[["match_id", "innings", "batting_team", "delivery", "player_out", "player_out_id"]]
        .rename(columns={"player_out": "player", "player_out_id": "player_id"}).assign(slot=2),
    ])
    first = (seen.sort_values(["match_id", "innings", "delivery", "slot"])
             .drop_duplicates(["match_id", "innings", "player_id"]))
    first = first.assign(position=first.groupby(["match_id", "innings"]).cumcount() + 1)
    return first[["match_id", "innings", "batting_team", "player", "player_id", "position"]]


def batting_table(d: pd.DataFrame, w: pd.DataFrame, positions: pd.DataFrame) -> pd.DataFrame:
    keys = ["player_id", "team"]
    faced = d[d["wides"] == 0].rename(columns={"batter_id": "player_id", "batting_team": "team"})
    counts = faced.groupby(keys).agg(balls=("runs_batter", "size"), runs=("runs_batter", "sum"))
    for r in RUN_OUTCOMES:
        counts[f"n{r}"] = (faced["runs_batter"] == r).groupby([faced[k] for k in keys]).sum()
    counts = counts.fillna(0)

    apps = positions.rename(columns={"batting_team": "team"})
    base = apps.groupby(keys).agg(player=("player", "first"), innings=("innings", "size"),
                                  batting_position=("position", lambda s: int(np.floor(s.median()))))

    outs = w[~w["kind"].isin(NOT_OUT_KINDS)].rename(columns={"player_out_id": "player_id",
                                                             "batting_team": "team"})
    kinds = pd.crosstab([outs["player_id"], outs["team"]], outs["kind"])
    kinds.columns = [kind_column(k) for k in kinds.columns]

    # runs per innings for the high score (an innings with no ball faced scores 0)
    per_inn = (d.rename(columns={"batter_id": "player_id", "batting_team": "team"})
               .groupby(keys + ["match_id", "innings"])["runs_batter"].sum())
    per_inn = per_inn.reindex(
        pd.MultiIndex.from_frame(apps[keys + ["match_id", "innings"]]), fill_value=0)
    out_flags = outs.groupby(keys + ["match_id", "innings"]).size()
    per_inn = per_inn.to_frame("runs").join(out_flags.rename("out")).fillna({"out": 0})
    per_inn = per_inn.reset_index().sort_values(["runs", "out"], ascending=[False, True])
    high = per_inn.drop_duplicates(keys).set_index(keys)
    high = pd.DataFrame({"high_score": high["runs"].astype(int),
                         "high_score_not_out": high["out"] == 0})
    fifties = per_inn.assign(f=(per_inn["runs"] >= 50) & (per_inn["runs"] < 100),
                             h=per_inn["runs"] >= 100).groupby(keys)[["f", "h"]].sum()
    fifties.columns = ["fifties", "hundreds"]

    t = base.join(counts, how="left").join(kinds, how="left").join(high).join(fifties)
    for k in DISMISSAL_KINDS:
        if kind_column(k) not in t:
            t[kind_column(k)] = 0
    int_cols = ["balls", "runs", *[f"n{r}" for r in RUN_OUTCOMES],
                *[kind_column(k) for k in DISMISSAL_KINDS], "fifties", "hundreds"]
    t[int_cols] = t[int_cols].fillna(0).astype(int)
    t["dismissals"] = t[[kind_column(k) for k in DISMISSAL_KINDS]].sum(axis=1)
    t["not_outs"] = t["innings"] - t["dismissals"]
    t = t.rename(columns={"n0": "dots", "n1": "ones", "n2": "twos", "n3": "threes",
                          "n4": "fours", "n5": "fives", "n6": "sixes"})
    t["strike_rate"] = (100 * t["runs"] / t["balls"].where(t["balls"] > 0)).round(2)
    t["average"] = (t["runs"] / t["dismissals"].where(t["dismissals"] > 0)).round(2)
    t = t.reset_index()
    cols = ["player_id", "player", "team", "innings", "not_outs", "balls", "runs", "dots", "ones",
            "twos", "threes", "fours", "fives", "sixes", "dismissals",
            *[kind_column(k) for k in DISMISSAL_KINDS], "high_score", "high_score_not_out",
            "fifties", "hundreds", "batting_position", "strike_rate", "average"]
    return t[cols].sort_values(["team", "batting_position", "player"]).reset_index(drop=True)


def bowling_table(d: pd.DataFrame, w: pd.DataFrame, balls_per_over: int,
                  balls_per_innings: int) -> pd.DataFrame:
    keys = ["player_id", "team"]
    b = d.rename(columns={"bowler_id": "player_id", "bowling_team": "team"})
    legal_no = b["legal"].astype(int).groupby([b["match_id"], b["innings"]]).cumsum()
    phase = phase_of(legal_no.clip(lower=1), balls_per_innings)
    b = b.assign(
        # legal balls bowled in each phase: when a captain used him (the team sheet prints it)
        **{f"balls_{p}": (b["legal"].astype(bool) & (phase == p)).astype(int) for p in PHASES},
        legal_i=b["legal"].astype(int),
        conceded=b["runs_batter"] + b["wides"] + b["noballs"],
        wide_ball=(b["wides"] > 0).astype(int),
        noball_ball=(b["noballs"] > 0).astype(int),
        faced=(b["wides"] == 0),
    )
    g = b.groupby(keys)
    t = g.agg(player=("bowler", "first"), legal_balls=("legal_i", "sum"),
              runs_conceded=("conceded", "sum"), runs_off_bat=("runs_batter", "sum"),
              wides=("wides", "sum"), wide_balls=("wide_ball", "sum"),
              no_balls=("noballs", "sum"), no_ball_balls=("noball_ball", "sum"),
              byes=("byes", "sum"), leg_byes=("legbyes", "sum"),
              **{f"balls_{p}": (f"balls_{p}", "sum") for p in PHASES})
    t["innings"] = b.drop_duplicates(keys + ["match_id", "innings"]).groupby(keys).size()
    faced = b[b["faced"]]
    for r in RUN_OUTCOMES:
        t[f"conceded_n{r}"] = (faced["runs_batter"] == r).groupby([faced[k] for k in keys]).sum()
    credited = w[w["kind"].isin(BOWLER_WICKETS)].rename(columns={"bowler_id": "player_id",
                                                                 "bowling_team": "team"})
    kinds = pd.crosstab([credited["player_id"], credited["team"]], credited["kind"])
    kinds.columns = ["wk_" + k.replace(" ", "_") for k in kinds.columns]
    t = t.join(kinds)
    for k in BOWLER_WICKETS:
        col = "wk_" + k.replace(" ", "_")
        if col not in t:
            t[col] = 0
    wk_cols = ["wk_" + k.replace(" ", "_") for k in BOWLER_WICKETS]
    t[wk_cols] = t[wk_cols].fillna(0).astype(int)
    # run-outs while he bowled: not his wickets, but calibration needs them per ball
    ro = w[w["kind"] == "run out"].rename(columns={"bowler_id": "player_id", "bowling_team": "team"})
    t["run_outs_while_bowling"] = ro.groupby(keys).size()
    t = t.fillna({"run_outs_while_bowling": 0, **{f"conceded_n{r}": 0 for r in RUN_OUTCOMES}})
    int_cols = ["run_outs_while_bowling", *[f"conceded_n{r}" for r in RUN_OUTCOMES]]
    t[int_cols] = t[int_cols].astype(int)
    t["wickets"] = t[wk_cols].sum(axis=1)
    t = t.rename(columns={"conceded_n0": "dots"})
    t["overs"] = [overs_text(int(x), balls_per_over) for x in t["legal_balls"]]
    lb = t["legal_balls"].where(t["legal_balls"] > 0)
    t["economy"] = (6 * t["runs_conceded"] / lb).round(2)
    t["runs_per_ball"] = (t["runs_conceded"] / lb).round(4)
    t["balls_per_innings"] = (t["legal_balls"] / t["innings"]).round(2)
    t["bowling_average"] = (t["runs_conceded"] / t["wickets"].where(t["wickets"] > 0)).round(2)
    t["bowling_strike_rate"] = (t["legal_balls"] / t["wickets"].where(t["wickets"] > 0)).round(2)
    t = t.reset_index()
    cols = ["player_id", "player", "team", "innings", "legal_balls", "overs", "runs_conceded",
            "runs_off_bat", "wides", "wide_balls", "no_balls", "no_ball_balls", "byes", "leg_byes",
            "wickets", *wk_cols, "run_outs_while_bowling", "dots",
            *[f"conceded_n{r}" for r in RUN_OUTCOMES if r], "economy", "runs_per_ball",
            "balls_per_innings", "bowling_average", "bowling_strike_rate",
            *[f"balls_{p}" for p in PHASES]]
    return t[cols].sort_values(["team", "player"]).reset_index(drop=True)


def keepers_by_match(data: SeasonData, w: pd.DataFrame,
                     attributes: pd.DataFrame | None) -> pd.DataFrame:
    """Who kept wicket for each team in each match.

    Evidence, strongest first: a stumping in this match; not bowling in this match (keepers
    do not bowl); a stumping for the team elsewhere this season; attributes that call him a
    wicketkeeper; never bowling for the team all season; then a season "glove score" (stumpings,
    run-outs he took part in, catches per match) so one player keeps consistently instead of
    whoever happened to hold the most catches that day.
    """
    xi = data.players[["match_id", "team", "player", "player_id", "order_in_list"]]
    d = data.deliveries[~data.deliveries["super_over"].astype(bool)]
    first_id = w["fielder_ids"].astype(str).str.split(";").str[0]
    stumps = w[w["kind"] == "stumped"].assign(player_id=first_id)
    season_stumps = stumps.groupby(["bowling_team", "player_id"]).size().rename("season_stumps")
    match_stumps = stumps.groupby(["match_id", "bowling_team", "player_id"]).size().rename("match_stumps")
    catches = w[w["kind"] == "caught"].assign(player_id=first_id)
    season_catches = catches.groupby(["bowling_team", "player_id"]).size().rename("season_catches")
    run_outs = (w[w["kind"] == "run out"].assign(player_id=w["fielder_ids"].astype(str).str.split(";"))
                .explode("player_id"))
    season_run_outs = run_outs.groupby(["bowling_team", "player_id"]).size().rename("season_run_outs")
    match_bowled = d.groupby(["match_id", "bowling_team", "bowler_id"]).size().rename("match_bowled")
    match_bowled.index = match_bowled.index.set_names(["match_id", "bowling_team", "player_id"])
    season_bowled = d.groupby(["bowling_team", "bowler_id"]).size().rename("season_bowled")
    season_bowled.index = season_bowled.index.set_names(["bowling_team", "player_id"])
    played = xi.groupby(["team", "player_id"]).size().rename("season_matches")
    played.index = played.index.set_names(["bowling_team", "player_id"])

    c = xi.rename(columns={"team": "bowling_team"})
    for series in (match_stumps, match_bowled):
        c = c.join(series, on=["match_id", "bowling_team", "player_id"])
    for series in (season_stumps, season_catches, season_run_outs, season_bowled, played):
        c = c.join(series, on=["bowling_team", "player_id"])
    c = c.fillna({"match_stumps": 0, "match_bowled": 0, "season_stumps": 0, "season_catches": 0,
                  "season_run_outs": 0, "season_bowled": 0})
    if attributes is not None and len(attributes) and "is_keeper" in attributes:
        flags = attributes.drop_duplicates("player_id").set_index("player_id")["is_keeper"]
        c["attr_keeper"] = c["player_id"].map(flags.astype("boolean")).fillna(False).astype(bool)
    else:
        c["attr_keeper"] = False
    c["not_bowling"] = c["match_bowled"] == 0
    c["not_outranked"] = _not_outranked(c, stumps)
    c["stumped_elsewhere"] = c["season_stumps"] > 0
    c["never_bowled"] = c["season_bowled"] == 0
    c["glove_score"] = (3 * c["season_stumps"] + c["season_run_outs"]
                        + c["season_catches"] / c["season_matches"]).round(6)
    c = c.sort_values(["match_id", "bowling_team", "match_stumps", "not_bowling", "not_outranked",
                       "attr_keeper", "stumped_elsewhere", "never_bowled", "glove_score",
                       "order_in_list"],
                      ascending=[True, True, False, False, False, False, False, False, False, True],
                      kind="mergesort")
    best = c.drop_duplicates(["match_id", "bowling_team"])
    return best.rename(columns={"bowling_team": "team"})[["match_id", "team", "player_id", "player"]]


def _not_outranked(candidates: pd.DataFrame, stumps: pd.DataFrame) -> list[bool]:
    """False for a player whose teammate, also in this XI, made a stumping in a match they both
    played: that teammate had the gloves ahead of him (unless the evidence points both ways)."""
    xi_of = candidates.groupby(["match_id", "bowling_team"])["player_id"].agg(frozenset).to_dict()
    ahead_of: dict[tuple[str, str], set[str]] = {}  # (team, player) -> teammates who kept over him
    for r in stumps.drop_duplicates(["match_id", "bowling_team", "player_id"]).itertuples():
        for mate in xi_of.get((r.match_id, r.bowling_team), ()):
            if mate != r.player_id:
                ahead_of.setdefault((r.bowling_team, mate), set()).add(r.player_id)
    flags = []
    for m, team, pid in zip(candidates["match_id"], candidates["bowling_team"], candidates["player_id"]):
        present = xi_of[(m, team)]
        rivals = {a for a in ahead_of.get((team, pid), ()) if a in present
                  and pid not in ahead_of.get((team, a), ())}
        flags.append(not rivals)
    return flags


def fielding_table(data: SeasonData, w: pd.DataFrame, keepers: pd.DataFrame) -> pd.DataFrame:
    keeper_of = {(r.match_id, r.team): r.player_id for r in keepers.itertuples()}
    rows = []
    for r in w.itertuples():
        ids = [x for x in str(r.fielder_ids).split(";") if x]
        names = [x for x in str(r.fielders).split(";") if x]
        keeper = keeper_of.get((r.match_id, r.bowling_team))
        if r.kind == "caught and bowled":
            ids, names = [r.bowler_id], [r.bowler]
        for pid, name in zip(ids, names):
            as_keeper = pid == keeper
            rows.append({
                "player_id": pid, "player": name, "team": r.bowling_team,
                "catches_as_keeper": int(r.kind == "caught" and as_keeper),
                "catches_as_fielder": int(r.kind in ("caught", "caught and bowled") and not as_keeper),
                "run_outs": int(r.kind == "run out"),
                "run_outs_direct": int(r.kind == "run out" and len(ids) == 1),
                "run_outs_with_keeper": int(r.kind == "run out" and len(ids) > 1 and keeper in ids),
                "stumpings": int(r.kind == "stumped"),
            })
    count_cols = ["catches_as_keeper", "catches_as_fielder", "run_outs", "run_outs_direct",
                  "run_outs_with_keeper", "stumpings"]
    f = pd.DataFrame(rows, columns=["player_id", "player", "team", *count_cols])
    agg = f.groupby(["player_id", "team"]).agg(**{c: (c, "sum") for c in count_cols})
    xi = data.players
    matches = xi.groupby(["player_id", "team"]).agg(player=("player", "first"),
                                                    matches=("match_id", "nunique"))
    kept = keepers.groupby(["player_id", "team"]).size().rename("matches_kept")
    t = matches.join(agg, how="outer").join(kept)
    t["player"] = t["player"].fillna(
        f.drop_duplicates(["player_id", "team"]).set_index(["player_id", "team"])["player"])
    t = t.fillna({c: 0 for c in [*count_cols, "matches", "matches_kept"]})
    t[[*count_cols, "matches", "matches_kept"]] = t[[*count_cols, "matches", "matches_kept"]].astype(int)
    t["catches"] = t["catches_as_keeper"] + t["catches_as_fielder"]
    t = t.reset_index()
    return t[["player_id", "player", "team", "matches", "matches_kept", "catches",
              "catches_as_keeper", "catches_as_fielder", "run_outs", "run_outs_direct",
              "run_outs_with_keeper", "stumpings"]].sort_values(["team", "player"]).reset_index(drop=True)


def situations_table(d: pd.DataFrame, w: pd.DataFrame, balls_per_innings: int,
                     rule: WicketsInHand | None = None) -> pd.DataFrame:
    """Balls each player faced (role "bat") or bowled (legal, role "bowl") in each band of the
    wickets-in-hand rule (`rule`, default the kit's), read before each real delivery from its
    wickets down and legal balls left and, in the second innings, the runs needed (the first
    innings' total + 1 less the runs so far) (`cardgen.wickets_in_hand`): the situations
    calibration solves each card over."""
    from cardgen.wickets_in_hand import BANDS, RULE, band_table
    rule = RULE if rule is None else rule
    keys = ["match_id", "innings"]
    d = d.sort_values(keys + ["delivery"]).reset_index(drop=True)
    legal_before = d.groupby(keys)["legal"].cumsum() - d["legal"]
    outs = w[~w["kind"].isin(NOT_OUT_KINDS)].groupby(keys + ["delivery"]).size()
    fell = outs.reindex(pd.MultiIndex.from_frame(d[keys + ["delivery"]]), fill_value=0).to_numpy()
    down_before = pd.Series(fell).groupby([d[k] for k in keys]).cumsum().to_numpy() - fell
    table = band_table(rule, balls_per_innings)
    left = np.clip(balls_per_innings - legal_before.to_numpy(), 0, balls_per_innings)
    codes = table[np.minimum(down_before, 10), left]
    first_total = d.loc[d["innings"] == 1].groupby("match_id")["runs_total"].sum()
    runs_before = (d.groupby(keys)["runs_total"].cumsum() - d["runs_total"]).to_numpy()
    need = (d["match_id"].map(first_total).to_numpy(float) + 1 - runs_before)
    chase = (d["innings"] == 2).to_numpy() & np.isfinite(need)
    codes = np.where(chase, rule.chase_band(np.nan_to_num(need), left, np.minimum(down_before, 10),
                                            codes), codes)
    band = np.asarray(BANDS)[codes]
    bat = d.loc[d["wides"] == 0].assign(band=band[(d["wides"] == 0).to_numpy()])
    bowl = d.loc[d["legal"] == 1].assign(band=band[(d["legal"] == 1).to_numpy()])
    frames = []
    for role, df, pid, team in (("bat", bat, "batter_id", "batting_team"),
                                ("bowl", bowl, "bowler_id", "bowling_team")):
        t = pd.crosstab([df[pid].rename("player_id"), df[team].rename("team")], df["band"])
        t = t.reindex(columns=list(BANDS), fill_value=0)
        t.columns = [f"balls_{b}" for b in BANDS]
        frames.append(t.reset_index().assign(role=role))
    out = pd.concat(frames, ignore_index=True)
    return out[["player_id", "team", "role", *[f"balls_{b}" for b in BANDS]]].sort_values(
        ["team", "player_id", "role"]).reset_index(drop=True)


def lineups_table(data: SeasonData, positions: pd.DataFrame, d: pd.DataFrame,
                  keepers: pd.DataFrame, w: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each team's XI in each match: batting position (real where they batted), who bowled, who
    kept, and how many dismissals each took part in as a fielder (`fielded`; substitutes too)."""
    xi = data.players.copy()
    first_inn = positions.rename(columns={"batting_team": "team"}).drop_duplicates(
        ["match_id", "team", "player_id"])[["match_id", "team", "player_id", "position"]]
    xi = xi.merge(first_inn, on=["match_id", "team", "player_id"], how="left")
    # players who did not bat follow in the order the XI was listed
    xi = xi.sort_values(["match_id", "team", "position", "order_in_list"], na_position="last")
    xi["batting_position"] = xi.groupby(["match_id", "team"]).cumcount() + 1
    xi["batted"] = xi["position"].notna()
    bowled = d.groupby(["match_id", "bowling_team", "bowler_id"])["legal"].sum()
    xi["balls_bowled"] = [int(bowled.get((m, t, p), 0)) for m, t, p in
                          zip(xi["match_id"], xi["team"], xi["player_id"])]
    kept = set(zip(keepers["match_id"], keepers["team"], keepers["player_id"]))
    xi["keeper"] = [(m, t, p) in kept for m, t, p in zip(xi["match_id"], xi["team"], xi["player_id"])]
    fielded: dict[tuple, int] = {}
    if w is not None and len(w):
        for m, t, ids in zip(w["match_id"], w["bowling_team"], w["fielder_ids"].fillna("").astype(str)):
            for pid in {x for x in ids.split(";") if x}:
                fielded[(m, t, pid)] = fielded.get((m, t, pid), 0) + 1
    xi["fielded"] = [fielded.get((m, t, p), 0) for m, t, p in
                     zip(xi["match_id"], xi["team"], xi["player_id"])]
    return xi[["match_id", "team", "player_id", "player", "batting_position", "batted",
               "balls_bowled", "keeper", "fielded"]].reset_index(drop=True)


def innings_table(data: SeasonData, balls_per_innings: int) -> pd.DataFrame:
    """One row per innings (super overs included, flagged): runs, wickets, legal balls, phases."""
    d = data.deliveries.copy()
    d["legal_no"] = d.groupby(["match_id", "innings"])["legal"].cumsum()
    d["phase"] = phase_of(d["legal_no"].clip(lower=1), balls_per_innings)
    wk = data.wickets[~data.wickets["kind"].isin(NOT_OUT_KINDS)]
    wk_count = wk.groupby(["match_id", "innings"]).size()
    g = d.groupby(["match_id", "innings"])
    t = g.agg(batting_team=("batting_team", "first"), bowling_team=("bowling_team", "first"),
              super_over=("super_over", "first"), runs=("runs_total", "sum"),
              legal_balls=("legal", "sum"), runs_batter=("runs_batter", "sum"),
              extras=("runs_extras", "sum"))
    t["wickets"] = wk_count.reindex(t.index, fill_value=0).astype(int)
    phase_runs = d.pivot_table(index=["match_id", "innings"], columns="phase", values="runs_total",
                               aggfunc="sum", fill_value=0)
    for p in ("powerplay", "middle", "death"):
        t[f"runs_{p}"] = phase_runs.get(p, 0)
    # wickets by phase (the phase of the legal ball they fell on, as the simulator counts them)
    fell = d[["match_id", "innings", "delivery", "phase"]].merge(
        wk[["match_id", "innings", "delivery"]], on=["match_id", "innings", "delivery"])
    phase_wk = fell.groupby(["match_id", "innings", "phase"]).size().unstack(fill_value=0)
    for p in ("powerplay", "middle", "death"):
        col = phase_wk[p] if p in phase_wk else pd.Series(dtype=int)
        t[f"wickets_{p}"] = col.reindex(t.index, fill_value=0).astype(int)
    t = t.reset_index()
    t = t.merge(data.matches[["match_id", "date", "result", "method", "winner"]], on="match_id")
    t["legal_balls"] = t["legal_balls"].astype(int)
    return t.sort_values(["date", "match_id", "innings"]).reset_index(drop=True)


def league_rates(d: pd.DataFrame, w: pd.DataFrame, innings: pd.DataFrame,
                 comp: Competition) -> dict:
    """League-wide per-ball rates: everything calibration and validation measure against."""
    legal = int(d["legal"].sum())
    faced = d[d["wides"] == 0]
    n_faced = len(faced)
    outs = w[~w["kind"].isin(NOT_OUT_KINDS)]
    kinds = outs["kind"].value_counts().to_dict()
    total_outs = int(len(outs))
    first = innings[(innings["innings"] == 1) & (~innings["super_over"].astype(bool))]
    full = first[(first["method"].fillna("") == "") & (first["result"] != "no result")]
    second = innings[(innings["innings"] == 2) & (~innings["super_over"].astype(bool))]
    return {
        "competition": comp.code,
        "format": comp.format,
        "balls_per_over": comp.balls_per_over,
        "matches": int(d["match_id"].nunique()),
        "innings": int(d.groupby(["match_id", "innings"]).ngroups),
        "deliveries": int(len(d)),
        "legal_balls": legal,
        "balls_faced": int(n_faced),
        "runs_total": int(d["runs_total"].sum()),
        "runs_batter": int(d["runs_batter"].sum()),
        "wide_runs": int(d["wides"].sum()),
        "wide_balls": int((d["wides"] > 0).sum()),
        "no_ball_runs": int(d["noballs"].sum()),
        "no_ball_balls": int((d["noballs"] > 0).sum()),
        "byes": int(d["byes"].sum()),
        "bye_balls": int((d["byes"] > 0).sum()),
        "leg_byes": int(d["legbyes"].sum()),
        "leg_bye_balls": int((d["legbyes"] > 0).sum()),
        "penalty_runs": int(d["penalty"].sum()),
        "outcomes_faced": {str(r): int((faced["runs_batter"] == r).sum()) for r in RUN_OUTCOMES},
        "dismissals": total_outs,
        "dismissal_kinds": {k: int(v) for k, v in sorted(kinds.items())},
        "bowler_wickets": int(outs["kind"].isin(BOWLER_WICKETS).sum()),
        "runs_per_ball": round(float(d["runs_total"].sum()) / legal, 6),
        "strike_rate": round(100 * float(faced["runs_batter"].sum()) / n_faced, 4),
        "economy": round(6 * float((d["runs_batter"] + d["wides"] + d["noballs"]).sum()) / legal, 4),
        "average_first_innings_total": round(float(full["runs"].mean()), 2) if len(full) else None,
        "first_innings_count": int(len(full)),
        "average_first_innings_total_all": round(float(first["runs"].mean()), 2) if len(first) else None,
        "average_second_innings_total": round(float(second["runs"].mean()), 2) if len(second) else None,
        "average_wickets_per_innings": round(float(innings.loc[~innings["super_over"].astype(bool), "wickets"].mean()), 3),
    }


def season_facts(data: SeasonData, comp: Competition) -> SeasonFacts:
    """What the season's files say of every player in it: the sex of its matches (the
    competition's where the files do not say) and the year it starts in."""
    genders = [g for g in data.matches.get("gender", pd.Series(dtype=str)).astype(str) if g in ("female", "male")]
    sex = max(sorted(set(genders)), key=genders.count) if genders else comp.gender
    years = pd.to_datetime(data.matches.get("date", pd.Series(dtype=str)), errors="coerce").dropna()
    return SeasonFacts(sex=sex, year=int(years.min().year) if len(years) else None)


def build_stats(data: SeasonData, comp: Competition,
                attributes: pd.DataFrame | None = None) -> SeasonStats:
    d, w = _season_only(data)
    positions = batting_positions(d, w)
    attributes = fitting_rows(attributes, season_facts(data, comp))
    keepers = keepers_by_match(data, w, attributes)
    innings = innings_table(data, comp.balls_per_innings)
    stumpers = set(w.loc[w["kind"] == "stumped", "fielder_ids"].astype(str).str.split(";").str[0])
    return SeasonStats(
        batting=batting_table(d, w, positions),
        bowling=bowling_table(d, w, comp.balls_per_over, comp.balls_per_innings),
        fielding=fielding_table(data, w, keepers),
        lineups=lineups_table(data, positions, d, keepers, w),
        innings=innings,
        matches=data.matches.copy(),
        league=league_rates(d, w, innings, comp),
        attributes=complete_attributes(
            data.players, positions, d, keepers, stumpers, attributes,
            team_nations={t: team_country(t, comp.team_type, comp.nation) for t in set(data.players["team"])},
            stumped_off=set(w.loc[w["kind"] == "stumped", "bowler_id"].astype(str))),
        situations=situations_table(d, w, comp.balls_per_innings),
    )
