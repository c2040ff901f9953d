"""Player attributes: country, batting hand, bowling style and type, playing role, keeper flag.

Offline they come from a players folder (`shared/data/players/`: the Cricsheet register and the
cricketdata `player_meta` table); players it lacks can be scraped (`cardgen.sources.cricinfo`);
what is still unknown is inferred from the ball-by-ball data by the stats layer.
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

PLAYERS_ENV = "CARDGEN_PLAYERS"
ATTRIBUTE_COLUMNS = ["player_id", "full_name", "known_as", "country", "batting_hand",
                     "bowling_style", "bowling_type", "playing_role", "is_keeper", "key_cricinfo",
                     "attribute_source"]

_SPIN_WORDS = ("break", "spin", "orthodox", "chinaman", "googly", "wrist", "slow left", "slow right")


def bowling_type(style: str | None) -> str | None:
    """Quicket's bowling role from an ESPNcricinfo bowling style: Spin, Medium or Pace."""
    if not style or not isinstance(style, str):
        return None
    s = style.casefold().replace("-", " ")
    if any(word in s for word in _SPIN_WORDS) and "medium" not in s:
        return "Spin"
    if "fast" in s:
        return "Pace"  # fast, fast-medium and medium-fast all rely on speed
    if "medium" in s:
        return "Medium"
    return None


def batting_hand(style: str | None) -> str | None:
    if not style or not isinstance(style, str):
        return None
    s = style.casefold()
    return "left" if s.startswith("left") else "right" if s.startswith("right") else None


def is_keeper_role(role: str | None) -> bool:
    return isinstance(role, str) and "keeper" in role.casefold()


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


def _season_squads(players_dir: Path) -> pd.DataFrame:
    """The per-season squad files (`<comp>_<season>_players.csv`): a second source of the same
    attribute columns, used for ids that `player_meta.csv` lacks."""
    frames = []
    for path in sorted(players_dir.glob("*_players.csv")):
        try:
            frames.append(pd.read_csv(path, dtype=str, keep_default_na=False))
        except (OSError, ValueError, pd.errors.ParserError):
            continue  # an unreadable optional file: the main table still answers
    if not frames:
        return pd.DataFrame(columns=["cricsheet_id", "key_cricinfo"])
    squads = pd.concat(frames, ignore_index=True)
    # a player with several rows: prefer the one with the most fields filled in
    squads["filled"] = (squads != "").sum(axis=1)
    squads = squads.sort_values(["cricsheet_id", "filled"], ascending=[True, False], kind="mergesort")
    return squads.drop_duplicates("cricsheet_id").rename(columns={"key_cricinfo": "cricinfo_id"})


def load_attributes(players_dir: Path | None, player_ids: list[str]) -> pd.DataFrame:
    """Attributes for the given register ids from the players folder (rows only where known)."""
    if players_dir is None or not (players_dir / "player_meta.csv").is_file():
        return pd.DataFrame(columns=ATTRIBUTE_COLUMNS)
    wanted = set(player_ids)
    meta = pd.read_csv(players_dir / "player_meta.csv", dtype=str, keep_default_na=False)
    meta = meta[meta["cricsheet_id"].isin(wanted)].drop_duplicates("cricsheet_id")
    meta = meta.assign(attribute_source="player_meta")
    squads = _season_squads(players_dir)
    fields = ["full_name", "country", "batting_style", "bowling_style", "playing_role"]
    if all(col in squads for col in fields):
        extra = squads[squads["cricsheet_id"].isin(wanted - set(meta["cricsheet_id"]))]
        extra = extra[(extra[fields] != "").any(axis=1)]
        if len(extra):
            meta = pd.concat([meta, extra.assign(attribute_source="season_squads")], ignore_index=True)
    people = pd.DataFrame(columns=["identifier", "key_cricinfo"])
    if (players_dir / "people.csv").is_file():
        people = pd.read_csv(players_dir / "people.csv", dtype=str, keep_default_na=False,
                             usecols=["identifier", "key_cricinfo"])
    cricinfo = dict(zip(people["identifier"], people["key_cricinfo"]))
    rows = []
    for r in meta.astype(object).fillna("").sort_values("cricsheet_id").itertuples():
        rows.append({
            "player_id": r.cricsheet_id,
            "full_name": (r.full_name or "").strip() or None,
            "known_as": None,
            "country": r.country or None,
            "batting_hand": batting_hand(r.batting_style),
            "bowling_style": r.bowling_style or None,
            "bowling_type": bowling_type(r.bowling_style),
            "playing_role": r.playing_role or None,
            "is_keeper": is_keeper_role(r.playing_role),
            "key_cricinfo": cricinfo.get(r.cricsheet_id) or r.cricinfo_id or None,
            "attribute_source": r.attribute_source,
        })
    return pd.DataFrame(rows, columns=ATTRIBUTE_COLUMNS)


def cricinfo_keys(players_dir: Path | None, player_ids: list[str]) -> dict[str, str]:
    """ESPNcricinfo ids of the given register ids, from the Cricsheet register (people.csv)."""
    if players_dir is None or not (players_dir / "people.csv").is_file():
        return {}
    people = pd.read_csv(players_dir / "people.csv", dtype=str, keep_default_na=False,
                         usecols=["identifier", "key_cricinfo"])
    people = people[people["identifier"].isin(set(player_ids)) & (people["key_cricinfo"] != "")]
    return dict(zip(people["identifier"], people["key_cricinfo"]))
