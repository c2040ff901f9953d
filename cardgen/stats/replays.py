"""League no-results that the league played again in full, and left off its table.

IPL 2025's match 58 (Punjab Kings v Delhi Capitals, stopped after 10.1 overs for security
reasons) was replayed as match 66 and counts once. Cricsheet keeps both matches and says nothing
of it, so the sign is read from the counts: the two sides meet again later in the league stage
and both then have more league games than most sides have (a washout that stands leaves every
side's count equal). The season tracker's ladder counts the replay only; the season replays play
the fixture once.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd

NO_RESULT = "no result"


def replayed_no_results(league: Sequence[tuple[str, str, str, str]]) -> dict[str, str]:
    """The league matches (match id, team 1, team 2, result), in the order played: each no result
    played again in full, mapped to the match id of its replay."""
    games = Counter(t for _, t1, t2, _ in league for t in (t1, t2))
    if not games:
        return {}
    usual = Counter(games.values()).most_common(1)[0][0]
    replays: dict[str, str] = {}
    for k, (match_id, t1, t2, result) in enumerate(league):
        if result != NO_RESULT or games[t1] <= usual or games[t2] <= usual:
            continue
        later = next((g for g, a, b, _ in league[k + 1:] if {a, b} == {t1, t2} and g not in replays.values()),
                     None)
        if later is not None:
            replays[match_id] = later
    return replays


def season_replays(matches: pd.DataFrame) -> dict[str, str]:
    """`replayed_no_results` of a season's `matches` table: its league matches (no stage) in date
    order, then Cricsheet's match number."""
    if not len(matches):
        return {}
    order = matches.assign(_n=pd.to_numeric(matches["match_number"], errors="coerce").fillna(1e9))
    order = order.sort_values(["date", "_n", "match_id"])
    stage = order["stage"].astype("string").fillna("")
    league = order[stage == ""]
    return replayed_no_results([(str(r.match_id), str(r.team1), str(r.team2), str(r.result))
                                for r in league.itertuples()])
