"""Points (sim.points): the exact innings expectation against the vectorised engine, and what
the points of a card and of a side mean."""
from __future__ import annotations

import numpy as np
import pytest

from cardgen.calibrate import cardset
from cardgen.calibrate.model import CARD_RESULTS, card_defence, chart_to_slots
from cardgen.competitions import get_competition
from cardgen.sim import fast
from cardgen.sim.captain import Captain
from cardgen.sim.model import CARD_CODES, compile_card_set
from cardgen.sim.points import (T20, HUNDRED, average_side, batting_points, bowling_points,
                                fielding_points, innings_runs, side_skill)
from cardgen.sim.reference import keeper_rating_of
from cardgen.stats.load import season_stats
from cardgen.wickets_in_hand import rule_of_set
from conftest import as_model

INNINGS = 20_000   # the engine's mean total to about 0.2 runs (a T20 total's SD is ~30)


def _slots(lut_row: np.ndarray) -> np.ndarray:
    """A compiled card's 100 result codes back as slot counts in CARD_RESULTS order."""
    return np.array([int((lut_row == CARD_CODES[r]).sum()) for r in CARD_RESULTS], float)


@pytest.mark.slow   # 20,000 innings of the engine for each of four sets
@pytest.mark.parametrize("code, season, classic", [("BBL", "2024-25", True), ("BBL", "2024-25", False),
                                                   ("HUNDRED", "2024", True), ("HUNDRED", "2024", False)],
                         ids=["t20-quicket", "t20-advanced", "hundred-quicket", "hundred-advanced"])
def test_the_exact_innings_is_the_engine_s_mean(code: str, season: str, classic: bool) -> None:
    """Two real sides, one fixed bowling plan: the dynamic programme's expected total (wides and
    no-balls, free hits, run-outs at either end, ends and, under the advanced rules, the bands
    and Defence) against 20,000 innings of the fast engine played in full. Within 4 standard
    errors of the engine's mean (about 0.9 runs): a rule left out of the DP moves it by more."""
    comp = get_competition(code)
    card_set = cardset.build_card_set(comp, season, reuse=True, rules="quicket" if classic else "advanced")
    stats = season_stats(comp, season)
    cs = compile_card_set(as_model(card_set))
    rng = np.random.default_rng(7)
    captain = Captain(cs, stats.lineups, stats.bowling, rng, plans_per_side=1)
    teams = sorted(t["name"] for t in card_set["teams"])
    batting, bowling = captain.usual_side(teams[0]), captain.usual_side(teams[1])
    table = fast.SideTable.build(cs, [batting, bowling])
    lanes = table.lanes(np.zeros(INNINGS, int), np.ones(INNINGS, int), np.zeros(INNINGS, int),
                        np.full(INNINGS, fast.BIG))
    rule = rule_of_set(card_set)
    runs = fast.play_innings_batch(cs, lanes, rng, rule=rule).runs.astype(float)
    batters = np.array([_slots(cs.striker_lut[b]) for b in batting.batters])
    defences = np.array([card_defence(cs.striker_cards[b]) / 20 for b in batting.batters])
    over_cards = np.array([_slots(cs.bowler_lut[b]) for b in bowling.plans[0]])
    skill = side_skill([cs.catch[p] for p in bowling.players], [cs.run_out[p] for p in bowling.players],
                       bowling.keeper_slot, keeper_rating_of(cs, bowling))
    from cardgen.calibrate.model import chart_cells
    expected = innings_runs(batters, defences, over_cards, chart_cells(card_set), skill,
                            HUNDRED if comp.format == "100-ball" else T20, rule)
    se = runs.std(ddof=1) / np.sqrt(len(runs))
    assert abs(runs.mean() - expected) <= 4 * se, (runs.mean(), expected, se)


@pytest.fixture(scope="module")
def bbl() -> dict:
    return cardset.build_card_set(get_competition("BBL"), "2024-25", reuse=True, rules="quicket")


def test_the_average_player_is_worth_nothing_and_better_cards_more(bbl: dict) -> None:
    avg = average_side(bbl)
    base = avg.runs()
    assert 150 < base < 185   # BBL 2024-25: first innings 167 real (README)
    # the average batter at each place, the average bowler over four overs, average fielders
    assert batting_points(avg, avg.batters[2:3], avg.defences[2:3], np.array([3]), base)[0] == pytest.approx(0, abs=1e-9)
    assert bowling_points(avg, avg.bowler[None], np.array([4.0]), base)[0] == pytest.approx(0, abs=1e-9)
    mean_c, mean_ro = 20 * avg.skill.catch, 20 * avg.skill.run_out_single
    assert fielding_points(avg, np.array([mean_c]), np.array([mean_ro]), np.array([0]), base)[0] == \
        pytest.approx(0, abs=1e-6)
    # one more six for a dot at No. 3 adds runs; a bowler's extra W saves them; a better catcher too
    better = avg.batters[2].copy()
    better[CARD_RESULTS.index("0")] -= 3
    better[CARD_RESULTS.index("6")] += 3
    assert batting_points(avg, better[None], avg.defences[2:3], np.array([3]), base)[0] > 0.5
    tighter = avg.bowler.copy()
    tighter[CARD_RESULTS.index("4")] -= 3
    tighter[CARD_RESULTS.index("W")] += 3
    four, two = bowling_points(avg, np.array([tighter, tighter]), np.array([4.0, 2.0]), base)
    assert four > two > 0 and four == pytest.approx(2 * two, rel=0.15)   # about his overs' share
    assert fielding_points(avg, np.array([20, 1]), np.array([mean_ro, mean_ro]), np.array([0, 0]), base)[0] > 0
    assert fielding_points(avg, np.array([20, 1]), np.array([mean_ro, mean_ro]), np.array([0, 0]), base)[1] < 0


def test_a_season_s_stars_are_worth_runs_and_its_tail_costs_them(bbl: dict) -> None:
    """On its own season: the striker cards of 120 real balls or more with the highest strike
    rates are worth more at No. 3 than those with the lowest (ranking sense, not a figure)."""
    avg = average_side(bbl)
    base = avg.runs()
    regular = [c for c in bbl["cards"] if c["kind"] == "striker" and c["real"]["balls"] >= 120]
    assert len(regular) >= 20
    regular.sort(key=lambda c: c["real"]["strike_rate"])
    slow, quick = regular[:5], regular[-5:]
    pts = batting_points(avg, np.array([chart_to_slots(c["chart"]) for c in slow + quick], float),
                         np.array([card_defence(c) / 20 for c in slow + quick]), np.full(10, 3), base)
    assert pts[5:].mean() > pts[:5].mean() + 2
