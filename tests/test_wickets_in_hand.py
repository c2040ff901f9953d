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
from conftest import as_model

QUIET_DOT = [1, 7]          # bowler card, roll 7: a dot on the example bowler card


def scripted(rolls: list[int], fmt: str = "T20", max_balls: int | None = None,
             rule: wih.WicketsInHand = RULE):
    cs, bat, bowl = setup(fmt)
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=rule,
                       max_balls=max_balls)
    return inn, rng


def test_printed_table_t20_and_hundred():
    t20 = RULE.thresholds(120)
    # 0 down: attack with 49 or fewer balls left (under 5 a wicket), consolidate from 80 (8 a wicket)
    assert t20[0] == (0, 49, 80) and t20[5] == (5, 24, 40) and t20[9] == (9, 4, 8)
    hundred = RULE.thresholds(100)   # the same balls per wicket on a 100-ball scale
    assert hundred[0] == (0, 41, 67) and hundred[9] == (9, 4, 7)
    table = wih.band_table(RULE, 120)
    assert table[0, 120] == wih.CONSOLIDATE and table[0, 79] == wih.NORMAL
    assert table[0, 49] == wih.ATTACK and table[9, 8] == wih.CONSOLIDATE and table[9, 4] == wih.ATTACK


def test_consolidate_over():
    """First over, 0 down, 120 balls left: consolidate. Only a catch rolls the d20."""
    rolls = (STRIKER_SAYS["W"] + [0, 3]       # caught (fielder 0) ... d20 3 <= 12: on the ground
             + STRIKER_SAYS["4"]              # four: no extra die
             + BOWLER_SAYS["B"]               # bowled: stands, no extra die
             + BOWLER_SAYS["W"] + [4, 13]     # caught (fielder 4) ... d20 13: out
             + BOWLER_SAYS["0"]               # a dot: no extra die
             + BOWLER_SAYS["6"])              # a six: no extra die
    inn, rng = scripted(rolls, max_balls=6)
    assert [b.band for b in inn.balls] == ["consolidate"] * 6
    assert [(b.bat_runs, b.how_out) for b in inn.balls] == [
        (0, ""), (4, ""), (0, "bowled"), (0, "caught"), (0, ""), (6, "")]
    assert "consolidate: not out" in inn.balls[0].result
    assert inn.runs == 10 and inn.wickets == 2
    assert not rng.rolls                       # every scripted die was used, no more


def test_normal_band_plays_the_cards_as_printed():
    """0 down with 79..50 balls left: no extra die at all; a wicket then moves the band."""
    prefix = QUIET_DOT * 41                    # 41 dots: 79 balls left
    rolls = prefix + STRIKER_SAYS["4"] + BOWLER_SAYS["0"] + STRIKER_SAYS["W"] + [5]
    inn, rng = scripted(rolls, max_balls=44)
    assert inn.balls[40].band == "consolidate" and inn.balls[41].band == "normal"
    assert inn.balls[41].bat_runs == 4 and inn.balls[42].bat_runs == 0
    assert inn.balls[43].how_out == "caught" and inn.balls[43].fielders == (5,)
    assert inn.wickets == 1 and inn.runs == 4 and not rng.rolls
    # 1 down with 72 balls left is 8 balls a wicket in hand: consolidate again
    assert RULE.band(1, 72, 120) == wih.CONSOLIDATE and RULE.band(1, 71, 120) == wih.NORMAL


def test_attack_over():
    """0 down with 49 balls left: attack. A dot rolls the d20: 1 bowled, 2 caught, 3-8 four,
    9-10 six."""
    prefix = QUIET_DOT * 71                    # 71 dots bowled: 49 left
    rolls = (prefix
             + STRIKER_SAYS["0"] + [8]         # dot ... d20 8: four
             + BOWLER_SAYS["0"] + [10]         # dot ... d20 10: six
             + BOWLER_SAYS["0"] + [11]         # dot ... d20 11: still a dot
             + BOWLER_SAYS["4"]                # a four: no extra die in attack
             + STRIKER_SAYS["W"] + [2]         # a catch on the card: no die, fielder 2
             + BOWLER_SAYS["0"] + [2, 8])      # 1 down, 44 left, attack: d20 2 caught by 8
    inn, rng = scripted(rolls, max_balls=77)
    attack = inn.balls[71:]
    assert inn.balls[70].band == "normal" and all(b.band == "attack" for b in attack)
    assert [(b.bat_runs, b.how_out) for b in attack] == [
        (4, ""), (6, ""), (0, ""), (4, ""), (0, "caught"), (0, "caught")]
    assert attack[-1].fielders == (8,) and "attack: caught" in attack[-1].result
    assert inn.wickets == 2 and inn.runs == 14 and not rng.rolls
    # d20 1 on an attacking dot: bowled, the bowler's wicket (0 down, 39 left)
    attacking_dots = (QUIET_DOT + [20]) * 10   # in attack a dot rolls the d20: 20 stays a dot
    inn, rng = scripted(QUIET_DOT * 71 + attacking_dots + STRIKER_SAYS["0"] + [1], max_balls=82)
    assert inn.balls[-1].band == "attack" and inn.balls[-1].how_out == "bowled"
    assert "attack: bowled" in inn.balls[-1].result and not rng.rolls
    assert sum(line.wickets for line in inn.bowlers.values()) == 1


def test_band_follows_wickets_in_hand():
    """Wickets in hand, not wickets lost, set the band: under 5 balls a wicket attacks."""
    assert RULE.band(5, 30, 120) == wih.NORMAL and RULE.band(5, 24, 120) == wih.ATTACK
    assert RULE.band(6, 24, 120) == wih.NORMAL and RULE.band(6, 19, 120) == wih.ATTACK
    assert RULE.band(2, 80, 120) == wih.CONSOLIDATE and RULE.band(3, 55, 120) == wih.NORMAL


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
        assert t[i["0"], i["caught"]] == pytest.approx(1 / 20)
        assert t[i["0"], i["bowled"]] == pytest.approx(1 / 20)
        assert t[i["0"], i["4"]] == pytest.approx(6 / 20) and t[i["0"], i["6"]] == pytest.approx(2 / 20)
        assert t[i["caught"], i["caught"]] == 1
    elif band == wih.CONSOLIDATE:
        assert t[i["caught"], i["0"]] == pytest.approx(12 / 20)
        assert t[i["lbw"], i["lbw"]] == 1 and t[i["bowled"], i["bowled"]] == 1 and t[i["6"], i["6"]] == 1
        assert t[i["run_out_striker"], i["run_out_striker"]] == 1
    else:
        assert (t == np.eye(len(OUTCOMES))).all()


def test_real_balls_are_counted_in_their_bands():
    """The stats layer's situations: every ball faced and every legal ball bowled is in one band,
    and the first ball of an innings (0 down, all balls left) is always consolidate."""
    from pathlib import Path

    from cardgen.cache import Cache
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    stats = season_stats(get_competition("BBL"), "2024-25",
                         cache=Cache(Path(__file__).parent.parent / "stats_cache"))
    sit = stats.situations
    cols = [f"balls_{b}" for b in wih.BANDS]
    bat = sit[sit["role"] == "bat"].set_index(["player_id", "team"])[cols].sum(axis=1)
    faced = stats.batting.set_index(["player_id", "team"])["balls"]
    assert bat.reindex(faced.index, fill_value=0).equals(faced.astype(bat.dtype))
    bowl = sit[sit["role"] == "bowl"][cols].to_numpy().sum()
    assert bowl == stats.bowling["legal_balls"].sum()
    share = sit[cols].sum() / sit[cols].to_numpy().sum()
    # every band is a real part of a T20 season (BBL 2024-25: about 18% / 32% / 50%)
    assert (share > 0.1).all(), share
    assert RULE.band(0, 120, 120) == wih.CONSOLIDATE


@pytest.mark.needs_data
def test_calibrated_cards_reproduce_the_season_under_the_rule(render_card_sets):
    """Calibration knows the rule: the card set says so, every card carries its situations, and
    its expected figures (under the rule over those situations) match the real season. The set is
    the session's BBL 2024-25 set, calibrated from the season under the rule (build_card_set's
    default) once for every test that needs it."""
    import json

    from cardgen.calibrate.report import summary
    card_set = json.loads(json.dumps(render_card_sets["BBL"]))  # as written to card-set.json
    assert card_set["rule"] == "wickets-in-hand"
    assert all(abs(sum(c["situations"].values()) - 1) < 1e-4 for c in card_set["cards"]
               if c["real"]["balls"] > 0)
    s = summary(card_set)
    # the bars: medians SR / economy <= 0.5%, dismissal / wicket rate <= 2%
    assert s["striker"]["median_main_error"] <= 0.005 and s["bowler"]["median_main_error"] <= 0.005
    assert s["striker"]["median_rate_error"] <= 0.02 and s["bowler"]["median_rate_error"] <= 0.02
    # a death hitter's card is tamer than his real figures (he batted mostly in the attack band)
    hitters = [c for c in card_set["cards"] if c["kind"] == "striker" and c["real"]["balls"] >= 60
               and c["situations"]["attack"] > 0.6]
    assert hitters
    from cardgen.calibrate.expect import model_from_card_set
    from cardgen.calibrate.model import chart_to_slots
    model = model_from_card_set(card_set)
    for c in hitters:
        printed = model.striker(chart_to_slots(c["chart"]).astype(float))
        assert printed["strike_rate"] < c["expected"]["strike_rate"], c["player"]["name"]


def test_quick_reference_prints_the_rules_own_d20_faces(monkeypatch):
    """The printed faces come from the rule's parameters, every face of the d20 is accounted for,
    and the card set's description of the rule says the same."""
    from dataclasses import replace
    from cardgen.render.sample import rules_example_card_set
    from cardgen.render.teamsheets import quick_reference_text
    card_set = {**rules_example_card_set(), "rule": wih.RULE_NAME}
    text = quick_reference_text(as_model(card_set))
    assert "1 bowled, 2 caught, 3-8 four, 9-10 six, 11-20 dot" in text
    assert "1-12 not out (&#8226;), 13-20 out" in text
    # runs needed count from the target, the first innings' total + 1 (the engines' chase)
    assert "<b>Chasing</b>, needing over 2 a ball: always attack (target &#8722; total &gt; 2 &#215; balls left)." in text
    assert RULE.describe()["attack_d20"] == {"bowled": [1, 1], "caught": [2, 2], "four": [3, 8],
                                             "six": [9, 10]}
    assert RULE.describe()["consolidate_applies_to"] == ["caught"]
    wider = replace(RULE, attack_bowled=2, attack_out=4, consolidate_safe=14,
                    consolidate_saves=("caught", "bowled", "lbw"), chase_attack_above=1.75)
    monkeypatch.setattr(wih, "RULE", wider)
    text = quick_reference_text(as_model(card_set))
    assert "1-2 bowled, 3-4 caught, 5-8 four" in text and "1-14 not out (&#8226;), 15-20 out" in text
    assert "on a catch (W, or a catch on the chart), bowled or LBW roll a d20" in text
    assert "needing over 1.75 a ball" in text and "&gt; 1.75 &#215; balls left" in text


# A league's own boundary mix gives the attack d20's four and six faces (for_league). Fours and
# sixes per ball faced: the women's Super Smash 2022-23, BBL 2024-25 and IPL 2025 (league tables).
WOMENS_SMASH, BBL, IPL = (0.1083, 0.0076), (0.1135, 0.0536), (0.1363, 0.0785)


def test_attack_faces_follow_the_leagues_boundaries():
    # the BBL 2023-24 / Hundred mix (16.2-16.7% boundaries, a third of them sixes) is the 8-face
    # table the rule was tuned with; a big-hitting league is held at 8 faces, more sixes
    assert RULE.for_league(0.1134, 0.0485, 1).attack_faces()[2:4] == [("3-8", "four"), ("9-10", "six")]
    assert RULE.for_league(*BBL, 1).attack_faces()[2:4] == [("3-7", "four"), ("8-10", "six")]
    assert RULE.for_league(*IPL, 1).attack_faces()[2:4] == [("3-7", "four"), ("8-10", "six")]
    # 11.6% boundaries: 8 x 0.116 / 0.165 = 5.6, six faces; 0.8% sixes are no six face
    womens = RULE.for_league(*WOMENS_SMASH, 1)
    assert womens.attack_faces() == [("1", "bowled"), ("2", "caught"), ("3-8", "four"), ("9-20", "dot")]
    # the calibration's outcome matrix is the same d20: a dot becomes a six on no face
    t = womens.outcome_matrix(wih.ATTACK, OUTCOMES)
    dot = OUTCOMES.index("0")
    assert t[dot, OUTCOMES.index("6")] == 0 and t[dot, OUTCOMES.index("4")] == pytest.approx(6 / 20)
    assert t[dot, dot] == pytest.approx(12 / 20)
    assert RULE.for_league(0, 0, 0) == RULE   # no balls (a damaged table): the standard faces


def test_a_card_sets_rule_is_read_back_with_its_own_faces():
    """The card set records the rule's faces; every reader (engines, sheets, validation) gets them
    back, a set written before the faces followed the league reads as the standard table, and a
    damaged description is a named error, not a traceback."""
    from cardgen.errors import CardgenError
    womens = RULE.for_league(*WOMENS_SMASH, 1)
    described = womens.describe()
    assert "six" not in described["attack_d20"] and described["attack_d20"]["four"] == [3, 8]
    card_set = {"rule": wih.RULE_NAME, "rule_parameters": described}
    assert wih.rule_of_set(card_set) == womens
    assert wih.rule_of_set({"rule": wih.RULE_NAME, "rule_parameters": RULE.describe()}) == RULE
    assert wih.rule_of_set({"rule": wih.RULE_NAME}) == RULE
    assert wih.rule_of_set({"rule": "classic", "rule_parameters": described}) is None
    for damaged in ({"attack_d20": {}}, {**described, "attack_d20": "x"},
                    {**described, "attack_d20": {"bowled": [1, 1], "four": [3, 8]}},   # a gap
                    {**described, "attack_d20": {**described["attack_d20"], "four": [3, 21]}},
                    {**described, "attack_d20": {**described["attack_d20"], "wide": [9, 9]}}):
        with pytest.raises(CardgenError, match="rule_parameters are damaged"):
            wih.rule_of_set({"rule": wih.RULE_NAME, "rule_parameters": damaged})


def test_attack_over_without_a_six_face():
    """The women's Super Smash faces played by hand: a dot's d20 of 8 is a four, 9 and 10 (sixes
    in the standard table) stay dots."""
    womens = RULE.for_league(*WOMENS_SMASH, 1)
    rolls = (QUIET_DOT * 71                    # 71 dots bowled: 49 left, attack
             + STRIKER_SAYS["0"] + [8]         # dot ... d20 8: four
             + BOWLER_SAYS["0"] + [9]          # dot ... d20 9: still a dot (no six face)
             + BOWLER_SAYS["0"] + [10])        # dot ... d20 10: still a dot
    inn, rng = scripted(rolls, max_balls=74, rule=womens)
    assert [b.bat_runs for b in inn.balls[71:]] == [4, 0, 0] and inn.runs == 4 and not rng.rolls
    from cardgen.sim import fast
    assert fast._attack_table(womens).tolist()[9:11] == [fast._attack_table(womens)[20]] * 2


def test_sheets_print_the_sets_own_faces():
    """The quick reference and the scoresheet word the attack die from the set's own rule."""
    from cardgen.render.sample import rules_example_card_set
    from cardgen.render.teamsheets import quick_reference_text
    card_set = {**rules_example_card_set(), "rule": wih.RULE_NAME,
                "rule_parameters": RULE.for_league(*WOMENS_SMASH, 1).describe()}
    text = quick_reference_text(as_model(card_set))
    assert "1 bowled, 2 caught, 3-8 four, 9-20 dot" in text and "six" not in text.split("Attack")[1].split(".")[0]


@pytest.mark.needs_data
def test_league_rule_from_the_real_season(bbl_stats):
    """The kit's rule is drawn from the season's own fours and sixes (BBL 2024-25: 1,077 fours and
    509 sixes off 9,491 balls faced: 16.7%, 8 faces, 2.6 of them six)."""
    from cardgen.calibrate.calibrate import league_rule
    rule = league_rule(bbl_stats)
    assert rule.attack_faces()[2:4] == [("3-7", "four"), ("8-10", "six")]
    assert (rule.attack_below, rule.consolidate_from, rule.consolidate_safe) == (
        RULE.attack_below, RULE.consolidate_from, RULE.consolidate_safe)


def chase(rolls: list[int], target: int, max_balls: int | None = None):
    cs, bat, bowl = setup()
    rng = ScriptedRng(rolls)
    inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=RULE, target=target,
                       max_balls=max_balls)
    return inn, rng


def test_chase_behind_the_rate_attacks():
    """Chasing 242 (more than 2 x 120 balls left): attack from the first ball, though 0 down
    with 120 left is consolidate in the table; a catch then stands (no d20)."""
    rolls = (BOWLER_SAYS["0"] + [11]           # dot ... d20 11: still a dot (242 > 240)
             + STRIKER_SAYS["W"] + [3])        # 242 off 119: attack; caught by 3, no d20 on it
    inn, rng = chase(rolls, target=242, max_balls=2)
    assert [b.band for b in inn.balls] == ["attack", "attack"]
    assert inn.balls[0].bat_runs == 0 and inn.balls[0].how_out == ""
    assert inn.balls[1].how_out == "caught" and inn.wickets == 1 and not rng.rolls
    # exactly 2 a ball is not behind the rate: 240 needed off 120 reads the table (consolidate)
    inn, rng = chase(STRIKER_SAYS["W"] + [0, 12], target=240, max_balls=1)
    assert inn.balls[0].band == "consolidate" and inn.wickets == 0 and not rng.rolls


def test_chase_band_moves_with_the_runs_needed():
    """Target 230, 0 down: a single, then dots push the rate up until 229 needed is more than
    2 x 114 balls left (attack); a four off the attacking dot brings it back to the table's band."""
    rolls = (STRIKER_SAYS["1"] + QUIET_DOT * 5  # 229 needed off 119 .. 115: the table (consolidate)
             + STRIKER_SAYS["0"] + [4]          # 229 off 114: attack; dot ... d20 4: four
             + BOWLER_SAYS["4"])                # 225 off 113: 2 a ball or less, consolidate again
    inn, rng = chase(rolls, target=230, max_balls=8)
    assert [b.band for b in inn.balls] == ["consolidate"] * 6 + ["attack", "consolidate"]
    assert inn.balls[6].bat_runs == 4 and inn.runs == 9 and not rng.rolls
    assert RULE.band(0, 113, 120, runs_needed=227) == wih.ATTACK
    assert RULE.band(0, 113, 120, runs_needed=226) == wih.CONSOLIDATE
    assert RULE.band(9, 30, 120, runs_needed=61) == wih.ATTACK      # the table would consolidate
    assert RULE.band(9, 30, 120) == wih.CONSOLIDATE
