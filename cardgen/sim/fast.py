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
    a dot into caught / four / six on the d20; consolidate turns a catch into a dot and a four
    or six into a single on d20 <= consolidate_safe."""
    attack = (band == wih.ATTACK) & (code == m.DOT)
    code = np.where(attack, _attack_table(rule).take(d20), code)  # past attack_six: still a dot
    safe = (band == wih.CONSOLIDATE) & (d20 <= rule.consolidate_safe)
    return np.where(safe, _consolidate_map(rule).take(code), code)


# Per-code tables for the innings loop (index = result code after resolution)
TOTAL = (BAT_RUNS + EXTRAS).astype(np.int64)              # runs a delivery adds to the total
SWAP_ON_RUNS = (CROSSING_RUNS & 1).astype(bool)           # an odd number of runs run
OUT_CODE = STRIKER_OUT.astype(bool)
IS_NO_BALL = (np.arange(m.N_CODES) == m.NO_BALL).astype(np.int64)
# a bowler's over (or set) and the extras in it, packed like UNIT_DELTA: one add per delivery
UNIT_WIDES_SHIFT, UNIT_NO_BALLS_SHIFT, UNIT_BYES_SHIFT = 32, 40, 48
UNIT_EXTRAS_DELTA = (UNIT_DELTA + ((EXTRA_DELTA & 0xFFFF) << UNIT_WIDES_SHIFT)
                     + (((EXTRA_DELTA >> 16) & 0xFFFF) << UNIT_NO_BALLS_SHIFT)
                     + (((EXTRA_DELTA >> 32) & 0xFFFF) << UNIT_BYES_SHIFT))


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


# rows of the live-innings state matrix (one column per live innings; see play_innings_batch)
(_LANE, _ST, _SROW, _ACC_S, _NST, _NROW, _ACC_N, _NEXT, _BOWLER, _LEGAL, _WICKETS, _RUNS,
 _TARGET, _FREE_HIT, _BROW, _ACC_U) = range(16)
_STATE_ROWS = 16


def play_innings_batch(cs: CompiledSet, lanes: Lanes, rng: np.random.Generator, *,
                       max_balls: int | None = None, max_wickets: int = 10,
                       rule: WicketsInHand | None = None) -> InningsBatch:
    """Play a batch of innings to the end, one delivery a step for every live innings.

    Only live innings are kept, in one state matrix (a row per quantity, a column per innings:
    dropping the innings that end is one copy, and no step gathers or scatters by lane). The
    striker's, non-striker's and bowler's chart rows ride along, so the 2d10 lookup reads no
    big table; the striker's, non-striker's and the over's figures are running sums written to
    the scorecard once, when a batter is out, an over ends or the innings ends; the rare results
    (the fielding chart and its chances, wickets, free hits) are worked out only on the innings
    that have them; phase totals are read off the total as an innings passes each phase edge.
    The rules and the dice are those of `resolve` and the reference engine, ball for ball
    (tests/test_sim_engine.py).
    """
    fmt = cs.fmt
    L = len(lanes)
    units = lanes.plan.shape[1]
    max_balls = fmt.balls_per_innings if max_balls is None else max_balls
    bpo, bpe = fmt.balls_per_over, fmt.balls_per_end
    n_bowler_cards = len(cs.bowler_lut)
    # one flat table: bowler cards first, then striker cards; and the fielding chart
    lut = np.concatenate([cs.bowler_lut, cs.striker_lut]).astype(np.int8).ravel()
    if lut.max(initial=0) > m.FIELD:
        raise ValueError("a card can only hold card results (B, W, F, runs)")
    fielding = cs.fielding.astype(np.int8).ravel()
    balls = np.arange(max_balls + 2)
    over_ends = (balls % bpo == 0) & (balls > 0)           # by legal balls after the delivery
    end_changes = (balls % bpe == 0) & (balls > 0)
    edges = [e for e in fmt.phase_edges if e < max_balls]  # phase edges this innings can pass
    ball_no = np.maximum(balls, 1)
    phase_of = np.where(ball_no <= fmt.phase_edges[0], 0,
                        np.where(ball_no <= fmt.phase_edges[1], 1, 2))
    if rule is not None:   # band by wickets down x legal balls bowled (left = innings - bowled)
        per_row = fmt.balls_per_innings + 1
        band_of = wih.band_table(rule, fmt.balls_per_innings)[:, ::-1].astype(np.int8).ravel()
        attack_of = _attack_table(rule)
        consolidate_of = _consolidate_map(rule)

    # chart rows scaled by 100 (the 2d10 roll is added): striker cards after the bowler cards
    bat_rows = (lanes.bat_cards.astype(np.int64).ravel() + n_bowler_cards) * 100
    plan_rows = lanes.plan.astype(np.int64).ravel() * 100
    catch = lanes.catch.astype(np.int64).ravel()
    ro = lanes.run_out.astype(np.int64).ravel()
    kslot_all = lanes.keeper_slot.astype(np.int64)
    krating_all = lanes.keeper_rating.astype(np.int64)
    chasing = bool((lanes.target < BIG).any())
    chase_rule = chasing and rule is not None and rule.chase_attack_above is not None

    bat = np.zeros(L * SLOTS, np.int64)          # packed BAT_DELTA sums by absolute batter row
    unit_stats = np.zeros(L * units, np.int64)   # packed UNIT_EXTRAS_DELTA sums by bowler row
    bat_out = np.zeros(L * SLOTS, np.int32)
    phase_wickets = np.zeros(L * 3, np.int32)
    final = np.zeros((_STATE_ROWS, L), np.int64)  # each innings' state when it ended
    at_edge = np.full((len(edges), L), -1, np.int64)  # total when the innings passed each edge
    edge_open = [True] * len(edges)

    # the live innings: rows are absolute (striker = lane x SLOTS + batter, bowler = lane x
    # units + over), *ROW the chart rows of striker / non-striker / bowler, ACC_* running sums
    S = np.zeros((_STATE_ROWS, L), np.int64)
    S[_LANE] = np.arange(L)
    S[_ST] = S[_LANE] * SLOTS
    S[_NST] = S[_ST] + 1
    S[_NEXT] = S[_ST] + 2
    S[_BOWLER] = S[_LANE] * units
    S[_TARGET] = lanes.target
    S[_SROW] = bat_rows.take(S[_ST])
    S[_NROW] = bat_rows.take(S[_NST])
    S[_BROW] = plan_rows.take(S[_BOWLER])
    any_free_hit = False
    deliveries = 0
    step = 0
    while S.shape[1]:
        (lane, striker, srow, acc_s, non_striker, nrow, acc_n, next_in, bowler, legal, wickets,
         runs, target, free_hit, brow, acc_u) = S
        n = S.shape[1]
        deliveries += n
        step += 1
        # the dice: card d6, 2d10, chart d6, chart d20, fielder, chance d20 (+ the rule's d20)
        card_d6 = rng.integers(0, 6, n)
        roll = rng.integers(0, 100, n)
        chart_d6 = rng.integers(0, 6, n)
        chart_d20 = rng.integers(0, 20, n)
        pick = rng.random(n)
        chance = rng.integers(1, 21, n)

        row = np.where(card_d6 < 3, brow, srow)
        row += roll
        code = lut.take(row).astype(np.int64)   # (take is slow with int8 indices)
        # "F": the fielding chart, and its chances (4.3.6-4.3.8), on the lanes that rolled it
        fi = np.flatnonzero(code == m.FIELD)
        run_outs = fi[:0]
        if len(fi):
            fc = fielding.take(chart_d6[fi] * 20 + chart_d20[fi])
            ch = chance[fi]
            c = np.flatnonzero(fc == m.CATCH_CHANCE)
            if len(c):                                      # 4.3.7: d20 <= C, else one run
                j = fi[c]
                catcher = catch.take(lane[j] * 11 + (pick[j] * 11).astype(np.int64))
                fc[c] = np.where(ch[c] <= catcher, m.CAUGHT, m.ONE)
            c = np.flatnonzero(fc == m.STUMPING_CHANCE)
            if len(c):                                      # 4.3.6: d20 <= keeper, else dot
                fc[c] = np.where(ch[c] <= krating_all.take(lane[fi[c]]), m.STUMPED, m.DOT)
            c = np.flatnonzero(fc == m.RUN_OUT_CHANCE)
            if len(c):                                      # 4.3.8: both ratings with keeper
                j = fi[c]
                d6, lj = chart_d6[j], lane[j]
                with_keeper = (d6 != 1) & (d6 != 4)         # chart d6 1,3,4,6 (0-based 0,2,3,5)
                ks = kslot_all.take(lj)
                pick10 = (pick[j] * 10).astype(np.int64)    # R3: the keeper's partner is another
                fielder = np.where(with_keeper, pick10 + (pick10 >= ks),
                                   (pick[j] * 11).astype(np.int64))
                made = ((ch[c] <= ro.take(lj * 11 + fielder))
                        & (~with_keeper | (ch[c] <= ro.take(lj * 11 + ks))))
                fc[c] = np.where(made, m.RUN_OUT, m.ONE)
            code[fi] = fc
            run_outs = fi[fc == m.RUN_OUT]   # neither the rule nor a free hit touches a run-out
        if rule is not None:                                # R12: the wickets-in-hand bands
            rule_d20 = rng.integers(1, 21, n)
            band = band_of.take(wickets * per_row + legal)
            if chase_rule:                                  # chasing: runs needed v balls left
                band[rule.chase_attacks(target - runs, fmt.balls_per_innings - legal)
                     & (target < BIG)] = wih.ATTACK
            a = np.flatnonzero((band == wih.ATTACK) & (code == m.DOT))
            if len(a):
                code[a] = attack_of.take(rule_d20[a])
            c = np.flatnonzero((band == wih.CONSOLIDATE) & (rule_d20 <= rule.consolidate_safe))
            if len(c):
                code[c] = consolidate_of.take(code[c])
        if any_free_hit:                                    # R6: only a run-out stands
            h = np.flatnonzero(free_hit)
            code[h] = FREE_HIT_MAP.take(code[h])
        if len(run_outs):
            code[run_outs] = m.DOT                          # R4: a run-out scores nothing

        # running sums: the striker's figures, the over's, legal balls and the total
        acc_s += BAT_DELTA.take(code)
        acc_u += UNIT_EXTRAS_DELTA.take(code)
        is_legal = LEGAL.take(code)
        total = TOTAL.take(code)
        for k, edge in enumerate(edges):   # phase totals: the total before the first ball past it
            if edge_open[k] and step > edge:
                passed = np.flatnonzero((legal == edge) & (is_legal == 1))
                at_edge[k, lane[passed]] = runs[passed]
        legal += is_legal
        runs += total
        for k, edge in enumerate(edges):
            if edge_open[k] and step > edge:
                edge_open[k] = bool(legal.min() <= edge)

        ended = None
        outs = np.flatnonzero(OUT_CODE.take(code))
        if len(run_outs):
            outs = np.concatenate([outs, run_outs])
        if len(outs):
            striker_out = np.ones(len(outs), bool)
            if len(run_outs):                               # the chart d6 says which end
                striker_out[len(outs) - len(run_outs):] = chart_d6[run_outs] < 3
            wk = wickets[outs] + 1
            wickets[outs] = wk
            phase_wickets[lane[outs] * 3 + phase_of.take(legal[outs])] += 1
            st, nst, nxt = striker[outs], non_striker[outs], next_in[outs]
            gone = np.where(striker_out, st, nst)
            bat_out[gone] += 1
            bat[gone] += np.where(striker_out, acc_s[outs], acc_n[outs])
            comes_in = wk < max_wickets
            new_row = bat_rows.take(np.minimum(nxt, L * SLOTS - 1))
            s_in, n_in = striker_out & comes_in, ~striker_out & comes_in
            striker[outs] = np.where(s_in, nxt, st)         # R4/R5: the new batter takes that end
            srow[outs] = np.where(s_in, new_row, srow[outs])
            acc_s[outs] = np.where(striker_out, 0, acc_s[outs])
            non_striker[outs] = np.where(n_in, nxt, nst)
            nrow[outs] = np.where(n_in, new_row, nrow[outs])
            acc_n[outs] = np.where(striker_out, acc_n[outs], 0)
            next_in[outs] = nxt + comes_in
            if not comes_in.all():
                ended = outs[~comes_in]
        legal_ball = is_legal.astype(bool)
        end_of_over = over_ends.take(legal) & legal_ball
        eo = np.flatnonzero(end_of_over)
        if len(eo):                                         # the over's figures, the next bowler
            unit_stats[bowler[eo]] = acc_u[eo]
            acc_u[eo] = 0
            bowler[eo] += 1
            brow[eo] = plan_rows.take(bowler[eo], mode="clip")  # (past the last over: unused)
        swap = SWAP_ON_RUNS.take(code) ^ (end_of_over if bpe == bpo else
                                          end_changes.take(legal) & legal_ball)
        swap = -swap.view(np.int8).astype(np.int64)         # all ones where the ends change
        for a_, b_ in ((striker, non_striker), (srow, nrow), (acc_s, acc_n)):
            flip = a_ ^ b_                                  # ends change on odd runs and every
            flip &= swap                                    # over (10 balls in the Hundred)
            a_ ^= flip
            b_ ^= flip
        if any_free_hit:                                    # a wide keeps the free hit
            still = code[h] == m.WIDE
        free_hit[:] = IS_NO_BALL.take(code)
        if any_free_hit:
            free_hit[h] |= still
        any_free_hit = bool(free_hit.any())

        done = legal >= max_balls if step >= max_balls else None
        if chasing:
            done = runs >= target if done is None else done | (runs >= target)
        if ended is not None:
            if done is None:
                done = np.zeros(n, bool)
            done[ended] = True
        if done is not None and done.any():
            ended_at = np.flatnonzero(done)
            final[:, lane.take(ended_at)] = S.take(ended_at, axis=1)
            S = S.take(np.flatnonzero(~done), axis=1)   # (take: a third faster than a mask)
            any_free_hit = bool(S[_FREE_HIT].any())

    # close every innings: the two batters' figures and the over in progress
    np.add.at(bat, final[_ST], final[_ACC_S])
    np.add.at(bat, final[_NST], final[_ACC_N])
    part = np.flatnonzero(final[_ACC_U])
    unit_stats[final[_BOWLER, part]] = final[_ACC_U, part]
    final_runs = final[_RUNS]

    bat2 = bat.reshape(L, SLOTS)
    unit2 = unit_stats.reshape(L, units)
    cut = [np.where(e < 0, final_runs, e) for e in at_edge] + [final_runs]
    while len(cut) < 3:
        cut.insert(-1, final_runs)
    phase_runs = np.stack([cut[0], cut[1] - cut[0], cut[2] - cut[1]], axis=1).astype(np.int32)
    return InningsBatch(
        runs=final_runs.astype(np.int32), wickets=final[_WICKETS].astype(np.int32),
        legal_balls=final[_LEGAL].astype(np.int32),
        wides=_field(unit2, UNIT_WIDES_SHIFT, 8).sum(axis=1, dtype=np.int32),
        no_balls=_field(unit2, UNIT_NO_BALLS_SHIFT, 8).sum(axis=1, dtype=np.int32),
        byes=_field(unit2, UNIT_BYES_SHIFT, 8).sum(axis=1, dtype=np.int32), phase_runs=phase_runs,
        phase_wickets=phase_wickets.reshape(L, 3),
        bat_runs=_field(bat2, BAT_SHIFT["runs"]), bat_balls=_field(bat2, BAT_SHIFT["balls"]),
        bat_fours=_field(bat2, BAT_SHIFT["fours"], 8), bat_sixes=_field(bat2, BAT_SHIFT["sixes"], 8),
        bat_out=bat_out.reshape(L, SLOTS),
        bat_in=(np.arange(SLOTS) < (final[_NEXT] - final[_LANE] * SLOTS)[:, None]).astype(np.int32),
        unit_runs=_field(unit2, UNIT_SHIFT["runs"]),
        unit_wickets=_field(unit2, UNIT_SHIFT["wickets"], 8),
        unit_balls=_field(unit2, UNIT_SHIFT["balls"], 8), deliveries=deliveries)


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
