"""The compare pages of a set (site layer): two teams side by side, and every card by its ratings.

Issue 38: there was no way to compare two teams, nor to sort or filter cards by their ratings.
A pair page (compare-<a>-<b>.html, one per pair of teams, static so it works without
JavaScript) puts both teams' batting cards by strike rate and bowling cards by economy side by
side, with the usual XI's strength from the cards and, when `cardgen simulate` has replayed the
season, each side's replay figures beside the real ones. compare.html picks the pair and lists
every card with its ratings (sortable with JavaScript).
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from cardgen.cardset import CardSet, Team
from cardgen.site.texts import expected_figures
from cardgen.site.views import CardView, usage_words

COMPARE_PAGE = "compare.html"
BATTING_TOP = 7  # the usual XI's batters whose cards make the batting figure (1-7 of the order)
BOWLING_TOP = 5  # the first-choice bowlers whose cards make the bowling figure


def pair_page(a: str, b: str) -> str:
    """The pair's page, by the teams' slugs in the set's team order."""
    return f"compare-{a}-vs-{b}.html"


@dataclass
class CardRow:
    """One card as the compare tables show it: its ratings as numbers (for sorting) and words."""
    view: CardView
    rate: float | None  # a striker card's strike rate, a bowler card's economy (the card's own)
    out_rate: float | None  # outs (striker) or wickets (bowler) a 100 balls
    fours: float | None  # per 100 balls
    sixes: float | None
    real_balls: int
    defence: int | None
    catch: int | None
    usage: str

    @property
    def kind(self) -> str:
        return self.view.kind


def _per_100(expected: Mapping[str, Any], key: str) -> float | None:
    value = expected.get(key)
    return None if value is None else 100.0 * value


def card_rows(views: list[CardView]) -> list[CardRow]:
    rows = []
    for view in views:
        card = view.card
        expected = expected_figures(card)   # numbers only: the model's loader checks the block
        key = "strike_rate" if view.kind == "striker" else "economy"
        rate = expected.get(key)
        rows.append(CardRow(
            view=view, rate=None if rate is None else float(rate),
            out_rate=_per_100(expected, "dismissal_rate" if view.kind == "striker" else "wicket_rate"),
            fours=_per_100(expected, "fours"), sixes=_per_100(expected, "sixes"),
            real_balls=card.real.balls or 0, defence=view.defence, catch=card.player.catch,
            usage=usage_words(card)))
    return rows


def _by_rating(rows: list[CardRow], kind: str) -> list[CardRow]:
    """Batting cards by strike rate (highest first), bowling cards by economy (lowest first);
    a card with no rating last, then by real balls."""
    chosen = [r for r in rows if r.kind == kind]
    sign = -1 if kind == "striker" else 1
    return sorted(chosen, key=lambda r: (r.rate is None, sign * (r.rate or 0.0), -r.real_balls, r.view.name))


def _mean(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else None


def _read_rows(path: Path) -> dict[str, dict[str, str]]:
    """A replay CSV's rows by team ({} when the season was not replayed)."""
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            return {row["team"]: row for row in csv.DictReader(fh) if row.get("team")}
    except (OSError, UnicodeDecodeError, csv.Error, KeyError):
        return {}


REPLAY_FIGURES = (  # (file, column, label, places): what `cardgen simulate` writes per team
    ("simulate_ladder.csv", "real_won", "Real season: matches won", 0),
    ("simulate_ladder.csv", "real_place", "Real season: ladder place", 0),
    ("simulate_ladder.csv", "sim_win_share", "Replays: share of matches won", -1),
    ("simulate_ladder.csv", "sim_mean_place", "Replays: mean ladder place", 2),
    ("simulate_team_totals.csv", "real_first_innings_total", "Real first-innings total", 1),
    ("simulate_team_totals.csv", "sim_first_innings_total", "Replays: first-innings total", 1),
    ("simulate_team_totals.csv", "sim_wickets_per_innings", "Replays: wickets lost an innings", 2),
)


def _figure(text: str | None, places: int) -> str:
    try:
        value = float(text) if text not in (None, "") else None
    except ValueError:
        value = None
    if value is None:
        return "—"
    if places < 0:
        return f"{100 * value:.1f}%"
    return f"{value:.{places}f}"


def replay_rows(folder: Path, a: str, b: str) -> list[tuple[str, str, str]]:
    """(label, team a's, team b's) from the season's replays; [] when none were run."""
    tables = {name: _read_rows(folder / "validation" / name) for name in {f for f, *_ in REPLAY_FIGURES}}
    rows = []
    for name, column, label, places in REPLAY_FIGURES:
        table = tables[name]
        if a in table and b in table and column in table[a]:
            rows.append((label, _figure(table[a].get(column), places), _figure(table[b].get(column), places)))
    return rows


def head_to_head(folder: Path, a: str, b: str) -> dict[str, Any] | None:
    """The replays' results of `a` against `b` (`cardgen simulate`'s head-to-head file), played
    0 when the two never met; None when simulate was not run (or ran before it wrote the file)."""
    from cardgen.sim.season import HEAD_TO_HEAD_FILE
    try:
        doc = json.loads((folder / "validation" / HEAD_TO_HEAD_FILE).read_text(encoding="utf-8"))
        for pair in doc["pairs"]:
            if sorted(pair["teams"]) == sorted([a, b]):
                won = pair["won"]
                return {"played": int(pair["played"]), "a_won": int(won[a]), "b_won": int(won[b]),
                        "tied": int(pair["tied"]), "seasons": int(doc["seasons"])}
        return {"played": 0, "a_won": 0, "b_won": 0, "tied": 0, "seasons": int(doc["seasons"])}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None


def strength(rows: list[CardRow], team: Team | None) -> list[tuple[str, float | None, int]]:
    """A team's strength from its cards: the usual XI's top batters' strike rate and outs, the
    first-choice bowlers' economy and wickets (label, value, places); `team`: the set's entry for
    it (None: a team only its cards name, whose best cards by rating stand in)."""
    order = list(team.batting_order) if team else []
    # the team sheet's bowlers in its order of choice: the first five bowl a T20's 20 overs (a
    # list the contract does not describe: its ids are read as text)
    bowlers = [str(i) for i in team.bowlers] if team else []
    strikers = {r.view.player_id: r for r in rows if r.kind == "striker"}
    top = [strikers[i] for i in order[:BATTING_TOP] if i in strikers] or _by_rating(rows, "striker")[:BATTING_TOP]
    by_id = {r.view.player_id: r for r in rows if r.kind == "bowler"}
    attack = [by_id[i] for i in bowlers if i in by_id][:BOWLING_TOP] or _by_rating(rows, "bowler")[:BOWLING_TOP]
    return [(f"Batting: strike rate of the top {len(top)} (cards)", _mean([r.rate for r in top]), 1),
            ("Batting: outs a 100 balls (same cards)", _mean([r.out_rate for r in top]), 2),
            (f"Bowling: economy of the {len(attack)} first-choice bowlers (cards)", _mean([r.rate for r in attack]), 2),
            ("Bowling: wickets a 100 balls (same cards)", _mean([r.out_rate for r in attack]), 2)]


def pair_context(folder: Path, card_set: CardSet, rows: list[CardRow],
                 a: tuple[str, str], b: tuple[str, str]) -> dict[str, Any]:
    """What a pair page shows: (name, slug) of each team."""
    sides: list[dict[str, Any]] = []
    for name, tslug in (a, b):
        own = [r for r in rows if r.view.team_slug == tslug]
        sides.append({"name": name, "slug": tslug, "batting": _by_rating(own, "striker"),
                      "bowling": _by_rating(own, "bowler"), "strength": strength(own, card_set.team(name))})
    figures = [(label, x, y, places) for (label, x, places), (_, y, _) in
               zip(sides[0]["strength"], sides[1]["strength"])]
    return {"sides": sides, "figures": figures, "replays": replay_rows(folder, a[0], b[0]),
            "head_to_head": head_to_head(folder, a[0], b[0]),
            "defence": any(r.defence for side in sides for r in side["batting"])}
