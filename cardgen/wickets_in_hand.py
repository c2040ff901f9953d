"""The "wickets in hand" rule (R12): with Defence (R13), the advanced rules of Quicket Cricket.

Real batters change with the match situation; printed cards cannot. What drives the change best
is how many balls are left for each wicket in hand, so the batting side is in one of three bands
before every delivery, read from a small table (wickets down -> balls-left thresholds):

* **attack** (under 5 balls left per wicket in hand): a dot ball is rolled again on a d20 --
  1 bowled (missed it), 2 caught going for it, 3-8 it goes for four, 9-10 for six, 11-20 it
  stays a dot (those boundary faces for a league that hits a boundary on 16.5% of balls or more,
  in its own mix of fours and sixes: `for_league`);
* **normal**: the cards as printed;
* **consolidate** (8 or more balls left per wicket in hand): a catch (W on a card, caught or a
  held catch chance on the fielding chart) is rolled again on a d20 -- 1-12 the batter kept it
  on the ground: a dot, not out. Bowled, LBW, stumped and run out stand;
* and **chasing**, while the runs needed are more than 2 x the balls left (over 12 an over), the
  side attacks whatever its wickets in hand.

At most one extra die per delivery, and only on those results. Evidence (issue 17, BBL 2024-25
and IPL 2025, controlling for who bats and bowls): a batter is out about x1.8 as often when few
balls are left per wicket and x0.5-0.7 when many are, scoring about x1.25 and x0.86 the runs.
The d20 faces were then set on the season replays (docs/rules.md R12 has the measurements):
first-innings totals, all-out rates and death-overs run rates of the real seasons. The chase
clause matters most there: real chasers behind the rate take the risks, and cards calibrated on
both innings carried those risks into the first innings until the calibration could see them
(the chasing balls are counted in the attack band, so the cards absorb them). The card set
is calibrated for the rule (each card reproduces its player's real season over the bands he
really batted or bowled in), so the rule moves runs and wickets between situations, not in
total.

Everything here is pure and shared by the stats layer (which band each real ball was in), the
calibration (the exact expectation under the rule), both engines and the printed tables.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from cardgen.errors import CardgenError

ATTACK, NORMAL, CONSOLIDATE = 0, 1, 2
BANDS: tuple[str, ...] = ("attack", "normal", "consolidate")
RULE_NAME = "wickets-in-hand"
CLASSIC_NAME = "classic"
T20_BALLS = 120  # the thresholds are set per wicket in hand for a 120-ball innings, scaled
# The attack d20's boundary faces were set (8 of 20) on the seasons that hit a boundary on about
# 16.5% of balls (BBL, The Hundred). A league that hits fewer gets proportionally fewer faces:
# one table for all put the women's Super Smash 2022-23 (11.6% boundaries, 0.8% sixes) 15% over
# its death-overs run rate. More faces for the big-hitting leagues overshot IPL's death overs by
# 6-7% (docs/rules.md R12), so 8 is also the most.
ATTACK_BOUNDARY_FACES = 8
FULL_FACES_BOUNDARY_RATE = 0.165


def face_range(lo: int, hi: int) -> str:
    """Die faces as printed: "7" or "3-8"."""
    return str(lo) if lo == hi else f"{lo}-{hi}"


TABLE = -1   # a chase-line cell that reads the wickets-in-hand table (the first innings' band)
CELL_LETTERS = {ATTACK: "A", NORMAL: "N", CONSOLIDATE: "C", TABLE: "T"}
CELL_WORDS = {ATTACK: "attack", NORMAL: "normal", CONSOLIDATE: "consolidate", TABLE: "table"}


@dataclass(frozen=True)
class ChaseLine:
    """The chase line (issue 41): in the second innings, the band read from runs needed a ball
    and wickets in hand instead of the table, one small table a player reads before each ball.

    Row k of `cells` is the chase needing more than `rate_edges[k - 1]` and at most
    `rate_edges[k]` runs a ball (runs needed > edge x balls left, counted in whole runs and
    balls as the scoresheet counts them: exactly the edge is the row below); column j holds
    `hand_edges[j - 1]` < wickets in hand <= `hand_edges[j]`. A cell is ATTACK, NORMAL,
    CONSOLIDATE or TABLE (read the wickets-in-hand table, as the first innings does)."""
    rate_edges: tuple[float, ...]
    hand_edges: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        rows, cols = len(self.rate_edges) + 1, len(self.hand_edges) + 1
        if list(self.rate_edges) != sorted(set(self.rate_edges)) or any(e <= 0 for e in self.rate_edges):
            raise CardgenError(f"chase line rate edges {self.rate_edges!r}: expected rising, above 0")
        if (list(self.hand_edges) != sorted(set(self.hand_edges))
                or any(not 1 <= h <= 9 for h in self.hand_edges)):
            raise CardgenError(f"chase line wickets-in-hand edges {self.hand_edges!r}: expected rising, 1-9")
        if len(self.cells) != rows or any(len(r) != cols for r in self.cells) or any(
                c not in CELL_LETTERS for r in self.cells for c in r):
            raise CardgenError(f"chase line cells: expected {rows} rows of {cols} of "
                               f"{sorted(CELL_LETTERS)}")

    @classmethod
    def from_letters(cls, rate_edges: tuple[float, ...], hand_edges: tuple[int, ...],
                     rows: tuple[str, ...]) -> ChaseLine:
        """A line written as letters, a row a string: ("TTT", "NAA", "AAA")."""
        by_letter = {v: k for k, v in CELL_LETTERS.items()}
        try:
            cells = tuple(tuple(by_letter[ch] for ch in row.upper()) for row in rows)
        except KeyError as exc:
            raise CardgenError(f"chase line cell {exc}: expected A, N, C or T") from None
        return cls(tuple(float(e) for e in rate_edges), tuple(int(h) for h in hand_edges), cells)

    def letters(self) -> tuple[str, ...]:
        return tuple("".join(CELL_LETTERS[c] for c in row) for row in self.cells)

    def column_of_down(self) -> np.ndarray:
        """(11,) the cells' column by wickets down 0..10."""
        hand = 10 - np.arange(11)
        return np.searchsorted(np.asarray(self.hand_edges), hand, side="left").astype(np.int64)

    def cells_by_down(self) -> np.ndarray:
        """(rows x 11,) int8: the cell of row k for wickets down w at k x 11 + w (the engines'
        table: one read a ball)."""
        col = self.column_of_down()
        return np.ascontiguousarray(np.asarray(self.cells, np.int8)[:, col].ravel())

    def describe(self) -> dict:
        return {"runs_per_ball_edges": list(self.rate_edges),
                "wickets_in_hand_edges": list(self.hand_edges), "cells": list(self.letters())}

    def row_words(self) -> list[str]:
        """Each row's runs needed a ball, as printed: "<= 1", "1-1.5", "> 2"."""
        e = [f"{x:g}" for x in self.rate_edges]
        if not e:
            return ["any"]
        return [f"<= {e[0]}"] + [f"{a}-{b}" for a, b in zip(e, e[1:])] + [f"> {e[-1]}"]

    def column_words(self) -> list[str]:
        """Each column's wickets in hand, as printed: "1-3", "4-6", "7-10"."""
        bounds = [0, *self.hand_edges, 10]
        return [face_range(lo + 1, hi) for lo, hi in zip(bounds, bounds[1:])]


def chase_line_of_words(spec: str) -> ChaseLine:
    """A line written on one line, as the benchmarks and `simulate --chase-line` take it: rate
    edges / wickets-in-hand edges / rows of cells, e.g. "1.5,2/3,6/TTT,NTT,AAA"."""
    try:
        rates, hands, rows = spec.split("/")
        return ChaseLine.from_letters(tuple(float(x) for x in rates.split(",") if x),
                                      tuple(int(x) for x in hands.split(",") if x),
                                      tuple(rows.split(",")))
    except ValueError:
        raise CardgenError(f"chase line {spec!r}: expected rate edges/hand edges/rows, "
                           "e.g. 1.5,2/3,6/TTT,NTT,AAA") from None


def chase_line_of_description(described: dict) -> ChaseLine:
    """The line `ChaseLine.describe` wrote."""
    return ChaseLine.from_letters(tuple(described["runs_per_ball_edges"]),
                                  tuple(described["wickets_in_hand_edges"]),
                                  tuple(described["cells"]))


@dataclass(frozen=True)
class WicketsInHand:
    """The rule's parameters: band edges (balls left per wicket in hand, T20 scale) and d20 faces."""
    attack_below: float = 5.0        # attack while balls left < this x wickets in hand
    consolidate_from: float = 8.0    # consolidate while balls left >= this x wickets in hand
    attack_bowled: int = 1           # attack, on a dot: d20 1..attack_bowled bowled (missed it)
    attack_out: int = 2              # ... attack_bowled+1..attack_out caught
    attack_four: int = 8             # ... attack_out+1..attack_four four
    attack_six: int = 10             # ... attack_four+1..attack_six six, else still a dot
    consolidate_safe: int = 12       # consolidate, on a catch: d20 1..12 kept on the ground
    # consolidate also turns fours and sixes into singles on the same faces: off, it starved the
    # powerplay (IPL 2025 powerplay run rate 8.2 against 9.7 real, docs/rules.md R12)
    consolidate_boundaries: bool = False
    # the dismissals consolidate's d20 can save (of "caught", "bowled", "lbw", "stumped")
    consolidate_saves: tuple[str, ...] = ("caught",)
    # chasing: the side attacks whatever the table says while runs needed > this x balls left
    # (None: the chase reads the table like the first innings)
    chase_attack_above: float | None = 2.0
    # the chase line (issue 41): chasing, the band by runs needed a ball x wickets in hand; it
    # replaces the clause above (None: the clause). Off by default: no design yet met the bar
    chase_line: ChaseLine | None = None

    name: str = RULE_NAME

    def thresholds(self, balls_per_innings: int) -> list[tuple[int, int, int]]:
        """Per wickets down 0..9: (wickets down, attack while balls left <= a, consolidate while
        balls left >= c). The printed table; 100-ball edges are scaled to its 100 balls."""
        scale = balls_per_innings / T20_BALLS
        rows = []
        for down in range(10):
            hand = 10 - down
            attack_max = math.ceil(self.attack_below * hand * scale - 1e-9) - 1
            consolidate_min = math.ceil(self.consolidate_from * hand * scale - 1e-9)
            rows.append((down, attack_max, consolidate_min))
        return rows

    def band(self, wickets_down: int, balls_left: int, balls_per_innings: int,
             runs_needed: int | None = None) -> int:
        """The band before a delivery (wickets down and legal balls left before it; in a chase,
        `runs_needed` to win)."""
        table = int(band_table(self, balls_per_innings)[min(wickets_down, 10), max(balls_left, 0)])
        if runs_needed is None:
            return table
        return int(self.chase_band(runs_needed, balls_left, min(wickets_down, 10), table))

    def chase_table(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The chase as the engines read it: (rate edges, cells by row x 11 + wickets down), a
        cell TABLE where the table's band stands; the clause is the line (TABLE) / (ATTACK)
        at its edge. None: the chase reads the table like the first innings."""
        return _chase_table(self)

    def chase_band(self, runs_needed, balls_left, wickets_down, table_band):  # type: ignore[no-untyped-def]
        """The band of a chasing ball (scalars or numpy arrays): the chase table's cell, or the
        wickets-in-hand table's band (`table_band`) where the cell says TABLE."""
        chase = self.chase_table()
        if chase is None:
            return table_band
        edges, cells = chase
        need = np.asarray(runs_needed)
        left = np.asarray(balls_left)
        row = np.zeros(np.broadcast(need, left).shape, np.int64)
        for edge in edges:        # behind the edge's rate: whole runs against edge x balls left
            row += need > edge * left
        cell = cells[row * 11 + np.asarray(wickets_down)]
        band = np.where(cell == TABLE, table_band, cell)
        return band if np.ndim(band) else int(band)

    def chase_attacks(self, runs_needed, balls_left):  # type: ignore[no-untyped-def]
        """Whether a chasing side attacks whatever its wickets (scalars or numpy arrays)."""
        if self.chase_attack_above is None:
            return np.zeros(np.shape(runs_needed), bool) if np.ndim(runs_needed) else False
        return runs_needed > self.chase_attack_above * balls_left

    def saves_words(self) -> str:
        """What consolidate's d20 can save, as the printed sheets say it."""
        # "chart or chance" read as two things; a held catch chance is the usual catch on the chart
        words = {"caught": "a catch (W, or a catch on the chart)", "bowled": "bowled", "lbw": "LBW",
                 "stumped": "stumped"}
        said = [words[k] for k in self.consolidate_saves]
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]

    def for_league(self, fours: float, sixes: float, balls: float) -> WicketsInHand:
        """The rule with the attack d20's four and six faces drawn from a league's own boundary
        mix (its fours and sixes off `balls` faced): ATTACK_BOUNDARY_FACES at a boundary rate of
        FULL_FACES_BOUNDARY_RATE or more, proportionally fewer below, shared between four and
        six as the league hit them (rounded half up)."""
        if balls <= 0 or fours + sixes <= 0:
            return self
        rate = (fours + sixes) / balls
        faces = min(ATTACK_BOUNDARY_FACES, math.floor(ATTACK_BOUNDARY_FACES * rate / FULL_FACES_BOUNDARY_RATE + 0.5))
        six_faces = math.floor(faces * sixes / (fours + sixes) + 0.5)
        return replace(self, attack_four=self.attack_out + faces - six_faces,
                       attack_six=self.attack_out + faces)

    def attack_ranges(self) -> list[tuple[int, int, str]]:
        """The attack d20's faces: (first, last, result) for bowled, caught, four, six and dot,
        leaving out a result with no face (a league without sixes)."""
        ends = [(self.attack_bowled, "bowled"), (self.attack_out, "caught"),
                (self.attack_four, "four"), (self.attack_six, "six"), (20, "dot")]
        starts = [0] + [end for end, _ in ends[:-1]]
        return [(lo + 1, hi, result) for lo, (hi, result) in zip(starts, ends) if hi > lo]

    def attack_faces(self) -> list[tuple[str, str]]:
        """The attack d20's faces, as printed: (faces, result), e.g. ("3-8", "four")."""
        return [(face_range(lo, hi), result) for lo, hi, result in self.attack_ranges()]

    def attack_words(self, marks: dict[str, str] | None = None) -> str:
        """The attack d20 in words, as every sheet prints it: "1 bowled, 2 caught, 3-7 four,
        8-10 six, 11-20 dot" (`marks`: a sheet's own word for a result, e.g. "B" for bowled)."""
        marks = marks or {}
        return ", ".join(f"{faces} {marks.get(result, result)}" for faces, result in self.attack_faces())

    def chase_words(self) -> str:
        """The chase clause as printed ("" when the chase reads the table like the first innings)."""
        if self.chase_line is not None:
            return "Chasing: read the band from the chase line (runs needed a ball x wickets in hand)."
        if self.chase_attack_above is None:
            return ""
        return f"Chasing, needing over {self.chase_attack_above:g} a ball: always attack."

    # --- the rule in the calibration layer's outcome space ------------------------------------
    def outcome_matrix(self, band: int, outcomes: tuple[str, ...]) -> np.ndarray:
        """T[i, j] = P(final outcome j | outcome i before the rule) in `band` (rows sum to 1)."""
        idx = {o: k for k, o in enumerate(outcomes)}
        t = np.eye(len(outcomes))
        if band == ATTACK:
            dot = idx["0"]
            t[dot, dot] = 1 - self.attack_six / 20
            t[dot, idx["bowled"]] += self.attack_bowled / 20
            t[dot, idx["caught"]] += (self.attack_out - self.attack_bowled) / 20
            t[dot, idx["4"]] += (self.attack_four - self.attack_out) / 20
            t[dot, idx["6"]] += (self.attack_six - self.attack_four) / 20
        elif band == CONSOLIDATE:
            safe = self.consolidate_safe / 20
            pairs = tuple((k, "0") for k in self.consolidate_saves)
            if self.consolidate_boundaries:
                pairs += (("4", "1"), ("6", "1"))
            for o, to in pairs:
                t[idx[o], idx[o]] = 1 - safe
                t[idx[o], idx[to]] += safe
        return t

    def mixture(self, shares: Mapping[str, float] | None, outcomes: tuple[str, ...]) -> np.ndarray:
        """The rule averaged over a player's band shares (attack / normal / consolidate)."""
        if not shares:
            return np.eye(len(outcomes))
        total = sum(float(shares.get(b, 0.0)) for b in BANDS)
        if total <= 0:
            return np.eye(len(outcomes))
        # summed from a zero matrix, not 0: the same figures, and a matrix whatever BANDS holds
        return sum((float(shares.get(b, 0.0)) / total * self.outcome_matrix(k, outcomes)
                    for k, b in enumerate(BANDS)), np.zeros((len(outcomes), len(outcomes))))

    def describe(self) -> dict:
        """The rule's parameters as a card set records them (`from_description` reads them back)."""
        attack = {result: [lo, hi] for lo, hi, result in self.attack_ranges() if result != "dot"}
        return {"name": self.name, "attack_below_balls_per_wicket": self.attack_below,
                "consolidate_from_balls_per_wicket": self.consolidate_from,
                "attack_d20": attack,
                "consolidate_d20_safe": [1, self.consolidate_safe],
                "consolidate_applies_to": list(self.consolidate_saves)
                + (["4", "6"] if self.consolidate_boundaries else []),
                **({"chase_attack_above_runs_per_ball": self.chase_attack_above}
                   if self.chase_attack_above is not None else {}),
                **({"chase_line": self.chase_line.describe()} if self.chase_line is not None else {})}


RULE = WicketsInHand()


def from_description(described: dict) -> WicketsInHand:
    """The rule a card set's `rule_parameters` describe (what `describe` wrote); a set written
    before the faces followed the league has the same keys with the fixed faces."""
    try:
        d20 = described["attack_d20"]
        if not isinstance(d20, dict) or not set(d20) <= {"bowled", "caught", "four", "six"}:
            raise ValueError(f"attack_d20 {d20!r}")
        last, end = {}, 0   # each result's last face; one with no face ends where the one before did
        for result in ("bowled", "caught", "four", "six"):
            if result in d20:
                lo, hi = (int(face) for face in d20[result])
                if lo != end + 1 or hi < lo or hi > 20:      # the faces run on from 1, in order
                    raise ValueError(f"attack_d20 {result} {d20[result]!r}")
                end = hi
            last[result] = end
        applies = list(described["consolidate_applies_to"])
        return WicketsInHand(
            attack_below=float(described["attack_below_balls_per_wicket"]),
            consolidate_from=float(described["consolidate_from_balls_per_wicket"]),
            attack_bowled=last["bowled"], attack_out=last["caught"],
            attack_four=last["four"], attack_six=last["six"],
            consolidate_safe=int(described["consolidate_d20_safe"][1]),
            consolidate_boundaries="4" in applies,
            consolidate_saves=tuple(k for k in applies if k not in ("4", "6")),
            chase_attack_above=(float(described["chase_attack_above_runs_per_ball"])
                                if "chase_attack_above_runs_per_ball" in described else None),
            chase_line=(chase_line_of_description(described["chase_line"])
                        if "chase_line" in described else None))
    except (KeyError, TypeError, ValueError, IndexError, CardgenError) as exc:
        raise CardgenError(f"the card set's rule_parameters are damaged ({exc}); rebuild the card set") from None


def rule_of_set(card_set: Any) -> WicketsInHand | None:
    """The rule a card set (`cardgen.cardset.CardSet`, or its document) was calibrated for, with
    its own attack faces (None: a set made for the Quicket rules as printed; `cardgen.rule_sets`
    reads which rule set a card set names)."""
    from cardgen.rule_sets import ADVANCED, rules_of_set   # (it imports this module)
    if rules_of_set(card_set) != ADVANCED:
        return None
    parameters = (card_set.get("rule_parameters") if isinstance(card_set, Mapping)
                  else card_set.rule_parameters)
    if not parameters:
        return RULE
    return from_description(parameters)


@lru_cache(maxsize=16)
def band_table(rule: WicketsInHand, balls_per_innings: int) -> np.ndarray:
    """(11, balls + 1) band by wickets down (0..10) and legal balls left (0..balls)."""
    table = np.full((11, balls_per_innings + 1), NORMAL, dtype=np.int8)
    left = np.arange(balls_per_innings + 1)
    for down, attack_max, consolidate_min in rule.thresholds(balls_per_innings):
        table[down, left <= attack_max] = ATTACK
        table[down, left >= consolidate_min] = CONSOLIDATE
    table[10] = ATTACK  # never bowled to (the innings is over), kept defined
    table.setflags(write=False)
    return table


@lru_cache(maxsize=16)
def _chase_table(rule: WicketsInHand) -> tuple[np.ndarray, np.ndarray] | None:
    """`WicketsInHand.chase_table`, built once a rule (read-only)."""
    if rule.chase_line is not None:
        edges = np.asarray(rule.chase_line.rate_edges, np.float64)
        cells = rule.chase_line.cells_by_down()
    elif rule.chase_attack_above is None:
        return None
    else:
        edges = np.asarray([rule.chase_attack_above], np.float64)
        cells = np.concatenate([np.full(11, TABLE, np.int8), np.full(11, ATTACK, np.int8)])
    edges.setflags(write=False)
    cells.setflags(write=False)
    return edges, cells


def rule_named(name: str | None) -> WicketsInHand | None:
    """The rule a card set or the command line names (None: the rules as printed)."""
    if name in (None, "", CLASSIC_NAME):
        return None
    if name == RULE_NAME:
        return RULE
    raise CardgenError(f"unknown rule {name!r}; expected {RULE_NAME!r} or {CLASSIC_NAME!r}")
