"""From a league file (or a draft) to the league's card set, every check made before anything
is written."""
from __future__ import annotations

from pathlib import Path

from cardgen.cache import Cache
from cardgen.league.build import League, build_league
from cardgen.league.draft import draft_league
from cardgen.league.players import Seasons, resolve_sides, stats_loader
from cardgen.league.spec import LeagueFileError, LeagueSpec, parse_league

DEFAULT_RULES = "quicket"


__all__ = ["DEFAULT_RULES", "League", "make_league", "read_league_file"]


def read_league_file(path: Path) -> LeagueSpec:
    """Parse a league file (LeagueFileError: unreadable, or one line saying what is wrong)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise LeagueFileError(f"no league file at {path}") from None
    except IsADirectoryError:
        raise LeagueFileError(f"{path} is a folder, not a league file") from None
    except UnicodeDecodeError:
        raise LeagueFileError(f"{path} is not a text file (UTF-8); a league file is TOML text") from None
    return parse_league(text, str(path))


def make_league(spec: LeagueSpec, text: str, source: str | None = None, rules: str | None = None,
                cache: Cache | None = None) -> League:
    """The league's card set for `rules` (default: the file's, else the Quicket rules)."""
    seasons = Seasons(spec.path, stats_loader(source, cache))
    if spec.draft is not None and not spec.teams:
        return draft_league(spec, seasons, rules or spec.rules or DEFAULT_RULES, source)
    sides = resolve_sides(spec, seasons)
    card_set = build_league(spec, sides, seasons, rules or spec.rules or DEFAULT_RULES, source)
    return League(spec, card_set, text)
