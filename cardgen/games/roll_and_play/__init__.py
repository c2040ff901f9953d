"""Roll & Play Cricket: a two-player card-and-dice game, one play per over.

The kit: player deck (-6..+6), pitch deck (-3..+3), 40 chance cards, 20- and 50-over
scoresheets and a quick-reference page; with --competition/--season, the team edition adds a
squad deck per team of that season (BAT and BOWL values from the real figures).
The engine (engine.py) plays the published laws; team.py plays the team edition.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cardgen import ATTRIBUTION
from cardgen.competitions import season_label
from cardgen.games.base import BuildRequest, SimContext, kit_folder
from cardgen.games.printing import PAPER_LABELS, KitWriter, check_papers
from cardgen.games.roll_and_play import kit
from cardgen.games.roll_and_play.engine import simulate_classic

CLASSIC_CREDIT = ("Roll & Play Cricket print-and-play cards; layouts and wording by cardgen, "
                  "mechanics after the published laws.")


def _season_stats(comp, season, source):  # type: ignore[no-untyped-def]
    from cardgen.stats.load import season_stats
    return season_stats(comp, season, source)


@dataclass(frozen=True)
class RollAndPlaySystem:
    code: str = "roll-and-play"
    name: str = "Roll & Play Cricket"
    # the classic game needs no season; given one, the kit is the team edition
    uses_real_players: bool = False

    def kit_folder(self, req: BuildRequest) -> Path:
        return kit_folder(req, self.code, per_season=True)

    def build(self, req: BuildRequest) -> list[Path]:
        check_papers(req.papers)
        folder = self.kit_folder(req)
        comp, season = req.comp, req.season
        credit = CLASSIC_CREDIT
        decks = None
        label = ""
        balls_per_over = 6
        if comp is not None and season:  # the team edition
            balls_per_over = comp.balls_per_over
            from cardgen.games.roll_and_play.team import team_decks
            decks = team_decks(_season_stats(comp, season, req.source))
            label = f"{comp.code} {season_label(comp, season)}"  # as the Quicket cards print it
            credit = f"{CLASSIC_CREDIT} {ATTRIBUTION}"
            writer = KitWriter(folder, self.code, self.name, comp.code, season, credit=ATTRIBUTION)
        else:
            writer = KitWriter(folder, self.code, self.name, None, None, credit=CLASSIC_CREDIT)
        for k, paper in enumerate(req.papers):
            tag = PAPER_LABELS[paper]
            first = k == 0  # page-1 previews for the first paper asked for
            if decks is not None:
                writer.pdf(f"team-deck-{paper}.pdf", f"Team edition squad decks, {label} ({tag})",
                           kit.team_deck_pdf(decks, label, paper, credit, req.ink_saver,
                                             balls_per_over), first)
            else:
                writer.pdf(f"player-deck-{paper}.pdf", f"Player deck, 48 cards ({tag})",
                           kit.player_deck_pdf(paper, credit, req.ink_saver), first)
            writer.pdf(f"pitch-deck-{paper}.pdf", f"Pitch deck, 14 cards ({tag})",
                       kit.pitch_deck_pdf(paper, credit, req.ink_saver), first)
            writer.pdf(f"chance-cards-{paper}.pdf", f"Chance cards, 40 cards ({tag})",
                       kit.chance_deck_pdf(paper, credit, req.ink_saver), first)
            writer.pdf(f"scoresheet-20-overs-{paper}.pdf", f"Scoresheet, 20 overs ({tag})",
                       kit.scoresheet_pdf(20, paper, credit, decks is not None), first)
            writer.pdf(f"scoresheet-50-overs-{paper}.pdf", f"Scoresheet, 50 overs ({tag})",
                       kit.scoresheet_pdf(50, paper, credit, decks is not None), first)
            writer.pdf(f"quick-reference-{paper}.pdf", f"Quick reference ({tag})",
                       kit.rules_pdf(paper, credit, team_edition=decks is not None), first)
        return writer.finish()

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """n first innings of the published game (classic deck), ctx.overs overs each.
        The team edition is `simulate_team_innings`."""
        return simulate_classic(rng, n, overs=ctx.overs)

    def simulate_team_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """n first innings of the team edition between random pairs of the season's teams."""
        from cardgen.games.roll_and_play.team import simulate_team_edition, team_decks
        if ctx.comp is None or not ctx.season:
            raise ValueError("the team edition needs a competition and season")
        decks = team_decks(_season_stats(ctx.comp, ctx.season, ctx.source))
        return simulate_team_edition(rng, n, decks, overs=ctx.overs)


SYSTEM = RollAndPlaySystem()
