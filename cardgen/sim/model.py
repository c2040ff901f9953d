"""The card set in the form the engines play with: result codes, lookup tables and sides.

A card's chart becomes a 100-entry lookup table (index = 2d10 roll - 1) of small integer result
codes; the fielding chart becomes a 6 x 20 table. Both engines (the readable reference engine and
the vectorised one) read these same tables, so they cannot disagree about what a card says.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardgen.calibrate.model import DEFAULT_CATCH, DEFAULT_RUN_OUT
from cardgen.cardset import CARD_RESULTS, Card, CardSet, ChartRange, Team, chart_results
from cardgen.errors import CardSetError
from cardgen.stats.phases import phase_ranges


# Result codes. Runs 0-6 are their own value; everything else is 10+.
DOT, ONE, TWO, THREE, FOUR, SIX = 0, 1, 2, 3, 4, 6
BOWLED = 10
CARD_W = 11          # "W" on a card: caught by a random fielder (rule 3.4.3.2)
FIELD = 12           # "F": consult the fielding chart
LBW = 13
RUN_OUT = 14
CAUGHT = 15          # "caught" on the fielding chart (rule 4.3.4)
STUMPED = 16
CATCH_CHANCE = 17
RUN_OUT_CHANCE = 18
STUMPING_CHANCE = 19
LEG_BYE = 20
BYE = 21
WIDE = 22
NO_BALL = 23
LEG_BYE_4 = 24       # four leg byes / four byes (the chart's boundary extras)
BYE_4 = 25
N_CODES = 26

CARD_CODES = {"B": BOWLED, "W": CARD_W, "F": FIELD, "0": DOT, "1": ONE, "2": TWO, "3": THREE,
              "4": FOUR, "6": SIX}
FIELDING_CODES = {"bowled": BOWLED, "lbw": LBW, "run_out": RUN_OUT, "caught": CAUGHT,
                  "stumped": STUMPED, "catch_chance": CATCH_CHANCE,
                  "run_out_chance": RUN_OUT_CHANCE, "stumping_chance": STUMPING_CHANCE,
                  "leg_bye": LEG_BYE, "bye": BYE, "leg_bye_4": LEG_BYE_4, "bye_4": BYE_4,
                  "wide": WIDE, "no_ball": NO_BALL,
                  "0": DOT, "1": ONE, "2": TWO, "3": THREE, "4": FOUR, "6": SIX}
CODE_NAMES = {v: k for k, v in FIELDING_CODES.items()} | {CARD_W: "W", FIELD: "F"}

# Dismissals credited to the bowler (everything but a run-out)
BOWLER_CREDITED = frozenset({BOWLED, CARD_W, LBW, CAUGHT, STUMPED})
# What a free hit turns a resolved result into (rule decision R6 in docs/rules.md): the
# striker cannot be out except run out, so a dismissal (after any chance is rolled) is a dot.
FREE_HIT_MAP = {BOWLED: DOT, CARD_W: DOT, LBW: DOT, CAUGHT: DOT, STUMPED: DOT}


@dataclass(frozen=True)
class Format:
    name: str               # "T20" | "100-ball"
    balls_per_over: int     # 6 | 5 (a "set" in 100-ball)
    balls_per_innings: int  # 120 | 100
    max_units_per_bowler: int   # 4 overs | 4 sets (20 balls)
    balls_per_end: int      # ends change every 6 (T20) or 10 (100-ball) legal balls
    phase_edges: tuple[int, int]  # last legal ball of powerplay and of middle overs

    @property
    def units(self) -> int:
        return self.balls_per_innings // self.balls_per_over


def _phase_edges(balls_per_innings: int) -> tuple[int, int]:
    """The last legal ball of the powerplay and of the middle overs, as the stats tables count them."""
    (_, powerplay), (_, middle), _ = phase_ranges(balls_per_innings)
    return powerplay, middle


T20 = Format("T20", 6, 120, 4, 6, _phase_edges(120))
HUNDRED = Format("100-ball", 5, 100, 4, 10, _phase_edges(100))


def format_named(name: str) -> Format:
    if name == "T20":
        return T20
    if name == "100-ball":
        return HUNDRED
    raise CardSetError(f"unknown format {name!r}; expected 'T20' or '100-ball'")


# result code of each CARD_RESULTS index (the shared chart parser returns indices)
_CODE_OF_RESULT = np.array([CARD_CODES[r] for r in CARD_RESULTS], dtype=np.int8)


def chart_table(chart: Sequence[ChartRange], where: str) -> np.ndarray:
    """100 result codes from a card's ranges (CardSetError unless they tile 1..100 exactly)."""
    return _CODE_OF_RESULT[chart_results(chart, where)]


@dataclass
class CompiledSet:
    """A card set as arrays. Player index p refers to `player_ids[p]` (one per id and team)."""
    fmt: Format
    fielding: np.ndarray                 # (6, 20) int8
    striker_lut: np.ndarray              # (n_striker_cards, 100) int8
    bowler_lut: np.ndarray               # (n_bowler_cards, 100) int8
    striker_player: np.ndarray           # (n_striker_cards,) player index
    bowler_player: np.ndarray            # (n_bowler_cards,) player index
    player_ids: list[str]
    player_names: list[str]
    player_teams: list[str]
    catch: np.ndarray                    # (n_players,) C rating
    run_out: np.ndarray                  # (n_players,) RO rating
    keeper: np.ndarray                   # (n_players,) keeper rating (0 = none)
    striker_card_of: dict[tuple[str, str], int]   # (player id, team) -> striker row
    bowler_card_of: dict[tuple[str, str], int]
    player_of: dict[tuple[str, str], int]
    teams: dict[str, Team]               # name -> team entry of the card set
    striker_cards: list[Card]
    bowler_cards: list[Card]
    # (n_striker_cards,) the card's Defence rating (R13), 0 = none: the d20 that can turn a W
    # read from the bowler's card into a dot
    striker_defence: np.ndarray
    raw: CardSet | None = field(repr=False, default=None)  # the set it was compiled from

    @property
    def has_defence(self) -> bool:
        """Does any striker card carry a Defence rating? (none: no Defence die is ever rolled)"""
        return bool(self.striker_defence.any())


def _rating(value: Any, default: int) -> int:
    return int(value) if isinstance(value, (int, np.integer)) and 1 <= int(value) <= 20 else default


def compile_card_set(card_set: CardSet) -> CompiledSet:
    """Check a card set is playable and turn it into lookup tables."""
    if card_set.format is None and "format" not in card_set.present:
        raise CardSetError("card set is missing 'format'")
    fmt = format_named(card_set.format)
    cells = card_set.game_cells()
    cards = card_set.cards
    if len(cells) != 6 or any(len(row) != 20 for row in cells):
        raise CardSetError("fielding chart must be 6 rows (d6) of 20 cells (d20)")
    fielding = np.empty((6, 20), dtype=np.int8)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell not in FIELDING_CODES:
                raise CardSetError(f"fielding chart cell d6={r + 1} d20={c + 1}: unknown {cell!r}")
            fielding[r, c] = FIELDING_CODES[cell]

    player_of: dict[tuple[str, str], int] = {}
    ids: list[str] = []
    names: list[str] = []
    teams_of: list[str] = []
    catch: list[int] = []
    run_out: list[int] = []
    keeper: list[int] = []
    s_rows: list[np.ndarray] = []
    b_rows: list[np.ndarray] = []
    s_player: list[int] = []
    b_player: list[int] = []
    s_of: dict[tuple[str, str], int] = {}
    b_of: dict[tuple[str, str], int] = {}
    s_cards: list[Card] = []
    b_cards: list[Card] = []
    s_defence: list[int] = []
    for card in cards:
        player = card.player
        key = (str(player.id), str(card.team))
        where = card.where
        if key not in player_of:
            player_of[key] = len(ids)
            ids.append(key[0])
            names.append(str(player.name if "name" in player.present or player.name is not None else key[0]))
            teams_of.append(key[1])
            catch.append(_rating(player.catch, DEFAULT_CATCH))
            run_out.append(_rating(player.run_out, DEFAULT_RUN_OUT))
            keeper.append(_rating(player.keeper, 0))
        else:  # a second card of the same player may carry ratings the first left out
            p = player_of[key]
            if player.catch is not None:
                catch[p] = _rating(player.catch, catch[p])
            if player.run_out is not None:
                run_out[p] = _rating(player.run_out, run_out[p])
            if player.keeper is not None:
                keeper[p] = _rating(player.keeper, keeper[p])
        p = player_of[key]
        table = chart_table(card.chart, where)
        defence = card.defence_rating
        if card.kind == "striker":
            if (table == BOWLED).any():
                raise CardSetError(f"{where}: B (bowled) appears only on bowler cards")
            s_of[key] = len(s_rows)
            s_rows.append(table)
            s_player.append(p)
            s_cards.append(card)
            s_defence.append(defence)
        elif card.kind == "bowler":
            b_of[key] = len(b_rows)
            b_rows.append(table)
            b_player.append(p)
            b_cards.append(card)
        else:
            raise CardSetError(f"{where}: unknown kind")
    if not s_rows or not b_rows:
        raise CardSetError("a card set needs at least one striker and one bowler card")
    teams = {str(t.name): t for t in card_set.teams}
    return CompiledSet(
        fmt=fmt, fielding=fielding, striker_lut=np.stack(s_rows), bowler_lut=np.stack(b_rows),
        striker_player=np.array(s_player, dtype=np.int32),
        bowler_player=np.array(b_player, dtype=np.int32),
        player_ids=ids, player_names=names, player_teams=teams_of,
        catch=np.array(catch, dtype=np.int16), run_out=np.array(run_out, dtype=np.int16),
        keeper=np.array(keeper, dtype=np.int16), striker_card_of=s_of, bowler_card_of=b_of,
        player_of=player_of, teams=teams, striker_cards=s_cards, bowler_cards=b_cards,
        striker_defence=np.array(s_defence, dtype=np.int16), raw=card_set)


@dataclass
class Side:
    """One team as it takes the field in one match: XI in batting order and its bowling plans.

    `batters` are striker-card rows in batting order; `players` the XI's player indices in the
    same order (they are also the fielders); `keeper_slot` indexes `players`. Each plan is one
    bowler-card row per over (T20) or per 5-ball set (100-ball), already obeying the limits.
    """
    team: str
    players: list[int]
    batters: list[int]
    keeper_slot: int
    plans: list[list[int]]
    super_over_bowler: int
    super_over_batters: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.players) != 11 or len(self.batters) != 11:
            raise CardSetError(f"{self.team}: a side needs 11 players, got {len(self.players)}")
        if not self.plans:
            raise CardSetError(f"{self.team}: no bowling plan")
        if not self.super_over_batters:
            self.super_over_batters = list(self.batters[:3])
