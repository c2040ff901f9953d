"""Fielding ratings: C (catching), RO (run-outs) and the wicketkeeper's rating, all 1-20.

A rating is a success probability in twentieths (a chance succeeds when d20 <= rating). Each
player's rate per match (catches, run-outs; stumpings per match kept) is shrunk toward the league
rate with a prior worth PRIOR_MATCHES matches (empirical Bayes: a player with few matches is
mostly league average), then scaled so the rating is proportional to his rate and the league's
match-weighted mean rating equals the conversion rate calibration assumes. Rounding and the 1..20
clip move that mean, so the scale is solved for (bisection) rather than fixed.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardgen.calibrate.expect import FieldingSkill

PRIOR_MATCHES = 3.0  # prior weight, in matches, of the league rate in each player's shrunk rate
CATCH_MEAN = 15.0    # catch chances convert 75% on average (T20 drop rates run about 20-25%)
RUN_OUT_MEAN = 10.0  # nominal; re-solved so the chart's run-outs match the league's
KEEPER_MEAN = 14.0   # nominal; re-solved so the chart's stumpings match the league's


def shrunk_rate(events: np.ndarray, exposure: np.ndarray, prior: float = PRIOR_MATCHES) -> np.ndarray:
    events = np.asarray(events, float)
    exposure = np.asarray(exposure, float)
    league = events.sum() / exposure.sum() if exposure.sum() > 0 else 0.0
    return (events + prior * league) / (exposure + prior)


def ratings_for_mean(rate: np.ndarray, weights: np.ndarray, target_mean: float) -> np.ndarray:
    """Integer ratings 1..20 proportional to `rate` whose weighted mean is as close as possible to
    `target_mean` (bisection on the scale; the mean is monotone in it)."""
    rate = np.asarray(rate, float)
    w = np.asarray(weights, float)
    if len(rate) == 0:
        return np.zeros(0, dtype=int)
    ref = (w @ rate) / w.sum() if w.sum() > 0 and (w @ rate) > 0 else 0.0
    if ref <= 0:
        return np.full(len(rate), int(np.clip(round(target_mean), 1, 20)))

    def make_float(scale: float) -> np.ndarray:
        # np.clip(..., 1, 20) without its dispatch overhead (60 calls per solve); whole numbers
        # as floats, which is what `w @` would turn the integers into anyway
        return np.minimum(np.maximum(np.floor(scale * rate / ref + 0.5), 1), 20)

    def make(scale: float) -> np.ndarray:
        return make_float(scale).astype(int)

    w_sum = w.sum()
    lo, hi = 0.0, 40.0 * 20
    for _ in range(60):
        mid = (lo + hi) / 2
        if (w @ make_float(mid)) / w_sum < target_mean:
            lo = mid
        else:
            hi = mid
    best = min((make(lo), make(hi)), key=lambda r: abs((w @ r) / w.sum() - target_mean))
    return best


@dataclass
class Ratings:
    """Ratings per (player_id, team) row of the fielding table."""
    table: pd.DataFrame  # player_id, team, matches, matches_kept, catch, run_out, keeper (nullable)

    def skill(self) -> FieldingSkill:
        t = self.table
        keepers = t[t["matches_kept"] > 0]
        if len(keepers) == 0:  # nobody identified as keeper: an average one
            k, kro, kw = [KEEPER_MEAN], [RUN_OUT_MEAN], None
        else:
            k, kro = keepers["keeper"].to_numpy(float), keepers["run_out"].to_numpy()
            kw = keepers["matches_kept"].to_numpy(float)
        return FieldingSkill.from_ratings(
            t["catch"].to_numpy(), t["run_out"].to_numpy(), k, kro,
            fielder_weights=t["matches"].to_numpy(float), keeper_weights=kw)

    def lookup(self) -> dict[tuple[str, str], dict]:
        out = {}
        for r in self.table.itertuples():
            out[(r.player_id, r.team)] = {
                "catch": int(r.catch), "run_out": int(r.run_out),
                "keeper": None if pd.isna(r.keeper) else int(r.keeper)}
        return out


def compute_ratings(fielding: pd.DataFrame, run_out_mean: float = RUN_OUT_MEAN,
                    keeper_mean: float = KEEPER_MEAN, catch_mean: float = CATCH_MEAN) -> Ratings:
    f = fielding[fielding["matches"] > 0].reset_index(drop=True)
    matches = f["matches"].to_numpy(float)
    t = f[["player_id", "team", "matches", "matches_kept"]].copy()
    t["catch"] = ratings_for_mean(shrunk_rate(f["catches"], matches), matches, catch_mean)
    t["run_out"] = ratings_for_mean(shrunk_rate(f["run_outs"], matches), matches, run_out_mean)
    kept = f["matches_kept"].to_numpy(float)
    is_keeper = kept > 0
    keeper = np.full(len(f), np.nan)
    if is_keeper.any():
        keeper[is_keeper] = ratings_for_mean(
            shrunk_rate(f.loc[is_keeper, "stumpings"], kept[is_keeper]), kept[is_keeper], keeper_mean)
    t["keeper"] = pd.array([None if np.isnan(k) else int(k) for k in keeper], dtype="Int64")
    return Ratings(t)


_SCALES: dict[bytes, RatingScales] = {}
_SCALES_SIZE = 2


def rating_scales(fielding: pd.DataFrame) -> RatingScales:
    """`RatingScales(fielding)`, shared by every chart solved on the same fielding table (a
    season's passes solve the RO and keeper scales a dozen times; bisections for nearby targets
    share their first steps, so their means' ratings are made once)."""
    key = (",".join(map(str, fielding.columns)).encode()
           + pd.util.hash_pandas_object(fielding, index=True).to_numpy().tobytes())
    if key not in _SCALES:
        while len(_SCALES) >= _SCALES_SIZE:
            del _SCALES[next(iter(_SCALES))]
        _SCALES[key] = RatingScales(fielding)
    return _SCALES[key]


class RatingScales:
    """`compute_ratings(fielding, run_out_mean=..., keeper_mean=...).skill()` for many means, as
    the chart's RO and keeper scales are solved by bisection: the shrunk rates are computed once
    and each mean's integer ratings at most once, on plain arrays (the same numbers through the
    same arithmetic, so the skill is the same to the bit)."""

    def __init__(self, fielding: pd.DataFrame, catch_mean: float = CATCH_MEAN) -> None:
        f = fielding[fielding["matches"] > 0].reset_index(drop=True)
        self.matches = f["matches"].to_numpy(float)
        self.kept = f["matches_kept"].to_numpy(float)
        self.is_keeper = self.kept > 0
        self.catch_rate = shrunk_rate(f["catches"], self.matches)
        self.run_out_rate = shrunk_rate(f["run_outs"], self.matches)
        # in the keepers' order (none: empty, and `skill` plays an average keeper)
        self.stumping_rate = shrunk_rate(f.loc[self.is_keeper, "stumpings"],
                                         self.kept[self.is_keeper])
        self.catch = ratings_for_mean(self.catch_rate, self.matches, catch_mean)
        self._run_out: dict[float, np.ndarray] = {}
        self._keeper: dict[float, np.ndarray] = {}

    def run_out(self, mean: float) -> np.ndarray:
        if mean not in self._run_out:
            self._run_out[mean] = ratings_for_mean(self.run_out_rate, self.matches, mean)
        return self._run_out[mean]

    def keeper(self, mean: float) -> np.ndarray:
        """Keepers' ratings (in fielding-table order of the keepers)."""
        if mean not in self._keeper:
            self._keeper[mean] = ratings_for_mean(self.stumping_rate, self.kept[self.is_keeper],
                                                  mean)
        return self._keeper[mean]

    def skill(self, run_out_mean: float = RUN_OUT_MEAN,
              keeper_mean: float = KEEPER_MEAN) -> FieldingSkill:
        run_out = self.run_out(run_out_mean)
        k: Sequence[float] | np.ndarray
        kro: Sequence[float] | np.ndarray
        if not self.is_keeper.any():  # nobody identified as keeper: an average one
            k, kro, kw = [KEEPER_MEAN], [RUN_OUT_MEAN], None
        else:
            k = self.keeper(keeper_mean).astype(float)
            kro, kw = run_out[self.is_keeper], self.kept[self.is_keeper]
        return FieldingSkill.from_ratings(self.catch, run_out, k, kro,
                                          fielder_weights=self.matches, keeper_weights=kw)
