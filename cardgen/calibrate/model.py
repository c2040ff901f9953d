"""The game's vocabulary as calibration sees it: card results, fielding results, delivery outcomes.

A card is a vector of slot counts over CARD_RESULTS (summing to 100). A delivery ends in exactly one
of OUTCOMES; the analytic expectation (`cardgen.calibrate.expect`) is a probability vector over them.
"""
from __future__ import annotations

import numpy as np

from cardgen.errors import CardSetError
from cardgen.cardset import (CARD_INDEX, CARD_RESULTS, FIELD_COLS, FIELD_ROWS, FOUR_OF,  # noqa: F401
                             MAX_DEFENCE, SLOTS, Card, CardSet, chart_results, chart_to_slots)

FIELDING_RESULTS: tuple[str, ...] = (
    "bowled", "lbw", "run_out", "caught", "stumped", "catch_chance", "run_out_chance",
    "stumping_chance", "leg_bye", "bye", "wide", "no_ball", "0", "1", "2", "3", "4", "6",
    "leg_bye_4", "bye_4")

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


def card_where(card: Card | dict) -> str:
    """How an error names a card of a card set: player, team and kind (`Card.where`)."""
    return (card if isinstance(card, Card) else Card.from_json(card)).where


ALL_OUT = 10  # eleven a side: the tenth wicket ends an innings (T20 and the Hundred alike)
# The rating a player plays at when the card set gives none (rules R9; the schema makes ratings
# optional): the engines use it, and the sheets print a keeper's (one who kept in no match)
DEFAULT_CATCH = 10
DEFAULT_RUN_OUT = 10
DEFAULT_KEEPER = 10


def card_defence(card: Card | dict) -> int:
    """A card's Defence rating (`Card.defence_rating`: 0 for none, checked)."""
    return (card if isinstance(card, Card) else Card.from_json(card)).defence_rating


def chart_cells(card_set: CardSet | dict) -> list[list[str]]:
    """The set's fielding chart as the game plays it (`CardSet.game_cells`)."""
    if isinstance(card_set, CardSet):
        return card_set.game_cells()
    chart = card_set.get("fielding_chart")
    if not isinstance(chart, dict) or not isinstance(chart.get("cells"), list):
        raise CardSetError("the card set has no fielding chart (fielding_chart.cells)")
    return CardSet.from_json({"cards": [], **card_set}).game_cells()


def chart_document(cells: list[list[str]]) -> dict:
    """The chart as the card set stores it: contract cell names, plus the fours' positions."""
    plain = {four: kind for kind, four in FOUR_OF.items()}
    fours = [[r + 1, c + 1] for r, row in enumerate(cells) for c, cell in enumerate(row)
             if cell in plain]
    document: dict = {"cells": [[plain.get(cell, cell) for cell in row] for row in cells]}
    if fours:
        document["fours"] = fours
    return document
