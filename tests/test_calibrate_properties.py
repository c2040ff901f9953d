"""Property tests: any valid targets give valid cards; higher real SR never lowers expected SR."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from cardgen.calibrate.expect import FieldingSkill, LeagueModel, card_matrix, fielding_vector
from cardgen.calibrate.fielding import layout, plan_counts
from cardgen.calibrate.model import CARD_INDEX
from cardgen.calibrate.ratings import ratings_for_mean
from cardgen.calibrate.solve import Target, solve_card
from cardgen.calibrate.calibrate import STRIKER_WEIGHTS, BOWLER_WEIGHTS, HEADLINE

LEAGUE = {"wide_runs": 343, "wide_balls": 285, "no_ball_runs": 39, "no_ball_balls": 39,
          "leg_byes": 223, "leg_bye_balls": 182, "byes": 59, "bye_balls": 33,
          "dismissal_kinds": {"lbw": 22, "run out": 28, "stumped": 10}}
A = card_matrix(fielding_vector(layout(plan_counts(LEAGUE).counts),
                                FieldingSkill(0.75, 0.47, 0.42, 0.66)))
# league-average cards of the shape BBL 2024-25 calibrates to
MEAN_B = np.array([1.4, 2.0, 8.8, 25.6, 33.9, 11.0, 0, 12.7, 4.5])
MEAN_B *= 100 / MEAN_B.sum()
MEAN_S = np.array([0, 3.6, 10.0, 27.1, 35.3, 8.7, 0, 9.4, 6.0])
MEAN_S *= 100 / MEAN_S.sum()
MODEL = LeagueModel(A, MEAN_B, MEAN_S)
LEAGUE_S = {"runs": 1.35, "dismissal_rate": 0.056, "fours": 0.113, "sixes": 0.054, "dots": 0.36,
            "ones": 0.37, "field_outs": 0.006}
LEAGUE_B = {"bat": 1.36, "conceded": 1.4, "wicket_rate": 0.053, "fours": 0.114, "sixes": 0.054,
            "dots": 0.37, "ones": 0.37, "extras": 0.04, "bowled": 0.01}


def striker_target(runs, outs, fours, sixes, dots) -> Target:
    figs = {"runs": runs, "dismissal_rate": outs, "fours": fours, "sixes": sixes, "dots": dots,
            "ones": max(runs - 4 * fours - 6 * sixes, 0.0) * 0.7, "field_outs": 0.1 * outs}
    scales = {k: max(abs(v), 0.25 * LEAGUE_S[k]) if k in HEADLINE else LEAGUE_S[k]
              for k, v in figs.items()}
    return Target("striker", figs, dict(STRIKER_WEIGHTS), scales)


rates = st.fixed_dictionaries({
    "runs": st.floats(0.3, 2.6), "outs": st.floats(0.0, 0.25), "fours": st.floats(0.0, 0.3),
    "sixes": st.floats(0.0, 0.2), "dots": st.floats(0.1, 0.7)})


@settings(max_examples=40, deadline=None, derandomize=True)
@given(rates)
def test_any_striker_target_gives_a_valid_card(r):
    slots = solve_card(striker_target(r["runs"], r["outs"], r["fours"], r["sixes"], r["dots"]), MODEL)
    assert slots.sum() == 100 and (slots >= 0).all()
    assert slots[CARD_INDEX["B"]] == 0 and slots[CARD_INDEX["3"]] == 0


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.floats(0.5, 2.2), st.floats(0.6, 2.2), st.floats(0.0, 0.2), st.floats(0.0, 0.1))
def test_any_bowler_target_gives_a_valid_card(bat, extras_scale, wickets, bowled_share):
    figs = dict(LEAGUE_B, bat=bat, conceded=bat + 0.04 * extras_scale, wicket_rate=wickets,
                extras=0.04 * extras_scale, bowled=wickets * bowled_share)
    scales = {k: max(abs(v), 0.25 * LEAGUE_B[k]) if k in HEADLINE else LEAGUE_B[k]
              for k, v in figs.items()}
    slots = solve_card(Target("bowler", figs, dict(BOWLER_WEIGHTS), scales), MODEL)
    assert slots.sum() == 100 and (slots >= 0).all() and slots[CARD_INDEX["3"]] == 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.floats(0.0, 3.0), min_size=1, max_size=40),
       st.lists(st.integers(1, 12), min_size=1, max_size=40), st.floats(2.0, 18.0))
def test_ratings_always_in_range(rate, matches, mean):
    n = min(len(rate), len(matches))
    r = ratings_for_mean(np.array(rate[:n]), np.array(matches[:n], float), mean)
    assert ((r >= 1) & (r <= 20)).all()


def counts_target(balls: int, dots: int, ones: int, twos: int, fours: int, sixes: int,
                  outs: int) -> Target:
    runs = ones + 2 * twos + 4 * fours + 6 * sixes
    figs = {"runs": runs / balls, "dismissal_rate": outs / balls, "fours": fours / balls,
            "sixes": sixes / balls, "dots": dots / balls, "ones": ones / balls,
            "field_outs": 0.1 * outs / balls}
    scales = {k: max(abs(v), 0.25 * LEAGUE_S[k]) if k in HEADLINE else LEAGUE_S[k]
              for k, v in figs.items()}
    return Target("striker", figs, dict(STRIKER_WEIGHTS), scales)


innings = st.tuples(st.integers(60, 400), st.floats(0.15, 0.6), st.floats(0.15, 0.6),
                    st.floats(0.0, 0.15), st.floats(0.0, 0.25), st.floats(0.0, 0.15),
                    st.floats(0.005, 0.15), st.integers(1, 20))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(innings)
# two cards of the same run content (45 dots, 18 ones, 37 sixes; 40, 24, 36): equal strike rates
# that the sums round 2e-14 apart, the wrong way (190.69944574790026 < ...28)
@example((231, 0.21875, 0.2265625, 0.078125, 0.01171875, 0.1484375, 0.015625, 1))
def test_higher_real_strike_rate_never_gives_lower_expected(inn):
    """Same sample, same dismissals and boundaries: B ran k singles where A blocked k dots."""
    balls, f_dot, f_one, f_two, f_four, f_six, f_out, k = inn
    total = f_dot + f_one + f_two + f_four + f_six
    dots, ones, twos, fours, sixes = (int(balls * f / total) for f in (f_dot, f_one, f_two, f_four, f_six))
    dots += balls - (dots + ones + twos + fours + sixes)
    k = min(k, dots)
    outs = max(1, int(f_out * balls))
    a = counts_target(balls, dots, ones, twos, fours, sixes, outs)
    b = counts_target(balls, dots - k, ones + k, twos, fours, sixes, outs)
    sr_a = MODEL.striker(solve_card(a, MODEL).astype(float))["strike_rate"]
    sr_b = MODEL.striker(solve_card(b, MODEL).astype(float))["strike_rate"]
    # "never lower" up to rounding: the expected strike rate is a sum of a dozen products, so
    # two cards that score alike differ by a few ulps (1e-14 relative), while one run slot
    # moved changes it by ~0.5 (100 x 0.5 / 100): 1e-9 relative tells the two apart
    assert k == 0 or sr_b >= sr_a * (1 - 1e-9)


# --- whole seasons from synthetic stats tables -------------------------------------------------

def _split(rng: np.random.Generator, n: int, weights: list[float]) -> list[int]:
    return list(rng.multinomial(n, np.array(weights) / sum(weights))) if n > 0 else [0] * len(weights)


def synthetic_stats(seed: int, n_strikers: int, n_bowlers: int, with_keeper: bool):
    """A small but valid season: batting, bowling, fielding tables and a league dict summed from
    them (lineups and the rest are not read by calibration)."""
    import pandas as pd
    from cardgen.stats.tables import SeasonStats
    rng = np.random.default_rng(seed)
    bat, bowl, field = [], [], []
    for i in range(n_strikers):
        balls = int(rng.integers(0, 250))
        d, o1, o2, o3, o4, o6 = _split(rng, balls, list(rng.uniform(0.05, 1, 6)))
        outs = int(min(rng.integers(0, 12), balls + 1))
        lbw, st, ro, rest = _split(rng, outs, [1, 0.5, 0.7, 8])
        bat.append({"player_id": f"s{i}", "player": f"S{i}", "team": f"T{i % 2}", "balls": balls,
                    "runs": o1 + 2 * o2 + 3 * o3 + 4 * o4 + 6 * o6, "dots": d, "ones": o1,
                    "twos": o2, "threes": o3, "fours": o4, "sixes": o6, "dismissals": outs,
                    "out_lbw": lbw, "out_stumped": st, "out_run_out": ro, "innings": 5})
    for j in range(n_bowlers):
        legal = int(rng.integers(1, 200))
        wide_balls, nb = int(rng.integers(0, 10)), int(rng.integers(0, 4))
        d, o1, o2, o3, o4, o6 = _split(rng, legal + nb, list(rng.uniform(0.05, 1, 6)))
        wk = int(rng.integers(0, 12))
        bowled, hw = _split(rng, wk, [1, 3]) if wk else (0, 0)
        bat_runs = o1 + 2 * o2 + 3 * o3 + 4 * o4 + 6 * o6
        wides = wide_balls + int(rng.integers(0, 3)) * (wide_balls > 0)
        bowl.append({"player_id": f"b{j}", "player": f"B{j}", "team": f"T{j % 2}",
                     "legal_balls": legal, "runs_off_bat": bat_runs, "wides": wides,
                     "wide_balls": wide_balls, "no_balls": nb, "no_ball_balls": nb,
                     "runs_conceded": bat_runs + wides + nb, "wickets": wk, "wk_bowled": bowled,
                     "wk_hit_wicket": 0, "dots": d, "conceded_n1": o1, "conceded_n4": o4,
                     "conceded_n6": o6, "innings": 4})
    for i, pid in enumerate([r["player_id"] for r in bat] + [r["player_id"] for r in bowl]):
        kept = 6 if (with_keeper and i < 2) else 0
        field.append({"player_id": pid, "team": f"T{i % 2}", "matches": int(rng.integers(1, 10)),
                      "matches_kept": kept, "catches": int(rng.integers(0, 8)),
                      "run_outs": int(rng.integers(0, 3)),
                      "stumpings": int(rng.integers(0, 3)) if kept else 0})
    b, w = pd.DataFrame(bat), pd.DataFrame(bowl)
    faced = int(b["balls"].sum())
    legal = int(w["legal_balls"].sum())
    league = {
        "balls_faced": max(faced, 1), "legal_balls": legal,
        "deliveries": legal + int(w["wide_balls"].sum() + w["no_ball_balls"].sum()),
        "runs_batter": int(b["runs"].sum()), "wide_runs": int(w["wides"].sum()),
        "wide_balls": int(w["wide_balls"].sum()),
        "no_ball_runs": int(w["no_balls"].sum()), "no_ball_balls": int(w["no_ball_balls"].sum()),
        "leg_bye_balls": (lb_balls := int(rng.integers(0, 35))),
        "leg_byes": lb_balls + int(rng.integers(0, 6)),
        "bye_balls": (bye_balls := int(rng.integers(0, 8))), "byes": bye_balls + int(rng.integers(0, 3)),
        "outcomes_faced": {"0": int(b["dots"].sum()), "1": int(b["ones"].sum()),
                           "2": int(b["twos"].sum()), "3": int(b["threes"].sum()),
                           "4": int(b["fours"].sum()), "5": 0, "6": int(b["sixes"].sum())},
        "dismissals": int(b["dismissals"].sum()), "bowler_wickets": int(w["wickets"].sum()),
        "dismissal_kinds": {"caught": int(b["dismissals"].sum() - b["out_lbw"].sum()
                                          - b["out_stumped"].sum() - b["out_run_out"].sum()),
                            "lbw": int(b["out_lbw"].sum()), "stumped": int(b["out_stumped"].sum()),
                            "run out": int(b["out_run_out"].sum()),
                            "bowled": int(w["wk_bowled"].sum())},
    }
    empty = pd.DataFrame()
    return SeasonStats(batting=b, bowling=w, fielding=pd.DataFrame(field), lineups=empty,
                       innings=empty, matches=empty, league=league, attributes=empty)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.integers(2, 8), st.integers(2, 6), st.booleans())
def test_any_valid_stats_table_gives_valid_charts(seed, n_strikers, n_bowlers, with_keeper):
    from cardgen.calibrate.calibrate import calibrate
    from cardgen.calibrate.model import FIELD_COLS, FIELD_ROWS, FIELDING_RESULTS, slots_to_chart
    cal = calibrate(synthetic_stats(seed, n_strikers, n_bowlers, with_keeper))
    assert len(cal.cells) == FIELD_ROWS and all(len(r) == FIELD_COLS for r in cal.cells)
    assert {c for row in cal.cells for c in row} <= set(FIELDING_RESULTS)
    for fit in cal.strikers + cal.bowlers:
        chart = slots_to_chart(fit.slots)  # raises unless 1..100 is covered exactly once
        assert chart[0]["lo"] == 1 and chart[-1]["hi"] == 100 and (fit.slots >= 0).all()
        if fit.kind == "striker":
            assert fit.slots[CARD_INDEX["B"]] == 0
    t = cal.ratings.table
    assert t["catch"].between(1, 20).all() and t["run_out"].between(1, 20).all()
    keepers = t["keeper"].dropna()
    assert keepers.between(1, 20).all() and (len(keepers) > 0) == with_keeper


def _out_of_reach_targets() -> list[Target]:
    """Targets some figure of which no card reaches (no dismissals, far too many, no
    wickets): the robust re-solve of `continuous_card` runs for them."""
    targets = [striker_target(runs, outs, 0.12, 0.05, 0.36)
               for runs in (0.4, 1.35, 2.4) for outs in (0.0, 0.056, 0.25)]
    for wickets in (0.0, 0.053, 0.2):
        figs = dict(LEAGUE_B, wicket_rate=wickets, bowled=0.2 * wickets)
        scales = {k: max(abs(v), 0.25 * LEAGUE_B[k]) if k in HEADLINE else LEAGUE_B[k]
                  for k, v in figs.items()}
        targets.append(Target("bowler", figs, dict(BOWLER_WEIGHTS), scales))
    return targets


def _robust_cost(m: np.ndarray, y: np.ndarray, x: np.ndarray) -> float:
    """The robust fit's cost (scipy's: half the sum of rho), the sum row quadratic."""
    from cardgen.calibrate.solve import ROBUST_DELTA
    r = m @ x - y
    return 0.5 * float(ROBUST_DELTA ** 2 * np.log1p(r[:-1] ** 2 / ROBUST_DELTA ** 2).sum()
                       + r[-1] ** 2)


def test_direct_trf_is_least_squares_to_the_bit(monkeypatch):
    """`solve._robust_trf` (the robust fit's fallback) calls scipy's TRF without
    `least_squares`' wrappers (a speed-up); the fits must be the very same numbers as through
    `least_squares`."""
    import cardgen.calibrate.solve as solve
    systems = [solve.continuous_system(t, MODEL) for t in _out_of_reach_targets()]
    starts = [solve._bounded_lsq(m, y, ub) for m, y, ub in systems]
    fast = [solve._robust_trf_card(m, y, ub, x) for (m, y, ub), x in zip(systems, starts)]
    monkeypatch.setattr(solve, "_trf", None)  # `_robust_trf` falls back to least_squares
    slow = [solve._robust_trf_card(m, y, ub, x) for (m, y, ub), x in zip(systems, starts)]
    assert all(np.array_equal(a, b) for a, b in zip(fast, slow))


def test_robust_irls_reaches_the_robust_minimum(monkeypatch):
    """The robust re-solve (`solve._robust_irls`, reweighted NNLS) settles on every
    out-of-reach target, at a stationary point of the bounded robust problem (zero gradient on
    the slots it uses, none pointing into the bound at the others), and never at a higher cost
    than scipy's TRF from the same start, which it replaced (TRF stops at its tolerance)."""
    import cardgen.calibrate.solve as solve
    trf_calls = []
    monkeypatch.setattr(solve, "_robust_trf_card", lambda *a: trf_calls.append(1))
    ran = 0
    for target in _out_of_reach_targets():
        m, y, ub = solve.continuous_system(target, MODEL)
        first = solve._bounded_lsq(m, y, ub)
        if not np.any(np.abs(m[:-1] @ first - y[:-1]) > solve.ROBUST_DELTA):
            continue
        ran += 1
        x = solve._robust_irls(m, y, ub, np.clip(first, 0, ub))
        assert x is not None
        r = m @ x - y
        w = np.ones(len(r))
        w[:-1] = 1.0 / (1.0 + r[:-1] ** 2 / solve.ROBUST_DELTA ** 2)
        grad = m.T @ (w * r)  # d cost / d slot
        # measured at most ~5e-6 where the fit stops (IRLS_XTOL); the slots left at zero are
        # held there by gradients of 0.05-5, so 1e-4 tells a stationary point from a stall
        used = (ub >= 1) & (x > 1e-6)
        assert used.any() and np.all(np.abs(grad[used]) < 1e-4)
        assert np.all(grad[(ub >= 1) & ~used] > -1e-4)
        trf = solve._robust_trf(lambda v, m=m, y=y: m @ v - y, m, np.clip(first, 0, ub),
                                np.zeros(len(ub)), ub + 1e-12, _cauchy_loss)
        assert _robust_cost(m, y, x) <= _robust_cost(m, y, np.clip(trf, 0, None)) + 1e-9
    assert ran >= 3 and not trf_calls  # the re-solve under test really ran, TRF never did


def _cauchy_loss(z: np.ndarray) -> np.ndarray:
    from cardgen.calibrate.solve import ROBUST_DELTA
    d2 = ROBUST_DELTA ** 2
    rho = np.empty((3, len(z)))
    rho[0], rho[1], rho[2] = d2 * np.log1p(z / d2), 1 / (1 + z / d2), -1 / (d2 * (1 + z / d2) ** 2)
    rho[:, -1] = (z[-1], 1.0, 0.0)
    return rho


def _bowler_target(bat: float, wickets: float, bowled_share: float, extras_scale: float) -> Target:
    figs = dict(LEAGUE_B, bat=bat, conceded=bat + 0.04 * extras_scale, wicket_rate=wickets,
                extras=0.04 * extras_scale, bowled=wickets * bowled_share)
    scales = {k: max(abs(v), 0.25 * LEAGUE_B[k]) if k in HEADLINE else LEAGUE_B[k]
              for k, v in figs.items()}
    return Target("bowler", figs, dict(BOWLER_WEIGHTS), scales)


BOWLER_CASES = [_bowler_target(*c) for c in
                ((1.36, 0.053, 0.2, 1.0), (0.9, 0.0, 0.0, 0.3), (2.1, 0.15, 0.6, 2.0))]
STRIKER_CASES = [striker_target(*c) for c in
                 ((1.35, 0.056, 0.113, 0.054, 0.36), (0.6, 0.01, 0.02, 0.0, 0.65),
                  (2.3, 0.2, 0.25, 0.18, 0.2))]
# a bowler half meeting a Defence rating, so W's dot share is in play too
DEFENDED = LeagueModel(A, MEAN_B, MEAN_S, mean_defence=0.12)


def test_fast_stage1_bowler_error_is_the_exact_one():
    """`exact_card` scores a bowler's F window on the F-sorted grid, each term that depends on
    F (extras) or on B and F (bowled) once per group: the same errors as `_subset_error` up
    to rounding, far inside CLEAR_MARGIN, so a clear minimum of its is the exact one's."""
    import cardgen.calibrate.solve as solve
    by_f = solve._grid_by_f(solve._stage1_grid("bowler"))
    terms = solve.STAGE1_TERMS["bowler"]
    for model in (MODEL, DEFENDED):
        fig = solve._stage1_bowler_figures(model, by_f.rows)
        for target in BOWLER_CASES:
            sub = Target("bowler", target.figures,
                         {k: v for k, v in target.weights.items() if k in terms}, target.scales)
            for f_best, slack in ((0, 5), (12, 5), (40, 0), (70, 5)):
                lo = int(by_f.starts[max(f_best - slack, 0)])
                hi = int(by_f.starts[min(f_best + slack, solve.MAX_F) + 1])
                rows = by_f.rows[lo:hi]
                assert (np.abs(rows[:, CARD_INDEX["F"]] - f_best) <= slack).all()
                assert hi - lo == int((np.abs(by_f.rows[:, CARD_INDEX["F"]] - f_best)
                                       <= slack).sum())
                fast = solve._stage1_bowler_error(sub, fig, by_f, lo, hi)
                exact = solve._subset_error(target, model, rows, terms, prior=True)
                assert np.max(np.abs(fast - exact)) < 1e-3 * solve.CLEAR_MARGIN


def test_fast_stage2_error_is_the_exact_one():
    """The shape error by per-count tables (`_stage2_error`) is `_subset_error`'s on whole
    cards up to rounding, for strikers and bowlers, with and without Defence."""
    import cardgen.calibrate.solve as solve
    for model in (MODEL, DEFENDED):
        for target, (b, w, f) in ([(t, (0, 4, 6)) for t in STRIKER_CASES]
                                  + [(t, (2, 3, 8)) for t in BOWLER_CASES]):
            base = np.zeros(len(CARD_INDEX))
            base[[CARD_INDEX["B"], CARD_INDEX["W"], CARD_INDEX["F"]]] = b, w, f
            rest = 100 - b - w - f
            base[CARD_INDEX["0"]] = rest
            for runs in (40, 110, 200):
                splits = solve._run_splits(rest, runs)
                cards = np.repeat(base[None, :], len(splits), axis=0)
                for j, r in enumerate(solve.RUN_RESULTS):
                    cards[:, CARD_INDEX[r]] = splits[:, j]
                fast = solve._stage2_error(target, model, base, splits)
                exact = solve._subset_error(target, model, cards, solve.STAGE2_SHAPE,
                                            prior=False)
                assert len(splits) > 10
                assert np.max(np.abs(fast - exact)) < 1e-3 * solve.CLEAR_MARGIN


def test_clear_minimum_is_the_runner_up_test():
    """`_clear_minimum` counts the errors within the margin of the lowest instead of finding
    the runner-up: the same verdict, on ties, near-ties and clear cases."""
    from cardgen.calibrate.solve import CLEAR_MARGIN, _clear_minimum
    rng = np.random.default_rng(36)
    cases = [np.array([3.0]), np.array([1.0, 1.0]), np.array([2.0, 2.0 + 3e-7, 5.0]),
             np.array([2.0, 2.0 + 2e-7, 5.0]), np.array([np.nan, 1.0, 2.0])]
    for _ in range(200):
        e = rng.uniform(0, 10, rng.integers(2, 50))
        e[rng.integers(len(e))] = e.min() + rng.choice([0.0, 1e-9, 1e-6, 1.0])
        cases.append(e)
    for e in cases:
        if len(e) < 2:
            want = 0
        elif not np.isfinite(e).all():
            want = None
        else:
            lowest, runner_up = np.partition(e, 1)[:2]
            clear = runner_up - lowest > CLEAR_MARGIN * (1.0 + abs(lowest))
            want = int(np.argmin(e)) if clear else None
        assert _clear_minimum(e) == want
    assert sum(_clear_minimum(e) is None for e in cases) > 20  # near-ties really tested


def test_within_is_the_windows_float_test():
    """`_within`'s range holds exactly the counts the float test |v - x| <= half keeps, at
    and beside the edges too."""
    from cardgen.calibrate.solve import _within
    rng = np.random.default_rng(16)
    centres = list(rng.uniform(-3, 60, 300)) + [6.0, 8.0, 45.0, 47.0, 0.0, 39.999999999999993,
                                                 np.nextafter(6.0, 7.0), np.nextafter(6.0, 5.0)]
    for c in centres:
        for half, size in ((6, 41), (8, 41), (6, 46)):
            values = np.arange(size)
            want = values[np.abs(values - c) <= half]
            lo, hi = _within(float(c), half, size)
            assert np.array_equal(np.arange(lo, hi), want)


def test_bounded_lsq_clips_a_hair_over_the_bound(monkeypatch):
    """A card of one result: NNLS lands a few 1e-8 over the 100 slots (the sum row's weight is
    finite). `_bounded_lsq` clips it to the bound instead of a BVLS re-solve, and is then
    within 1e-6 slots of BVLS."""
    import cardgen.calibrate.solve as solve
    from scipy.optimize import lsq_linear
    ub = np.full(len(CARD_INDEX), 1e-9)
    ub[CARD_INDEX["1"]] = 100.0
    m = np.zeros((3, len(ub)))
    m[0, CARD_INDEX["1"]], m[1, CARD_INDEX["1"]], m[2] = 0.3, 0.2, 1e4
    y = np.array([60.0, 45.0, 1e6])  # the figures pull the one slot past 100
    bvls = lsq_linear(m, y, bounds=(np.zeros(len(ub)), ub), method="bvls").x
    calls = []
    monkeypatch.setattr(solve, "lsq_linear", lambda *a, **k: calls.append(1))
    x = solve._bounded_lsq(m, y, ub)
    assert not calls and np.all(x <= ub) and x[CARD_INDEX["1"]] == 100.0
    assert np.max(np.abs(x - bvls)) < 1e-6
