"""Quick Cricket (18 cards, S.P. Stenton): printable cards and scoresheet, and its rules engine."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardgen.games.base import INNINGS_COLUMNS, BuildRequest, SimContext, kit_folder


@dataclass(frozen=True)
class QuickCricketSystem:
    code: str = "quick-cricket"
    name: str = "Quick Cricket"
    uses_real_players: bool = False

    def kit_folder(self, req: BuildRequest) -> Path:
        return kit_folder(req, self.code)

    def build(self, req: BuildRequest) -> list[Path]:
        from cardgen.games.printing import PAPER_LABELS, write_generic_kit
        from cardgen.games.quick_cricket import kit
        label = PAPER_LABELS
        files = [(f"cards-{paper}.pdf", f"The 18 cards ({label[paper]})", kit.cards_pdf(paper, req.ink_saver))
                 for paper in req.papers]
        # a scoresheet in every paper asked for (an A4 sheet printed on Letter loses its foot)
        files += [(f"scoresheet-{paper}.pdf", f"Scoresheet ({label[paper]})", kit.scoresheet_pdf(paper))
                  for paper in req.papers]
        # the rules in every paper too: an A4 sheet printed at 100 % on Letter loses its foot
        files += [(f"rules-{paper}.pdf", f"How to play ({label[paper]})", kit.rules_sheet_pdf(paper))
                  for paper in req.papers]
        # every PDF is made before any is written
        return write_generic_kit(self.kit_folder(req), self.code, self.name, kit.CREDIT, files)

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """n innings of ctx.overs overs between the built-in strategies."""
        from cardgen.games.quick_cricket.engine import RngDraws, play_innings
        draws = RngDraws(rng)
        rows = []
        for _ in range(n):
            inn = play_innings(draws, overs=ctx.overs)
            rows.append((inn.runs, inn.wickets, inn.fours, inn.sixes, inn.legal_balls))
        return pd.DataFrame(rows, columns=list(INNINGS_COLUMNS), dtype="int64")


SYSTEM = QuickCricketSystem()
