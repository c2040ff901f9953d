"""A team that used fewer than five bowlers still plays (issue 11 item 7): the XI's next most
likely bowlers step in, each within the rules' cap, on the real WPL 2023 season."""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest

from cardgen.cache import Cache
from cardgen.calibrate.cardset import card_set_from_stats
from cardgen.competitions import get_competition
from cardgen.sim.captain import Captain, check_plan
from cardgen.sim.model import CardSetError, compile_card_set
from cardgen.sim.season import replay_season
from cardgen.stats.load import season_stats
from conftest import as_model

pytestmark = pytest.mark.needs_data


@pytest.fixture(scope="module")
def wpl(mirror, tmp_path_factory):
    comp = get_competition("WPL")
    stats = season_stats(comp, "2023", str(mirror), cache=Cache(tmp_path_factory.mktemp("cache")))
    return stats, card_set_from_stats(stats, comp, "2023")


def _four_bowlers(card_set: dict, team: str) -> dict:
    """The set with only the team's four most-used bowler cards (as if it used four all season)."""
    out = copy.deepcopy(card_set)
    mine = sorted((c for c in out["cards"] if c["team"] == team and c["kind"] == "bowler"),
                  key=lambda c: -c["real"]["balls"])
    dropped = {id(c) for c in mine[4:]}
    out["cards"] = [c for c in out["cards"] if id(c) not in dropped]
    return out


def test_a_four_bowler_team_plays_with_stand_ins(wpl):
    stats, card_set = wpl
    team = "Mumbai Indians"
    cs = compile_card_set(as_model(_four_bowlers(card_set, team)))
    before = len(cs.bowler_lut)
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(7))
    match_id = str(stats.matches[(stats.matches["team1"] == team) | (stats.matches["team2"] == team)]
                   ["match_id"].iloc[0])
    side = captain.match_side(match_id, team)
    assert len(cs.bowler_lut) > before  # stand-in rows were added
    xi = {cs.player_ids[p] for p in side.players}
    for plan in side.plans:
        check_plan(plan, cs.fmt)  # 20 overs, nobody over four, never two in a row
        bowlers = Counter(cs.player_ids[int(cs.bowler_player[row])] for row in plan)
        assert sum(bowlers.values()) == 20 and len(bowlers) >= 5
        stand_ins = [row for row in plan if row >= before]
        assert stand_ins and all(cs.player_ids[int(cs.bowler_player[r])] in xi for r in stand_ins)


def test_simulate_completes_a_season_with_a_four_bowler_team(wpl):
    stats, card_set = wpl
    cs = compile_card_set(as_model(_four_bowlers(card_set, "UP Warriorz")))
    rep = replay_season(cs, stats, 1, np.random.default_rng(3))
    assert len(rep.first_runs) == len(stats.matches)
    assert (rep.first_runs > 0).all()


def test_errors_name_the_team(wpl):
    stats, card_set = wpl
    cs = compile_card_set(as_model(card_set))
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(1))
    with pytest.raises(CardSetError) as info:
        captain.side("Delhi Capitals", ["x"] * 10, None)
    assert "Delhi Capitals" in str(info.value)
