"""Registry of tabletop cricket systems, chosen on the command line with --game."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from cardgen.errors import CardgenError

if TYPE_CHECKING:  # the systems' modules are imported on demand, the registry below says which
    from cardgen.games.base import GameSystem

DEFAULT_GAME = "quicket"
# code -> module that defines SYSTEM (a cardgen.games.base.GameSystem)
GAME_MODULES: dict[str, str] = {
    "quicket": "cardgen.games.quicket",
    "quick-cricket": "cardgen.games.quick_cricket",
    "roll-and-play": "cardgen.games.roll_and_play",
    "competitive-patience": "cardgen.games.competitive_patience",
    "cricket-the-game": "cardgen.games.cricket_the_game",
}


class UnknownGame(CardgenError):
    """A --game name that is not in the registry."""


def game_codes() -> list[str]:
    return list(GAME_MODULES)


def get_game(code: str) -> GameSystem:
    module = GAME_MODULES.get(code.strip().casefold())
    if module is None:
        raise UnknownGame(f"unknown game {code!r}; choose one of: {', '.join(game_codes())}")
    return importlib.import_module(module).SYSTEM
