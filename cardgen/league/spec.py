"""The league file (TOML), parsed once at the edge into typed values (docs: README, "Your own
league"; an example: examples/big-bash-all-stars.toml).

    name = "Big Bash all-stars"
    format = "T20"                      # or "100-ball"
    baseline = "BBL 2024-25"            # the league the cards play in; or "mean" of the seasons used
    cap = 25                            # optional: most points a side may have
    [[team]]
    name = "Sixers legends"
    players = ["BBL 2024-25: JR Philippe", "WPL 2023: EA Perry", ...]
    [[team]]
    from = "IPL 2025: Mumbai Indians"   # a whole real side

Every problem is a `LeagueFileError` naming the file and line: the parser only reads the file;
whether a season, team or player exists is `league.players`' question, asked with the lines
recorded here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cardgen.errors import CardgenError
from cardgen.readfile import toml_module

FORMATS = ("T20", "100-ball")
RULES = ("quicket", "advanced")
TOP_KEYS = {"name", "code", "format", "baseline", "mean_of", "cap", "rounds", "rules", "team", "draft"}
TEAM_KEYS = {"name", "players", "from"}
DRAFT_KEYS = {"seasons", "teams", "players_per_team"}
MAX_TEAMS = 20
MEAN = "mean"   # baseline = "mean": the cards play in the mean of the seasons used (league.mean)
CODE = re.compile(r"^[A-Z0-9][A-Z0-9-]{0,15}$")


class LeagueFileError(CardgenError):
    """A league file that cannot be read, or names what does not exist (one line, with its line)."""


@dataclass(frozen=True)
class SeasonRef:
    """A season as the file names it: 'BBL 2024-25', 'The Hundred 2024' (competition, season)."""
    competition: str
    season: str
    line: int

    @property
    def text(self) -> str:
        return f"{self.competition} {self.season}"


@dataclass(frozen=True)
class PlayerRef:
    season: SeasonRef
    name: str        # Cricsheet name, register id or printed name
    line: int

    @property
    def text(self) -> str:
        return f"{self.season.text}: {self.name}"


@dataclass(frozen=True)
class TeamSpec:
    name: str | None               # None: a whole real side keeps its own name
    line: int
    players: tuple[PlayerRef, ...] = ()
    whole_side: tuple[SeasonRef, str] | None = None   # (season, real team name)


@dataclass(frozen=True)
class DraftSpec:
    seasons: tuple[SeasonRef, ...]
    teams: int
    players_per_team: int
    line: int


@dataclass(frozen=True)
class LeagueSpec:
    path: str
    name: str
    code: str
    format: str
    baseline: SeasonRef | None      # None: baseline = "mean", the mean of the seasons used
    teams: tuple[TeamSpec, ...]
    cap: float | None = None
    rounds: int = 2
    rules: str | None = None
    draft: DraftSpec | None = None
    lines: dict[str, int] = field(default_factory=dict)   # top-level key -> its line
    # baseline = "mean": the seasons it is the mean of (default: those the sides' players come from)
    mean_of: tuple[SeasonRef, ...] = ()

    def where(self, line: int) -> str:
        return f"{self.path}, line {line}"

    @property
    def baseline_text(self) -> str:
        """The baseline as the file writes it: a season, or "mean"."""
        return MEAN if self.baseline is None else self.baseline.text

    @property
    def baseline_line(self) -> int:
        return self.lines.get("baseline", 1)


def code_of(name: str) -> str:
    """A kit folder's code from a league's name: 'Big Bash all-stars' -> 'BIG-BASH-ALL-STARS'
    (letters and digits, words joined by '-', at most 16 characters)."""
    words = re.findall(r"[A-Za-z0-9]+", name.upper())
    code = ""
    for w in words:
        nxt = f"{code}-{w}" if code else w
        if len(nxt) > 16:
            break
        code = nxt
    return code or "LEAGUE"


def season_ref(text: str, line: int, where: str) -> SeasonRef:
    """'BBL 2024-25' -> SeasonRef('BBL', '2024-25'): the last word is the season."""
    parts = str(text).strip().rsplit(None, 1)
    if len(parts) != 2 or not re.match(r"^\d{4}([-/]\d{2,4})?$", parts[1]):
        raise LeagueFileError(f"{where}, line {line}: {text!r} is not a season; write the "
                              f"competition and the season, e.g. \"BBL 2024-25\" or \"IPL 2025\"")
    return SeasonRef(parts[0].strip(), parts[1], line)


def season_range(text: str, line: int, where: str) -> tuple[SeasonRef, ...]:
    """'BBL 2023-24..2024-25' -> the seasons from the first to the last; a single season too."""
    text = str(text).strip()
    if ".." not in text:
        return (season_ref(text, line, where),)
    first_text, last = (t.strip() for t in text.split("..", 1))
    first = season_ref(first_text, line, where)
    if " " in last:
        last_ref = season_ref(last, line, where)
        if last_ref.competition.casefold() != first.competition.casefold():
            raise LeagueFileError(f"{where}, line {line}: a range of seasons is of one competition "
                                  f"({first.competition!r}, then {last_ref.competition!r})")
        last = last_ref.season
    start, end = int(first.season[:4]), int(str(last)[:4]) if str(last)[:4].isdigit() else -1
    split = "-" in first.season or "/" in first.season
    if end < start or not re.match(r"^\d{4}([-/]\d{2,4})?$", str(last)) or end - start > 30:
        raise LeagueFileError(f"{where}, line {line}: {text!r} is not a range of seasons; write "
                              f"e.g. \"BBL 2023-24..2024-25\" (first..last)")
    return tuple(SeasonRef(first.competition, f"{y}-{(y + 1) % 100:02d}" if split else str(y), line)
                 for y in range(start, end + 1))


def season_pool(text: str, line: int, where: str) -> tuple[SeasonRef, ...]:
    """A draft's pool: seasons and ranges joined by commas, of any competitions,
    'BBL 2023-24..2024-25, IPL 2025' (each season once, in the order given)."""
    parts = [p.strip() for p in str(text).split(",")]
    if not all(parts):
        raise LeagueFileError(f"{where}, line {line}: {text!r} has an empty season between commas; "
                              f"write e.g. \"BBL 2023-24..2024-25, IPL 2025\"")
    out: list[SeasonRef] = []
    seen: set[tuple[str, str]] = set()
    for part in parts:
        for ref in season_range(part, line, where):
            key = (ref.competition.casefold(), ref.season)
            if key not in seen:
                seen.add(key)
                out.append(ref)
    return tuple(out)


def _line_of(lines: list[str], pattern: str, start: int = 0) -> int:
    """The 1-based line of the first match of `pattern` at or after line index `start`."""
    rx = re.compile(pattern)
    for i in range(start, len(lines)):
        if rx.search(lines[i]):
            return i + 1
    return start + 1 if start < len(lines) else max(len(lines), 1)


def _key_line(lines: list[str], key: str, start: int = 0) -> int:
    return _line_of(lines, rf"^\s*{re.escape(key)}\s*=", start)


def _string_line(lines: list[str], value: str, start: int) -> int:
    quoted = re.escape(value)
    return _line_of(lines, f"[\"']{quoted}[\"']", start)


class _FileLines:
    """The league file's path and lines: where a key is, for an error naming its line."""

    def __init__(self, path: str, lines: list[str]) -> None:
        self.path, self.lines = path, lines

    def where(self, line: int) -> str:
        return f"{self.path}, line {line}"

    def key_line(self, key: str) -> int:
        return _line_of(self.lines, rf"^\s*{re.escape(key)}\s*=")

    def at_key(self, key: str) -> str:
        """'FILE, line N' of the top-level `key`."""
        return self.where(self.key_line(key))


def _read_toml(text: str, path: str) -> dict[str, Any]:
    """The file's TOML document; a file that is not TOML is one line naming its line."""
    tomllib = toml_module()
    if tomllib is None:
        raise LeagueFileError(f"{path}: reading TOML needs Python 3.11 (or the tomli "
                              f"package: pip install tomli)")
    try:
        return dict(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\s*\(at line (\d+), column \d+\)", str(exc))
        line = getattr(exc, "lineno", None) or (int(found.group(1)) if found else None)
        what = (str(exc)[:found.start()] + str(exc)[found.end():]) if found else str(exc)
        raise LeagueFileError(f"{path}{f', line {line}' if line else ''}: not a readable league file "
                              f"({what.strip()}); it is TOML: key = \"value\" lines and [[team]] "
                              f"tables") from None


def _identity(doc: dict[str, Any], f: _FileLines) -> tuple[str, str, str]:
    """The league's name (spaces collapsed), its kit folder's code and its format."""
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise LeagueFileError(f"{f.at_key('name')}: give the league a name "
                              f"(name = \"Big Bash all-stars\")")
    name = " ".join(name.split())
    code = doc.get("code", code_of(name))
    if not isinstance(code, str) or not CODE.match(code):
        raise LeagueFileError(f"{f.at_key('code')}: code {code!r} is not 1-16 capital "
                              f"letters, digits or '-' (it names the kit's folder)")
    fmt = doc.get("format", "T20")
    if fmt not in FORMATS:
        raise LeagueFileError(f"{f.at_key('format')}: format {fmt!r}; expected "
                              f"\"T20\" or \"100-ball\"")
    return name, code, fmt


def _baseline(doc: dict[str, Any], f: _FileLines) -> tuple[SeasonRef | None, tuple[SeasonRef, ...]]:
    """The league the cards play in (None: "mean") and, for a mean, the seasons it is the mean
    of (mean_of; empty: those the sides' players come from)."""
    if "baseline" not in doc:
        raise LeagueFileError(f"{f.path}: no baseline; say which league the cards play in "
                              f"(baseline = \"BBL 2024-25\")")
    base = doc["baseline"]
    if not isinstance(base, str):
        raise LeagueFileError(f"{f.at_key('baseline')}: baseline is a season's name, "
                              f"e.g. \"BBL 2024-25\"")
    baseline = None if base.strip().casefold() == MEAN else season_ref(base, f.key_line("baseline"), f.path)
    if "mean_of" not in doc:
        return baseline, ()
    raw_mean = doc["mean_of"]
    if baseline is not None:
        raise LeagueFileError(f"{f.at_key('mean_of')}: mean_of goes with baseline = \"mean\" "
                              f"(the seasons it is the mean of); leave it out with a baseline season")
    if not isinstance(raw_mean, list) or not raw_mean or not all(isinstance(x, str) for x in raw_mean):
        raise LeagueFileError(f"{f.at_key('mean_of')}: mean_of is a list of seasons, "
                              f"e.g. [\"BBL 2024-25\", \"IPL 2025\"]")
    return baseline, tuple(season_ref(x, _string_line(f.lines, x, f.key_line("mean_of") - 1), f.path)
                           for x in raw_mean)


def _options(doc: dict[str, Any], f: _FileLines) -> tuple[float | None, int, str | None]:
    """The optional settings: the cap on a side's points, the rounds, the rules."""
    cap = doc.get("cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, (int, float))):
        raise LeagueFileError(f"{f.at_key('cap')}: cap is a number of points (runs a "
                              f"match), e.g. cap = 25")
    rounds = doc.get("rounds", 2)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 4:
        raise LeagueFileError(f"{f.at_key('rounds')}: rounds is 1 to 4 (how many times "
                              f"each pair of sides meets)")
    rules = doc.get("rules")
    if rules is not None and rules not in RULES:
        raise LeagueFileError(f"{f.at_key('rules')}: rules {rules!r}; expected "
                              f"\"quicket\" (as printed) or \"advanced\"")
    return None if cap is None else float(cap), rounds, rules


def parse_league(text: str, path: str = "league file") -> LeagueSpec:
    """The league file's text as a LeagueSpec (LeagueFileError naming the line otherwise).
    The checks run in the file's reading order (keys, name, baseline, options, draft, sides),
    so a file with several problems is told of the first."""
    doc = _read_toml(text, path)
    f = _FileLines(path, text.splitlines())
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise LeagueFileError(f"{f.at_key(unknown[0])}: unknown key {unknown[0]!r}; a "
                              f"league file has {', '.join(sorted(TOP_KEYS))}")
    name, code, fmt = _identity(doc, f)
    baseline, mean_of = _baseline(doc, f)
    cap, rounds, rules = _options(doc, f)
    draft = _draft(doc.get("draft"), f.lines, path)
    teams = _teams(doc.get("team"), f.lines, path, needed=draft is None)
    return LeagueSpec(path=path, name=name, code=code, format=fmt, baseline=baseline,
                      teams=teams, cap=cap, rounds=rounds, rules=rules, draft=draft,
                      lines={k: f.key_line(k) for k in doc if k not in ("team", "draft")}, mean_of=mean_of)


def _draft(raw, lines: list[str], path: str) -> DraftSpec | None:  # type: ignore[no-untyped-def]
    if raw is None:
        return None
    line = _line_of(lines, r"^\s*\[\s*draft\s*\]")
    if not isinstance(raw, dict):
        raise LeagueFileError(f"{path}, line {line}: draft is a table ([draft] seasons = ..., teams = ...)")
    unknown = sorted(set(raw) - DRAFT_KEYS)
    if unknown:
        bad = _key_line(lines, unknown[0], line - 1)
        raise LeagueFileError(f"{path}, line {bad}: unknown key {unknown[0]!r} in [draft]; it has "
                              f"{', '.join(sorted(DRAFT_KEYS))}")
    seasons_line = _line_of(lines, r"^\s*seasons\s*=", line - 1)
    if not isinstance(raw.get("seasons"), str):
        raise LeagueFileError(f"{path}, line {seasons_line}: [draft] seasons is a season or a "
                              f"range, or several joined by commas, e.g. \"BBL 2023-24..2024-25, IPL 2025\"")
    seasons = season_pool(raw["seasons"], seasons_line, path)
    teams = raw.get("teams", 8)
    per = raw.get("players_per_team", 11)
    for key, value, lo, hi in (("teams", teams, 2, MAX_TEAMS), ("players_per_team", per, 11, 16)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise LeagueFileError(f"{path}, line {_key_line(lines, key, line - 1)}: "
                                  f"[draft] {key} is a whole number from {lo} to {hi}")
    return DraftSpec(seasons, teams, per, line)


def _teams(raw, lines: list[str], path: str, needed: bool) -> tuple[TeamSpec, ...]:  # type: ignore[no-untyped-def]
    if raw is None:
        if needed:
            raise LeagueFileError(f"{path}: no sides; add [[team]] tables (or a [draft])")
        return ()
    if not isinstance(raw, list):
        raise LeagueFileError(f"{path}, line {_key_line(lines, 'team', 0)}: sides are "
                              f"[[team]] tables")
    headers = [i for i, text in enumerate(lines) if re.match(r"^\s*\[\[\s*team\s*\]\]", text)]
    if len(raw) > MAX_TEAMS:
        raise LeagueFileError(f"{path}, line {headers[MAX_TEAMS] + 1 if len(headers) > MAX_TEAMS else 1}: "
                              f"at most {MAX_TEAMS} sides")
    out = []
    for n, entry in enumerate(raw):
        start = headers[n] if n < len(headers) else 0
        line = start + 1
        if not isinstance(entry, dict):
            raise LeagueFileError(f"{path}, line {line}: a side is a [[team]] table")
        unknown = sorted(set(entry) - TEAM_KEYS)
        if unknown:
            raise LeagueFileError(f"{path}, line {_key_line(lines, unknown[0], start)}: "
                                  f"unknown key {unknown[0]!r} in [[team]]; a side has name and "
                                  f"players, or from = \"IPL 2025: Mumbai Indians\"")
        name = entry.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise LeagueFileError(f"{path}, line {_key_line(lines, 'name', start)}: a "
                                  f"side's name is text")
        name = " ".join(name.split()) if name else None
        if "from" in entry:
            from_line = _line_of(lines, r"^\s*from\s*=", start)
            text = entry["from"]
            if "players" in entry or not isinstance(text, str) or ":" not in text:
                raise LeagueFileError(f"{path}, line {from_line}: from names one real side as "
                                      f"\"SEASON: TEAM\", e.g. \"IPL 2025: Mumbai Indians\" "
                                      f"(without players)")
            season_text, team = (t.strip() for t in text.split(":", 1))
            out.append(TeamSpec(name, line, whole_side=(season_ref(season_text, from_line, path), team)))
            continue
        players = entry.get("players")
        players_line = _line_of(lines, r"^\s*players\s*=", start)
        if name is None:
            raise LeagueFileError(f"{path}, line {line}: the side has no name (name = \"...\")")
        if not isinstance(players, list) or not players or \
                not all(isinstance(p, str) for p in players):
            raise LeagueFileError(f"{path}, line {players_line}: players is a list of "
                                  f"\"SEASON: NAME\", e.g. [\"BBL 2024-25: JR Philippe\"]")
        refs = []
        for p in players:
            p_line = _string_line(lines, p, start)
            if ":" not in p:
                raise LeagueFileError(f"{path}, line {p_line}: {p!r}: name a player as "
                                      f"\"SEASON: NAME\", e.g. \"BBL 2024-25: JR Philippe\"")
            season_text, who = (t.strip() for t in p.split(":", 1))
            if not who:
                raise LeagueFileError(f"{path}, line {p_line}: {p!r} names no player after the season")
            refs.append(PlayerRef(season_ref(season_text, p_line, path), who, p_line))
        out.append(TeamSpec(name, line, players=tuple(refs)))
    return tuple(out)
