"""Complete the attributes table: every player of the season gets a row.

Sources (players folder, ESPNcricinfo) come first; what they leave empty is inferred from the
ball-by-ball data: who kept wicket (see `tables.keepers_by_match`), the usual batting position
(Opening / Top / Middle / Lower, the rules' batter roles) and who bowled. Inferred values are
flagged in `inferred_fields`, and a player no source knows has `attribute_source` "inferred".
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardgen.sources.players import ATTRIBUTE_COLUMNS, is_keeper_role

INFERRED_COLUMNS = ["player", "usual_batting_position", "inferred_batting_role", "inferred_bowler",
                    "inferred_keeper", "matches", "matches_kept", "inferred_fields"]
COLUMNS = [*ATTRIBUTE_COLUMNS, *INFERRED_COLUMNS]

# A player who kept in at least this share of his matches is a wicketkeeper
KEEPER_SHARE = 0.5
# A player who bowled in at least this share of his matches counts as a bowler for his role
BOWLER_SHARE = 0.5


def batting_role(position: float | None) -> str | None:
    """The rules' batter roles by usual position: Opening 1-2, Top 3, Middle 4-8, else Lower."""
    if position is None or pd.isna(position):
        return None
    if position <= 2:
        return "Opening"
    if position <= 3:
        return "Top"
    if position <= 8:
        return "Middle"
    return "Lower"


def _inferred_playing_role(keeper: bool, bowled_share: float, batted_share: float,
                           position: float | None) -> str:
    """A playing role in ESPNcricinfo's words, from what the player did this season."""
    if keeper:
        return "Wicketkeeper Batter"
    if bowled_share >= BOWLER_SHARE:
        bats = batted_share >= 0.5 and position is not None and not pd.isna(position) and position <= 7
        return "Allrounder" if bats else "Bowler"
    role = batting_role(position)
    return {"Opening": "Opening Batter", "Top": "Top order Batter",
            "Middle": "Middle order Batter"}.get(role or "", "Batter")


def complete_attributes(players: pd.DataFrame, positions: pd.DataFrame, deliveries: pd.DataFrame,
                        keepers: pd.DataFrame, stumpers: set[str],
                        attributes: pd.DataFrame | None) -> pd.DataFrame:
    """One row per player of the season: source attributes where known, inference elsewhere.

    players: the XI lists (match_id, team, player, player_id); positions: batting positions per
    innings; deliveries: season deliveries (no super overs); keepers: who kept in each match;
    stumpers: ids of players who made a stumping.
    """
    xi = players.drop_duplicates(["match_id", "player_id"])
    base = xi.groupby("player_id").agg(player=("player", "first"), matches=("match_id", "nunique"))
    batted = positions.groupby("player_id").agg(usual_batting_position=("position", "median"),
                                                innings_batted=("match_id", "nunique"))
    bowled = (deliveries[deliveries["legal"].astype(bool)].groupby("bowler_id")["match_id"]
              .nunique().rename("matches_bowled"))
    kept = keepers.groupby("player_id")["match_id"].nunique().rename("matches_kept")
    t = base.join(batted).join(bowled).join(kept)
    t = t.fillna({"innings_batted": 0, "matches_bowled": 0, "matches_kept": 0})
    t["usual_batting_position"] = np.floor(t["usual_batting_position"]).astype("Int64")
    t["inferred_batting_role"] = [batting_role(p) for p in t["usual_batting_position"]]
    t["inferred_bowler"] = t["matches_bowled"] > 0
    t["inferred_keeper"] = ((t["matches_kept"] >= KEEPER_SHARE * t["matches"])
                            | t.index.isin(list(stumpers)))

    src = attributes if attributes is not None and len(attributes) else pd.DataFrame(columns=ATTRIBUTE_COLUMNS)
    src = src.drop_duplicates("player_id").set_index("player_id")
    rows = []
    for pid, r in t.iterrows():
        known = src.loc[pid].to_dict() if pid in src.index else {}
        row = {col: known.get(col) for col in ATTRIBUTE_COLUMNS}
        row = {k: (None if v is None or (not isinstance(v, (list, dict)) and pd.isna(v)) else v)
               for k, v in row.items()}
        row["player_id"] = pid
        filled = []
        if not row.get("attribute_source"):
            row["attribute_source"] = "inferred"
        if not row.get("playing_role"):
            row["playing_role"] = _inferred_playing_role(
                bool(r["inferred_keeper"]), r["matches_bowled"] / r["matches"],
                r["innings_batted"] / r["matches"], r["usual_batting_position"])
            filled.append("playing_role")
        source_keeper = bool(row.get("is_keeper")) or is_keeper_role(row.get("playing_role"))
        row["is_keeper"] = source_keeper or bool(r["inferred_keeper"])
        if row["is_keeper"] and not source_keeper:
            filled.append("is_keeper")
        row.update({
            "player": r["player"],
            "usual_batting_position": r["usual_batting_position"],
            "inferred_batting_role": r["inferred_batting_role"],
            "inferred_bowler": bool(r["inferred_bowler"]),
            "inferred_keeper": bool(r["inferred_keeper"]),
            "matches": int(r["matches"]),
            "matches_kept": int(r["matches_kept"]),
            "inferred_fields": ";".join(filled),
        })
        rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out["usual_batting_position"] = out["usual_batting_position"].astype("Int64")
    return out.sort_values("player_id").reset_index(drop=True)
