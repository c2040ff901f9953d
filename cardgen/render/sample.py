"""The two example cards printed in the rules (CHRIS GREEN, COOPER CONNOLLY) as a tiny card set.

Used to preview layouts without a calibrated season (`cardgen build --sample`-style checks in
tests). The charts and figures are the rules' own; the fielding chart is a plain placeholder.
"""
from __future__ import annotations

from typing import Any

from cardgen import ATTRIBUTION


def _chart(ranges: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"lo": lo, "hi": hi, "result": result} for lo, hi, result in ranges]


def _placeholder_fielding_chart() -> list[list[str]]:
    row = ["caught", "catch_chance", "run_out_chance", "stumping_chance", "bowled", "lbw", "run_out",
           "stumped", "leg_bye", "bye", "wide", "no_ball", "0", "1", "1", "2", "2", "3", "4", "6"]
    return [row[r:] + row[:r] for r in range(6)]


def rules_example_card_set() -> dict[str, Any]:
    return {
        "schema_version": 1,
        "competition": {"code": "BBL", "name": "Big Bash League", "nation": "Australia", "sex": "men"},
        "season": "2024-25",
        "format": "T20",
        "attribution": ATTRIBUTION,
        "fielding_chart": {"cells": _placeholder_fielding_chart()},
        "teams": [
            {"name": "Perth Scorchers", "short_name": "Perth", "batting_order": ["fe366f34"],
             "wicketkeeper": "fe366f34", "reserves": [], "bowlers": []},
            {"name": "Sydney Thunder", "short_name": "Sydney (T)", "batting_order": ["c5ed4a22"],
             "wicketkeeper": "c5ed4a22", "reserves": [], "bowlers": ["c5ed4a22"]},
        ],
        "cards": [
            {"player": {"id": "c5ed4a22", "name": "Chris Green", "full_name": "Christopher James Green",
                        "country": "Australia", "batting_role": "All-Rounder", "bowling_role": "Spin",
                        "catch": 12, "run_out": 9, "keeper": None},
             "team": "Sydney Thunder", "kind": "bowler", "position": 7,
             "chart": _chart([(1, 1, "B"), (2, 2, "W"), (3, 6, "F"), (7, 41, "0"), (42, 70, "1"),
                              (71, 89, "2"), (90, 96, "4"), (97, 100, "6")]),
             "usage": {"letter": "A", "innings": 11},
             "real": {"innings": 11, "balls": 246, "runs": 301, "dismissals": 12, "overs": "41.0",
                      "economy": 7.34}},
            {"player": {"id": "fe366f34", "name": "Cooper Connolly", "full_name": "Cooper Connolly",
                        "country": "Australia", "batting_role": "All-Rounder", "bowling_role": "Spin",
                        "catch": 3, "run_out": 4, "keeper": None},
             "team": "Perth Scorchers", "kind": "striker", "position": 4,
             "chart": _chart([(1, 1, "W"), (2, 3, "F"), (4, 36, "0"), (37, 67, "1"), (68, 86, "2"),
                              (87, 93, "4"), (94, 100, "6")]),
             "real": {"innings": 10, "balls": 267, "runs": 351, "dismissals": 7, "fours": 20,
                      "sixes": 19, "high_score": 66, "strike_rate": 131.46}},
        ],
    }
