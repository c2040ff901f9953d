"""What every tabletop cricket system supplies: its printable kit and a rules engine.

Quicket Cricket (the calibrated card sets) is the default system and lives in the layers
`calibrate`, `render` and `sim`; the other systems live in `cardgen/games/<system>/` and reuse
those layers' primitives without changing them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import pandas as pd

from cardgen.competitions import Competition, set_name
from cardgen.errors import CardgenError

# Columns of the innings table every engine returns (one row per simulated innings)
INNINGS_COLUMNS = ("runs", "wickets", "fours", "sixes", "legal_balls")


@dataclass(frozen=True)
class BuildRequest:
    out_dir: Path  # the OUT folder; a system writes under OUT/<its folder>/
    comp: Competition | None  # None for systems that use no real players
    season: str | None
    source: str | None
    papers: tuple[str, ...]  # ("a4",), ("letter",) or both
    seed: int
    ink_saver: bool = False


class NeedsSeason(CardgenError):
    """A real-player system was asked for without --competition/--season."""


def kit_folder(req: BuildRequest, code: str, per_season: bool = False) -> Path:
    """OUT/<code>/, or OUT/<code>/<CODE>_<season>/ when `per_season` and the request names a
    competition and season (systems without real players ignore any season they are given)."""
    folder = Path(req.out_dir) / code
    if per_season and req.comp is not None and req.season:
        return folder / set_name(req.comp, req.season)
    return folder


@dataclass(frozen=True)
class SimContext:
    """What an engine may know about the real season it is compared with."""
    comp: Competition | None
    season: str | None
    source: str | None
    overs: int = 20  # innings length in 6-ball overs for systems without a 100-ball mode


class GameSystem(Protocol):
    code: str  # CLI name, e.g. "quick-cricket"
    name: str  # e.g. "Quick Cricket"
    uses_real_players: bool

    def kit_folder(self, req: BuildRequest) -> Path:
        """OUT/<code>/ for generic systems, OUT/<code>/<CODE>_<season>/ for real-player ones."""
        ...

    def build(self, req: BuildRequest) -> list[Path]:
        """Write the system's printable kit (PDFs, page-1 PNG, the kit manifest); return the files."""
        ...

    def simulate_innings(self, rng: np.random.Generator, n: int, ctx: SimContext) -> pd.DataFrame:
        """Play n first innings by the system's rules; columns INNINGS_COLUMNS."""
        ...
