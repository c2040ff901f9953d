"""Cricket: The Game's batting/bowling dice duel, ball by ball, for a 20-over (T20) innings.

What follows the rulebook: the Advantage meter set from the batter's Confidence and moved by
how far his chosen Zone is from the bowl card's shots (full +3 on a match, -1 per Zone away,
never beyond +3 for the bat or +1 for the ball; a specialist batter never below neutral); the
bowler's D6 (D8 after an express "bowler D8" icon) against the batter's D8 (D6 for specialist
bowlers); clean bowled (bowler's top face, batter's 1), the straight boundary (bowler 1, batter
6+: four, 8: six); block on equal faces or totals; a miss by 3+ gives a bowled roll (Aggressive
D8 7+, Defensive D6 6); the struck ball's Distance (D8: 1-4 infield, 5-8 outfield; pace strike by
3+ may add 1 up to 6, spin strike by <3 must take 1 off) and Bounce die (red: catchable if a
fielder is where the Distance lands; green 2 from the outermost area: six; past 8: four); runs,
fielded balls and run-outs as in FIELDER / RUN-OUT and EXTRA RUNS; slips on blocks (pace/spin)
and on snicks; no-ball with a free-hit extra delivery; express play on the first two balls of
overs 2-19; pitch card re-rolls; 3 overs a bowler, never two in a row; confidence +1 a boundary.

What the box supplies and the rulebook does not print (the Over decks, the bowl cards' shots,
the Bounce dice faces, the catch numbers on the board, the fields): stand-ins, stated below as
data and in docs/games-cricket-the-game.md. DRS and skill cards are not played.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardgen.games.base import INNINGS_COLUMNS
from cardgen.games.cricket_the_game.squads import SquadPlayer
from cardgen.games.roll_and_play.draws import Draws, RandomDraws

ZONES = 5  # batting zones clockwise from the Bye zone (slips stand in the Bye zone)
MAX_ADV_BAT, MAX_ADV_BALL = 3, 1
MAX_CONFIDENCE, MIN_CONFIDENCE = 3, -1
OVERS_PER_BOWLER = 3
BALLS_PER_OVER = 6
EXPRESS_BALLS = 2
POWERPLAY_OVERS = 6

# stand-in Bounce dice: (extra areas, red = can be caught)
BOUNCE = {
    "aggressive": ((0, True), (1, True), (2, True), (3, True), (1, False), (2, False)),
    "defensive": ((0, False), (0, True), (1, False), (1, False), (1, True), (2, False)),
}
# stand-in catch numbers by area (1 = distance 1-2 ... 4 = distance 7-8): D6 at least this
CATCH_NEEDS = {1: 5, 2: 5, 3: 5, 4: 4}
SLIP_CATCH = 6
# express results of the batter-D8 icon (the Pace reference card: 1-5 one, 6-7 three, 8 six)
EXPRESS_D8 = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 3, 7: 3, 8: 6}

# stand-in Over deck, 15 cards a bowling style as in the box (45 over cards), the same mix for
# each style: the express icon, and the card's effect on a full ball. The no-ball card only
# counts when the bowler rolls his top face (overstepping as he strains for the yorker).
OVER_DECK: tuple[tuple[str, str], ...] = (
    ("dot", "none"), ("dot", "snick"), ("dot", "none"), ("dot", "nerves"), ("dot", "none"),
    ("one", "none"), ("one", "snick"), ("one", "settled"), ("one", "none"),
    ("two", "none"), ("two", "snick"), ("three", "none"), ("bowler_d8", "none"),
    ("wicket", "no_ball"), ("bat_d8", "none"),
)
EXPRESS_RUNS = {"dot": 0, "one": 1, "two": 2, "three": 3}


def field_for(over: int, style: str) -> tuple[int, frozenset[tuple[int, int]]]:
    """(slips, fielded (zone, area) cells) the fielding side sets: a stand-in that keeps to the
    T20 restrictions (2 outfielders in overs 1-6, 5 after; 9 fielders with the slips)."""
    # one slip for a specialist in the powerplay; in a T20 the slips go once the field spreads
    slips = (1 if style in ("pace", "spin") else 0) if over <= POWERPLAY_OVERS else 0
    ring = {(z, 2) for z in range(ZONES)}
    if over <= POWERPLAY_OVERS:
        deep = {(1, 3), (3, 3)}
        close = [(2, 1), (1, 1), (3, 1)]
        cells = ring | deep | set(close[:9 - slips - len(ring) - len(deep)])
    else:
        deep = {(z, 4) for z in range(ZONES)}
        ring_cells = [(2, 2), (0, 2), (4, 2), (1, 2), (3, 2)][:9 - slips - len(deep)]
        cells = deep | set(ring_cells)
    return slips, frozenset(cells)


def area_of(distance: int) -> int:
    return (distance + 1) // 2


@dataclass
class Batter:
    card: SquadPlayer
    confidence: int


@dataclass
class BallLog:
    over: int
    express: bool
    runs: int = 0
    extras: int = 0
    legal: bool = True
    out: str = ""
    boundary: int = 0
    note: str = ""


@dataclass
class InningsResult:
    runs: int
    wickets: int
    fours: int
    sixes: int
    legal_balls: int
    balls: list[BallLog] = field(default_factory=list)


def attitude_for(over: int, wickets: int, overs: int) -> str:
    """Batting strategy: attack in the powerplay and the last 5 overs, and through the middle
    with wickets in hand; defend otherwise."""
    if wickets >= 8 and over <= overs - 2:
        return "defensive"
    if over <= POWERPLAY_OVERS or over > overs - 5 or wickets <= 3:
        return "aggressive"
    return "defensive"


def bowling_order(bowlers: list[SquadPlayer], overs: int) -> list[int]:
    """Indices of the bowler of each over: most overs left first, specialists first on ties,
    never the same man twice running, at most 3 overs each (always possible with 7 bowlers)."""
    left = [OVERS_PER_BOWLER] * len(bowlers)
    order: list[int] = []
    for _ in range(overs):
        options = [i for i in range(len(bowlers)) if left[i] > 0 and (not order or order[-1] != i)]
        i = max(options, key=lambda k: (left[k], bowlers[k].specialist_bowler, -k))
        left[i] -= 1
        order.append(i)
    return order


def dropped_specialist(squad: list[SquadPlayer]) -> int | None:
    """Index in the squad of the specialist bowler left out of the XI. The rulebook picks the
    XI before the pitch card is drawn (GAME SETUP, PITCH CONDITION CARDS), so the choice cannot
    depend on the pitch: the specialist who bats worst (lowest Confidence) is dropped, the later
    in the squad on a tie (a spinner in the box's make-up)."""
    specialists = [i for i, p in enumerate(squad) if p.specialist_bowler]
    if not specialists:
        return None
    return min(reversed(specialists), key=lambda i: squad[i].confidence)


def batting_xi(squad: list[SquadPlayer]) -> list[SquadPlayer]:
    drop = dropped_specialist(squad)
    return [p for i, p in enumerate(squad) if i != drop]


def bowling_attack(squad: list[SquadPlayer]) -> list[SquadPlayer]:
    """The seven bowlers of the XI: four all-rounders and three specialists."""
    return [p for p in batting_xi(squad) if p.role in ("pace", "spin", "allrounder")]


class CtgInnings:
    PITCHES = ("green", "dusty", "dead")

    def __init__(self, draws: Draws, batting: list[SquadPlayer], bowling: list[SquadPlayer],
                 overs: int = 20, pitch: str | None = None, keep_log: bool = False) -> None:
        self.draws = draws
        self.overs = overs
        self.order = batting_xi(batting)        # the XIs are named first,
        self.attack = bowling_attack(bowling)
        self.pitch = pitch or self.PITCHES[draws.die(3) - 1]   # then the pitch card is drawn
        self.keep_log = keep_log

    def _bowler_style(self, bowler: SquadPlayer) -> str:
        return bowler.role if bowler.role in ("pace", "spin") else "medium"

    def play(self) -> InningsResult:
        die = self.draws.die
        res = InningsResult(0, 0, 0, 0, 0)
        next_in = 2
        striker = Batter(self.order[0], self.order[0].confidence)
        other = Batter(self.order[1], self.order[1].confidence)
        plan = bowling_order(self.attack, self.overs)
        for over in range(1, self.overs + 1):
            bowler = self.attack[plan[over - 1]]
            style = self._bowler_style(bowler)
            slips, cells = field_for(over, style)
            deck = self.draws.shuffled(OVER_DECK)
            express = EXPRESS_BALLS if 1 < over < self.overs else 0
            bowler_d8 = False
            legal = 0
            card_i = 0
            free_hit = False
            while legal < BALLS_PER_OVER:
                attitude = attitude_for(over, res.wickets, self.overs)
                log = BallLog(over, express=legal < express and not free_hit)
                if log.express:
                    icon, _ = deck[card_i]
                    card_i += 1
                    runs, out = self._express(icon, style, log)
                    if icon == "bowler_d8":
                        bowler_d8 = True
                else:
                    if free_hit:
                        effect = "none"  # the free-hit extra delivery is played without an over card
                    else:
                        _, effect = deck[card_i]
                        card_i += 1
                    runs, out = self._delivery(striker, bowler, style, attitude, slips, cells, over,
                                               effect, bowler_d8, free_hit, log)
                    bowler_d8 = False
                    free_hit = not log.legal  # a no-ball is followed by a free-hit extra delivery
                res.runs += runs + log.extras
                if log.boundary == 4:
                    res.fours += 1
                elif log.boundary == 6:
                    res.sixes += 1
                if log.legal:
                    legal += 1
                    res.legal_balls += 1
                if self.keep_log:
                    res.balls.append(log)
                if out:
                    res.wickets += 1
                    if res.wickets >= 10 or next_in >= len(self.order):
                        return res
                    incoming = Batter(self.order[next_in], self.order[next_in].confidence)
                    next_in += 1
                    # a run-out: the batter nearer the throw is out (either end, even odds)
                    if out == "run out" and die(2) == 2:
                        other = incoming
                    else:
                        striker = incoming
                if runs % 2 == 1:
                    striker, other = other, striker
            striker, other = other, striker
        return res

    def _express(self, icon: str, style: str, log: BallLog) -> tuple[int, str]:
        if icon in EXPRESS_RUNS:
            log.runs = EXPRESS_RUNS[icon]
            return log.runs, ""
        if icon == "wicket":
            if self.draws.die(6) >= 5:
                log.out = "bowled"
                return 0, "bowled"
            return 0, ""
        if icon == "bat_d8":
            runs = EXPRESS_D8[self.draws.die(8)]
            log.runs = runs
            log.boundary = 6 if runs == 6 else 0
            return runs, ""
        return 0, ""  # bowler_d8: a dot; the next full ball is bowled with a D8

    def _slip_catch(self, slips: int) -> bool:
        return any(self.draws.die(6) >= SLIP_CATCH for _ in range(slips))

    def _delivery(self, striker: Batter, bowler: SquadPlayer, style: str, attitude: str, slips: int,
                  cells: frozenset[tuple[int, int]], over: int, effect: str, bowler_d8: bool,
                  protected: bool, log: BallLog) -> tuple[int, str]:
        zone, adv = self._duel(striker)
        bowl_sides = 8 if bowler_d8 else 6
        bowl = self._bowl_roll(bowl_sides, style)
        if effect == "no_ball" and bowl == bowl_sides:
            log.legal = False  # one extra; not out except run out, and a free hit follows
            log.extras = 1
            protected = True
        bat = self.draws.die(6 if striker.card.specialist_bowler else 8)
        self._over_card_mood(striker, effect, attitude)
        if bowl == bowl_sides and bat == 1:
            if protected:
                log.note = "clean bowled on a no-ball / free hit: not out"
                return 0, ""
            log.out = "bowled"
            return 0, "bowled"
        if bowl == 1 and bat >= 6:
            runs = 6 if bat == 8 else 4
            log.runs, log.boundary = runs, runs
            striker.confidence = min(MAX_CONFIDENCE, striker.confidence + 1)
            return runs, ""
        bat_total = bat + max(adv, 0)
        bowl_total = bowl + max(-adv, 0)
        if bat == bowl or bat_total == bowl_total:
            return self._blocked(style, effect, slips, protected, log)
        if bat_total < bowl_total:
            return self._beaten(bowl_total - bat_total, attitude, effect, slips, protected, log)
        return self._struck(striker, style, attitude, zone, bat_total - bowl_total, cells, over,
                            protected, log)

    def _duel(self, striker: Batter) -> tuple[int, int]:
        """The duel: the bowl card (two neighbouring zones) against the batter's zone, both
        blind. Returns the batter's zone and his advantage (+: the bat's, -: the ball's)."""
        die = self.draws.die
        bowl_zone = die(ZONES - 1) - 1  # the card's shots cover zones bowl_zone and bowl_zone + 1
        zone = die(ZONES) - 1
        adv = striker.confidence
        if bowl_zone <= zone <= bowl_zone + 1:
            adv = MAX_ADV_BAT
        else:
            adv -= min(abs(zone - bowl_zone), abs(zone - bowl_zone - 1))
        adv = max(-MAX_ADV_BALL, min(MAX_ADV_BAT, adv))
        if striker.card.role == "batter":
            adv = max(0, adv)
        return zone, adv

    def _bowl_roll(self, sides: int, style: str) -> int:
        """The bowler's die; on a pitch that suits his style (green: pace, dusty: spin) a 1 is
        rolled again."""
        bowl = self.draws.die(sides)
        if bowl == 1 and ((self.pitch == "green" and style == "pace") or (self.pitch == "dusty" and style == "spin")):
            bowl = self.draws.die(sides)
        return bowl

    @staticmethod
    def _over_card_mood(striker: Batter, effect: str, attitude: str) -> None:
        """The over card's nerves (an aggressive batter loses confidence) or settled (a
        defensive one gains it)."""
        if effect == "nerves" and attitude == "aggressive":
            striker.confidence = max(MIN_CONFIDENCE, striker.confidence - 1)
        elif effect == "settled" and attitude == "defensive":
            striker.confidence = min(MAX_CONFIDENCE, striker.confidence + 1)

    def _blocked(self, style: str, effect: str, slips: int, protected: bool,
                 log: BallLog) -> tuple[int, str]:
        """Bat and ball level: a dot, or an edge the slips may hold off a specialist bowler (or
        a snick over card)."""
        log.note = "blocked"
        if not protected and (style in ("pace", "spin") or effect == "snick") and self._slip_catch(slips):
            log.out = "caught (slip)"
            return 0, "caught"
        return 0, ""

    def _beaten(self, margin: int, attitude: str, effect: str, slips: int, protected: bool,
                log: BallLog) -> tuple[int, str]:
        """The ball beats the bat by `margin`: by 3 or more a bowled roll, else a slip chance on
        a snick over card; never out on a no-ball or free hit."""
        log.note = "missed"
        if protected:
            return 0, ""
        if margin >= 3:
            # the bowler takes the bowled roll over a slip chance (one option only)
            hit = self.draws.die(8) >= 7 if attitude == "aggressive" else self.draws.die(6) == 6
            if hit:
                log.out = "bowled"
                return 0, "bowled"
            return 0, ""
        if effect == "snick" and self._slip_catch(slips):
            log.out = "caught (slip)"
            return 0, "caught"
        return 0, ""

    def _struck(self, striker: Batter, style: str, attitude: str, zone: int, margin: int,
                cells: frozenset[tuple[int, int]], over: int, protected: bool,
                log: BallLog) -> tuple[int, str]:
        die = self.draws.die
        distance = die(8)
        if style == "pace" and margin >= 3 and distance < 6:
            distance += 1
        elif style == "spin" and margin < 3 and distance > 1:
            distance -= 1
        extra, red = BOUNCE[attitude][die(6) - 1]
        area = area_of(distance)
        catcher = (zone, area) in cells
        if red and catcher and not protected and die(6) >= CATCH_NEEDS[area]:
            log.out = "caught"
            return 0, "caught"
        if area == 4 and extra == 2 and not red:
            log.runs = log.boundary = 6
            striker.confidence = min(MAX_CONFIDENCE, striker.confidence + 1)
            return 6, ""
        final = distance + extra
        if final > 8:
            log.runs = log.boundary = 4
            striker.confidence = min(MAX_CONFIDENCE, striker.confidence + 1)
            return 4, ""
        stop = area_of(final)
        outfield = stop >= 3
        late = over > self.overs - 3
        if (zone, stop) in cells:
            # fielded: red = a risky extra run is on offer, green = the safe runs are taken
            safe = 1 if outfield else (0 if red else 1)
            if red and attitude == "aggressive" and over > self.overs - 6:
                return self._run(safe + 1, 6, log)
            log.runs = safe
            return safe, ""
        safe = 2 if outfield else 1
        if late and attitude == "aggressive":
            return self._run(safe + 1, 5, log)
        log.runs = safe
        return safe, ""

    def _run(self, attempted: int, out_from: int, log: BallLog) -> tuple[int, str]:
        """Batters try for `attempted` runs; a D6 of `out_from` or more runs one out (one run fewer)."""
        if self.draws.die(6) >= out_from:
            log.runs = attempted - 1
            log.out = "run out"
            return attempted - 1, "run out"
        log.runs = attempted
        return attempted, ""


def simulate(rng: np.random.Generator, n: int, squads: list[list[SquadPlayer]], overs: int = 20) -> pd.DataFrame:
    """n first innings; each between two squads drawn at random (the same squad twice when only
    one is given, as in the box where both sides share the player stats)."""
    draws = RandomDraws(rng)
    rows = []
    for _ in range(n):
        if len(squads) > 1:
            a, b = rng.choice(len(squads), size=2, replace=False)
        else:
            a = b = 0
        r = CtgInnings(draws, squads[a], squads[b], overs).play()
        rows.append((r.runs, r.wickets, r.fours, r.sixes, r.legal_balls))
    return pd.DataFrame(rows, columns=list(INNINGS_COLUMNS))
