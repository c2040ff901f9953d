"""The cricket vocabulary: every supported competition in one table.

Everything else asks this module what a code means (name, nation, sex, format, where Cricsheet
keeps it, how it names its seasons) instead of spelling competition facts out itself.
"""
from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable

from cardgen.errors import CardgenError, UnknownCompetition, UnknownSeason
from cardgen.readfile import FileTooLarge, NotARegularFile, read_bounded, toml_module


class CompetitionsFileError(CardgenError):
    """A user competitions file that cannot be read or has a bad entry."""


# both formats are 20 of their overs an innings: 20 of 6 balls (T20), 20 sets of 5 (the Hundred)
INNINGS_OVERS = 20


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
    # a calendar-year league played early in the year, which Cricsheet labels like a split
    # season (PSL 2024 is "2023/24"): "-s 2023-24" then names the 2024 edition
    split_labels: bool = False
    # (name in the match files, name the kit uses): one team under two names in a season (a
    # sponsor's name for part of it) is one team; empty for every built-in competition
    team_aliases: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @property
    def gender(self) -> str:
        """Cricsheet's word for the sex of the competition."""
        return "male" if self.sex == "men" else "female"

    @property
    def balls_per_over(self) -> int:
        return 5 if self.format == "100-ball" else 6

    @property
    def balls_per_innings(self) -> int:
        return INNINGS_OVERS * self.balls_per_over

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
    Competition("WPL", "Women's Premier League", "India", "women", "T20", "wpl",
                ("Women's Premier League",), False, "wpl",
                ("women's premier league", "womens premier league", "tata wpl"), split_labels=True),
    Competition("PSL", "Pakistan Super League", "Pakistan", "men", "T20", "psl",
                ("Pakistan Super League",), False, "psl", ("pakistan super league",), split_labels=True),
    Competition("CPL", "Caribbean Premier League", "West Indies", "men", "T20", "cpl",
                ("Caribbean Premier League",), False, "cpl", ("caribbean premier league",)),
    # played in January and February: people name the edition by that year (SA20 2025), while
    # Cricsheet labels it "2024/25"
    Competition("SA20", "SA20", "South Africa", "men", "T20", "sat",
                ("SA20",), False, "sa20", ("sa 20", "sat"), split_labels=True),
    Competition("ILT20", "International League T20", "UAE", "men", "T20", "ilt",
                ("International League T20",), False, "ilt20",
                ("international league t20", "dp world ilt20", "ilt", "ilt 20"), split_labels=True),
    Competition("MLC", "Major League Cricket", "USA", "men", "T20", "mlc",
                ("Major League Cricket",), False, "mlc", ("major league cricket",)),
    Competition("BPL", "Bangladesh Premier League", "Bangladesh", "men", "T20", "bpl",
                ("Bangladesh Premier League",), False, "bpl", ("bangladesh premier league",),
                split_labels=True),
    Competition("LPL", "Lanka Premier League", "Sri Lanka", "men", "T20", "lpl",
                ("Lanka Premier League",), False, "lpl", ("lanka premier league",)),
    Competition("BLAST", "T20 Blast", "England", "men", "T20", "ntb",
                ("Vitality Blast", "NatWest T20 Blast", "T20 Blast", "Vitality Blast Men"), False,
                "blast", ("t20 blast", "vitality blast", "ntb")),
    Competition("T20I", "Men's T20 Internationals", "International", "men", "T20", "t20s",
                (), False, "t20i", ("t20 international", "t20 internationals", "t20s", "men's t20is"),
                team_type="international"),
    Competition("T20I-W", "Women's T20 Internationals", "International", "women", "T20", "t20s",
                (), False, "t20i_women",
                ("women's t20 internationals", "women's t20is", "t20i women", "t20s women"),
                team_type="international"),
    Competition("T20WC", "Men's T20 World Cup", "International", "men", "T20", "t20s",
                ("ICC Men's T20 World Cup", "ICC World Twenty20", "World T20", "ICC World T20"),
                False, "t20wc", ("t20 world cup", "men's t20 world cup", "world t20", "icc t20 world cup"),
                team_type="international"),
    Competition("T20WC-W", "Women's T20 World Cup", "International", "women", "T20", "t20s",
                ("ICC Women's T20 World Cup", "ICC Women's World Twenty20", "Women's World T20"),
                False, "t20wc_women", ("women's t20 world cup", "t20 world cup women", "women's world t20"),
                team_type="international"),
)

# A league file names a few competitions in a few KB; one of 10 MB is not a league file.
MOST_COMPETITIONS_FILE_BYTES = 10_000_000
USER_FILE_ENV = "CARDGEN_COMPETITIONS"
USER_FILE_DEFAULT = "cardgen-competitions.toml"  # looked for in the working folder
_user: dict[str, tuple[Competition, ...]] = {}  # path -> competitions read from it (read once)


def _index(comps: Iterable[Competition]) -> dict[str, Competition]:
    by_key: dict[str, Competition] = {}
    for c in comps:
        for key in (c.code, c.name, *c.aliases, *c.event_names):
            by_key.setdefault(key.casefold(), c)
    return by_key


def _user_file() -> Path | None:
    env = os.environ.get(USER_FILE_ENV)
    if env:
        return Path(env).expanduser()
    local = Path.cwd() / USER_FILE_DEFAULT
    return local if local.is_file() else None


def all_competitions() -> tuple[Competition, ...]:
    """The built-in table, then competitions from the user's file (CARDGEN_COMPETITIONS or
    ./cardgen-competitions.toml); a user entry with a built-in code replaces the built-in one."""
    extra: list[Competition] = []
    path = _user_file()
    if path is not None:
        key = str(path.resolve())
        if key not in _user:
            _user[key] = read_competitions_file(path)
        extra = list(_user[key])
    replaced = {c.code for c in extra}
    merged = [c for c in COMPETITIONS if c.code not in replaced]
    seen: set[str] = set()
    for c in extra:
        if c.code not in seen:
            merged.append(c)
            seen.add(c.code)
    return tuple(merged)


def known_codes() -> list[str]:
    return [c.code for c in all_competitions()]



def get_competition(code_or_alias: str) -> Competition:
    """Look a competition up by code, name, alias or Cricsheet event name, case-insensitively."""
    found = _index(all_competitions()).get(code_or_alias.strip().casefold())
    if found is None:
        raise UnknownCompetition(
            f"unknown competition {code_or_alias!r}; choose one of: {', '.join(known_codes())} "
            f"(or add it in a competitions file: see `cardgen competitions --help`)"
        )
    return found


_SPLIT = re.compile(r"^(\d{4})[-/](\d{2}|\d{4})$")
_YEAR = re.compile(r"^(\d{4})$")


def normalise_season(comp: Competition, season: str) -> str:
    """CLI form of a season: '2024-25' for split seasons, '2024' for calendar-year leagues.

    Accepts '2024/25' and '2024-2025'. For a calendar-year league that Cricsheet labels like a
    split season (PSL 2024 is "2023/24") the label means the edition played in its second year;
    a split season for another calendar-year league, or a bare year for a split-season league,
    is an error that suggests the right form.
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
            if comp.split_labels:
                # Cricsheet's label for a league played early in the year (PSL "2023/24",
                # WPL "2022/23"): the edition is the one played in the second year
                return str(end_year)
            raise UnknownSeason(
                f"{comp.code} seasons are calendar years: use e.g. --season {start} or {end_year}"
            )
        return f"{start}-{end_year % 100:02d}"
    m = _YEAR.match(text)
    if m:
        year = int(m.group(1))
        if comp.split_season:
            # a bare year names either season it touches (BBL 2025 is played Dec 2024 - Jan 2025)
            raise UnknownSeason(
                f"{comp.code} seasons span two years: use --season {year - 1}-{year % 100:02d} "
                f"or {year}-{(year + 1) % 100:02d}"
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


# --- editions: which matches make up a season, whatever Cricsheet labelled them -----------------

def _year(date: str) -> int | None:
    return int(date[:4]) if len(date) >= 4 and date[:4].isdigit() else None


def edition_of_label(comp: Competition, label: str, dates: Iterable[str]) -> str | None:
    """The season (CLI form) of the matches one Cricsheet season label holds in a competition.

    Split-season leagues: the label itself ("2024/25"), or for a one-year label the July-June
    season its first match falls in. Calendar-year leagues: the year the label's matches were
    played in (PSL "2020/21" and "2021" are both the 2021 edition; IPL "2020/21" was played in
    2020), or the year of its last match when the label straddles New Year.
    """
    years = sorted(y for y in (_year(d) for d in dates) if y is not None)
    m = _SPLIT.match(label.strip())
    if comp.split_season:
        if m:
            try:
                return normalise_season(comp, label)
            except UnknownSeason:
                return None
        if not years:
            return None
        first = min(d for d in dates if _year(d) is not None)
        start = years[0] if first[5:7] >= "07" else years[0] - 1
        return f"{start}-{(start + 1) % 100:02d}"
    if years:
        return str(years[-1])
    if m or _YEAR.match(label.strip()):
        try:
            return normalise_season(comp, label)
        except UnknownSeason:
            return None
    return None


def is_split_label(label: str) -> bool:
    """Whether a Cricsheet season label names two years ("2024/25")."""
    return bool(_SPLIT.match(label.strip()))


def match_season(comp: Competition, label: str, date: str, label_dates: Iterable[str]) -> str | None:
    """The season one match belongs to: per calendar year for internationals outside a
    tournament (T20Is), else the season of its label (`edition_of_label`)."""
    if comp.team_type == "international" and not comp.event_names:
        year = _year(date)
        return str(year) if year is not None else edition_of_label(comp, label, [])
    return edition_of_label(comp, label, label_dates)


# --- the user's competitions file -----------------------------------------------------------------

_FIELDS = ("code", "name", "nation", "sex", "format", "event_names", "seasons", "cricsheet_name",
           "mirror_folder", "aliases", "team_type", "split_labels", "team_aliases")


def _as_list(value: object) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(";") if v.strip())
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip() for v in value if str(v).strip())
    raise ValueError(f"expected text or a list, got {value!r}")


def _as_renames(value: object) -> tuple[tuple[str, str], ...]:
    """team_aliases: a TOML table {"name in the files" = "name to use"} or, in a CSV cell,
    "name in the files = name to use; ..."."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        pairs = [part.split("=", 1) for part in value.split(";") if part.strip()]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError(f"team_aliases: expected 'name in the files = name to use', got {value!r}")
        value = dict(pairs)
    if not isinstance(value, dict):
        raise ValueError(f"team_aliases: expected a table of 'name in the files' = 'name to use', got {value!r}")
    renames = tuple((str(k).strip(), str(v).strip()) for k, v in value.items())
    if any(not k or not v for k, v in renames):
        raise ValueError("team_aliases: a team name is empty")
    return tuple(sorted(renames))


def competition_from_entry(entry: dict, where: str) -> Competition:
    """One competition from a user file's entry (a TOML table or a CSV row)."""
    unknown = sorted(set(entry) - set(_FIELDS))
    if unknown:
        raise CompetitionsFileError(f"{where}: unknown field {unknown[0]!r}; fields are {', '.join(_FIELDS)}")
    code = str(entry.get("code") or "").strip().upper()
    if not re.fullmatch(r"[A-Z0-9][A-Z0-9-]{0,15}", code):
        raise CompetitionsFileError(f"{where}: code {code or '(empty)'!r} must be 1-16 letters, digits or '-'")
    name = str(entry.get("name") or "").strip()
    if not name:
        raise CompetitionsFileError(f"{where}: {code} needs a name")
    sex = str(entry.get("sex") or "men").strip().casefold()
    sex = {"male": "men", "man": "men", "female": "women", "woman": "women"}.get(sex, sex)
    if sex not in ("men", "women"):
        raise CompetitionsFileError(f"{where}: {code} sex must be men or women, not {sex!r}")
    fmt = str(entry.get("format") or "T20").strip()
    fmt = {"t20": "T20", "100-ball": "100-ball", "100": "100-ball", "hundred": "100-ball"}.get(fmt.casefold(), fmt)
    if fmt not in ("T20", "100-ball"):
        raise CompetitionsFileError(f"{where}: {code} format must be T20 or 100-ball, not {fmt!r}")
    seasons = str(entry.get("seasons") or "calendar").strip().casefold()
    if seasons not in ("calendar", "split"):
        raise CompetitionsFileError(f"{where}: {code} seasons must be calendar or split, not {seasons!r}")
    team_type = str(entry.get("team_type") or "club").strip().casefold()
    if team_type not in ("club", "international"):
        raise CompetitionsFileError(f"{where}: {code} team_type must be club or international")
    try:
        events = _as_list(entry.get("event_names")) or ((name,) if team_type == "club" else ())
        aliases = _as_list(entry.get("aliases"))
        team_aliases = _as_renames(entry.get("team_aliases"))
    except ValueError as exc:
        raise CompetitionsFileError(f"{where}: {code}: {exc}") from None
    folder = str(entry.get("mirror_folder") or code.casefold().replace("-", "_")).strip()
    return Competition(code, name, str(entry.get("nation") or "").strip() or "International", sex, fmt,
                       str(entry.get("cricsheet_name") or folder).strip(), events, seasons == "split",
                       folder, aliases, team_type,
                       str(entry.get("split_labels", "")).strip().casefold() in ("true", "yes", "1"),
                       team_aliases)


def read_competitions_file(path: Path) -> tuple[Competition, ...]:
    """Competitions from a user file: TOML (`[[competition]]` tables) or CSV (one row each)."""
    try:  # a regular file (a FIFO in its place would block every command) of a sensible size
        text = read_bounded(Path(path), MOST_COMPETITIONS_FILE_BYTES).decode("utf-8-sig")
    except (NotARegularFile, FileTooLarge) as exc:
        raise CompetitionsFileError(f"cannot read competitions file: {exc}; give a TOML or CSV file "
                                    f"(env {USER_FILE_ENV})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CompetitionsFileError(f"cannot read competitions file {path} ({exc.__class__.__name__}); "
                                    f"check the path (env {USER_FILE_ENV})") from None
    if Path(path).suffix.casefold() == ".csv":
        entries = [{k.strip(): (v or "").strip() for k, v in row.items() if k}
                   for row in csv.DictReader(io.StringIO(text))]
    else:
        tomllib = toml_module()
        if tomllib is None:
            raise CompetitionsFileError(f"{path}: reading TOML needs Python 3.11 (or the tomli "
                                        f"package); or write the file as CSV")
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CompetitionsFileError(f"{path} is not valid TOML ({str(exc).splitlines()[0]})") from None
        entries = doc.get("competition", [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise CompetitionsFileError(f"{path}: write each competition as a [[competition]] table")
    comps = [competition_from_entry(e, f"{path} entry {i}") for i, e in enumerate(entries, start=1)]
    if not comps:
        raise CompetitionsFileError(f"{path} defines no competition")
    return tuple(comps)
