"""Solve each card so the player, against the league-average opponent, reproduces his real season.

In play a delivery reads the bowler's card half the time and the striker's half the time, so
    P(outcome | player vs average) = 1/2 (card_player A) + 1/2 (mean_card_opponent A)
where A maps card results to outcomes (F through the fielding chart). Setting that equal to the
player's real rates gives the "2 x player - average" card, done exactly: each figure that
matters is a ratio of linear functions of the slots (e.g. runs off the bat / balls faced), so
"figure = target" is one linear equation in the slots.

`continuous_card` solves the weighted equations with real-valued, non-negative slots summing to
100 (bounded least squares; a robust loss when some figure is out of reach); it drives the
fixed point of the league means. `exact_card` makes the printed card: an exhaustive search of
the dismissal and fielding slots (B, W, F) on the exact expectation, then the whole-number run
content nearest the runs target, split between 0/1/2/4/6 to fit the shape (4s, 6s, dots, 1s).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import least_squares, lsq_linear, nnls

try:  # scipy's own TRF solver, without `least_squares`' per-call checks and wrappers
    import inspect

    from scipy.optimize._lsq.common import make_strictly_feasible
    from scipy.optimize._lsq.least_squares import (check_tolerance, check_x_scale,
                                                   construct_loss_function)
    from scipy.optimize._lsq.trf import trf as _trf
    _TRF_PARAMETERS = ("fun", "jac", "x0", "f0", "J0", "lb", "ub", "ftol", "xtol", "gtol",
                       "max_nfev", "x_scale", "loss_function", "tr_solver", "tr_options",
                       "verbose")
    if tuple(inspect.signature(_trf).parameters)[:len(_TRF_PARAMETERS)] != _TRF_PARAMETERS:
        _trf = None  # another scipy: `least_squares` as it is
    if "method" in inspect.signature(check_x_scale).parameters:  # scipy 1.16 and newer
        def _unit_x_scale(x0: np.ndarray) -> np.ndarray:
            return check_x_scale(None, x0, "trf")
    else:  # scipy 1.15 and older (the newest for Python 3.10): the default x_scale is 1.0
        def _unit_x_scale(x0: np.ndarray) -> np.ndarray:
            return check_x_scale(1.0, x0)
except ImportError:
    _trf = None

from cardgen.calibrate.dot_faces import dot_face_floor
from cardgen.calibrate.expect import LeagueModel, delivery
from cardgen.calibrate.model import (
    BAT_RUNS,
    BOWLER_WICKET,
    CARD_INDEX,
    CARD_RESULTS,
    CHARGED_TO_BOWLER,
    FACED,
    LEGAL,
    N_OUT,
    OUT,
    SLOTS,
    STRIKER_OUT,
)

try:  # scipy's compiled NNLS itself, without `nnls`' argument checks (as costly as the solve)
    from scipy.optimize._slsqplib import nnls as _compiled_nnls
    # another scipy may call it otherwise: then `nnls` as it is
    if not np.array_equal(_compiled_nnls(np.eye(2), np.array([1.0, -1.0]), 6)[0], [1.0, 0.0]):
        _compiled_nnls = None
except (ImportError, TypeError, ValueError, IndexError):
    _compiled_nnls = None


def _nnls(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`scipy.optimize.nnls(a, b)[0]` (RuntimeError: too many iterations), for the small
    float systems of this module."""
    if _compiled_nnls is None or not (np.isfinite(a).all() and np.isfinite(b).all()):
        return nnls(a, b)[0]
    x, _, info = _compiled_nnls(np.ascontiguousarray(a, float), np.asarray(b, float),
                                3 * a.shape[1])
    if info == 3:
        raise RuntimeError("Maximum number of iterations reached.")
    return x


STRIKER_RESULTS = ("W", "F", "0", "1", "2", "4", "6")
BOWLER_RESULTS = ("B", "W", "F", "0", "1", "2", "4", "6")

# Tolerances used as error units (relative for the headline figures). The headline rates are
# weighted far above the shape terms so the search never trades them away.
# Errors are in tolerance units (relative error x weight; 5 units = the judged tolerance of the
# headline figures). The loss is quadratic near zero and only logarithmic far out (Cauchy), so a
# figure that is out of reach anyway (a bowler whose wicket rate is below what the striker half
# alone gives) stops pulling, instead of pushing another figure (his wides, hence his economy)
# out of tolerance to miss by a little less.
ROBUST_DELTA = 5.0


def robust(e: np.ndarray) -> np.ndarray:
    return ROBUST_DELTA ** 2 * np.log1p((e / ROBUST_DELTA) ** 2)


@dataclass
class Target:
    """A card's real per-ball figures (after shrinkage) and the weights of each in the fit."""
    kind: str  # "striker" | "bowler"
    figures: dict[str, float]
    weights: dict[str, float] = field(default_factory=dict)
    scales: dict[str, float] = field(default_factory=dict)  # error unit of each figure
    slot_prior: dict[str, tuple[float, float]] = field(default_factory=dict)  # result -> (slots, weight per slot)
    # the player's real dot share over the league's (small samples: shrunk); sets the card's
    # floor of dot faces (calibrate.dot_faces); 0: no floor
    dot_ratio: float = 0.0


def _indicator(name: str) -> np.ndarray:
    v = np.zeros(N_OUT)
    v[OUT[name]] = 1.0
    return v


DOTS = FACED - (BAT_RUNS > 0).astype(float)
F_DISMISSAL = _indicator("lbw") + _indicator("stumped") + _indicator("run_out_striker")
EXTRAS_BOWLER = _indicator("wide") + _indicator("no_ball")


def _ratio_terms(kind: str, model: LeagueModel) -> dict[str, tuple[np.ndarray, np.ndarray, float]]:
    """figure -> (numerator vector, denominator vector, constant added to numerator per delivery)."""
    if kind == "striker":
        ns = model.non_striker_run_out
        return {
            "runs": (BAT_RUNS, FACED, 0.0),
            "dismissal_rate": (STRIKER_OUT, FACED, ns),
            "fours": (_indicator("4"), FACED, 0.0),
            "sixes": (_indicator("6"), FACED, 0.0),
            "dots": (DOTS, FACED, 0.0),
            "ones": (_indicator("1"), FACED, 0.0),
            "field_outs": (F_DISMISSAL, FACED, ns),
        }
    return {
        "bat": (BAT_RUNS, LEGAL, 0.0),
        "conceded": (BAT_RUNS + CHARGED_TO_BOWLER, LEGAL, 0.0),
        "wicket_rate": (BOWLER_WICKET, LEGAL, 0.0),
        "fours": (_indicator("4"), LEGAL, 0.0),
        "sixes": (_indicator("6"), LEGAL, 0.0),
        "dots": (DOTS, LEGAL, 0.0),
        "ones": (_indicator("1"), LEGAL, 0.0),
        "extras": (EXTRAS_BOWLER, LEGAL, 0.0),
        "bowled": (_indicator("bowled"), LEGAL, 0.0),
    }


CONTINUOUS_EXTRAS_BOOST = 50.0


def _continuous_setup(model: LeagueModel, kind: str) -> tuple:
    """What `continuous_card` needs from the model, once per model and kind: each ratio term's
    numerator and denominator carried through d p / d slot and through the opponent's half of
    the delivery (so a card's rows are two axpys), the terms' names and constants, and the slot
    bounds."""
    cache = _model_cache(model)
    if ("continuous", kind) not in cache:
        opponent = model.mean_bowler if kind == "striker" else model.mean_striker
        allowed = STRIKER_RESULTS if kind == "striker" else BOWLER_RESULTS
        # d p / d slot (a bowler's W meets the league's mean Defence, R13)
        half = (model.a if kind == "striker" else model.a_bowler) / (2 * SLOTS)
        const = opponent @ (model.a / (2 * SLOTS))   # opponent's half of the delivery
        ub = np.array([SLOTS if r in allowed else 1e-9 for r in CARD_RESULTS], float)
        terms = _ratio_terms(kind, model)
        num = np.array([t[0] for t in terms.values()])
        den = np.array([t[1] for t in terms.values()])
        boost = tuple(CONTINUOUS_EXTRAS_BOOST if kind == "bowler" and n == "extras" else 1.0
                      for n in terms)  # plain floats: `continuous_system` reads them one by one
        num_rows, den_rows = num @ half.T, den @ half.T
        n = len(CARD_RESULTS)
        # the five per-term arrays side by side, so a card's terms are gathered in one step
        packed = np.column_stack([num_rows, den_rows, num @ const, den @ const,
                                  np.array([t[2] for t in terms.values()])])
        cache["continuous", kind] = (tuple(terms), packed, n, boost, ub)
    return cache["continuous", kind]


BOUND_SLACK = 1e-6  # slots: NNLS over an upper bound by this little is clipped (cards print whole slots)


def _bounded_lsq(m: np.ndarray, y: np.ndarray, ub: np.ndarray) -> np.ndarray:
    """min |m x - y| for 0 <= x <= ub, where ub is either ~0 (a result the card cannot hold) or
    at least the 100 slots that the heavily weighted sum row keeps x under: so a non-negative
    least squares on the allowed columns, scipy's compiled NNLS, ~15x faster than BVLS on these
    tiny systems (the calibration makes thousands) and the same solution to ~1e-9. A card of
    one result lands a few 1e-8 over its 100 slots (the sum row's weight is finite): clipped
    to the bound, within 1.2e-7 slots of what BVLS gives (BBL 2024-25: 565 such solves, each
    costing a BVLS 15 times an NNLS). BVLS where an upper bound would bind by more, or NNLS
    gives up."""
    allowed = ub >= 1
    x = np.zeros(len(ub))
    try:
        x[allowed] = _nnls(m[:, allowed], y)
    except RuntimeError:  # too many iterations
        return lsq_linear(m, y, bounds=(np.zeros(len(ub)), ub), method="bvls").x
    over = x > ub
    if over.any():
        if np.any(x[over] > ub[over] + BOUND_SLACK):
            return lsq_linear(m, y, bounds=(np.zeros(len(ub)), ub), method="bvls").x
        x[over] = ub[over]
    return x


def _robust_trf(resid: Callable[[np.ndarray], np.ndarray], m: np.ndarray, x0: np.ndarray,
                lb: np.ndarray, ub: np.ndarray, loss: Callable[[np.ndarray], np.ndarray]
                ) -> np.ndarray:
    """`least_squares(resid, x0, jac=lambda x: m.copy(), bounds=(lb, ub), loss=loss,
    method="trf").x`, the very same computation: what `least_squares` does before its TRF loop
    (the defaults' tolerances and unit scale, x0 nudged strictly inside the bounds, the loss
    wrapped), then scipy's TRF itself. `least_squares`' checks and function wrappers cost more
    than the solve on these ~10 x 10 systems (thousands per season). Each Jacobian is a fresh
    copy of `m` (TRF scales it in place)."""
    if _trf is None:
        # a copy each call: scipy 1.15 and older hand `jac`'s own array to TRF, which scales it
        return least_squares(resid, x0, jac=lambda x: m.copy(), bounds=(lb, ub), loss=loss,
                             method="trf").x
    x0 = make_strictly_feasible(np.asarray(x0, float), lb, ub)
    f0 = np.atleast_1d(resid(x0))
    ftol, xtol, gtol = check_tolerance(1e-8, 1e-8, 1e-8, "trf")
    return _trf(lambda x: np.atleast_1d(resid(x)), lambda x, *_: m.copy(), x0, f0, m.copy(),
                lb, ub, ftol, xtol, gtol, None, _unit_x_scale(x0),
                construct_loss_function(len(f0), loss, 1.0), "exact", {}, 0).x


IRLS_MAX_ITER = 200
IRLS_XTOL = 1e-9  # slots: a step this small ends the iteration (cards are printed in whole slots)


def _robust_irls(m: np.ndarray, y: np.ndarray, ub: np.ndarray, x0: np.ndarray
                 ) -> np.ndarray | None:
    """The robust fit of `continuous_card` (Cauchy loss on every row but the last, the
    quadratic sum-to-100 row) by iteratively reweighted NNLS from `x0`: each step solves the
    least squares with each row weighted by the loss's slope at the last residuals. The Cauchy
    loss is concave in the squared residual, so every step lowers the robust cost (a
    majorise-minimise step) and the fixed point is the bounded problem's stationary point. A
    few compiled NNLS of ~10 x 8 (a median of 4) cost far less than scipy's TRF, which also
    stopped short on a quarter of these fits (BBL 2024-25: costs up to 4 units higher). None:
    not settled in IRLS_MAX_ITER steps, or an upper bound would bind (then TRF decides)."""
    allowed = ub >= 1
    ma = m[:, allowed]
    x = x0[allowed]
    w = np.ones(len(y))
    for _ in range(IRLS_MAX_ITER):
        r = ma @ x - y
        w[:-1] = 1.0 / np.sqrt(1.0 + r[:-1] ** 2 / ROBUST_DELTA ** 2)
        try:
            step = _nnls(ma * w[:, None], y * w)
        except RuntimeError:
            return None
        done = np.max(np.abs(step - x)) < IRLS_XTOL
        x = step
        if done:
            out = np.zeros(len(ub))
            out[allowed] = x
            # a card of one result lands a few 1e-8 over its 100 slots (the sum row's weight
            # is finite); the card is normalised to 100 slots anyway
            return out if np.all(out <= ub + 1e-6) else None
    return None


def _robust_trf_card(m: np.ndarray, y: np.ndarray, ub: np.ndarray, first: np.ndarray
                     ) -> np.ndarray:
    """The robust fit by scipy's TRF, where `_robust_irls` does not settle."""
    def resid(x: np.ndarray) -> np.ndarray:
        return m @ x - y

    def loss(z: np.ndarray) -> np.ndarray:  # scipy's rho: value, first, second derivative
        d2 = ROBUST_DELTA ** 2
        rho = np.empty((3, len(z)))
        rho[0] = d2 * np.log1p(z / d2)
        rho[1] = 1.0 / (1.0 + z / d2)
        rho[2] = -1.0 / (d2 * (1.0 + z / d2) ** 2)
        rho[:, -1] = (z[-1], 1.0, 0.0)  # the sum-to-100 row stays quadratic
        return rho
    x0 = np.clip(first, 0, ub)
    return _robust_trf(resid, m, x0, np.zeros(len(ub)), ub + 1e-12, loss)


def continuous_system(target: Target, model: LeagueModel
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`continuous_card`'s weighted linear system (m, y) and its slot bounds: a row per
    weighted figure and slot prior, the heavily weighted sum-to-100 row last."""
    names, packed, k, boost, ub = _continuous_setup(model, target.kind)
    # one row per weighted figure: scale x (d p / d slot) . (num - t den), its right-hand side
    # the opponent's half and the constant; the extras boosted as the exact solve weighs them
    # (F follows the extras first)
    weights, figures, scales = target.weights, target.figures, target.scales
    use: list[int] = []
    t_list: list[float] = []
    scale_list: list[float] = []
    for j, n in enumerate(names):  # one pass in plain Python (16,000 systems a season)
        wb = weights.get(n, 0.0) * boost[j]
        tv = figures.get(n)
        if wb and tv is not None:
            use.append(j)
            t_list.append(tv)
            scale_list.append(wb / scales.get(n, max(abs(tv), 1e-3)))
    n_prior = len(target.slot_prior)
    m = np.zeros((len(use) + n_prior + 1, len(CARD_RESULTS)))
    y = np.empty(len(m))
    if use:
        t, scale = np.array(t_list), np.array(scale_list)
        rows = packed if len(use) == len(names) else packed[use]
        num_rows, den_rows = rows[:, :k], rows[:, k:2 * k]
        num_const, den_const, extra = rows[:, 2 * k], rows[:, 2 * k + 1], rows[:, 2 * k + 2]
        m[:len(use)] = scale[:, None] * (num_rows - t[:, None] * den_rows)
        y[:len(use)] = -scale * (num_const - t * den_const + extra)
    for i, (result, (value, w)) in enumerate(target.slot_prior.items(), start=len(use)):
        m[i, CARD_INDEX[result]] = w
        y[i] = w * value
    big = 1e4
    m[-1], y[-1] = big, big * SLOTS
    return m, y, ub


def continuous_card(target: Target, model: LeagueModel) -> np.ndarray:
    """Bounded least-squares card (real-valued slots >= 0 summing to 100)."""
    m, y, ub = continuous_system(target, model)
    first = _bounded_lsq(m, y, ub)
    n_terms = len(m) - 1
    if n_terms > 0 and np.any(np.abs(m[:n_terms] @ first - y[:n_terms]) > ROBUST_DELTA):
        # some figure is out of reach: re-solve with the robust loss on the figures
        robust_x = _robust_irls(m, y, ub, np.clip(first, 0, ub))
        first = robust_x if robust_x is not None else _robust_trf_card(m, y, ub, first)
    x = np.clip(first, 0, None)
    x[ub < 1] = 0.0
    return x * SLOTS / x.sum()


def solve_card(target: Target, model: LeagueModel) -> np.ndarray:
    """The card for `target` against the league means in `model` (whole slots, sum 100)."""
    return exact_card(target, model)


class Scorer:
    """Weighted error of stacks of integer cards for one target (exact expectation)."""

    def __init__(self, target: Target, model: LeagueModel) -> None:
        self.target = target
        self.model = model

    def figures(self, slots: np.ndarray, rule: np.ndarray | None = None,
                defence: float | np.ndarray = 0.0) -> dict[str, np.ndarray]:
        """Every figure the error can weigh, for a stack of cards (depends on the model only;
        `rule`: the wickets-in-hand rule's outcome matrix, see `expect.delivery`; `defence`: a
        striker's Defence rating / 20; a bowler meets the model's mean Defence)."""
        if self.target.kind == "striker":
            p = delivery(self.model.mean_bowler, slots, self.model.a, self.model.free_hit, rule,
                         defence)
            faced = p @ FACED
            ns = self.model.non_striker_run_out
            return {"runs": p @ BAT_RUNS / faced, "dismissal_rate": (p @ STRIKER_OUT + ns) / faced,
                    "fours": p[..., OUT["4"]] / faced, "sixes": p[..., OUT["6"]] / faced,
                    "dots": p @ DOTS / faced, "ones": p[..., OUT["1"]] / faced,
                    "field_outs": (p @ F_DISMISSAL + ns) / faced}
        p = delivery(slots, self.model.mean_striker, self.model.a, self.model.free_hit, rule,
                     self.model.mean_defence)
        legal = p @ LEGAL
        return {"bat": p @ BAT_RUNS / legal,
                "conceded": p @ (BAT_RUNS + CHARGED_TO_BOWLER) / legal,
                "wicket_rate": p @ BOWLER_WICKET / legal,
                "fours": p[..., OUT["4"]] / legal, "sixes": p[..., OUT["6"]] / legal,
                "dots": p @ DOTS / legal, "ones": p[..., OUT["1"]] / legal,
                "extras": p @ EXTRAS_BOWLER / legal, "bowled": p[..., OUT["bowled"]] / legal}

    def error(self, slots: np.ndarray, fig: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """Weighted error of each card; `fig`: its figures if already known (`figures(slots)`)."""
        t = self.target
        if fig is None:
            fig = self.figures(slots)
        err = np.zeros(slots.shape[:-1])
        d2 = ROBUST_DELTA ** 2
        for name, w in t.weights.items():
            if not w or name not in fig:
                continue
            tv = t.figures[name]
            # robust(w * rel) step by step in one buffer: the same operations in the same
            # order (so the same numbers), without a fresh array for each (stage 1 scores
            # thousands of cards per player)
            e = np.subtract(fig[name], tv, out=np.empty(np.shape(fig[name])))
            e /= t.scales.get(name, max(abs(tv), 1e-3))
            e *= w
            e /= ROBUST_DELTA
            np.square(e, out=e)
            np.log1p(e, out=e)
            e *= d2
            err += e
        for result, (value, w) in t.slot_prior.items():
            err = err + (w * (slots[..., CARD_INDEX[result]] - value)) ** 2
        return err


# --- exact two-stage solve ---------------------------------------------------------------------
# Stage 1 chooses the dismissal and fielding slots (B, W, F) by exhaustive search; stage 2 then
# spends the remaining slots on runs: the whole-number run content R = n1 + 2 n2 + 4 n4 + 6 n6
# nearest the exact target, then the split between 0, 1, 2, 4 and 6 that best fits the shape.
# Runs come out within half a run-slot of the target, and, for two players alike but for their
# running, the one with the higher real strike rate can never get the lower expected one (same
# B/W/F, R rounded from a higher target).

STAGE1_TERMS = {"striker": ("dismissal_rate", "field_outs"),
                "bowler": ("wicket_rate", "extras", "bowled")}
STAGE2_SHAPE = ("fours", "sixes", "dots", "ones")
RUN_RESULTS = ("0", "1", "2", "4", "6")
MAX_W, MAX_F, MAX_B = 45, 70, 30


def _stage1_grid(kind: str) -> np.ndarray:
    # every (b, w, f) with b + w + f <= 100, b slowest and f fastest (built as arrays: the
    # bowler grid's 100,000 tuples cost a calibration ~60 ms)
    b, w, f = np.meshgrid(np.arange(MAX_B + 1 if kind == "bowler" else 1), np.arange(MAX_W + 1),
                          np.arange(MAX_F + 1), indexing="ij")
    g = np.column_stack([b.ravel(), w.ravel(), f.ravel()]).astype(float)
    g = g[g.sum(axis=1) <= SLOTS]
    cards = np.zeros((len(g), len(CARD_RESULTS)))
    cards[:, CARD_INDEX["B"]], cards[:, CARD_INDEX["W"]], cards[:, CARD_INDEX["F"]] = g.T
    cards[:, CARD_INDEX["0"]] = SLOTS - g.sum(axis=1)  # run slots: their split does not matter here
    return cards


_GRIDS: dict[str, np.ndarray] = {}


_BOUNDARY_GRID = np.array([(n2, n4, n6) for n6 in range(41) for n4 in range(46) for n2 in range(41)],
                          int)
# per boundary combination: its run content (2 n2 + 4 n4 + 6 n6) and its slots (n2 + n4 + n6)
_BOUNDARY_RUNS = _BOUNDARY_GRID @ np.array([2, 4, 6])
_BOUNDARY_SLOTS = _BOUNDARY_GRID.sum(axis=1)


def _run_splits(rest: int, runs: int) -> np.ndarray:
    """All (n0, n1, n2, n4, n6) with sum `rest` and run content n1 + 2 n2 + 4 n4 + 6 n6 = `runs`
    (in boundary-grid order): the boundary combinations leaving n1 = runs - their runs >= 0
    and n0 = rest - n1 - their slots >= 0."""
    ok = (runs >= _BOUNDARY_RUNS) & (runs - _BOUNDARY_RUNS + _BOUNDARY_SLOTS <= rest)
    g = _BOUNDARY_GRID[ok]
    n1 = runs - _BOUNDARY_RUNS[ok]
    n0 = rest - n1 - _BOUNDARY_SLOTS[ok]
    return np.column_stack([n0, n1, g])


SHAPE_WINDOW = (99, 99, 8, 6, 6)  # RUN_RESULTS slots this far from the continuous card at most
_BOUNDARY_BOX = (41, 46, 41)      # _BOUNDARY_GRID as a box: n6 x n4 x n2 (n2 fastest)
_BOUNDARY_INDEX = np.arange(len(_BOUNDARY_GRID)).reshape(_BOUNDARY_BOX)


def _within(centre: float, half: int, size: int) -> tuple[int, int]:
    """The counts v in 0..size-1 with |v - centre| <= half (the float test the search makes),
    as the range lo:hi: an interval, since v - centre rounds monotonically in v. Found from
    the real interval's ends, each checked by that very test, so no rounding at an edge can
    move it."""
    lo = max(0, math.floor(centre - half) - 1)
    while lo < size and not abs(lo - centre) <= half:
        lo += 1
    hi = min(size - 1, math.floor(centre + half) + 1)
    while hi >= lo and not abs(hi - centre) <= half:
        hi -= 1
    return lo, max(hi + 1, lo)


def _near_run_splits(rest: int, runs: int, x: np.ndarray) -> np.ndarray:
    """`_run_splits(rest, runs)` restricted to splits within SHAPE_WINDOW of the continuous card
    `x` (same rows, same order): the window is cut out of the boundary box axis by axis, and
    every test is the very comparison the full search makes."""
    if not np.isfinite(x).all():
        return np.zeros((0, len(RUN_RESULTS)), int)
    box = []
    for r, half, size in zip(("6", "4", "2"), SHAPE_WINDOW[:1:-1], _BOUNDARY_BOX):
        lo, hi = _within(float(x[CARD_INDEX[r]]), half, size)
        box.append(slice(lo, hi))
    idx = _BOUNDARY_INDEX[tuple(box)].ravel()
    n1 = runs - _BOUNDARY_RUNS[idx]
    n0 = rest - n1 - _BOUNDARY_SLOTS[idx]
    ok = ((n1 >= 0) & (n0 >= 0) & (np.abs(n0 - x[CARD_INDEX["0"]]) <= SHAPE_WINDOW[0])
          & (np.abs(n1 - x[CARD_INDEX["1"]]) <= SHAPE_WINDOW[1]))
    out = np.empty((np.count_nonzero(ok), len(RUN_RESULTS)), int)
    out[:, 0], out[:, 1], out[:, 2:] = n0[ok], n1[ok], _BOUNDARY_GRID[idx[ok]]
    return out


_FEASIBLE_RUNS: dict[int, np.ndarray] = {}


def _feasible_runs(rest: int) -> np.ndarray:
    """feasible[R]: some split of `rest` run slots holds exactly R runs. Each boundary
    combination that fits reaches every R from its own runs (the rest dots) to its runs plus the
    slots left (the rest singles)."""
    if rest not in _FEASIBLE_RUNS:
        fits = rest >= _BOUNDARY_SLOTS
        lo = _BOUNDARY_RUNS[fits]
        hi = lo + rest - _BOUNDARY_SLOTS[fits]
        top = int(hi.max())
        cover = np.zeros(top + 2, int)
        np.add.at(cover, lo, 1)
        np.add.at(cover, hi + 1, -1)
        _FEASIBLE_RUNS[rest] = np.cumsum(cover)[:top + 1] > 0
    return _FEASIBLE_RUNS[rest]


def _nearest_feasible_runs(rest: int, r_star: float) -> int:
    """Whole run content nearest r_star that `rest` run slots can hold (ties: the lower)."""
    top = 6 * min(rest, 40) + 4 * min(max(rest - 40, 0), 45) + 2 * min(max(rest - 85, 0), 40) \
        + max(rest - 125, 0)
    feasible = _feasible_runs(rest)

    def holds(cand: int) -> bool:
        return 0 <= cand <= top and cand < len(feasible) and bool(feasible[cand])

    nearest = float(r_star) + 0.5
    r = min(max(math.floor(nearest), 0), top) if math.isfinite(nearest) else \
        int(np.clip(np.floor(nearest), 0, top))
    for delta in range(top + 1):
        for cand in (r - delta, r + delta):
            if holds(cand):
                return cand
    return 0


def _subset_error(target: Target, model: LeagueModel, slots: np.ndarray, terms: tuple[str, ...],
                  prior: bool, fig: dict[str, np.ndarray] | None = None) -> np.ndarray:
    t = Target(target.kind, target.figures, {k: v for k, v in target.weights.items() if k in terms},
               target.scales, target.slot_prior if prior else {})
    return Scorer(t, model).error(slots, fig)


# The stage-1 candidates and their figures depend only on the league model (and, for bowlers, on
# the F window), not on the player: computed once per model and shared by every card solved
# against it (the same arrays through the same code, so the figures are the same to the bit).
_MODEL_CACHE: dict[tuple, dict] = {}
_MODEL_CACHE_SIZE = 2


def _model_cache(model: LeagueModel) -> dict:
    key = (np.asarray(model.a, float).tobytes(), np.asarray(model.mean_bowler, float).tobytes(),
           np.asarray(model.mean_striker, float).tobytes(), bool(model.free_hit),
           float(model.mean_defence))
    if key not in _MODEL_CACHE:
        while len(_MODEL_CACHE) >= _MODEL_CACHE_SIZE:
            del _MODEL_CACHE[next(iter(_MODEL_CACHE))]
        _MODEL_CACHE[key] = {}
    return _MODEL_CACHE[key]


def _candidates(model: LeagueModel, kind: str, key: tuple, make: Callable[[], np.ndarray]
                ) -> tuple[np.ndarray, dict]:
    """Candidate cards `make()` and their figures against `model`, cached under `key`."""
    cache = _model_cache(model)
    key = (kind, *key)
    if key not in cache:
        cards = make()
        cache[key] = (cards, Scorer(Target(kind, {}), model).figures(cards))
    return cache[key]


BOWLER_F_SLACK = 5


# A minimum is "clear" when the runner-up is further away than any rounding of the figures
# could move it (figures agree to a few ulps, ~1e-15 relative, so an error term moves by < 1e-10
# even at the largest weight): argmin is then the same whichever way the figures were summed.
CLEAR_MARGIN = 1e-7


_GRID_PROJECTIONS = np.column_stack([LEGAL, BOWLER_WICKET, EXTRAS_BOWLER, _indicator("bowled"),
                                     _indicator("no_ball"), _indicator("wide")])


_PROJECTED_GRIDS: dict[tuple[bytes, int], tuple[np.ndarray, np.ndarray]] = {}


def _projected_grid(a: np.ndarray, cards: np.ndarray, projections: np.ndarray) -> np.ndarray:
    """`cards @ projections` for the bowler grid: it depends on the chart matrix `a` alone,
    which stays put while the league means move over a pass's exact rounds (several models,
    one product; the same product of the same arrays, so the same numbers)."""
    key = (np.asarray(a, float).tobytes(), id(cards))
    if key not in _PROJECTED_GRIDS:
        while len(_PROJECTED_GRIDS) >= _MODEL_CACHE_SIZE:
            del _PROJECTED_GRIDS[next(iter(_PROJECTED_GRIDS))]
        _PROJECTED_GRIDS[key] = (cards, cards @ projections)  # cards kept: the id stays theirs
    return _PROJECTED_GRIDS[key][1]


def _stage1_bowler_figures(model: LeagueModel, cards: np.ndarray) -> dict[str, np.ndarray]:
    """The bowler stage-1 figures (wicket rate, extras, bowled) of many cards, by projecting
    the delivery straight onto what they need: equal to `Scorer.figures` up to rounding (the
    free hit voids bowled/caught/lbw/stumped only, so it scales the wickets by 1 - q and leaves
    legal balls and extras alone). Used only where `_clear_minimum` guards the choice."""
    projections = model.a_bowler @ _GRID_PROJECTIONS
    opponent = np.asarray(model.mean_striker, float) @ (model.a @ _GRID_PROJECTIONS)
    legal, wickets, extras, bowled, no_ball, wide = \
        (0.5 / SLOTS * (_projected_grid(model.a_bowler, cards, projections) + opponent)).T
    kept = 1.0 - no_ball / (1.0 - wide) if model.free_hit else 1.0  # not on a free hit
    return {"wicket_rate": wickets * kept / legal, "extras": extras / legal,
            "bowled": bowled * kept / legal}


_RUN_SLOTS = [CARD_INDEX[r] for r in RUN_RESULTS]


# each shape figure: the run slot it follows (its column in RUN_RESULTS order)
_SHAPE_COLUMN = {"fours": RUN_RESULTS.index("4"), "sixes": RUN_RESULTS.index("6"),
                 "dots": RUN_RESULTS.index("0"), "ones": RUN_RESULTS.index("1")}


_RUN_SHARES = 0.5 * np.arange(SLOTS + 1) / SLOTS  # P(a run outcome) from n slots of it


def _stage2_error(target: Target, model: LeagueModel, base: np.ndarray,
                  splits: np.ndarray) -> np.ndarray:
    """The shape error (4s, 6s, dots, 1s; no slot prior) of `base` with each row of `splits`
    as its run slots (RUN_RESULTS order), equal to `_subset_error` up to rounding. Run slots
    neither take nor give free hits, so the delivery is the rest of the card's (free hit
    included) plus each run slot's own outcome; every split holds the same run slots, so the
    balls (faced, or legal) are the same for all, and each figure is then a function of one
    run slot's count alone: its error term is a table over the counts 0..100, looked up per
    split. Used only where `_clear_minimum` guards the choice."""
    kind = target.kind
    rest = np.array(base, float)
    rest[_RUN_SLOTS] = 0.0
    if kind == "striker":
        fixed = delivery(model.mean_bowler, rest, model.a, model.free_hit)
        balls = FACED  # per ball faced (every run slot is faced)
    else:
        fixed = delivery(rest, model.mean_striker, model.a, model.free_hit,
                         defence=model.mean_defence)
        balls = LEGAL  # per legal ball (every run slot is legal)
    slots = int(base[_RUN_SLOTS].sum())
    per = fixed @ balls + 0.5 * slots / SLOTS
    const = {"fours": fixed[OUT["4"]], "sixes": fixed[OUT["6"]], "dots": fixed @ DOTS,
             "ones": fixed[OUT["1"]]}
    runs = _RUN_SHARES
    err = np.zeros(len(splits))
    for name, w in target.weights.items():
        if not w or name not in const:
            continue
        tv = target.figures[name]
        rel = ((const[name] + runs) / per - tv) / target.scales.get(name, max(abs(tv), 1e-3))
        err += robust(w * rel)[splits[:, _SHAPE_COLUMN[name]]]
    return err


def _clear_minimum(err: np.ndarray) -> int | None:
    """The index of the lowest error if it is clear (see CLEAR_MARGIN), else None. The
    runner-up is clear of the lowest exactly when no other error is within the margin of it,
    so one pass counting those replaces finding the runner-up (np.partition cost as much as
    the error itself)."""
    if len(err) < 2:
        return 0 if len(err) else None
    best = int(np.argmin(err))
    lowest = float(err[best])
    if not np.isfinite(lowest) or not np.isfinite(err).all():
        return None
    near = np.count_nonzero(err - lowest <= CLEAR_MARGIN * (1.0 + abs(lowest)))
    return best if near == 1 else None


_F_WINDOWS: dict[tuple[int, int], np.ndarray] = {}


def _f_window(grid: np.ndarray, f_best: int, slack: int) -> np.ndarray:
    """Rows of the bowler grid with |F - f_best| <= slack (in grid order)."""
    if (f_best, slack) not in _F_WINDOWS:
        _F_WINDOWS[f_best, slack] = np.flatnonzero(
            np.abs(grid[:, CARD_INDEX["F"]] - f_best) <= slack)
    return _F_WINDOWS[f_best, slack]


@dataclass(frozen=True)
class _ByF:
    """The bowler grid's rows sorted by F (stable: within an F, by B then W), so each F window
    is one slice, and each run of rows sharing F (or B and F) one group."""
    grid: np.ndarray     # the grid it was made from (kept: its id stays its own)
    rows: np.ndarray     # the rows, sorted
    starts: np.ndarray   # where each F = 0..MAX_F starts (one more entry: the end)
    f_group: np.ndarray  # per row: its F
    bf_group: np.ndarray  # per row: the index of its (B, F) group
    bf_first: np.ndarray  # per (B, F) group: its first row


_BY_F: dict[int, _ByF] = {}


def _grid_by_f(grid: np.ndarray) -> _ByF:
    if id(grid) not in _BY_F:
        f = grid[:, CARD_INDEX["F"]].astype(int)
        order = np.argsort(f, kind="stable")
        rows = grid[order]
        f_sorted = f[order]
        bf = rows[:, CARD_INDEX["B"]].astype(int) * (MAX_F + 1) + f_sorted
        new_group = np.r_[True, bf[1:] != bf[:-1]]
        _BY_F[id(grid)] = _ByF(grid, rows, np.searchsorted(f_sorted, np.arange(MAX_F + 2)),
                               f_sorted, np.cumsum(new_group) - 1, np.flatnonzero(new_group))
    return _BY_F[id(grid)]


# what each bowler stage-1 figure depends on: the wicket rate on the whole card; the extras on
# F alone (only F slots make wides and no-balls, so the legal balls too); the bowled share on
# B and F (W is caught or, by Defence, a dot; neither is bowled)
_STAGE1_BOWLER_LEVEL = {"wicket_rate": "row", "extras": "f", "bowled": "bf"}


def _stage1_bowler_error(target: Target, fig: dict[str, np.ndarray], by_f: _ByF, lo: int,
                         hi: int) -> np.ndarray:
    """`_subset_error` of a bowler without a slot prior over the sorted grid's rows lo:hi (one
    F window), up to rounding: a term that depends on F, or on B and F, is scored once per
    group (on its first row) and looked up per row. Used only where `_clear_minimum` guards
    the choice."""
    err = np.zeros(hi - lo)
    for name, w in target.weights.items():
        if not w or name not in fig:
            continue
        level = _STAGE1_BOWLER_LEVEL.get(name, "row")
        if level == "row":
            idx, values = None, fig[name][lo:hi]
        elif level == "f":
            f_lo = int(by_f.f_group[lo])
            idx = by_f.f_group[lo:hi] - f_lo
            values = fig[name][by_f.starts[f_lo:int(by_f.f_group[hi - 1]) + 1]]
        else:
            g_lo = int(by_f.bf_group[lo])
            idx = by_f.bf_group[lo:hi] - g_lo
            values = fig[name][by_f.bf_first[g_lo:int(by_f.bf_group[hi - 1]) + 1]]
        tv = target.figures[name]
        term = robust(w * ((values - tv) / target.scales.get(name, max(abs(tv), 1e-3))))
        err += term if idx is None else term[idx]
    return err


def _f_only_cards() -> np.ndarray:
    """Bowler cards with F = 0..MAX_F and the rest dots (to place F on the extras alone)."""
    f_only = np.zeros((MAX_F + 1, len(CARD_RESULTS)))
    f_only[:, CARD_INDEX["F"]] = np.arange(MAX_F + 1)
    f_only[:, CARD_INDEX["0"]] = SLOTS - np.arange(MAX_F + 1)
    return f_only


def exact_card(target: Target, model: LeagueModel) -> np.ndarray:
    kind = target.kind
    if kind not in _GRIDS:
        _GRIDS[kind] = _stage1_grid(kind)
    full_grid = _GRIDS[kind]
    if kind == "bowler":
        # A bowler's F slots are the only source of his wides and no-balls (part of his economy
        # and of the league's extras), so F is set first, to his extras, and may then move by
        # BOWLER_F_SLACK slots to fine-tune his wicket rate with B and W.
        f_only, f_fig = _candidates(model, kind, ("f_only",), _f_only_cards)
        f_best = int(np.argmin(_subset_error(target, model, f_only, ("extras",), prior=False,
                                             fig=f_fig)))
        slack = BOWLER_F_SLACK
        lowest = model.bowler(f_only[max(f_best - slack, 0)])["wicket_rate"]
        if target.figures["wicket_rate"] < lowest:
            slack = 0  # out of reach even with no W or B: trimming F would only lose his wides
        terms = STAGE1_TERMS[kind]
        cache = _model_cache(model)
        # the grid sorted by F, so each F window is one slice of it (a view, not a gather)
        by_f = _grid_by_f(full_grid)
        if "stage1 bowler figures" not in cache:
            cache["stage1 bowler figures"] = _stage1_bowler_figures(model, by_f.rows)
        full_fig = cache["stage1 bowler figures"]
        lo = int(by_f.starts[max(f_best - slack, 0)])
        hi = int(by_f.starts[min(f_best + slack, MAX_F) + 1])
        if target.slot_prior:  # (bowlers have none)
            err = _subset_error(target, model, by_f.rows[lo:hi], terms, prior=True,
                                fig={k: full_fig[k][lo:hi] for k in terms})
        else:
            err = _stage1_bowler_error(
                Target(kind, target.figures, {k: v for k, v in target.weights.items()
                                              if k in terms}, target.scales),
                full_fig, by_f, lo, hi)
        best = _clear_minimum(err)
        if best is not None:  # a clear minimum: the same card whatever the window's order
            base = by_f.rows[lo + best].copy()
        else:
            # BLAS may round a row differently inside a bigger stack (by an ulp or so); only a
            # near-tie could notice, and then the window's own figures decide, as they always did
            window = _f_window(full_grid, f_best, slack)
            grid, fig = _candidates(model, kind, ("grid", f_best, slack),
                                    lambda: full_grid[window])
            err = _subset_error(target, model, grid, terms, prior=True, fig=fig)
            base = grid[int(np.argmin(err))].copy()
    else:
        grid, fig = _candidates(model, kind, ("grid",), lambda: full_grid)
        err = _subset_error(target, model, grid, STAGE1_TERMS[kind], prior=True, fig=fig)
        base = grid[int(np.argmin(err))].copy()
    rest = int(base[CARD_INDEX["0"]])
    # stage 2: run content to the nearest whole run-slot
    if kind == "striker":
        p = delivery(model.mean_bowler, base, model.a, model.free_hit)
        per = p @ FACED
        goal = target.figures["runs"]
        r_star = 2 * SLOTS * (goal * per - p @ BAT_RUNS)  # base has no run slots yet
    else:
        # economy is the judged figure: the runs make up whatever the F slots' wides and
        # no-balls leave of the real runs conceded
        p = delivery(base, model.mean_striker, model.a, model.free_hit,
                     defence=model.mean_defence)
        per = p @ LEGAL
        goal = target.figures["conceded"]
        r_star = 2 * SLOTS * (goal * per - p @ (BAT_RUNS + CHARGED_TO_BOWLER))
    r_int = _nearest_feasible_runs(rest, r_star)
    # shape search near the continuous card (any split has the same runs, so this window cannot
    # change the runs, only how they are made up); all splits if none is near
    x = continuous_card(target, model)
    chosen = _near_run_splits(rest, r_int, x)
    if not len(chosen):
        chosen = _run_splits(rest, r_int)
    # a player who bowled or faced dots shows some dot faces (calibrate.dot_faces): the
    # splits with at least the floor, from all splits if none is near; none hold it: as solved
    floor = dot_face_floor(kind, target.dot_ratio, model)
    if floor > 0 and not (chosen[:, 0] >= floor).all():
        held = chosen[chosen[:, 0] >= floor]
        if not len(held):
            every = _run_splits(rest, r_int)
            held = every[every[:, 0] >= floor]
        if len(held):
            chosen = held
    # the fast error needs no stack of whole cards: only the winner's
    shape = _stage2_error(target, model, base, chosen)
    best = _clear_minimum(shape)
    if best is not None:
        card = base.copy()
        card[_RUN_SLOTS] = chosen[best]
        return card.astype(int)
    cards = np.repeat(base[None, :], len(chosen), axis=0)
    for j, r in enumerate(RUN_RESULTS):
        cards[:, CARD_INDEX[r]] = chosen[:, j]
    # a near-tie: the exact figures decide, as they always did
    shape = _subset_error(target, model, cards, STAGE2_SHAPE, prior=False)
    return cards[int(np.argmin(shape))].astype(int)
