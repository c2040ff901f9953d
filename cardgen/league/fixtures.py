"""A league's fixture list: a round robin, each pair of sides meeting `rounds` times.

The circle method: one side stays, the others turn one place a round, so every side plays
once a round (a side sits out a round when there is an odd number). Who bats first (the
first named) alternates between one meeting of a pair and the next, and in one round robin
each side bats first in half its matches, or one more or less.
"""
from __future__ import annotations


def round_robin(teams: list[str], rounds: int = 2) -> list[tuple[str, str]]:
    """(bats first, bats second) for every match, round by round, in playing order."""
    names = list(teams)
    if len(names) < 2:
        return []
    if len(names) % 2:
        names.append("")          # a bye
    n = len(names)
    fixed, turning = names[0], names[1:]
    single: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        order = [fixed] + turning
        games = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if (r + i) % 2:
                a, b = b, a
            if a and b:
                games.append((a, b))
        single.append(games)
        turning = turning[-1:] + turning[:-1]
    _balance_first(single)
    out: list[tuple[str, str]] = []
    for k in range(rounds):
        for games in single:
            out.extend(games if k % 2 == 0 else [(b, a) for a, b in games])
    return out


def _balance_first(rounds: list[list[tuple[str, str]]]) -> None:
    """Swap who bats first in a game where the first named bats first two or more times more
    often than the other, until none is left (each swap narrows the gap: it ends)."""
    first: dict[str, int] = {}
    for games in rounds:
        for a, b in games:
            first[a] = first.get(a, 0) + 1
            first.setdefault(b, 0)
    changed = True
    while changed:
        changed = False
        for games in rounds:
            for i, (a, b) in enumerate(games):
                if first[a] - first[b] >= 2:
                    games[i] = (b, a)
                    first[a] -= 1
                    first[b] += 1
                    changed = True
