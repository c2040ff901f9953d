"""The page's match file, parsed and checked once at the edge into typed values.

A match file (JSON, saved by play.html) holds the card set it was played with (competition,
season, rules and a fingerprint of the set), the seed, both teams' XIs, keepers and captains,
who batted first, and every innings' balls in order, each with its bowler and its dice as the
reference engine draws them: ["d6", 4], ["2d10", 63], ["d20", 12], ["pick", 3, 11] (card 3 of
a shuffled deck of 11). `rolled` says the seed's dice rolled it; `score` is the score after it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.errors import CardgenError
from cardgen.fingerprint import content_digest

KIND = "quicket-match"
VERSION = 1
DIE_RANGES = {"d6": (1, 7), "2d10": (1, 101), "d20": (1, 21)}
MAX_BALLS = 2000  # far beyond any match (two innings and five super overs are under 400 balls)


class MatchFileError(CardgenError):
    """A match file that cannot be read or does not fit the card set."""


Die = tuple[str, int, int]   # kind, value, deck size (0 unless a "pick")


@dataclass(frozen=True)
class TeamEntry:
    name: str
    xi: tuple[str, ...]
    keeper: str | None
    captain: str   # "player" | "computer"


@dataclass(frozen=True)
class BallEntry:
    innings: int          # index in the file's innings
    over: str             # "3.2" as the page labelled it
    bowler: str           # player id
    dice: tuple[Die, ...]
    rolled: bool
    score: str | None     # "45/2" after the ball, as the page had it


@dataclass(frozen=True)
class InningsEntry:
    batting: str
    super_over: int
    balls: int


@dataclass(frozen=True)
class MatchRecord:
    competition: str
    season: str
    rules: str
    fingerprint: str
    seed: int
    teams: tuple[TeamEntry, TeamEntry]
    batting_first: int
    innings: tuple[InningsEntry, ...]
    balls: tuple[BallEntry, ...]
    result: str | None


def card_set_fingerprint(card_set: dict[str, Any]) -> str:
    """A short digest of a card set's contents (the page records it in each match file, and
    `cardgen replay` compares it). Not a cache key: saved match files hold it, so it stays the
    plain SHA-256 of the set's compact JSON (`fingerprint.content_digest`), not a framed key."""
    text = json.dumps(card_set, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return content_digest(text.encode("utf-8"))[:16]


def _bad(path: str, what: str) -> MatchFileError:
    return MatchFileError(f"{path} is not a usable match file: {what} (save it again from play.html)")


def read_match_file(path: Path | str) -> MatchRecord:
    """Read and check a match file; MatchFileError says what is wrong in one line."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise MatchFileError(f"no match file at {p}") from None
    except IsADirectoryError:
        raise MatchFileError(f"{p} is a folder; give the match file saved from play.html") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _bad(str(p), f"not readable JSON ({exc})") from None
    return parse_match(doc, str(p))


def parse_match(doc: Any, where: str) -> MatchRecord:
    """The match file `doc` (decoded JSON) as typed values; MatchFileError names the first thing
    wrong, checked in the file's order: kind and version, card set, seed, teams, innings."""
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise _bad(where, "it is not a Quicket match file")
    if doc.get("version") != VERSION:
        raise _bad(where, f"version {doc.get('version')!r} (this cardgen reads version {VERSION})")
    ident = _card_set_ident(doc, where)
    seed = doc.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 0xFFFFFFFF:
        raise _bad(where, f"seed {seed!r}")
    entries = _team_entries(doc, where)
    names = [t.name for t in entries]
    if doc.get("batting_first") not in names or names[0] == names[1]:
        raise _bad(where, "batting_first must name one of its two teams")
    innings, balls = _innings_entries(doc, where)
    result = doc.get("result")
    return MatchRecord(competition=ident["competition"], season=ident["season"], rules=ident["rules"],
                       fingerprint=str(ident.get("fingerprint") or ""), seed=seed,
                       teams=(entries[0], entries[1]), batting_first=names.index(doc["batting_first"]),
                       innings=tuple(innings), balls=tuple(balls),
                       result=result if isinstance(result, str) else None)


def _card_set_ident(doc: dict[str, Any], where: str) -> dict[str, Any]:
    """The card set the match was played with: competition, season and rules (all text)."""
    ident = doc.get("card_set")
    if not isinstance(ident, dict) or not all(isinstance(ident.get(k), str)
                                              for k in ("competition", "season", "rules")):
        raise _bad(where, "it does not say which card set it was played with")
    if ident["rules"] not in ("quicket", "advanced"):
        raise _bad(where, f"unknown rules {ident['rules']!r}")
    return ident


def _team_entries(doc: dict[str, Any], where: str) -> list[TeamEntry]:
    """The two teams, each with a name and an XI of player ids."""
    teams = doc.get("teams")
    if not isinstance(teams, list) or len(teams) != 2:
        raise _bad(where, "it needs two teams")
    entries = []
    for t in teams:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not isinstance(t.get("xi"), list) \
                or not all(isinstance(x, str) for x in t["xi"]):
            raise _bad(where, "a team without a name or an XI of player ids")
        keeper = t.get("keeper")
        entries.append(TeamEntry(t["name"], tuple(t["xi"]), keeper if isinstance(keeper, str) else None,
                                 "computer" if t.get("captain") == "computer" else "player"))
    return entries


def _innings_entries(doc: dict[str, Any], where: str) -> tuple[list[InningsEntry], list[BallEntry]]:
    """Every innings and, in order, every ball of them (at most MAX_BALLS in all)."""
    innings_doc = doc.get("innings")
    if not isinstance(innings_doc, list) or not innings_doc:
        raise _bad(where, "no innings")
    innings: list[InningsEntry] = []
    balls: list[BallEntry] = []
    for i, inn in enumerate(innings_doc):
        if not isinstance(inn, dict) or not isinstance(inn.get("balls"), list):
            raise _bad(where, f"innings {i + 1} has no balls")
        super_over = inn.get("super_over", 0)
        if not isinstance(super_over, int) or isinstance(super_over, bool):
            raise _bad(where, f"innings {i + 1}: super_over {super_over!r}")
        innings.append(InningsEntry(str(inn.get("batting", "")), super_over, len(inn["balls"])))
        balls += [_ball_entry(ball, i, f"innings {i + 1} ball {k + 1}", where) for k, ball in enumerate(inn["balls"])]
    if len(balls) > MAX_BALLS:
        raise _bad(where, f"{len(balls)} balls (a match has fewer than {MAX_BALLS})")
    return innings, balls


def _ball_entry(ball: Any, innings: int, label: str, where: str) -> BallEntry:
    """One ball of innings `innings` (its index in the file): a bowler, dice, and what the page noted."""
    if not isinstance(ball, dict) or not isinstance(ball.get("bowler"), str) \
            or not isinstance(ball.get("dice"), list):
        raise _bad(where, f"{label} has no bowler or dice")
    return BallEntry(innings, str(ball.get("over", "")), ball["bowler"], _dice(ball["dice"], where, label),
                     bool(ball.get("rolled")), ball["score"] if isinstance(ball.get("score"), str) else None)


def _dice(dice: list[Any], where: str, label: str) -> tuple[Die, ...]:
    out = []
    for die in dice:
        ok = isinstance(die, list) and len(die) in (2, 3) and die[0] in (*DIE_RANGES, "pick") \
            and all(isinstance(x, int) and not isinstance(x, bool) for x in die[1:])
        if ok and die[0] == "pick":
            ok = len(die) == 3 and 0 <= die[1] < die[2] <= 11
        elif ok:
            lo, hi = DIE_RANGES[die[0]]
            ok = len(die) == 2 and lo <= die[1] < hi
        if not ok:
            raise _bad(where, f"{label}: die {json.dumps(die)} is not a d6, 2d10, d20 or a card drawn")
        out.append((die[0], die[1], die[2] if die[0] == "pick" else 0))
    return tuple(out)
