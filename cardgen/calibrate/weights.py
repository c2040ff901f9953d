"""What the calibration's passes (calibrate, situations, defence) share: the league's mean card,
weighted by the balls behind each, and the real dismissals the game plays.

A module of its own so the passes import it, not each other (calibrate imports situations and
defence, which need these too)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

GAME_DISMISSAL_KINDS = ("bowled", "hit wicket", "caught", "caught and bowled", "lbw", "run out",
                        "stumped")


class HasBalls(Protocol):
    balls: int


def game_dismissals(kinds: dict) -> int:
    """Real dismissals of the kinds the game plays (not retired, obstructing the field, ...)."""
    return sum(kinds.get(k, 0) for k in GAME_DISMISSAL_KINDS)


def ball_weighted_mean(fits: Sequence[HasBalls], cards: Sequence[np.ndarray]) -> np.ndarray:
    """The mean of `cards`, each weighted by its fit's real balls (equal weights if none)."""
    w = np.array([max(f.balls, 0) for f in fits], float)
    m = np.array(cards, float)
    return (w @ m) / w.sum() if w.sum() > 0 else m.mean(axis=0)
