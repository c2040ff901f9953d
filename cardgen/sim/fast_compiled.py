"""The fast engine's per-delivery bookkeeping compiled with numba (the optional `fast` extra).

`play_innings` draws each step's dice from the Generator exactly as fast.py's numpy path does
(the same calls, sizes and order: numba's Generator draws numpy's numbers from the same bit
generator, at ~2/3 of numpy's cost) and hands them to `play_step`: one compiled pass over
the live innings resolves the dice, keeps the scorecards in the numpy path's packed words (so
the scorecards come out the same to the bit), and closes up the innings that ended, in order,
so the next step's dice reach the same innings. Only integer and float arrays cross the
boundary; the tables (result codes to word increments, the rule's bands) are arguments, built by
fast.py, so this cached machine code never holds a stale copy of them.

Imported only when an innings batch is played (numba's import and the cached code's load cost
~0.5 s, its first compile several seconds: `benchmarks/bench_sim.py` prints both).
"""
from __future__ import annotations

import numba
import numpy as np

from cardgen.sim import dice

# the compiled path's live-innings state: a row of STATE_COLUMNS words per live innings, kept in
# order (a delivery reads and writes one 64-byte row); small counters share the last word
(STRIKER, NON_STRIKER, OVER_WORD, RUNS, BOWLER_ROW, LANE, TARGET, SMALL) = range(8)
STATE_COLUMNS = 8
OVER_BITS, WICKETS_SHIFT, LEGAL_SHIFT, FREE_HIT_SHIFT = 0xFF, 8, 16, 32
# the LANE word: the lane (bits 0-31), its batting side and its fielding side (15 bits each)
BATTING_SHIFT, FIELDING_SHIFT, SIDE_BITS = 32, 47, 0x7FFF
LANE_BITS = 0xFFFFFFFF
MAX_SIDES = SIDE_BITS
# the per-code table: a row per result code after resolution, on a free hit or not (free hit x
# codes + code), with what the delivery adds to the words (after R6 and R4) and its flags
(BAT_DELTA, OVER_DELTA, TOTAL, SWAP, LEGAL_BALL, FLAGS) = range(6)
CODE_COLUMNS = 8
IS_OUT, IS_RUN_OUT, NEXT_FREE_HIT = 1, 2, 4
# bits of an over's events, by the over that ended: the innings' last, ends change, and from
# bit EDGE_BIT on the phase edges passed at its end
LAST_OVER, ENDS_CHANGE, EDGE_BIT = 1, 2, 2

# result codes (cardgen.sim.model; asserted equal in fast.py)
DOT, ONE, CARD_W, FIELD, RUN_OUT, CAUGHT, STUMPED = 0, 1, 11, 12, 14, 15, 16
CATCH_CHANCE, RUN_OUT_CHANCE, STUMPING_CHANCE, WIDE, NO_BALL = 17, 18, 19, 22, 23
ATTACK, CONSOLIDATE = 0, 2   # cardgen.wickets_in_hand's bands
BIG = 2**30 - 1   # a target when batting first (fast.BIG)
SLOTS = 12
SLOT_SHIFT, CHART_SHIFT, SLOT_MASK = 38, 42, 15
BAT_FIGURES = (1 << 38) - 1
FALLEN_SHIFT, OVER_BALLS_SHIFT = 44, 48

_i64, _b = numba.int64, numba.boolean
_v64, _vf, _m64 = numba.int64[::1], numba.float64[::1], numba.int64[:, ::1]
_v8 = numba.int8[::1]
SIGNATURE = numba.int64(
    _i64, _m64,                                  # live innings, state
    _v64, _v64, _v64, _v64, _vf, _v64, _v64,     # dice: card d6, 2d10, chart d6, d20, pick, chance, rule d20
    _v64, _v64, _v8, _v8, _v8, _v8,              # lut, fielding, catch, run out, keeper slot, rating
    _b, _v8,                                     # R13: any Defence, the rating by chart row
    numba.int32[::1], _m64, _m64, _v64,          # batters' chart rows, bowlers', code table, over events
    _b, numba.int8[::1], _i64, _v64, _v64, _i64, _b, _vf, _v8, _i64,  # the rule
    _i64, _i64,                                  # over end, max wickets
    _v64, _v8, _m64, _m64, _v64, _v64)           # scorecards out


def new_state(batter_rows: np.ndarray, batting: np.ndarray, fielding: np.ndarray,
              first_bowler_rows: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The state of innings about to start: the openers' words (slots 0 and 1 with their chart
    rows, from the batting side's rows), the lane with its batting and fielding sides, bowler
    of the first over, target; innings k in row k."""
    lanes = len(target)
    st = np.zeros((lanes, STATE_COLUMNS), np.int64)
    ids = np.arange(lanes, dtype=np.int64)
    first = np.asarray(batting, np.int64) * SLOTS
    st[:, STRIKER] = batter_rows[first].astype(np.int64) << CHART_SHIFT
    st[:, NON_STRIKER] = (batter_rows[first + 1].astype(np.int64) << CHART_SHIFT) | (
        1 << SLOT_SHIFT)
    st[:, BOWLER_ROW] = first_bowler_rows
    st[:, LANE] = (ids | (np.asarray(batting, np.int64) << BATTING_SHIFT)
                   | (np.asarray(fielding, np.int64) << FIELDING_SHIFT))
    st[:, TARGET] = target
    return st


def code_table(bat_delta: np.ndarray, over_delta: np.ndarray, total: np.ndarray,
               swap: np.ndarray, legal: np.ndarray, striker_out: np.ndarray,
               free_hit_map: np.ndarray) -> np.ndarray:
    """The per-code table from fast.py's per-code arrays: R6 (on a free hit only a run-out
    stands) and R4 (a run-out scores nothing: a dot) applied, then the delivery's increments
    and flags (out, run out, the next ball a free hit: a no-ball, or a wide on a free hit)."""
    codes = len(bat_delta)
    table = np.zeros((2 * codes, CODE_COLUMNS), np.int64)
    for free_hit in (0, 1):
        for code in range(codes):
            resolved = int(free_hit_map[code]) if free_hit else code
            run_out = resolved == RUN_OUT
            played = DOT if run_out else resolved
            row = table[free_hit * codes + code]
            row[BAT_DELTA], row[OVER_DELTA] = bat_delta[played], over_delta[played]
            row[TOTAL], row[SWAP], row[LEGAL_BALL] = total[played], swap[played], legal[played]
            row[FLAGS] = ((IS_OUT if run_out or striker_out[resolved] else 0)
                          | (IS_RUN_OUT if run_out else 0)
                          | (NEXT_FREE_HIT if played == NO_BALL or (free_hit and played == WIDE)
                             else 0))
    return table


@numba.njit(SIGNATURE, cache=True, nogil=True)
def play_step(n: int, st: np.ndarray, card_d6: np.ndarray, roll: np.ndarray, chart_d6: np.ndarray,
              chart_d20: np.ndarray, pick: np.ndarray, chance: np.ndarray, rule_d20: np.ndarray,
              lut: np.ndarray, fielding: np.ndarray, catch: np.ndarray, run_out: np.ndarray,
              keeper_slot: np.ndarray, keeper_rating: np.ndarray,
              with_defence: bool, defence_of: np.ndarray,
              batter_rows: np.ndarray, plan_rows: np.ndarray, codes: np.ndarray,
              over_events: np.ndarray,
              with_rule: bool, band_of: np.ndarray, per_row: int, attack_of: np.ndarray,
              consolidate_of: np.ndarray, consolidate_safe: int,
              chase_rule: bool, chase_edges: np.ndarray, chase_cells: np.ndarray,
              balls_per_innings: int,
              over_end: int, max_wickets: int,
              bat: np.ndarray, bat_out: np.ndarray, over_words: np.ndarray, at_edge: np.ndarray,
              final_runs: np.ndarray, final_wickets: np.ndarray) -> int:
    """One delivery for each of the first n live innings (rows of `st`); returns how many
    are still live (closed up in order at the front; the ended ones' scorecards are done)."""
    n_edges = at_edge.shape[0]
    n_codes = codes.shape[0] // 2
    live = 0
    for i in range(n):
        striker = st[i, STRIKER]
        non_striker = st[i, NON_STRIKER]
        over = st[i, OVER_WORD]
        runs = st[i, RUNS]
        lane_word = st[i, LANE]
        lane = lane_word & LANE_BITS
        batting12 = ((lane_word >> BATTING_SHIFT) & SIDE_BITS) * SLOTS
        fielding_side = (lane_word >> FIELDING_SHIFT) & SIDE_BITS
        fielding12 = fielding_side * SLOTS
        small = st[i, SMALL]
        ou = small & OVER_BITS
        wickets = (small >> WICKETS_SHIFT) & OVER_BITS
        legal = (small >> LEGAL_SHIFT) & 0xFFFF
        free_hit = small >> FREE_HIT_SHIFT
        lane12 = lane * SLOTS
        bowler_card = np.int64(card_d6[i] < 3)         # (a select, not a branch: 50-50)
        row = bowler_card * st[i, BOWLER_ROW] + (1 - bowler_card) * (striker >> CHART_SHIFT)
        code = lut[row + roll[i]]
        if code == FIELD:                               # the fielding chart and its chances
            code = fielding[chart_d6[i] * 20 + chart_d20[i]]
            ch = chance[i]
            if code == CATCH_CHANCE:                    # 4.3.7: d20 <= C, else one run
                catcher = catch[fielding12 + np.int64(pick[i] * 11)]
                code = CAUGHT if ch <= catcher else ONE
            elif code == STUMPING_CHANCE:               # 4.3.6: d20 <= keeper, else dot
                code = STUMPED if ch <= keeper_rating[fielding_side] else DOT
            elif code == RUN_OUT_CHANCE:                # 4.3.8: both ratings with keeper
                d6 = chart_d6[i]
                with_keeper = d6 != 1 and d6 != 4
                ks = keeper_slot[fielding_side]
                if with_keeper:                         # R3: the keeper's partner is another
                    pick10 = np.int64(pick[i] * 10)
                    fielder = pick10 + (1 if pick10 >= ks else 0)
                else:
                    fielder = np.int64(pick[i] * 11)
                made = ch <= run_out[fielding12 + fielder] and (
                    not with_keeper or ch <= run_out[fielding12 + ks])
                code = RUN_OUT if made else ONE
        elif (with_defence and code == CARD_W and bowler_card == 1
              and chance[i] <= defence_of[(striker >> CHART_SHIFT) // 100]):
            # R13: the striker card's Defence against the bowler card's W, on the chance d20
            # (read only by a fielding-chart result, so unused on this ball): survived, a dot
            code = DOT
        if with_rule:                                   # R12: the wickets-in-hand bands
            band = band_of[wickets * per_row + legal]
            target = st[i, TARGET]
            if chase_rule and target < BIG:             # the chase: its row by runs needed
                need = target - runs
                left = balls_per_innings - legal
                chase_row = 0
                for e in range(chase_edges.shape[0]):
                    if need > chase_edges[e] * left:
                        chase_row += 1
                cell = chase_cells[chase_row * 11 + wickets]
                if cell >= 0:                           # (TABLE, -1: the table's band stands)
                    band = cell
            d20 = rule_d20[i]
            if band == ATTACK and code == DOT:
                code = attack_of[d20]
            elif band == CONSOLIDATE and d20 <= consolidate_safe:
                code = consolidate_of[code]
        # R6 on a free hit, R4 for a run-out: one row of the code table
        r = free_hit * n_codes + code
        flags = codes[r, FLAGS]
        is_run_out = (flags & IS_RUN_OUT) != 0
        next_free_hit = (flags & NEXT_FREE_HIT) >> 2
        striker += codes[r, BAT_DELTA]
        over += codes[r, OVER_DELTA]
        runs += codes[r, TOTAL]
        legal_ball = codes[r, LEGAL_BALL]
        legal += legal_ball
        if legal_ball == 0 and over < (1 << OVER_BALLS_SHIFT) and ou > 0:
            # extras before the first legal ball past a phase edge belong to the total at it
            events = over_events[ou - 1]
            for k in range(n_edges):
                if events & (1 << (EDGE_BIT + k)):
                    at_edge[k, lane] += codes[r, TOTAL]
        ended = False
        if flags & IS_OUT:
            wickets += 1
            # R4/R5: the new batter takes the dismissed batter's end
            new = (np.int64(batter_rows[batting12 + wickets + 1]) << CHART_SHIFT) | (
                (wickets + 1) << SLOT_SHIFT)
            if is_run_out:
                over += 1 << FALLEN_SHIFT
            if is_run_out and chart_d6[i] >= 3:          # the chart d6: the non-striker's end
                gone = non_striker
                non_striker = new
            else:
                gone = striker
                striker = new
            at = lane12 + ((gone >> SLOT_SHIFT) & SLOT_MASK)
            bat_out[at] = 1
            bat[at] = gone & BAT_FIGURES
            if wickets >= max_wickets:
                ended = True
        swap = codes[r, SWAP]                            # ends change on odd runs (all ones)
        if over >= over_end:                             # the over's figures, the next bowler
            over_words[ou, lane] = over
            over = 0
            events = over_events[ou]
            ou += 1
            st[i, BOWLER_ROW] = plan_rows[ou, lane]
            for k in range(n_edges):
                if events & (1 << (EDGE_BIT + k)):
                    at_edge[k, lane] = runs
            if events & LAST_OVER:
                ended = True
            if events & ENDS_CHANGE:                    # and every over (10 balls in the Hundred)
                swap = ~swap
        flip = (striker ^ non_striker) & swap
        striker ^= flip
        non_striker ^= flip
        if runs >= st[i, TARGET]:
            ended = True
        if ended:                                       # the innings' scorecard is complete
            bat[lane12 + ((striker >> SLOT_SHIFT) & SLOT_MASK)] += striker & BAT_FIGURES
            bat[lane12 + ((non_striker >> SLOT_SHIFT) & SLOT_MASK)] += non_striker & BAT_FIGURES
            if over != 0:
                over_words[ou, lane] = over
            final_runs[lane] = runs
            final_wickets[lane] = wickets
            continue
        j = live                                        # the live innings close up in order
        live += 1
        st[j, STRIKER] = striker
        st[j, NON_STRIKER] = non_striker
        st[j, OVER_WORD] = over
        st[j, RUNS] = runs
        st[j, SMALL] = (ou | (wickets << WICKETS_SHIFT) | (legal << LEGAL_SHIFT)
                        | (next_free_hit << FREE_HIT_SHIFT))
        if j != i:
            st[j, BOWLER_ROW] = st[i, BOWLER_ROW]
            st[j, LANE] = lane_word
            st[j, TARGET] = st[i, TARGET]
    return live



# the numpy path's draw schedule, compiled (one function for every path)
draw_dice = numba.njit(cache=True, nogil=True)(dice.draw_dice)


@numba.njit(numba.int64(numba.types.npy_rng, _m64, *SIGNATURE.args[9:]), cache=True, nogil=True)
def play_innings(rng: np.random.Generator, st: np.ndarray, lut: np.ndarray, fielding: np.ndarray,
                 catch: np.ndarray, run_out: np.ndarray, keeper_slot: np.ndarray,
                 keeper_rating: np.ndarray,
                 with_defence: bool, defence_of: np.ndarray,
                 batter_rows: np.ndarray, plan_rows: np.ndarray, codes: np.ndarray,
                 over_events: np.ndarray,
                 with_rule: bool, band_of: np.ndarray, per_row: int, attack_of: np.ndarray,
                 consolidate_of: np.ndarray, consolidate_safe: int,
                 chase_rule: bool, chase_edges: np.ndarray, chase_cells: np.ndarray,
                 balls_per_innings: int,
                 over_end: int, max_wickets: int,
                 bat: np.ndarray, bat_out: np.ndarray, over_words: np.ndarray, at_edge: np.ndarray,
                 final_runs: np.ndarray, final_wickets: np.ndarray) -> int:
    """The innings of `st` played to their end, a step at a time: each step's dice drawn from
    `rng` with the numpy path's calls (the same sizes, dtypes and order: numba's Generator
    draws numpy's numbers from the same bit generator), then `play_step`; returns the
    deliveries played."""
    n = st.shape[0]
    deliveries = 0
    no_dice = np.zeros(0, np.int64)
    while n:
        deliveries += n
        card_d6, roll, chart_d6, chart_d20, pick, chance, rule_d20 = draw_dice(
            rng, n, with_rule, no_dice)
        n = play_step(n, st, card_d6, roll, chart_d6, chart_d20, pick, chance, rule_d20,
                      lut, fielding, catch, run_out, keeper_slot, keeper_rating,
                      with_defence, defence_of,
                      batter_rows, plan_rows, codes, over_events,
                      with_rule, band_of, per_row, attack_of, consolidate_of, consolidate_safe,
                      chase_rule, chase_edges, chase_cells, balls_per_innings,
                      over_end, max_wickets,
                      bat, bat_out, over_words, at_edge, final_runs, final_wickets)
    return deliveries


_m32 = numba.int32[:, ::1]
_v32 = numba.int32[::1]


@numba.njit(numba.void(
    _v64, _v8, _m64, _m64, _v64, _v64, _i64, _v64,                   # the innings' words
    _v32, _v32, _v32, _v32, _v32, _v32, _m32, _m32,                   # totals, phases
    _m32, _m32, _m32, _m32, _m32, _m32, _m32, _m32, _m32),            # batters', overs'
    cache=True, nogil=True)
def scorecards(bat: np.ndarray, bat_out8: np.ndarray, over_words: np.ndarray, at_edge: np.ndarray,
               final_runs: np.ndarray, final_wickets: np.ndarray, max_wickets: int,
               over_phase: np.ndarray, runs: np.ndarray, wickets: np.ndarray,
               legal_balls: np.ndarray, wides: np.ndarray, no_balls: np.ndarray, byes: np.ndarray,
               phase_runs: np.ndarray, phase_wickets: np.ndarray, bat_runs: np.ndarray,
               bat_balls: np.ndarray, bat_fours: np.ndarray, bat_sixes: np.ndarray,
               bat_out: np.ndarray, bat_in: np.ndarray, unit_runs: np.ndarray,
               unit_wickets: np.ndarray, unit_balls: np.ndarray) -> None:
    """The numpy path's `_scorecards` in one pass (the same fields of the same words)."""
    lanes = final_runs.shape[0]
    units = over_words.shape[0]
    n_edges = at_edge.shape[0]
    fallen = np.zeros(3, np.int64)
    for lane in range(lanes):
        total = final_runs[lane]
        down = final_wickets[lane]
        runs[lane] = total
        wickets[lane] = down
        cut0 = total
        cut1 = total
        if n_edges > 0 and at_edge[0, lane] >= 0:
            cut0 = at_edge[0, lane]
        if n_edges > 1 and at_edge[1, lane] >= 0:
            cut1 = at_edge[1, lane]
        phase_runs[lane, 0] = cut0
        phase_runs[lane, 1] = cut1 - cut0
        phase_runs[lane, 2] = total - cut1
        came_in = down + 2 if down < max_wickets else max_wickets + 1
        for slot in range(SLOTS):
            word = bat[lane * SLOTS + slot]
            bat_runs[lane, slot] = word & 4095
            bat_balls[lane, slot] = (word >> 12) & 1023
            bat_fours[lane, slot] = (word >> 22) & 255
            bat_sixes[lane, slot] = (word >> 30) & 255
            bat_out[lane, slot] = bat_out8[lane * SLOTS + slot]
            bat_in[lane, slot] = 1 if slot < came_in else 0
    # the overs' words are by over: read them in blocks of lanes, so that both the words and
    # the (lane, over) figures stay in the cache
    for start in range(0, lanes, 64):
        stop = min(start + 64, lanes)
        for u in range(units):
            for lane in range(start, stop):
                word = over_words[u, lane]
                unit_runs[lane, u] = word & 4095
                unit_wickets[lane, u] = (word >> 12) & 15
                unit_balls[lane, u] = (word >> OVER_BALLS_SHIFT) & 15
        for lane in range(start, stop):
            balls = 0
            wide = 0
            no_ball = 0
            bye = 0
            fallen[:] = 0
            for u in range(units):
                word = over_words[u, lane]
                balls += word >> OVER_BALLS_SHIFT
                wide += (word >> 16) & 1023
                no_ball += (word >> 26) & 1023
                bye += (word >> 36) & 255
                fallen[over_phase[u]] += (word >> FALLEN_SHIFT) & 15
            legal_balls[lane] = balls
            wides[lane] = wide
            no_balls[lane] = no_ball
            byes[lane] = bye
            for p in range(3):
                phase_wickets[lane, p] = fallen[p]
