"""The analytic expectation against hand-computed cases and a seeded Monte Carlo of the rules."""
from __future__ import annotations

import numpy as np
import pytest

from cardgen.calibrate.cardset import CardSetError
from cardgen.calibrate.expect import (FieldingSkill, bowler_figures, card_matrix, delivery,
                                      fielding_vector, striker_figures)
from cardgen.calibrate.fielding import CELLS, layout, plan_counts
from cardgen.calibrate.model import CARD_INDEX, CARD_RESULTS, OUT, OUTCOMES, slots_to_chart, chart_to_slots
from cardgen.calibrate.ratings import ratings_for_mean

SKILL = FieldingSkill(catch=0.75, run_out_single=0.5, run_out_with_keeper=0.4, stumping=0.7)


def card(**slots: int) -> np.ndarray:
    x = np.zeros(len(CARD_RESULTS))
    for k, v in slots.items():
        x[CARD_INDEX[k.lstrip("_")]] = v
    assert x.sum() == 100
    return x


def test_cards_only_exact_figures():
    a = card_matrix(fielding_vector([["wide"] * 20] * 6, SKILL))
    bowler = card(_4=50, _0=50)
    striker = card(_6=50, W=50)
    p = delivery(bowler, striker, a)
    # half the deliveries read each card: 4 with 1/4, dot 1/4, six 1/4, caught 1/4
    assert p[OUT["4"]] == pytest.approx(0.25) and p[OUT["6"]] == pytest.approx(0.25)
    assert p[OUT["caught"]] == pytest.approx(0.25)
    s = striker_figures(p, 0.0)
    assert s["strike_rate"] == pytest.approx(100 * (0.25 * 4 + 0.25 * 6))
    assert s["dismissal_rate"] == pytest.approx(0.25)
    b = bowler_figures(p)
    assert b["economy"] == pytest.approx(6 * 2.5)


def test_defence_saves_only_the_bowler_cards_w_at_rating_over_20():
    """R13: against Defence d a W read from the bowler's card is a dot with probability d / 20;
    the striker's own W and either card's B stand."""
    a = card_matrix(fielding_vector([["wide"] * 20] * 6, SKILL))
    bowler, striker = card(W=40, B=10, _0=50), card(W=20, B=10, _1=70)
    for rating in (0, 5, 20):
        p = delivery(bowler, striker, a, defence=rating / 20)
        assert p[OUT["caught"]] == pytest.approx(0.5 * 0.40 * (1 - rating / 20) + 0.5 * 0.20)
        assert p[OUT["bowled"]] == pytest.approx(0.5 * 0.10 + 0.5 * 0.10)
        assert p[OUT["0"]] == pytest.approx(0.5 * (0.50 + 0.40 * rating / 20))
    # a stack of strikers, each with his own rating, against one bowler card
    stack = delivery(bowler, np.stack([striker, striker]), a, defence=np.array([0.0, 0.5]))
    assert stack[1, OUT["caught"]] == pytest.approx(0.5 * 0.40 * 0.5 + 0.5 * 0.20)
    assert stack[0, OUT["caught"]] == pytest.approx(0.5 * 0.40 + 0.5 * 0.20)


def test_a_written_sets_defence_ratings_reach_its_pairings_and_league_model(defence_card_sets):
    """A striker card's `defence` (R13) is in `pairing_figures` (validate's reference) and in the
    league model's mean Defence, weighted by real balls as the mean cards are."""
    import copy

    from cardgen.calibrate.expect import model_from_card_set, pairing_figures
    doc = copy.deepcopy(defence_card_sets["T20"])
    for c in doc["cards"]:
        c.pop("defence", None)
    strikers = [c for c in doc["cards"] if c["kind"] == "striker"]
    bowler = next(c for c in doc["cards"] if c["kind"] == "bowler")
    star = max(strikers, key=lambda c: c["real"]["balls"])
    ids = (bowler["player"]["id"], star["player"]["id"])
    before = pairing_figures(doc, *ids)
    assert model_from_card_set(doc).mean_defence == 0.0
    star["defence"] = 10
    after = pairing_figures(doc, *ids)
    w_half = 0.5 * chart_to_slots(bowler["chart"])[CARD_INDEX["W"]] / 100
    saved = before["outcomes"]["caught"] - after["outcomes"]["caught"]
    free = 1 - before["outcomes"]["no_ball"] / (1 - before["outcomes"]["wide"])  # not a free hit
    assert saved == pytest.approx(w_half * 0.5 * free, rel=1e-9)
    balls = sum(c["real"]["balls"] for c in strikers)
    assert model_from_card_set(doc).mean_defence == pytest.approx(
        0.5 * star["real"]["balls"] / balls)


def test_fielding_chart_probabilities_sum_to_one_and_follow_rows():
    cells = [["run_out_chance"] * 20 for _ in range(6)]
    v = fielding_vector(cells, SKILL)
    assert v.sum() == pytest.approx(1.0)
    # rows 1,3 striker+keeper, 2 striker single, 4,6 non-striker+keeper, 5 non-striker single
    assert v[OUT["run_out_striker"]] == pytest.approx((2 * 0.4 + 0.5) / 6)
    assert v[OUT["run_out_non_striker"]] == pytest.approx((2 * 0.4 + 0.5) / 6)
    assert v[OUT["1"]] == pytest.approx(1 - (4 * 0.4 + 2 * 0.5) / 6)


def test_free_hit_turns_dismissals_after_no_balls_into_dots():
    a = card_matrix(fielding_vector([["no_ball"] * 20] * 6, SKILL))
    p = delivery(card(F=20, W=80), card(_0=100), a)
    q = p[OUT["no_ball"]]
    assert q == pytest.approx(0.1)
    assert p[OUT["caught"]] == pytest.approx(0.4 * (1 - q))
    assert p.sum() == pytest.approx(1.0)


def test_monte_carlo_of_the_rules_matches_the_analytic_expectation():
    """Roll the dice as the rules say (d6 card choice, 2d10 percentile, d6 x d20 fielding chart,
    d20 chance rolls) for 200,000 deliveries, seed 7; every outcome share must be within
    4 standard errors of the analytic probability (a failure rate of about 1 in 15,000)."""
    league = {"wide_runs": 343, "wide_balls": 285, "no_ball_runs": 39, "no_ball_balls": 39,
              "leg_byes": 223, "leg_bye_balls": 182, "byes": 59, "bye_balls": 33,
              "dismissal_kinds": {"lbw": 22, "run out": 28, "stumped": 10}}
    cells = layout(plan_counts(league).counts)
    bowler = card(B=2, W=4, F=14, _0=40, _1=25, _2=5, _4=7, _6=3)
    striker = card(W=2, F=4, _0=25, _1=40, _2=10, _4=13, _6=6)
    ratings = {"catch": 15, "ro": 10, "keeper_ro": 8, "keeper": 14}
    skill = FieldingSkill(catch=0.75, run_out_single=0.5, run_out_with_keeper=0.4, stumping=0.7)
    a = card_matrix(fielding_vector(cells, skill))
    exact = delivery(bowler, striker, a, free_hit=False)
    rng = np.random.default_rng(7)
    n = 200_000
    use_bowler = rng.integers(1, 7, n) <= 3
    roll = rng.integers(1, 101, n)
    cum_b, cum_s = np.cumsum(bowler), np.cumsum(striker)
    res_b = np.searchsorted(cum_b, roll)
    res_s = np.searchsorted(cum_s, roll)
    result = np.where(use_bowler, res_b, res_s)
    counts = dict.fromkeys(OUTCOMES, 0)
    fr, fc, chance = rng.integers(0, 6, n), rng.integers(0, 20, n), rng.integers(1, 21, n)
    for i in range(n):
        r = CARD_RESULTS[result[i]]
        if r == "B":
            counts["bowled"] += 1
        elif r == "W":
            counts["caught"] += 1
        elif r != "F":
            counts[r] += 1
        else:
            cell, d6, d20 = cells[fr[i]][fc[i]], fr[i] + 1, chance[i]
            who = "striker" if d6 <= 3 else "non_striker"
            with_keeper = d6 in (1, 3, 4, 6)
            if cell == "catch_chance":
                counts["caught" if d20 <= ratings["catch"] else "1"] += 1
            elif cell == "run_out_chance":
                ok = d20 <= ratings["ro"] and (not with_keeper or d20 <= ratings["keeper_ro"])
                counts[f"run_out_{who}" if ok else "1"] += 1
            elif cell == "stumping_chance":
                counts["stumped" if d20 <= ratings["keeper"] else "0"] += 1
            elif cell == "run_out":
                counts[f"run_out_{who}"] += 1
            else:
                counts[cell] += 1
    for o in OUTCOMES:
        p = exact[OUT[o]]
        se = np.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(counts[o] / n - p) <= 4 * se + 1e-9, o


def test_fielding_plan_fills_120_cells_with_every_chance():
    league = {"wide_runs": 236, "wide_balls": 177, "no_ball_runs": 102, "no_ball_balls": 51,
              "leg_byes": 129, "leg_bye_balls": 105, "byes": 67, "bye_balls": 36,
              "dismissal_kinds": {"lbw": 28, "run out": 26, "stumped": 11}}
    plan = plan_counts(league)
    assert sum(plan.counts.values()) == CELLS
    assert min(plan.counts[k] for k in ("catch_chance", "run_out_chance", "stumping_chance")) >= 1
    cells = layout(plan.counts)
    flat = [c for row in cells for c in row]
    assert all(flat.count(k) == v for k, v in plan.counts.items())


def test_ratings_hit_the_mean_and_stay_in_range():
    rate = np.array([0.0, 0.1, 0.3, 0.5, 2.0])
    w = np.array([5, 5, 5, 5, 5.0])
    r = ratings_for_mean(rate, w, 10.0)
    assert r.min() >= 1 and r.max() <= 20
    assert abs(r.mean() - 10.0) <= 1.0
    assert list(r) == sorted(r)  # more catches per match never gives a lower rating


def test_chart_round_trip_and_gaps_rejected():
    x = card(W=3, F=5, _0=30, _1=40, _2=10, _4=8, _6=4)
    chart = slots_to_chart(x)
    assert chart[0] == {"lo": 1, "hi": 3, "result": "W"} and chart[-1]["hi"] == 100
    assert (chart_to_slots(chart) == x).all()
    with pytest.raises(CardSetError, match="roll 97 uncovered"):
        chart_to_slots(chart[:-1])
