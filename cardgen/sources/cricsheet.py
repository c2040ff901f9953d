"""Parse Cricsheet JSON match files (data_version 1.x) into tidy tables.

Pure functions: bytes or dicts in, pandas tables out, `ParseError` on anything malformed.
Fetching lives in `cardgen.sources.fetch`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable, Mapping

import pandas as pd

from cardgen.errors import ParseError
from cardgen.text import MOST_TEAM_NAME_CHARS, MOST_TEXT_CHARS, clean_text

DELIVERY_COLUMNS = [
    "match_id", "innings", "super_over", "batting_team", "bowling_team", "over", "ball",
    "delivery", "batter", "batter_id", "non_striker", "non_striker_id", "bowler", "bowler_id",
    "runs_batter", "runs_extras", "runs_total", "wides", "noballs", "byes", "legbyes",
    "penalty", "legal", "non_boundary",
]
WICKET_COLUMNS = [
    "match_id", "innings", "super_over", "delivery", "kind", "player_out", "player_out_id",
    "fielders", "fielder_ids", "substitute_fielder", "bowler", "bowler_id", "batting_team",
    "bowling_team",
]
MATCH_COLUMNS = [
    "match_id", "date", "season", "event", "match_number", "stage", "gender", "team1", "team2",
    "venue", "winner", "result", "method", "toss_winner", "toss_decision", "balls_per_over",
    "overs", "player_of_match",
]
PLAYER_COLUMNS = ["match_id", "team", "player", "player_id", "order_in_list"]


@dataclass
class ParsedMatch:
    match: dict[str, Any]
    deliveries: list[dict[str, Any]]
    wickets: list[dict[str, Any]]
    players: list[dict[str, Any]]


def _require(mapping: Any, key: str, where: str) -> Any:
    if not isinstance(mapping, dict) or key not in mapping:
        raise ParseError(f"{where}: missing {key!r}")
    return mapping[key]


def _int(value: Any, where: str) -> int:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not value.is_integer())):
        raise ParseError(f"{where}: expected an integer, got {_shown(value)}")
    return int(value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"


# The most one delivery may carry, well above anything real (the nine seasons in the mirror:
# 6 off the bat, 5 wides, 5 leg byes, 2 no-balls, 8 in all, 2 wickets): a value beyond is a
# damaged or hand-made file, refused as a NaN is, not a season with a batter's runs lowered
# by a -6 or raised by 10^400.
MOST_PER_DELIVERY = {"runs.batter": 10, "runs.extras": 20, "runs.total": 30, "extras": 10, "wickets": 2}
MOST_OVERS = 1000  # an over's number and info.overs (a Test innings runs to a few hundred)
MOST_BALLS_PER_OVER = 10


def _count(value: Any, where: str, what: str, most: int, least: int = 0) -> int:
    """An integer from `least` to `most` (`what` names the field in the refusal)."""
    number = _int(value, f"{where}: {what}")
    if not least <= number <= most:
        raise ParseError(f"{where}: {what} is {_shown(number)}, outside {least}-{most}")
    return number


def _no_longer(names: Iterable[str], most: int, where: str) -> None:
    """Names no longer than `most` characters: a team's names folders and files, a player's
    goes into the card set, whose loader refuses longer text (`cardgen.text`)."""
    longest = max(names, key=len, default="")
    if len(longest) > most:
        raise ParseError(f"{where}: a name of {len(longest):,} characters, over the limit of {most:,}")


def _text(value: Any) -> str:
    """A name or label as it is printed: without control or bidirectional-override characters."""
    return clean_text(str(value))


def parse_match(raw: bytes | str | dict, match_id: str) -> ParsedMatch:
    """Parse one Cricsheet match (JSON text or already-decoded dict)."""
    if isinstance(raw, (bytes, str)):
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ParseError(f"match {match_id}: not valid JSON ({exc.__class__.__name__})") from exc
    else:
        data = raw
    where = f"match {match_id}"
    try:
        return _parse(data, match_id, where)
    except ParseError:
        raise
    except (TypeError, AttributeError, KeyError, IndexError, ValueError, OverflowError,
            RecursionError) as exc:
        raise ParseError(f"{where}: unexpected structure ({exc})") from exc


def _parse(data: Any, match_id: str, where: str) -> ParsedMatch:
    info = _require(data, "info", where)
    teams = _teams(info, where)
    registry = _registry(info, where)
    match = _match_row(info, match_id, teams, where)
    players = _player_rows(info, match_id, teams, registry, where)
    deliveries: list[dict[str, Any]] = []
    wickets: list[dict[str, Any]] = []
    innings_list = _require(data, "innings", where)
    if not isinstance(innings_list, list):
        raise ParseError(f"{where}: innings is not a list")
    for inn_no, inn in enumerate(innings_list, start=1):
        _innings_rows(inn, _Innings.of(inn, inn_no, match_id, teams, registry, where), deliveries, wickets)
    return ParsedMatch(match, deliveries, wickets, players)


def _teams(info: dict[str, Any], where: str) -> list[str]:
    """info.teams: the two teams' names, as printed."""
    teams = _require(info, "teams", where)
    if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, str) for t in teams)):
        raise ParseError(f"{where}: info.teams must name two teams")
    teams = [_text(t) for t in teams]
    _no_longer(teams, MOST_TEAM_NAME_CHARS, f"{where}: info.teams")
    return teams


def _registry(info: dict[str, Any], where: str) -> dict[str, str]:
    """info.registry.people: each name the file uses -> its Cricsheet register id."""
    registry = (info.get("registry") or {}).get("people") or {}
    if not isinstance(registry, dict) or not all(isinstance(v, str) for v in registry.values()):
        raise ParseError(f"{where}: info.registry.people is not a mapping of names to ids")
    registry = {_text(name): _text(pid) for name, pid in registry.items()}
    _no_longer(registry, MOST_TEXT_CHARS, f"{where}: info.registry.people")
    return registry


def _match_row(info: dict[str, Any], match_id: str, teams: list[str], where: str) -> dict[str, Any]:
    """The match's row of the matches table (MATCH_COLUMNS)."""
    event = info.get("event") or {}
    outcome = info.get("outcome") or {}
    dates = info.get("dates") or [""]
    toss = info.get("toss") or {}
    result = "win" if "winner" in outcome else str(outcome.get("result", "unknown"))
    return {
        "match_id": match_id,
        "date": str(dates[0]),
        "season": _text(info.get("season", "")),
        "event": _text(event.get("name", "")) if isinstance(event, dict) else "",
        "match_number": event.get("match_number") if isinstance(event, dict) else None,
        "stage": _text(event.get("stage", "")) if isinstance(event, dict) else "",
        "gender": _text(info.get("gender", "")),
        "team1": teams[0],
        "team2": teams[1],
        "venue": _text(info.get("venue", "")),
        "winner": _text(outcome.get("winner") or outcome.get("eliminator") or ""),
        "result": result,
        "method": _text(outcome.get("method", "")),
        "toss_winner": _text(toss.get("winner", "")),
        "toss_decision": _text(toss.get("decision", "")),
        "balls_per_over": _count(info.get("balls_per_over", 6), where, "info.balls_per_over",
                                 MOST_BALLS_PER_OVER, least=1),
        "overs": _count(info.get("overs", 20), where, "info.overs", MOST_OVERS, least=1),
        "player_of_match": ";".join(_text(p) for p in info.get("player_of_match") or []),
    }


def _player_rows(info: dict[str, Any], match_id: str, teams: list[str], registry: dict[str, str],
                 where: str) -> list[dict[str, Any]]:
    """info.players: each team's listed players, in the file's order (PLAYER_COLUMNS)."""
    players: list[dict[str, Any]] = []
    for team, names in (info.get("players") or {}).items():
        if _text(team) not in teams or not isinstance(names, list):
            raise ParseError(f"{where}: info.players has an unknown team {_shown(team)}")
        for i, name in enumerate(names):
            name = _text(name)
            players.append({"match_id": match_id, "team": _text(team), "player": name,
                            "player_id": registry.get(name, name), "order_in_list": i})
    return players


@dataclass(frozen=True)
class _Innings:
    """What every row of one innings repeats, and where its refusals say they are."""
    match_id: str
    number: int  # 1-based, in the file's order
    super_over: bool
    batting: str
    bowling: str
    registry: dict[str, str]
    where: str  # "match <id>" (the refusals of a missing key say no more)
    at: str  # "match <id> innings <n>"

    @classmethod
    def of(cls, inn: Any, inn_no: int, match_id: str, teams: list[str], registry: dict[str, str],
           where: str) -> _Innings:
        at = f"{where} innings {inn_no}"
        batting = _require(inn, "team", at)
        batting = _text(batting) if isinstance(batting, str) else batting
        if batting not in teams:
            raise ParseError(f"{at}: unknown batting team {_shown(batting)}")
        bowling = teams[1] if batting == teams[0] else teams[0]
        return cls(match_id, inn_no, bool(inn.get("super_over", False)), batting, bowling, registry, where, at)

    def id_of(self, name: str) -> str:
        return self.registry.get(name, name)


def _innings_rows(inn: dict[str, Any], innings: _Innings, deliveries: list[dict[str, Any]],
                  wickets: list[dict[str, Any]]) -> None:
    """One innings' deliveries and wickets, appended to the tables' rows in the file's order."""
    where = innings.where
    seq = 0
    for over in _require(inn, "overs", innings.at):
        over_no = _count(_require(over, "over", where), innings.at, "over", MOST_OVERS)
        at = f"{innings.at} over {over_no}"
        legal_in_over = 0
        for dl in _require(over, "deliveries", where):
            seq += 1
            row, wickets_here = _delivery_row(dl, innings, over_no, legal_in_over, seq, at)
            legal_in_over = row["ball"]
            deliveries.append(row)
            wickets += [_wicket_row(w, innings, seq, row["bowler"]) for w in wickets_here]


def _delivery_row(dl: Any, innings: _Innings, over_no: int, legal_before: int, seq: int,
                  at: str) -> tuple[dict[str, Any], list[Any]]:
    """A delivery's row of the deliveries table (DELIVERY_COLUMNS; its "ball" counts the over's
    legal balls, this one included) and the file's list of its wickets."""
    where = innings.where
    runs = _require(dl, "runs", where)
    extras = dl.get("extras") or {}
    if not isinstance(extras, dict):
        raise ParseError(f"{at}: extras is not a mapping")
    most = MOST_PER_DELIVERY["extras"]
    wides = _count(extras.get("wides", 0), at, "extras.wides", most)
    noballs = _count(extras.get("noballs", 0), at, "extras.noballs", most)
    legal = wides == 0 and noballs == 0
    batter = _text(_require(dl, "batter", where))
    bowler = _text(_require(dl, "bowler", where))
    non_striker = _text(_require(dl, "non_striker", where))
    wickets_here = dl.get("wickets") or []
    if isinstance(wickets_here, list) and len(wickets_here) > MOST_PER_DELIVERY["wickets"]:
        raise ParseError(f"{at}: {len(wickets_here)} wickets on one delivery, outside "
                         f"0-{MOST_PER_DELIVERY['wickets']}")
    row = {
        "match_id": innings.match_id, "innings": innings.number, "super_over": innings.super_over,
        "batting_team": innings.batting, "bowling_team": innings.bowling, "over": over_no,
        "ball": legal_before + 1 if legal else legal_before, "delivery": seq,
        "batter": batter, "batter_id": innings.id_of(batter),
        "non_striker": non_striker,
        "non_striker_id": innings.id_of(non_striker),
        "bowler": bowler, "bowler_id": innings.id_of(bowler),
        "runs_batter": _count(_require(runs, "batter", where), at, "runs.batter",
                              MOST_PER_DELIVERY["runs.batter"]),
        "runs_extras": _count(runs.get("extras", 0), at, "runs.extras",
                              MOST_PER_DELIVERY["runs.extras"]),
        "runs_total": _count(_require(runs, "total", where), at, "runs.total",
                             MOST_PER_DELIVERY["runs.total"]),
        "wides": wides, "noballs": noballs,
        "byes": _count(extras.get("byes", 0), at, "extras.byes", most),
        "legbyes": _count(extras.get("legbyes", 0), at, "extras.legbyes", most),
        "penalty": _count(extras.get("penalty", 0), at, "extras.penalty", most),
        "legal": legal,
        "non_boundary": bool(runs.get("non_boundary", False)),
    }
    return row, wickets_here


def _wicket_row(w: Any, innings: _Innings, seq: int, bowler: str) -> dict[str, Any]:
    """A wicket's row of the wickets table (WICKET_COLUMNS); `seq` is its delivery's number."""
    out = _text(_require(w, "player_out", innings.where))
    fielders = [f for f in (w.get("fielders") or []) if isinstance(f, dict)]
    names = [_text(f.get("name", "")) for f in fielders if f.get("name")]
    return {
        "match_id": innings.match_id, "innings": innings.number, "super_over": innings.super_over,
        "delivery": seq, "kind": _text(_require(w, "kind", innings.where)),
        "player_out": out, "player_out_id": innings.id_of(out),
        "fielders": ";".join(names),
        "fielder_ids": ";".join(innings.id_of(n) for n in names),
        "substitute_fielder": any(bool(f.get("substitute")) for f in fielders),
        "bowler": bowler, "bowler_id": innings.id_of(bowler),
        "batting_team": innings.batting, "bowling_team": innings.bowling,
    }


@dataclass
class SeasonData:
    """Every parsed match of one competition season, as four tidy tables."""
    matches: pd.DataFrame
    deliveries: pd.DataFrame
    wickets: pd.DataFrame
    players: pd.DataFrame


TEAM_COLUMNS = {"matches": ("team1", "team2", "winner", "toss_winner"),
                "deliveries": ("batting_team", "bowling_team"), "wickets": ("batting_team", "bowling_team"),
                "players": ("team",)}


def rename_teams(data: SeasonData, renames: Mapping[str, str]) -> SeasonData:
    """The season with its teams renamed (a competition's `team_aliases`: one team under two
    names in the files becomes one team, in every table that names a team)."""
    if not renames:
        return data
    tables = {}
    for name, columns in TEAM_COLUMNS.items():
        table = getattr(data, name).copy()
        for column in columns:
            table[column] = table[column].replace(dict(renames))
        tables[name] = table
    return SeasonData(**tables)


def combine(parsed: Iterable[ParsedMatch]) -> SeasonData:
    matches, deliveries, wickets, players = [], [], [], []
    for p in parsed:
        matches.append(p.match)
        deliveries.extend(p.deliveries)
        wickets.extend(p.wickets)
        players.extend(p.players)
    m = pd.DataFrame(matches, columns=MATCH_COLUMNS)
    if len(m):
        m = m.sort_values(["date", "match_id"]).reset_index(drop=True)
    return SeasonData(
        matches=m,
        deliveries=pd.DataFrame(deliveries, columns=DELIVERY_COLUMNS),
        wickets=pd.DataFrame(wickets, columns=WICKET_COLUMNS),
        players=pd.DataFrame(players, columns=PLAYER_COLUMNS),
    )
