"""Replaying a league of your own (issue 35): its round-robin fixture list, many times over.

A league's card set names its sides (`teams`: the XI in batting order, the keeper, each
bowler's usual overs an innings in `bowling_units`) and its fixtures (`own_league.fixtures`).
Each side takes the field as its team sheet says, with its bowling plans drawn from those
overs as the captain draws a season's (`sim.captain`), and the vectorised engine plays every
fixture of every replayed season.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import numpy as np
import pandas as pd

from cardgen.cardset import CardSet
from cardgen.sim import fast
from cardgen.sim.captain import Captain
from cardgen.sim.model import CardSetError, CompiledSet, Side
from cardgen.wickets_in_hand import WicketsInHand

CHUNK_MATCHES = 11_000
LINEUP_COLUMNS = ("match_id", "team", "player_id", "player", "batting_position", "batted",
                  "balls_bowled", "keeper", "fielded")


def league_captain(cs: CompiledSet, card_set: CardSet, rng: np.random.Generator) -> Captain:
    """A captain who picks each side as its team sheet says and shares its overs by each
    bowler's usual overs an innings (a league side's `bowling_units`)."""
    rows = [(pid, team.name, float(units)) for team in card_set.teams
            for pid, units in (team.extra.get("bowling_units") or {}).items()]
    bowling = pd.DataFrame(rows, columns=["player_id", "team", "legal_balls"])
    lineups = pd.DataFrame({c: [] for c in LINEUP_COLUMNS})
    return Captain(cs, lineups, bowling, rng)


def league_sides(cs: CompiledSet, card_set: CardSet, rng: np.random.Generator) -> dict[str, Side]:
    captain = league_captain(cs, card_set, rng)
    sides = {}
    for team in card_set.teams:
        if len(team.batting_order) != 11:
            raise CardSetError(f"{team.name}: a league side needs its XI in batting_order")
        sides[team.name] = captain.usual_side(team.name)
    return sides


@dataclass
class LeagueReplay:
    seasons: int
    teams: list[str]
    home: np.ndarray          # per match of every season: side index batting first
    away: np.ndarray
    winners: np.ndarray       # side index, -1 a tie
    home_runs: np.ndarray
    away_runs: np.ndarray


def replay_league(cs: CompiledSet, card_set: CardSet, seasons: int, rng: np.random.Generator,
                  rule: WicketsInHand | None = None,
                  progress: Callable[[int], Any] | None = None) -> LeagueReplay:
    """Play the league's fixture list `seasons` times."""
    sides = league_sides(cs, card_set, rng)
    names = list(sides)
    index = {n: i for i, n in enumerate(names)}
    fixtures = [(index[a], index[b]) for a, b in (card_set.own_league.fixtures if card_set.own_league else ())]
    if not fixtures:
        raise CardSetError("the league has no fixtures (it needs two sides or more)")
    table = fast.SideTable.build(cs, [sides[n] for n in names])
    home_f = np.array([a for a, _ in fixtures])
    away_f = np.array([b for _, b in fixtures])
    total = seasons * len(fixtures)
    out: dict[str, list[Any]] = {k: [] for k in ("home", "away", "winner", "home_runs", "away_runs")}
    done = 0
    while done < total:
        n = min(CHUNK_MATCHES, total - done)
        k = np.arange(done, done + n) % len(fixtures)
        mb = fast.play_matches(cs, table, home_f[k], away_f[k], rng, rule=rule)
        out["home"].append(home_f[k])
        out["away"].append(away_f[k])
        out["winner"].append(mb.winner)
        out["home_runs"].append(mb.first.runs)
        out["away_runs"].append(mb.second.runs)
        done += n
        if progress:
            progress(n)
    cat = {k: np.concatenate(v) for k, v in out.items()}
    return LeagueReplay(seasons, names, cat["home"], cat["away"], cat["winner"],
                        cat["home_runs"], cat["away_runs"])


def ladder(rep: LeagueReplay, card_set: CardSet) -> pd.DataFrame:
    """Per side: matches a season, wins, losses, ties, win share, mean place, share of titles
    (most wins; sides level on top share that season's title), and its points."""
    points = {t.name: t.points for t in card_set.teams}
    n_teams = len(rep.teams)
    per = len(rep.winners) // rep.seasons
    winners = rep.winners.reshape(rep.seasons, per)
    wins = np.stack([(winners == i).sum(axis=1) for i in range(n_teams)], axis=1)
    place = 1 + (wins[:, None, :] > wins[:, :, None]).sum(axis=2)
    tops = (place == 1).sum(axis=1)
    rows = []
    for i, name in enumerate(rep.teams):
        mine = (rep.home == i) | (rep.away == i)
        won = rep.winners == i
        tied = mine & (rep.winners < 0)
        played = int(mine.sum())
        rows.append({"team": name, "points": points.get(name),
                     "played": played // rep.seasons,
                     "won": round(float(won.sum()) / rep.seasons, 2),
                     "lost": round(float((mine & ~won & ~tied).sum()) / rep.seasons, 2),
                     "tied": round(float(tied.sum()) / rep.seasons, 3),
                     "win_share": round(float(won.sum()) / max(played, 1), 3),
                     "mean_place": round(float(place[:, i].mean()), 2),
                     "top_share": round(float(((place[:, i] == 1) / tops).mean()), 3)})
    t = pd.DataFrame(rows).sort_values(["won", "team"], ascending=[False, True])
    t.insert(0, "rank", range(1, len(t) + 1))
    return t.reset_index(drop=True)


def innings_means(cs: CompiledSet, batting: Side, bowling: Side, innings: int,
                  rng: np.random.Generator, rule: WicketsInHand | None = None) -> tuple[float, float]:
    """Mean total (and its standard error) of `innings` innings played in full (no target) by
    `batting` against `bowling`."""
    table = fast.SideTable.build(cs, [batting, bowling])
    totals = []
    done = 0
    while done < innings:
        n = min(CHUNK_MATCHES, innings - done)
        lanes = table.lanes(np.zeros(n, int), np.ones(n, int),
                            rng.integers(0, table.plans.shape[1], n), np.full(n, fast.BIG))
        totals.append(fast.play_innings_batch(cs, lanes, rng, rule=rule).runs)
        done += n
    runs = np.concatenate(totals).astype(float)
    return float(runs.mean()), float(runs.std(ddof=1) / np.sqrt(len(runs)))


def run_difference(cs: CompiledSet, sides: dict[str, Side], team: str, opponents: list[str],
                   innings: int, rng: np.random.Generator, rule: WicketsInHand | None = None) -> float:
    """A side's run difference a match against `opponents`, on average: its innings against each
    less each one's innings against it, `innings` of each played in full (no target, so every
    run counts: what its points predict)."""
    diffs = []
    for other in opponents:
        scored, _ = innings_means(cs, sides[team], sides[other], innings, rng, rule)
        conceded, _ = innings_means(cs, sides[other], sides[team], innings, rng, rule)
        diffs.append(scored - conceded)
    return float(np.mean(diffs))
