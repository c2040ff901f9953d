"""Quicket Cricket as a GameSystem: a thin adapter over the calibrate, render and sim layers.

Nothing here changes how Quicket is calibrated, printed or played; `build` is the existing kit
(`cardgen.render.kit.build_kit` over a freshly calibrated card set) and `simulate_innings` plays
first innings with the existing vectorised engine on the season's real fixtures.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
import numpy as np
import pandas as pd

from cardgen.cardset import CardSet
from cardgen.competitions import Competition, set_name
from cardgen.games.base import INNINGS_COLUMNS, BuildRequest, NeedsSeason, SimContext


@functools.lru_cache(maxsize=4)
def calibrated_set(comp: Competition, season: str, source: str | None) -> CardSet:
    """The calibrated card set of the default kit, made for the Quicket rules (cached per
    process: calibration takes ~10-20 s), read into the model once here for the kit and the
    engines alike."""
    from cardgen.calibrate.cardset import build_card_set
    return CardSet.from_json(build_card_set(comp, season, source))


@dataclass(frozen=True)
class QuicketSystem:
    code: str = "quicket"
    name: str = "Quicket Cricket"
    uses_real_players: bool = True

    def kit_folder(self, req: BuildRequest) -> Path:
        if req.comp is None or req.season is None:
            raise NeedsSeason("quicket uses real players: give --competition and --season")
        return Path(req.out_dir) / set_name(req.comp, req.season)   # the default kit's folder

    def build(self, req: BuildRequest) -> list[Path]:
        from cardgen.render.kit import KitOptions, build_kit
        self.kit_folder(req)  # checks the season is given
        card_set = calibrated_set(req.comp, req.season, req.source)
        result = build_kit(card_set, req.out_dir, KitOptions(papers=req.papers, ink_saver=req.ink_saver))
        return list(result.files)

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """n first innings, each a real fixture of the season drawn at random (real XIs, real
        batting order, bowling plans from the captain), played by the calibrated cards under
        the rules they are made for (the default kit's: the Quicket rules as printed)."""
        from cardgen.sim import fast
        from cardgen.sim.model import compile_card_set
        from cardgen.sim.season import build_fixtures
        from cardgen.stats.load import season_stats
        if ctx.comp is None or ctx.season is None:
            raise NeedsSeason("quicket uses real players: a competition and season are needed")
        from cardgen.sim.validate import rule_of
        card_set = calibrated_set(ctx.comp, ctx.season, ctx.source)
        cs = compile_card_set(card_set)
        stats = season_stats(ctx.comp, ctx.season, ctx.source)
        fixtures = build_fixtures(cs, stats, rng)
        table = fixtures.table
        pick = rng.integers(0, len(fixtures.match_ids), n)
        home, away = fixtures.home[pick], fixtures.away[pick]
        plan = rng.integers(0, table.plans.shape[1], n)
        # played as the kit is meant to be played: by the rules its cards are made for
        batch = fast.play_innings_batch(cs, table.lanes(home, away, plan, np.full(n, fast.BIG)), rng,
                                        rule=rule_of(card_set))
        frame = pd.DataFrame({
            "runs": batch.runs, "wickets": batch.wickets,
            "fours": batch.bat_fours.sum(axis=1), "sixes": batch.bat_sixes.sum(axis=1),
            "legal_balls": batch.legal_balls})
        return frame[list(INNINGS_COLUMNS)].astype("int64")


SYSTEM = QuicketSystem()
