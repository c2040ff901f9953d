"""The random numbers of a page match: one small generator that Python and JavaScript both
implement bit for bit (`static/engine.js`, `SharedRandom`), so a seed shown on the page replays
the same match in `cardgen replay` and in the tests.

xoshiro128** (Blackman and Vigna), 32-bit words, seeded from one 32-bit integer through
splitmix32. Only 32-bit integer operations, which JavaScript does exactly (`Math.imul`, `>>> 0`).
`integers(low, high)` is the reference engine's `IntegerSource` (`cardgen.sim.reference.Dice`
draws every die through it); rejection sampling makes every face exactly equally likely.
"""
from __future__ import annotations

MASK = 0xFFFFFFFF
TWO_32 = 1 << 32
# one match uses two independent streams from its seed: the dice, and the computer captain's
# rounding of the bowling shares (so typing physical dice never shifts the captain's choices)
DICE_STREAM = 0
CAPTAIN_STREAM = 1
MAX_SEED = MASK


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & MASK


def _splitmix32(state: int) -> tuple[int, int]:
    """(next state, output)."""
    state = (state + 0x9E3779B9) & MASK
    z = state
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & MASK
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & MASK
    return state, z ^ (z >> 16)


class SharedRandom:
    """xoshiro128** from a 32-bit seed; `stream` picks one of a seed's independent streams."""

    def __init__(self, seed: int, stream: int = DICE_STREAM) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
        state = (seed ^ ((stream * 0x632BE5AB) & MASK)) & MASK
        words = []
        for _ in range(4):
            state, word = _splitmix32(state)
            words.append(word)
        self.s = words
        self.draws = 0  # 32-bit words drawn so far (a position in the stream)

    def next_u32(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 9) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 11)
        self.s = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def integers(self, low: int, high: int) -> int:
        """A whole number from low to high - 1, each equally likely (numpy's signature)."""
        n = int(high) - int(low)
        if not 1 <= n <= TWO_32:
            raise ValueError(f"empty or too wide range {low}..{high}")
        limit = TWO_32 - TWO_32 % n
        while True:
            x = self.next_u32()
            if x < limit:
                return int(low) + x % n

    def random(self) -> float:
        """A float in [0, 1) (the captain's one uniform draw per bowling plan)."""
        return self.next_u32() / TWO_32
