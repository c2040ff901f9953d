"""The fast engine: the same rules as `cardgen.sim.reference`, one delivery at a time but for
thousands of innings at once (numpy arrays across matches, one "lane" per innings).

It draws the same dice (d6 card choice, 1-100 roll, chart d6 + d20, a fielder, a d20 chance) from
the one Generator, in bulk per step, and resolves them as the reference engine does (the chance
d20 doubles as R13's Defence d20: that is rolled only on a W read from the bowler's card, a ball
on which no chance is read, so a card set with Defence ratings draws the same dice): given the
same dice, an innings goes ball for ball the same (tested); with one Generator shared by every
innings the two engines' results agree in distribution. Fielders are tracked only as far as the rules
need them (ratings); scorecards keep batters, bowlers per over/set, extras and phases.

The per-delivery bookkeeping runs compiled (`fast_compiled`, numba) when the `fast` extra is
installed and the process plays enough to pay for numba's start (COMPILE_AFTER_DELIVERIES), else
as numpy array operations; either way the dice are the same calls in the same order on the one
Generator (compiled, numba's Generator draws them), so both paths play the same matches from
the same seed (tested).
"""
from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from cardgen import options
from cardgen import wickets_in_hand as wih
from cardgen.options import ENGINE_ENV
from cardgen.sim import model as m
from cardgen.sim.dice import NO_DICE, draw_dice
from cardgen.sim.model import CompiledSet, Side
from cardgen.wickets_in_hand import WicketsInHand

BIG = np.iinfo(np.int32).max // 2
# the chase table of a rule without one (wickets_in_hand.WicketsInHand.chase_table): no edge, one
# row of cells that read the table
_NO_CHASE = (np.zeros(0, np.float64), np.full(11, -1, np.int8))
SLOTS = 12  # 11 batters + one padding slot (never batting: the innings ends at 10 wickets)


def _table(pairs: dict[int, int], default: int = 0, dtype: type = np.int32) -> np.ndarray:
    t: np.ndarray = np.full(m.N_CODES, default, dtype=dtype)
    for k, v in pairs.items():
        t[k] = v
    return t


BAT_RUNS = _table({r: r for r in (m.DOT, m.ONE, m.TWO, m.THREE, m.FOUR, m.SIX)})
EXTRAS = _table({m.LEG_BYE: 1, m.BYE: 1, m.LEG_BYE_4: 4, m.BYE_4: 4, m.WIDE: 1, m.NO_BALL: 1})
BOWLER_EXTRAS = _table({m.WIDE: 1, m.NO_BALL: 1})
LEGAL = _table({m.WIDE: 0, m.NO_BALL: 0}, default=1)
FACED = _table({m.WIDE: 0}, default=1)
STRIKER_OUT = _table({c: 1 for c in m.BOWLER_CREDITED})
EXTRA_DELTA = np.zeros(m.N_CODES, np.int64)    # wides, no-balls, bye + leg-bye runs, 16 bits each
EXTRA_DELTA[m.WIDE] = 1
EXTRA_DELTA[m.NO_BALL] = 1 << 16
EXTRA_DELTA[m.LEG_BYE] = EXTRA_DELTA[m.BYE] = 1 << 32
EXTRA_DELTA[m.LEG_BYE_4] = EXTRA_DELTA[m.BYE_4] = 4 << 32
# runs that make the batters cross: off the bat, or byes / leg byes
CROSSING_RUNS = BAT_RUNS + _table({m.LEG_BYE: 1, m.BYE: 1})


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
    # the sides' tables these rows were gathered from (SideTable.lanes), or None: the compiled
    # path reads a wicket's new batter and a chance's fielder from the small tables (the
    # lanes' own rows are too big for the CPU's cache)
    sides: LaneSides | None = None

    def __len__(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> Lanes:
        sides = None if self.sides is None else LaneSides(
            self.sides.batting[rows], self.sides.fielding[rows], *self.sides.tables())
        return Lanes(self.bat_cards[rows], self.catch[rows], self.run_out[rows],
                     self.keeper_slot[rows], self.keeper_rating[rows], self.plan[rows],
                     self.target[rows], sides=sides)


@dataclass
class LaneSides:
    """Which side bats and which fields in each lane, and the tables by side (S sides) that
    Lanes' rows were gathered from: `bat_cards[batting]` is Lanes.bat_cards, and so on."""
    batting: np.ndarray        # (L,) side index
    fielding: np.ndarray       # (L,)
    bat_cards: np.ndarray      # (S, SLOTS)
    catch: np.ndarray          # (S, 11)
    run_out: np.ndarray        # (S, 11)
    keeper_slot: np.ndarray    # (S,)
    keeper_rating: np.ndarray  # (S,)

    def tables(self) -> tuple[np.ndarray, ...]:
        return (self.bat_cards, self.catch, self.run_out, self.keeper_slot, self.keeper_rating)


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
            catcher_c: np.ndarray | float, fielder_ro: np.ndarray, keeper_ro: np.ndarray | float,
            keeper_rating: np.ndarray | float, with_keeper: np.ndarray,
            rule: WicketsInHand | None = None, band: np.ndarray | None = None,
            rule_d20: np.ndarray | None = None,
            defence: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Dice (0-based d6/roll/d20 except `chance` and `rule_d20` 1-20) -> final result code and
    run-out flag. With `rule`, `band` is each lane's wickets-in-hand band (R12); `defence` the
    striker card's Defence rating by lane (R13, 0 = none; None: no card has one).

    Run-outs come back as DOT with the flag set (R4: no runs); the chart d6 (`chart_d6 < 3`)
    says whether the striker or the non-striker is out. The Defence d20 is `chance`: only a
    fielding-chart result reads the chance die, and a Defence roll comes only with a W read from
    the bowler's card, never with an F, so on its balls the die is unused and independent.
    """
    row = np.where(card_d6 < 3, bowler, n_bowler_cards + s_card)
    card_code = lut[row * 100 + roll]
    code = np.where(card_code == m.FIELD, fielding[chart_d6 * 20 + chart_d20], card_code)
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
    if defence is not None:                                 # R13: the bowler card's W, survived
        saved = (card_d6 < 3) & (card_code == m.CARD_W) & (chance <= defence)
        code = np.where(saved, m.DOT, code)                 # -> a dot (and R12 plays a dot)
    if rule is not None:
        assert band is not None and rule_d20 is not None, "a rule is played with its bands and d20"
        code = apply_rule(rule, code, band, rule_d20)
    code = np.where(free_hit, FREE_HIT[code], code)         # R6: only a run-out stands
    return np.where(run_out, m.DOT, code), run_out


def apply_rule(rule: WicketsInHand, code: np.ndarray, band: np.ndarray,
               d20: np.ndarray) -> np.ndarray:
    """R12 on resolved codes (run-outs are not DOT here, so only real dots attack): attack turns
    a dot into caught / four / six on the d20; consolidate turns a catch into a dot and a four
    or six into a single on d20 <= consolidate_safe."""
    attack = (band == wih.ATTACK) & (code == m.DOT)
    code = np.where(attack, _attack_table(rule).take(d20), code)  # past attack_six: still a dot
    safe = (band == wih.CONSOLIDATE) & (d20 <= rule.consolidate_safe)
    return np.where(safe, _consolidate_map(rule).take(code), code)


# Per-code tables for the innings loop (index = result code after resolution). Each innings
# keeps three running words: one per batter at the crease (his figures, his slot and his
# chart row) and one for the over in progress (the bowler's figures and its legal balls, on
# top, so `word >= bpo << OVER_BALLS_SHIFT` is the end of the over); one table read and one add
# a word per delivery.
TOTAL = (BAT_RUNS + EXTRAS).astype(np.int64)              # runs a delivery adds to the total
SWAP_MASK = -(CROSSING_RUNS & 1).astype(np.int64)         # all ones on an odd number of runs run
OUT_CODE = STRIKER_OUT.astype(bool)
# a batter's word: runs, balls faced, fours, sixes | batting slot | chart row (x100)
BAT_FIELDS = {"runs": (0, 12), "balls": (12, 10), "fours": (22, 8), "sixes": (30, 8)}
BAT_FIGURES = (1 << 38) - 1
SLOT_SHIFT, CHART_SHIFT = 38, 42
SLOT_MASK = 15
MAX_CHART_ROW = 1 << (63 - CHART_SHIFT)
BAT_WORD_DELTA = (BAT_RUNS.astype(np.int64) + (FACED.astype(np.int64) << 12)
                  + ((BAT_RUNS == 4).astype(np.int64) << 22) + ((BAT_RUNS == 6).astype(np.int64) << 30))
# an over's word: runs conceded, wickets, wides, no-balls, byes + leg byes | legal balls
# (every wicket falls to a legal ball, so the over says which phase it fell in: "fallen"
# counts run-outs too, added where they happen)
OVER_FIELDS = {"runs": (0, 12), "wickets": (12, 4), "wides": (16, 10), "no_balls": (26, 10),
               "byes": (36, 8), "fallen": (44, 4), "balls": (48, 4)}
FALLEN_SHIFT = 44
OVER_BALLS_SHIFT = 48
OVER_WORD_DELTA = ((BAT_RUNS + BOWLER_EXTRAS).astype(np.int64)
                   + (STRIKER_OUT.astype(np.int64) << 12) + ((EXTRA_DELTA & 0xFFFF) << 16)
                   + (((EXTRA_DELTA >> 16) & 0xFFFF) << 26) + (((EXTRA_DELTA >> 32) & 0xFFFF) << 36)
                   + (STRIKER_OUT.astype(np.int64) << FALLEN_SHIFT)
                   + (LEGAL.astype(np.int64) << OVER_BALLS_SHIFT))
LEGAL64 = LEGAL.astype(np.int64)
LAST_OVER = 1    # the end of an over: the innings' last (bit 0), phase edge k (bit k + 1)
NOT_LEGAL = LEGAL == 0


SAVED_CODES = {"caught": [m.CARD_W, m.CAUGHT], "bowled": [m.BOWLED], "lbw": [m.LBW],
               "stumped": [m.STUMPED]}


def _consolidate_map(rule: WicketsInHand) -> np.ndarray:
    """Code -> what it becomes when the consolidate band's d20 plays safe (R12): a catch is a
    dot; fours and sixes become singles only if the rule says so."""
    t = np.arange(m.N_CODES, dtype=np.int64)
    for kind in rule.consolidate_saves:
        t[SAVED_CODES[kind]] = m.DOT
    if rule.consolidate_boundaries:
        t[[m.FOUR, m.SIX]] = m.ONE
    return t

FREE_HIT_MAP = FREE_HIT.astype(np.int64)


def _attack_table(rule: WicketsInHand) -> np.ndarray:
    """d20 (1-20) -> what a dot becomes in the attack band (the dot itself past attack_six)."""
    d = np.arange(21)
    return np.where(d <= rule.attack_bowled, m.BOWLED, np.where(d <= rule.attack_out, m.CARD_W, np.where(
        d <= rule.attack_four, m.FOUR, np.where(d <= rule.attack_six, m.SIX, m.DOT)))).astype(np.int64)


# rows of the live-innings state matrix (one column per live innings; see play_innings_batch):
# the striker's word, the over's word and the total come first, so that one add of a
# (3 x innings) table read updates them all; the target and the legal balls last, kept only
# when chasing and with the rule
(_STRIKER, _OVER_WORD, _RUNS, _NON_STRIKER, _BOWLER_ROW, _LANE12, _OVER_ROW, _WICKETS, _TARGET,
 _LEGAL) = range(10)
_STATE_ROWS = 10
STEP_DELTA = np.stack([BAT_WORD_DELTA, OVER_WORD_DELTA, TOTAL])


def _word_field(words: np.ndarray, field: tuple[int, int]) -> np.ndarray:
    shift, bits = field
    return ((words >> shift) & ((1 << bits) - 1)).astype(np.int32)


ENGINE_VARIABLE = ENGINE_ENV   # CARDGEN_ENGINE (RunOptions.engine first): "numpy" | "numba"
# Unset, a process plays on the numpy path until it has played this many deliveries, then on the
# compiled path (when numba is installed): numba's one-off start (~1 s of CPU and ~100 MB, its
# import and first use) costs what compiling saves over ~20-30M deliveries (~45 ns each, about
# 240 a T20 match: benchmarks/bench_sim.py), so smaller runs never pay it; at 30M, `simulate
# --seasons 1000` (~20M deliveries) keeps numpy's peak memory (benchmarks/bench_memory.py). Both
# paths play the same matches, so switching between batches changes nothing but the time.
COMPILE_AFTER_DELIVERIES = 30_000_000


class _Warmup:
    """What this process has played on the numpy path (the compile pays for itself past
    COMPILE_AFTER_DELIVERIES): a property of the process, not an option of a command."""

    numpy_deliveries = 0


WARMUP = _Warmup()


def compiled_engine() -> ModuleType | None:
    """The compiled per-delivery bookkeeping (`cardgen.sim.fast_compiled`, numba: the `fast`
    extra) when it loads, else None; CARDGEN_ENGINE=numpy: None without trying.

    Loaded when first asked for, not on import (numba's import alone is ~0.3 s); a numba that
    is missing, or that cannot compile or load its cached code here, leaves the numpy path
    without a word: both play the same matches from the same seed."""
    if options.current().engine_choice == "numpy":
        return None
    return _load_kernel()


@functools.cache
def _load_kernel() -> ModuleType | None:
    """`cardgen.sim.fast_compiled`, loaded once a process; None if it cannot load."""
    try:
        with warnings.catch_warnings():     # (numba warns when it cannot write its cache)
            warnings.simplefilter("ignore")
            from cardgen.sim import fast_compiled
        return fast_compiled
    except Exception:   # ImportError, or numba's / LLVM's own errors while compiling
        return None


def _engine_for_batch() -> ModuleType | None:
    """The compiled kernel if this batch plays compiled (CARDGEN_ENGINE, or past
    COMPILE_AFTER_DELIVERIES on the numpy path), else None."""
    choice = options.current().engine_choice
    if choice == "numpy" or (choice != "numba" and WARMUP.numpy_deliveries < COMPILE_AFTER_DELIVERIES):
        return None
    return compiled_engine()


def _play_compiled(kernel: ModuleType, fmt: m.Format, lanes: Lanes, rng: np.random.Generator,
                   rule: WicketsInHand | None, *, lut: np.ndarray, fielding: np.ndarray,
                   n_bowler_cards: int, defence_of_row: np.ndarray | None, edge_overs: list[int],
                   max_balls: int, max_wickets: int) -> InningsBatch | None:
    """play_innings_batch's loop with the bookkeeping compiled: the same dice from `rng` (the
    same calls, sizes and order as the numpy path), each step's handed to the kernel, which
    keeps the numpy path's words; the scorecards are read from them in one compiled pass.
    None (before any draw) when a fielder's rating does not fit the kernel's bytes.

    The tables read at random (ratings, batters' chart rows) are the sides' (Lanes.sides),
    small enough to stay in the CPU's cache: by lane, each wicket or fielding chance waited
    on memory."""
    L, units = len(lanes), lanes.plan.shape[1]
    bpo, bpe = fmt.balls_per_over, fmt.balls_per_end
    if lanes.sides is not None:
        sides = lanes.sides
    else:               # each lane its own side
        lane_ids = np.arange(L)
        sides = LaneSides(lane_ids, lane_ids, lanes.bat_cards, lanes.catch, lanes.run_out,
                          lanes.keeper_slot, lanes.keeper_rating)
    n_sides = len(sides.keeper_slot)
    if n_sides > kernel.MAX_SIDES:
        return None
    int8_tables = []
    for values, width in ((sides.catch, 11), (sides.run_out, 11), (sides.keeper_slot, 0),
                          (sides.keeper_rating, 0)):
        values = np.asarray(values)
        if values.size and (values.min() < -128 or values.max() > 127):
            return None
        if width:
            padded = np.zeros((n_sides, SLOTS), np.int8)
            padded[:, :width] = values
            values = padded
        int8_tables.append(np.ascontiguousarray(values, np.int8).ravel())
    catch, ro, keeper_slot, keeper_rating = int8_tables
    batter_rows = ((np.asarray(sides.bat_cards, np.int32) + n_bowler_cards) * 100).ravel()
    over_no = np.arange(1, units + 1)                   # overs bowled at its end
    over_events = (((over_no == max_balls // bpo) * kernel.LAST_OVER)
                   | (((over_no * bpo) % bpe == 0) * kernel.ENDS_CHANGE)).astype(np.int64)
    for k, e in enumerate(edge_overs):
        over_events |= (over_no == e).astype(np.int64) << (kernel.EDGE_BIT + k)
    if rule is not None:
        per_row = fmt.balls_per_innings + 1
        band_of = np.ascontiguousarray(
            wih.band_table(rule, fmt.balls_per_innings)[:, ::-1].astype(np.int8).ravel())
        attack_of, consolidate_of = _attack_table(rule), _consolidate_map(rule)
        chase = rule.chase_table()
        chase_rule = chase is not None
        # (copies: the kernel's signature takes writable arrays, the rule's are read-only)
        chase_edges, chase_cells = (a.copy() for a in (chase if chase is not None else _NO_CHASE))
        consolidate_safe = int(rule.consolidate_safe)
    else:
        per_row, consolidate_safe, chase_rule = 0, 0, False
        chase_edges, chase_cells = (a.copy() for a in _NO_CHASE)
        band_of = np.zeros(1, np.int8)
        attack_of = consolidate_of = np.zeros(m.N_CODES, np.int64)
    # bowlers' chart rows and overs' words over by over (a row per over, a column per lane):
    # the innings that end an over in one step are mostly in the same over, so their reads
    # and writes fall close together (by lane they missed the cache)
    plan_by_over = np.zeros((units + 1, L), np.int64)
    plan_by_over[:units] = lanes.plan.T
    plan_by_over *= 100
    overs_by_over = np.zeros((units, L), np.int64)
    final_runs = np.zeros(L, np.int64)
    final_wickets = np.zeros(L, np.int64)
    bat = np.zeros(L * SLOTS, np.int64)          # batters' figures (words) by lane x SLOTS + slot
    at_edge = np.full((len(edge_overs), L), -1, np.int64)  # total when it passed each edge
    st = kernel.new_state(batter_rows, sides.batting, sides.fielding, plan_by_over[0],
                          lanes.target)
    bat_out8 = np.zeros(L * SLOTS, np.int8)
    codes = kernel.code_table(BAT_WORD_DELTA, OVER_WORD_DELTA, TOTAL, SWAP_MASK, LEGAL64,
                              OUT_CODE, FREE_HIT_MAP)
    with_defence = defence_of_row is not None
    defence_of = np.ascontiguousarray(defence_of_row if with_defence else np.zeros(1), np.int8)
    tables = (lut, fielding, catch, ro, keeper_slot, keeper_rating, with_defence, defence_of,
              batter_rows, plan_by_over, codes, over_events,
              rule is not None, band_of, per_row, attack_of, consolidate_of, consolidate_safe,
              chase_rule, chase_edges, chase_cells, fmt.balls_per_innings,
              bpo << OVER_BALLS_SHIFT, max_wickets,
              bat, bat_out8, overs_by_over, at_edge, final_runs, final_wickets)
    if type(rng) is np.random.Generator:
        # the whole innings compiled, dice included: numba's Generator draws the numpy path's
        # numbers (the same calls, sizes and order, from the same bit generator) at ~2/3 of
        # numpy's cost, without a call from Python per step
        deliveries = kernel.play_innings(rng, st, *tables)
    else:       # a stand-in for a Generator (benchmarks record the draws): step by step
        n, deliveries = L, 0
        while n:
            deliveries += n
            n = kernel.play_step(n, st, *draw_dice(rng, n, rule is not None, NO_DICE), *tables)

    balls = np.maximum(np.arange(max_balls + 1), 1)   # legal balls after the delivery
    phase_of = np.where(balls <= fmt.phase_edges[0], 0, np.where(balls <= fmt.phase_edges[1], 1, 2))
    over_phase = phase_of.take(np.minimum(np.arange(units) * bpo + 1, max_balls)).astype(np.int64)
    # (empty: the scorecard pass writes every figure)
    per_lane = [np.empty(L, np.int32) for _ in range(6)]
    by_phase = [np.empty((L, 3), np.int32) for _ in range(2)]
    by_slot = [np.empty((L, SLOTS), np.int32) for _ in range(6)]
    by_unit = [np.empty((L, units), np.int32) for _ in range(3)]
    kernel.scorecards(bat, bat_out8, overs_by_over, at_edge, final_runs, final_wickets,
                      max_wickets, over_phase, *per_lane, *by_phase, *by_slot, *by_unit)
    runs, wickets, legal_balls, wides, no_balls, byes = per_lane
    bat_runs, bat_balls, bat_fours, bat_sixes, bat_out, bat_in = by_slot
    unit_runs, unit_wickets, unit_balls = by_unit
    return InningsBatch(
        runs=runs, wickets=wickets, legal_balls=legal_balls, wides=wides, no_balls=no_balls,
        byes=byes, phase_runs=by_phase[0], phase_wickets=by_phase[1], bat_runs=bat_runs,
        bat_balls=bat_balls, bat_fours=bat_fours, bat_sixes=bat_sixes, bat_out=bat_out,
        bat_in=bat_in, unit_runs=unit_runs, unit_wickets=unit_wickets, unit_balls=unit_balls,
        deliveries=deliveries)


def play_innings_batch(cs: CompiledSet, lanes: Lanes, rng: np.random.Generator, *,
                       max_balls: int | None = None, max_wickets: int = 10,
                       rule: WicketsInHand | None = None,
                       defence: bool | None = None) -> InningsBatch:
    """Play a batch of innings to the end, one delivery a step for every live innings.

    `rule`: the wickets-in-hand rule of the advanced rules (R12; None: as printed); `defence`:
    whether the striker cards' Defence ratings are played (R13: the advanced rules only;
    None: with the rule, that is whenever the innings is played by the advanced rules).

    Compiled (`_play_compiled`) when this batch plays compiled, else on the numpy path
    (`_NumpyBatch`); both play the same innings from the same dice. The rules and the dice are
    those of `resolve` and the reference engine, ball for ball (tests/test_sim_engine.py), and
    the same dice reach the same innings as in the a10837f engine: the same seed plays the
    same matches.
    """
    setup = _BatchSetup.of(cs, lanes, max_balls, max_wickets, rule, defence)
    compiled = _engine_for_batch()
    if compiled is not None:
        played = _play_compiled(
            compiled, setup.fmt, lanes, rng, rule, lut=setup.lut, fielding=setup.fielding,
            n_bowler_cards=setup.n_bowler_cards, defence_of_row=setup.defence_of_row,
            edge_overs=setup.edge_overs, max_balls=setup.max_balls, max_wickets=max_wickets)
        if played is not None:
            return played
    return _NumpyBatch(setup, lanes).play(rng)


@dataclass(frozen=True)
class _BatchSetup:
    """What a batch of innings is played with, on either path: its checked limits, the card
    and chart tables, the phase edges it can pass and the rules' switches."""

    fmt: m.Format
    max_balls: int
    max_wickets: int
    n_bowler_cards: int
    lut: np.ndarray             # bowler cards' chart rows, then striker cards' (x100 + roll)
    fielding: np.ndarray        # the fielding chart, d6 x 20 + d20
    edges: list[int]            # the phase edges (legal balls) this innings can pass
    edge_overs: list[int]       # ... as the over they end
    defence_of_row: np.ndarray | None   # R13's rating by chart row (None: Defence not played)
    rule: WicketsInHand | None

    @classmethod
    def of(cls, cs: CompiledSet, lanes: Lanes, max_balls: int | None, max_wickets: int,
           rule: WicketsInHand | None, defence: bool | None) -> _BatchSetup:
        fmt = cs.fmt
        units = lanes.plan.shape[1]
        max_balls = fmt.balls_per_innings if max_balls is None else max_balls
        bpo = fmt.balls_per_over
        if max_balls % bpo or max_balls > units * bpo or not 0 < max_wickets < SLOTS - 1:
            raise ValueError("an innings is whole overs, each with a bowler in the plan, "
                             "and ends at fewer wickets than batters")
        n_bowler_cards = len(cs.bowler_lut)
        # one flat table: bowler cards first, then striker cards (int64: the codes index tables)
        lut = np.concatenate([cs.bowler_lut, cs.striker_lut]).astype(np.int64).ravel()
        if lut.max(initial=0) > m.FIELD:
            raise ValueError("a card can only hold card results (B, W, F, runs)")
        if len(lut) >= MAX_CHART_ROW:
            raise ValueError("too many cards for the engine's chart rows")
        edges = [e for e in fmt.phase_edges if e < max_balls]
        if any(e % bpo for e in edges):
            raise ValueError("phase edges must fall at the end of an over")
        # R13: each chart row's Defence rating (bowler cards' rows 0), read by the striker's
        # word; the advanced rules' alone (rule_sets): the Quicket rules never roll the die
        with_defence = cs.has_defence and (rule is not None if defence is None else defence)
        defence_of_row = np.concatenate([np.zeros(n_bowler_cards, np.int64),
                                         cs.striker_defence.astype(np.int64)])
        return cls(fmt, max_balls, max_wickets, n_bowler_cards, lut,
                   cs.fielding.astype(np.int64).ravel(), edges, [e // bpo for e in edges],
                   defence_of_row if with_defence else None, rule)


class _NumpyBatch:
    """play_innings_batch's numpy path: a batch's tables and the state of its live innings,
    played one step (a delivery for every live innings) at a time.

    Live innings are kept in order in the first columns of one state matrix (a row per
    quantity, a column per innings; an innings that ends leaves its final state at the end).
    Each batter at the crease is one int64 word (his figures, slot and chart row: a change of
    ends swaps two words) and the over in progress another (the bowler's figures, its legal
    balls on top), so a delivery is a chart lookup, one table read added to the running sums,
    and the swap of ends, across the live innings. Everything rarer is worked out on the
    innings that have it: the fielding chart and its chances, wickets, free hits, and the end
    of an over (its word to the scorecard, the next bowler, ends, the total at a phase edge,
    the last over).
    """

    def __init__(self, setup: _BatchSetup, lanes: Lanes) -> None:
        self.setup = setup
        fmt, rule = setup.fmt, setup.rule
        self.rule = rule
        self.lut, self.fielding = setup.lut, setup.fielding
        self.defence_of_row = setup.defence_of_row
        self.max_wickets = setup.max_wickets
        self.L = L = len(lanes)
        self.units = units = lanes.plan.shape[1]
        self.bpo = bpo = fmt.balls_per_over
        self.bpe = fmt.balls_per_end
        self.over_end = np.int64(bpo) << OVER_BALLS_SHIFT
        if rule is not None:   # band by wickets down x legal balls bowled (left = innings - bowled)
            self.per_row = fmt.balls_per_innings + 1
            self.band_of = wih.band_table(rule, fmt.balls_per_innings)[:, ::-1].astype(np.int8).ravel()
            self.attack_of = _attack_table(rule)
            self.consolidate_of = _consolidate_map(rule)
        # a fresh batter's word by lane x SLOTS + slot: his slot and chart row (x100, striker
        # cards after the bowler cards); the bowler's chart row by lane x units + over (one
        # spare at the end: the over after an innings' last); what the end of each over brings
        slots = np.tile(np.arange(SLOTS, dtype=np.int64), L)
        self.fresh = ((((lanes.bat_cards.astype(np.int64).ravel() + setup.n_bowler_cards) * 100)
                       << CHART_SHIFT) | (slots << SLOT_SHIFT))
        self.plan_rows = np.append(lanes.plan.astype(np.int64).ravel() * 100, 0)
        self.bat = np.zeros(L * SLOTS, np.int64)      # batters' figures (words) by lane x SLOTS + slot
        self.bat_out = np.zeros(L * SLOTS, np.int32)
        self.over_words = np.zeros(L * units + 1, np.int64)   # each over's word by lane x units + over
        self.at_edge = np.full((len(setup.edge_overs), L), -1, np.int64)  # total when it passed each edge
        # fielders' ratings by lane x SLOTS + fielder
        catch = np.zeros((L, SLOTS), np.int64)
        catch[:, :11] = lanes.catch
        self.catch = catch.ravel()
        ro = np.zeros((L, SLOTS), np.int64)
        ro[:, :11] = lanes.run_out
        self.ro = ro.ravel()
        self.kslot_all = lanes.keeper_slot.astype(np.int64)
        self.krating_all = lanes.keeper_rating.astype(np.int64)
        self._over_tables(setup)
        self.chasing = chasing = bool((lanes.target < BIG).any())
        chase = rule.chase_table() if rule is not None else None
        self.chase_rule = chasing and chase is not None
        self.chase_edges: np.ndarray
        self.chase_cells: np.ndarray
        self.chase_edges, self.chase_cells = chase if chase is not None else _NO_CHASE
        self.rows = _LEGAL + 1 if rule is not None else _TARGET + 1 if chasing else _TARGET
        # no chase can end before its smallest target is in reach (at most 6 a delivery)
        self.first_chase_step = int(lanes.target.min(initial=BIG)) // 6 if chasing else 0
        self.edges_passed = self.edges_done = 0   # edges some innings / every live innings has passed
        self.state = state = np.zeros((_STATE_ROWS, L), np.int64)
        self.lane_ids = lane_ids = np.arange(L)
        state[_LANE12] = lane_ids * SLOTS
        state[_STRIKER] = self.fresh[lane_ids * SLOTS]
        state[_NON_STRIKER] = self.fresh[lane_ids * SLOTS + 1]
        state[_OVER_ROW] = lane_ids * units
        state[_BOWLER_ROW] = self.plan_rows[lane_ids * units]
        state[_TARGET] = lanes.target
        self.free_hits = lane_ids[:0]   # columns whose next delivery is a free hit
        self.deliveries = 0
        self.step = 0
        self.n = L

    def _over_tables(self, setup: _BatchSetup) -> None:
        """What the end of an over brings, by the over that ended (lane x units + over; a spare
        at the end): ends change, the innings' end, phase edge k passed."""
        L, units, bpo = self.L, self.units, self.bpo

        def per_over(flags: np.ndarray) -> np.ndarray:
            return np.append(np.tile(flags, L), flags.dtype.type(0))
        over_no = np.arange(1, units + 1)                   # overs bowled at its end
        self.ends_change = per_over((over_no * bpo) % self.bpe == 0)
        self.at_edge_of = [per_over(over_no == e) for e in setup.edge_overs]
        self.over_events = per_over(((over_no == setup.max_balls // bpo) * LAST_OVER + sum(
            (over_no == e) << (k + 1) for k, e in enumerate(setup.edge_overs))).astype(np.int8))

    def play(self, rng: np.random.Generator) -> InningsBatch:
        while self.n:
            self._step(rng)
        return self._finish()

    def _step(self, rng: np.random.Generator) -> None:
        """One delivery for every live innings: the dice, the result, the running sums, then
        what is rarer on the innings that have it (wickets, the end of an over, a chase won);
        the innings that end close up."""
        n = self.n
        S = self.state[:, :n]
        E0, U, R, E1, brow, lane12, ou, wickets, target, legal = S
        rule = self.rule
        self.deliveries += n
        self.step += 1
        card_d6, roll, chart_d6, chart_d20, pick, chance, rule_d20 = draw_dice(
            rng, n, rule is not None, NO_DICE)

        code, rare, rare_code, is_out, run_out, run_outs = self._results(
            S, card_d6, roll, chart_d6, chart_d20, pick, chance, rule_d20)
        self.free_hits = self._next_free_hits(code, rare, rare_code)

        # running sums: the striker's figures, the over's, the total (and legal balls, R12)
        S[:3] += STEP_DELTA.take(code, axis=1)
        if rule is not None:
            legal += LEGAL64.take(code)
        if self.edges_done < self.edges_passed:
            self._extras_before_edges(code, rare, rare_code, U, ou, lane12)
        ended: list[np.ndarray] = []
        outs = rare[is_out]
        if len(outs):
            self._wickets(S, outs, run_out[is_out], run_outs, chart_d6, ended)
        eo = np.flatnonzero(self.over_end <= U)
        ov = self._end_overs(S, eo, ended) if len(eo) else eo
        if self.edges_done < self.edges_passed and self.step % 8 == 0:
            overs = (ou - (lane12 // SLOTS) * self.units).min(initial=self.units)
            self.edges_done = sum(overs > e for e in self.setup.edge_overs[:self.edges_passed])
        self._change_ends(code, eo, ov, E0, E1)
        if self.chasing and self.step >= self.first_chase_step:
            won = np.flatnonzero(target <= R)
            if len(won):
                ended.append(won)
        if ended:
            self._close_up(ended)

    def _results(self, S: np.ndarray, card_d6: np.ndarray, roll: np.ndarray,
                 chart_d6: np.ndarray, chart_d20: np.ndarray, pick: np.ndarray,
                 chance: np.ndarray, rule_d20: np.ndarray) -> tuple[np.ndarray, ...]:
        """Each live innings' result code from its dice (the card, the fielding chart and its
        chances, Defence, the wickets-in-hand bands, free hits), and its rare ones: (code,
        the columns of the rare results, their codes, which are out, which are run out, the
        run-outs' columns; a run-out's code is then a dot, R4)."""
        E0, _, R, _, brow, lane12, _, wickets, target, legal = S
        rule = self.rule
        row = np.where(card_d6 < 3, brow, E0 >> CHART_SHIFT)
        row += roll
        code = self.lut.take(row)
        # B, W and F from a card; "F": the fielding chart and its chances (4.3.6-4.3.8)
        rare = np.flatnonzero(code >= m.BOWLED)
        rare_code = code.take(rare)
        fi = rare[rare_code == m.FIELD]
        if len(fi):     # a run-out stays RUN_OUT until the rule and free hits are done
            code[fi] = self._fielding(fi, lane12, chart_d6, chart_d20, pick, chance)
        defended = False
        if self.defence_of_row is not None:
            rare, defended = self._defend(code, rare, rare_code, card_d6, chance, E0)
        if rule is not None:
            rare = self._wickets_in_hand(rule, code, wickets, legal, target, R, rule_d20)
        free_hits = self.free_hits
        if len(free_hits):                                  # R6: only a run-out stands
            code[free_hits] = FREE_HIT_MAP.take(code[free_hits])
        if len(fi) or len(free_hits) or rule is not None or defended:
            rare_code = code.take(rare)
        # the innings' rare results: wickets (run-outs score nothing, R4), no-balls, extras
        run_out = rare_code == m.RUN_OUT
        is_out = OUT_CODE.take(rare_code)
        run_outs = rare[run_out]
        if len(run_outs):
            code[run_outs] = m.DOT
            is_out |= run_out
        return code, rare, rare_code, is_out, run_out, run_outs

    def _fielding(self, fi: np.ndarray, lane12: np.ndarray, chart_d6: np.ndarray,
                  chart_d20: np.ndarray, pick: np.ndarray, chance: np.ndarray) -> np.ndarray:
        """The fielding chart's results for the innings in `fi` (an "F" read off the card),
        their chances rolled for."""
        fc = self.fielding.take(chart_d6.take(fi) * 20 + chart_d20.take(fi))
        ch = chance.take(fi)
        c = np.flatnonzero(fc == m.CATCH_CHANCE)
        if len(c):                                      # 4.3.7: d20 <= C, else one run
            j = fi[c]
            catcher = self.catch.take(lane12[j] + (pick[j] * 11).astype(np.int64))
            fc[c] = np.where(ch[c] <= catcher, m.CAUGHT, m.ONE)
        c = np.flatnonzero(fc == m.STUMPING_CHANCE)
        if len(c):                                      # 4.3.6: d20 <= keeper, else dot
            fc[c] = np.where(ch[c] <= self.krating_all.take(lane12[fi[c]] // SLOTS),
                             m.STUMPED, m.DOT)
        c = np.flatnonzero(fc == m.RUN_OUT_CHANCE)
        if len(c):                                      # 4.3.8: both ratings with keeper
            j = fi[c]
            d6, lj = chart_d6[j], lane12[j]
            with_keeper = (d6 != 1) & (d6 != 4)         # chart d6 1,3,4,6 (0-based 0,2,3,5)
            ks = self.kslot_all.take(lj // SLOTS)
            pick10 = (pick[j] * 10).astype(np.int64)    # R3: the keeper's partner is another
            fielder = np.where(with_keeper, pick10 + (pick10 >= ks),
                               (pick[j] * 11).astype(np.int64))
            made = ((ch[c] <= self.ro.take(lj + fielder))
                    & (~with_keeper | (ch[c] <= self.ro.take(lj + ks))))
            fc[c] = np.where(made, m.RUN_OUT, m.ONE)
        return fc

    def _defend(self, code: np.ndarray, rare: np.ndarray, rare_code: np.ndarray,
                card_d6: np.ndarray, chance: np.ndarray,
                E0: np.ndarray) -> tuple[np.ndarray, bool]:
        """R13: a W from the bowler's card against a striker's Defence (the chance d20: unused
        on a card's W); survived, a dot (for R12 too). The rare results left, and whether any
        was saved."""
        assert self.defence_of_row is not None
        w = rare[rare_code == m.CARD_W]
        w = w[card_d6.take(w) < 3]
        if len(w):
            rating = self.defence_of_row.take((E0.take(w) >> CHART_SHIFT) // 100)
            saved = w[chance.take(w) <= rating]
            if len(saved):
                code[saved] = m.DOT
                return rare[code.take(rare) >= m.BOWLED], True
        return rare, False

    def _wickets_in_hand(self, rule: WicketsInHand, code: np.ndarray, wickets: np.ndarray,
                         legal: np.ndarray, target: np.ndarray, R: np.ndarray,
                         rule_d20: np.ndarray) -> np.ndarray:
        """R12: the wickets-in-hand bands played on `code`; the rare results after it (the
        attack's wickets too)."""
        band = self.band_of.take(wickets * self.per_row + legal)
        if self.chase_rule:                                 # chasing: runs needed v balls left
            need, left = target - R, self.setup.fmt.balls_per_innings - legal
            row = np.zeros(len(band), np.int64)
            for edge in self.chase_edges:                   # (the kernel's comparison)
                row += need > edge * left
            cell = self.chase_cells.take(row * 11 + wickets)
            band = np.where((target < BIG) & (cell != wih.TABLE), cell, band)
        a = np.flatnonzero((band == wih.ATTACK) & (code == m.DOT))
        if len(a):
            code[a] = self.attack_of.take(rule_d20[a])
        c = np.flatnonzero((band == wih.CONSOLIDATE) & (rule_d20 <= rule.consolidate_safe))
        if len(c):
            code[c] = self.consolidate_of.take(code[c])
        return np.flatnonzero(code >= m.BOWLED)

    def _next_free_hits(self, code: np.ndarray, rare: np.ndarray,
                        rare_code: np.ndarray) -> np.ndarray:
        """The columns whose next delivery is a free hit: after a no-ball, or a wide on a free
        hit (R6)."""
        new_free_hits = rare[rare_code == m.NO_BALL]
        free_hits = self.free_hits
        if len(free_hits):                                  # a wide keeps the free hit
            kept = free_hits[code.take(free_hits) == m.WIDE]
            if len(kept):     # (no lane is in both: its code is a wide or a no-ball)
                new_free_hits = np.concatenate([new_free_hits, kept])
        return new_free_hits

    def _extras_before_edges(self, code: np.ndarray, rare: np.ndarray, rare_code: np.ndarray,
                             U: np.ndarray, ou: np.ndarray, lane12: np.ndarray) -> None:
        """Extras before the first legal ball past a phase edge belong before it (to the total
        at the edge)."""
        x = rare[NOT_LEGAL.take(rare_code)]
        x = x[U.take(x) < (1 << OVER_BALLS_SHIFT)]
        if len(x):
            for k in range(self.edges_done, self.edges_passed):
                xk = x[self.at_edge_of[k].take(ou.take(x) - 1)]
                if len(xk):
                    self.at_edge[k, lane12.take(xk) // SLOTS] += TOTAL.take(code.take(xk))

    def _wickets(self, S: np.ndarray, outs: np.ndarray, outs_run_out: np.ndarray,
                 run_outs: np.ndarray, chart_d6: np.ndarray, ended: list[np.ndarray]) -> None:
        """The wickets in `outs` (`outs_run_out`: which are run-outs): the dismissed batter's
        figures to the scorecard and the next one in; the innings all out go to `ended`."""
        E0, U, E1, lane12, wickets = S[_STRIKER], S[_OVER_WORD], S[_NON_STRIKER], S[_LANE12], S[_WICKETS]
        wk = wickets[outs] + 1
        wickets[outs] = wk
        l12 = lane12[outs]
        # R4/R5: the new batter takes the dismissed batter's end (after the last wicket
        # an empty word with a spare slot)
        new = self.fresh.take(l12 + wk + 1)
        if len(run_outs):
            U[run_outs] += 1 << FALLEN_SHIFT
        if len(run_outs) and (chart_d6.take(run_outs) >= 3).any():  # the chart d6: which end
            non_striker_out = outs_run_out & (chart_d6.take(outs) >= 3)
            gone = np.where(non_striker_out, E1[outs], E0[outs])
            E0[outs[~non_striker_out]] = new[~non_striker_out]
            E1[outs[non_striker_out]] = new[non_striker_out]
        else:
            gone = E0[outs]
            E0[outs] = new
        at = l12 + ((gone >> SLOT_SHIFT) & SLOT_MASK)
        self.bat_out[at] = 1
        self.bat[at] = gone & BAT_FIGURES
        last = wk >= self.max_wickets
        if last.any():
            ended.append(outs[last])

    def _end_overs(self, S: np.ndarray, eo: np.ndarray, ended: list[np.ndarray]) -> np.ndarray:
        """The overs that ended in `eo`: the over's figures to the scorecard, the next bowler,
        the phase edges passed; the innings whose last over it was go to `ended`. The overs
        that ended (by lane x units + over)."""
        U, R, brow, lane12, ou = S[_OVER_WORD], S[_RUNS], S[_BOWLER_ROW], S[_LANE12], S[_OVER_ROW]
        ov = ou.take(eo)                                # (tables by the over that ended)
        self.over_words[ov] = U.take(eo)
        U[eo] = 0
        ou[eo] = ov + 1
        brow[eo] = self.plan_rows.take(ov + 1)
        events = self.over_events.take(ov)
        if events.any():
            for k in range(len(self.setup.edges)):
                passed = (events & (2 << k)).astype(bool)
                if passed.any():
                    self.at_edge[k, lane12.take(eo[passed]) // SLOTS] = R.take(eo[passed])
                    self.edges_passed = max(self.edges_passed, k + 1)
            done = (events & LAST_OVER).astype(bool)
            if done.any():
                ended.append(eo[done])
        return ov

    def _change_ends(self, code: np.ndarray, eo: np.ndarray, ov: np.ndarray, E0: np.ndarray,
                     E1: np.ndarray) -> None:
        """Ends change on odd runs and every over (10 balls in the Hundred): the two batters'
        words swap."""
        swap = SWAP_MASK.take(code)
        if len(eo):
            change = eo if self.bpe == self.bpo else eo[self.ends_change.take(ov)]
            swap[change] ^= -1
        flip = E0 ^ E1
        flip &= swap
        E0 ^= flip
        E1 ^= flip

    def _close_up(self, ended: list[np.ndarray]) -> None:
        """The innings that ended leave the live columns: the live ones close up in order (so
        the same dice go to the same innings as in the a10837f engine), the ended ones' final
        states go to the end of the matrix."""
        n, state = self.n, self.state
        if len(ended) > 1:      # (an innings can end two ways on one ball)
            gone = np.zeros(n, bool)
            for e in ended:
                gone[e] = True
            dead = np.flatnonzero(gone)
        else:
            dead = ended[0]
        first = dead[0]       # (the columns before the first ended innings stay put)
        alive = np.ones(n - first, bool)
        alive[dead - first] = False
        order = np.concatenate([np.flatnonzero(alive) + first, dead])
        state[:self.rows, first:n] = state[:self.rows].take(order, axis=1)
        free_hits = self.free_hits
        if len(free_hits):
            at = dead.take(np.minimum(np.searchsorted(dead, free_hits), len(dead) - 1))
            free_hits = free_hits[at != free_hits]
            free_hits -= np.searchsorted(dead, free_hits)
            self.free_hits = free_hits
        self.n = n - len(dead)

    def _finish(self) -> InningsBatch:
        """Close every innings (the two batters' figures and the over in progress) and read
        the scorecards."""
        state, bat, lane_ids = self.state, self.bat, self.lane_ids
        final = np.empty_like(state)
        final[:, state[_LANE12] // SLOTS] = state
        for words in (final[_STRIKER], final[_NON_STRIKER]):
            bat[lane_ids * SLOTS + ((words >> SLOT_SHIFT) & SLOT_MASK)] += words & BAT_FIGURES
        part = np.flatnonzero(final[_OVER_WORD])
        self.over_words[final[_OVER_ROW, part]] = final[_OVER_WORD, part]
        WARMUP.numpy_deliveries += self.deliveries
        setup = self.setup
        return _scorecards(setup.fmt, self.units, setup.max_balls, setup.max_wickets, bat,
                           self.bat_out, self.over_words, self.at_edge, final[_RUNS],
                           final[_WICKETS], self.deliveries)


def _scorecards(fmt: m.Format, units: int, max_balls: int, max_wickets: int, bat: np.ndarray,
                bat_out: np.ndarray, over_words: np.ndarray, at_edge: np.ndarray,
                final_runs: np.ndarray, wickets: np.ndarray, deliveries: int) -> InningsBatch:
    """The batch's scorecards from the finished innings' words (either path's): batters' words
    by lane x SLOTS + slot, overs' words by lane x units + over (a spare at the end), the total
    at each phase edge (-1: not passed), final totals and wickets by lane."""
    L = len(final_runs)
    balls = np.maximum(np.arange(max_balls + 1), 1)   # legal balls after the delivery
    phase_of = np.where(balls <= fmt.phase_edges[0], 0, np.where(balls <= fmt.phase_edges[1], 1, 2))
    bpo = fmt.balls_per_over
    bat2 = bat.reshape(L, SLOTS)
    over2 = over_words[:-1].reshape(L, units)
    cut = [np.where(e < 0, final_runs, e) for e in at_edge] + [final_runs]
    while len(cut) < 3:
        cut.insert(-1, final_runs)
    phase_runs = np.stack([cut[0], cut[1] - cut[0], cut[2] - cut[1]], axis=1).astype(np.int32)
    fallen = _word_field(over2, OVER_FIELDS["fallen"])      # wickets by phase, from the overs
    over_phase = phase_of.take(np.minimum(np.arange(units) * bpo + 1, max_balls))
    phase_wickets = np.zeros((L, 3), np.int32)
    starts = np.flatnonzero(np.diff(over_phase, prepend=-1))  # (phases are runs of overs)
    phase_wickets[:, over_phase[starts]] = np.add.reduceat(fallen, starts, axis=1)
    came_in = np.where(wickets < max_wickets, wickets + 2, max_wickets + 1)
    return InningsBatch(
        runs=final_runs.astype(np.int32), wickets=wickets.astype(np.int32),
        legal_balls=(over2 >> OVER_BALLS_SHIFT).sum(axis=1).astype(np.int32),
        wides=_word_field(over2, OVER_FIELDS["wides"]).sum(axis=1, dtype=np.int32),
        no_balls=_word_field(over2, OVER_FIELDS["no_balls"]).sum(axis=1, dtype=np.int32),
        byes=_word_field(over2, OVER_FIELDS["byes"]).sum(axis=1, dtype=np.int32),
        phase_runs=phase_runs, phase_wickets=phase_wickets,
        bat_runs=_word_field(bat2, BAT_FIELDS["runs"]),
        bat_balls=_word_field(bat2, BAT_FIELDS["balls"]),
        bat_fours=_word_field(bat2, BAT_FIELDS["fours"]),
        bat_sixes=_word_field(bat2, BAT_FIELDS["sixes"]),
        bat_out=bat_out.reshape(L, SLOTS),
        bat_in=(np.arange(SLOTS) < came_in[:, None]).astype(np.int32),
        unit_runs=_word_field(over2, OVER_FIELDS["runs"]),
        unit_wickets=_word_field(over2, OVER_FIELDS["wickets"]),
        unit_balls=_word_field(over2, OVER_FIELDS["balls"]), deliveries=deliveries)


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
    def build(cls, cs: CompiledSet, sides: list[Side]) -> SideTable:
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
        sides = LaneSides(np.asarray(batting), np.asarray(bowling),
                          self.so_batters if super_over else self.bat_cards, self.catch,
                          self.run_out, self.keeper_slot, self.keeper_rating)
        return Lanes(bat_cards=bat, catch=self.catch[bowling], run_out=self.run_out[bowling],
                     keeper_slot=self.keeper_slot[bowling],
                     keeper_rating=self.keeper_rating[bowling], plan=plan, target=target,
                     sides=sides)


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
                 rng: np.random.Generator, rule: WicketsInHand | None = None,
                 defence: bool | None = None) -> MatchBatch:
    """Full matches, `home[k]` batting first against `away[k]`; ties go to super overs (R8),
    played without the wickets-in-hand table; `rule` the wickets-in-hand rule for the two
    innings (None: the Quicket rules as printed), `defence` whether Defence ratings are played
    (R13; None: with the rule, the advanced rules), in the super overs too."""
    defence = rule is not None if defence is None else defence
    M = len(home)
    n_plans = table.plans.shape[1]
    plan1 = rng.integers(0, n_plans, M)
    plan2 = rng.integers(0, n_plans, M)
    first = play_innings_batch(cs, table.lanes(home, away, plan1, np.full(M, BIG)), rng, rule=rule,
                               defence=defence)
    second = play_innings_batch(cs, table.lanes(away, home, plan2, first.runs + 1), rng, rule=rule,
                                defence=defence)
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
                                 rng, max_balls=balls, max_wickets=2, defence=defence)
        so2 = play_innings_batch(cs, table.lanes(b, a, zeros, so1.runs + 1, True),
                                 rng, max_balls=balls, max_wickets=2, defence=defence)
        deliveries += so1.deliveries + so2.deliveries
        winner[tied] = np.where(so1.runs > so2.runs, a, b)
        still = so1.runs == so2.runs
        bat_first[tied], bat_second[tied] = b, a
        tied = tied[still]
    winner[tied] = -1
    return MatchBatch(home=home, away=away, first=first, second=second,
                      first_plan=table.plans[away, plan1], second_plan=table.plans[home, plan2],
                      winner=winner, super_overs=supers, deliveries=deliveries)
