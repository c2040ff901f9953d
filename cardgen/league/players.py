"""Finding the league file's seasons, sides and players in the seasons' own tables.

A player is named by season and any of his Cricsheet name, register id, printed name or full
name ("BBL 2024-25: JR Philippe", "... : Josh Philippe", "... : 5b2b2a2e"), case and spacing
aside; failing an exact name, by words ("Philippe") when they fit one player only. Each problem
is one `LeagueFileError` naming the line: an unknown season, side or player (with the nearest
names), a name that fits several players (all of them listed), a player in two sides.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from collections.abc import Callable

from cardgen.cache import Cache
from cardgen.calibrate.people import printed_name
from cardgen.competitions import Competition, get_competition, normalise_season
from cardgen.errors import CardgenError
from cardgen.league.spec import LeagueFileError, LeagueSpec, PlayerRef, SeasonRef
from cardgen.stats.tables import SeasonStats

MAX_CANDIDATES = 6


@dataclass
class Season:
    comp: Competition
    season: str
    stats: SeasonStats = field(repr=False)
    _people: dict[str, Person] | None = field(default=None, repr=False)

    @property
    def label(self) -> str:
        return f"{self.comp.code} {self.season}"

    @property
    def key(self) -> tuple[str, str]:
        return (self.comp.code, self.season)

    def people(self) -> dict[str, Person]:
        """Everyone with a card this season, by register id."""
        if self._people is None:
            self._people = _people(self.stats)
        return self._people


@dataclass
class Person:
    player_id: str
    cricsheet_name: str
    name: str                   # as printed
    full_name: str
    teams: dict[str, float]     # team -> balls (faced + bowled) for that team this season

    @property
    def team(self) -> str:
        """His side that season (the one he had most balls for, if he moved)."""
        return max(sorted(self.teams), key=lambda t: self.teams[t])

    def names(self) -> set[str]:
        return {_norm(n) for n in (self.player_id, self.cricsheet_name, self.name, self.full_name) if n}


@dataclass(frozen=True)
class Pick:
    """One player of the league: his season, id and real side that season."""
    season: Season
    player_id: str
    team: str
    name: str
    line: int


def _norm(text: str) -> str:
    return " ".join(str(text).casefold().replace(".", " ").split())


def _people(stats: SeasonStats) -> dict[str, Person]:
    attrs = {}
    if stats.attributes is not None and len(stats.attributes):
        attrs = {r["player_id"]: r for r in stats.attributes.drop_duplicates("player_id").to_dict("records")}
    out: dict[str, Person] = {}
    for df, balls in ((stats.batting, "balls"), (stats.bowling, "legal_balls")):
        for r in df.itertuples():
            if df is stats.bowling and r.legal_balls <= 0:
                continue
            pid = str(r.player_id)
            if pid not in out:
                a = attrs.get(pid) or {}
                full = a.get("full_name")
                out[pid] = Person(pid, str(r.player), printed_name(str(r.player), a, pid),
                                  str(full) if isinstance(full, str) else "", {})
            out[pid].teams[str(r.team)] = out[pid].teams.get(str(r.team), 0.0) + float(getattr(r, balls))
    return out


class Seasons:
    """The seasons a league file names, each read once (`load`: a season's tables, or a
    CardgenError saying why not)."""

    def __init__(self, path: str, load: Callable[[Competition, str], SeasonStats]) -> None:
        self.path = path
        self.load = load
        self._seasons: dict[tuple[str, str], Season] = {}

    def get(self, ref: SeasonRef) -> Season:
        where = f"{self.path}, line {ref.line}"
        try:
            comp = get_competition(ref.competition)
        except CardgenError:
            raise LeagueFileError(f"{where}: unknown competition {ref.competition!r} in "
                                  f"{ref.text!r} (a code such as BBL, IPL, WPL, HUNDRED; "
                                  f"`cardgen competitions` lists them)") from None
        try:
            season = normalise_season(comp, ref.season)
        except CardgenError as exc:
            raise LeagueFileError(f"{where}: {ref.text!r}: {exc}") from None
        key = (comp.code, season)
        if key not in self._seasons:
            try:
                stats = self.load(comp, season)
            except LeagueFileError:
                raise
            except CardgenError as exc:
                raise LeagueFileError(f"{where}: season {comp.code} {season} cannot be read: "
                                      f"{str(exc).rstrip('.')}") from None
            self._seasons[key] = Season(comp, season, stats)
        return self._seasons[key]

    def all(self) -> list[Season]:
        return list(self._seasons.values())


def find_player(season: Season, ref: PlayerRef, path: str) -> Pick:
    people = season.people()
    want = _norm(ref.name)
    found = [p for p in people.values() if want in p.names()]
    if not found:
        words = want.split()
        found = [p for p in people.values()
                 if any(all(w in n.split() for w in words) for n in p.names())]
    where = f"{path}, line {ref.line}"
    if len(found) == 1:
        p = found[0]
        return Pick(season, p.player_id, p.team, p.name, ref.line)
    if not found:
        names = sorted({p.name for p in people.values()} | {p.cricsheet_name for p in people.values()})
        near = difflib.get_close_matches(ref.name, names, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else \
            f"; name him as Cricsheet does (`cardgen stats -c {season.comp.code} -s {season.season}` lists them)"
        raise LeagueFileError(f"{where}: no player {ref.name!r} in {season.label}{hint}")
    found.sort(key=lambda p: (p.name, p.player_id))
    listed = "; ".join(f"{p.name} ({p.cricsheet_name}, {p.team}, id {p.player_id})"
                       for p in found[:MAX_CANDIDATES])
    more = f"; and {len(found) - MAX_CANDIDATES} more" if len(found) > MAX_CANDIDATES else ""
    raise LeagueFileError(f"{where}: {ref.name!r} fits {len(found)} players in {season.label}: "
                          f"{listed}{more}; write the one you mean as Cricsheet names him, or his id")


def find_team(season: Season, name: str, line: int, path: str) -> str:
    teams = sorted({str(t) for t in season.stats.batting["team"]} | {str(t) for t in season.stats.bowling["team"]})
    want = _norm(name)
    exact = [t for t in teams if _norm(t) == want]
    found = exact or [t for t in teams if want in _norm(t)]
    if len(found) == 1:
        return found[0]
    what = f"fits {len(found)} sides" if found else "is no side"
    raise LeagueFileError(f"{path}, line {line}: {name!r} {what} of {season.label}; its sides: "
                          f"{', '.join(found or teams)}")


def side_players(season: Season, team: str) -> list[str]:
    """Everyone with a card for `team` that season, by register id (most balls first)."""
    people = season.people()
    ids = [pid for pid, p in people.items() if team in p.teams]
    return sorted(ids, key=lambda pid: (-people[pid].teams[team], pid))


@dataclass
class Side:
    name: str
    line: int
    picks: list[Pick]


def resolve_sides(spec: LeagueSpec, seasons: Seasons) -> list[Side]:
    """Each side of the file with its players found (LeagueFileError at the first problem)."""
    sides: list[Side] = []
    seen: dict[str, tuple[str, int]] = {}
    names_seen: dict[str, int] = {}
    for team in spec.teams:
        if team.whole_side is not None:
            ref, real = team.whole_side
            season = seasons.get(ref)
            real_team = find_team(season, real, ref.line, spec.path)
            people = season.people()
            picks = [Pick(season, pid, real_team, people[pid].name, ref.line)
                     for pid in side_players(season, real_team)]
            name = team.name or real_team
        else:
            picks = [find_player(seasons.get(p.season), p, spec.path) for p in team.players]
            name = team.name or ""
        if name.casefold() in names_seen:
            raise LeagueFileError(f"{spec.path}, line {team.line}: two sides are called {name!r} "
                                  f"(the other at line {names_seen[name.casefold()]}); give one "
                                  f"a name of its own")
        names_seen[name.casefold()] = team.line
        for pick in picks:
            if pick.player_id in seen:
                other, line = seen[pick.player_id]
                where = "twice in this side" if other == name else f"in two sides ({other!r}, line {line}, and {name!r})"
                raise LeagueFileError(f"{spec.path}, line {pick.line}: {pick.name} is {where}; "
                                      f"a player plays for one side")
            seen[pick.player_id] = (name, pick.line)
        sides.append(Side(name, team.line, picks))
    return sides


def stats_loader(source: str | None, cache: Cache | None = None) -> Callable[[Competition, str], SeasonStats]:
    """How a league reads a season: the same tables `cardgen build` reads."""
    from cardgen.stats.load import season_stats

    def load(comp: Competition, season: str) -> SeasonStats:
        return season_stats(comp, season, source, cache=cache)
    return load
