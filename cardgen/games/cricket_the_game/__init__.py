"""Cricket: The Game (Zero Point Games): compatible player cards for a real season's squads.

The game itself is proprietary: cardgen prints only player cards (12 per team in the box's make-up,
Confidence and roles from the real season) and a squad sheet, each with a note that the board and
decks come from the publisher. The engine (engine.py) plays the batting/bowling dice duel so its
scoring can be compared with real cricket.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardgen import ATTRIBUTION
from cardgen.competitions import season_label
from cardgen.errors import CardgenError
from cardgen.games.base import BuildRequest, NeedsSeason, SimContext, kit_folder
from cardgen.games.cricket_the_game import kit
from cardgen.games.cricket_the_game.engine import simulate
from cardgen.games.cricket_the_game.squads import (
    SquadPlayer,
    generic_squad,
    season_squads,
)
from cardgen.games.printing import PAPER_LABELS, KitWriter, check_papers


def _squads(comp, season, source) -> dict[str, list[SquadPlayer]]:  # type: ignore[no-untyped-def]
    from cardgen.stats.load import season_stats
    squads = season_squads(season_stats(comp, season, source))
    if not squads:
        raise CardgenError(f"no team of {comp.code} {season} has the 12 players a squad needs")
    return squads


@dataclass(frozen=True)
class CricketTheGameSystem:
    code: str = "cricket-the-game"
    name: str = "Cricket: The Game (compatible player cards)"
    uses_real_players: bool = True

    def kit_folder(self, req: BuildRequest) -> Path:
        if req.comp is None or not req.season:
            raise NeedsSeason("Cricket: The Game cards need --competition and --season")
        return kit_folder(req, self.code, per_season=True)

    def build(self, req: BuildRequest) -> list[Path]:
        check_papers(req.papers)
        folder = self.kit_folder(req)
        assert req.comp is not None and req.season  # kit_folder refused anything else
        squads = _squads(req.comp, req.season, req.source)
        label = f"{req.comp.code} {season_label(req.comp, req.season)}"  # as the Quicket cards print it
        writer = KitWriter(folder, self.code, self.name, req.comp.code, req.season, credit=ATTRIBUTION)
        for k, paper in enumerate(req.papers):
            tag = PAPER_LABELS[paper]
            writer.pdf(f"player-cards-{paper}.pdf", f"Compatible player cards, 12 per team ({tag})",
                       kit.cards_pdf(squads, label, paper, ATTRIBUTION, req.ink_saver,
                                     req.comp.balls_per_over), k == 0)
            writer.pdf(f"squads-{paper}.pdf", f"Squad sheet and publisher note ({tag})",
                       kit.squads_pdf(squads, label, paper, ATTRIBUTION), k == 0)
        return writer.finish()

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """n first innings of ctx.overs overs: random pairs of the season's squads when ctx names
        a season, else the box's make-up with middling confidence."""
        if ctx.comp is not None and ctx.season:
            squads = [s for _, s in sorted(_squads(ctx.comp, ctx.season, ctx.source).items())]
        else:
            squads = [generic_squad()]
        return simulate(rng, n, squads, overs=ctx.overs)


SYSTEM = CricketTheGameSystem()
