"""The computer's draft: balanced sides from a pool of seasons by a snake draft on points.

Every player of the pool's seasons is valued on the baseline (`league.build`); a player of
several of them enters once, in his season with the most points. The sides pick in turn, the
order reversing each round (1..N, N..1, ...), each taking the player with the most points left,
except that a side must end with a wicketkeeper, MIN_BOWLERS regular bowlers (at least
REGULAR_UNITS overs an innings) and MIN_BATTERS batters (60 real balls or more, in the top
seven): when its picks left are only as many as it needs for what it still lacks
(`picks_needed`), it takes the best player who brings that number down. The league file the
draft made is written out, so a user can change it and build it again.
"""
from __future__ import annotations

import re

from cardgen.league.build import (MIN_BOWLERS, REGULAR_UNITS, League, Valued, build_league,
                                  mean_of_seasons, season_baseline, season_cards, value_players)
from cardgen.league.players import Person, Pick, Season, Seasons, Side
from cardgen.league.spec import LeagueFileError, LeagueSpec, SeasonRef
from cardgen.calibrate.baseline import Baseline
from cardgen.sim.points import AverageSide



def pool_players(seasons: list[Season], baseline_season: Season | None, baseline: Baseline,
                 baseline_set: dict, avg: AverageSide) -> dict[str, Valued]:
    """Everyone of the pool's seasons with his cards and points; a player of several seasons
    once, in the one where he has the most points."""
    best: dict[str, Valued] = {}
    for season in seasons:
        people: dict[str, Person] = season.people()
        picks = [Pick(season, pid, p.team, p.name, 0) for pid, p in sorted(people.items())]
        cards = season_cards(season, picks, baseline,
                             baseline_set if baseline_season is not None and season.key == baseline_season.key
                             else None)
        by_player: dict[str, tuple[Pick, list[dict]]] = {}
        for pick in picks:
            mine = [c for c in cards if c["player"]["id"] == pick.player_id and c["team"] == pick.team]
            if mine:
                by_player[pick.player_id] = (pick, mine)
        for pid, v in value_players(by_player, avg).items():
            if pid not in best or v.points.total > best[pid].points.total:
                best[pid] = v
    return best


MIN_BATTERS = 6   # batters a side needs: striker cards of 60 real balls or more, in the top seven
BATTER_BALLS = 60


def _regular_bowler(v: Valued) -> bool:
    return v.bowler is not None and v.units() >= REGULAR_UNITS


def _batter(v: Valued) -> bool:
    s = v.striker
    return s is not None and float(s["real"]["balls"]) >= BATTER_BALLS and v.usual_position <= 7


def needs(side: list[Valued]) -> dict[str, int]:
    """What a side still lacks: a wicketkeeper, regular bowlers, batters."""
    return {"keeper": 0 if any(v.keeper for v in side) else 1,
            "bowlers": max(0, MIN_BOWLERS - sum(_regular_bowler(v) for v in side)),
            "batters": max(0, MIN_BATTERS - sum(_batter(v) for v in side))}


def picks_needed(lacking: dict[str, int]) -> int:
    """The fewest picks that supply what a side lacks: a keeper and a bowler are two players,
    a batter can be either (a keeper who bats, an all-rounder)."""
    return max(lacking["keeper"] + lacking["bowlers"], lacking["batters"])


def next_pick(side: list[Valued], left: list[Valued], per_team: int) -> Valued:
    """The side's next pick from `left` (best first): the best player left, unless its picks
    left are only as many as it needs for what it still lacks; then the best who brings the
    picks it needs down."""
    lacking = needs(side)
    if picks_needed(lacking) < per_team - len(side):
        return left[0]
    # as many picks left as it needs: the best who brings the picks it needs down
    fitting = [v for v in left if picks_needed(needs(side + [v])) < picks_needed(lacking)]
    if not fitting:
        raise LeagueFileError("the pool has too few wicketkeepers, regular bowlers or batters for "
                              "the sides (fewer sides, or more seasons)")
    return fitting[0]


def pick_side(candidates: list[Valued], per_team: int = 11) -> list[Valued]:
    """One side picked alone from `candidates` in the order given (best first for a strong side,
    worst first for a weak one), with what a side needs (`next_pick`)."""
    left, side = list(candidates), list[Valued]()
    while len(side) < per_team and left:
        choice = next_pick(side, left, per_team)
        side.append(choice)
        left.remove(choice)
    return side


def graded_sides(pool: list[Valued], per_team: int = 11) -> tuple[list[Valued], list[Valued], list[Valued]]:
    """Three sides of different players built to be strong, average and weak (what the points'
    honesty is measured on: benchmarks/bench_league.py --part points): the strongest picked
    first, best first; then the weakest, worst first; then, from those left, the players whose
    points are nearest nothing. Each has what a side needs (`next_pick`)."""
    left = sorted(pool, key=lambda v: (-v.points.total, v.pick.player_id))
    strong = pick_side(left, per_team)
    left = [v for v in left if v not in strong]
    weak = pick_side(sorted(left, key=lambda v: (v.points.total, v.pick.player_id)), per_team)
    left = [v for v in left if v not in weak]
    average = pick_side(sorted(left, key=lambda v: (abs(v.points.total), v.pick.player_id)), per_team)
    return strong, average, weak


def snake_draft(pool: dict[str, Valued], teams: int, per_team: int) -> list[list[Valued]]:
    """The sides' players in the order they were picked."""
    left = sorted(pool.values(), key=lambda v: (-v.points.total, v.pick.player_id))
    if len(left) < teams * per_team:
        raise LeagueFileError(f"the pool has {len(left)} players; {teams} sides of {per_team} need "
                              f"{teams * per_team} (fewer sides, or more seasons)")
    sides: list[list[Valued]] = [[] for _ in range(teams)]
    for rnd in range(per_team):
        order = range(teams) if rnd % 2 == 0 else range(teams - 1, -1, -1)
        for t in order:
            choice = next_pick(sides[t], left, per_team)
            sides[t].append(choice)
            left.remove(choice)
    return sides


def side_name(players: list[Valued], taken: set[str]) -> str:
    """A drafted side's name from its first pick: 'Maxwell's XI'."""
    surname = players[0].pick.name.split()[-1] if players[0].pick.name.split() else "Draft"
    name = f"{surname}'s XI"
    n = 2
    while name.casefold() in taken:
        name = f"{surname}'s XI ({n})"
        n += 1
    taken.add(name.casefold())
    return name


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def league_file_text(spec: LeagueSpec, sides: list[Side], pool_text: str) -> str:
    """The league file of the drafted sides (each player named by season and Cricsheet name, or
    by his register id where that name is not unique in the season)."""
    lines = [f"# drafted by `cardgen league --draft {_quote(pool_text)} --teams {len(sides)}`:",
             "# change the sides and build it again with `cardgen league FILE`",
             f"name = {_quote(spec.name)}", f"code = {_quote(spec.code)}",
             f"format = {_quote(spec.format)}", f"baseline = {_quote(spec.baseline_text)}"]
    if spec.baseline is None and spec.draft is not None:   # the mean of the pool, not of the sides' seasons
        lines.append("mean_of = [" + ", ".join(_quote(r.text) for r in spec.draft.seasons) + "]")
    if spec.cap is not None:
        lines.append(f"cap = {spec.cap:g}")
    lines.append(f"rounds = {spec.rounds}")
    if spec.rules:
        lines.append(f"rules = {_quote(spec.rules)}")
    for side in sides:
        lines += ["", "[[team]]", f"name = {_quote(side.name)}", "players = ["]
        for pick in side.picks:
            people = pick.season.people()
            person = people[pick.player_id]
            same = [p for p in people.values() if p.cricsheet_name.casefold() == person.cricsheet_name.casefold()]
            who = person.cricsheet_name if len(same) == 1 else pick.player_id
            lines.append(f"  {_quote(f'{pick.season.label}: {who}')},   # {person.name}")
        lines.append("]")
    return "\n".join(lines) + "\n"


def draft_league(spec: LeagueSpec, seasons: Seasons, rules: str, source: str | None) -> League:
    """Draft the sides from `spec.draft`'s pool and build the league."""
    from cardgen.league.spec import parse_league
    assert spec.draft is not None
    pool = [seasons.get(ref) for ref in spec.draft.seasons]
    on = (mean_of_seasons(spec, pool, rules, source) if spec.baseline is None
          else season_baseline(spec, seasons, rules, source))
    valued = pool_players(pool, on.season, on.baseline, on.chart_set, on.avg)
    drafted = snake_draft(valued, spec.draft.teams, spec.draft.players_per_team)
    taken: set[str] = set()
    sides = [Side(side_name(players, taken), 0, [v.pick for v in players]) for players in drafted]
    pool_text = _pool_text(spec.draft.seasons)
    text = league_file_text(spec, sides, pool_text)
    written = parse_league(text, spec.path)       # the file as a user will read it back
    card_set = build_league(written, sides, seasons, rules, source, pool=list(valued.values()), used=pool)
    card_set["own_league"]["draft"] = {"pool": pool_text, "teams": spec.draft.teams,
                                       "players": len(valued)}
    return League(written, card_set, text)


def _pool_text(refs: tuple[SeasonRef, ...]) -> str:
    """The pool as a draft names it: one season, a range of one competition's, else each."""
    if len(refs) == 1:
        return refs[0].text
    if len({r.competition.casefold() for r in refs}) == 1:
        return f"{refs[0].text}..{refs[-1].season}"
    return ", ".join(r.text for r in refs)


def draft_spec(pool: str, teams: int, baseline: str | None, name: str | None, cap: float | None,
               rules: str | None, per_team: int = 11) -> tuple[LeagueSpec, str]:
    """The league file a `--draft` on the command line stands for (its text, and parsed)."""
    from cardgen.league.spec import code_of, parse_league, season_pool
    refs = season_pool(pool, 1, "--draft")
    base = baseline or refs[-1].text
    comps = "+".join(dict.fromkeys(r.competition for r in refs))
    first, last = min(refs, key=lambda r: r.season), max(refs, key=lambda r: r.season)
    title = name or f"{comps} draft {first.season[:4]}-{last.season[-2:]}"
    title = re.sub(r"\s+", " ", title)
    lines = [f"name = {_quote(title)}", f"code = {_quote(code_of(title))}",
             f"baseline = {_quote(base)}"]
    if cap is not None:
        lines.append(f"cap = {cap:g}")
    if rules:
        lines.append(f"rules = {_quote(rules)}")
    lines += ["[draft]", f"seasons = {_quote(pool)}", f"teams = {teams}", f"players_per_team = {per_team}"]
    text = "\n".join(lines) + "\n"
    return parse_league(text, "--draft"), text
