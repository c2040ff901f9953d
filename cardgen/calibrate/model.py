"""The game's vocabulary as calibration sees it: card results, fielding results, delivery outcomes.

A card is a vector of slot counts over CARD_RESULTS (summing to 100). A delivery ends in exactly one
of OUTCOMES; the analytic expectation (`cardgen.calibrate.expect`) is a probability vector over them.
"""
from __future__ import annotations

import numpy as np

from cardgen.errors import CardSetError

# Chart order on a printed card (B only on bowler cards; 3 is never used, see docs/calibration.md)
CARD_RESULTS: tuple[str, ...] = ("B", "W", "F", "0", "1", "2", "3", "4", "6")
CARD_INDEX = {r: i for i, r in enumerate(CARD_RESULTS)}
SLOTS = 100

FIELDING_RESULTS: tuple[str, ...] = (
    "bowled", "lbw", "run_out", "caught", "stumped", "catch_chance", "run_out_chance",
    "stumping_chance", "leg_bye", "bye", "wide", "no_ball", "0", "1", "2", "3", "4", "6",
    "leg_bye_4", "bye_4")
FIELD_ROWS, FIELD_COLS = 6, 20

# Every way a delivery can end in play.
OUTCOMES: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "6",
    "bowled", "caught", "lbw", "stumped", "run_out_striker", "run_out_non_striker",
    "wide", "no_ball", "leg_bye", "bye", "leg_bye_4", "bye_4")
OUT = {o: i for i, o in enumerate(OUTCOMES)}
N_OUT = len(OUTCOMES)

BAT_RUNS = np.array([{"1": 1, "2": 2, "3": 3, "4": 4, "6": 6}.get(o, 0) for o in OUTCOMES], float)
# a boundary leg bye or bye (four to Extras) is one delivery worth four runs
EXTRA_RUNS = np.array([{"wide": 1.0, "no_ball": 1.0, "leg_bye": 1.0, "bye": 1.0, "leg_bye_4": 4.0,
                        "bye_4": 4.0}.get(o, 0.0) for o in OUTCOMES])
LEGAL = np.array([0.0 if o in ("wide", "no_ball") else 1.0 for o in OUTCOMES])
FACED = np.array([0.0 if o == "wide" else 1.0 for o in OUTCOMES])
CHARGED_TO_BOWLER = np.array([1.0 if o in ("wide", "no_ball") else 0.0 for o in OUTCOMES])
STRIKER_OUT = np.array([1.0 if o in ("bowled", "caught", "lbw", "stumped", "run_out_striker")
                        else 0.0 for o in OUTCOMES])
BOWLER_WICKET = np.array([1.0 if o in ("bowled", "caught", "lbw", "stumped") else 0.0
                          for o in OUTCOMES])
# dismissals a free hit cancels (only run-outs stand); they become dots
FREE_HIT_VOID = np.array([1.0 if o in ("bowled", "caught", "lbw", "stumped") else 0.0
                          for o in OUTCOMES])

# Real dismissal kinds as the game groups them
KIND_OF_OUTCOME = {"bowled": "bowled", "caught": "caught", "lbw": "lbw", "stumped": "stumped",
                   "run_out_striker": "run out", "run_out_non_striker": "run out"}
GAME_KINDS = ("bowled", "caught", "lbw", "run out", "stumped")


def real_kind(kind: str) -> str | None:
    """The game's dismissal kind for a Cricsheet kind (None: no game equivalent)."""
    return {"caught and bowled": "caught", "hit wicket": "bowled"}.get(
        kind, kind if kind in GAME_KINDS else None)


def slots_to_chart(slots: np.ndarray | list[int]) -> list[dict]:
    """Slot counts (CARD_RESULTS order) -> ranges over 1..100 in printed order."""
    chart, lo = [], 1
    for result, n in zip(CARD_RESULTS, slots):
        n = int(n)
        if n <= 0:
            continue
        chart.append({"lo": lo, "hi": lo + n - 1, "result": result})
        lo += n
    if lo != SLOTS + 1:
        raise ValueError(f"card slots sum to {lo - 1}, not {SLOTS}")
    return chart


def _roll(value: object) -> int | None:
    """A chart bound as an int (JSON may spell 40 as 40.0); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def chart_results(chart: list[dict], where: str = "chart") -> np.ndarray:
    """A card's ranges -> the CARD_RESULTS index each 2d10 roll 1..100 gives (100 int8 entries).

    The one parser of printed charts: calibration (`chart_to_slots`) and the engines
    (`cardgen.sim.model.chart_table`) both read charts through it, so they cannot disagree. Each
    range must be whole numbers 1 <= lo <= hi <= 100 naming a card result, and the ranges must cover
    1..100 exactly once; otherwise CardSetError names `where` and the fault.
    """
    if not isinstance(chart, list):
        raise CardSetError(f"{where}: the chart is not a list of ranges")
    table = np.full(SLOTS, -1, dtype=np.int8)
    for cell in chart:
        try:
            lo, hi, result = _roll(cell["lo"]), _roll(cell["hi"]), cell["result"]
        except (KeyError, TypeError):
            raise CardSetError(f"{where}: chart range {cell!r} needs lo, hi and result") from None
        if not isinstance(result, str) or result not in CARD_INDEX:
            raise CardSetError(f"{where}: unknown chart result {result!r}")
        if lo is None or hi is None or not 1 <= lo <= hi <= SLOTS:
            raise CardSetError(f"{where}: bad range {cell['lo']!r}-{cell['hi']!r} "
                               f"(rolls run 1 to {SLOTS}, low end first)")
        if (table[lo - 1:hi] != -1).any():
            raise CardSetError(f"{where}: range {lo}-{hi} overlaps another")
        table[lo - 1:hi] = CARD_INDEX[result]
    if (table == -1).any():
        missing = int(np.flatnonzero(table == -1)[0]) + 1
        raise CardSetError(f"{where}: chart leaves roll {missing} uncovered")
    return table


def chart_to_slots(chart: list[dict], where: str = "chart") -> np.ndarray:
    """Ranges -> slot counts (CARD_RESULTS order); CardSetError unless 1..100 is tiled exactly."""
    return np.bincount(chart_results(chart, where), minlength=len(CARD_RESULTS))


def card_where(card: dict) -> str:
    """How an error names a card of a card set: player, team and kind."""
    player = card.get("player") or {}
    return (f"card {player.get('name', player.get('id', '?'))} "
            f"({card.get('team', '?')}, {card.get('kind', '?')})")


MAX_DEFENCE = 20
ALL_OUT = 10  # eleven a side: the tenth wicket ends an innings (T20 and the Hundred alike)
# The rating a player plays at when the card set gives none (rules R9; the schema makes ratings
# optional): the engines use it, and the sheets print a keeper's (one who kept in no match)
DEFAULT_CATCH = 10
DEFAULT_RUN_OUT = 10
DEFAULT_KEEPER = 10


def card_defence(card: dict) -> int:
    """A card's Defence rating (docs/rules.md R13): 1..20 on a striker card, 0 when it has none
    (absent, null or 0). Anything else, or a rating on a bowler card, is a broken card set: the
    printed card would say what the engines do not play. The one reading of the field, for
    the expectation, the engines and the printed kit."""
    value = card.get("defence")
    if value is None or (value == 0 and not isinstance(value, bool)):
        return 0
    name = (card.get("player") or {}).get("name", "?")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 1 <= int(value) <= MAX_DEFENCE:
        raise CardSetError(f"{name}'s {card.get('kind', '')} card has defence {value!r}: a Defence "
                           f"rating is a whole number from 1 to {MAX_DEFENCE}")
    if card.get("kind") != "striker":
        raise CardSetError(f"{name}'s bowler card has a defence rating: only striker cards carry one")
    return int(value)


# The chart's boundary extras (docs/rules.md R14) are an extension of the card-set contract,
# whose cell names are fixed: a four of leg byes is stored as a "leg_bye" cell whose position
# (d6, d20) is listed in the chart's "fours", so a reader that knows only the contract still
# finds a leg bye there.
FOUR_OF = {"leg_bye": "leg_bye_4", "bye": "bye_4"}


def chart_cells(card_set: dict) -> list[list[str]]:
    """The set's fielding chart as the game plays it (6 rows of 20 cell names, fours included).
    The one reading of the chart, for the expectation, the engines, the printed kit and the site."""
    chart = card_set.get("fielding_chart")
    if not isinstance(chart, dict) or not isinstance(chart.get("cells"), list):
        raise CardSetError("the card set has no fielding chart (fielding_chart.cells)")
    cells = [list(row) if isinstance(row, list) else row for row in chart["cells"]]
    for where in chart.get("fours") or []:
        try:
            d6, d20 = (int(x) for x in where)
            if not (1 <= d6 <= FIELD_ROWS and 1 <= d20 <= FIELD_COLS):
                raise IndexError
            cell = cells[d6 - 1][d20 - 1]
        except (TypeError, ValueError, IndexError):
            raise CardSetError(f"fielding_chart.fours: {where!r} is not a (d6, d20) cell of the chart")
        if cell not in FOUR_OF:
            raise CardSetError(f"fielding_chart.fours: cell {where!r} is {cell!r}, not a leg bye or bye")
        cells[d6 - 1][d20 - 1] = FOUR_OF[cell]
    return cells


def chart_document(cells: list[list[str]]) -> dict:
    """The chart as the card set stores it: contract cell names, plus the fours' positions."""
    plain = {four: kind for kind, four in FOUR_OF.items()}
    fours = [[r + 1, c + 1] for r, row in enumerate(cells) for c, cell in enumerate(row)
             if cell in plain]
    document: dict = {"cells": [[plain.get(cell, cell) for cell in row] for row in cells]}
    if fours:
        document["fours"] = fours
    return document
