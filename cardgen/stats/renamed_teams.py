"""Two names of one team in a season's files: a team renamed mid-season (a sponsor's name).

cardgen keys a team on its name, so such a team prints as two half-season decks and two ladder
rows until the competition's entry joins them (`team_aliases`, applied when the files are read).
The sign, read from the matches alone: one name inside the other ("Peshawar Zalmi", "Haier
Peshawar Zalmi"), the two never met, and they played in separate spells.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class RenamedTeam:
    first: str       # the name of the earlier spell
    then: str        # the name of the later one
    first_to: str    # the earlier spell's last match date
    then_from: str   # the later spell's first match date
    shorter: str     # the name inside the other (the one to keep, as a rule)
    longer: str


def renamed_teams(matches: pd.DataFrame) -> list[RenamedTeam]:
    """Each pair of the season's teams that looks like one team renamed, in name order."""
    spells: dict[str, list[str]] = {}
    met: set[frozenset[str]] = set()
    for r in matches[["team1", "team2", "date"]].itertuples(index=False):
        t1, t2, date = str(r.team1), str(r.team2), str(r.date)
        spells.setdefault(t1, []).append(date)
        spells.setdefault(t2, []).append(date)
        met.add(frozenset((t1, t2)))
    found = []
    teams = sorted(spells)
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            short, long = sorted((a, b), key=len)
            if short.casefold() not in long.casefold() or frozenset((a, b)) in met:
                continue
            first, then = sorted((a, b), key=lambda t: min(spells[t]))
            if max(spells[first]) >= min(spells[then]):
                continue
            found.append(RenamedTeam(first, then, max(spells[first]), min(spells[then]), short, long))
    return found
