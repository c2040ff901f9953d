"""The fast engine: the same rules as `cardgen.sim.reference`, one delivery at a time but for
thousands of innings at once (numpy arrays across matches, one "lane" per innings).

It draws the same dice (d6 card choice, 1-100 roll, chart d6 + d20, a fielder, a d20 chance) from
the one Generator, in bulk per step, so its results agree with the reference engine in
distribution (tested) though not ball for ball. Fielders are tracked only as far as the rules
need them (ratings); scorecards keep batters, bowlers per over/set, extras and phases.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen import wickets_in_hand as wih
from cardgen.sim import model as m
from cardgen.sim.model import CompiledSet, Side
from cardgen.wickets_in_hand import WicketsInHand

BIG = np.iinfo(np.int32).max // 2
SLOTS = 12  # 11 batters + one padding slot (never batting: the innings ends at 10 wickets)


def _table(pairs: dict[int, int], default: int = 0, dtype=np.int32) -> np.ndarray:
    t = np.full(m.N_CODES, default, dtype=dtype)
    for k, v in pairs.items():
        t[k] = v
    return t


BAT_RUNS = _table({r: r for r in (m.DOT, m.ONE, m.TWO, m.THREE, m.FOUR, m.SIX)})
EXTRAS = _table({m.LEG_BYE: 1, m.BYE: 1, m.WIDE: 1, m.NO_BALL: 1})
BOWLER_EXTRAS = _table({m.WIDE: 1, m.NO_BALL: 1})
LEGAL = _table({m.WIDE: 0, m.NO_BALL: 0}, default=1)
FACED = _table({m.WIDE: 0}, default=1)
STRIKER_OUT = _table({c: 1 for c in m.BOWLER_CREDITED})
# Per-result increments packed into one int64 so each delivery updates a batter, an over and
# the extras with one read-modify-write each (fields are far wider than an innings can fill).
BAT_SHIFT = {"runs": 0, "balls": 16, "fours": 32, "sixes": 40}
UNIT_SHIFT = {"runs": 0, "wickets": 16, "balls": 24}
EXTRA_SHIFT = {"wides": 0, "no_balls": 16, "byes": 32}
BAT_DELTA = (BAT_RUNS.astype(np.int64) + (FACED.astype(np.int64) << 16)
             + ((BAT_RUNS == 4).astype(np.int64) << 32) + ((BAT_RUNS == 6).astype(np.int64) << 40))
UNIT_DELTA = ((BAT_RUNS + BOWLER_EXTRAS).astype(np.int64) + (STRIKER_OUT.astype(np.int64) << 16)
              + (LEGAL.astype(np.int64) << 24))
EXTRA_DELTA = np.zeros(m.N_CODES, np.int64)
EXTRA_DELTA[m.WIDE] = 1
EXTRA_DELTA[m.NO_BALL] = 1 << 16
EXTRA_DELTA[m.LEG_BYE] = EXTRA_DELTA[m.BYE] = 1 << 32
# runs that make the batters cross: off the bat, or byes / leg byes
CROSSING_RUNS = BAT_RUNS + _table({m.LEG_BYE: 1, m.BYE: 1})


def _field(packed: np.ndarray, shift: int, bits: int = 16) -> np.ndarray:
    return ((packed >> shift) & ((1 << bits) - 1)).astype(np.int32)


FREE_HIT = np.arange(m.N_CODES, dtype=np.int8)
for _k, _v in m.FREE_HIT_MAP.items():
    FREE_HIT[_k] = _v


@dataclass
class Lanes:
    """Inputs for a batch of innings (one per lane)."""
    bat_cards: np.ndarray      # (L, SLOTS) striker-card rows in batting order
    catch: np.ndarray          # (L, 11) fielders' C ratings
    run_out: np.ndarray        # (L, 11) fielders' RO ratings
    keeper_slot: np.ndarray    # (L,)
    keeper_rating: np.ndarray  # (L,)
    plan: np.ndarray           # (L, units) bowler-card row per over / set
    target: np.ndarray         # (L,) runs to win, BIG when batting first

    def __len__(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> "Lanes":
        return Lanes(*(getattr(self, f)[rows] for f in
                       ("bat_cards", "catch", "run_out", "keeper_slot", "keeper_rating",
                        "plan", "target")))


@dataclass
class InningsBatch:
    """Scorecards of a batch of innings."""
    runs: np.ndarray
    wickets: np.ndarray
    legal_balls: np.ndarray
    wides: np.ndarray
    no_balls: np.ndarray
    byes: np.ndarray           # byes + leg byes
    phase_runs: np.ndarray     # (L, 3)
    phase_wickets: np.ndarray  # (L, 3) wickets falling in each phase
    bat_runs: np.ndarray       # (L, SLOTS)
    bat_balls: np.ndarray
    bat_fours: np.ndarray
    bat_sixes: np.ndarray
    bat_out: np.ndarray
    bat_in: np.ndarray         # came to the crease
    unit_runs: np.ndarray      # (L, units) conceded by the bowler of that over/set
    unit_wickets: np.ndarray
    unit_balls: np.ndarray     # legal balls in that over/set
    deliveries: int            # total deliveries simulated (for speed figures)


def resolve(lut: np.ndarray, fielding: np.ndarray, n_bowler_cards: int, bowler: np.ndarray,
            s_card: np.ndarray, free_hit: np.ndarray, card_d6: np.ndarray, roll: np.ndarray,
            chart_d6: np.ndarray, chart_d20: np.ndarray, chance: np.ndarray, *,
            catcher_c: np.ndarray, fielder_ro: np.ndarray, keeper_ro: np.ndarray,
            keeper_rating: np.ndarray, with_keeper: np.ndarray,
            rule: WicketsInHand | None = None, band: np.ndarray | None = None,
            rule_d20: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Dice (0-based d6/roll/d20 except `chance` and `rule_d20` 1-20) -> final result code and
    run-out flag. With `rule`, `band` is each lane's wickets-in-hand band (R12).

    Run-outs come back as DOT with the flag set (R4: no runs); the chart d6 (`chart_d6 < 3`)
    says whether the striker or the non-striker is out.
    """
    row = np.where(card_d6 < 3, bowler, n_bowler_cards + s_card)
    code = lut[row * 100 + roll]
    code = np.where(code == m.FIELD, fielding[chart_d6 * 20 + chart_d20], code)
    cc = code == m.CATCH_CHANCE
    if cc.any():                                            # 4.3.7: d20 <= C, else one run
        code = np.where(cc, np.where(chance <= catcher_c, m.CAUGHT, m.ONE), code)
    sc = code == m.STUMPING_CHANCE
    if sc.any():                                            # 4.3.6: d20 <= keeper, else dot
        code = np.where(sc, np.where(chance <= keeper_rating, m.STUMPED, m.DOT), code)
    run_out = code == m.RUN_OUT
    roc = code == m.RUN_OUT_CHANCE
    if roc.any():                                           # 4.3.8: both ratings with keeper
        made = (chance <= fielder_ro) & (~with_keeper | (chance <= keeper_ro))
        run_out |= roc & made
        code = np.where(roc & ~made, m.ONE, code)
    if rule is not None:
        code = apply_rule(rule, code, band, rule_d20)
    code = np.where(free_hit, FREE_HIT[code], code)         # R6: only a run-out stands
    return np.where(run_out, m.DOT, code), run_out


def apply_rule(rule: WicketsInHand, code: np.ndarray, band: np.ndarray,
               d20: np.ndarray) -> np.ndarray:
    """R12 on resolved codes (run-outs are not DOT here, so only real dots attack): attack turns
    a dot into caught / four / six on the d20; consolidate turns a bowler-credited dismissal
    into a dot and a four or six into a single on d20 <= consolidate_safe."""
    attack = (band == wih.ATTACK) & (code == m.DOT)
    code = np.where(attack & (d20 <= rule.attack_six),
                    np.where(d20 <= rule.attack_out, m.CARD_W,
                             np.where(d20 <= rule.attack_four, m.FOUR, m.SIX)), code)
    safe = (band == wih.CONSOLIDATE) & (d20 <= rule.consolidate_safe)
    code = np.where(safe & STRIKER_OUT[code].astype(bool), m.DOT,
                    np.where(safe & ((code == m.FOUR) | (code == m.SIX)), m.ONE, code))
    return code


def play_innings_batch(cs: CompiledSet, lanes: Lanes, rng: np.random.Generator, *,
                       max_balls: int | None = None, max_wickets: int = 10,
                       rule: WicketsInHand | None = None) -> InningsBatch:
    fmt = cs.fmt
    L = len(lanes)
    units = lanes.plan.shape[1]
    max_balls = fmt.balls_per_innings if max_balls is None else max_balls
    bpo, bpe = fmt.balls_per_over, fmt.balls_per_end
    n_bowler_cards = len(cs.bowler_lut)
    # one flat table: bowler cards first, then striker cards; and the fielding chart
    lut = np.concatenate([cs.bowler_lut, cs.striker_lut]).astype(np.int8).ravel()
    fielding = cs.fielding.astype(np.int8).ravel()
    phase_of = np.zeros(max_balls + 2, dtype=np.int64)
    edges = fmt.phase_edges
    ball_no = np.maximum(np.arange(max_balls + 2), 1)
    phase_of[:] = np.where(ball_no <= edges[0], 0, np.where(ball_no <= edges[1], 1, 2))
    if rule is not None:   # band by wickets down x legal balls bowled (left = innings - bowled)
        per_row = fmt.balls_per_innings + 1
        band_of = wih.band_table(rule, fmt.balls_per_innings)[:, ::-1].astype(np.int8).ravel()

    runs = np.zeros(L, np.int32)
    wickets = np.zeros(L, np.int32)
    legal = np.zeros(L, np.int32)
    extras_packed = np.zeros(L, np.int64)
    phase_runs = np.zeros(L * 3, np.int32)
    phase_wickets = np.zeros(L * 3, np.int32)
    striker = np.zeros(L, np.int32)
    non_striker = np.ones(L, np.int32)
    next_in = np.full(L, 2, np.int32)
    free_hit = np.zeros(L, bool)
    bat_packed = np.zeros(L * SLOTS, np.int64)
    bat_out = np.zeros(L * SLOTS, np.int32)
    bat_in = np.zeros(L * SLOTS, np.int32)
    bat_in.reshape(L, SLOTS)[:, :2] = 1
    unit_packed = np.zeros(L * units, np.int64)
    bat_cards = lanes.bat_cards.astype(np.int64).ravel()
    plan = lanes.plan.astype(np.int64).ravel()
    catch = lanes.catch.astype(np.int32).ravel()
    ro = lanes.run_out.astype(np.int32).ravel()
    kslot = lanes.keeper_slot.astype(np.int64)
    krating = lanes.keeper_rating.astype(np.int32)
    target = lanes.target.astype(np.int32)

    active = np.arange(L)
    deliveries = 0
    while len(active):
        n = len(active)
        deliveries += n
        i = active
        st = striker[i]
        nst = non_striker[i]
        lg = legal[i]
        unit = lg // bpo
        bowler = plan[i * units + unit]
        s_card = bat_cards[i * SLOTS + st]
        # the dice: card d6, 2d10, chart d6, chart d20, fielder, chance d20
        card_d6 = rng.integers(0, 6, n)
        roll = rng.integers(0, 100, n)
        chart_d6 = rng.integers(0, 6, n)
        chart_d20 = rng.integers(0, 20, n)
        pick = rng.random(n)
        chance = rng.integers(1, 21, n)
        if rule is not None:
            rule_d20 = rng.integers(1, 21, n)
            band = band_of[wickets[i] * per_row + lg]
        else:
            rule_d20 = band = None

        ks = kslot[i]
        with_keeper = (chart_d6 != 1) & (chart_d6 != 4)     # chart d6 1,3,4,6 (0-based 0,2,3,5)
        pick11 = (pick * 11).astype(np.int64)
        pick10 = (pick * 10).astype(np.int64)             # R3: the keeper's partner is another
        ro_fielder = np.where(with_keeper, pick10 + (pick10 >= ks), pick11)
        fh = free_hit[i]
        code, run_out = resolve(
            lut, fielding, n_bowler_cards, bowler, s_card, fh, card_d6, roll, chart_d6, chart_d20,
            chance, catcher_c=catch[i * 11 + pick11], fielder_ro=ro[i * 11 + ro_fielder],
            keeper_ro=ro[i * 11 + ks], keeper_rating=krating[i], with_keeper=with_keeper,
            rule=rule, band=band, rule_d20=rule_d20)
        b_runs = BAT_RUNS[code]
        is_legal = LEGAL[code]
        total = b_runs + EXTRAS[code]
        striker_out = STRIKER_OUT[code].astype(bool) | (run_out & (chart_d6 < 3))
        non_striker_out = run_out & (chart_d6 >= 3)

        runs[i] += total
        lg_after = lg + is_legal
        legal[i] = lg_after
        extras_packed[i] += EXTRA_DELTA[code]
        phase_runs[i * 3 + phase_of[lg_after]] += total
        bat_packed[i * SLOTS + st] += BAT_DELTA[code]
        unit_packed[i * units + unit] += UNIT_DELTA[code]

        out = striker_out | non_striker_out
        phase_wickets[i * 3 + phase_of[lg_after]] += out
        wk = wickets[i] + out
        wickets[i] = wk
        out_slot = np.where(striker_out, st, nst)
        bat_out[i * SLOTS + out_slot] += out
        nxt = next_in[i]
        comes_in = out & (wk < max_wickets)
        bat_in[i * SLOTS + np.minimum(nxt, SLOTS - 1)] |= comes_in
        st = np.where(striker_out & comes_in, nxt, st)      # R4/R5: new batter takes that end
        nst = np.where(non_striker_out & comes_in, nxt, nst)
        next_in[i] = nxt + comes_in
        swap = (CROSSING_RUNS[code] & 1).astype(bool)
        swap ^= (is_legal == 1) & (lg_after % bpe == 0)     # ends change every over / 10 balls
        striker[i] = np.where(swap, nst, st)
        non_striker[i] = np.where(swap, st, nst)
        free_hit[i] = (code == m.NO_BALL) | (fh & (code == m.WIDE))
        still = (wk < max_wickets) & (lg_after < max_balls) & (runs[i] < target[i])
        active = i[still]

    bat = bat_packed.reshape(L, SLOTS)
    unit_stats = unit_packed.reshape(L, units)
    return InningsBatch(
        runs=runs, wickets=wickets, legal_balls=legal,
        wides=_field(extras_packed, EXTRA_SHIFT["wides"]),
        no_balls=_field(extras_packed, EXTRA_SHIFT["no_balls"]),
        byes=_field(extras_packed, EXTRA_SHIFT["byes"]), phase_runs=phase_runs.reshape(L, 3),
        phase_wickets=phase_wickets.reshape(L, 3),
        bat_runs=_field(bat, BAT_SHIFT["runs"]), bat_balls=_field(bat, BAT_SHIFT["balls"]),
        bat_fours=_field(bat, BAT_SHIFT["fours"], 8), bat_sixes=_field(bat, BAT_SHIFT["sixes"], 8),
        bat_out=bat_out.reshape(L, SLOTS), bat_in=bat_in.reshape(L, SLOTS),
        unit_runs=_field(unit_stats, UNIT_SHIFT["runs"]),
        unit_wickets=_field(unit_stats, UNIT_SHIFT["wickets"], 8),
        unit_balls=_field(unit_stats, UNIT_SHIFT["balls"], 8), deliveries=deliveries)


@dataclass
class SideTable:
    """Sides stacked as arrays so a batch of matches can gather them by index."""
    bat_cards: np.ndarray      # (S, SLOTS)
    players: np.ndarray        # (S, 11) player indices in batting order
    catch: np.ndarray          # (S, 11)
    run_out: np.ndarray        # (S, 11)
    keeper_slot: np.ndarray    # (S,)
    keeper_rating: np.ndarray  # (S,)
    plans: np.ndarray          # (S, P, units)
    so_bowler: np.ndarray      # (S,)
    so_batters: np.ndarray     # (S, SLOTS): three batters then padding
    teams: list[str]

    @classmethod
    def build(cls, cs: CompiledSet, sides: list[Side]) -> "SideTable":
        from cardgen.sim.reference import keeper_rating_of
        n_plans = max(len(s.plans) for s in sides)
        pad = lambda xs: list(xs) + [xs[-1]] * (SLOTS - len(xs))  # noqa: E731
        return cls(
            bat_cards=np.array([pad(s.batters) for s in sides], np.int32),
            players=np.array([s.players for s in sides], np.int32),
            catch=np.array([[cs.catch[p] for p in s.players] for s in sides], np.int32),
            run_out=np.array([[cs.run_out[p] for p in s.players] for s in sides], np.int32),
            keeper_slot=np.array([s.keeper_slot for s in sides], np.int32),
            keeper_rating=np.array([keeper_rating_of(cs, s) for s in sides], np.int32),
            plans=np.array([[s.plans[k % len(s.plans)] for k in range(n_plans)] for s in sides],
                           np.int32),
            so_bowler=np.array([s.super_over_bowler for s in sides], np.int32),
            so_batters=np.array([pad(s.super_over_batters) for s in sides], np.int32),
            teams=[s.team for s in sides])

    def lanes(self, batting: np.ndarray, bowling: np.ndarray, plan_choice: np.ndarray,
              target: np.ndarray, super_over: bool = False) -> Lanes:
        if super_over:
            bat, plan = self.so_batters[batting], self.so_bowler[bowling][:, None]
        else:
            bat, plan = self.bat_cards[batting], self.plans[bowling, plan_choice]
        return Lanes(bat_cards=bat, catch=self.catch[bowling], run_out=self.run_out[bowling],
                     keeper_slot=self.keeper_slot[bowling],
                     keeper_rating=self.keeper_rating[bowling], plan=plan, target=target)


@dataclass
class MatchBatch:
    home: np.ndarray           # side index batting first
    away: np.ndarray
    first: InningsBatch
    second: InningsBatch
    first_plan: np.ndarray     # (M, units) bowler cards used in each innings
    second_plan: np.ndarray
    winner: np.ndarray         # side index, -1 for a tie after every super over
    super_overs: np.ndarray    # super overs played per match
    deliveries: int


MAX_SUPER_OVERS = 5


def play_matches(cs: CompiledSet, table: SideTable, home: np.ndarray, away: np.ndarray,
                 rng: np.random.Generator, rule: WicketsInHand | None = None) -> MatchBatch:
    """Full matches, `home[k]` batting first against `away[k]`; ties go to super overs (R8),
    played as printed; `rule` the wickets-in-hand rule for the two innings (None: classic)."""
    M = len(home)
    n_plans = table.plans.shape[1]
    plan1 = rng.integers(0, n_plans, M)
    plan2 = rng.integers(0, n_plans, M)
    first = play_innings_batch(cs, table.lanes(home, away, plan1, np.full(M, BIG)), rng, rule=rule)
    second = play_innings_batch(cs, table.lanes(away, home, plan2, first.runs + 1), rng, rule=rule)
    winner = np.where(second.runs > first.runs, away, home)
    tied = np.flatnonzero(second.runs == first.runs)
    supers = np.zeros(M, np.int32)
    deliveries = first.deliveries + second.deliveries
    bat_first, bat_second = away.copy(), home.copy()   # 3.7.1: second-innings side bats first
    balls = cs.fmt.balls_per_over
    for _ in range(MAX_SUPER_OVERS):
        if not len(tied):
            break
        supers[tied] += 1
        zeros = np.zeros(len(tied), np.int64)
        a, b = bat_first[tied], bat_second[tied]
        so1 = play_innings_batch(cs, table.lanes(a, b, zeros, np.full(len(tied), BIG), True),
                                 rng, max_balls=balls, max_wickets=2)
        so2 = play_innings_batch(cs, table.lanes(b, a, zeros, so1.runs + 1, True),
                                 rng, max_balls=balls, max_wickets=2)
        deliveries += so1.deliveries + so2.deliveries
        winner[tied] = np.where(so1.runs > so2.runs, a, b)
        still = so1.runs == so2.runs
        bat_first[tied], bat_second[tied] = b, a
        tied = tied[still]
    winner[tied] = -1
    return MatchBatch(home=home, away=away, first=first, second=second,
                      first_plan=table.plans[away, plan1], second_plan=table.plans[home, plan2],
                      winner=winner, super_overs=supers, deliveries=deliveries)
