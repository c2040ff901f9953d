"""The cricket vocabulary: every supported competition in one table.

Everything else asks this module what a code means (name, nation, sex, format, where Cricsheet
keeps it, how it names its seasons) instead of spelling competition facts out itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardgen.errors import UnknownCompetition, UnknownSeason


@dataclass(frozen=True)
class Competition:
    code: str
    name: str
    nation: str
    sex: str  # "men" | "women"
    format: str  # "T20" | "100-ball"
    cricsheet_name: str  # Cricsheet download code, e.g. "bbl" -> bbl_male_json.zip
    event_names: tuple[str, ...]  # info.event.name values in Cricsheet files
    split_season: bool  # True: seasons span two years ("2024-25"); False: calendar year ("2024")
    mirror_folder: str  # folder prefix in a local mirror, e.g. "bbl" -> bbl_2024-25/
    aliases: tuple[str, ...] = field(default_factory=tuple)
    team_type: str = "club"

    @property
    def gender(self) -> str:
        """Cricsheet's word for the sex of the competition."""
        return "male" if self.sex == "men" else "female"

    @property
    def balls_per_over(self) -> int:
        return 5 if self.format == "100-ball" else 6

    @property
    def balls_per_innings(self) -> int:
        return 100 if self.format == "100-ball" else 120

    @property
    def code_label(self) -> str:
        """The printed competition line: nation, sex and cricket code (rules: card line A)."""
        sex = "Men's" if self.sex == "men" else "Women's"
        code = "100-Ball" if self.format == "100-ball" else "T20"
        return f"{self.nation} {sex} Pro {code} Cricket"

    @property
    def download_file(self) -> str:
        return f"{self.cricsheet_name}_{self.gender}_json.zip"


COMPETITIONS: tuple[Competition, ...] = (
    Competition("BBL", "Big Bash League", "Australia", "men", "T20", "bbl",
                ("Big Bash League",), True, "bbl", ("big bash", "big bash league", "kfc bbl")),
    Competition("WBBL", "Women's Big Bash League", "Australia", "women", "T20", "wbb",
                ("Women's Big Bash League",), True, "wbbl", ("women's big bash", "wbb")),
    Competition("HUNDRED", "The Hundred (men)", "England", "men", "100-ball", "hnd",
                ("The Hundred Men's Competition",), False, "hundred_men",
                ("the hundred", "hundred men", "the hundred men", "hnd")),
    Competition("HUNDRED-W", "The Hundred (women)", "England", "women", "100-ball", "hnd",
                ("The Hundred Women's Competition",), False, "hundred_women",
                ("the hundred women", "hundred women", "hundred-women")),
    Competition("SMASH", "Super Smash (men)", "New Zealand", "men", "T20", "ssm",
                ("Super Smash", "Men's Super Smash"), True, "super_smash_men",
                ("super smash", "men's super smash", "ssm")),
    Competition("SMASH-W", "Super Smash (women)", "New Zealand", "women", "T20", "ssm",
                ("Super Smash", "Women's Super Smash"), True, "super_smash_women",
                ("women's super smash", "super smash women")),
    Competition("IPL", "Indian Premier League", "India", "men", "T20", "ipl",
                ("Indian Premier League",), False, "ipl", ("indian premier league",)),
    Competition("PSL", "Pakistan Super League", "Pakistan", "men", "T20", "psl",
                ("Pakistan Super League",), False, "psl", ("pakistan super league",)),
    Competition("CPL", "Caribbean Premier League", "West Indies", "men", "T20", "cpl",
                ("Caribbean Premier League",), False, "cpl", ("caribbean premier league",)),
    Competition("SA20", "SA20", "South Africa", "men", "T20", "sat",
                ("SA20",), True, "sa20", ("sa 20", "sat")),
    Competition("BLAST", "T20 Blast", "England", "men", "T20", "ntb",
                ("Vitality Blast", "NatWest T20 Blast", "T20 Blast"), False, "blast",
                ("t20 blast", "vitality blast", "ntb")),
    Competition("T20I", "Men's T20 Internationals", "International", "men", "T20", "t20s",
                (), False, "t20i", ("t20 international", "t20 internationals", "t20s"),
                team_type="international"),
)

_BY_KEY: dict[str, Competition] = {}
for _c in COMPETITIONS:
    for _key in (_c.code, _c.name, *_c.aliases):
        _BY_KEY[_key.casefold()] = _c


def known_codes() -> list[str]:
    return [c.code for c in COMPETITIONS]


def get_competition(code_or_alias: str) -> Competition:
    """Look a competition up by code or alias, case-insensitively."""
    found = _BY_KEY.get(code_or_alias.strip().casefold())
    if found is None:
        raise UnknownCompetition(
            f"unknown competition {code_or_alias!r}; choose one of: {', '.join(known_codes())}"
        )
    return found


_SPLIT = re.compile(r"^(\d{4})[-/](\d{2}|\d{4})$")
_YEAR = re.compile(r"^(\d{4})$")


def normalise_season(comp: Competition, season: str) -> str:
    """CLI form of a season: '2024-25' for split seasons, '2024' for calendar-year leagues.

    Accepts '2024/25' and '2024-2025'; a bare year for a split-season league (or a split season
    for a calendar-year league) is an error that suggests the right form.
    """
    text = season.strip()
    m = _SPLIT.match(text)
    if m:
        start, end = int(m.group(1)), m.group(2)
        end_year = int(end) if len(end) == 4 else (start // 100) * 100 + int(end)
        if len(end) == 2 and end_year < start:  # the century turns: 1999-00
            end_year += 100
        if end_year != start + 1:
            raise UnknownSeason(f"season {season!r} is not two consecutive years (e.g. 2024-25)")
        if not comp.split_season:
            raise UnknownSeason(
                f"{comp.code} seasons are calendar years: use e.g. --season {start + 1}"
            )
        return f"{start}-{end_year % 100:02d}"
    m = _YEAR.match(text)
    if m:
        year = int(m.group(1))
        if comp.split_season:
            raise UnknownSeason(
                f"{comp.code} seasons span two years: use e.g. --season {year}-{(year + 1) % 100:02d}"
            )
        return str(year)
    raise UnknownSeason(f"season {season!r} is not a season; use e.g. 2024-25 or 2024")


def cricsheet_season(comp: Competition, season: str) -> str:
    """Cricsheet's form of a season ('2024/25' or '2024')."""
    return normalise_season(comp, season).replace("-", "/")


def set_name(comp: Competition, season: str) -> str:
    """Folder name of a built set: '<CODE>_<season>'."""
    return f"{comp.code}_{normalise_season(comp, season)}"


def season_label(comp: Competition, season: str) -> str:
    """Printed season as on the rules' example cards: '2024-2025' or '2024'."""
    s = normalise_season(comp, season)
    if "-" in s:
        start = int(s[:4])
        return f"{start}-{start + 1}"
    return s
