"""`simulate`: replay the real fixture list many times with the card set.

Each fixture is played with both teams' real XIs of that match in their real batting order and
the side that really batted first batting first (a fixture with no line-up, e.g. abandoned before
a ball, uses the usual XIs and the toss). Seasons are independent replays of the whole list; all
matches of all seasons run together in the vectorised engine, in chunks for the progress bar.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np
import pandas as pd

from cardgen.calibrate.model import ALL_OUT
from cardgen.sim import fast
from cardgen.sim.captain import Captain
from cardgen.sim.model import CardSetError, CompiledSet, Side
from cardgen.stats.replays import season_replays
from cardgen.stats.tables import PHASES, SeasonStats
from cardgen.wickets_in_hand import WicketsInHand

CHUNK_MATCHES = 11_000  # lanes per batch: big enough for numpy, small enough for the CPU cache


@dataclass
class Fixtures:
    match_ids: list[str]
    home: np.ndarray           # side index batting first
    away: np.ndarray
    table: fast.SideTable
    side_players: np.ndarray   # (S, 11) player index per batting slot
    real_sides: int = 0        # fixture sides played with the real XI of that match
    fallback_sides: int = 0    # ... and with the team's usual XI (no usable line-up)
    # fixtures left out: (match id, team, team) where a side has no striker or no bowler card
    # (a tiny season whose only match for a team was a no result without a ball)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)
    # (match id, its replay's match id): league no results the league played again in full,
    # played once, as the replay (`cardgen.stats.replays`: IPL 2025's match 58)
    replayed: list[tuple[str, str]] = field(default_factory=list)
    # the sides `home` / `away` index, for a ball-by-ball replay with the reference engine
    # (benchmarks/bench_chase.py reads each delivery's situation)
    sides: list[Side] = field(default_factory=list)


def build_fixtures(cs: CompiledSet, stats: SeasonStats, rng: np.random.Generator) -> Fixtures:
    captain = Captain(cs, stats.lineups, stats.bowling, rng)
    innings = stats.innings[~stats.innings["super_over"].astype(bool)]
    first_bat = {str(r.match_id): r.batting_team for r in innings.itertuples() if r.innings == 1}
    sides: list[Side] = []
    home: list[int] = []
    away: list[int] = []
    ids: list[str] = []
    usual: dict[str, int] = {}
    fallbacks = 0
    known = set(cs.teams) | set(cs.player_teams)
    # a team of the set needs a striker and a bowler card to play (no card of a kind: the
    # team's every match of the season was washed out before it batted or bowled)
    if cs.raw is None:   # compile_card_set keeps it; a set built by hand may not
        raise CardSetError("the compiled set has no card set to say which teams can play")
    playable = cs.raw.playable_teams()
    skipped: list[tuple[str, str, str]] = []
    replays = season_replays(stats.matches)
    replayed: list[tuple[str, str]] = []
    for r in stats.matches.sort_values(["date", "match_id"]).itertuples():
        mid = str(r.match_id)
        t1, t2 = str(r.team1), str(r.team2)
        if mid in replays:
            replayed.append((mid, replays[mid]))
            continue
        if t1 not in known or t2 not in known:
            raise CardSetError(f"match {mid}: team without cards ({t1} v {t2})")
        if t1 not in playable or t2 not in playable:
            skipped.append((mid, t1, t2))
            continue
        bat_first = first_bat.get(mid)
        if bat_first is None:  # no ball bowled: the toss decides
            toss, decision = str(r.toss_winner), str(r.toss_decision)
            bat_first = toss if decision == "bat" else (t2 if toss == t1 else t1)
        bat_second = t2 if bat_first == t1 else t1
        pair = []
        for team in (bat_first, bat_second):
            try:
                side = captain.match_side(mid, team)
            except CardSetError:
                fallbacks += 1
                if team not in usual:
                    usual[team] = len(sides)
                    sides.append(captain.usual_side(team))
                pair.append(usual[team])
                continue
            pair.append(len(sides))
            sides.append(side)
        home.append(pair[0])
        away.append(pair[1])
        ids.append(mid)
    if not ids:
        raise CardSetError("no match of the season can be replayed: no two teams that met both have "
                           "striker and bowler cards (too few balls in the season's files)")
    table = fast.SideTable.build(cs, sides)
    return Fixtures(match_ids=ids, home=np.array(home), away=np.array(away), table=table,
                    side_players=table.players, real_sides=2 * len(ids) - fallbacks,
                    fallback_sides=fallbacks, skipped=skipped, replayed=replayed, sides=sides)


@dataclass
class SeasonReplay:
    """Totals over every simulated season (per-season means are totals / seasons)."""
    seasons: int
    fixtures: Fixtures
    first_runs: np.ndarray      # (seasons * fixtures,) first-innings totals
    second_runs: np.ndarray
    first_wickets: np.ndarray
    second_wickets: np.ndarray
    team_rows: pd.DataFrame     # per innings: match (season * fixtures + fixture), team,
    #                             innings no, runs, wickets, legal, phases
    winners: np.ndarray         # side index of the winner, -1 tie
    player_runs: np.ndarray     # per player index, summed over seasons
    player_balls: np.ndarray
    player_wickets: np.ndarray
    player_conceded: np.ndarray
    player_bowled: np.ndarray   # legal balls bowled
    super_overs: int
    deliveries: int


def replay_season(cs: CompiledSet, stats: SeasonStats, seasons: int, rng: np.random.Generator,
                  progress: Callable[[int], Any] | None = None,
                  rule: WicketsInHand | None = None, defence: bool | None = None) -> SeasonReplay:
    """Replay the fixture list `seasons` times (`rule`: the advanced rules' wickets-in-hand rule,
    None: the Quicket rules as printed; `defence`: whether Defence ratings are played, R13,
    None: with the rule, as the advanced rules play them)."""
    fx = build_fixtures(cs, stats, rng)
    n_fix = len(fx.match_ids)
    total = seasons * n_fix
    n_players = len(cs.player_ids)
    acc = {k: np.zeros(n_players) for k in ("runs", "balls", "wickets", "conceded", "bowled")}
    firsts, seconds, fw, sw, winners, rows = [], [], [], [], [], []
    supers = deliveries = 0
    done = 0
    while done < total:
        n = min(CHUNK_MATCHES, total - done)
        fixture = (np.arange(done, done + n) % n_fix)
        home, away = fx.home[fixture], fx.away[fixture]
        mb = fast.play_matches(cs, fx.table, home, away, rng, rule=rule, defence=defence)
        for inn, batting, _bowling, plan in ((mb.first, home, away, mb.first_plan),
                                            (mb.second, away, home, mb.second_plan)):
            players = fx.side_players[batting].ravel()               # (n * 11,)
            bowlers = cs.bowler_player[plan].ravel()                 # (n * units,)
            for key, who, values in (("runs", players, inn.bat_runs[:, :11]),
                                     ("balls", players, inn.bat_balls[:, :11]),
                                     ("wickets", bowlers, inn.unit_wickets),
                                     ("conceded", bowlers, inn.unit_runs),
                                     ("bowled", bowlers, inn.unit_balls)):
                acc[key] += np.bincount(who, weights=values.ravel(), minlength=n_players)
        firsts.append(mb.first.runs)
        seconds.append(mb.second.runs)
        fw.append(mb.first.wickets)
        sw.append(mb.second.wickets)
        winners.append(mb.winner)
        for no, inn, batting in ((1, mb.first, home), (2, mb.second, away)):
            rows.append(pd.DataFrame({
                "match": np.arange(done, done + n),   # season * fixtures + fixture
                "team": np.array(fx.table.teams)[batting], "innings": no, "runs": inn.runs,
                "wickets": inn.wickets, "legal_balls": inn.legal_balls,
                **{f"runs_{p}": inn.phase_runs[:, k] for k, p in enumerate(PHASES)},
                **{f"wickets_{p}": inn.phase_wickets[:, k] for k, p in enumerate(PHASES)}}))
        supers += int((mb.super_overs > 0).sum())
        deliveries += mb.deliveries
        done += n
        if progress:
            progress(n)
    return SeasonReplay(
        seasons=seasons, fixtures=fx, first_runs=np.concatenate(firsts),
        second_runs=np.concatenate(seconds), first_wickets=np.concatenate(fw),
        second_wickets=np.concatenate(sw), team_rows=pd.concat(rows, ignore_index=True),
        winners=np.concatenate(winners), player_runs=acc["runs"], player_balls=acc["balls"],
        player_wickets=acc["wickets"], player_conceded=acc["conceded"],
        player_bowled=acc["bowled"], super_overs=supers, deliveries=deliveries)


# --- tables ------------------------------------------------------------------------------------

def phase_balls(legal: pd.Series | np.ndarray, edges: tuple[int, int], total: int) -> list[np.ndarray]:
    legal = np.asarray(legal)
    return [np.minimum(legal, edges[0]),
            np.clip(legal - edges[0], 0, edges[1] - edges[0]),
            np.clip(legal - edges[1], 0, total - edges[1])]


def full_length_innings(stats: SeasonStats) -> pd.DataFrame:
    """Real innings (super overs left out) of the matches played to their full length, the only
    kind the replays play: no D/L, a result, and a first innings that ran its full balls or was
    all out. One that stopped short with wickets in hand was cut by the weather for both sides
    alike (so no D/L: BBL 2023-24's 97/7 in 14 overs, the women's Super Smash 2022-23's 38/5 in
    5), and its total and its wickets say nothing of a 20-over innings. (A side that ran out of
    batters, retired hurt, is taken for cut short too: none in the nine bundled seasons.)"""
    inn = stats.innings[~stats.innings["super_over"].astype(bool)]
    # astype("string"): a season without D/L has an all-empty, float, method column
    inn = inn[(inn["method"].astype("string").fillna("") == "") & (inn["result"] != "no result")]
    matches = stats.matches.set_index("match_id")
    full_balls = pd.to_numeric(matches["overs"], errors="coerce") * matches["balls_per_over"]
    first = inn[inn["innings"] == 1]
    short = first[(first["wickets"] < ALL_OUT) & (first["legal_balls"] < first["match_id"].map(full_balls))]
    return inn[~inn["match_id"].isin(short["match_id"])]


def real_first_innings(stats: SeasonStats) -> pd.DataFrame:
    """Real first innings of the full-length matches (`full_length_innings`)."""
    inn = full_length_innings(stats)
    return inn[inn["innings"] == 1]


def team_totals(cs: CompiledSet, stats: SeasonStats, rep: SeasonReplay) -> pd.DataFrame:
    """Per team: mean first-innings total, wickets per innings and run rate by phase."""
    fmt = cs.fmt
    real_inn = full_length_innings(stats)
    out = []
    for source, df in (("real", real_inn.rename(columns={"batting_team": "team"})),
                       ("sim", rep.team_rows)):
        balls = phase_balls(df["legal_balls"], fmt.phase_edges, fmt.balls_per_innings)
        d = df.assign(**{f"balls_{p}": b for p, b in zip(PHASES, balls)})
        g = d.groupby("team")
        t = pd.DataFrame({
            "first_innings_total": d[d["innings"] == 1].groupby("team")["runs"].mean(),
            "wickets_per_innings": g["wickets"].mean()})
        for p in PHASES:
            t[f"run_rate_{p}"] = fmt.balls_per_over * g[f"runs_{p}"].sum() / g[f"balls_{p}"].sum()
        t.columns = [f"{source}_{c}" for c in t.columns]
        out.append(t)
    t = out[0].join(out[1], how="outer").round(2).reset_index()
    cols = ["team"] + [f"{s}_{c}" for c in ("first_innings_total", "wickets_per_innings",
                                             *[f"run_rate_{p}" for p in PHASES])
                       for s in ("real", "sim")]
    return t[cols]


def ladder(stats: SeasonStats, rep: SeasonReplay) -> pd.DataFrame:
    """Wins per season, real beside simulated (fixtures as played, finals included)."""
    fx = rep.fixtures
    teams = np.array(fx.table.teams)
    n_fix = len(fx.match_ids)
    winners = rep.winners
    home = np.tile(fx.home, rep.seasons)
    away = np.tile(fx.away, rep.seasons)
    rows = []
    # the real record as the league's table has it: a no result played again counts as its replay
    real = stats.matches[~stats.matches["match_id"].astype(str).isin({v for v, _ in fx.replayed})]
    names = sorted(set(teams))
    # wins per season per team, for finishing positions (ties share the higher place)
    per_season = winners.reshape(rep.seasons, n_fix)
    wins = np.stack([((per_season >= 0) & (teams[np.maximum(per_season, 0)] == t)).sum(axis=1)
                     for t in names], axis=1)                       # (seasons, teams)
    place = 1 + (wins[:, None, :] > wins[:, :, None]).sum(axis=2)   # 1 = most wins
    for ti, team in enumerate(names):
        played_real = int(((real["team1"] == team) | (real["team2"] == team)).sum())
        won_real = int((real["winner"] == team).sum())
        nr_real = int((((real["team1"] == team) | (real["team2"] == team))
                       & real["winner"].isna()).sum())
        mine = (teams[home] == team) | (teams[away] == team)
        won = (winners >= 0) & (teams[np.maximum(winners, 0)] == team) & mine
        tied = mine & (winners < 0)
        rows.append({"team": team, "played": played_real, "real_won": won_real,
                     "real_no_result_or_tie": nr_real,
                     "sim_won": round(float(won.sum()) / rep.seasons, 2),
                     "sim_lost": round(float((mine & ~won & ~tied).sum()) / rep.seasons, 2),
                     "sim_tied": round(float(tied.sum()) / rep.seasons, 3),
                     "sim_win_share": round(float(won.sum()) / max(int(mine.sum()), 1), 3),
                     "sim_mean_place": round(float(place[:, ti].mean()), 2),
                     "sim_top_share": round(float((place[:, ti] == 1).mean()), 3)})
    t = pd.DataFrame(rows)
    t.insert(2, "real_place", t["real_won"].rank(ascending=False, method="min").astype(int))
    t = t.sort_values(["sim_won", "team"], ascending=[False, True])
    t.insert(0, "sim_rank", range(1, len(t) + 1))
    assert n_fix * rep.seasons == len(winners)
    return t.reset_index(drop=True)


HEAD_TO_HEAD_FILE = "simulate_head_to_head.json"   # `head_to_head`, beside simulate's report


def head_to_head(rep: SeasonReplay) -> list[dict[str, Any]]:
    """Per pair of teams that met in the fixture list: how their replayed matches went (each
    replayed season plays every real fixture once, finals included), the pair in name order."""
    fx = rep.fixtures
    teams = np.array(fx.table.teams)
    first = teams[np.tile(fx.home, rep.seasons)]
    second = teams[np.tile(fx.away, rep.seasons)]
    winner = np.where(rep.winners >= 0, teams[np.maximum(rep.winners, 0)], "")
    pairs = sorted({tuple(sorted((str(x), str(y)))) for x, y in zip(first, second) if x != y})
    out = []
    for a, b in pairs:
        met = ((first == a) & (second == b)) | ((first == b) & (second == a))
        out.append({"teams": [a, b], "played": int(met.sum()),
                    "won": {a: int((met & (winner == a)).sum()), b: int((met & (winner == b)).sum())},
                    "tied": int((met & (rep.winners < 0)).sum())})
    return out


def leaderboards(cs: CompiledSet, stats: SeasonStats, rep: SeasonReplay) -> pd.DataFrame:
    """Per player: real season runs/wickets beside the simulated mean per season."""
    bat = stats.batting.groupby(["player_id", "team"])[["runs", "balls"]].sum()
    bowl = stats.bowling.groupby(["player_id", "team"])[["wickets", "legal_balls",
                                                          "runs_conceded"]].sum()
    rows = []
    for p, (pid, team) in enumerate(zip(cs.player_ids, cs.player_teams)):
        key = (pid, team)
        rb = bat.loc[key] if key in bat.index else None
        bw = bowl.loc[key] if key in bowl.index else None
        rows.append({
            "player_id": pid, "name": cs.player_names[p], "team": team,
            "real_runs": int(rb["runs"]) if rb is not None else 0,
            "sim_runs": round(rep.player_runs[p] / rep.seasons, 2),
            "real_balls_faced": int(rb["balls"]) if rb is not None else 0,
            "sim_balls_faced": round(rep.player_balls[p] / rep.seasons, 2),
            "real_wickets": int(bw["wickets"]) if bw is not None else 0,
            "sim_wickets": round(rep.player_wickets[p] / rep.seasons, 3),
            "real_balls_bowled": int(bw["legal_balls"]) if bw is not None else 0,
            "sim_balls_bowled": round(rep.player_bowled[p] / rep.seasons, 2),
            "real_runs_conceded": int(bw["runs_conceded"]) if bw is not None else 0,
            "sim_runs_conceded": round(rep.player_conceded[p] / rep.seasons, 2)})
    return pd.DataFrame(rows).sort_values(["real_runs", "player_id"], ascending=[False, True]) \
        .reset_index(drop=True)


def league_summary(cs: CompiledSet, stats: SeasonStats, rep: SeasonReplay) -> dict[str, Any]:
    first = real_first_innings(stats)
    inn = stats.innings[~stats.innings["super_over"].astype(bool)]
    n = len(rep.first_runs)
    sim_first = float(rep.first_runs.mean())
    return {
        "seasons": rep.seasons, "matches_simulated": n, "deliveries": rep.deliveries,
        "real_first_innings_total": round(float(first["runs"].mean()), 2),
        "real_first_innings_count": int(len(first)),
        "sim_first_innings_total": round(sim_first, 2),
        "sim_first_innings_se": round(float(rep.first_runs.std() / np.sqrt(n)), 3),
        "first_innings_difference": round(sim_first - float(first["runs"].mean()), 2),
        "real_second_innings_total": round(float(inn[inn["innings"] == 2]["runs"].mean()), 2),
        "sim_second_innings_total": round(float(rep.second_runs.mean()), 2),
        "real_wickets_per_innings": round(float(inn["wickets"].mean()), 3),
        "sim_wickets_per_innings": round(float(np.concatenate([rep.first_wickets,
                                                               rep.second_wickets]).mean()), 3),
        # per 120 legal balls: the real innings include those the weather or a no result cut
        # short, which the replays never are, so only a rate compares like with like
        "real_wickets_per_120_balls": round(120 * float(inn["wickets"].sum() / max(inn["legal_balls"].sum(), 1)), 3),
        "sim_wickets_per_120_balls": round(120 * float(rep.team_rows["wickets"].sum()
                                                       / max(rep.team_rows["legal_balls"].sum(), 1)), 3),
        # the same, first innings and chases apart: the replays' chases lose more wickets a ball
        # than real ones in most seasons (docs/rules.md R12, the comfortable-chase clause)
        **{f"{who}_wickets_per_120_balls_{name}": _wickets_per_120(rows[rows["innings"] == k])
           for who, rows in (("real", inn), ("sim", rep.team_rows))
           for k, name in ((1, "first_innings"), (2, "second_innings"))},
        "sim_super_over_share": round(rep.super_overs / n, 4),
        **phase_rates(cs, inn, "real"), **phase_rates(cs, rep.team_rows, "sim"),
    }


def _wickets_per_120(rows: pd.DataFrame) -> float | None:
    """Wickets a 120 legal balls over innings rows (None without a ball)."""
    balls = int(rows["legal_balls"].sum())
    return round(120 * float(rows["wickets"].sum()) / balls, 3) if balls else None


def match_figures(cs: CompiledSet, stats: SeasonStats, rep: SeasonReplay) -> dict[str, dict]:
    """What whole matches look like, real beside simulated (issue 17): first-innings total and
    its SD, all-out rate, wickets by phase (first innings), run rate by phase (all innings), the
    chasing side's share of the decided matches. Real: the full-length matches'
    innings (`full_length_innings`), as the replays play every match."""
    fmt = cs.fmt
    real_first = real_first_innings(stats)
    inn = full_length_innings(stats)
    sim = rep.team_rows
    sim_first = sim[sim["innings"] == 1]
    second = inn[inn["innings"] == 2].drop_duplicates("match_id")
    decided = second[second["winner"].notna()]
    real_chase = float((decided["winner"] == decided["batting_team"]).mean()) if len(decided) else None
    fx = rep.fixtures
    away = np.tile(fx.away, rep.seasons)
    won = rep.winners >= 0
    sim_chase = float((rep.winners[won] == away[won]).mean()) if won.any() else None
    out = {}
    for source, first, every, chase in (("real", real_first, inn, real_chase),
                                        ("sim", sim_first, sim, sim_chase)):
        # None, not NaN (invalid JSON in simulate_summary.json, "nan" on screen), where the
        # season has too few first innings for the figure: a tiny season's SD of one innings
        fig = {"first_innings_total": float(first["runs"].mean()) if len(first) else None,
               "first_innings_sd": float(first["runs"].std(ddof=1)) if len(first) > 1 else None,
               "all_out_share": float((first["wickets"] >= ALL_OUT).mean()),
               "chasing_wins_share": chase}
        for p in PHASES:
            col = f"wickets_{p}"
            fig[f"wickets_{p}"] = float(first[col].mean()) if col in first else None
        fig.update({k.replace(f"{source}_", ""): v for k, v in
                    phase_rates(cs, every, source).items()})
        # first innings and chases apart: wickets a 120 legal balls and run rate (issue 41)
        for name, k in (("first", 1), ("chase", 2)):
            rows = every[every["innings"] == k]
            fig[f"{name}_wickets_per_120"] = _wickets_per_120(rows)
            fig[f"{name}_run_rate"] = (float(fmt.balls_per_over * rows["runs"].sum() / rows["legal_balls"].sum())
                                       if rows["legal_balls"].sum() else None)
        fig.update({f"first_{k.replace(f'{source}_', '')}": v for k, v in
                    phase_rates(cs, first, source).items()})
        out[source] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in fig.items()}
    chases = inn[inn["innings"] == 2]
    out["innings"] = {"real_first_innings": int(len(real_first)),
                      "sim_first_innings": int(len(sim_first)), "balls": fmt.balls_per_innings,
                      "real_chases": int(len(chases)), "real_decided_chases": int(len(decided)),
                      # the real figures' match-level standard errors: wickets a ball is a ratio
                      # of sums over innings, so its error is the innings-clustered one; a share
                      # of decided matches is binomial
                      "real_chase_wickets_per_120_se": ratio_se(chases["wickets"], chases["legal_balls"], 120),
                      "real_first_wickets_per_120_se": ratio_se(real_first["wickets"], real_first["legal_balls"], 120),
                      "real_chasing_wins_se": (round(float(np.sqrt(real_chase * (1 - real_chase) / len(decided))), 4)
                                               if real_chase is not None else None)}
    return out


def ratio_se(num: pd.Series, den: pd.Series, scale: float = 1.0) -> float | None:
    """Standard error of sum(num) / sum(den) over independent rows (innings): the clustered
    (linearised) error, sqrt(sum (n_i - R d_i)^2) / sum d_i, times `scale`."""
    n, d = np.asarray(num, float), np.asarray(den, float)
    if len(n) < 2 or d.sum() <= 0:
        return None
    rate = n.sum() / d.sum()
    return round(float(scale * np.sqrt(((n - rate * d) ** 2).sum() * len(n) / (len(n) - 1)) / d.sum()), 4)


def phase_rates(cs: CompiledSet, innings: pd.DataFrame, prefix: str) -> dict[str, float]:
    """League run rate (runs per over) in each phase, from innings rows with phase runs."""
    fmt = cs.fmt
    balls = phase_balls(innings["legal_balls"], fmt.phase_edges, fmt.balls_per_innings)
    return {f"{prefix}_run_rate_{p}": round(float(fmt.balls_per_over * innings[f"runs_{p}"].sum()
                                                  / max(int(b.sum()), 1)), 3)
            for p, b in zip(PHASES, balls)}
