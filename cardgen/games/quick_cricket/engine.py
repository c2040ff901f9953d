"""Quick Cricket's rules engine: one turn is one over, one Pitch and one Path card per over.

Every random choice goes through a `Draws` source (`below(n)`: a whole number in [0, n)), so the
same seed replays the same innings and tests can script each draw. What the players decide comes
from strategy objects: the built-in bowler mixes his cards at random (the game is a guessing game,
so an unpredictable bowler is hard to beat) and the built-in batter picks the Move and Stroke with
the best expected runs less the value of his wicket. docs/games.md gives every rule reading.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from cardgen.errors import CardgenError
from cardgen.games.quick_cricket import rules as R

BIG_HIT = -1   # a Choice with move == BIG_HIT plays both Stroke cards


class ScriptExhausted(CardgenError):
    """A scripted draw source ran out of draws."""


class Draws(Protocol):
    def below(self, n: int) -> int: ...


class RngDraws:
    """Draws from one numpy Generator, taken in blocks (a scalar call per draw is slow)."""

    def __init__(self, rng: np.random.Generator, block: int = 4096) -> None:
        self.rng = rng
        self.block = block
        self._u = rng.random(block)
        self._i = 0

    def below(self, n: int) -> int:
        if self._i == self.block:
            self._u = self.rng.random(self.block)
            self._i = 0
        u = self._u[self._i]
        self._i += 1
        return int(u * n)


class ScriptedDraws:
    """Draws given in advance (rules tests)."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.used = 0

    def below(self, n: int) -> int:
        if self.used >= len(self.values):
            raise ScriptExhausted(f"scripted draws exhausted after {self.used}")
        v = self.values[self.used]
        self.used += 1
        if not 0 <= v < n:
            raise ValueError(f"scripted draw {v} not in [0, {n})")
        return v


def pick(draws: Draws, n: int) -> int:
    """A uniform choice among n; no draw is spent when there is nothing to choose."""
    return 0 if n == 1 else draws.below(n)


@dataclass(frozen=True)
class Choice:
    move: int      # quadrant, or BIG_HIT
    stroke: int    # quadrant (ignored for a big hit)

    @property
    def big_hit(self) -> bool:
        return self.move == BIG_HIT


@dataclass(frozen=True)
class View:
    """What the batter knows when he lays his cards: everything but the Path card."""
    style: str
    pitch: int
    remaining: tuple[int, ...]   # Path cards not yet used in this spell
    fielder: int
    wickets: int
    umpires_face_down: int
    overs_left: int


@dataclass(frozen=True)
class Ball:
    """What the cards say before any umpire is consulted."""
    runs: int = 0               # runs if the batter is not out
    out: str | None = None      # certain dismissal: "bowled" or "lbw"
    appeal: str | None = None   # "caught" or "lbw": the umpire decides
    flips: int = 0              # umpire cards turned for the appeal
    four: bool = False
    six: bool = False


def resolve(style: str, pitch: int, path: int, risk: int, choice: Choice, wickets: int,
            fielder: int, hit_the_bouncer: bool = False) -> Ball:
    """The outcome of one over's cards (no umpire yet)."""
    chart = R.chart_for(wickets).runs

    def big_hit() -> Ball:   # outfield catch appeal; fielders cannot stop it
        return Ball(runs=chart[pitch] + risk + R.BIG_HIT_BONUS, appeal="caught", flips=1, six=True)

    if choice.big_hit:
        return Ball(out="bowled") if R.is_yorker(style, pitch, path) else big_hit()
    if R.is_bouncer(style, pitch, path):
        if choice.move in (R.B, R.C):
            return Ball(runs=R.BOUNCER_RUNS + risk, appeal="caught", flips=1)
        return big_hit() if hit_the_bouncer else Ball()   # ducked: a dot
    code = R.OUTCOME[style][R.quadrant_class(choice.stroke, pitch, path)][
        R.quadrant_class(choice.move, pitch, path)]
    fielded = fielder == choice.stroke
    if code == R.DOT:
        return Ball()
    if code == R.RUNS:
        return Ball(runs=max(0, chart[choice.stroke] + risk - (R.FIELDER_SAVES if fielded else 0)))
    if code == R.FOUR:
        return Ball() if fielded else Ball(runs=4 + risk, four=True)
    if code == R.CAUGHT_APPEAL:
        return Ball(appeal="caught", flips=2 if fielder in (R.A, R.D) else 1)
    if code == R.LBW_APPEAL:
        return Ball(appeal="lbw", flips=1)
    return Ball(out="lbw" if code == R.LBW_OUT else "bowled")


def placements(style: str, pitch: int, remaining: tuple[int, ...]) -> list[tuple[int, int, float]]:
    """(card, path quadrant, probability) for the built-in bowler: any unused card, any of its
    orientations that is not a no-ball, all equally likely."""
    out = []
    for card in remaining:
        spec = R.PATH_CARDS[card]
        legal = [o for o in range(2) if not spec.green[o]]
        for o in legal:
            out.append((card, R.moved(pitch, spec.orientations[o]), 1.0 / (len(remaining) * len(legal))))
    return out


ALL_CHOICES: tuple[Choice, ...] = tuple(Choice(m, s) for m in range(4) for s in range(4)) + (
    Choice(BIG_HIT, BIG_HIT),)


@functools.cache
def choice_values(style: str, pitch: int, remaining: tuple[int, ...], fielder: int, wickets: int,
                  face_down: int) -> tuple[tuple[float, float], ...]:
    """(expected runs, chance of losing the wicket) of every choice against the built-in bowler.
    An appeal is judged on the umpire cards face down now (reviews left out: they cut both ways)."""
    band = R.chart_for(wickets).wickets[0]
    values = []
    for choice in ALL_CHOICES:
        runs = lost = 0.0
        for card, path, prob in placements(style, pitch, remaining):
            ball = resolve(style, pitch, path, R.PATH_CARDS[card].risk, choice, band, fielder)
            p_out = 1.0 if ball.out else min(1.0, ball.flips / face_down) if ball.appeal else 0.0
            runs += prob * (1 - p_out) * ball.runs
            lost += prob * p_out
        values.append((runs, lost))
    return tuple(values)


@dataclass(frozen=True)
class Batter:
    """Maximise expected runs less the value of a wicket: par runs per over times overs left,
    shared among the wickets in hand (early on a wicket is dear, at the death it is cheap)."""
    par_per_over: float = 8.0

    def wicket_value(self, view: View) -> float:
        return self.par_per_over * view.overs_left / max(1, R.MAX_WICKETS - view.wickets)

    def choose(self, view: View) -> Choice:
        lam = self.wicket_value(view)
        values = choice_values(view.style, view.pitch, view.remaining, view.fielder, view.wickets,
                               view.umpires_face_down)
        best = max(range(len(values)), key=lambda i: values[i][0] - lam * values[i][1])
        return ALL_CHOICES[best]

    def hit_the_bouncer(self, view: View, risk: int) -> bool:
        """Moved away from a bouncer: hook it (a big hit) when that beats ducking."""
        chart = R.chart_for(view.wickets).runs
        p_out = 1.0 / view.umpires_face_down
        return (1 - p_out) * (chart[view.pitch] + risk + R.BIG_HIT_BONUS) > self.wicket_value(view) * p_out


class Bowler:
    """Fielder to the richest quadrant of the Runs chart in use; pitch and Path at random."""

    def place_fielder(self, wickets: int) -> int:
        runs = R.chart_for(wickets).runs
        return max(range(4), key=lambda q: runs[q])

    def pitch(self, draws: Draws, style: str) -> int:
        return pick(draws, 4)

    def path(self, draws: Draws, style: str, pitch: int, remaining: tuple[int, ...]) -> tuple[int, int]:
        """(card, orientation)."""
        card = remaining[pick(draws, len(remaining))]
        legal = [o for o in range(2) if not R.PATH_CARDS[card].green[o]]
        return card, legal[pick(draws, len(legal))]

    def reviews_not_out(self, face_down: int) -> bool:
        return face_down == 2   # an even chance: the OUT card is one of the two


@dataclass
class Umpires:
    """Three cards, one OUT. Not-out cards turned stay up until a wicket or an OUT reshuffles."""
    face_down: int = 3

    def appeal(self, draws: Draws, flips: int) -> bool:
        # card 0 of those still face down is the OUT; stop at the first OUT turned
        return any(pick(draws, self.face_down - turned) == 0 for turned in range(flips))


@dataclass
class Over:
    number: int            # 1-based
    style: str
    pitch: int
    card: int
    path: int
    choice: Choice
    runs: int = 0
    wicket: str | None = None
    no_ball: bool = False
    four: bool = False
    six: bool = False
    appeal: str | None = None
    review: str | None = None     # "batting kept", "batting lost", "bowling kept", "bowling lost"


@dataclass
class Innings:
    runs: int = 0
    wickets: int = 0
    overs: int = 0
    no_balls: int = 0
    fours: int = 0
    sixes: int = 0
    partnerships: list[int] = field(default_factory=lambda: [0])
    fall_of_wickets: list[tuple[int, int]] = field(default_factory=list)   # (runs, over)
    reviews_left: dict[str, int] = field(default_factory=lambda: {"batting": R.REVIEWS_PER_INNINGS,
                                                                  "bowling": R.REVIEWS_PER_INNINGS})
    log: list[Over] = field(default_factory=list)

    @property
    def legal_balls(self) -> int:
        return self.overs * R.BALLS_PER_OVER


def style_of_over(over_index: int) -> str:
    """Spells of four overs, pace first, alternating."""
    return "pace" if (over_index // R.SPELL_OVERS) % 2 == 0 else "spin"


def _umpire_decision(inn: Innings, ump: Umpires, draws: Draws, ball: Ball, batter: Batter,
                     bowler: Bowler, over: Over) -> bool:
    """Appeal, then a review when a side thinks it worth one; True when the batter is out."""
    available = ump.face_down
    out = ump.appeal(draws, ball.flips)
    turned_out = out
    if out and inn.reviews_left["batting"] > 0 and available >= 2:
        # the batter's odds: the OUT is one of `available` cards, reshuffled and one drawn
        out = pick(draws, available) == 0
        over.review = "batting lost" if out else "batting kept"
        if out:
            inn.reviews_left["batting"] -= 1
    elif not out and inn.reviews_left["bowling"] > 0 and bowler.reviews_not_out(available):
        out = pick(draws, available) == 0
        over.review = "bowling kept" if out else "bowling lost"
        turned_out = out
        if not out:
            inn.reviews_left["bowling"] -= 1
    if turned_out or out:
        ump.face_down = 3            # an OUT card was turned: all three are reshuffled
    else:
        ump.face_down = available - ball.flips
    return out


def play_over(inn: Innings, ump: Umpires, draws: Draws, style: str, remaining: tuple[int, ...],
              fielder: int, overs_total: int, batter: Batter, bowler: Bowler) -> Over:
    """One turn (replayed while the bowler bowls no-balls); updates the innings."""
    while True:
        pitch = bowler.pitch(draws, style)
        view = View(style, pitch, remaining, fielder, inn.wickets, ump.face_down,
                    overs_total - inn.overs)
        choice = batter.choose(view)
        card, orientation = bowler.path(draws, style, pitch, remaining)
        spec = R.PATH_CARDS[card]
        path = R.moved(pitch, spec.orientations[orientation])
        over = Over(inn.overs + 1, style, pitch, card, path, choice)
        if spec.green[orientation]:     # no-ball: five runs, every card back, the over again
            over.no_ball = True
            over.runs = R.NO_BALL_RUNS
            inn.runs += R.NO_BALL_RUNS
            inn.partnerships[-1] += R.NO_BALL_RUNS
            inn.no_balls += 1
            inn.log.append(over)
            continue
        hook = (R.is_bouncer(style, pitch, path) and not choice.big_hit
                and choice.move in (R.A, R.D) and batter.hit_the_bouncer(view, spec.risk))
        ball = resolve(style, pitch, path, spec.risk, choice, inn.wickets, fielder, hook)
        out = ball.out
        if ball.appeal:
            over.appeal = ball.appeal
            if _umpire_decision(inn, ump, draws, ball, batter, bowler, over):
                out = ball.appeal
        inn.overs += 1
        if out:
            over.wicket = out
            inn.wickets += 1
            inn.fall_of_wickets.append((inn.runs, inn.overs))
            ump.face_down = 3            # reshuffled at every wicket
            if inn.wickets < R.MAX_WICKETS:
                inn.partnerships.append(0)
        else:
            over.runs, over.four, over.six = ball.runs, ball.four and ball.runs > 0, ball.six
            inn.runs += ball.runs
            inn.partnerships[-1] += ball.runs
            inn.fours += over.four
            inn.sixes += over.six
        inn.log.append(over)
        return over


def play_innings(draws: Draws, overs: int = 20, batter: Batter | None = None,
                 bowler: Bowler | None = None) -> Innings:
    batter = batter or Batter()
    bowler = bowler or Bowler()
    inn = Innings()
    ump = Umpires()
    remaining: tuple[int, ...] = ()
    fielder = R.A
    while inn.overs < overs and inn.wickets < R.MAX_WICKETS:
        if inn.overs % R.SPELL_OVERS == 0:   # a new spell: all four Path cards, fielder moved
            remaining = tuple(range(len(R.PATH_CARDS)))
            fielder = bowler.place_fielder(inn.wickets)
        over = play_over(inn, ump, draws, style_of_over(inn.overs), remaining, fielder, overs,
                         batter, bowler)
        remaining = tuple(c for c in remaining if c != over.card)
    return inn
