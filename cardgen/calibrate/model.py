"""The game's vocabulary as calibration sees it: card results, fielding results, delivery outcomes.

A card is a vector of slot counts over CARD_RESULTS (summing to 100). A delivery ends in exactly one
of OUTCOMES; the analytic expectation (`cardgen.calibrate.expect`) is a probability vector over them.
"""
from __future__ import annotations

import numpy as np

# Chart order on a printed card (B only on bowler cards; 3 is never used, see docs/calibration.md)
CARD_RESULTS: tuple[str, ...] = ("B", "W", "F", "0", "1", "2", "3", "4", "6")
CARD_INDEX = {r: i for i, r in enumerate(CARD_RESULTS)}
SLOTS = 100

FIELDING_RESULTS: tuple[str, ...] = (
    "bowled", "lbw", "run_out", "caught", "stumped", "catch_chance", "run_out_chance",
    "stumping_chance", "leg_bye", "bye", "wide", "no_ball", "0", "1", "2", "3", "4", "6")
FIELD_ROWS, FIELD_COLS = 6, 20

# Every way a delivery can end in play.
OUTCOMES: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "6",
    "bowled", "caught", "lbw", "stumped", "run_out_striker", "run_out_non_striker",
    "wide", "no_ball", "leg_bye", "bye")
OUT = {o: i for i, o in enumerate(OUTCOMES)}
N_OUT = len(OUTCOMES)

BAT_RUNS = np.array([{"1": 1, "2": 2, "3": 3, "4": 4, "6": 6}.get(o, 0) for o in OUTCOMES], float)
EXTRA_RUNS = np.array([1.0 if o in ("wide", "no_ball", "leg_bye", "bye") else 0.0 for o in OUTCOMES])
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


def chart_to_slots(chart: list[dict]) -> np.ndarray:
    """Ranges -> slot counts, checking 1..100 is covered exactly once."""
    slots = np.zeros(len(CARD_RESULTS), dtype=int)
    covered = np.zeros(SLOTS + 1, dtype=int)
    for rng in chart:
        covered[rng["lo"]:rng["hi"] + 1] += 1
        slots[CARD_INDEX[rng["result"]]] += rng["hi"] - rng["lo"] + 1
    if covered[0] or not (covered[1:] == 1).all():
        raise ValueError("chart does not cover 1..100 exactly once")
    return slots
