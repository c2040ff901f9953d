"""Whose attribute row it is: a source row is used only when it agrees with the season itself.

A Cricsheet register id can carry several ESPNcricinfo keys, and a table joined on it may
describe the other person: WBBL 2022-23, Melbourne Stars' No. 2 "C Smith" (register id c160db98,
keys 932573 and 1340010) was joined to Connor Smith, a man of the Isle of Man born 1991, and her
card printed his name, nation and role. Each candidate row of a player is checked against what
the season's own files say (`contradictions`): the competition's sex against the sex the row's
full name points to (`cardgen.sources.given_names`), and the season's year against the row's
birth year. The first candidate with no contradiction is his row (`choose_row`); when none
fits, the card prints Cricsheet's name, the team's country and the roles the season shows, and
`build` lists the card among those whose identity came from the season alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from cardgen.sources.given_names import name_sex

# a professional T20 player this young or this old: the row is someone else's
YOUNGEST_AGE = 12
OLDEST_AGE = 55

IDENTITY_SOURCE = "source"   # an attribute row that agrees with the season
IDENTITY_SEASON = "season"   # no source row, or none that agrees: name and nation from the season

_SEX_WORDS = {"female": ("a woman", "women's"), "male": ("a man", "men's")}


@dataclass(frozen=True)
class SeasonFacts:
    """What the season's own files say about every player in it."""
    sex: str | None    # "female" | "male" (Cricsheet's info.gender), None if unknown
    year: int | None   # the calendar year the season starts in


def _text(value: object) -> str | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    text = str(value).strip()
    return text or None


def contradictions(row: dict, facts: SeasonFacts) -> list[str]:
    """Why the row cannot be this season's player, in words for build's notes; [] when it fits."""
    found = []
    full_name = _text(row.get("full_name"))
    sex = name_sex(full_name)
    if facts.sex in _SEX_WORDS and sex in _SEX_WORDS and sex != facts.sex:
        found.append(f"{full_name} is {_SEX_WORDS[sex][0]}'s name, in a {_SEX_WORDS[facts.sex][1]} "
                     f"competition")
    born = _text(row.get("birth_year"))
    if facts.year is not None and born and born[:4].isdigit():
        age = facts.year - int(born[:4])
        if not YOUNGEST_AGE <= age <= OLDEST_AGE:
            found.append(f"{full_name or 'the row'} (born {born[:4]}) would be {age} in {facts.year}")
    return found


def choose_row(candidates: list[dict], facts: SeasonFacts) -> tuple[dict | None, str]:
    """The first candidate row that fits the season, and a note: '' when the first one fits;
    else what was set aside and why (the note names each row's ESPNcricinfo key)."""
    rejected: list[str] = []
    for row in candidates:
        reasons = contradictions(row, facts)
        if not reasons:
            return row, ("; ".join(rejected) + f"; used ESPNcricinfo {row.get('key_cricinfo')}"
                         if rejected else "")
        key = _text(row.get("key_cricinfo"))
        rejected.append(f"set aside ESPNcricinfo {key or 'row'}: {', '.join(reasons)}")
    return None, "; ".join(rejected)


def fitting_rows(attributes: pd.DataFrame | None, facts: SeasonFacts | None) -> pd.DataFrame | None:
    """One row per player: his first candidate row that fits the season, with an
    `identity_note` where rows were set aside; a player all of whose rows were set aside keeps
    a row with nothing but his id and the note (his identity then comes from the season)."""
    if attributes is None or not len(attributes) or facts is None:
        if attributes is not None and len(attributes):
            return attributes.drop_duplicates("player_id").assign(identity_note=None)
        return attributes
    columns = list(attributes.columns)
    rows = []
    for pid, group in attributes.groupby("player_id", sort=False):
        candidates = [{k: (None if not isinstance(v, str) and pd.isna(v) else v) for k, v in r.items()}
                      for r in group.to_dict("records")]
        row, note = choose_row(candidates, facts)
        chosen = dict(row) if row else {col: None for col in columns}
        chosen["player_id"] = pid
        chosen["identity_note"] = note or None
        rows.append(chosen)
    return pd.DataFrame(rows, columns=[*columns, "identity_note"])
