"""Small hand-made card sets: the rules' example cards, and random ones for stress tests.

Used by the rules tests, the engine-agreement tests and the benchmark; never by the real
`validate`/`simulate` commands, which play the calibrated set.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cardgen.calibrate.model import chart_document

if TYPE_CHECKING:  # pandas is imported only when a table is asked for
    import pandas as pd

# The rules text's example cards (Chris Green, bowler; Cooper Connolly, striker C(3)/RO(4))
GREEN_BOWLER = [(1, 1, "B"), (2, 2, "W"), (3, 6, "F"), (7, 41, "0"), (42, 70, "1"),
                (71, 89, "2"), (90, 96, "4"), (97, 100, "6")]
CONNOLLY_STRIKER = [(1, 1, "W"), (2, 3, "F"), (4, 36, "0"), (37, 67, "1"), (68, 86, "2"),
                    (87, 93, "4"), (94, 100, "6")]
# One row of a plausible fielding chart holding every result; each d6 row is a rotation of it
FIELDING_ROW = ["bowled", "lbw", "caught", "caught", "catch_chance", "run_out", "run_out_chance",
                "stumped", "stumping_chance", "leg_bye", "leg_bye_4", "bye", "wide", "wide",
                "no_ball", "0", "bye_4", "1", "1", "2"]


def example_fielding_chart() -> list[list[str]]:
    return [FIELDING_ROW[r:] + FIELDING_ROW[:r] for r in range(6)]


def chart(ranges: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"lo": lo, "hi": hi, "result": res} for lo, hi, res in ranges]


# Typical slot counts (per 100) of each result, centre of the random charts
TYPICAL = {"B": 2, "W": 5, "F": 8, "0": 33, "1": 30, "2": 9, "4": 9, "6": 4}


def random_chart(rng: np.random.Generator, kind: str, spread: float = 10.0) -> list[dict[str, Any]]:
    """A random chart tiling 1..100: widths Dirichlet around TYPICAL (smaller spread: wilder)."""
    results = (["B"] if kind == "bowler" else []) + ["W", "F", "0", "1", "2", "4", "6"]
    alpha = np.array([TYPICAL[r] for r in results], float)
    weights = rng.dirichlet(alpha / alpha.sum() * spread)
    cuts = np.round(np.cumsum(weights) * 100).astype(int)
    cuts[-1] = 100
    out, lo = [], 1
    for res, hi in zip(results, cuts):
        if hi >= lo:
            out.append({"lo": lo, "hi": int(hi), "result": res})
            lo = int(hi) + 1
    return out


def example_card_set(fmt: str = "T20", rng: np.random.Generator | None = None,
                     teams: tuple[str, ...] = ("Sydney Thunder", "Perth Scorchers")) -> dict[str, Any]:
    """Two (or more) teams of 11, every player with a striker and a bowler card.

    Without `rng` every card is the rules' example card; with it, charts, ratings and the
    fielding chart are random (for invariant tests over many odd matches).
    """
    cards: list[dict[str, Any]] = []
    team_entries = []
    for _t, team in enumerate(teams):
        ids = [f"{team[:3].lower()}{i:02d}" for i in range(11)]
        for i, pid in enumerate(ids):
            catch = int(rng.integers(1, 21)) if rng is not None else 3 + i % 10
            run_out = int(rng.integers(1, 21)) if rng is not None else 4 + i % 9
            player = {"id": pid, "name": f"{team.split()[0]} {i + 1}", "catch": catch,
                      "run_out": run_out, "keeper": (8 if rng is None else int(rng.integers(1, 21)))
                      if i == 2 else None}
            s_chart = random_chart(rng, "striker") if rng is not None else chart(CONNOLLY_STRIKER)
            b_chart = random_chart(rng, "bowler") if rng is not None else chart(GREEN_BOWLER)
            cards.append({"player": player, "team": team, "kind": "striker", "chart": s_chart,
                          "position": i + 1})
            cards.append({"player": dict(player), "team": team, "kind": "bowler",
                          "chart": b_chart})
        team_entries.append({"name": team, "batting_order": ids, "wicketkeeper": ids[2]})
    if rng is None:
        fielding = example_fielding_chart()
    else:
        row_pool = FIELDING_ROW
        fielding = [[row_pool[int(k)] for k in rng.integers(0, len(row_pool), 20)] for _ in range(6)]
    return {"schema_version": 1, "competition": {"code": "TEST", "name": "Example"},
            "season": "2024-25", "format": fmt, "fielding_chart": chart_document(fielding),
            "teams": team_entries, "cards": cards}


def example_bowling(card_set: dict[str, Any]) -> pd.DataFrame:
    """A bowling table in the stats layer's shape: the last six of each XI share the overs."""
    import pandas as pd
    rows = []
    for team in card_set["teams"]:
        for i, pid in enumerate(team["batting_order"]):
            rows.append({"player_id": pid, "team": team["name"],
                         "legal_balls": [0, 0, 0, 0, 0, 10, 30, 40, 40, 40, 40][i]})
    return pd.DataFrame(rows)


def example_lineups(card_set: dict[str, Any]) -> pd.DataFrame:
    import pandas as pd
    rows = []
    for team in card_set["teams"]:
        for i, pid in enumerate(team["batting_order"]):
            rows.append({"match_id": "1", "team": team["name"], "player_id": pid,
                         "batting_position": i + 1, "batted": True, "balls_bowled": 0,
                         "keeper": pid == team["wicketkeeper"]})
    return pd.DataFrame(rows)
