"""RecordingDice: the reference engine's dice written down, ball by ball, changing no ball."""
from __future__ import annotations

import numpy as np

from cardgen.sim.example import example_card_set
from cardgen.sim.model import Side, compile_card_set
from cardgen.sim.recorded import RecordingDice, recorded_balls
from cardgen.sim.reference import Dice, play_innings
from conftest import as_model


class Scripted:
    """An IntegerSource that plays back a list of numbers (and says if asked for another range)."""

    def __init__(self, values: list[tuple[int, int, int]]) -> None:
        self.values = list(values)

    def integers(self, low: int, high: int) -> int:
        want_low, want_high, value = self.values.pop(0)
        assert (want_low, want_high) == (low, high)
        return value


class Logged:
    """A generator's draws, each with its range (what the dice asked for)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.log: list[tuple[int, int, int]] = []

    def integers(self, low: int, high: int) -> int:
        value = int(self.rng.integers(low, high))
        self.log.append((low, high, value))
        return value


RANGES = {"d6": (1, 7), "2d10": (1, 101), "d20": (1, 21)}


def _sides(cs):
    teams = list(cs.teams)
    sides = []
    for team in teams:
        players = [cs.player_of[(pid, team)] for pid in cs.teams[team].batting_order]
        batters = [cs.striker_card_of[(pid, team)] for pid in cs.teams[team].batting_order]
        bowlers = [cs.bowler_card_of[(pid, team)] for pid in cs.teams[team].batting_order[6:]]
        plan = [bowlers[u % len(bowlers)] for u in range(cs.fmt.units)]
        sides.append(Side(team, players, batters, 2, [plan], bowlers[0]))
    return sides


def test_recording_changes_no_ball_and_keeps_every_die_in_order():
    # random cards (every result on the chart, chances and run-outs included), 20 seeds
    for seed in range(20):
        cs = compile_card_set(as_model(example_card_set(rng=np.random.default_rng(seed))))
        bat, bowl = _sides(cs)
        plain = play_innings(cs, bat, bowl, Dice(np.random.default_rng(seed)), plan=bowl.plans[0])
        logged = Logged(seed)
        dice = RecordingDice(logged)
        kept = play_innings(cs, bat, bowl, dice, plan=bowl.plans[0])
        assert kept.balls == plain.balls
        (balls,) = recorded_balls([kept], dice)
        # the rolls, joined, are every draw the engine made, in its order and ranges
        flat = [roll for rb in balls for roll in rb.rolls]
        assert len(flat) == len(logged.log)
        for roll, (low, high, value) in zip(flat, logged.log):
            if roll.die == "pick":
                assert (low, high, roll.value) == (0, roll.deck, value)
            else:
                assert (RANGES[roll.die], roll.value) == ((low, high), value)
        # every ball starts with the card's d6 and the 2d10; the score after each adds up
        assert all([r.die for r in rb.rolls[:2]] == ["d6", "2d10"] for rb in balls)
        assert (balls[-1].runs, balls[-1].wickets) == (kept.runs, kept.wickets)


def test_the_recorded_dice_played_back_give_the_same_innings():
    cs = compile_card_set(as_model(example_card_set(rng=np.random.default_rng(7))))
    bat, bowl = _sides(cs)
    dice = RecordingDice(np.random.default_rng(7))
    first = play_innings(cs, bat, bowl, dice, plan=bowl.plans[0])
    script = [(0, r.deck, r.value) if r.die == "pick" else (*RANGES[r.die], r.value)
              for rb in recorded_balls([first], dice)[0] for r in rb.rolls]
    again = play_innings(cs, bat, bowl, Dice(Scripted(script)), plan=bowl.plans[0])
    assert again.balls == first.balls
