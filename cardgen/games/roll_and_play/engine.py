"""Roll & Play Cricket played by its laws: one play per over, worth runs or an out.

Each over: both sides roll a die (a tie of 1-3 is an out, 4-6 gives the batter +1 and is rolled
again); the higher roller turns a Pitch card and plays a Player card, the other side answers;
the batter rolls 2d6 (double one is an out, any other double draws a Chance card). The over's
runs are dice + batter card + bowler card + pitch card (+ chance); a total of 0 or less is an
out. Hands of 11 are dealt again every 10 overs. Readings of unclear laws are in
docs/games-roll-and-play.md and are marked `reading:` below.

Cards carry two numbers: `bat` (used when the card is played by the batting side) and `bowl`
(used by the bowling side). In the classic deck they are equal; in the team edition they come
from the player's real batting and bowling.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cardgen.games.base import INNINGS_COLUMNS
from cardgen.games.roll_and_play.draws import Draws, RandomDraws
from cardgen.render.layout import load_layout

MAX_OUTS = 10
PENALTY_OUTS = {1: 2, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4}  # die -> outs (the doctored-bat card)
PENALTY_RUNS = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # die -> runs (the tampering card)


@dataclass(frozen=True)
class PlayerCard:
    bat: int
    bowl: int
    name: str = ""
    team: str = ""


@dataclass(frozen=True)
class ChanceCard:
    title: str
    text: str
    effect: str
    amount: int = 0
    keep: bool = False


@functools.cache
def decks_spec() -> dict[str, Any]:
    return load_layout("games/roll-and-play/decks")


def classic_player_deck() -> list[PlayerCard]:
    spec = decks_spec()["player_deck"]
    return [PlayerCard(v, v) for v in spec["values"] for _ in range(spec["copies"])]


def pitch_deck() -> list[int]:
    spec = decks_spec()["pitch_deck"]
    return [v for v in spec["values"] for _ in range(spec["copies"])]


def chance_deck() -> list[ChanceCard]:
    return [ChanceCard(c["title"], c["text"], c["effect"], c.get("amount", 0), c.get("keep", False))
            for c in decks_spec()["chance_deck"]]


class Pile:
    """A face-down deck that is reshuffled from its discards when it runs out."""

    def __init__(self, cards: list, draws: Draws, shuffle: bool = True) -> None:
        self.all = list(cards)
        self.draws = draws
        self.cards = draws.shuffled(self.all) if shuffle else list(self.all)

    def draw(self):  # type: ignore[no-untyped-def]
        if not self.cards:
            self.cards = self.draws.shuffled(self.all)
        return self.cards.pop(0)

    def reshuffle(self) -> None:
        self.cards = self.draws.shuffled(self.all)


@dataclass
class Side:
    hand: list[PlayerCard]
    kept: list[ChanceCard] = field(default_factory=list)
    starting: list[ChanceCard] = field(default_factory=list)  # the variation's chance cards in hand


BATTER_HELPS = ("runs", "six", "runs_die", "penalty_runs", "reroll")
BOWLER_HELPS = ("outs", "penalty_outs", "runs", "runs_die")


def helps_batter(card: ChanceCard) -> bool:
    return card.effect in BATTER_HELPS and card.amount >= 0


def helps_bowler(card: ChanceCard) -> bool:
    return card.effect in BOWLER_HELPS and (card.effect in ("outs", "penalty_outs") or card.amount < 0)


def variation_cards(overs: int) -> int:
    """Chance cards each side starts with in the variation: 3 for 20 overs, 5 for 50."""
    return 3 if overs <= 20 else 5


@dataclass
class OverLog:
    """What happened in one over (the engine keeps these for tests and worked examples)."""
    over: int
    first: str = ""  # "bat" or "bowl": who turned the pitch card
    pitch: int = 0
    bat_card: int = 0
    bowl_card: int = 0
    dice: tuple[int, int] = (0, 0)
    chance: list[str] = field(default_factory=list)
    runs: int = 0
    outs: int = 0
    note: str = ""


@dataclass
class InningsResult:
    runs: int
    wickets: int
    overs: int  # overs bowled
    sixes: int
    log: list[OverLog]


@dataclass
class _OverPlay:
    """An over's figures while its cards are played: the pitch, the tie-roll bonus, the two
    player cards and the run dice, and what chance cards add (play_over's working state)."""
    pitch: int
    bonus: int
    bat_card: int
    bowl_card: int
    dice: int
    chance_runs: int = 0
    chance_outs: int = 0
    chance_counts: bool = False  # a chance card that sets runs trumps a 0-or-less total
    after: list[str] = field(default_factory=list)  # effects on the hands, once the over is scored

    @property
    def total(self) -> int:
        """The cards and dice (a re-roll replaces the dice, so the total follows it)."""
        return self.dice + self.bat_card + self.bowl_card + self.pitch + self.bonus

    @property
    def chance_trumps(self) -> bool:
        """3.2: a chance card that sets runs trumps cards and dice that total 0 or less."""
        return self.chance_counts and self.total <= 0 and self.chance_runs > 0

    @property
    def runs(self) -> int:
        return self.chance_runs if self.chance_trumps else self.total + self.chance_runs


# --- strategies (simple and public, so the tests and docs can state them) -------------------

def _median_pick(values: list[int]) -> int:
    """Index of the median card: the side that plays blind keeps its extremes back."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    return order[(len(order) - 1) // 2]


def batter_answer(values: list[int], so_far: int) -> int:
    """Batter plays second: the lowest card that makes the over safe from a 0-or-less total
    (2d6 gives at least 2), else the highest card."""
    safe = [i for i, v in enumerate(values) if so_far + v + 2 > 0]
    if safe:
        return min(safe, key=lambda i: (values[i], i))
    return max(range(len(values)), key=lambda i: (values[i], -i))


def bowler_answer(values: list[int], so_far: int) -> int:
    """Bowler plays second: his lowest card if it gives the dice a chance of an out (the total
    before dice at -2 or less), else his median card (the highest is kept to be thrown away)."""
    low = min(range(len(values)), key=lambda i: (values[i], i))
    if so_far + values[low] <= -2:
        return low
    return _median_pick(values)


class RollAndPlayInnings:
    """One innings. `bat_deck`/`bowl_deck` are the player decks the two sides deal from (the
    same Pile in the classic game, each side's own squad in the team edition)."""

    def __init__(self, draws: Draws, overs: int, bat_deck: Pile, bowl_deck: Pile,
                 pitch: Pile, chance: Pile, hands: tuple[list[PlayerCard], list[PlayerCard]] | None = None,
                 variation: bool = False) -> None:
        self.draws = draws
        self.overs = overs
        self.bat_deck, self.bowl_deck = bat_deck, bowl_deck
        self.pitch, self.chance = pitch, chance
        spec = decks_spec()
        self.hand_size = spec["hand_size"]
        self.redeal_every = spec["redeal_every_overs"]
        if hands is None:
            hands = self._deal()
        self.bat, self.bowl = Side(list(hands[0])), Side(list(hands[1]))
        self.forced_first: str | None = None
        self.variation = variation
        if variation:  # law 6: each side starts with chance cards to play on its own turn
            n = variation_cards(overs)
            self.bat.starting = [self.chance.draw() for _ in range(n)]
            self.bowl.starting = [self.chance.draw() for _ in range(n)]

    def _deal(self) -> tuple[list[PlayerCard], list[PlayerCard]]:
        self.bat_deck.reshuffle()
        if self.bowl_deck is not self.bat_deck:
            self.bowl_deck.reshuffle()
        bat = [self.bat_deck.draw() for _ in range(self.hand_size)]
        bowl = [self.bowl_deck.draw() for _ in range(self.hand_size)]
        return bat, bowl

    def redeal(self) -> None:
        bat, bowl = self._deal()
        self.bat.hand, self.bowl.hand = bat, bowl

    def play(self) -> InningsResult:
        runs = wickets = sixes = 0
        log: list[OverLog] = []
        over = 0
        while over < self.overs and wickets < MAX_OUTS:
            if over > 0 and over % self.redeal_every == 0:
                self.redeal()
            entry = self.play_over(over + 1)
            over += 1
            log.append(entry)
            wickets = min(MAX_OUTS, wickets + entry.outs)
            runs += entry.runs
            if "six" in entry.note and entry.runs > 0:
                sixes += 1
        return InningsResult(runs, wickets, over, sixes, log)

    def _who_first(self, entry: OverLog) -> tuple[str | None, int]:
        """('bat'|'bowl', bonus runs), or (None, 0) when the tie-roll is an out."""
        if self.forced_first:
            first, self.forced_first = self.forced_first, None
            return first, 0
        bonus = 0
        first_tie = True
        while True:
            a, b = self.draws.die(6), self.draws.die(6)
            if a != b:
                return ("bat" if a > b else "bowl"), bonus
            # reading: only the first tie of an over counts (3.1); later ties are simply rolled again
            if first_tie:
                if a <= 3:
                    entry.note = "tied roll: out"
                    return None, 0
                bonus = 1
                first_tie = False

    def play_over(self, number: int) -> OverLog:
        entry = OverLog(number)
        first, bonus = self._who_first(entry)
        if first is None:
            entry.outs = 1
            return entry
        entry.first = first
        pitch = self.pitch.draw()
        bat_card, bowl_card = self._play_cards(first, pitch + bonus)
        entry.pitch, entry.bat_card, entry.bowl_card = pitch, bat_card, bowl_card
        d1, d2 = self.draws.die(6), self.draws.die(6)
        entry.dice = (d1, d2)
        if d1 == d2 == 1:
            entry.outs = 1
            entry.note = "double one: out"
            return entry
        over = _OverPlay(pitch, bonus, bat_card, bowl_card, d1 + d2)
        if d1 == d2:
            self._chance_card(entry, over)
        if self.variation and not over.chance_outs:
            overs_left = self.overs - number
            self._bowler_hand(entry, over, overs_left)
            if not over.chance_outs:
                self._batter_hand(entry, over, overs_left)
        self._score(entry, over)
        self._after_over(over.after)
        return entry

    def _play_cards(self, first: str, so_far: int) -> tuple[int, int]:
        """The batter's and bowler's player cards for the over, taken from their hands: the
        side that plays first its median card, the other its answer to it (`so_far`: pitch and
        bonus)."""
        bat_values = [c.bat for c in self.bat.hand]
        bowl_values = [c.bowl for c in self.bowl.hand]
        if first == "bat":
            i = _median_pick(bat_values)
            j = bowler_answer(bowl_values, so_far + bat_values[i])
        else:
            j = _median_pick(bowl_values)
            i = batter_answer(bat_values, so_far + bowl_values[j])
        return self.bat.hand.pop(i).bat, self.bowl.hand.pop(j).bowl

    def _chance_card(self, entry: OverLog, over: _OverPlay) -> None:
        """A double (not double one) draws a chance card: the batter keeps a keep-card for
        later, any other takes effect now (or, for the hands, once the over is scored)."""
        card = self.chance.draw()
        entry.chance.append(card.title)
        if card.keep:
            self.bat.kept.append(card)
            return
        e = card.effect
        if e == "runs" or e == "six":
            over.chance_runs += card.amount
            over.chance_counts = True
            if e == "six":
                entry.note = "six"
        elif e == "runs_die":
            over.chance_runs += card.amount * self.draws.die(6)
            over.chance_counts = True
        elif e == "penalty_runs":
            over.chance_runs += PENALTY_RUNS[self.draws.die(6)]
            over.chance_counts = True
        elif e == "outs":
            over.chance_outs += card.amount
        elif e == "penalty_outs":
            over.chance_outs += PENALTY_OUTS[self.draws.die(6)]
        elif e == "reroll":
            # reading: a re-roll replaces the run dice; doubles on it draw nothing more
            over.dice = self.draws.die(6) + self.draws.die(6)
        elif e == "negate_cards":
            over.bat_card, over.bowl_card = -over.bat_card, -over.bowl_card
        elif e == "draw_keep":
            extra = self.chance.draw()
            # reading: the batter keeps it only if it can help him later, else it is discarded
            if extra.effect in ("runs", "six", "runs_die", "penalty_runs", "reroll") and (
                    extra.amount >= 0):
                self.bat.kept.append(extra)
            entry.chance.append(f"(kept) {extra.title}")
        elif e == "clear_kept":
            self.bat.kept.clear()
            self.bowl.kept.clear()
        elif e == "extra_player_card":
            self.bat.hand.append(self.bat_deck.draw())
        elif e in ("redeal", "swap_hands", "batter_first_next", "bowler_first_next"):
            over.after.append(e)
        else:  # pragma: no cover - the deck file names only known effects
            raise ValueError(f"unknown chance effect {e!r}")

    def _bowler_hand(self, entry: OverLog, over: _OverPlay, overs_left: int) -> None:
        """Variation, the bowler's turn: a chance card from his hand (`_bowler_plays`)."""
        played = self._bowler_plays(over.total + over.chance_runs, overs_left)
        if played is None:
            return
        entry.chance.append(f"(bowler's hand) {played.title}")
        if played.effect == "outs":
            over.chance_outs += played.amount
        elif played.effect == "penalty_outs":
            over.chance_outs += PENALTY_OUTS[self.draws.die(6)]
        elif played.effect == "runs_die":
            over.chance_runs += played.amount * self.draws.die(6)
        else:
            over.chance_runs += played.amount

    def _batter_hand(self, entry: OverLog, over: _OverPlay, overs_left: int) -> None:
        """Variation, the batter's turn (when the bowler's card took no wicket): a chance card
        from his hand (`_batter_plays`), seeing what the over would be worth."""
        played = self._batter_plays(over.runs, overs_left)
        if played is None:
            return
        entry.chance.append(f"(batter's hand) {played.title}")
        if played.effect == "reroll":
            over.dice = self.draws.die(6) + self.draws.die(6)
            return
        if played.effect == "runs_die":
            gain = self.draws.die(6)
        elif played.effect == "penalty_runs":
            gain = PENALTY_RUNS[self.draws.die(6)]
        else:
            gain = played.amount
        over.chance_runs += gain
        over.chance_counts = True
        if played.effect == "six":
            entry.note = "six"

    def _score(self, entry: OverLog, over: _OverPlay) -> None:
        """The over's outcome: a chance card's outs, else its runs; 0 or less (unless a kept
        card rescues it, `_rescue`) is an out."""
        if over.chance_outs:
            entry.outs = over.chance_outs
            entry.note = (entry.note + " chance out").strip()
            return
        runs = over.runs
        if runs <= 0:
            runs = self._rescue(over.total, over.chance_runs, over.chance_counts, over.dice)
        if runs <= 0:
            entry.outs = 1
            entry.note = (entry.note + " out").strip()
        else:
            entry.runs = runs

    def _after_over(self, after: list[str]) -> None:
        """Chance effects on the hands and the next over, in the order drawn."""
        for e in after:
            if e == "redeal":
                self.redeal()
            elif e == "swap_hands":
                self.bat.hand, self.bowl.hand = self.bowl.hand, self.bat.hand
            elif e == "batter_first_next":
                self.forced_first = "bat"
            elif e == "bowler_first_next":
                self.forced_first = "bowl"

    def _bowler_plays(self, total: int, overs_left: int) -> ChanceCard | None:
        """Variation, bowler's turn: an out card at once; a run-cutter when it turns the over into
        an out, or when he has fewer overs left than cards to spend. One card an over."""
        cards = [c for c in self.bowl.starting if helps_bowler(c)]
        if not cards:
            return None
        outs = [c for c in cards if c.effect in ("outs", "penalty_outs")]
        if outs:
            choice = outs[0]
        else:
            cutters = sorted(cards, key=lambda c: c.amount)  # most negative first
            fixed = [c for c in cutters if c.effect == "runs" and total + c.amount <= 0]
            if fixed:
                choice = fixed[-1]  # the smallest cut that does it
            elif overs_left < len(cutters):
                choice = cutters[0]
            else:
                return None
        self.bowl.starting.remove(choice)
        return choice

    def _batter_plays(self, total: int, overs_left: int) -> ChanceCard | None:
        """Variation, batter's turn: a helpful card when the over would be an out, or when he has
        fewer overs left than helpful cards. One card an over."""
        cards = [c for c in self.bat.starting if helps_batter(c)]
        if not cards:
            return None
        if total <= 0:
            runs_cards = [c for c in cards if c.effect in ("runs", "six") and c.amount > 0]
            choice = max(runs_cards, key=lambda c: c.amount) if runs_cards else cards[0]
        elif overs_left < len(cards):
            choice = max(cards, key=lambda c: (c.effect != "reroll", c.amount))
        else:
            return None
        self.bat.starting.remove(choice)
        return choice

    def _rescue(self, total: int, chance_runs: int, chance_counts: bool, dice: int) -> int:
        """The batter spends a kept card to save an over that would be an out: a kept positive
        runs card first, else a kept re-roll. Returns the over's runs (0 or less: still out)."""
        for card in list(self.bat.kept):
            if card.effect in ("runs", "six") and card.amount > 0:
                self.bat.kept.remove(card)
                return card.amount
        for card in list(self.bat.kept):
            if card.effect == "reroll":
                self.bat.kept.remove(card)
                new_dice = self.draws.die(6) + self.draws.die(6)
                return total - dice + new_dice + chance_runs
        return total + chance_runs


def classic_innings(draws: Draws, overs: int = 20, variation: bool = False) -> RollAndPlayInnings:
    """An innings of the published game: one shared player deck; the toss winner bats when his
    hand holds more positive (black) than negative (red) cards, as the laws suggest."""
    deck = Pile(classic_player_deck(), draws)
    first = [deck.draw() for _ in range(decks_spec()["hand_size"])]
    second = [deck.draw() for _ in range(decks_spec()["hand_size"])]
    toss_winner_first = draws.die(2) == 1
    winner, loser = (first, second) if toss_winner_first else (second, first)
    blacks = sum(1 for c in winner if c.bat > 0)
    bats = blacks > len(winner) - blacks
    hands = (winner, loser) if bats else (loser, winner)
    return RollAndPlayInnings(draws, overs, deck, deck, Pile(pitch_deck(), draws),
                              Pile(chance_deck(), draws), hands=hands, variation=variation)


def simulate_classic(rng: np.random.Generator, n: int, overs: int = 20, variation: bool = False) -> pd.DataFrame:
    """n first innings of the published game (columns INNINGS_COLUMNS); `variation` plays law 6
    (each side starts with chance cards in hand)."""
    draws = RandomDraws(rng)
    rows = []
    for _ in range(n):
        r = classic_innings(draws, overs, variation).play()
        rows.append((r.runs, r.wickets, 0, r.sixes, 6 * r.overs))
    return pd.DataFrame(rows, columns=list(INNINGS_COLUMNS))
