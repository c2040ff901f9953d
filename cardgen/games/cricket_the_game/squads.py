"""Cricket: The Game squads from a real season: 12 per team in the game's composition.

Composition (rulebook, PLAYER CARDS): 3 specialist batters, 1 wicketkeeper, 4 all-rounders (who
bowl from the Medium deck), 2 specialist pace and 2 specialist spin bowlers; before play one
specialist bowler is dropped to make the XI.

Selection from the season's figures, per team:
- keeper: the man who kept most for the team;
- pace / spin specialists: the bowlers of that type, front-line bowlers (batting role "*") by
  balls bowled, then (pace) front-line medium pacers, then the others by balls bowled less balls
  faced (a specialist bats with the D6: an opener who bowls is not one); a team short of a type fills the slot with its next bowler by
  balls bowled (the card says which type he really bowls);
- batters: the three highest run-scorers among the rest who are not all-rounders or front-line
  bowlers (one listed an all-rounder who bowled no ball that season counts as a batter), those
  who bowled more than half the balls they faced last;
- all-rounders: the four remaining players who both bat and bowl most (balls faced + bowled),
  then anyone left by matches; a batter who both batted and bowled more than one of them is an
  all-rounder instead (he bowls in the game), and the next batter takes his place.
Confidence (printed bottom right, -1..3) is the batting-index percentile among all squad players
of the season in five equal bands (see cardgen/games/roll_and_play/players.py for the index).
"""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.games.roll_and_play.players import (
    SeasonPlayer,
    season_players,
    value_scale,
    with_percentiles,
)
from cardgen.stats.tables import SeasonStats

ROLES = ("batter", "keeper", "allrounder", "pace", "spin")
ROLE_LABELS = {"batter": "Specialist batter", "keeper": "Wicketkeeper", "allrounder": "All-rounder",
               "pace": "Pace bowler", "spin": "Spin bowler"}
COMPOSITION = {"batter": 3, "keeper": 1, "allrounder": 4, "pace": 2, "spin": 2}
SQUAD_ORDER = ("batter", "keeper", "allrounder", "pace", "spin")  # the batting order used by the engine
MIN_CONFIDENCE, MAX_CONFIDENCE = -1, 3


@dataclass(frozen=True)
class SquadPlayer:
    role: str  # one of ROLES
    confidence: int
    player: SeasonPlayer | None = None  # None for the generic squad
    name: str = ""

    @property
    def specialist_bowler(self) -> bool:
        return self.role in ("pace", "spin")

    @property
    def label(self) -> str:
        return self.player.name if self.player else self.name


def generic_squad() -> list[SquadPlayer]:
    """A squad with the box's make-up and middling confidence (no real season given)."""
    conf = {"batter": 2, "keeper": 1, "allrounder": 1, "pace": 0, "spin": 0}
    return [SquadPlayer(role, conf[role], name=f"{ROLE_LABELS[role]} {i + 1}")
            for role in SQUAD_ORDER for i in range(COMPOSITION[role])]


def _bowls_more_than_bats(p: SeasonPlayer) -> int:
    # a specialist bowler bats with the D6: of two batters who bowl, the one who bowled more
    # than he batted (Amelia Kerr) is the specialist, not the team's opener (Hayley Matthews)
    return p.legal_balls if p.batting_role == "*" else p.legal_balls - p.balls


def _specialist_tier(p: SeasonPlayer, kind: str) -> int | None:
    """Who fills a specialist slot first: front-line bowlers of the type, then (pace only)
    front-line medium pacers, then batters who bowl the type; None: not a candidate."""
    front_line = p.batting_role == "*"
    if p.bowling_type == kind:
        return 0 if front_line else 2
    if kind == "Pace" and p.bowling_type == "Medium" and front_line:
        return 1   # Khaleel Ahmed (IPL 2025, 15 wickets) bowled the Medium deck, Jamie Overton the Pace one
    return None


def _role_count(chosen: dict[str, str], role: str) -> int:
    return sum(1 for r in chosen.values() if r == role)


def _pick_specialists(players: list[SeasonPlayer], chosen: dict[str, str]) -> bool:
    """The two pace and two spin specialists into `chosen` (player_id -> role), by tier; a team
    short of a bowling type fills it with its next bowlers by balls bowled. False: the team has
    too few bowlers."""
    for kind, role in (("Pace", "pace"), ("Spin", "spin")):
        typed = [p for p in players
                 if p.player_id not in chosen and p.legal_balls > 0 and _specialist_tier(p, kind) is not None]
        typed.sort(key=lambda p: (_specialist_tier(p, kind), -_bowls_more_than_bats(p), p.player_id))
        for p in typed[:COMPOSITION[role]]:
            chosen[p.player_id] = role
    for role in ("pace", "spin"):  # a team short of a bowling type: its next bowlers fill in
        while _role_count(chosen, role) < COMPOSITION[role]:
            rest = sorted((p for p in players if p.player_id not in chosen and p.legal_balls > 0),
                          key=lambda p: (-p.legal_balls, p.player_id))
            if not rest:
                return False
            chosen[rest[0].player_id] = role
    return True


def _outbowls_an_allrounder(batter: SeasonPlayer, rounders: list[SeasonPlayer]) -> bool:
    """A batter who bowled, and both batted and bowled at least as much as one of the
    all-rounders (and more in one of the two)."""
    return batter.legal_balls > 0 and any(
        a.balls <= batter.balls and a.legal_balls <= batter.legal_balls
        and (a.balls, a.legal_balls) != (batter.balls, batter.legal_balls) for a in rounders)


def _batters_and_allrounders(players: list[SeasonPlayer], chosen: dict[str, str]
                             ) -> tuple[list[SeasonPlayer], list[SeasonPlayer]]:
    """The three specialist batters and the four all-rounders from the players not yet chosen."""
    # a player listed an all-rounder who bowled no ball all season is a batter that season
    # (Harmanpreet Kaur, WPL 2023: 281 runs; she is not one of the four who bowl the Medium deck);
    # a front-line bowler who bowled is not one (Pooja Vastrakar), and a batter who bowled more
    # than half the balls she faced (Hayley Matthews: 204 bowled, 215 faced, 16 wickets) comes
    # after the batters who hardly bowl: the specialist batter does not bowl in the game
    # and a batter who both batted and bowled more than one of the all-rounders bowls in the game:
    # he is the all-rounder (D'Arcy Short, BBL 2024-25: 139 balls faced, 62 bowled, printed a
    # specialist batter with no bowling while Jordan Buckingham, 2 faced and 60 bowled, bowled
    # the Medium deck), and the next batter takes his slot
    bowls_in_the_game: set[str] = set()
    while True:
        batters = sorted((p for p in players
                          if p.player_id not in chosen and p.player_id not in bowls_in_the_game
                          and not (p.bowls and p.batting_role in ("All-Rounder", "*"))),
                         key=lambda p: (2 * p.legal_balls > p.balls, -p.runs, p.player_id))
        batting = batters[:COMPOSITION["batter"]]
        rounders = sorted((p for p in players if p.player_id not in chosen and p not in batting),
                          key=lambda p: (-(min(p.balls, p.legal_balls) > 0), -(p.balls + p.legal_balls),
                                         -p.matches, p.player_id))
        rounding = rounders[:COMPOSITION["allrounder"]]
        moved = {b.player_id for b in batting if _outbowls_an_allrounder(b, rounding)}
        if not moved:
            return batting, rounding
        bowls_in_the_game |= moved


def _pick_squad(players: list[SeasonPlayer]) -> list[tuple[str, SeasonPlayer]] | None:
    """A team's 12 (role, player) in batting order, or None when it cannot make the composition."""
    if len(players) < 12:
        return None
    keeper = next((p for p in players if p.keeper), None)
    if keeper is None:
        return None
    chosen: dict[str, str] = {keeper.player_id: "keeper"}  # player_id -> role
    if not _pick_specialists(players, chosen):
        return None
    batting, rounding = _batters_and_allrounders(players, chosen)
    for p in batting:
        chosen[p.player_id] = "batter"
    for p in rounding:
        chosen[p.player_id] = "allrounder"
    for role, n in COMPOSITION.items():  # batters can run short only in tiny squads
        while _role_count(chosen, role) < n:
            rest = [p for p in players if p.player_id not in chosen]
            if not rest:
                return None
            chosen[rest[0].player_id] = role
    by_id = {p.player_id: p for p in players}
    rank = {role: i for i, role in enumerate(SQUAD_ORDER)}
    picked = [(role, by_id[pid]) for pid, role in chosen.items()]
    # batting order: role block, then the usual batting position within it
    picked.sort(key=lambda rp: (rank[rp[0]], rp[1].position, rp[1].player_id))
    return picked


def season_squads(stats: SeasonStats) -> dict[str, list[SquadPlayer]]:
    """team -> its 12 Cricket: The Game cards (teams with too few players are left out)."""
    picks: dict[str, list[tuple[str, SeasonPlayer]]] = {}
    for team, players in season_players(stats).items():
        squad = _pick_squad(players)
        if squad:
            picks[team] = squad
    ranked = {(p.player_id, p.team): p
              for p in with_percentiles([p for squad in picks.values() for _, p in squad])}
    out: dict[str, list[SquadPlayer]] = {}
    for team, squad in picks.items():
        out[team] = [SquadPlayer(role, value_scale(ranked[(p.player_id, p.team)].batting_percentile,
                                                   MIN_CONFIDENCE, MAX_CONFIDENCE),
                                 ranked[(p.player_id, p.team)])
                     for role, p in squad]
    return out
