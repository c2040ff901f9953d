"""`validate`: every card against the league-average opponent, real beside simulated.

Each striker card faces the league-average bowler (each delivery's bowler card drawn in
proportion to real balls bowled, which is the calibration layer's ball-weighted mean card) and
each bowler card the league-average striker, for N balls, with the league-average fielding
side (`cardgen.calibrate.expect.skill_from_card_set`). Deliveries run in sequence per stream
so no-balls give real free hits.

Tolerance (the pass/fail rule): a qualified card (>= 60 real balls) passes a metric when its real
rate lies inside the 95% interval of what the simulated card would produce over the same number
of balls: sim +/- 1.96 * sqrt(v / n_real + v / n_sim), v the simulated per-ball variance (ratio
estimator for strike rate and economy). This is the same question as the calibration layer's
analytic report (is the real figure a plausible draw from the card?), asked by simulation.
A card passes when all four of its metrics pass; at least 95% of qualified cards must pass,
counting only the cards the game can reproduce. A card whose only misses are headline figures
(strike rate or dismissal rate, economy or wicket rate) that no printed card could reach is "at
its limit" (`cardgen.calibrate.report.reachable`: e.g. an opener out once in 50 balls, below the
floor the league-average bowler's own W faces set): the report lists those cards and why, and
the pass share leaves them out of the count (the check is of the card set, and nothing in the
set could do better).

The per-check gates are family-wise (Bonferroni): a run makes hundreds of gate checks (every
qualified card-metric: is the real rate a plausible draw?) and over a thousand engine checks
(every card-metric: does the simulated figure agree with the analytic `expected` figure within
its simulation standard error?). A fixed z per check would fail a correct set by chance in a
few percent of seeds (z = 4 over 1,200 engine checks: 7%). So the family error FAMILY_ALPHA =
1% is split evenly between the two families, and each check's two-sided bound is
z = Phi^-1(1 - alpha / (2 N)) for its family's N checks (about 4.5 for 660 gate checks, 4.6 for
1,200 engine checks): a correct set passes both families with probability >= 99% whatever the
seed. The report says how many checks ran and the bounds used.

With the wickets-in-hand rule, each card plays every delivery in a band drawn from the bands
its player really batted or bowled in (the card's `situations`), so the simulated figures, the
analytic `expected` block and the real season all describe the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import numpy as np
import pandas as pd

from cardgen import wickets_in_hand as wih
from cardgen.cardset import Card, CardSet
from cardgen.sim import fast
from cardgen.sim import model as m
from cardgen.sim.model import CompiledSet

if TYPE_CHECKING:
    from cardgen.calibrate.expect import LeagueModel

QUALIFY_BALLS = 60
Z95 = 1.959964
FAMILY_ALPHA = 0.01     # P(a correct set fails any per-check gate), split over the two families
PASS_SHARE = 0.95


def family_z(n_checks: int, alpha: float = FAMILY_ALPHA / 2) -> float:
    """Two-sided Bonferroni bound: each of n checks at alpha / n."""
    return NormalDist().inv_cdf(1 - alpha / (2 * max(n_checks, 1)))
STREAMS_PER_CARD = 40   # independent delivery streams per card, run side by side

STRIKER_METRICS = ("strike_rate", "dismissal_rate", "fours", "sixes")
BOWLER_METRICS = ("economy", "wicket_rate", "fours", "sixes")
SCALE = {"strike_rate": 100.0, "economy": 6.0}


@dataclass
class FieldingOdds:
    catch: float
    run_out_single: float
    run_out_with_keeper: float
    stumping: float


def league_fielding(card_set: CardSet) -> FieldingOdds:
    from cardgen.calibrate.expect import skill_from_card_set
    s = skill_from_card_set(card_set)
    return FieldingOdds(s.catch, s.run_out_single, s.run_out_with_keeper, s.stumping)


# the rule a card set was calibrated for, with its own attack faces (sets written before issue
# 17: as printed); the simulate command and the tests read it from here
rule_of = wih.rule_of_set


def _opponent_weights(cards: list[Card]) -> np.ndarray:
    w = np.array([max(int(c.real.balls or 0), 0) for c in cards], float)
    return w / w.sum() if w.sum() > 0 else np.full(len(cards), 1 / len(cards))


def simulate_deliveries(cs: CompiledSet, card_set: CardSet, kind: str, rows: np.ndarray,
                        n_balls: int, rng: np.random.Generator,
                        progress: Callable[[int], Any] | None = None) -> dict[str, np.ndarray]:
    """Per card row (of `kind`), sums over ~n_balls deliveries against the average opponent.

    Returns per-card sums of the denominator (balls faced / legal balls), of each metric's
    numerator and of the moments the intervals need.
    """
    k = STREAMS_PER_CARD
    lanes = np.repeat(rows, k)
    n_lanes = len(lanes)
    steps = int(np.ceil(n_balls / k))
    opp_cards = cs.bowler_cards if kind == "striker" else cs.striker_cards
    cum = np.cumsum(_opponent_weights(opp_cards))
    cum[-1] = 1.0
    odds = league_fielding(card_set)
    rule = rule_of(card_set)
    if rule is not None:   # each card's band shares: its player's real situations
        cards = cs.striker_cards if kind == "striker" else cs.bowler_cards
        shares = np.array([[float((cards[r].situations or {}).get(b, 0.0)) for b in wih.BANDS]
                           for r in rows], float).reshape(len(rows), len(wih.BANDS))
        shares[shares.sum(axis=1) <= 0, wih.NORMAL] = 1.0
        band_cum = np.cumsum(shares / shares.sum(axis=1, keepdims=True), axis=1)
        band_cum[:, -1] = 1.0
        band_cum = np.repeat(band_cum, k, axis=0)
    lut = np.concatenate([cs.bowler_lut, cs.striker_lut]).astype(np.int8).ravel()
    fielding = cs.fielding.astype(np.int8).ravel()
    n_b = len(cs.bowler_lut)
    names = ("y", "runs", "out", "fours", "sixes", "deliveries", "non_striker_out")
    sums = {n: np.zeros(n_lanes) for n in names}
    sq = {n: np.zeros(n_lanes) for n in ("runs", "out", "fours", "sixes")}
    cross = {n: np.zeros(n_lanes) for n in ("runs", "out", "fours", "sixes")}
    y2 = np.zeros(n_lanes)
    free_hit = np.zeros(n_lanes, bool)
    for _ in range(steps):
        if progress is not None:
            progress(k)  # balls per card, STREAMS_PER_CARD at a time
        opp = np.searchsorted(cum, rng.random(n_lanes), side="right")
        bowler, striker = (opp, lanes) if kind == "striker" else (lanes, opp)
        card_d6 = rng.integers(0, 6, n_lanes)
        roll = rng.integers(0, 100, n_lanes)
        chart_d6 = rng.integers(0, 6, n_lanes)
        chart_d20 = rng.integers(0, 20, n_lanes)
        chance = 20.0 * (1.0 - rng.random(n_lanes))        # uniform on (0, 20]
        with_keeper = (chart_d6 != 1) & (chart_d6 != 4)
        band = rule_d20 = None
        if rule is not None:
            band = (rng.random(n_lanes)[:, None] >= band_cum).sum(axis=1)
            rule_d20 = rng.integers(1, 21, n_lanes)
        code, run_out = fast.resolve(
            lut, fielding, n_b, bowler, striker, free_hit, card_d6, roll, chart_d6, chart_d20,
            chance, catcher_c=20 * odds.catch,
            fielder_ro=np.where(with_keeper, 20 * odds.run_out_with_keeper, 20 * odds.run_out_single),
            keeper_ro=20.0, keeper_rating=20 * odds.stumping, with_keeper=with_keeper,
            rule=rule, band=band, rule_d20=rule_d20,
            # R13: the advanced rules' alone (a Quicket set carries no rating: rule_sets)
            defence=cs.striker_defence[striker] if cs.has_defence and rule is not None else None)
        bat = fast.BAT_RUNS[code]
        if kind == "striker":
            y = fast.FACED[code]
            runs = bat
            out = fast.STRIKER_OUT[code] + (run_out & (chart_d6 < 3))
        else:
            y = fast.LEGAL[code]
            runs = bat + fast.BOWLER_EXTRAS[code]
            out = fast.STRIKER_OUT[code]
        x = {"runs": runs, "out": out, "fours": bat == 4, "sixes": bat == 6}
        sums["y"] += y
        y2 += y * y
        for n, v in x.items():
            sums[n] += v
            sq[n] += v * v
            cross[n] += v * y
        sums["deliveries"] += 1
        sums["non_striker_out"] += run_out & (chart_d6 >= 3)
        free_hit = (code == m.NO_BALL) | (free_hit & (code == m.WIDE))

    def per_card(a: np.ndarray) -> np.ndarray:
        return a.reshape(len(rows), k).sum(axis=1)

    out = {n: per_card(v) for n, v in sums.items()}
    out["y2"] = per_card(y2)
    out.update({f"{n}_sq": per_card(v) for n, v in sq.items()})
    out.update({f"{n}_xy": per_card(v) for n, v in cross.items()})
    return out


def _ratio_stats(s: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """Rate R = sum x / sum y and the per-unit variance v (delta method), per card."""
    n = s["deliveries"]
    r = s[name] / s["y"]
    ey = s["y"] / n
    ed2 = (s[f"{name}_sq"] - 2 * r * s[f"{name}_xy"] + r * r * s["y2"]) / n
    return r, ed2 / ey


def _real_rates(card: Card, kind: str) -> tuple[int, dict[str, float]]:
    real = card.real
    balls = int(real.balls or 0)
    if balls <= 0:
        return 0, {}
    runs = float(real.runs or 0)
    rates = {"fours": (real.fours or 0) / balls, "sixes": (real.sixes or 0) / balls}
    if kind == "striker":
        rates |= {"strike_rate": 100 * runs / balls,
                  "dismissal_rate": (real.dismissals or 0) / balls}
    else:
        rates |= {"economy": 6 * runs / balls, "wicket_rate": (real.dismissals or 0) / balls}
    return balls, rates


def validate_cards(card_set: CardSet, n_balls: int, rng: np.random.Generator,
                   cs: CompiledSet | None = None,
                   progress: Callable[[int], Any] | None = None) -> pd.DataFrame:
    """One row per card: real, simulated and analytic figures, intervals and pass flags."""
    cs = cs or m.compile_card_set(card_set)
    # the non-striker's run-outs: a batter spends as many deliveries at the other end as on
    # strike (the calibration layer's model); measured from average-vs-average deliveries
    weights = _opponent_weights(cs.striker_cards)
    avg_rows = np.searchsorted(np.cumsum(weights), rng.random(STREAMS_PER_CARD * 25),
                               side="right").clip(max=len(weights) - 1)
    avg = simulate_deliveries(cs, card_set, "striker", avg_rows, 200, rng)
    nsro_per_delivery = avg["non_striker_out"].sum() / avg["deliveries"].sum()

    from cardgen.calibrate.expect import model_from_card_set
    model = model_from_card_set(card_set)   # the expectation the engine is held to
    frames = []
    for kind, cards, metrics in (("striker", cs.striker_cards, STRIKER_METRICS),
                                 ("bowler", cs.bowler_cards, BOWLER_METRICS)):
        rows = np.arange(len(cards))
        analytic = analytic_figures(card_set, cards, kind, model)
        s = simulate_deliveries(cs, card_set, kind, rows, n_balls, rng, progress)
        if kind == "striker":
            # add non-striker run-outs to the striker's dismissals, per delivery at the other end
            s["out"] = s["out"] + nsro_per_delivery * s["deliveries"]
            s["out_sq"] = s["out_sq"] + nsro_per_delivery * s["deliveries"]
            s["out_xy"] = s["out_xy"] + nsro_per_delivery * s["deliveries"]
        table = []
        for i, card in enumerate(cards):
            n_real, real = _real_rates(card, kind)
            row = {"kind": kind, "player_id": card.player.id,
                   "name": card.player.name if card.player.name is not None else card.player.id,
                   "team": card.team, "real_balls": n_real,
                   "sim_balls": int(s["y"][i]), "qualified": n_real >= QUALIFY_BALLS}
            ok_all = True
            expected = analytic[i]
            for metric in metrics:
                num = {"strike_rate": "runs", "economy": "runs", "dismissal_rate": "out",
                       "wicket_rate": "out", "fours": "fours", "sixes": "sixes"}[metric]
                r, v = _ratio_stats({k: (a[i] if isinstance(a, np.ndarray) else a)
                                     for k, a in s.items()}, num)
                scale = SCALE.get(metric, 1.0)
                sim = float(r * scale)
                sim_se = float(np.sqrt(v / s["y"][i]) * scale)
                row[f"sim_{metric}"] = round(sim, 4)
                row[f"real_{metric}"] = round(real[metric], 4) if metric in real else None
                if n_real > 0:
                    half = Z95 * float(np.sqrt(v / n_real + v / s["y"][i])) * scale
                    row[f"lo_{metric}"] = round(sim - half, 4)
                    row[f"hi_{metric}"] = round(sim + half, 4)
                    ok = bool(abs(real[metric] - sim) <= half + 1e-9)
                    row[f"gate_z_{metric}"] = round(abs(real[metric] - sim) * Z95 / half, 3) \
                        if half > 0 else 0.0
                else:
                    row[f"lo_{metric}"] = row[f"hi_{metric}"] = None
                    ok = True
                row[f"ok_{metric}"] = ok
                ok_all &= ok
                if metric in expected and expected[metric] is not None:
                    exp = float(expected[metric])
                    row[f"expected_{metric}"] = exp
                    z = (sim - exp) / sim_se if sim_se > 0 else 0.0
                    row[f"engine_z_{metric}"] = round(z, 3)
            row["ok"] = ok_all
            row["at_limit"] = (not ok_all and row["qualified"]
                               and _at_its_limit(card_set, card, kind, row))
            table.append(row)
        frames.append(pd.DataFrame(table))
    return pd.concat(frames, ignore_index=True)


HEADLINE = {"striker": ("strike_rate", "dismissal_rate"), "bowler": ("economy", "wicket_rate")}


def analytic_figures(card_set: CardSet, cards: list[Card], kind: str,
                     model: LeagueModel) -> list[dict[str, float]]:
    """Each card's exact expectation against the league-average opponent, worked out from the
    set as printed (charts, fielding chart, ratings, Defence, the rule over the player's bands):
    what the engine must reproduce. The set's stored `expected` block is the same figure for a
    set as calibrated, but not for one edited by hand (a chart or a Defence rating changed)."""
    from cardgen.calibrate.expect import defence_of, rule_matrix_of
    out = []
    for card in cards:
        slots = card.slots().astype(float)
        rule = rule_matrix_of(card_set, card)
        fig = (model.striker(slots, rule, defence_of(card)) if kind == "striker"
               else model.bowler(slots, rule))
        out.append({k: float(v) for k, v in fig.items()})
    return out


def _at_its_limit(card_set: CardSet, card: Card, kind: str, row: dict) -> bool:
    """Whether every metric this card failed is a headline figure the calibration missed by more
    than its tolerance and that no printed card could bring within it (the game's limit, not a
    fault of the set)."""
    from cardgen.calibrate.report import ECON_TOL, RATE_TOL, SR_TOL, reachable
    failed = [k for k in STRIKER_METRICS + BOWLER_METRICS if row.get(f"ok_{k}") is False]
    if not failed or any(k not in HEADLINE[kind] for k in failed):
        return False
    tolerance = {"strike_rate": SR_TOL, "economy": ECON_TOL, "dismissal_rate": RATE_TOL,
                 "wicket_rate": RATE_TOL}
    for k in failed:   # reachable() judges the misses outside the calibration's tolerance only
        exp, real = row.get(f"expected_{k}"), row.get(f"real_{k}")
        tol = tolerance[k]
        if exp is None or not real or abs(exp / real - 1) <= tol:
            return False
    return not reachable(card_set, card)


@dataclass
class ValidationSummary:
    qualified: int
    passed: int
    pass_share: float
    metric_pass: dict[str, float]
    engine_disagreements: int
    outside_gate: int
    failures: pd.DataFrame
    gate_checks: int = 0
    engine_checks: int = 0
    gate_z: float = 0.0
    engine_z: float = 0.0
    at_limit: pd.DataFrame | None = None    # failed, but no printed card could do better

    @property
    def judged(self) -> int:
        """Qualified cards the pass share counts (those at the game's limit left out)."""
        return self.qualified - (0 if self.at_limit is None else len(self.at_limit))

    @property
    def ok(self) -> bool:
        return (self.pass_share >= PASS_SHARE and self.outside_gate == 0
                and self.engine_disagreements == 0)


def summarise(table: pd.DataFrame) -> ValidationSummary:
    """Pass shares and the family-wise gates; sets the table's `within_gate` and `engine_ok`."""
    gate_cols = [c for c in table.columns if c.startswith("gate_z_")]
    engine_cols = [c for c in table.columns if c.startswith("engine_z_")]
    qualified = table["qualified"].astype(bool)
    gate = table.loc[qualified, gate_cols]
    n_gate = int(gate.notna().to_numpy().sum())
    n_engine = int(table[engine_cols].notna().to_numpy().sum())
    gate_z, engine_z = family_z(n_gate), family_z(n_engine)
    table["within_gate"] = ~(table[gate_cols].fillna(0).to_numpy() > gate_z + 1e-9).any(axis=1) \
        | ~qualified
    table["engine_ok"] = ~(table[engine_cols].abs().fillna(0).to_numpy() > engine_z).any(axis=1)
    q = table[table["qualified"]]
    metric_pass = {}
    for col in [c for c in table.columns if c.startswith("ok_")]:
        vals = q[col].dropna()
        vals = vals[q.loc[vals.index, col.replace("ok_", "real_")].notna()]
        if len(vals):
            metric_pass[col[3:]] = round(float(vals.astype(bool).mean()), 4)
    passed = int(q["ok"].sum())
    limit = q["at_limit"].astype(bool) if "at_limit" in q else pd.Series(False, index=q.index)
    judged = len(q) - int(limit.sum())
    share = passed / judged if judged else 1.0
    return ValidationSummary(qualified=len(q), passed=passed, pass_share=share,
                             metric_pass=metric_pass,
                             engine_disagreements=int((~table["engine_ok"]).sum()),
                             outside_gate=int((~q["within_gate"] & ~limit).sum()),
                             failures=q[~q["ok"] & ~limit], gate_checks=n_gate, engine_checks=n_engine,
                             gate_z=round(gate_z, 3), engine_z=round(engine_z, 3), at_limit=q[limit])
