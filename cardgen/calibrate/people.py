"""Who is on a card: printed name, roles, country, teams (short names, usual XI, keeper), usage."""
from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pandas as pd

from cardgen.stats.attributes import batting_role as order_role
from cardgen.stats.identity import IDENTITY_SEASON
from cardgen.stats.tables import SeasonStats


BATTING_ROLES = ("Opening", "Top", "Middle", "Wicketkeeper", "All-Rounder", "*")
ALL_ROUNDER_BALLS_PER_INNINGS = 12  # bowls at least two overs an innings he bowls...
ALL_ROUNDER_MIN_BALLS = 60          # ...over a real spell of the season, and also bats


def _text(value: object) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    s = str(value).strip()
    return s or None


_INITIALS = re.compile(r"^[A-Z]{1,4}$")
# Cricsheet tells apart two players of one name with a number ("Mohammad Nawaz (3)"): a key,
# never part of the name on a card
_REGISTER_NUMBER = re.compile(r"\s*\(\d+\)\s*$")


def _split_initials(cricsheet_name: str) -> tuple[str, str] | None:
    """('JS', 'Buckingham') for Cricsheet's 'JS Buckingham'; None for a name with no initials."""
    words = cricsheet_name.split()
    if len(words) < 2 or not _INITIALS.match(words[0]):
        return None
    return words[0], " ".join(words[1:])


FAMILY_NAME_FIRST = {"sri lanka"}  # full names lead with the family name ("Morawakage Maheesh")


def _given_name(initials: str, full_name: str, surname: str, country: str | None = None) -> str | None:
    """The given name in the full name that the first initial stands for.

    The full name's given names are the words before the surname. When there are more of them
    than initials (family names first, as in many Sri Lankan and South Indian names), the
    initials line up with the last ones; otherwise with the first. When the first given name
    fits the initial as well, it is the name unless the player's country puts family names
    first: "S Mandhana" + "Smriti Shriniwas Mandhana" is Smriti (Shriniwas is her father's name),
    "M Theekshana" + "Morawakage Maheesh Theekshana" (Sri Lanka) is Maheesh."""
    surname_words = {w.casefold() for w in surname.split()}
    given: list[str] = []
    for word in full_name.split():
        if word.casefold() in surname_words:
            break
        given.append(word)
    given = [w for w in given if len(w) > 1 and not w.isupper()]
    if not given:
        return None
    letters = [c.casefold() for c in initials]
    if len(given) > len(letters):
        tail = given[-len(letters):]
        first_fits = given[0][0].casefold() == letters[0] and len(letters) == 1
        family_first = (country or "").strip().casefold() in FAMILY_NAME_FIRST
        if all(w[0].casefold() == c for w, c in zip(tail, letters)) and (family_first or not first_fits):
            return tail[0]
    return next((w for w in given if w[0].casefold() == letters[0]), None)


def printed_name(cricsheet_name: str, attrs: dict | None, player_id: str | None = None) -> str:
    """The name people know, in this order: the user's correction for the register id
    (`--names FILE`); a known-as name from a source (ESPNcricinfo when scraped, else cardgen's
    short list in `sources/data/known_as.csv`); the Cricsheet name when it carries no
    initials ("Rashid Khan"); else the full name's given name that the first initial stands for,
    in the short form cricketers use ("Christopher" -> "Chris", `sources/data/
    familiar_given_names.csv`), then the Cricsheet surname ("Q de Kock" + "Quinton de Kock" ->
    "Quinton de Kock"; "JS Buckingham" + "Jordan Steven Dermott" -> "Jordan Buckingham";
    "CA Lynn" + "Christopher Austin Lynn" -> "Chris Lynn"); else the Cricsheet name.

    After the initials Cricsheet sometimes keeps the name a player goes by ("M Shahrukh Khan",
    "R Sai Kishore"): two or more capitalised words are printed as they are."""
    from cardgen.sources.names import active_overrides, familiar_given_names, known_as_table
    attrs = attrs or {}
    pid = player_id or _text(attrs.get("player_id"))
    override = active_overrides().get(pid) if pid else None
    if override:
        return override
    known = _text(attrs.get("known_as")) or (known_as_table().get(pid) if pid else None)
    if known:
        return known
    cricsheet_name = _REGISTER_NUMBER.sub("", cricsheet_name)
    parts = _split_initials(cricsheet_name)
    if parts is None:
        return cricsheet_name
    initials, surname = parts
    given = _given_name(initials, _text(attrs.get("full_name")) or "", surname, _text(attrs.get("country")))
    rest = surname.split()
    if given and len(rest) > 1 and rest[0][:1].isupper() and rest[0].casefold() in given.casefold():
        # "P Simran Singh" + "Prabhsimran Singh": the middle word is part of the given name
        return f"{given} {' '.join(rest[1:])}"
    if len(rest) > 1 and rest[0][:1].isupper():
        return surname
    if not given:
        return cricsheet_name
    return f"{familiar_given_names().get(given, given)} {surname}"


def role_from_attributes(playing_role: str | None) -> str | None:
    role = (playing_role or "").casefold()
    if not role:
        return None
    if "keeper" in role:
        return "Wicketkeeper"
    if "allrounder" in role or "all-rounder" in role or "all rounder" in role:
        return "All-Rounder"
    if "opening" in role:
        return "Opening"
    if "top" in role:
        return "Top"
    if "middle" in role:
        return "Middle"
    if role.startswith("bowler"):
        return "*"
    return None  # "Batter": position decides


def inferred_batting_role(position: int | None, balls_bowled: int, innings_bowled: int,
                          balls_faced: int, kept: bool) -> str:
    if kept:
        return "Wicketkeeper"
    bowls = (balls_bowled >= ALL_ROUNDER_MIN_BALLS and innings_bowled > 0
             and balls_bowled / innings_bowled >= ALL_ROUNDER_BALLS_PER_INNINGS)
    if bowls and balls_faced > 0 and position is not None and position <= 8:
        return "All-Rounder"
    if position is None or position > 8:
        return "*"
    if position <= 2:
        return "Opening"
    if position == 3:
        return "Top"
    return "Middle"


BATTING_ORDER_ROLES = ("Opening", "Top", "Middle")
# a batter the season shows in the front line: in the top six of the order, with real stays
# there (Jack Wood, Brisbane Heat 2024-25: opened, 76 balls in 4 innings, "Bowler" in the
# attributes); the source's "mainly a bowler" then gives way to what he did
FRONT_LINE_LAST_POSITION = 6
FRONT_LINE_BALLS = 100             # balls faced in the season, or...
FRONT_LINE_BALLS_PER_INNINGS = 10  # ...this many an innings batted, over two innings or more
# usage letters of a bowler the side relied on: never "primarily used as a batter"
FRONT_LINE_USAGE = ("A+", "A", "B")


def front_line_batter(position: int | None, balls_faced: int, innings: int) -> bool:
    """Batted in the top six with many balls (FRONT_LINE_BALLS, or FRONT_LINE_BALLS_PER_INNINGS
    an innings over two innings or more)."""
    if position is None or position > FRONT_LINE_LAST_POSITION:
        return False
    return balls_faced >= FRONT_LINE_BALLS or (
        innings >= 2 and balls_faced >= FRONT_LINE_BALLS_PER_INNINGS * innings)


def batting_role(attrs: dict | None, position: int | None, balls_bowled: int,
                 innings_bowled: int, balls_faced: int, kept: bool, innings_batted: int = 0) -> str:
    """The card's batting role. The card is one season, so what the season shows wins over a
    career attribute where they disagree: a player who kept wicket is the Wicketkeeper, a
    batter's place in the order (Opening / Top / Middle) is where he usually batted that season
    (Yastika Bhatia, WPL 2023: "Middle order Batter" in the attributes, kept and opened), and a
    front-line batter of the season (`front_line_batter`) is never "*" (mainly a bowler), whatever
    the source says: his place in the order (Jack Wood, BBL 2024-25), or All-Rounder if he also
    bowled (Jess Jonassen, WPL 2023: No. 6, 35 overs). Otherwise the attributes decide All-Rounder and
    bowler (`*`), which one season's figures show less well."""
    from_attr = role_from_attributes(_text((attrs or {}).get("playing_role")))
    if kept:
        return "Wicketkeeper"
    if from_attr in BATTING_ORDER_ROLES and order_role(position) in BATTING_ORDER_ROLES:
        return str(order_role(position))
    if from_attr == "*" and front_line_batter(position, balls_faced, innings_batted):
        # the source's bowler who also bowled this season bats and bowls: an All-Rounder
        return "All-Rounder" if balls_bowled > 0 else str(order_role(position))
    if from_attr is not None:
        return from_attr
    return inferred_batting_role(position, balls_bowled, innings_bowled, balls_faced, kept)


def bowling_role(attrs: dict | None, usage: str | None = None) -> str | None:
    """Spin, Medium or Pace from the bowling style (or the season: a stumping off his bowling);
    "*" (primarily used as a batter) for anyone else, except a bowler the side relied on
    (usage B or better: `FRONT_LINE_USAGE`), whose type no source gives: None, printed "Bowler"
    (Digvesh Rathi, IPL 2025: 52 overs, no attribute row)."""
    t = _text((attrs or {}).get("bowling_type"))
    if t in ("Spin", "Medium", "Pace"):
        return t
    return None if usage in FRONT_LINE_USAGE else "*"


def usage_letter(legal_balls: int, innings: int, balls_per_over: int) -> str:
    """A+ = the maximum (4 overs / 20 balls) every innings bowled; A 3-4, B 2-3, C 1-2, D < 1
    average overs per innings bowled (100-ball: balls / 5, so 20 balls = 4)."""
    if innings <= 0:
        return "D"
    units = legal_balls / balls_per_over / innings
    if legal_balls >= 4 * balls_per_over * innings:
        return "A+"
    if units >= 3:
        return "A"
    if units >= 2:
        return "B"
    if units >= 1:
        return "C"
    return "D"


def _attrs_by_id(attributes: pd.DataFrame | None) -> dict[str, dict]:
    if attributes is None or len(attributes) == 0:
        return {}
    return {r["player_id"]: {k: _clean_value(v) for k, v in r.items()}
            for r in attributes.drop_duplicates("player_id").to_dict("records")}


def _clean_value(value):  # type: ignore[no-untyped-def]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def card_people(stats: SeasonStats, balls_per_over: int,
                positions: dict[tuple[str, str], int] | None = None) -> dict[tuple[str, str], dict]:
    """Who is on the cards of each (player, team) of the season: printed, full and Cricsheet
    names, batting and bowling roles, country and, where no source row fits the season
    (`cardgen.stats.identity`), `identity` "season" with the note saying why (build lists them).
    The card set's player blocks, less the fielding ratings."""
    attrs = _attrs_by_id(stats.attributes)
    positions = usual_positions(stats.lineups) if positions is None else positions
    bowl = {(r["player_id"], r["team"]): r for r in stats.bowling.to_dict("records")}
    bat = {(r["player_id"], r["team"]): r for r in stats.batting.to_dict("records")}
    # the side's keeper: kept in at least half his matches (a one-off stand-in is not)
    kept = {(r.player_id, r.team) for r in stats.fielding.itertuples()
            if r.matches_kept > 0 and 2 * r.matches_kept >= r.matches}
    names: dict[str, str] = {}
    for df in (stats.batting, stats.bowling, stats.fielding):
        for r in df.itertuples():
            names.setdefault(r.player_id, r.player)
    out = {}
    for pid, team in sorted(set(bowl) | set(bat) | set(positions)):
        a = attrs.get(pid)
        b = bowl.get((pid, team))
        s = bat.get((pid, team))
        usage = usage_letter(int(b["legal_balls"]), int(b["innings"]), balls_per_over) if b is not None else None
        block = {
            "id": pid,
            "name": printed_name(names.get(pid, pid), a, pid),
            "full_name": _text((a or {}).get("full_name")) or names.get(pid, pid),
            "cricsheet_name": names.get(pid, pid),
            "batting_role": batting_role(a, positions.get((pid, team), 12) if s is not None else None,
                                         int(b["legal_balls"]) if b is not None else 0,
                                         int(b["innings"]) if b is not None else 0,
                                         int(s["balls"]) if s is not None else 0,
                                         (pid, team) in kept,
                                         int(s["innings"]) if s is not None else 0),
            "bowling_role": bowling_role(a, usage),
        }
        country = _text((a or {}).get("country"))
        if country:
            block["country"] = country
        if _text((a or {}).get("identity")) == IDENTITY_SEASON:
            block["identity"] = IDENTITY_SEASON
            block["identity_note"] = _text((a or {}).get("identity_note")) or "no source describes the player"
        out[(pid, team)] = block
    return out


def _teams_vocabulary() -> dict[str, str]:
    """Known teams' short names (`templates/teams.json`, each team's "short_name"): home city or region."""
    import json

    from cardgen.paths import templates_dir
    for path in (templates_dir() / "teams.json",):  # shipped with the package (cardgen.paths)
        if path.is_file():
            try:
                table = json.loads(path.read_text(encoding="utf-8")).get("teams", {})
            except (OSError, ValueError):
                return {}
            return {k: v["short_name"] for k, v in table.items()
                    if isinstance(v, dict) and isinstance(v.get("short_name"), str)}
    return {}


def short_names(teams: list[str], vocabulary: dict[str, str] | None = None) -> dict[str, str]:
    """Team names as printed on cards, never cut mid-name: a known team's home city or region
    from the vocabulary table; a city two teams of the set share gets the nickname's initial
    ("Sydney (T)", as the rules print it); a team the table does not know keeps its full name
    (the card fits it to the line), so counties, provinces and countries stay whole."""
    table = _teams_vocabulary() if vocabulary is None else vocabulary
    place = {t: table.get(t, t) for t in teams}
    counts = Counter(place.values())
    out = {}
    for t in teams:
        p = place[t]
        if counts[p] > 1 and p != t:
            out[t] = f"{p} ({t.split()[-1][0].upper()})"
        else:
            out[t] = p
    if len(set(out.values())) < len(out):  # same place and same initial: full names
        clash = Counter(out.values())
        out = {t: (t if clash[s] > 1 else s) for t, s in out.items()}
    return out


def team_sheets(lineups: pd.DataFrame, bowling: pd.DataFrame) -> dict[str, dict]:
    """Per team: usual XI in batting order, wicketkeeper, reserves, bowlers by usage."""
    sheets = {}
    for team, g in lineups.groupby("team", sort=True):
        per = g.groupby("player_id").agg(matches=("match_id", "nunique"),
                                         position=("batting_position", "median"),
                                         kept=("keeper", "sum"))
        per = per.reset_index().sort_values(["matches", "position", "player_id"],
                                            ascending=[False, True, True])
        keeper_rows = per[per["kept"] > 0].sort_values(["kept", "matches", "player_id"],
                                                       ascending=[False, False, True])
        keeper = keeper_rows["player_id"].iloc[0] if len(keeper_rows) else None
        xi = list(per["player_id"].iloc[:11])
        if keeper is not None and keeper not in xi:
            xi = xi[:10] + [keeper]
        order = per.set_index("player_id").loc[xi].sort_values(["position", "matches"],
                                                                 ascending=[True, False])
        batting_order = list(order.index)
        reserves = [p for p in per["player_id"] if p not in set(batting_order)]
        b = bowling[bowling["team"] == team].sort_values(["legal_balls", "player_id"],
                                                          ascending=[False, True])
        sheets[team] = {"batting_order": batting_order, "wicketkeeper": keeper,
                        "reserves": reserves, "bowlers": list(b["player_id"])}
    return sheets


def usual_positions(lineups: pd.DataFrame) -> dict[tuple[str, str], int]:
    """Median batting position per (player, team) over the innings he batted; 12+ if he never did."""
    batted = lineups[lineups["batted"]].groupby(["player_id", "team"])["batting_position"].median()
    medians = {key: int(np.floor(m)) for key, m in batted.items()}
    return {key: medians.get(key, 12)
            for key in lineups.groupby(["player_id", "team"]).groups}
