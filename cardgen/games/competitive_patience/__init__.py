"""Cricket Competitive Patience: a scoresheet and rules card for a standard pack, and the engine
for the grid game and its British, Derek Hill, South African and New Zealand variants."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardgen.games.base import INNINGS_COLUMNS, BuildRequest, SimContext, kit_folder

VARIANT_NAMES = ("british", "derek-hill", "south-african", "new-zealand")


@dataclass(frozen=True)
class CompetitivePatienceSystem:
    code: str = "competitive-patience"
    name: str = "Cricket Competitive Patience"
    uses_real_players: bool = False
    variants: tuple[str, ...] = VARIANT_NAMES

    def kit_folder(self, req: BuildRequest) -> Path:
        return kit_folder(req, self.code)

    def build(self, req: BuildRequest) -> list[Path]:
        from cardgen.games.competitive_patience import kit
        from cardgen.games.printing import PAPER_LABELS, write_generic_kit
        label = PAPER_LABELS
        files = [(f"scoresheet-{paper}.pdf", f"Scoresheet ({label[paper]})", kit.scoresheet_pdf(paper))
                 for paper in req.papers]
        # the rules in every paper too: an A4 sheet printed at 100 % on Letter loses its foot
        files += [(f"rules-{paper}.pdf", f"Rules card ({label[paper]})", kit.rules_sheet_pdf(paper))
                  for paper in req.papers]
        # every PDF is made before any is written
        return write_generic_kit(self.kit_folder(req), self.code, self.name, kit.CREDIT, files)

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext,
                         variant: str = "british") -> pd.DataFrame:
        """n innings to ten wickets. Innings length = cards played (the nearest thing to balls:
        the batter scores one run a card); fours/sixes = the J-Q-K bonuses (4 or 6 runs)."""
        from cardgen.games.competitive_patience.engine import Game, RngPacks
        game = Game(variant)
        packs = RngPacks(rng)
        rows = []
        for _ in range(n):
            inn = game.play_innings(packs)
            rows.append((inn.runs, inn.wickets, inn.fours, inn.sixes, inn.cards))
        return pd.DataFrame(rows, columns=list(INNINGS_COLUMNS), dtype="int64")


SYSTEM = CompetitivePatienceSystem()
