"""Roll & Play team edition: each team's player deck is its real squad of the season.

A card's BAT value is the player's batting-index percentile among every squad player of the
season, cut into 13 equal bands -6..+6; his BOWL value is his bowling-index percentile the same
way, sign turned so the best bowler is -6 (the bowling side wants low totals). A player who did
not bowl ranks below every bowler, so his BOWL value is high (a gift to the batter).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardgen.games.base import INNINGS_COLUMNS
from cardgen.games.roll_and_play.draws import Draws, RandomDraws
from cardgen.games.roll_and_play.engine import (
    Pile,
    PlayerCard,
    RollAndPlayInnings,
    chance_deck,
    pitch_deck,
)
from cardgen.games.roll_and_play.players import (
    SeasonPlayer,
    season_players,
    value_scale,
    with_percentiles,
)
from cardgen.stats.tables import SeasonStats

SQUAD_SIZE = 12  # the usual XI and the first reserve: a hand of 11 leaves one out each deal


@dataclass(frozen=True)
class TeamCard:
    player: SeasonPlayer
    bat: int
    bowl: int

    def as_player_card(self) -> PlayerCard:
        return PlayerCard(self.bat, self.bowl, self.player.name, self.player.team)


def team_decks(stats: SeasonStats) -> dict[str, list[TeamCard]]:
    """team -> its squad's cards (usual XI in batting order, then the reserve)."""
    by_team = {team: players[:SQUAD_SIZE] for team, players in season_players(stats).items()
               if len(players) >= 11}
    everyone = with_percentiles([p for players in by_team.values() for p in players])
    ranked = {(p.player_id, p.team): p for p in everyone}
    decks = {}
    for team, players in by_team.items():
        cards = []
        for p in players:
            r = ranked[(p.player_id, p.team)]
            cards.append(TeamCard(r, value_scale(r.batting_percentile, -6, 6),
                                  -value_scale(r.bowling_percentile, -6, 6)))
        decks[team] = cards
    return decks


def team_innings(draws: Draws, batting: list[TeamCard], bowling: list[TeamCard],
                 overs: int = 20) -> RollAndPlayInnings:
    bat_deck = Pile([c.as_player_card() for c in batting], draws)
    bowl_deck = Pile([c.as_player_card() for c in bowling], draws)
    return RollAndPlayInnings(draws, overs, bat_deck, bowl_deck, Pile(pitch_deck(), draws),
                              Pile(chance_deck(), draws))


def simulate_team_edition(rng: np.random.Generator, n: int, decks: dict[str, list[TeamCard]],
                          overs: int = 20) -> pd.DataFrame:
    """n first innings between two different teams drawn at random (columns INNINGS_COLUMNS)."""
    draws = RandomDraws(rng)
    teams = sorted(decks)
    rows = []
    for _ in range(n):
        a, b = rng.choice(len(teams), size=2, replace=False)
        r = team_innings(draws, decks[teams[a]], decks[teams[b]], overs).play()
        rows.append((r.runs, r.wickets, 0, r.sixes, 6 * r.overs))
    return pd.DataFrame(rows, columns=list(INNINGS_COLUMNS))
