"""What the calibration's passes (calibrate, situations, defence) share: the league's mean card,
weighted by the balls behind each, and the real dismissals the game plays.

A module of its own so the passes import it, not each other (calibrate imports situations and
defence, which need these too)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:   # calibrate imports this module
    from cardgen.calibrate.calibrate import CardFit
    from cardgen.calibrate.expect import LeagueModel

GAME_DISMISSAL_KINDS = ("bowled", "hit wicket", "caught", "caught and bowled", "lbw", "run out",
                        "stumped")


class HasBalls(Protocol):
    balls: int


class FittedCards(Protocol):
    """What the rule's passes, the Defence choice and the repair read of a calibration (a
    `calibrate.Calibration`, or a baseline's guests): the solved cards and the model they are
    solved against (which the passes replace)."""
    strikers: list[CardFit]
    bowlers: list[CardFit]
    model: LeagueModel


def game_dismissals(kinds: dict) -> int:
    """Real dismissals of the kinds the game plays (not retired, obstructing the field, ...)."""
    return sum(kinds.get(k, 0) for k in GAME_DISMISSAL_KINDS)


def ball_weighted_mean(fits: Sequence[HasBalls], cards: Sequence[np.ndarray]) -> np.ndarray:
    """The mean of `cards`, each weighted by its fit's real balls (equal weights if none)."""
    w = np.array([max(f.balls, 0) for f in fits], float)
    m = np.array(cards, float)
    return (w @ m) / w.sum() if w.sum() > 0 else m.mean(axis=0)
