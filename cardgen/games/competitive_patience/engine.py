"""Cricket Competitive Patience: the 3x3 grid game and its British, Derek Hill, South African and
New Zealand variants, played with a standard 52-card pack.

A card is 0..51: rank = card // 4 + 1 (ace 1 .. king 13), suit = card % 4; its value is the rank
with pictures counting 10. Packs come from a `Packs` source (one numpy Generator, or scripted
packs in tests). Rule readings are listed in docs/games.md.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from cardgen.errors import CardgenError

RANK = [c // 4 + 1 for c in range(52)]
SUIT = [c % 4 for c in range(52)]
VALUE = [min(r, 10) for r in RANK]
JACK, QUEEN, KING = 11, 12, 13
LINES: tuple[tuple[int, int, int], ...] = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7),
                                           (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = [tuple(line for line in LINES if cell in line) for cell in range(9)]
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def card_name(card: int) -> str:
    return f"{RANK_NAMES.get(RANK[card], str(RANK[card]))}{'CDHS'[SUIT[card]]}"


def card_of(name: str) -> int:
    """'QH' -> the queen of hearts (tests write packs this way)."""
    rank_text, suit = name[:-1].upper(), name[-1].upper()
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_text) or int(rank_text)
    return (rank - 1) * 4 + "CDHS".index(suit)


class UnknownVariant(CardgenError):
    """A Competitive Patience variant that is not one of VARIANTS."""


@dataclass(frozen=True)
class Variant:
    name: str
    label: str
    batting_first: bool            # the batting player takes the first turn of an innings
    cards_per_wicket: int          # cards the bowling player must play for each wicket
    triple_coverable: bool         # three of a rank in a line may be covered
    jqk_anywhere_coverable: bool   # a jack, queen and king anywhere may be covered
    jqk_line_coverable: bool       # ... only when in a straight line
    covering_compulsory: bool      # South Africa: every coverable set must be covered
    lower_card_first: bool         # New Zealand: a pair is covered lower value first
    bowler_covers: bool            # Derek Hill: the bowler would rather fill the grid


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("british", "British (the POW camp game)", False, 21, True, True, False, False, False, True),
    Variant("derek-hill", "Derek Hill's version", True, 21, True, True, False, False, False, False),
    Variant("south-african", "South African", False, 11, False, False, True, True, False, True),
    Variant("new-zealand", "New Zealand", False, 20, True, True, False, False, True, True),
)}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().casefold()]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r}; choose one of: {', '.join(VARIANTS)}") from None


class Packs(Protocol):
    def new_pack(self) -> Sequence[int]: ...


class RngPacks:
    """Shuffled packs from one numpy Generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def new_pack(self) -> Sequence[int]:
        return self.rng.permutation(52).tolist()


class PacksExhausted(CardgenError):
    """A scripted run of packs ran out."""


class ScriptedPacks:
    """Packs in a given order (rules tests); each may be shorter than 52 to force a new pack."""

    def __init__(self, packs: Sequence[Sequence[int]]) -> None:
        self.packs = [list(p) for p in packs]
        self.used = 0

    def new_pack(self) -> Sequence[int]:
        if self.used >= len(self.packs):
            raise PacksExhausted(f"scripted packs exhausted after {self.used}")
        self.used += 1
        return self.packs[self.used - 1]


@dataclass
class Turn:
    role: str                  # "bowling" or "batting"
    cards: int = 0             # cards played from the pack in this turn
    runs: int = 0              # runs this turn gave the batting side (incl. extras and bonuses)
    wickets: int = 0
    fours: int = 0             # JQK not all one suit in a batting turn (British): 4 runs for 3 cards
    sixes: int = 0             # JQK of one suit in a batting turn: 6 runs for 3 cards
    events: list[str] = field(default_factory=list)   # "<cards played so far>: what happened"
    new_packs: int = 0

    def note(self, text: str) -> None:
        self.events.append(f"{self.cards}: {text}")


@dataclass
class Innings:
    runs: int = 0
    wickets: int = 0
    cards: int = 0
    fours: int = 0
    sixes: int = 0
    extras: int = 0
    batsmen: list[int] = field(default_factory=lambda: [0])   # runs of each batsman in
    turns: list[Turn] = field(default_factory=list)


class Table:
    """The pack in use and the grid of the current turn."""

    def __init__(self, packs: Packs) -> None:
        self.packs = packs
        self.stack: list[int] = list(packs.new_pack())[::-1]   # top card last: pop() is O(1)
        self.grid: list[int] = [-1] * 9
        self.turn: Turn | None = None

    def start_turn(self, turn: Turn) -> None:
        self.turn = turn
        self.grid = [-1] * 9

    def draw(self) -> int | None:
        """The top card, or None when the pack ran out: all 52 are gathered, shuffled and cut,
        and the same player goes on with a new grid."""
        if not self.stack:
            self.stack = list(self.packs.new_pack())[::-1]
            self.grid = [-1] * 9
            assert self.turn is not None
            self.turn.new_packs += 1
            return None
        return self.stack.pop()


def _pairs(grid: list[int]) -> list[tuple[int, int]]:
    by_value: dict[int, list[int]] = {}
    for cell, card in enumerate(grid):
        if card >= 0:
            by_value.setdefault(VALUE[card], []).append(cell)
    found = []
    for value, cells in by_value.items():
        if value < 6:
            for other in by_value.get(11 - value, ()):
                for cell in cells:
                    found.append(tuple(sorted((cell, other))))
    return sorted(found)  # type: ignore[arg-type]


def _ranks(grid: list[int]) -> list[int]:
    """Ranks by cell; an empty cell gets its own negative number, so it never makes a set."""
    return [RANK[c] if c >= 0 else -1 - i for i, c in enumerate(grid)]


def _triple_lines(grid: list[int]) -> list[tuple[int, int, int]]:
    r = _ranks(grid)
    return [(a, b, c) for a, b, c in LINES if r[a] == r[b] == r[c]]


def _is_sequence(ranks: list[int]) -> bool:
    r = sorted(ranks)
    if r[0] + 1 == r[1] and r[1] + 1 == r[2]:
        return True
    return r == [1, 12, 13]   # Q-K-A: the ace counts high too


def _jqk_anywhere(grid: list[int]) -> tuple[int, int, int] | None:
    cells: dict[int, int] = {}
    for cell, card in enumerate(grid):
        if card >= 0 and RANK[card] >= JACK:
            cells.setdefault(RANK[card], cell)
    if len(cells) == 3:
        return tuple(sorted(cells.values()))  # type: ignore[return-value]
    return None


def _jqk_same_suit(grid: list[int]) -> bool:
    showing = {(RANK[c], SUIT[c]) for c in grid if c >= 0}
    return any(all((r, s) in showing for r in (JACK, QUEEN, KING)) for s in range(4))


def _jqk_lines(grid: list[int]) -> list[tuple[int, int, int]]:
    r = _ranks(grid)
    return [(a, b, c) for a, b, c in LINES if r[a] + r[b] + r[c] == JACK + QUEEN + KING
            and r[a] != r[b] != r[c] != r[a] and min(r[a], r[b], r[c]) >= JACK]


class Game:
    """Plays innings of one variant; every rule decision is in this class."""

    def __init__(self, variant: Variant | str = "british", max_wickets: int = 10,
                 max_batting_turns: int | None = None) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.max_wickets = max_wickets
        self.max_batting_turns = max_batting_turns

    # --- scoring --------------------------------------------------------------------------------
    def _wicket(self, inn: Innings, turn: Turn, n: int = 1, why: str = "") -> None:
        n = min(n, self.max_wickets - inn.wickets)
        for _ in range(n):
            inn.wickets += 1
            turn.wickets += 1
            turn.note(f"wicket{': ' + why if why else ''}")
            if inn.wickets < self.max_wickets:
                inn.batsmen.append(0)

    def _runs(self, inn: Innings, turn: Turn, runs: int, extras: bool = False) -> None:
        inn.runs += runs
        turn.runs += runs
        if extras:
            inn.extras += runs
        else:
            inn.batsmen[-1] += runs

    def _after_placing(self, inn: Innings, turn: Turn, grid: list[int], cell: int) -> None:
        """Effects of a card appearing (sets that the new card completes)."""
        v = self.variant
        card = grid[cell]
        batting = turn.role == "batting"
        r = _ranks(grid)
        through = [line for line in LINES_THROUGH[cell] if min(r[c] for c in line) > 0]
        triple = any(r[a] == r[b] == r[c] for a, b, c in through)
        if v.name == "british":
            if triple:
                if batting:
                    self._wicket(inn, turn, why="run out (three of a kind in a line)")
                else:
                    self._runs(inn, turn, 4, extras=True)
                    turn.note("4 byes (three of a kind in a line)")
            if RANK[card] >= JACK and _jqk_anywhere(grid):
                if batting:
                    same = _jqk_same_suit(grid)
                    self._runs(inn, turn, 3 if same else 1)
                    turn.sixes += same
                    turn.fours += not same
                    turn.note("J-Q-K of one suit: 3 extra" if same else "J-Q-K: 1 extra")
                else:
                    self._runs(inn, turn, 1, extras=True)
                    turn.note("wide (J-Q-K)")
        elif v.name == "derek-hill":
            sequence = any(_is_sequence([r[c] for c in line]) for line in through)
            if triple or sequence:
                self._wicket(inn, turn, why="three of a kind in a line" if triple else "run of three in a line")
        elif v.name == "south-african" and RANK[card] >= JACK and any(
                sorted(r[c] for c in line) == [JACK, QUEEN, KING] for line in through):
            if batting:
                self._runs(inn, turn, 50)
                turn.note("K-Q-J in a line: half century")
            else:
                self._wicket(inn, turn, 5, why="K-Q-J in a line")

    def _on_cover(self, inn: Innings, turn: Turn, kind: str) -> None:
        if self.variant.name == "new-zealand" and kind == "triple":
            if turn.role == "batting":
                self._runs(inn, turn, 60)
                turn.note("covered three of a kind: 60 runs")
            else:
                self._wicket(inn, turn, 3, why="hat trick (covered three of a kind)")

    def _card_played(self, inn: Innings, turn: Turn) -> None:
        turn.cards += 1
        inn.cards += 1
        if turn.role == "batting":
            self._runs(inn, turn, 1)
        elif turn.cards % self.variant.cards_per_wicket == 0:
            self._wicket(inn, turn, why=f"{turn.cards} cards")

    # --- covering ---------------------------------------------------------------------------------
    def coverable(self, grid: list[int]) -> list[tuple[str, tuple[int, ...]]]:
        v = self.variant
        sets: list[tuple[str, tuple[int, ...]]] = [("pair", p) for p in _pairs(grid)]
        if v.triple_coverable:
            sets += [("triple", t) for t in _triple_lines(grid)]
        if v.jqk_anywhere_coverable:
            jqk = _jqk_anywhere(grid)
            if jqk:
                sets.append(("jqk", jqk))
        if v.jqk_line_coverable:
            sets += [("jqk", t) for t in _jqk_lines(grid)]
        return sets

    def wants_to_cover(self, role: str) -> bool:
        """Covering means more cards: more runs for the batter, more wickets for the bowler.
        Only Derek Hill's bowler would rather fill the grid (a full grid ends the turn sooner,
        but every triple or run that shows is a wicket to him: he deals and hopes)."""
        return role == "batting" or self.variant.bowler_covers or self.variant.covering_compulsory

    def _cover_order(self, grid: list[int], kind: str, cells: tuple[int, ...]) -> tuple[int, ...]:
        if kind == "pair" and self.variant.lower_card_first:
            return tuple(sorted(cells, key=lambda c: (VALUE[grid[c]], c)))
        return cells

    # --- play ---------------------------------------------------------------------------------------
    def play_turn(self, table: Table, inn: Innings, role: str) -> Turn:
        turn = Turn(role)
        table.start_turn(turn)
        inn.turns.append(turn)
        cover = self.wants_to_cover(role)
        while inn.wickets < self.max_wickets:
            sets = self.coverable(table.grid) if cover else []
            if sets:
                kind, cells = sets[0]
                for cell in self._cover_order(table.grid, kind, cells):
                    card = table.draw()
                    if card is None:        # pack ran out: new pack, new grid
                        break
                    table.grid[cell] = card
                    self._card_played(inn, turn)
                    if inn.wickets >= self.max_wickets:
                        return turn
                    self._after_placing(inn, turn, table.grid, cell)
                    if inn.wickets >= self.max_wickets:
                        return turn
                else:
                    self._on_cover(inn, turn, kind)
                continue
            if -1 not in table.grid:
                return turn                 # full, nothing to cover: the turn is over
            cell = table.grid.index(-1)
            card = table.draw()
            if card is None:
                continue
            table.grid[cell] = card
            self._card_played(inn, turn)
            if inn.wickets < self.max_wickets:
                self._after_placing(inn, turn, table.grid, cell)
        return turn

    def play_innings(self, packs: Packs) -> Innings:
        inn = Innings()
        table = Table(packs)
        role = "batting" if self.variant.batting_first else "bowling"
        batting_turns = 0
        while inn.wickets < self.max_wickets:
            if role == "batting":
                if self.max_batting_turns is not None and batting_turns >= self.max_batting_turns:
                    break
                batting_turns += 1
            self.play_turn(table, inn, role)
            role = "bowling" if role == "batting" else "batting"
        inn.fours = sum(t.fours for t in inn.turns)
        inn.sixes = sum(t.sixes for t in inn.turns)
        return inn
