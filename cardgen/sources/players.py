"""Player attributes: country, batting hand, bowling style and type, playing role, keeper flag.

Offline they come from a players folder ($CARDGEN_PLAYERS, else a `players/` folder beside a
local mirror, as in `shared/data/players/`: the Cricsheet register and the cricketdata
`player_meta` table), else from the compact table cardgen ships (derived from that folder:
`python -m cardgen.sources.players ../shared/data/players` rewrites it); players they lack can be
scraped (`cardgen.sources.cricinfo`); what is still unknown is inferred from the ball-by-ball
data by the stats layer.
"""
from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

from cardgen.errors import SourceError
# re-exported (their home is sources.locations, which a catalogue run imports without pandas)
from cardgen.sources.locations import PLAYERS_ENV as PLAYERS_ENV
from cardgen.sources.locations import default_players_dir as default_players_dir
ATTRIBUTE_COLUMNS = ["player_id", "full_name", "known_as", "country", "batting_hand",
                     "bowling_style", "bowling_type", "playing_role", "is_keeper", "key_cricinfo",
                     "attribute_source", "birth_year", "cricinfo_keys"]

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


def is_keeper_role(role: object) -> bool:
    """Whether a playing role (any value a table cell holds) names a wicketkeeper."""
    return isinstance(role, str) and "keeper" in role.casefold()


def read_players_table(path: Path, columns: list[str], usecols: bool = False,
                       optional: tuple[str, ...] = ()) -> pd.DataFrame:
    """A CSV of the players folder as text, checked to have `columns` (only those and any
    `optional` ones when `usecols`): a folder picked up beside a mirror may hold files of
    another shape."""
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False,
                            usecols=(lambda col: col in columns or col in optional) if usecols else None)
    except (OSError, ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
        raise SourceError(f"players table {path} cannot be read ({reason}); fix it or set "
                          f"{PLAYERS_ENV} to another players folder") from exc
    missing = [col for col in columns if col not in table.columns]
    if missing:
        raise SourceError(f"players table {path} lacks the column(s) {', '.join(missing)} "
                          f"(see Cricsheet's people.csv and cricketdata's player_meta.csv); fix it "
                          f"or set {PLAYERS_ENV} to another players folder")
    return table


def _season_squads(players_dir: Path) -> pd.DataFrame:
    """The per-season squad files (`<comp>_<season>_players.csv`): a second source of the same
    attribute columns, used for ids that `player_meta.csv` lacks."""
    frames = []
    for path in sorted(players_dir.glob("*_players.csv")):
        try:
            frames.append(read_players_table(path, ["cricsheet_id"]))
        except SourceError:
            continue  # an unreadable optional file: the main table still answers
    if not frames:
        return pd.DataFrame(columns=["cricsheet_id", "key_cricinfo"])
    squads = pd.concat(frames, ignore_index=True)
    # a player with several rows: prefer the one with the most fields filled in
    squads["filled"] = (squads != "").sum(axis=1)
    squads = squads.sort_values(["cricsheet_id", "filled"], ascending=[True, False], kind="mergesort")
    return squads.drop_duplicates("cricsheet_id").rename(columns={"key_cricinfo": "cricinfo_id"})


def _birth_year(dob: str | None) -> str | None:
    """'1991' from an ISO date of birth ('1991-12-15'); None when there is none."""
    text = (dob or "").strip()
    return text[:4] if len(text) >= 4 and text[:4].isdigit() else None


def _attribute_rows(meta: pd.DataFrame, cricinfo: dict[str, list[str]]) -> pd.DataFrame:
    """Attribute rows in ATTRIBUTE_COLUMNS from a table with player_meta's columns
    (cricsheet_id, full_name, country, batting_style, bowling_style, playing_role,
    attribute_source, optional cricinfo_id and dob or birth_year). A player may have several
    rows (one per ESPNcricinfo profile the sources join to his register id): the register's
    own key first, then the one with the most fields filled; `cardgen.stats.identity` keeps
    the first that agrees with the season."""
    rows = []
    for r in meta.astype(object).fillna("").to_dict("records"):
        keys = cricinfo.get(r["cricsheet_id"], [])
        rows.append({
            "player_id": r["cricsheet_id"],
            "full_name": (r.get("full_name") or "").strip() or None,
            "known_as": None,
            "country": r.get("country") or None,
            "batting_hand": batting_hand(r.get("batting_style")),
            "bowling_style": r.get("bowling_style") or None,
            "bowling_type": bowling_type(r.get("bowling_style")),
            "playing_role": r.get("playing_role") or None,
            "is_keeper": is_keeper_role(r.get("playing_role")),
            # the row's own profile; else the register's (a season squad row names none)
            "key_cricinfo": r.get("cricinfo_id") or (keys[0] if keys else None),
            "attribute_source": r["attribute_source"],
            "birth_year": r.get("birth_year") or _birth_year(r.get("dob")),
            "cricinfo_keys": ";".join(keys) or None,
        })
    table = pd.DataFrame(rows, columns=ATTRIBUTE_COLUMNS)
    if not len(table):
        return table
    first_key = table["player_id"].map(lambda pid: next(iter(cricinfo.get(pid) or ()), None))
    order = pd.DataFrame({"player_id": table["player_id"],
                          "not_register_key": table["key_cricinfo"] != first_key,
                          "empty": table[["full_name", "country", "bowling_style", "playing_role"]].isna().sum(axis=1),
                          "key": table["key_cricinfo"].fillna("")})
    order = order.sort_values(["player_id", "not_register_key", "empty", "key"], kind="mergesort")
    return table.loc[order.index].reset_index(drop=True)


REGISTER_KEY_COLUMNS = ("key_cricinfo", "key_cricinfo_2", "key_cricinfo_3")


def register_cricinfo_keys(people: pd.DataFrame) -> dict[str, list[str]]:
    """Register id -> its ESPNcricinfo keys in the register's order (some ids carry two or
    three: one person's duplicate profiles, or two people the register took for one)."""
    cols = [c for c in REGISTER_KEY_COLUMNS if c in people.columns]
    out: dict[str, list[str]] = {}
    for r in people[["identifier", *cols]].itertuples(index=False):
        keys = [k for k in r[1:] if isinstance(k, str) and k]
        if keys:
            out.setdefault(r[0], keys)
    return out


def _read_people(players_dir: Path, columns: list[str]) -> pd.DataFrame:
    """The register's wanted columns, with its second and third ESPNcricinfo keys where it has them."""
    return read_players_table(players_dir / "people.csv", columns, usecols=True,
                              optional=REGISTER_KEY_COLUMNS)


def load_attributes(players_dir: Path | None, player_ids: list[str]) -> pd.DataFrame:
    """Attribute rows for the given register ids from the players folder (rows only where
    known, several for a player with several profiles); with no players folder, from the table
    shipped with cardgen (`load_shipped_attributes`)."""
    if players_dir is None or not (players_dir / "player_meta.csv").is_file():
        return load_shipped_attributes(player_ids)
    wanted = set(player_ids)
    meta = read_players_table(players_dir / "player_meta.csv", ["cricsheet_id"])
    meta = meta[meta["cricsheet_id"].isin(wanted)]
    if "cricinfo_id" in meta:
        meta = meta.drop_duplicates(["cricsheet_id", "cricinfo_id"])
    else:
        meta = meta.drop_duplicates("cricsheet_id")
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
        people = _read_people(players_dir, ["identifier", "key_cricinfo"])
    return _attribute_rows(meta, register_cricinfo_keys(people[people["identifier"].isin(wanted)]))


# --- the attributes table shipped with cardgen ----------------------------------------------------

SHIPPED_TABLE = Path(__file__).resolve().parent / "data" / "player_attributes.csv.gz"
SHIPPED_COLUMNS = ["player_id", "name", "full_name", "country", "batting_style", "bowling_style",
                   "playing_role", "key_cricinfo", "birth_year", "cricinfo_keys"]
SHIPPED_CREDIT = ("Player attributes: the Cricsheet register (cricsheet.org, ODC-By 1.0) and the "
                  "cricketdata R package's player_meta (values from ESPNcricinfo, March 2025).")


def derive_shipped_table(players_dir: Path) -> pd.DataFrame:
    """The compact table cardgen ships: every player of the register and of player_meta, with
    the attributes cards use (register id, Cricsheet and full names, country, batting and
    bowling styles, playing role, the row's ESPNcricinfo id) and what checks a row against a
    season (birth year; the register's ESPNcricinfo keys, ';'-joined); no birth dates or places.
    A register id that player_meta joins to several profiles has a row for each."""
    people = _read_people(players_dir, ["identifier", "name", "key_cricinfo"])
    people = people.drop_duplicates("identifier")
    keys = register_cricinfo_keys(people)
    people = pd.DataFrame({"player_id": people["identifier"], "name": people["name"],
                           "cricinfo_keys": [";".join(keys.get(pid, [])) for pid in people["identifier"]]})
    fields = ["full_name", "country", "batting_style", "bowling_style", "playing_role"]
    meta = read_players_table(players_dir / "player_meta.csv", ["cricsheet_id", *fields, "cricinfo_id"])
    meta = meta[meta["cricsheet_id"] != ""].drop_duplicates(["cricsheet_id", "cricinfo_id"])
    squads = _season_squads(players_dir)
    if all(col in squads for col in fields):
        extra = squads[~squads["cricsheet_id"].isin(set(meta["cricsheet_id"]))]
        meta = pd.concat([meta, extra[(extra[fields] != "").any(axis=1)]], ignore_index=True)
    meta = meta.assign(birth_year=[_birth_year(d) or "" for d in meta.get("dob", pd.Series("", index=meta.index)).fillna("")])
    meta = meta.rename(columns={"cricsheet_id": "player_id"})[["player_id", *fields, "cricinfo_id", "birth_year"]]
    table = people.merge(meta, on="player_id", how="outer").fillna("")
    table["key_cricinfo"] = [c or (k.split(";")[0] if k else "")
                             for c, k in zip(table["cricinfo_id"], table["cricinfo_keys"])]
    table["full_name"] = table["full_name"].str.strip()
    table = table[SHIPPED_COLUMNS].sort_values(["player_id", "key_cricinfo"], kind="mergesort")
    return table.reset_index(drop=True)


def write_shipped_table(players_dir: Path, path: Path = SHIPPED_TABLE) -> Path:
    """Write the shipped table (gzip with a fixed timestamp: the same inputs, the same bytes)."""
    import gzip
    from cardgen.cache import atomic_write_bytes
    text = derive_shipped_table(players_dir).to_csv(index=False, lineterminator="\n")
    atomic_write_bytes(path, gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return path


@functools.cache
def shipped_table() -> pd.DataFrame:
    """The shipped players table, read once a process."""
    if SHIPPED_TABLE.is_file():
        return pd.read_csv(SHIPPED_TABLE, dtype=str, keep_default_na=False)
    return pd.DataFrame(columns=SHIPPED_COLUMNS)  # a damaged install: inference from the ball-by-ball data still works


def load_shipped_attributes(player_ids: list[str]) -> pd.DataFrame:
    """Attribute rows for the given register ids from the shipped table (rows only where it has
    something beyond the register's name; several for a player with several profiles)."""
    t = shipped_table()
    t = t[t["player_id"].isin(set(player_ids))]
    fields = ["full_name", "country", "batting_style", "bowling_style", "playing_role"]
    t = t[(t[fields] != "").any(axis=1)]
    meta = t.rename(columns={"player_id": "cricsheet_id", "key_cricinfo": "cricinfo_id"})
    meta = meta.assign(attribute_source="shipped")
    keys = {pid: k.split(";") for pid, k in zip(t["player_id"], t.get("cricinfo_keys", t["key_cricinfo"])) if k}
    return _attribute_rows(meta, keys)


def cricinfo_keys(players_dir: Path | None, player_ids: list[str]) -> dict[str, str]:
    """The register's (first) ESPNcricinfo id of the given register ids, from the Cricsheet
    register (people.csv), or the shipped table when there is no players folder."""
    if players_dir is None or not (players_dir / "people.csv").is_file():
        t = shipped_table()
        t = t[t["player_id"].isin(set(player_ids))]
        column = "cricinfo_keys" if "cricinfo_keys" in t else "key_cricinfo"
        return {pid: k.split(";")[0] for pid, k in zip(t["player_id"], t[column]) if k}
    people = read_players_table(players_dir / "people.csv", ["identifier", "key_cricinfo"], usecols=True)
    people = people[people["identifier"].isin(set(player_ids)) & (people["key_cricinfo"] != "")]
    return dict(zip(people["identifier"], people["key_cricinfo"]))


if __name__ == "__main__":  # pragma: no cover - maintainer command: rewrite the shipped table
    import sys
    print(write_shipped_table(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/players")))
