"""Where an engine's randomness comes from: one numpy Generator, or a script (for rules tests).

Both cricket engines in cardgen/games (Roll & Play, Cricket: The Game) ask for dice and shuffles
through this small interface, so a rules test can say exactly which faces come up.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

import numpy as np

from cardgen.errors import CardgenError

T = TypeVar("T")
_BLOCK = 4096  # uniforms drawn from the Generator at a time (scalar calls are ~20x slower)


class ScriptExhausted(CardgenError):
    """A scripted rules test asked for more dice than it scripted."""


class Draws(Protocol):
    def die(self, sides: int) -> int:
        """A roll of a fair die with `sides` faces: 1..sides."""
        ...

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The items in a random order (a new list)."""
        ...


class RandomDraws:
    """Dice from one numpy Generator, read in blocks; same seed, same rolls."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._buffer: list[float] = []
        self._next = 0

    def die(self, sides: int) -> int:
        if self._next >= len(self._buffer):
            self._buffer = self.rng.random(_BLOCK).tolist()
            self._next = 0
        u = self._buffer[self._next]
        self._next += 1
        return int(u * sides) + 1

    def shuffled(self, items: Sequence[T]) -> list[T]:
        order = self.rng.permutation(len(items))
        return [items[i] for i in order]


class ScriptedDraws:
    """Dice faces given in advance; shuffles keep the order given (tests build decks in order)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = deque(faces)
        self.asked: list[int] = []  # sides of every die asked for, for tests that check the flow

    def die(self, sides: int) -> int:
        if not self.faces:
            raise ScriptExhausted(f"script ran out of dice (asked for a d{sides})")
        face = self.faces.popleft()
        if not 1 <= face <= sides:
            raise CardgenError(f"scripted face {face} is not on a d{sides}")
        self.asked.append(sides)
        return face

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return list(items)
