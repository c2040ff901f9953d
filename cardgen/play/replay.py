"""Replay a page's match file through the Python reference engine (`cardgen replay`).

The dice are the file's, ball by ball, read by the reference engine in its own order; a die of
another kind than the engine asks for, a ball left with dice over, or a score the engine does
not reach is the file and the card set disagreeing, and says where. Balls the seed rolled are
also rolled again from the seed (`prng`), so a hand-edited roll is found too. Each over's bowler
is the file's, checked against the limits.
"""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.cardset import CardSet
from cardgen.errors import CardSetError
from cardgen.play.match import play_page_match
from cardgen.play.matchfile import DIE_RANGES, MatchFileError, MatchRecord, card_set_fingerprint
from cardgen.play.prng import DICE_STREAM, SharedRandom
from cardgen.play.scorecard import Scorecard, scorecard
from cardgen.play.sides import PageSide, page_side, plan_problem
from cardgen.rule_sets import rules_of_set
from cardgen.sim.model import CompiledSet, compile_card_set
from cardgen.sim.reference import Dice, Match
from cardgen.wickets_in_hand import rule_of_set


@dataclass
class Replayed:
    match: Match
    bat_first: PageSide
    bat_second: PageSide
    scorecard: Scorecard


class _FileDice(Dice):
    """The file's dice, one ball at a time; the plan's bowler is the ball's (see _FilePlan)."""

    def __init__(self, record: MatchRecord, where: str) -> None:
        super().__init__(self)   # the engine's draws come back to integers() below
        self.record = record
        self.where = where
        self.ball = -1           # index of the ball being bowled
        self.at = 0              # dice of it used so far
        self.seed_rng = SharedRandom(record.seed, DICE_STREAM)

    def label(self, ball: int | None = None) -> str:
        b = self.record.balls[self.ball if ball is None else ball]
        return f"ball {(self.ball if ball is None else ball) + 1} ({b.over or '?'})"

    def begin_delivery(self) -> None:
        self._finish_ball()
        self.ball += 1
        self.at = 0
        if self.ball >= len(self.record.balls):
            raise MatchFileError(f"{self.where}: the match goes on after its last ball ({len(self.record.balls)}): "
                                 f"the file is cut short or the card set is not the one it was played with")

    def _finish_ball(self) -> None:
        if self.ball >= 0 and self.at != len(self.record.balls[self.ball].dice):
            raise MatchFileError(f"{self.where}: {self.label()} has dice the card set does not use there "
                                 f"(another card set, or an edited file)")

    def integers(self, low: int, high: int) -> int:
        ball = self.record.balls[self.ball]
        if self.at >= len(ball.dice):
            raise MatchFileError(f"{self.where}: {self.label()} needs more dice than the file gives "
                                 f"(another card set, or an edited file)")
        kind, value, deck = ball.dice[self.at]
        want = "pick" if low == 0 else next(k for k, r in DIE_RANGES.items() if r == (low, high))
        if kind != want or (kind == "pick" and deck != high):
            raise MatchFileError(f"{self.where}: {self.label()} die {self.at + 1} is a {kind} where the cards "
                                 f"ask for {'a card drawn from ' + str(high) if want == 'pick' else 'a ' + want}")
        if ball.rolled and self.seed_rng.integers(low, high) != value:
            raise MatchFileError(f"{self.where}: {self.label()} says the seed rolled it, but seed "
                                 f"{self.record.seed} rolls other dice there (an edited file)")
        self.at += 1
        return value


class _FilePlan(list[int]):
    """A bowling plan read as the innings goes: unit u's bowler is the bowler of the ball about
    to be bowled (the engine looks the bowler up just before each delivery)."""

    def __init__(self, dice: _FileDice, side: PageSide, cs: CompiledSet) -> None:
        super().__init__()
        self.dice, self.side, self.cs = dice, side, cs
        self.units: list[int] = []

    # the engine reads a plan by unit, never by slice: list's slice overload is not offered
    def __getitem__(self, unit: int) -> int:  # type: ignore[override]
        nxt = self.dice.ball + 1
        record = self.dice.record
        if nxt >= len(record.balls):
            raise MatchFileError(f"{self.dice.where}: the match goes on after its last ball "
                                 f"({len(record.balls)}): the file is cut short or was played with other cards")
        pid = record.balls[nxt].bowler
        card = self.cs.bowler_card_of.get((pid, self.side.team))
        if card is None or card not in self.side.bowler_cards:
            raise MatchFileError(f"{self.dice.where}: {self.dice.label(nxt)}: bowler {pid} is not a bowler of "
                                 f"{self.side.team}'s XI")
        if unit < len(self.units):
            if self.units[unit] != card:
                raise MatchFileError(f"{self.dice.where}: {self.dice.label(nxt)}: the bowler changes in the "
                                     f"middle of an over")
        else:
            problem = plan_problem(self.units + [card], self.cs.fmt)
            if problem:
                raise MatchFileError(f"{self.dice.where}: {self.dice.label(nxt)}: {problem}")
            self.units.append(card)
        return card


def replay(card_set: CardSet, record: MatchRecord, where: str = "the match file") -> Replayed:
    """Play the file's match again; its scorecard."""
    comp = card_set.competition.code
    if (record.competition, record.season) != (comp, card_set.season):
        raise MatchFileError(f"{where} was played with the {record.competition} {record.season} cards, "
                             f"not {comp} {card_set.season} (pass that kit's card-set.json with --cards)")
    rules = rules_of_set(card_set)
    if record.rules != rules:
        raise MatchFileError(f"{where} was played by the {record.rules} rules; this card set is for the "
                             f"{rules} rules (pass the other kit's card-set.json with --cards)")
    cs = compile_card_set(card_set)   # a broken card set says what is broken in it first
    if record.fingerprint and record.fingerprint != card_set_fingerprint(card_set.to_json()):
        raise MatchFileError(f"{where} was played with other {comp} {card_set.season} cards than "
                             f"these (the card set changed since): pass the card-set.json of the kit it was played with")
    sides = []
    for team in record.teams:
        try:
            sides.append(page_side(cs, team.name, list(team.xi), team.keeper))
        except CardSetError as exc:
            raise MatchFileError(f"{where}: {exc}") from None
    first, second = sides[record.batting_first], sides[1 - record.batting_first]
    dice = _FileDice(record, where)
    match = play_page_match(cs, first, second, dice, lambda i, side: _FilePlan(dice, side, cs),
                            rule_of_set(card_set) if rules == "advanced" else None)
    dice._finish_ball()
    if dice.ball + 1 != len(record.balls):
        raise MatchFileError(f"{where}: the match ends after ball {dice.ball + 1} of the file's {len(record.balls)} "
                             f"(another card set, or an edited file)")
    innings = [match.first, match.second] + [inn for pair in match.super_overs for inn in pair]
    if [len(i.balls) for i in innings] != [i.balls for i in record.innings]:
        raise MatchFileError(f"{where}: its innings end elsewhere than these cards end them "
                             f"(another card set, or an edited file)")
    k = 0
    for inn in innings:
        runs = wickets = 0
        for ball in inn.balls:
            runs += ball.bat_runs + ball.extras
            wickets += ball.out_slot is not None
            bowler = cs.player_ids[int(cs.bowler_player[ball.bowler])]
            if bowler != record.balls[k].bowler:
                raise MatchFileError(f"{where}: {dice.label(k)}: its bowler is {record.balls[k].bowler}, but "
                                     f"the super over is bowled by {bowler} (R8: the most-used bowler)")
            said = record.balls[k].score
            if said is not None and said != f"{runs}/{wickets}":
                raise MatchFileError(f"{where}: {dice.label(k)} says {said}, but these cards make it "
                                     f"{runs}/{wickets} (another card set, or an edited file)")
            k += 1
    card = scorecard(cs, card_set, rules, match, first, second)
    return Replayed(match, first, second, card)
