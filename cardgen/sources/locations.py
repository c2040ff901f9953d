"""Where a season's sources beside the match files are, as the environment and the mirror say:
the players folder and the Cricinfo address scraping may use (or None).

Read from the environment and the file system only, without pandas: the source key of a
catalogue run that keeps every kit (`stats.source.source_fingerprint`) needs them, and nothing
else of `sources.players` or `sources.cricinfo`, which re-export them.
"""
from __future__ import annotations

import os
from pathlib import Path

PLAYERS_ENV = "CARDGEN_PLAYERS"
CRICINFO_ENV = "CARDGEN_CRICINFO"
DEFAULT_BASE_URL = "https://www.espncricinfo.com"


def default_players_dir(source: str | None) -> Path | None:
    """$CARDGEN_PLAYERS, else a `players/` folder beside a local Cricsheet mirror."""
    env = os.environ.get(PLAYERS_ENV)
    if env:
        return Path(env)
    if source and not source.startswith(("http://", "https://")):
        candidate = Path(source).expanduser().resolve().parent / "players"
        if candidate.is_dir():
            return candidate
    return None


def scraping_base_url() -> str | None:
    """Where to scrape from, or None when scraping is not allowed (the default)."""
    setting = os.environ.get(CRICINFO_ENV, "").strip()
    if not setting or setting.casefold() in ("0", "no", "off", "false"):
        return None
    if setting.startswith(("http://", "https://")):
        return setting.rstrip("/")
    return DEFAULT_BASE_URL
