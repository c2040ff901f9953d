"""The fast engine's dice for one step of its live innings, drawn in the one order every path
draws them: the numpy path (`fast`) calls `draw_dice`, the compiled path (`fast_compiled`)
runs this same function under numba, whose Generator draws numpy's numbers, so all paths play
the same matches from the same seed. A module of its own so both import it, not each other."""
from __future__ import annotations

import numpy as np

NO_DICE = np.zeros(0, np.int64)   # the rule's d20 when there is no rule


def draw_dice(rng: np.random.Generator, n: int, with_rule: bool, no_dice: np.ndarray) -> tuple[np.ndarray, ...]:
    """One step's dice for `n` live innings: card d6, 2d10, chart d6, chart d20, fielder, chance
    d20 (and the rule's d20)."""
    return (rng.integers(0, 6, n), rng.integers(0, 100, n), rng.integers(0, 6, n),
            rng.integers(0, 20, n), rng.random(n), rng.integers(1, 21, n),
            rng.integers(1, 21, n) if with_rule else no_dice)
