"""Parse Cricsheet JSON match files (data_version 1.x) into tidy tables.

Pure functions: bytes or dicts in, pandas tables out, `ParseError` on anything malformed.
Fetching lives in `cardgen.sources.fetch`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import pandas as pd

from cardgen.errors import ParseError

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
        raise ParseError(f"{where}: expected an integer, got {value!r}")
    return int(value)


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
    teams = _require(info, "teams", where)
    if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, str) for t in teams)):
        raise ParseError(f"{where}: info.teams must name two teams")
    registry = (info.get("registry") or {}).get("people") or {}
    if not isinstance(registry, dict) or not all(isinstance(v, str) for v in registry.values()):
        raise ParseError(f"{where}: info.registry.people is not a mapping of names to ids")
    event = info.get("event") or {}
    outcome = info.get("outcome") or {}
    dates = info.get("dates") or [""]
    toss = info.get("toss") or {}
    if "winner" in outcome:
        result = "win"
    else:
        result = str(outcome.get("result", "unknown"))
    match = {
        "match_id": match_id,
        "date": str(dates[0]),
        "season": str(info.get("season", "")),
        "event": str(event.get("name", "")) if isinstance(event, dict) else "",
        "match_number": event.get("match_number") if isinstance(event, dict) else None,
        "stage": str(event.get("stage", "")) if isinstance(event, dict) else "",
        "gender": str(info.get("gender", "")),
        "team1": teams[0],
        "team2": teams[1],
        "venue": str(info.get("venue", "")),
        "winner": outcome.get("winner") or outcome.get("eliminator") or "",
        "result": result,
        "method": str(outcome.get("method", "")),
        "toss_winner": str(toss.get("winner", "")),
        "toss_decision": str(toss.get("decision", "")),
        "balls_per_over": _int(info.get("balls_per_over", 6), where),
        "overs": _int(info.get("overs", 20), where),
        "player_of_match": ";".join(info.get("player_of_match") or []),
    }
    players: list[dict[str, Any]] = []
    for team, names in (info.get("players") or {}).items():
        if team not in teams or not isinstance(names, list):
            raise ParseError(f"{where}: info.players has an unknown team {team!r}")
        for i, name in enumerate(names):
            players.append({"match_id": match_id, "team": team, "player": str(name),
                            "player_id": registry.get(name, str(name)), "order_in_list": i})

    deliveries: list[dict[str, Any]] = []
    wickets: list[dict[str, Any]] = []
    innings_list = _require(data, "innings", where)
    if not isinstance(innings_list, list):
        raise ParseError(f"{where}: innings is not a list")
    for inn_no, inn in enumerate(innings_list, start=1):
        batting = _require(inn, "team", f"{where} innings {inn_no}")
        if batting not in teams:
            raise ParseError(f"{where} innings {inn_no}: unknown batting team {batting!r}")
        bowling = teams[1] if batting == teams[0] else teams[0]
        super_over = bool(inn.get("super_over", False))
        seq = 0
        for over in _require(inn, "overs", f"{where} innings {inn_no}"):
            over_no = _int(_require(over, "over", where), where)
            legal_in_over = 0
            for dl in _require(over, "deliveries", where):
                seq += 1
                runs = _require(dl, "runs", where)
                extras = dl.get("extras") or {}
                wides = _int(extras.get("wides", 0), where)
                noballs = _int(extras.get("noballs", 0), where)
                legal = wides == 0 and noballs == 0
                if legal:
                    legal_in_over += 1
                batter = str(_require(dl, "batter", where))
                bowler = str(_require(dl, "bowler", where))
                non_striker = str(_require(dl, "non_striker", where))
                deliveries.append({
                    "match_id": match_id, "innings": inn_no, "super_over": super_over,
                    "batting_team": batting, "bowling_team": bowling, "over": over_no,
                    "ball": legal_in_over, "delivery": seq,
                    "batter": batter, "batter_id": registry.get(batter, batter),
                    "non_striker": non_striker,
                    "non_striker_id": registry.get(non_striker, non_striker),
                    "bowler": bowler, "bowler_id": registry.get(bowler, bowler),
                    "runs_batter": _int(_require(runs, "batter", where), where),
                    "runs_extras": _int(runs.get("extras", 0), where),
                    "runs_total": _int(_require(runs, "total", where), where),
                    "wides": wides, "noballs": noballs,
                    "byes": _int(extras.get("byes", 0), where),
                    "legbyes": _int(extras.get("legbyes", 0), where),
                    "penalty": _int(extras.get("penalty", 0), where),
                    "legal": legal,
                    "non_boundary": bool(runs.get("non_boundary", False)),
                })
                for w in dl.get("wickets") or []:
                    out = str(_require(w, "player_out", where))
                    fielders = [f for f in (w.get("fielders") or []) if isinstance(f, dict)]
                    names = [str(f.get("name", "")) for f in fielders if f.get("name")]
                    wickets.append({
                        "match_id": match_id, "innings": inn_no, "super_over": super_over,
                        "delivery": seq, "kind": str(_require(w, "kind", where)),
                        "player_out": out, "player_out_id": registry.get(out, out),
                        "fielders": ";".join(names),
                        "fielder_ids": ";".join(registry.get(n, n) for n in names),
                        "substitute_fielder": any(bool(f.get("substitute")) for f in fielders),
                        "bowler": bowler, "bowler_id": registry.get(bowler, bowler),
                        "batting_team": batting, "bowling_team": bowling,
                    })
    return ParsedMatch(match, deliveries, wickets, players)


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
