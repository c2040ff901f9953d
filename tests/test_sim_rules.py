"""Rules tests with scripted dice: every result of the rules through the reference engine.

The fake generator returns the given rolls in order; once the script runs out every further
roll is the quietest one (bowler card, roll 7 = a dot on the example bowler card, fielder 0,
d20 = 20), so an innings can be scripted by its first few balls only.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardgen.sim import model as m
from cardgen.sim.captain import Captain, bowling_quotas, check_plan, order_plan, plan_pool
from cardgen.sim.example import (FIELDING_ROW, example_bowling, example_card_set,
                                 example_lineups)
from cardgen.sim.model import CardSetError, Side, compile_card_set
from cardgen.sim.reference import Dice, play_innings, play_match, play_super_over
from cardgen.wickets_in_hand import RULE
from conftest import as_model

DEFAULTS = {(1, 7): 1, (1, 101): 7, (1, 21): 20}


class ScriptedRng:
    """Stands in for numpy's Generator: `integers(low, high)` returns the scripted rolls."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)
        self.calls: list[tuple[int, int]] = []

    def integers(self, low: int, high: int) -> int:
        self.calls.append((low, high))
        if self.rolls:
            value = self.rolls.pop(0)
            assert low <= value < high, f"scripted {value} outside [{low}, {high})"
            return value
        return DEFAULTS.get((low, high), 0)


def field(result: str, d6: int) -> list[int]:
    """Rolls for an F on the example bowler card, then the chart cell `result` in row d6."""
    j = FIELDING_ROW.index(result)
    return [1, 3, d6, (j - (d6 - 1)) % 20 + 1]


BOWLER_SAYS = {"B": [1, 1], "W": [1, 2], "0": [1, 7], "1": [1, 42], "2": [1, 71], "4": [1, 90],
               "6": [1, 97]}
STRIKER_SAYS = {"W": [4, 1], "0": [4, 4], "1": [4, 37], "2": [4, 68], "4": [4, 87], "6": [4, 94]}


def setup(fmt: str = "T20"):
    raw = example_card_set(fmt)
    cs = compile_card_set(as_model(raw))
    cap = Captain(cs, example_lineups(raw), example_bowling(raw), np.random.default_rng(0))
    return cs, cap.usual_side("Sydney Thunder"), cap.usual_side("Perth Scorchers")


def innings(rolls: list[int], fmt: str = "T20", **kw):
    cs, bat, bowl = setup(fmt)
    plan = kw.pop("plan", bowl.plans[0])
    inn = play_innings(cs, bat, bowl, Dice(ScriptedRng(rolls)), plan=plan, **kw)
    return cs, bat, bowl, inn


def test_runs_and_ends():
    _, _, _, inn = innings(BOWLER_SAYS["1"] + STRIKER_SAYS["2"] + STRIKER_SAYS["4"]
                           + BOWLER_SAYS["6"] + STRIKER_SAYS["1"], max_balls=5)
    assert [b.bat_runs for b in inn.balls] == [1, 2, 4, 6, 1]
    assert [b.card for b in inn.balls] == ["bowler", "striker", "striker", "bowler", "striker"]
    # one run swaps ends (3.4.2): slot 1 faces balls 2-5
    assert [b.striker for b in inn.balls] == [0, 1, 1, 1, 1]
    assert inn.runs == 14 and inn.batters[1].runs == 13 and inn.batters[1].fours == 1
    assert inn.batters[1].sixes == 1 and inn.wickets == 0


def test_bowled_caught_lbw_stumped_credit_the_bowler():
    rolls = (BOWLER_SAYS["B"] + BOWLER_SAYS["W"] + [7] + STRIKER_SAYS["W"] + [3]
             + field("lbw", 1) + field("stumped", 2) + field("caught", 3) + [10])
    _, _, bowl, inn = innings(rolls, max_balls=5)
    outs = [(b.how_out, b.out_slot, b.fielders) for b in inn.balls]
    assert outs == [("bowled", 0, ()), ("caught", 2, (7,)), ("caught", 3, (3,)),
                    ("lbw", 4, ()), ("stumped", 5, (bowl.keeper_slot,))]
    assert inn.wickets == 5 and sum(line.wickets for line in inn.bowlers.values()) == 5
    assert inn.balls[-1].striker == 5   # the new batter faces (R5) ...
    assert 6 in inn.batters             # ... and the next one is in after the fifth wicket


def test_caught_on_the_fielding_chart_uses_a_random_fielder():
    _, _, _, inn = innings(field("caught", 4) + [9], max_balls=1)
    assert inn.balls[0].how_out == "caught" and inn.balls[0].fielders == (9,)


@pytest.mark.parametrize("d6, striker_out, with_keeper", [
    (1, True, True), (2, True, False), (3, True, True),
    (4, False, True), (5, False, False), (6, False, True)])
def test_run_out_rows(d6, striker_out, with_keeper):
    # fielder pick 2: with the keeper (slot 2) the fielder is drawn from the other ten (R3)
    _, _, bowl, inn = innings(field("run_out", d6) + [2], max_balls=1)
    ball = inn.balls[0]
    assert ball.how_out == "run out" and ball.bat_runs == 0
    assert ball.out_slot == (0 if striker_out else 1)
    assert ball.fielders == ((3, bowl.keeper_slot) if with_keeper else (2,))
    assert inn.bowlers[ball.bowler].wickets == 0     # run-outs are not the bowler's
    # R5: the new batter (slot 2) takes the dismissed batter's end
    assert inn.batters[2].balls == 0
    assert inn.wickets == 1


def test_non_striker_run_out_new_batter_is_non_striker():
    _, _, _, inn = innings(field("run_out", 5) + [4] + BOWLER_SAYS["0"], max_balls=2)
    assert inn.balls[1].striker == 0 and inn.batters[1].how_out == "run out"


def test_catch_chance():
    cs, _, bowl, _ = innings([], max_balls=0)
    catcher = 6
    rating = int(cs.catch[bowl.players[catcher]])
    _, _, _, held = innings(field("catch_chance", 1) + [catcher, rating], max_balls=1)
    assert held.balls[0].how_out == "caught" and held.balls[0].fielders == (catcher,)
    _, _, _, dropped = innings(field("catch_chance", 1) + [catcher, rating + 1], max_balls=1)
    assert dropped.balls[0].out_slot is None and dropped.balls[0].bat_runs == 1   # fail: 1 run
    assert dropped.wickets == 0 and dropped.runs == 1


@pytest.mark.parametrize("d6", [1, 2, 4, 5])
def test_run_out_chance(d6):
    cs, _, bowl, _ = innings([], max_balls=0)
    with_keeper = d6 in (1, 4)
    pick = 6
    fielder = pick + (pick >= bowl.keeper_slot) if with_keeper else pick
    ro_f = int(cs.run_out[bowl.players[fielder]])
    ro_k = int(cs.run_out[bowl.players[bowl.keeper_slot]])
    need = min(ro_f, ro_k) if with_keeper else ro_f
    _, _, _, made = innings(field("run_out_chance", d6) + [pick, need], max_balls=1)
    assert made.balls[0].how_out == "run out"
    assert made.balls[0].out_slot == (0 if d6 <= 3 else 1)
    _, _, _, missed = innings(field("run_out_chance", d6) + [pick, need + 1], max_balls=1)
    assert missed.balls[0].out_slot is None and missed.runs == 1 and missed.balls[0].bat_runs == 1
    if with_keeper:  # the d20 must beat both ratings: between the two it fails
        assert ro_f != ro_k
        _, _, _, between = innings(field("run_out_chance", d6) + [pick, max(ro_f, ro_k)],
                                   max_balls=1)
        assert between.wickets == 0


def test_stumping_chance_uses_keeper_rating():
    cs, _, bowl, _ = innings([], max_balls=0)
    rating = int(cs.keeper[bowl.players[bowl.keeper_slot]])
    assert rating == 8
    _, _, _, out = innings(field("stumping_chance", 1) + [8], max_balls=1)
    assert out.balls[0].how_out == "stumped"
    _, _, _, safe = innings(field("stumping_chance", 1) + [9], max_balls=1)
    assert safe.wickets == 0 and safe.runs == 0 and safe.balls[0].legal   # fail: a dot


def test_leg_byes_and_byes():
    _, _, bowl, inn = innings(field("leg_bye", 1) + field("bye", 2), max_balls=2)
    assert inn.runs == 2 and inn.leg_byes == 1 and inn.byes == 1 and inn.legal_balls == 2
    assert [b.striker for b in inn.balls] == [0, 1]           # one run: ends swap
    assert inn.batters[0].runs == 0 and inn.batters[0].balls == 1
    assert sum(line.runs for line in inn.bowlers.values()) == 0   # not the bowler's runs


def test_four_leg_byes_and_four_byes_score_four_to_extras_without_changing_ends():
    """R14: a four of leg byes (byes) is a legal ball, four runs to Extras, not the batter's or
    the bowler's, and the batters stay where they are."""
    _, _, bowl, inn = innings(field("leg_bye_4", 1) + field("bye_4", 2) + field("leg_bye", 3),
                              max_balls=3)
    assert inn.runs == 9 and inn.leg_byes == 5 and inn.byes == 4 and inn.legal_balls == 3
    assert [b.striker for b in inn.balls] == [0, 0, 0]        # fours: no crossing
    assert inn.batters[0].runs == 0 and inn.batters[0].balls == 3
    assert sum(line.runs for line in inn.bowlers.values()) == 0


def test_the_card_set_stores_fours_as_contract_cells_listed_in_fours():
    """The contract's cell names are fixed: a four is a leg_bye (bye) cell whose (d6, d20) is in
    fielding_chart.fours, and the engines read it back as a four."""
    raw = example_card_set()
    names = {cell for row in raw["fielding_chart"]["cells"] for cell in row}
    assert "leg_bye_4" not in names and "bye_4" not in names
    d6, d20 = raw["fielding_chart"]["fours"][0]
    assert raw["fielding_chart"]["cells"][d6 - 1][d20 - 1] in ("leg_bye", "bye")
    cs = compile_card_set(as_model(raw))
    assert cs.fielding[d6 - 1, d20 - 1] in (m.LEG_BYE_4, m.BYE_4)
    bad = example_card_set()
    bad["fielding_chart"]["fours"] = [[1, 1]]                  # a bowled cell is not a leg bye
    with pytest.raises(CardSetError, match="not a leg bye or bye"):
        compile_card_set(as_model(bad))
    for where in ([0, 10], [7, 1], [1, 21], ["a", 1], 5):       # off the chart, or not a pair
        bad["fielding_chart"]["fours"] = [where]
        with pytest.raises(CardSetError, match="not a \\(d6, d20\\) cell"):
            compile_card_set(as_model(bad))


def test_wide_is_rebowled_and_not_faced():
    _, _, _, inn = innings(field("wide", 1) + BOWLER_SAYS["4"], max_balls=1)
    assert len(inn.balls) == 2 and inn.legal_balls == 1 and inn.runs == 5
    assert not inn.balls[0].legal and inn.wides == 1
    assert inn.batters[0].balls == 1                         # the wide was not a ball faced
    assert inn.bowlers[inn.balls[0].bowler].runs == 5        # wides are the bowler's
    assert not inn.balls[1].free_hit                         # wides give no free hit (R6)


def test_no_ball_gives_a_free_hit_only_run_out_dismisses():
    rolls = (field("no_ball", 1) + BOWLER_SAYS["B"]          # free hit: bowled -> dot
             + field("no_ball", 1) + field("wide", 1)         # wide on a free hit keeps it
             + STRIKER_SAYS["W"] + [4]                         # caught -> not out
             + field("no_ball", 1) + field("catch_chance", 1) + [0, 1]   # held, but not out
             + field("no_ball", 1) + field("run_out", 2) + [5]           # run-out stands
             + BOWLER_SAYS["B"])                                          # no free hit now
    _, _, _, inn = innings(rolls, max_balls=5)
    free = [b.free_hit for b in inn.balls]
    assert free == [False, True, False, True, True, False, True, False, True, False]
    assert [b.how_out for b in inn.balls if b.free_hit] == ["", "", "", "", "run out"]
    assert inn.balls[-1].how_out == "bowled"
    assert inn.no_balls == 4 and inn.wides == 1 and inn.legal_balls == 5 and inn.wickets == 2


def test_t20_overs_change_ends_and_bowlers():
    cs, _, bowl, inn = innings([], max_balls=13)
    assert [b.striker for b in inn.balls] == [0] * 6 + [1] * 6 + [0]
    assert inn.unit_bowler == bowl.plans[0][:3]
    assert all(x != y for x, y in zip(bowl.plans[0], bowl.plans[0][1:]))


def test_hundred_sets_and_ends():
    cs, _, bowl, inn = innings([], fmt="100-ball", max_balls=21)
    # 5-ball sets, ends change every 10 balls
    assert [b.striker for b in inn.balls] == [0] * 10 + [1] * 10 + [0]
    assert [bowl.plans[0][(b.legal_no - 1) // 5] for b in inn.balls] == [b.bowler for b in inn.balls]
    assert len(inn.unit_bowler) == 5


def test_innings_ends_at_ten_wickets():
    _, _, _, inn = innings(BOWLER_SAYS["B"] * 12)
    assert inn.wickets == 10 and inn.legal_balls == 10 and len(inn.balls) == 10
    assert set(inn.batters) == set(range(11))


def test_innings_ends_when_balls_run_out():
    _, _, _, t20 = innings([])
    _, _, _, hundred = innings([], fmt="100-ball")
    assert (t20.legal_balls, len(t20.balls)) == (120, 120)
    assert (hundred.legal_balls, len(hundred.balls)) == (100, 100)


def test_chase_ends_as_soon_as_target_passed():
    # home: a six then dots (6 all out of balls); away needs 7: a four, a two, a one
    rolls = ([0] + BOWLER_SAYS["6"] + [1, 7] * 119 + [0]
             + BOWLER_SAYS["4"] + BOWLER_SAYS["2"] + BOWLER_SAYS["1"] + BOWLER_SAYS["6"])
    cs, home, away = setup()
    match = play_match(cs, home, away, ScriptedRng(rolls))
    assert match.first.runs == 6 and match.first.legal_balls == 120
    assert match.second.runs == 7 and match.second.legal_balls == 3
    assert match.winner == away.team and not match.super_overs


def test_tie_goes_to_super_over_second_side_bats_first():
    # both innings all dots: 0-0; super over 1: the away side (batted second) hits a six
    rolls = [0] + [1, 7] * 120 + [0] + [1, 7] * 120 + BOWLER_SAYS["6"]
    cs, home, away = setup()
    match = play_match(cs, home, away, ScriptedRng(rolls))
    (a, b), = match.super_overs
    assert a.batting == away.team and a.runs == 6 and a.legal_balls == 6
    assert b.batting == home.team and b.runs == 0
    assert match.winner == away.team


def test_super_over_three_batters_two_wickets_and_repeats():
    cs, home, away = setup()
    a, b = play_super_over(cs, home, away, Dice(ScriptedRng(BOWLER_SAYS["B"] * 2)))
    assert a.wickets == 2 and a.legal_balls == 2 and set(a.batters) == {0, 1, 2}
    assert a.unit_bowler == [away.super_over_bowler]
    rolls = [0] + [1, 7] * 120 + [0] + [1, 7] * 120
    match = play_match(cs, home, away, ScriptedRng(rolls))
    assert len(match.super_overs) == 5 and match.winner is None
    assert [s[0].batting for s in match.super_overs] == [away.team, home.team] * 2 + [away.team]


@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_bowling_plans_obey_limits(fmt):
    rng = np.random.default_rng(7)
    f = m.format_named(fmt)
    for _ in range(300):
        n = int(rng.integers(5, 9))
        weights = rng.dirichlet(np.ones(n) * 0.7)
        quota = bowling_quotas(weights, f, rng)
        assert quota.sum() == 20 and quota.max() <= 4 and quota.min() >= 0
        plan = order_plan(quota, f)
        check_plan(plan, f)


def test_hundred_spells_are_five_or_ten_balls():
    plans = plan_pool(list(range(6)), [0.3, 0.25, 0.2, 0.1, 0.1, 0.05], m.HUNDRED,
                      np.random.default_rng(3), 50)
    for plan in plans:
        check_plan(plan, m.HUNDRED)
        assert max(plan.count(b) for b in set(plan)) <= 4        # at most 20 balls
    with pytest.raises(CardSetError):
        check_plan([0, 0, 0] + [1, 2, 3, 4] * 4 + [1], m.HUNDRED)   # 15 balls in a row
    with pytest.raises(CardSetError, match="straddle"):
        check_plan([1, 0, 0] + [2, 3, 4, 5] * 4 + [1], m.HUNDRED)   # 10 balls across an end
    with pytest.raises(CardSetError):
        check_plan([0, 0] + [1, 2, 3, 4] * 4 + [5, 6], m.T20)     # consecutive T20 overs
    with pytest.raises(CardSetError):
        bowling_quotas(np.ones(4), m.T20, np.random.default_rng(0))   # 4 bowlers x 4 < 20


def test_quotas_follow_real_shares():
    rng = np.random.default_rng(11)
    weights = np.array([0.25, 0.2, 0.2, 0.15, 0.12, 0.08])
    mean = np.mean([bowling_quotas(weights, m.T20, rng) for _ in range(4000)], axis=0)
    # 5, 4, 4 overs capped at 4 each; the other 8 overs shared 15:12:8
    target = np.array([4.0, 4.0, 4.0, 8 * 15 / 35, 8 * 12 / 35, 8 * 8 / 35])
    # 4000 draws: the standard error of each mean is < 0.01 overs
    assert np.allclose(mean, target, atol=0.05)


def test_bad_card_sets_are_named_errors():
    raw = example_card_set()
    raw["cards"][0]["chart"] = raw["cards"][0]["chart"][1:]
    with pytest.raises(CardSetError, match="uncovered"):
        compile_card_set(as_model(raw))
    raw = example_card_set()
    raw["fielding_chart"]["cells"][0][0] = "dropped"
    with pytest.raises(CardSetError, match="unknown"):
        compile_card_set(as_model(raw))
    with pytest.raises(CardSetError):
        Side(team="x", players=[1] * 10, batters=[1] * 10, keeper_slot=0, plans=[[0]],
             super_over_bowler=0)


# --- R13: the Defence rating ------------------------------------------------------------------

def defended_setup(rating: int, fmt: str = "T20"):
    """The rules' example set with a Defence rating on every Sydney Thunder striker card (the
    side that bats in `innings`); Perth Scorchers' cards carry none."""
    raw = example_card_set(fmt)
    for card in raw["cards"]:
        if card["kind"] == "striker" and card["team"] == "Sydney Thunder":
            card["defence"] = rating
    cs = compile_card_set(as_model(raw))
    cap = Captain(cs, example_lineups(raw), example_bowling(raw), np.random.default_rng(0))
    return cs, cap.usual_side("Sydney Thunder"), cap.usual_side("Perth Scorchers")


def defended_innings(rolls: list[int], rating: int = 12, **kw):
    """An innings with Defence played (R13 is an advanced rule: here without R12's bands unless
    `rule` is given, to script the Defence die alone)."""
    cs, bat, bowl = defended_setup(rating)
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], **{"defence": True, **kw})
    return inn, rng


def test_the_quicket_rules_never_roll_the_defence_die():
    """Defence belongs to the advanced rules (docs/rules.md R13): played by the Quicket rules
    (no rule, the default) a rated striker's W off the bowler's card stands with no d20, the
    catcher drawn at once; in a super over too. With the rule (the advanced rules) it is rolled."""
    cs, bat, bowl = defended_setup(20)
    rng = ScriptedRng(BOWLER_SAYS["W"] + [7])
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], max_balls=1)
    assert (inn.balls[0].how_out, inn.balls[0].fielders) == ("caught", (7,))
    assert rng.calls == [D6, D100, (0, 11)] and not rng.rolls
    rng = ScriptedRng(BOWLER_SAYS["W"] + [7] + BOWLER_SAYS["W"] + [3])
    a, _ = play_super_over(cs, bat, bowl, Dice(rng))
    assert [x.how_out for x in a.balls] == ["caught", "caught"] and a.wickets == 2
    rng = ScriptedRng(BOWLER_SAYS["W"] + [20] + BOWLER_SAYS["W"] + [20])   # advanced: saved
    a, _ = play_super_over(cs, bat, bowl, Dice(rng), defence=True)
    assert a.wickets == 0 and "defence" in a.balls[0].result


D6, D100, D20 = (1, 7), (1, 101), (1, 21)


def test_defence_turns_the_bowler_cards_w_into_a_dot_at_or_under_the_rating():
    """Defence 12: the d20 after the card's roll; 12 survives (a dot, no fielder drawn), 13 and
    the W stands (then the catcher is drawn)."""
    rolls = BOWLER_SAYS["W"] + [12] + BOWLER_SAYS["W"] + [13, 7]
    inn, rng = defended_innings(rolls, max_balls=2)
    saved, out = inn.balls
    assert (saved.out_slot, saved.bat_runs, saved.legal, saved.fielders) == (None, 0, True, ())
    assert "defence" in saved.result
    assert (out.how_out, out.out_slot, out.fielders) == ("caught", 0, (7,))
    assert rng.calls == [D6, D100, D20, D6, D100, D20, (0, 11)] and not rng.rolls
    assert inn.batters[0].balls == 2 and inn.wickets == 1
    assert inn.bowlers[out.bowler].wickets == 1 and inn.bowlers[out.bowler].legal_balls == 2


@pytest.mark.parametrize("rating", [0, 20])
def test_defence_leaves_b_the_strikers_own_w_and_the_fielding_chart_alone(rating):
    """Only a W read from the bowler's card rolls the Defence die: B, the striker card's own W
    and the chart's catch are out whatever the rating (Defence 20 would save any W it met); a
    card with no rating (0) rolls no die at all, as before R13."""
    rolls = (BOWLER_SAYS["B"] + STRIKER_SAYS["W"] + [3] + field("caught", 3) + [5]
             + BOWLER_SAYS["W"] + ([1] if rating else []) + ([] if rating else [6]))
    inn, rng = defended_innings(rolls, rating, max_balls=4)
    assert [b.how_out for b in inn.balls] == ["bowled", "caught", "caught",
                                              "" if rating else "caught"]
    # the Defence d20 is the only d20 outside the fielding chart's (D20 after the card's roll)
    card_rolls = [k for k, call in enumerate(rng.calls) if call == D100]
    after_card = [rng.calls[k + 1] if k + 1 < len(rng.calls) else None for k in card_rolls]
    assert after_card.count(D20) == (1 if rating else 0) and not rng.rolls


def test_defence_in_the_attack_band_a_survived_w_is_an_attacking_dot():
    """Chasing 250 (attack from the first ball, R12): the Defence d20 first, then the dot it
    leaves rolls the attack d20 (9: six; 1: bowled going for it); a W that stands is caught,
    and in attack a catch rolls nothing more."""
    rolls = (BOWLER_SAYS["W"] + [5, 9]          # saved (5 <= 12) ... attack d20 9: six
             + BOWLER_SAYS["W"] + [5, 1]        # saved ... attack d20 1: bowled
             + BOWLER_SAYS["W"] + [13, 3])      # W stands (13 > 12): caught by fielder 3
    cs, bat, bowl = defended_setup(12)
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=RULE, target=250,
                       max_balls=3)
    assert [b.band for b in inn.balls] == ["attack"] * 3
    assert [(b.bat_runs, b.how_out) for b in inn.balls] == [(6, ""), (0, "bowled"), (0, "caught")]
    assert "defence" in inn.balls[0].result and "attack: six" in inn.balls[0].result
    assert "attack: bowled" in inn.balls[1].result and inn.balls[2].fielders == (3,)
    assert rng.calls == [D6, D100, D20, D20] * 2 + [D6, D100, D20, (0, 11)] and not rng.rolls


def test_defence_in_the_consolidate_band_a_w_that_stands_still_rolls_the_catch_die():
    """First over, 0 down (consolidate, R12): a W above the rating is a catch, so the catch d20
    follows (12: kept on the ground, 13: out); a W survived is a dot: no catch die."""
    rolls = (BOWLER_SAYS["W"] + [13, 4, 12]     # W stands, fielder 4, catch d20 12: not out
             + BOWLER_SAYS["W"] + [13, 4, 13]   # ... catch d20 13: out
             + BOWLER_SAYS["W"] + [12])         # saved: a dot, nothing more in consolidate
    cs, bat, bowl = defended_setup(12)
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=RULE, max_balls=3)
    assert [b.band for b in inn.balls] == ["consolidate"] * 3
    assert [b.how_out for b in inn.balls] == ["", "caught", ""]
    assert "consolidate: not out" in inn.balls[0].result and "defence" in inn.balls[2].result
    assert inn.wickets == 1 and not rng.rolls


def test_defence_is_rolled_on_a_free_hit_too():
    """A free hit voids dismissals last (R6): the Defence die is rolled all the same (the same
    dice in the same order whatever the free hit)."""
    rolls = (field("no_ball", 1) + BOWLER_SAYS["W"] + [3]           # free hit: saved
             + field("no_ball", 1) + BOWLER_SAYS["W"] + [13, 5]     # free hit: W stands, void
             + BOWLER_SAYS["W"] + [13, 2])                          # no free hit: out
    inn, rng = defended_innings(rolls, max_balls=3)
    assert [b.free_hit for b in inn.balls] == [False, True, False, True, False]
    assert "defence" in inn.balls[1].result and "free hit: not out" in inn.balls[3].result
    assert [b.how_out for b in inn.balls] == ["", "", "", "", "caught"]
    assert inn.wickets == 1 and not rng.rolls


def test_defence_plays_in_super_overs():
    """A super over (R8, without the wickets-in-hand table) of the advanced rules reads the same
    cards: the rating is part of them."""
    cs, bat, bowl = defended_setup(12)
    rng = ScriptedRng(BOWLER_SAYS["W"] + [12] + BOWLER_SAYS["W"] + [13, 2])
    a, b = play_super_over(cs, bat, bowl, Dice(rng), defence=True)
    assert [x.how_out for x in a.balls[:2]] == ["", "caught"] and "defence" in a.balls[0].result
    assert a.wickets == 1 and not rng.rolls
    assert b.batting == bowl.team and b.wickets == 0    # (Perth's cards: no rating, no die)


@pytest.mark.parametrize("value, error", [
    (None, None), (0, None), (1, None), (20, None), (21, "defence"), (-1, "defence"),
    ("12", "defence"), (12.0, "defence"), (True, "defence")])
def test_a_striker_cards_defence_is_a_whole_number_to_20(value, error):
    raw = example_card_set()
    striker = next(c for c in raw["cards"] if c["kind"] == "striker")
    striker["defence"] = value
    if error:
        with pytest.raises(CardSetError, match=error):
            compile_card_set(as_model(raw))
    else:
        assert compile_card_set(as_model(raw)).striker_defence[0] == (value or 0)


def test_a_defence_rating_on_a_bowler_card_is_an_error():
    raw = example_card_set()
    next(c for c in raw["cards"] if c["kind"] == "bowler")["defence"] = 8
    with pytest.raises(CardSetError, match="only striker cards"):
        compile_card_set(as_model(raw))
    assert not compile_card_set(as_model(example_card_set())).has_defence
