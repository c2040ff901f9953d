"""The reference engine's dice, written down: every roll of a replay, ball by ball.

`RecordingDice` is the reference engine's `Dice` (`cardgen.sim.reference`) with each draw kept,
grouped by delivery, in the engine's own order, so a page can show a real replay's over die by
die ("d6 = 5, 2d10 = 63, ...") and the filled scoresheet can be made from the same balls. It
wraps the engine from outside: the dice come from the same generator in the same order as an
unrecorded game, so recording changes no ball. The kinds are the match file's
(`cardgen.play.matchfile`: "d6", "2d10", "d20", "pick").
"""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.sim.reference import Ball, Dice, Innings, IntegerSource


@dataclass(frozen=True)
class Roll:
    """One die: its kind, the face (a pick: the card drawn, 0-based) and the deck's size (a pick)."""
    die: str
    value: int
    deck: int = 0


class RecordingDice(Dice):
    """Dice that keep every roll: `deliveries[k]` holds the k-th delivery's rolls, in order."""

    def __init__(self, rng: IntegerSource) -> None:
        super().__init__(rng)
        self.deliveries: list[list[Roll]] = []

    def begin_delivery(self) -> None:
        self.deliveries.append([])

    def _keep(self, roll: Roll) -> int:
        if not self.deliveries:   # a draw before the first delivery (a plan's shuffle)
            return roll.value
        self.deliveries[-1].append(roll)
        return roll.value

    def d6(self) -> int:
        return self._keep(Roll("d6", super().d6()))

    def d20(self) -> int:
        return self._keep(Roll("d20", super().d20()))

    def percentile(self) -> int:
        return self._keep(Roll("2d10", super().percentile()))

    def pick(self, n: int) -> int:
        return self._keep(Roll("pick", super().pick(n), n))


@dataclass(frozen=True)
class RecordedBall:
    ball: Ball
    rolls: tuple[Roll, ...]
    runs: int       # the innings' score after this ball
    wickets: int


def recorded_balls(innings: list[Innings], dice: RecordingDice) -> list[list[RecordedBall]]:
    """Each innings' balls with their rolls and the score after each (the innings in the order
    they were played with `dice`, which rolled for them and nothing else)."""
    out: list[list[RecordedBall]] = []
    k = 0
    for inn in innings:
        runs = wickets = 0
        balls = []
        for ball in inn.balls:
            runs += ball.bat_runs + ball.extras
            wickets += ball.out_slot is not None
            balls.append(RecordedBall(ball, tuple(dice.deliveries[k]), runs, wickets))
            k += 1
        out.append(balls)
    if k != len(dice.deliveries):
        raise ValueError(f"{len(dice.deliveries)} deliveries were rolled for {k} balls")
    return out
