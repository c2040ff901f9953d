"""Calibrate a season: ratings -> fielding chart -> cards, iterated to a fixed point of league means.

Targets are per ball faced (strikers) or per legal ball (bowlers), straight from the stats tables.
Samples under SMALL_SAMPLE_BALLS are shrunk toward the league with a prior worth PRIOR_BALLS
balls (empirical Bayes with a beta/Dirichlet prior centred on the league rate): the shrunk rate is
(count + PRIOR_BALLS x league rate) / (balls + PRIOR_BALLS). Larger samples are matched as they are.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cardgen import options
from cardgen.calibrate.dot_faces import balance_dot_faces, dot_face_floor
from cardgen.calibrate.expect import FieldingSkill, LeagueModel, card_matrix, fielding_vector
from cardgen.calibrate.fielding import (ChartPlan, chart_extra_surplus, layout,
                                       league_event_counts, plan_counts, with_bowled_cells)
from cardgen.calibrate.model import CARD_INDEX, CARD_RESULTS, OUT, SLOTS
from cardgen.calibrate.model import CHARGED_TO_BOWLER as EXTRAS_CHARGED
from cardgen.calibrate.model import LEGAL as LEGAL_V
from cardgen.calibrate.ratings import Ratings, compute_ratings, rating_scales
from cardgen.calibrate.defence import assign_defences, resolve_bowlers
from cardgen.calibrate.weights import ball_weighted_mean, game_dismissals
from cardgen.calibrate.situations import (RULE_ROUNDS, RuleFactors, band_shares, measure_factors,
                                          repair_outside_tolerance)
from cardgen.calibrate.parallel import solve_all, solving_in
from cardgen.calibrate.solve import Target, continuous_card, exact_card
from cardgen.stats.tables import SeasonStats
from cardgen.wickets_in_hand import RULE, WicketsInHand

SMALL_SAMPLE_BALLS = 60
PRIOR_BALLS = 30.0
FIXED_POINT_ROUNDS = 4
INTEGER_ROUNDS = 2
DOT_SPLIT_ROUNDS = 2  # continuous rounds after the dot faces' split is chosen (the split holds)

# Weights of each figure in the fit. Headline figures (runs, dismissals) are measured relative to
# the player's own figure and dominate; shape figures (4s, 6s, dots, 1s, extras, kind of
# dismissal) are measured relative to the league's figure, so an unreachable shape figure (a
# batter with no sixes still faces bowlers who concede them) cannot drag a headline figure.
HEADLINE = {"runs", "dismissal_rate", "bat", "wicket_rate", "extras"}
STRIKER_WEIGHTS = {"runs": 1 / 0.004, "dismissal_rate": 1 / 0.01, "fours": 3.0, "sixes": 3.0,
                   "dots": 3.0, "ones": 1.0, "field_outs": 0.1}
BOWLER_WEIGHTS = {"bat": 1 / 0.004, "wicket_rate": 1 / 0.01, "fours": 3.0, "sixes": 3.0,
                  "dots": 3.0, "ones": 1.0, "extras": 1 / 0.15, "bowled": 3.0}
# Striker cards' F at the seed: the striker half may carry no more wides and no-balls than the
# 10th-percentile qualified bowler bowls, but at least MIN_STRIKER_F slots...
STRIKER_F_BOWLER_QUANTILE = 0.1
MIN_STRIKER_F = 2.0
SEED_SHIFT = 0.0
BOWLED_CELL_STEPS = 3
# The least gain a bowled cell is credited with when the next step is sized. One cell's measured
# gain is noisy (the bowlers near their floor answer it by dropping B, or not): WPL 2023 once
# measured 0.1 on a single cell, and the next step put 11 more on the chart, the bowled share
# 27% over. At 0.5 a step is at most twice its face value.
MIN_BOWLED_CELL_GAIN = 0.5
EXTRAS_CORRECTION_MIN = 0.005
# the chart's share of deliveries is re-centred (worst of wides, no-balls, leg byes and the LBW
# share as small as whole cells allow) unless their measured ratios are this far apart, which
# would mean something other than whole cells is off: then the cards are left as solved.
# (Re-centring only when all four could land within 2% left IPL 2024's LBW share 5.6% out.)
CHART_SHARE_MARGIN = 0.10
TRIM_ROUNDS = 3
DILUTION_DAMPING = 0.75
# final re-solve of the RO and keeper scales (`retune_fielding`): rounds, and the share error
# below which it stops (ratings are whole numbers, so a smaller error is not worth a chart)
RETUNE_ROUNDS = 3
RETUNE_MIN = 0.005
# ...and held near that level (a weak prior, in slots) so striker F cannot crowd out the bowlers'
# own wides: a bowler's F cannot go below zero, so too much F on striker cards would leave
# economical bowlers with more wides than they bowled.
STRIKER_F_PRIOR_WEIGHT = 1.0
STRIKER_F_PRIOR_SCALE = 3.0


@dataclass
class CardFit:
    kind: str
    player_id: str
    team: str
    balls: int
    small_sample: bool
    target: Target
    slots: np.ndarray = field(default_factory=lambda: np.zeros(len(CARD_RESULTS), int))
    defence: int = 0   # striker cards: the Defence rating (rules R13), 0 for none


@dataclass
class Calibration:
    stats: SeasonStats
    ratings: Ratings
    plan: ChartPlan | None   # None: a baseline's guests, on the baseline's chart (`baseline`)
    cells: list[list[str]]
    model: LeagueModel
    strikers: list[CardFit]
    bowlers: list[CardFit]
    rule: WicketsInHand | None = None          # the rule the cards are solved for (None: printed)
    shares: dict = field(default_factory=dict)  # (kind, id, team) -> band shares of real balls
    league_shares: dict = field(default_factory=dict)  # kind -> band shares of all real balls


def _shrink(count: float, balls: float, league_rate: float) -> float:
    if balls >= SMALL_SAMPLE_BALLS:
        return count / balls
    return (count + PRIOR_BALLS * league_rate) / (balls + PRIOR_BALLS)


def extra_run_surplus(league: dict, chart: dict[str, int] | None = None) -> dict[str, float]:
    """Real extra runs beyond one per extra delivery, by kind, that the cards carry: a game extra
    is one ball and one run (a 5-wide, two leg byes off one ball, a Hundred no-ball worth two
    are each one result).

    The chart plays extras by deliveries (`fielding.league_event_counts`), and with `chart` (its
    cell counts) its four-leg-bye and four-bye cells carry most of the leg-bye and bye surplus
    (`fielding.chart_extra_surplus`; what whole cells leave over, either way, stays here). The
    rest is carried as runs off the bat, so team totals and economies keep every real run: a
    bowler's own wide and no-ball surplus goes on his card (his economy stays exact), and the
    league's whole surplus is in both sides' league means, so `recentre_small_samples` puts
    what the qualified cards do not carry (the leg-bye and bye remainder, on the striker side
    all of it) on the small-sample cards."""
    carried = chart_extra_surplus(chart, league) if chart is not None else {}
    return {"wide": float(max(int(league["wide_runs"]) - int(league["wide_balls"]), 0)),
            "no_ball": float(max(int(league["no_ball_runs"]) - int(league["no_ball_balls"]), 0)),
            "leg_bye": max(int(league["leg_byes"]) - int(league["leg_bye_balls"]), 0)
            - carried.get("leg_bye", 0.0),
            "bye": max(int(league["byes"]) - int(league["bye_balls"]), 0) - carried.get("bye", 0.0)}


def league_bat_runs(league: dict, chart: dict[str, int] | None = None) -> float:
    """Runs off the bat the cards must produce between them: the real ones plus the surplus the
    chart (its cell counts, if given) does not carry."""
    return float(league["runs_batter"] + sum(extra_run_surplus(league, chart).values()))


def league_striker_rates(league: dict, chart: dict[str, int] | None = None) -> dict[str, float]:
    """League figures the striker targets are centred on (runs include the extras' surplus)."""
    faced = league["balls_faced"]
    o = league["outcomes_faced"]
    k = league["dismissal_kinds"]
    return {"runs": league_bat_runs(league, chart) / faced, "dismissal_rate": league["dismissals"] / faced,
            "fours": o["4"] / faced, "sixes": o["6"] / faced, "dots": o["0"] / faced,
            "ones": o["1"] / faced,
            "field_outs": (k.get("lbw", 0) + k.get("stumped", 0) + k.get("run out", 0)) / faced}


def league_bowler_rates(league: dict, chart: dict[str, int] | None = None) -> dict[str, float]:
    legal = league["legal_balls"]
    bat = league_bat_runs(league, chart)
    o = league["outcomes_faced"]
    k = league["dismissal_kinds"]
    return {"bat": bat / legal,
            # what the cards charge to bowlers: bat runs (surplus included) and one per extra
            "conceded": (bat + league["wide_balls"] + league["no_ball_balls"]) / legal,
            "wicket_rate": league["bowler_wickets"] / legal, "fours": o["4"] / legal,
            "sixes": o["6"] / legal, "dots": o["0"] / legal, "ones": o["1"] / legal,
            # game extras are deliveries: one run each
            "extras": (league["wide_balls"] + league["no_ball_balls"]) / legal,
            "bowled": (k.get("bowled", 0) + k.get("hit wicket", 0)) / legal}


# The smallest error unit of a figure: a league too small to have seen an event (two matches
# without a stumping) has a rate of 0, and a unit of 0 would divide by zero in the solve.
MIN_ERROR_SCALE = 1e-3


def _error_scales(figs: dict[str, float], league_rates: dict[str, float]) -> dict[str, float]:
    """Error unit of each figure: headline figures relative to the player's own (at least a
    quarter of the league's), shape figures relative to the league's."""
    return {k: max(abs(figs[k]), 0.25 * league_rates[k], MIN_ERROR_SCALE) if k in HEADLINE
            else max(league_rates[k], MIN_ERROR_SCALE) for k in figs}


def _ratio(value: float, league_value: float) -> float:
    return value / league_value if league_value > 0 else 0.0


# a row of a stats table as `DataFrame.itertuples` makes it (its columns as attributes): pandas
# carries no type information for it
TableRow = Any


def striker_counts(row: TableRow) -> dict[str, float]:
    """A striker's season as counts of the figures his card is solved for (per ball faced)."""
    return {"runs": float(row.runs), "dismissal_rate": float(row.dismissals),
            "fours": float(row.fours), "sixes": float(row.sixes), "dots": float(row.dots),
            "ones": float(row.ones),
            "field_outs": float(row.out_lbw + row.out_stumped + row.out_run_out)}


def bowler_counts(row: TableRow) -> dict[str, float]:
    """A bowler's season as counts of the figures his card is solved for (per legal ball)."""
    # the runs of a wide or no-ball beyond the game's one come back as runs off the bat
    surplus = max(row.wides - row.wide_balls, 0) + max(row.no_balls - row.no_ball_balls, 0)
    return {"bat": float(row.runs_off_bat + surplus), "conceded": float(row.runs_conceded),
            "wicket_rate": float(row.wickets), "fours": float(row.conceded_n4),
            "sixes": float(row.conceded_n6), "dots": float(row.dots),
            "ones": float(row.conceded_n1), "extras": float(row.wide_balls + row.no_ball_balls),
            "bowled": float(row.wk_bowled + row.wk_hit_wicket)}


def striker_target(row: TableRow, league_rates: dict[str, float]) -> Target:
    n = float(row.balls)
    figs = {k: _shrink(v, n, league_rates[k]) for k, v in striker_counts(row).items()}
    scales = _error_scales(figs, league_rates)
    return Target("striker", figs, dict(STRIKER_WEIGHTS), scales,
                  dot_ratio=_ratio(figs["dots"], league_rates["dots"]))


def bowler_target(row: TableRow, league_rates: dict[str, float]) -> Target:
    n = float(row.legal_balls)
    figs = {k: _shrink(v, n, league_rates[k]) for k, v in bowler_counts(row).items()}
    scales = _error_scales(figs, league_rates)
    return Target("bowler", figs, dict(BOWLER_WEIGHTS), scales,
                  dot_ratio=_ratio(figs["dots"], league_rates["dots"]))


def extras_balance(plan: ChartPlan, league: dict) -> float:
    """Factor on the bowlers' extras targets that splits the chart's whole-cell no-ball/wide ratio
    error evenly: with n_w wide and n_nb no-ball cells, total extras E come out as wides
    E n_w / (n_w + n_nb) and no-balls E n_nb / (n_w + n_nb); E is chosen so that the relative
    errors of the two are equal and opposite (economies move by a few hundredths of a percent)."""
    w, n = float(league["wide_balls"]), float(league["no_ball_balls"])
    n_w, n_nb = plan.counts.get("wide", 0), plan.counts.get("no_ball", 0)
    if w <= 0 or n <= 0 or n_w <= 0 or n_nb <= 0:
        return 1.0
    total = n_w + n_nb
    extras = 2.0 / (n_w / (total * w) + n_nb / (total * n))
    return extras / (w + n)


def chart_share_correction(expected: dict, league: dict) -> float:
    """Factor on the chart's share of deliveries that puts the league's wides, no-balls, leg
    byes and LBW share at equal and opposite worst errors (1 where no factor fits all four).

    All four scale with the share of deliveries reaching the chart (LBWs come only from its
    cells; the dismissal total hardly moves), while their ratios are fixed by whole cells: so
    the best single factor is the one centring the measured ratios expected / real."""
    legal = float(league["legal_balls"])
    kinds = league["dismissal_kinds"]
    total = game_dismissals(kinds)
    real = {"wides_per_ball": league["wide_balls"] / legal,
            "no_balls_per_ball": league["no_ball_balls"] / legal,
            "leg_byes_per_ball": league["leg_bye_balls"] / legal}
    ratios = [expected[k] / v for k, v in real.items() if v > 0 and expected.get(k, 0) > 0]
    lbw_share = kinds.get("lbw", 0) / total if total else 0.0
    if lbw_share > 0 and expected["dismissal_kinds"].get("lbw", 0) > 0:
        ratios.append(expected["dismissal_kinds"]["lbw"] / lbw_share)
    if not ratios or (max(ratios) - min(ratios)) / (max(ratios) + min(ratios)) > CHART_SHARE_MARGIN:
        return 1.0  # too far apart for whole cells to explain: leave the cards alone
    return 2.0 / (max(ratios) + min(ratios))


def trim_chart_share(strikers: list[CardFit], bowlers: list[CardFit], s_int: list[np.ndarray],
                     b_int: list[np.ndarray], a: np.ndarray, league: dict,
                     mean_defence: float = 0.0) -> LeagueModel:
    """Put the share of deliveries reaching the fielding chart where `chart_share_correction`
    wants it, by trading single `0` and `F` slots on small-sample cards (in place).

    The share is the ball-weighted mean of the cards' F slots, and the full cards' F is set by
    their own figures (an F slot carries wides and a tenth of a dismissal), so the fine control
    comes from the cards under SMALL_SAMPLE_BALLS, whose figures are shrunk estimates anyway:
    one slot on a card of b balls moves the mean by b / (all balls), a few hundredths of a slot.
    Greedy from the largest move that still helps; deterministic."""
    f_i, dot_i = CARD_INDEX["F"], CARD_INDEX["0"]
    w_s = float(sum(max(f.balls, 0) for f in strikers))
    w_b = float(sum(max(f.balls, 0) for f in bowlers))
    model = LeagueModel(a, ball_weighted_mean(bowlers, b_int), ball_weighted_mean(strikers, s_int),
                        mean_defence=mean_defence)
    for _ in range(TRIM_ROUNDS):
        factor = chart_share_correction(model.league(), league)
        need = (factor - 1) * float(model.mean_bowler[f_i] + model.mean_striker[f_i])
        moves = []
        for fits, cards, total in ((strikers, s_int, w_s), (bowlers, b_int, w_b)):
            for f, card in zip(fits, cards):
                source = dot_i if need > 0 else f_i
                keep = dot_face_floor(f.kind, f.target.dot_ratio, model) if need > 0 else 0
                if f.small_sample and f.balls > 0 and card[source] > keep:
                    moves.append((-f.balls / total, f.kind, f.player_id, card))
        moves.sort(key=lambda m: m[:3])
        left = abs(need)
        for neg_step, _, _, card in moves:
            step = -neg_step
            if step < 2 * left:  # the move brings the mean closer
                if need > 0:
                    card[dot_i] -= 1
                    card[f_i] += 1
                else:
                    card[f_i] -= 1
                    card[dot_i] += 1
                left -= step
            if left <= 0:
                break
        if left == abs(need):
            break
        model = replace(model, mean_bowler=ball_weighted_mean(bowlers, b_int),
                        mean_striker=ball_weighted_mean(strikers, s_int))
    return model


def retune_fielding(stats: SeasonStats, plan: ChartPlan, model: LeagueModel, ratings: Ratings,
                    cells: list[list[str]], ro_factor: float, st_factor: float
                    ) -> tuple[Ratings, list[list[str]], LeagueModel]:
    """Re-solve the RO and keeper scales on the final cards so the run-out and stumping shares
    of the dismissals land on the league's.

    The earlier solve ran on the continuous model; whole slots and the chart-share trim move
    the dismissal total a little, and a share fed by a handful of chart cells moves with it.
    Ratings change only how chances convert (a stumping chance is out or a dot, a run-out chance
    out or a single), a few hundredths of a percent of any card's figures, so the cards stay."""
    kinds = stats.league["dismissal_kinds"]
    real_total = game_dismissals(kinds)
    for _ in range(RETUNE_ROUNDS):
        shares = model.league()["dismissal_kinds"]
        if not (real_total and shares.get("run out") and shares.get("stumped")):
            break
        ro_fix = (kinds.get("run out", 0) / real_total) / shares["run out"]
        st_fix = (kinds.get("stumped", 0) / real_total) / shares["stumped"]
        if max(abs(ro_fix - 1), abs(st_fix - 1)) < RETUNE_MIN:
            break
        ro_factor, st_factor = ro_factor * ro_fix, st_factor * st_fix
        ratings, _, cells = build_chart(stats, ro_factor, st_factor, plan)
        a = card_matrix(fielding_vector(cells, ratings.skill()))
        model = replace(model, a=a)
    return ratings, cells, model


# Figures whose recentring shift a small sample takes in proportion to its balls, so the
# shortest stays (the tail-enders) keep nearly their shrunk figure. The dismissal rate is one:
# what the Defence ratings (calibrate.defence) save on the stars must come back on the small
# samples (the bowler cards are solved to their real wickets), and spread evenly it would put
# the tail-enders' cards out far more often than the replays can carry (docs/calibration.md
# section 10).
BALL_WEIGHTED_SHIFT = {"striker": ("dismissal_rate",), "bowler": ()}


def recentre_small_samples(fits: list[CardFit], league_rates: dict[str, float]) -> None:
    """Keep the ball-weighted mean of the targets equal to the league's.

    Shrinking small samples toward the league moves their ball-weighted mean away from the
    league (short stays are unlike the rest: tail-enders score slowly, part-time bowlers go for
    plenty), and then the bowler and striker sides no longer describe the same deliveries, so the
    league means have no fixed point. The difference is spread over the small samples in
    proportion to their balls (each card's figure moves by the same amount), or for
    BALL_WEIGHTED_SHIFT's figures by an amount itself in proportion to the card's balls;
    qualified players keep their real figures."""
    small = [f for f in fits if f.small_sample and f.balls > 0]
    w_all = sum(f.balls for f in fits)
    if not small or w_all <= 0:
        return
    for name, league_value in league_rates.items():
        if name not in fits[0].target.figures:
            continue
        mean = sum(f.balls * f.target.figures[name] for f in fits) / w_all
        by_balls = name in BALL_WEIGHTED_SHIFT[fits[0].kind]
        moves = [f.balls / SMALL_SAMPLE_BALLS if by_balls else 1.0 for f in small]
        shift = (league_value - mean) * w_all / sum(f.balls * m for f, m in zip(small, moves))
        for f, m in zip(small, moves):
            f.target.figures[name] = max(f.target.figures[name] + shift * m, 0.0)


# Figures the two kinds of card share, striker's name first: the same deliveries seen from
# either end, so their centres move together (each side's own figures move on their own).
PAIRED_FIGURES = (("runs", "bat"), ("dots", "dots"), ("fours", "fours"), ("sixes", "sixes"),
                  ("ones", "ones"))
# Figures whose small samples stay centred on the league-average delivery's factor under the
# rule: the dismissals. Centred on the players' own factors too, the tail-enders' cards took
# about 3% more of them, and the replays bowled sides out 1.3-2.0 points more often (BBL
# 2024-25, The Hundred 2024, Super Smash 2024-25; bench_matches), for no gain in the cards'
# shape (the twos came from the dots and runs).
LEAGUE_CENTRED = ("dismissal_rate", "wicket_rate")


def _neutral_share(fits: list[CardFit], counts: list[dict[str, float]],
                   factors: RuleFactors) -> dict[str, float]:
    """Per figure: the players' real counts divided by their own rule factors, over the counts."""
    real: dict[str, float] = {}
    neutral: dict[str, float] = {}
    for f, c in zip(fits, counts):
        k = factors.cards.get((f.kind, f.player_id, f.team), {})
        for name, v in c.items():
            real[name] = real.get(name, 0.0) + v
            neutral[name] = neutral.get(name, 0.0) + v / k.get(name, 1.0)
    return {n: neutral[n] / real[n] if real[n] > 0 else 1.0 for n in real}


def neutral_centres(factors: RuleFactors, strikers: list[CardFit],
                    s_counts: list[dict[str, float]], bowlers: list[CardFit],
                    b_counts: list[dict[str, float]], real_striker: dict[str, float],
                    real_bowler: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """League figures the small samples are centred on under the rule: each real league figure
    times the share of it the players' neutral figures keep, summed over the players with their
    own factors (real counts / k per player, over real counts).

    Dividing the league by the factor of one league-average delivery instead (what the
    fielding chart is planned on, `RuleFactors.neutral_league`) leaves out how the factors
    vary with who bowls and bats when: death bowlers and lower-order batters meet the attack
    band most. The players' own neutral figures then sum to 3-4% more dots than that centre
    (Super Smash 2024-25), and centring on it put the whole difference on the small samples, a
    few percent of the balls: part-time bowlers' cards went to 5-8 dots and 20-38 twos.
    Centred here, the small samples take only what their shrinkage moved."""
    keep_s = _neutral_share(strikers, s_counts, factors)
    keep_b = _neutral_share(bowlers, b_counts, factors)
    for s_name, b_name in PAIRED_FIGURES:
        if s_name in keep_s and b_name in keep_b:
            keep_s[s_name] = keep_b[b_name] = 0.5 * (keep_s[s_name] + keep_b[b_name])
    return ({n: v * keep_s.get(n, 1.0) for n, v in real_striker.items()},
            {n: v * keep_b.get(n, 1.0) for n, v in real_bowler.items()})


def _qualified_rates(fits: list[CardFit], name: str) -> np.ndarray:
    return np.array([f.target.figures[name] for f in fits if not f.small_sample])


def seed_means(a: np.ndarray, league: dict, strikers: list[CardFit],
               bowlers: list[CardFit]) -> tuple[np.ndarray, np.ndarray]:
    """Starting mean cards for the fixed point, choosing the split the equations leave free.

    Only the sum (bowler half + striker half) of each rate is pinned by the league, so how much
    of, say, the dismissal rate sits on bowler cards is a free choice (a gauge). A striker can
    never be less likely to be out than the bowler half alone makes him, and a bowler never take
    fewer wickets than the striker half gives him; we pick the split that leaves the fewest
    qualified players (then the smallest total relative gap) below those floors.
    """
    from cardgen.calibrate.model import BOWLER_WICKET, OUT, STRIKER_OUT
    fvec = a[CARD_INDEX["F"]]
    deliveries = league["deliveries"]
    phi = (league["wide_balls"] / deliveries) / max(fvec[OUT["wide"]], 1e-9)  # P(F) per delivery
    f_total = 200 * phi
    # striker cards' F: small enough that the striker half's wides and no-balls stay below what
    # nearly all qualified bowlers bowl (a bowler's F cannot go below zero), at least a couple of
    # slots for fine control of dismissal rates
    extras_b = _qualified_rates(bowlers, "extras")
    extras_per_f = float(fvec[OUT["wide"]] + fvec[OUT["no_ball"]])
    floor = np.quantile(extras_b, STRIKER_F_BOWLER_QUANTILE) if len(extras_b) else 0.0
    f_s = float(np.clip(2 * 100 * floor / max(extras_per_f, 1e-9), MIN_STRIKER_F, 0.5 * f_total))
    f_b = f_total - f_s  # F_bowler + F_striker = 200 P(F)
    d_out, d_wkt = float(fvec @ STRIKER_OUT), float(fvec @ BOWLER_WICKET)
    kinds = league["dismissal_kinds"]
    ns_ro = phi * float(fvec[OUT["run_out_non_striker"]])
    card_outs = league["dismissals"] / deliveries - phi * d_out - ns_ro  # from B/W slots
    total_bw = max(200 * card_outs, 0.0)  # W_b + B_b + W_s in slots
    r_s = _qualified_rates(strikers, "dismissal_rate")
    r_b = _qualified_rates(bowlers, "wicket_rate")

    def gaps(x: float) -> tuple[int, float]:
        """(cards whose floor is over their real rate, the sum of those gaps) at split x."""
        floor_s = 0.5 * x / 100 + 0.5 * f_b / 100 * d_out + ns_ro
        floor_b = 0.5 * (total_bw - x) / 100 + 0.5 * f_s / 100 * d_wkt
        gap_s = np.clip(floor_s - r_s, 0, None) / np.maximum(r_s, 1e-3)
        gap_b = np.clip(floor_b - r_b, 0, None) / np.maximum(r_b, 1e-3)
        return int((gap_s > 0).sum() + (gap_b > 0).sum()), float(gap_s.sum() + gap_b.sum())
    # the first split of the fewest, then smallest, gaps
    x = min(min(np.linspace(0, total_bw, 401), key=gaps) + SEED_SHIFT, total_bw)
    bowled = kinds.get("bowled", 0) + kinds.get("hit wicket", 0)
    caught = kinds.get("caught", 0) + kinds.get("caught and bowled", 0)
    b_share = bowled / max(bowled + caught, 1)
    o = league["outcomes_faced"]
    faced = league["balls_faced"]

    def card(w: float, b: float, f: float) -> np.ndarray:
        c = np.zeros(len(CARD_RESULTS))
        c[CARD_INDEX["B"]], c[CARD_INDEX["W"]], c[CARD_INDEX["F"]] = b, w, f
        for r in ("1", "2", "4", "6"):
            c[CARD_INDEX[r]] = 100 * o[r] / faced
        c[CARD_INDEX["2"]] += 150 * o["3"] / faced  # a 3 is worth 1.5 twos
        c[CARD_INDEX["0"]] = max(SLOTS - c.sum(), 0.0)
        return c * SLOTS / c.sum()

    mean_bowler = card(x * (1 - b_share), x * b_share, f_b)
    mean_striker = card(total_bw - x, 0.0, f_s)
    return mean_bowler, mean_striker


def build_chart(stats: SeasonStats, run_out_factor: float = 1.0, stumping_factor: float = 1.0,
                plan: ChartPlan | None = None) -> tuple[Ratings, ChartPlan, list[list[str]]]:
    """Ratings and fielding chart, with the RO and keeper scales solved so that run-outs and
    stumpings per wide match the league's (times the given factors) up to rating granularity."""
    from cardgen.calibrate.expect import fielding_vector as fv
    from cardgen.calibrate.model import OUT
    league = stats.league
    ev = league_event_counts(league)
    plan = plan or plan_counts(league)
    cells = layout(plan.counts)
    wide_share = max(ev["wide"], 1.0)

    scales = rating_scales(stats.fielding)

    def rates(skill: FieldingSkill) -> tuple[float, float]:
        v = fv(cells, skill)
        per_wide = 1.0 / v[OUT["wide"]]
        ro = (v[OUT["run_out_striker"]] + v[OUT["run_out_non_striker"]]) * per_wide
        return ro, v[OUT["stumped"]] * per_wide

    want_ro = run_out_factor * ev["run_out"] / wide_share
    want_st = stumping_factor * ev["stumped"] / wide_share

    def solve_mean(which: str, want: float) -> float:
        lo, hi = 1.0, 20.0
        for _ in range(30):
            mid = (lo + hi) / 2
            got = rates(scales.skill(**{which: mid}))[0 if which == "run_out_mean" else 1]
            if got < want:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    ro_mean = solve_mean("run_out_mean", want_ro)
    k_mean = solve_mean("keeper_mean", want_st)
    ratings = compute_ratings(stats.fielding, run_out_mean=ro_mean, keeper_mean=k_mean)
    return ratings, plan, cells


def league_rule(stats: SeasonStats, rule: WicketsInHand = RULE) -> WicketsInHand:
    """The wickets-in-hand rule with its attack boundary faces drawn from this season's own
    fours and sixes (`WicketsInHand.for_league`): what a kit's cards are made for and its sheets print."""
    faced = stats.league.get("outcomes_faced") or {}
    return rule.for_league(float(faced.get("4", 0)), float(faced.get("6", 0)),
                           float(stats.league.get("balls_faced", 0) or 0))


def calibrate(stats: SeasonStats, rule: WicketsInHand | None = RULE) -> Calibration:
    """Calibrate a season for `rule` (the kit's recommended play is `league_rule(stats)`; None:
    the rules as printed). Under the rule every card is solved for its player's
    neutral figures, so that over the bands he really batted or bowled in it reproduces his
    real season (`cardgen.calibrate.situations`): a printed-rules pass, then RULE_ROUNDS
    re-solves with the rule's factors measured on the previous pass's cards. Each round's
    solves are shared over the processes the command allows (`RunOptions.calibrate_workers`;
    the same cards whatever their number)."""
    with solving_in(options.current().calibrate_workers):
        return _calibrate_for(stats, rule)


def _calibrate_for(stats: SeasonStats, rule: WicketsInHand | None) -> Calibration:
    from cardgen.calibrate.situations import league_shares
    if rule is None or stats.situations is None or not len(stats.situations):
        return _calibrate_season(stats)
    shares = band_shares(stats.situations)
    # first factors from the printed-rules continuous cards (cheap), then full solves
    start = _start(stats, plan_counts(stats.league))
    fits = start.strikers + start.bowlers
    for f, x in zip(fits, solve_all(continuous_card, [f.target for f in fits], start.model)):
        f.slots = x
    cal = Calibration(stats, start.ratings, plan_counts(stats.league), start.cells, start.model,
                      start.strikers, start.bowlers)
    defences = None
    for n in range(RULE_ROUNDS):
        factors = measure_factors(cal, rule, shares, stats.situations)
        cal = _calibrate_season(stats, factors)
        # the Defence ratings (R13) are chosen on the first pass's cards and held while the
        # bowlers settle against them, then chosen again on the last pass's strikers
        defences = assign_defences(cal, rule, shares, factors,
                                   held=defences if 0 < n < RULE_ROUNDS - 1 else None)
    if defences:
        resolve_bowlers(cal, rule, shares, factors, stats.situations)
    repair_outside_tolerance(cal, rule, shares, factors)
    cal.rule, cal.shares = rule, shares
    cal.league_shares = {k: league_shares(stats.situations, k) for k in ("striker", "bowler")}
    return cal


def _calibrate_season(stats: SeasonStats, factors: RuleFactors | None = None) -> Calibration:
    """One calibration of a season (for neutral figures when `factors` are given). A quick pilot
    (continuous cards only) measures how much the players out of reach inflate the league's
    dismissals; the chart plan then counts LBWs (and the run-out and stumping cells) against
    that inflated total, so their shares hold."""
    real_stats = stats
    if factors is not None:
        stats = dataclasses.replace(stats, league=factors.neutral_league(stats.league))
    pilot_plan = plan_counts(stats.league)
    pilot = _start(stats, pilot_plan, factors, real_stats.league)
    kinds = stats.league["dismissal_kinds"]
    real = game_dismissals(kinds) / stats.league["legal_balls"]
    modelled = pilot.model.league()["dismissals_per_ball"]
    factor = modelled / real if real > 0 else 1.0
    plan = plan_counts(stats.league, dismissal_factor=factor)
    # Everything up to the end of the continuous rounds depends on the plan only through its
    # cell counts: when the inflated total leaves them unchanged, the main pass starts where the
    # pilot ended (the very same numbers) instead of recomputing them.
    cal = _calibrate(stats, plan, start=pilot if plan.counts == pilot_plan.counts else None,
                     factors=factors, real_league=real_stats.league)
    cal.stats = real_stats
    return cal


@dataclass
class _Start:
    """A pass after its continuous rounds: chart, fits (targets set up) and league model."""
    ratings: Ratings
    cells: list[list[str]]
    a: np.ndarray
    strikers: list[CardFit]
    bowlers: list[CardFit]
    bowler_rates: dict[str, float]
    model: LeagueModel


def _continuous_rounds(strikers: list[CardFit], bowlers: list[CardFit], model: LeagueModel,
                       rounds: int) -> LeagueModel:
    for _i in range(rounds):
        s_cards = solve_all(continuous_card, [f.target for f in strikers], model)
        model = replace(model, mean_striker=ball_weighted_mean(strikers, s_cards))
        b_cards = solve_all(continuous_card, [f.target for f in bowlers], model)
        model = replace(model, mean_bowler=ball_weighted_mean(bowlers, b_cards))
    return model


def season_fits(stats: SeasonStats, ls: dict[str, float], lb: dict[str, float]
                ) -> tuple[list, list, list[CardFit], list[CardFit]]:
    """The season's rows (batting; bowling with a legal ball) and a card fit for each, its
    target shrunk toward the league rates `ls` / `lb` (not yet recentred): what every pass
    starts from, and what `calibrate.baseline` re-expresses on another league."""
    s_rows = list(stats.batting.itertuples())
    b_rows = [r for r in stats.bowling.itertuples() if r.legal_balls > 0]
    strikers = [CardFit("striker", r.player_id, r.team, int(r.balls),
                        int(r.balls) < SMALL_SAMPLE_BALLS, striker_target(r, ls)) for r in s_rows]
    bowlers = [CardFit("bowler", r.player_id, r.team, int(r.legal_balls),
                       int(r.legal_balls) < SMALL_SAMPLE_BALLS, bowler_target(r, lb))
               for r in b_rows]
    return s_rows, b_rows, strikers, bowlers


def _start(stats: SeasonStats, plan: ChartPlan, factors: RuleFactors | None = None,
           real_league: dict | None = None) -> _Start:
    ratings, plan, cells = build_chart(stats, plan=plan)
    a = card_matrix(fielding_vector(cells, ratings.skill()))
    ls = league_striker_rates(stats.league, plan.counts)
    lb = league_bowler_rates(stats.league, plan.counts)
    s_rows, b_rows, strikers, bowlers = season_fits(stats, ls, lb)
    if factors is not None:   # solve for neutral figures (calibrate.situations)
        for f in strikers + bowlers:
            factors.neutral((f.kind, f.player_id, f.team), f.target.figures)
        if real_league is not None:
            shape_s, shape_b = neutral_centres(
                factors, strikers, [striker_counts(r) for r in s_rows], bowlers,
                [bowler_counts(r) for r in b_rows],
                league_striker_rates(real_league, plan.counts),
                league_bowler_rates(real_league, plan.counts))
            ls = dict(shape_s, **{n: ls[n] for n in LEAGUE_CENTRED if n in ls})
            lb = dict(shape_b, **{n: lb[n] for n in LEAGUE_CENTRED if n in lb})
    kappa = extras_balance(plan, stats.league)
    for f in bowlers:
        f.target.figures["extras"] *= kappa
    lb = dict(lb, extras=lb["extras"] * kappa)
    recentre_small_samples(strikers, ls)
    recentre_small_samples(bowlers, lb)
    model = LeagueModel(a, *seed_means(a, stats.league, strikers, bowlers))
    f_seed = float(model.mean_striker[CARD_INDEX["F"]])
    for f in strikers if STRIKER_F_PRIOR_WEIGHT else ():
        f.target.slot_prior["F"] = (f_seed, STRIKER_F_PRIOR_WEIGHT / STRIKER_F_PRIOR_SCALE)
    model = _continuous_rounds(strikers, bowlers, model, FIXED_POINT_ROUNDS)
    # the split of the dot faces between the two kinds of card is free: as many on the mean
    # bowler card as on the mean striker card (calibrate.dot_faces), then the cards follow
    model = _continuous_rounds(strikers, bowlers, balance_dot_faces(model), DOT_SPLIT_ROUNDS)
    return _Start(ratings, cells, a, strikers, bowlers, lb, model)


def _calibrate(stats: SeasonStats, plan: ChartPlan, pilot: bool = False,
               start: _Start | None = None, factors: RuleFactors | None = None,
               real_league: dict | None = None) -> Calibration:
    """One pass with chart plan `plan` (`start`: its first part, if already computed)."""
    start = start or _start(stats, plan, factors, real_league)
    ratings, cells, a = start.ratings, start.cells, start.a
    strikers, bowlers, lb, model = start.strikers, start.bowlers, start.bowler_rates, start.model
    if pilot:
        return Calibration(stats, ratings, plan, cells, model, strikers, bowlers)

    def continuous_rounds(model: LeagueModel, rounds: int) -> LeagueModel:
        return _continuous_rounds(strikers, bowlers, model, rounds)

    # bowled dismissals the cards cannot carry go to the chart (see fielding.with_bowled_cells).
    # Feasible bowlers answer a bowled cell by dropping B, so a cell gains less than its face
    # value; the gain measured on the first step scales the second.
    kinds = stats.league["dismissal_kinds"]
    real_bowled = (kinds.get("bowled", 0) + kinds.get("hit wicket", 0)) / stats.league["deliveries"]
    base_plan, n_bowled, gain = plan, 0, 1.0
    for _ in range(BOWLED_CELL_STEPS):
        p_before = float(model.average_delivery()[OUT["bowled"]])
        p_field = 0.5 * (model.mean_bowler[CARD_INDEX["F"]] + model.mean_striker[CARD_INDEX["F"]]) / SLOTS
        missing = real_bowled - p_before
        step = int(np.floor(missing * 120 / (p_field * gain) + 0.5)) if p_field > 0 else 0
        if step <= 0:
            break
        n_bowled += step
        plan = with_bowled_cells(base_plan, n_bowled)
        cells = layout(plan.counts)
        a = card_matrix(fielding_vector(cells, ratings.skill()))
        model = continuous_rounds(replace(model, a=a),
                                  FIXED_POINT_ROUNDS // 2)
        gained = float(model.average_delivery()[OUT["bowled"]]) - p_before
        gain = float(np.clip(gained / (step * p_field / 120), MIN_BOWLED_CELL_GAIN, 1.0))
    # Players out of reach (below the floor the other half sets) add dismissals, which dilutes
    # the share of every kind the chart alone supplies; lift run-outs and stumpings (through the
    # RO and keeper ratings) to the league's shares of the dismissals the model actually has.
    shares = model.league()["dismissal_kinds"]
    real_total = game_dismissals(kinds)
    ro_factor = st_factor = 1.0
    if real_total and shares.get("run out") and shares.get("stumped"):
        # damped: the exact cards move the shares less than the continuous model predicts
        ro_factor = ((kinds.get("run out", 0) / real_total) / shares["run out"]) ** DILUTION_DAMPING
        st_factor = ((kinds.get("stumped", 0) / real_total) / shares["stumped"]) ** DILUTION_DAMPING
        ratings, _, cells = build_chart(stats, ro_factor, st_factor, plan)
        a = card_matrix(fielding_vector(cells, ratings.skill()))
        model = continuous_rounds(replace(model, a=a),
                                  FIXED_POINT_ROUNDS // 2)
    for _i in range(INTEGER_ROUNDS):
        s_int = solve_all(exact_card, [f.target for f in strikers], model)
        model = replace(model, a=a, mean_striker=ball_weighted_mean(strikers, s_int))
        b_int = solve_all(exact_card, [f.target for f in bowlers], model)
        model = replace(model, a=a, mean_bowler=ball_weighted_mean(bowlers, b_int))
    # Bowlers near their wicket floor trim F (and so their wides) a little; put the league's
    # wides and no-balls back on target by scaling every bowler's extras target once.
    # The same pass moves the B/W split so the league's bowled share lands too.
    p_avg = model.average_delivery()
    league_x = float(p_avg @ EXTRAS_CHARGED) / float(p_avg @ LEGAL_V)
    correction = lb["extras"] / league_x if league_x > 0 else 1.0
    shares = model.league()["dismissal_kinds"]
    real_bowled_share = (kinds.get("bowled", 0) + kinds.get("hit wicket", 0)) / max(real_total, 1)
    bowled_fix = real_bowled_share / shares["bowled"] if shares.get("bowled") else 1.0
    if max(abs(correction - 1), abs(bowled_fix - 1)) > EXTRAS_CORRECTION_MIN:
        for f in bowlers:
            f.target.figures["extras"] *= correction
            f.target.figures["bowled"] *= bowled_fix
        b_int = solve_all(exact_card, [f.target for f in bowlers], model)
        model = replace(model, a=a, mean_bowler=ball_weighted_mean(bowlers, b_int))
        s_int = solve_all(exact_card, [f.target for f in strikers], model)
        model = replace(model, a=a, mean_striker=ball_weighted_mean(strikers, s_int))
        b_int = solve_all(exact_card, [f.target for f in bowlers], model)
        model = replace(model, a=a, mean_bowler=ball_weighted_mean(bowlers, b_int))
    s_int = [np.array(x, int) for x in s_int]
    b_int = [np.array(x, int) for x in b_int]
    model = trim_chart_share(strikers, bowlers, s_int, b_int, a, stats.league,
                             model.mean_defence)
    ratings, cells, model = retune_fielding(stats, plan, model, ratings, cells, ro_factor, st_factor)
    for f, x in zip(strikers, s_int):
        f.slots = np.asarray(x, int)
    for f, x in zip(bowlers, b_int):
        f.slots = np.asarray(x, int)
    return Calibration(stats, ratings, plan, cells, model, strikers, bowlers)
