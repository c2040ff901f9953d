"""Real players of a season with one batting and one bowling index each, ranked league-wide.

Shared by the real-player editions of the tabletop systems in cardgen/games (Roll & Play team
edition, Cricket: The Game compatible cards). The indices are the usual T20 shorthand:

- batting index = runs per ball x runs per dismissal (= strike rate x average / 100);
- bowling index = runs per ball x runs per wicket (= economy x average / 6; lower is better).

Both are shrunk towards modest figures (PRIOR_* balls of them), so a tail-ender's lucky
8 not out off 5 balls, or a part-timer's one tidy over, does not rank him with the stars.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from cardgen.calibrate.people import (
    batting_role,
    bowling_role,
    printed_name,
    short_names,
    team_sheets,
)
from cardgen.errors import CardgenError
from cardgen.stats.tables import SeasonStats

PRIOR_BAT_BALLS = 40.0  # about two innings' worth for a top-order T20 batter
# prior a batter is pulled towards: strike rate 100, average 10 (a lower-order hitter)
PRIOR_BAT_RUNS_PER_BALL = 1.0
PRIOR_BAT_OUTS_PER_BALL = 0.1
PRIOR_BOWL_BALLS = 20.0
# prior a bowler is pulled towards: economy 9.6, a wicket every 30 balls (a part-timer)
PRIOR_BOWL_RUNS_PER_BALL = 1.6
PRIOR_BOWL_WICKETS_PER_BALL = 1 / 30


class NoSeasonPlayers(CardgenError):
    """The season has no team with enough players to make a deck."""


@dataclass(frozen=True)
class SeasonPlayer:
    player_id: str
    name: str  # as printed
    team: str
    short_team: str
    batting_role: str  # Opening / Top / Middle / Wicketkeeper / All-Rounder / *
    bowling_type: str  # Pace / Medium / Spin / * (unknown or does not bowl)
    keeper: bool
    matches: int
    position: int  # usual batting position (12 if he never batted)
    innings: int
    runs: int
    balls: int
    dismissals: int
    legal_balls: int  # bowled
    runs_conceded: int
    wickets: int
    batting_index: float
    bowling_index: float  # math.inf for a player who did not bowl
    batting_percentile: float = 0.5  # 0 worst .. 1 best among the players ranked together
    bowling_percentile: float = 0.5

    @property
    def strike_rate(self) -> float | None:
        return 100 * self.runs / self.balls if self.balls else None

    @property
    def average(self) -> float | None:
        return self.runs / self.dismissals if self.dismissals else None

    @property
    def economy(self) -> float | None:
        return 6 * self.runs_conceded / self.legal_balls if self.legal_balls else None

    @property
    def bowls(self) -> bool:
        return self.legal_balls > 0


def batting_index(runs: int, balls: int, dismissals: int) -> float:
    rpb = (runs + PRIOR_BAT_BALLS * PRIOR_BAT_RUNS_PER_BALL) / (balls + PRIOR_BAT_BALLS)
    opb = (dismissals + PRIOR_BAT_BALLS * PRIOR_BAT_OUTS_PER_BALL) / (balls + PRIOR_BAT_BALLS)
    return rpb * rpb / opb


def bowling_index(runs_conceded: int, legal_balls: int, wickets: int) -> float:
    if legal_balls <= 0:
        return math.inf
    rpb = (runs_conceded + PRIOR_BOWL_BALLS * PRIOR_BOWL_RUNS_PER_BALL) / (legal_balls + PRIOR_BOWL_BALLS)
    wpb = (wickets + PRIOR_BOWL_BALLS * PRIOR_BOWL_WICKETS_PER_BALL) / (legal_balls + PRIOR_BOWL_BALLS)
    return rpb * rpb / wpb


def percentiles(values: list[float], higher_is_better: bool) -> list[float]:
    """Mid-rank percentile of each value (0 worst .. 1 best); ties share their mean rank."""
    if not values:
        return []
    series = pd.Series(values, dtype="float64")
    ranks = series.rank(method="average", ascending=higher_is_better)
    n = len(values)
    return [float((r - 0.5) / n) for r in ranks]


def with_percentiles(players: list[SeasonPlayer]) -> list[SeasonPlayer]:
    """The players with their batting and bowling percentiles among this group (a non-bowler
    ranks below every bowler)."""
    bat = percentiles([p.batting_index for p in players], higher_is_better=True)
    finite = [p.bowling_index if math.isfinite(p.bowling_index) else 1e9 for p in players]
    bowl = percentiles(finite, higher_is_better=False)
    from dataclasses import replace
    return [replace(p, batting_percentile=b, bowling_percentile=w) for p, b, w in zip(players, bat, bowl)]


def season_players(stats: SeasonStats) -> dict[str, list[SeasonPlayer]]:
    """Every player who appeared for each team, usual XI first (in batting order), then the
    reserves by matches played. Percentiles are left at 0.5: rank the group you print."""
    bat = stats.batting.set_index(["player_id", "team"])
    bowl = stats.bowling.set_index(["player_id", "team"])
    attrs = {r["player_id"]: r for r in stats.attributes.to_dict("records")}
    sheets = team_sheets(stats.lineups, stats.bowling)
    teams = sorted(sheets)
    if not teams:
        raise NoSeasonPlayers("the season has no line-ups")
    shorts = short_names(teams)
    lineups = stats.lineups
    out: dict[str, list[SeasonPlayer]] = {}
    for team in teams:
        sheet = sheets[team]
        g = lineups[lineups["team"] == team]
        names = g.groupby("player_id")["player"].first().to_dict()
        matches = g.groupby("player_id")["match_id"].nunique().to_dict()
        innings_bowled = g[g["balls_bowled"] > 0].groupby("player_id")["match_id"].nunique().to_dict()
        players = []
        for pid in list(sheet["batting_order"]) + list(sheet["reserves"]):
            b = bat.loc[(pid, team)] if (pid, team) in bat.index else None
            w = bowl.loc[(pid, team)] if (pid, team) in bowl.index else None
            runs = int(b["runs"]) if b is not None else 0
            balls = int(b["balls"]) if b is not None else 0
            outs = int(b["dismissals"]) if b is not None else 0
            position = int(b["batting_position"]) if b is not None else 12
            legal = int(w["legal_balls"]) if w is not None else 0
            conceded = int(w["runs_conceded"]) if w is not None else 0
            wickets = int(w["wickets"]) if w is not None else 0
            a = attrs.get(pid)
            kept = pid == sheet["wicketkeeper"]
            players.append(SeasonPlayer(
                player_id=pid, name=printed_name(names.get(pid, pid), a, pid), team=team,
                short_team=shorts[team],
                batting_role=batting_role(a, position, legal, innings_bowled.get(pid, 0), balls, kept,
                                          int(b["innings"]) if b is not None else 0),
                bowling_type=bowling_role(a) or "*", keeper=kept, matches=int(matches.get(pid, 0)),
                position=position, innings=int(b["innings"]) if b is not None else 0, runs=runs,
                balls=balls, dismissals=outs, legal_balls=legal, runs_conceded=conceded,
                wickets=wickets, batting_index=batting_index(runs, balls, outs),
                bowling_index=bowling_index(conceded, legal, wickets)))
        out[team] = players
    return out


def value_scale(percentile: float, low: int, high: int) -> int:
    """A percentile (0..1) mapped onto the whole numbers low..high in equal-width bands."""
    steps = high - low + 1
    return low + min(steps - 1, int(percentile * steps))
