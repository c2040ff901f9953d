"""Complete the attributes table: every player of the season gets one row.

Sources (players folder, ESPNcricinfo) come first, each candidate row checked against the season
(`cardgen.stats.identity`: a row that contradicts it is set aside, and the player's identity
then comes from the season alone); what they leave empty is inferred from the ball-by-ball data:
who kept wicket (see `tables.keepers_by_match`), the usual batting position (Opening / Top /
Middle / Lower, the rules' batter roles), who bowled, spin where the keeper stumped off his
bowling, and the nation of the team's country. Inferred values are flagged in `inferred_fields`,
a player no source row describes has `attribute_source` "inferred" and `identity` "season".
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet

import numpy as np
import pandas as pd

from cardgen.sources.players import ATTRIBUTE_COLUMNS, is_keeper_role
from cardgen.stats.identity import IDENTITY_SEASON, IDENTITY_SOURCE

INFERRED_COLUMNS = ["player", "usual_batting_position", "inferred_batting_role", "inferred_bowler",
                    "inferred_keeper", "matches", "matches_kept", "inferred_fields", "identity",
                    "identity_note"]
COLUMNS = [*ATTRIBUTE_COLUMNS, *INFERRED_COLUMNS]

# A player who kept in at least this share of his matches is a wicketkeeper
KEEPER_SHARE = 0.5
# A player who bowled in at least this share of his matches counts as a bowler for his role
BOWLER_SHARE = 0.5
# the team's country a player no source places is printed with, per team type
INTERNATIONAL_NATION = "International"


def team_country(team: str, team_type: str, nation: str | None) -> str | None:
    """The country a team plays for: the team itself for an international side ("Australia",
    "India Women" -> "India"), else the competition's nation; None for a league of no one nation."""
    if team_type == "international":
        words = team.split()
        if len(words) > 1 and words[-1].casefold() in ("women", "men"):
            words = words[:-1]
        return " ".join(words) or None
    return nation if nation and nation != INTERNATIONAL_NATION else None


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


def _clean(value: object) -> object:
    if value is None or (not isinstance(value, (list, dict)) and pd.isna(value)):
        return None
    return value


def complete_attributes(players: pd.DataFrame, positions: pd.DataFrame, deliveries: pd.DataFrame,
                        keepers: pd.DataFrame, stumpers: set[str],
                        attributes: pd.DataFrame | None, *,
                        team_nations: dict[str, str | None] | None = None,
                        stumped_off: AbstractSet[str] = frozenset()) -> pd.DataFrame:
    """One row per player of the season: source attributes where a row fits, inference elsewhere.

    players: the XI lists (match_id, team, player, player_id); positions: batting positions per
    innings; deliveries: season deliveries (no super overs); keepers: who kept in each match;
    stumpers: ids of players who made a stumping; attributes: one source row per player, as
    `identity.fitting_rows` chose it (its `identity_note` says what was set aside);
    team_nations: each team's country (`team_country`); stumped_off: ids of bowlers a stumping
    was made off.
    """
    xi = players.drop_duplicates(["match_id", "player_id"])
    base = xi.groupby("player_id").agg(player=("player", "first"), matches=("match_id", "nunique"))
    home = (xi.groupby(["player_id", "team"]).size().rename("n").reset_index()
            .sort_values(["player_id", "n", "team"], ascending=[True, False, True])
            .drop_duplicates("player_id").set_index("player_id")["team"])
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
        note = _clean(known.get("identity_note"))
        row = {col: _clean(known.get(col)) for col in ATTRIBUTE_COLUMNS}
        row["player_id"] = pid
        filled = []
        described = bool(row.get("attribute_source")) and any(
            row.get(col) for col in ("full_name", "country", "bowling_style", "playing_role"))
        if not row.get("attribute_source"):
            row["attribute_source"] = "inferred"
        if not row.get("playing_role"):
            row["playing_role"] = _inferred_playing_role(
                bool(r["inferred_keeper"]), r["matches_bowled"] / r["matches"],
                r["innings_batted"] / r["matches"], r["usual_batting_position"])
            filled.append("playing_role")
        if not row.get("bowling_type") and pid in stumped_off:
            row["bowling_type"] = "Spin"  # the keeper stood up to him: the season's own evidence
            filled.append("bowling_type")
        if not row.get("country"):
            country = (team_nations or {}).get(home.get(pid))
            if country:
                row["country"] = country
                filled.append("country")
        source_keeper = bool(row.get("is_keeper")) or is_keeper_role(row.get("playing_role"))
        row["is_keeper"] = source_keeper or bool(r["inferred_keeper"])
        if row["is_keeper"] and not source_keeper:
            filled.append("is_keeper")
        if not described and not note:
            note = "no source describes the player"
        row.update({
            "player": r["player"],
            "usual_batting_position": r["usual_batting_position"],
            "inferred_batting_role": r["inferred_batting_role"],
            "inferred_bowler": bool(r["inferred_bowler"]),
            "inferred_keeper": bool(r["inferred_keeper"]),
            "matches": int(r["matches"]),
            "matches_kept": int(r["matches_kept"]),
            "inferred_fields": ";".join(filled),
            "identity": IDENTITY_SOURCE if described else IDENTITY_SEASON,
            "identity_note": note or None,
        })
        rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out["usual_batting_position"] = out["usual_batting_position"].astype("Int64")
    return out.sort_values("player_id").reset_index(drop=True)
