"""Calibrate a season: ratings -> fielding chart -> cards, iterated to a fixed point of league means.

Targets are per ball faced (strikers) or per legal ball (bowlers), straight from the stats tables.
Samples under SMALL_SAMPLE_BALLS are shrunk toward the league with a prior worth PRIOR_BALLS
balls (empirical Bayes with a beta/Dirichlet prior centred on the league rate): the shrunk rate is
(count + PRIOR_BALLS x league rate) / (balls + PRIOR_BALLS). Larger samples are matched as they are.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardgen.calibrate.expect import LeagueModel, card_matrix, fielding_vector
from cardgen.calibrate.fielding import ChartPlan, layout, league_event_counts, plan_counts
from cardgen.calibrate.model import CARD_INDEX, CARD_RESULTS, SLOTS
from cardgen.calibrate.ratings import Ratings, compute_ratings
from cardgen.calibrate.solve import Target, continuous_card, round_slots, integer_card
from cardgen.stats.tables import SeasonStats

SMALL_SAMPLE_BALLS = 60
PRIOR_BALLS = 30.0
FIXED_POINT_ROUNDS = 8
INTEGER_ROUNDS = 2

# weights of each figure in the fit: relative error / tolerance, headline figures dominate
STRIKER_WEIGHTS = {"runs": 1 / 0.004, "dismissal_rate": 1 / 0.01, "fours": 1 / 0.08,
                   "sixes": 1 / 0.08, "dots": 1 / 0.05, "ones": 1 / 0.15, "field_outs": 1 / 0.5}
BOWLER_WEIGHTS = {"conceded": 1 / 0.004, "wicket_rate": 1 / 0.01, "fours": 1 / 0.08,
                  "sixes": 1 / 0.08, "dots": 1 / 0.05, "ones": 1 / 0.15, "extras": 1 / 0.2,
                  "bowled": 1 / 0.3}


@dataclass
class CardFit:
    kind: str
    player_id: str
    team: str
    balls: int
    small_sample: bool
    target: Target
    slots: np.ndarray = field(default_factory=lambda: np.zeros(len(CARD_RESULTS), int))


@dataclass
class Calibration:
    stats: SeasonStats
    ratings: Ratings
    plan: ChartPlan
    cells: list[list[str]]
    model: LeagueModel
    strikers: list[CardFit]
    bowlers: list[CardFit]


def _shrink(count: float, balls: float, league_rate: float) -> float:
    if balls >= SMALL_SAMPLE_BALLS:
        return count / balls
    return (count + PRIOR_BALLS * league_rate) / (balls + PRIOR_BALLS)


def league_striker_rates(league: dict) -> dict[str, float]:
    faced = league["balls_faced"]
    o = league["outcomes_faced"]
    k = league["dismissal_kinds"]
    return {"runs": league["runs_batter"] / faced, "dismissal_rate": league["dismissals"] / faced,
            "fours": o["4"] / faced, "sixes": o["6"] / faced, "dots": o["0"] / faced,
            "ones": o["1"] / faced,
            "field_outs": (k.get("lbw", 0) + k.get("stumped", 0) + k.get("run out", 0)) / faced}


def league_bowler_rates(league: dict) -> dict[str, float]:
    legal = league["legal_balls"]
    o = league["outcomes_faced"]
    k = league["dismissal_kinds"]
    return {"conceded": (league["runs_batter"] + league["wide_runs"] + league["no_ball_runs"]) / legal,
            "wicket_rate": league["bowler_wickets"] / legal, "fours": o["4"] / legal,
            "sixes": o["6"] / legal, "dots": o["0"] / legal, "ones": o["1"] / legal,
            "extras": (league["wide_runs"] + league["no_ball_runs"]) / legal,
            "bowled": (k.get("bowled", 0) + k.get("hit wicket", 0)) / legal}


def striker_target(row, league_rates: dict[str, float]) -> Target:
    n = float(row.balls)
    counts = {"runs": row.runs, "dismissal_rate": row.dismissals, "fours": row.fours,
              "sixes": row.sixes, "dots": row.dots, "ones": row.ones,
              "field_outs": row.out_lbw + row.out_stumped + row.out_run_out}
    figs = {k: _shrink(float(v), n, league_rates[k]) for k, v in counts.items()}
    scales = {k: max(abs(figs[k]), 0.25 * league_rates[k]) for k in figs}
    return Target("striker", figs, dict(STRIKER_WEIGHTS), scales)


def bowler_target(row, league_rates: dict[str, float]) -> Target:
    n = float(row.legal_balls)
    counts = {"conceded": row.runs_conceded, "wicket_rate": row.wickets, "fours": row.conceded_n4,
              "sixes": row.conceded_n6, "dots": row.dots, "ones": row.conceded_n1,
              "extras": row.wides + row.no_balls, "bowled": row.wk_bowled + row.wk_hit_wicket}
    figs = {k: _shrink(float(v), n, league_rates[k]) for k, v in counts.items()}
    scales = {k: max(abs(figs[k]), 0.25 * league_rates[k]) for k in figs}
    return Target("bowler", figs, dict(BOWLER_WEIGHTS), scales)


def _league_card(rates: dict[str, float], kind: str) -> np.ndarray:
    """A rough starting card from league rates (only used to seed the fixed point)."""
    x = np.zeros(len(CARD_RESULTS))
    x[CARD_INDEX["W"]] = 100 * rates.get("dismissal_rate", rates.get("wicket_rate", 0.05))
    x[CARD_INDEX["F"]] = 8.0
    x[CARD_INDEX["1"]] = 100 * rates["ones"]
    x[CARD_INDEX["4"]] = 100 * rates["fours"]
    x[CARD_INDEX["6"]] = 100 * rates["sixes"]
    x[CARD_INDEX["2"]] = 8.0
    x[CARD_INDEX["0"]] = max(SLOTS - x.sum(), 0)
    return x * SLOTS / x.sum()


def _weighted_mean(fits: list[CardFit], cards: list[np.ndarray]) -> np.ndarray:
    w = np.array([max(f.balls, 0) for f in fits], float)
    m = np.array(cards, float)
    return (w @ m) / w.sum() if w.sum() > 0 else m.mean(axis=0)


def build_chart(stats: SeasonStats) -> tuple[Ratings, ChartPlan, list[list[str]]]:
    """Ratings and fielding chart, with the RO and keeper scales solved so that run-outs and
    stumpings per wide match the league's exactly (up to rating granularity)."""
    from cardgen.calibrate.expect import fielding_vector as fv
    from cardgen.calibrate.model import OUT
    from cardgen.calibrate.expect import FieldingSkill
    league = stats.league
    ev = league_event_counts(league)
    plan = plan_counts(league)
    cells = layout(plan.counts)
    wide_share = max(ev["wide"], 1.0)

    def rates(ratings: Ratings) -> tuple[float, float]:
        v = fv(cells, ratings.skill())
        per_wide = 1.0 / v[OUT["wide"]]
        ro = (v[OUT["run_out_striker"]] + v[OUT["run_out_non_striker"]]) * per_wide
        return ro, v[OUT["stumped"]] * per_wide

    want_ro = ev["run_out"] / wide_share
    want_st = ev["stumped"] / wide_share

    def solve_mean(which: str, want: float) -> float:
        lo, hi = 1.0, 20.0
        for _ in range(30):
            mid = (lo + hi) / 2
            r = compute_ratings(stats.fielding, **{which: mid})
            got = rates(r)[0 if which == "run_out_mean" else 1]
            if got < want:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    ro_mean = solve_mean("run_out_mean", want_ro)
    k_mean = solve_mean("keeper_mean", want_st)
    ratings = compute_ratings(stats.fielding, run_out_mean=ro_mean, keeper_mean=k_mean)
    return ratings, plan, cells


def calibrate(stats: SeasonStats) -> Calibration:
    ratings, plan, cells = build_chart(stats)
    a = card_matrix(fielding_vector(cells, ratings.skill()))
    ls, lb = league_striker_rates(stats.league), league_bowler_rates(stats.league)
    strikers = [CardFit("striker", r.player_id, r.team, int(r.balls),
                        int(r.balls) < SMALL_SAMPLE_BALLS, striker_target(r, ls))
                for r in stats.batting.itertuples()]
    bowlers = [CardFit("bowler", r.player_id, r.team, int(r.legal_balls),
                       int(r.legal_balls) < SMALL_SAMPLE_BALLS, bowler_target(r, lb))
               for r in stats.bowling.itertuples() if r.legal_balls > 0]
    model = LeagueModel(a, _league_card(lb, "bowler"), _league_card(ls, "striker"))
    for _ in range(FIXED_POINT_ROUNDS):
        s_cards = [continuous_card(f.target, model) for f in strikers]
        model = LeagueModel(a, model.mean_bowler, _weighted_mean(strikers, s_cards))
        b_cards = [continuous_card(f.target, model) for f in bowlers]
        model = LeagueModel(a, _weighted_mean(bowlers, b_cards), model.mean_striker)
    s_int = [round_slots(x) for x in s_cards]
    b_int = [round_slots(x) for x in b_cards]
    for _ in range(INTEGER_ROUNDS):
        s_int = [integer_card(f.target, model, x) for f, x in zip(strikers, s_int)]
        model = LeagueModel(a, model.mean_bowler, _weighted_mean(strikers, s_int))
        b_int = [integer_card(f.target, model, x) for f, x in zip(bowlers, b_int)]
        model = LeagueModel(a, _weighted_mean(bowlers, b_int), model.mean_striker)
    for f, x in zip(strikers, s_int):
        f.slots = np.asarray(x, int)
    for f, x in zip(bowlers, b_int):
        f.slots = np.asarray(x, int)
    return Calibration(stats, ratings, plan, cells, model, strikers, bowlers)
