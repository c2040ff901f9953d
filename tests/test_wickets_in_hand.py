"""The wickets-in-hand rule (R12) played by hand: its printed table, and scripted overs in each
band through the reference engine (the engines' agreement with the rule is in test_sim_engine)."""
from __future__ import annotations

import numpy as np
import pytest

from cardgen import wickets_in_hand as wih
from cardgen.calibrate.model import OUTCOMES
from cardgen.sim.reference import Dice, play_innings
from cardgen.wickets_in_hand import RULE
from tests.test_sim_rules import BOWLER_SAYS, STRIKER_SAYS, ScriptedRng, setup

QUIET_DOT = [1, 7]          # bowler card, roll 7: a dot on the example bowler card


def scripted(rolls: list[int], fmt: str = "T20", max_balls: int | None = None):
    cs, bat, bowl = setup(fmt)
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=RULE,
                       max_balls=max_balls)
    return inn, rng


def test_printed_table_t20_and_hundred():
    t20 = RULE.thresholds(120)
    # 0 down: attack with 49 or fewer balls left (under 5 a wicket), consolidate from 90 (9 a wicket)
    assert t20[0] == (0, 49, 90) and t20[5] == (5, 24, 45) and t20[9] == (9, 4, 9)
    hundred = RULE.thresholds(100)   # the same balls per wicket on a 100-ball scale
    assert hundred[0] == (0, 41, 75) and hundred[9] == (9, 4, 8)
    table = wih.band_table(RULE, 120)
    assert table[0, 120] == wih.CONSOLIDATE and table[0, 89] == wih.NORMAL
    assert table[0, 49] == wih.ATTACK and table[9, 9] == wih.CONSOLIDATE and table[9, 4] == wih.ATTACK


def test_consolidate_over():
    """First over, 0 down, 120 balls left: consolidate. A dismissal or a boundary rolls the d20."""
    rolls = (STRIKER_SAYS["W"] + [0, 3]       # caught (fielder 0) ... d20 3 <= 8: safe, a dot
             + STRIKER_SAYS["4"] + [8]        # four ... d20 8: a single instead
             + BOWLER_SAYS["B"] + [9]         # bowled ... d20 9: out
             + BOWLER_SAYS["6"] + [20]        # six ... d20 20: six
             + BOWLER_SAYS["0"]               # a dot: no extra die
             + BOWLER_SAYS["1"])              # a single: no extra die
    inn, rng = scripted(rolls, max_balls=6)
    assert [b.band for b in inn.balls] == ["consolidate"] * 6
    assert [(b.bat_runs, b.how_out) for b in inn.balls] == [
        (0, ""), (1, ""), (0, "bowled"), (6, ""), (0, ""), (1, "")]
    assert "consolidate: not out" in inn.balls[0].result
    assert "consolidate: single" in inn.balls[1].result
    assert inn.runs == 8 and inn.wickets == 1
    assert not rng.rolls                       # every scripted die was used, no more


def test_normal_band_plays_the_cards_as_printed():
    """0 down with 89..50 balls left: no extra die at all; a wicket then moves the band."""
    prefix = QUIET_DOT * 31                    # 31 dots: 89 balls left
    rolls = prefix + STRIKER_SAYS["4"] + BOWLER_SAYS["0"] + STRIKER_SAYS["W"] + [5]
    inn, rng = scripted(rolls, max_balls=34)
    assert inn.balls[30].band == "consolidate" and inn.balls[31].band == "normal"
    assert inn.balls[31].bat_runs == 4 and inn.balls[32].bat_runs == 0
    assert inn.balls[33].how_out == "caught" and inn.balls[33].fielders == (5,)
    assert inn.wickets == 1 and inn.runs == 4 and not rng.rolls
    # 1 down with 86 balls left is 9.6 balls a wicket in hand: consolidate again
    assert RULE.band(1, 86, 120) == wih.CONSOLIDATE


def test_attack_over():
    """0 down with 49 balls left: attack. A dot rolls the d20: 1-2 caught, 3-7 four, 8-9 six."""
    prefix = QUIET_DOT * 71                    # 71 dots bowled: 49 left
    rolls = (prefix
             + STRIKER_SAYS["0"] + [7]         # dot ... d20 7: four
             + BOWLER_SAYS["0"] + [8]          # dot ... d20 8: six
             + BOWLER_SAYS["0"] + [10]         # dot ... d20 10: still a dot
             + BOWLER_SAYS["4"]                # a four: no extra die in attack
             + STRIKER_SAYS["W"] + [2]         # a catch on the card: no die, fielder 2
             + BOWLER_SAYS["0"] + [1, 8])      # 1 down, 44 left, attack: d20 1 caught by 8
    inn, rng = scripted(rolls, max_balls=77)
    attack = inn.balls[71:]
    assert inn.balls[70].band == "normal" and all(b.band == "attack" for b in attack)
    assert [(b.bat_runs, b.how_out) for b in attack] == [
        (4, ""), (6, ""), (0, ""), (4, ""), (0, "caught"), (0, "caught")]
    assert attack[-1].fielders == (8,) and "attack: caught" in attack[-1].result
    assert inn.wickets == 2 and inn.runs == 14 and not rng.rolls


def test_band_follows_wickets_in_hand():
    """Wickets in hand, not wickets lost, set the band: under 5 balls a wicket attacks."""
    assert RULE.band(5, 30, 120) == wih.NORMAL and RULE.band(5, 24, 120) == wih.ATTACK
    assert RULE.band(6, 24, 120) == wih.NORMAL and RULE.band(6, 19, 120) == wih.ATTACK
    assert RULE.band(2, 80, 120) == wih.CONSOLIDATE and RULE.band(3, 62, 120) == wih.NORMAL


def test_super_overs_are_played_as_printed():
    from cardgen.sim.reference import play_super_over
    cs, bat, bowl = setup()
    a, b = play_super_over(cs, bat, bowl, Dice(ScriptedRng([])))
    assert all(ball.band == "" for ball in a.balls + b.balls)


@pytest.mark.parametrize("band", [wih.ATTACK, wih.NORMAL, wih.CONSOLIDATE])
def test_outcome_matrix_is_the_d20(band):
    """The calibration layer's matrix says what the d20 faces say (rows are distributions)."""
    t = RULE.outcome_matrix(band, OUTCOMES)
    assert np.allclose(t.sum(axis=1), 1) and (t >= 0).all()
    i = {o: k for k, o in enumerate(OUTCOMES)}
    if band == wih.ATTACK:
        assert t[i["0"], i["caught"]] == pytest.approx(2 / 20)
        assert t[i["0"], i["4"]] == pytest.approx(5 / 20) and t[i["0"], i["6"]] == pytest.approx(2 / 20)
        assert t[i["caught"], i["caught"]] == 1
    elif band == wih.CONSOLIDATE:
        assert t[i["lbw"], i["0"]] == pytest.approx(8 / 20) and t[i["6"], i["1"]] == pytest.approx(0.4)
        assert t[i["run_out_striker"], i["run_out_striker"]] == 1
    else:
        assert (t == np.eye(len(OUTCOMES))).all()
