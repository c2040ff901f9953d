"""Are the points honest? A side's replayed run difference against the baseline's real sides
beside what its points predict (issue 35; tests/test_league_points.py, benchmarks/bench_league.py
--part points).

The league: three sides built from guest seasons' players to be strong, average and weak
(`draft.graded_sides`; no player of the baseline season among them), and the baseline season's
real sides, whose players keep their season cards, so together they are the baseline's average
opponent. A side's points are what it adds a match over the average side; so against the real
sides its run difference should be its points less their mean points.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen.cache import Cache
from cardgen.calibrate.baseline import Baseline
from cardgen.cardset import CardSet
from cardgen.league.build import build_league, season_card_set
from cardgen.league.draft import graded_sides, pool_players
from cardgen.league.players import Pick, Seasons, Side, side_players, stats_loader
from cardgen.league.spec import SeasonRef, parse_league
from cardgen.sim.points import average_side

GRADED = ("Strong", "Average", "Weak")


def graded_league(baseline: tuple[str, str], guests: list[tuple[str, str]], rules: str,
                  source: str | None, cache: Cache | None = None) -> tuple[CardSet, list[str]]:
    """The league's card set (read into the model once, here), and the names of the baseline's
    real sides in it."""
    seasons = Seasons("graded league", stats_loader(source, cache))
    base = seasons.get(SeasonRef(*baseline, 0))
    base_set = season_card_set(base.comp, base.season, source, rules)
    model = Baseline.from_card_set(base_set, base.label)
    pool = pool_players([seasons.get(SeasonRef(c, s, 0)) for c, s in guests], base, model, base_set,
                        average_side(base_set))
    people = base.people()
    players = [v for v in pool.values() if v.pick.player_id not in people]
    sides = [Side(name, 0, [v.pick for v in side]) for name, side in zip(GRADED, graded_sides(players))]
    real = sorted({p.team for p in people.values()})
    sides += [Side(t, 0, [Pick(base, pid, t, people[pid].name, 0) for pid in side_players(base, t)])
              for t in real]
    spec = parse_league(f'name = "Graded"\nbaseline = "{base.label}"\nrounds = 1\n'
                        f'[[team]]\nfrom = "{base.label}: {real[0]}"\n', "graded league")
    return CardSet.from_json(build_league(spec, sides, seasons, rules, source)), real


@dataclass(frozen=True)
class Honesty:
    team: str
    points: float        # the side's points
    predicted: float     # its points less the opponents' mean points
    measured: float      # its replayed run difference a match against them

    @property
    def gap(self) -> float:
        return self.measured - self.predicted


def run_differences(card_set: CardSet, teams: list[str], opponents: list[str], innings: int,
                    rng: np.random.Generator) -> list[Honesty]:
    """Each of `teams` against every one of `opponents`, `innings` innings of each in full."""
    from cardgen.sim.league import league_sides, run_difference
    from cardgen.sim.model import compile_card_set
    from cardgen.wickets_in_hand import rule_of_set
    cs = compile_card_set(card_set)
    sides = league_sides(cs, card_set, rng)
    points = {t.name: float(t.points) for t in card_set.teams if t.points is not None}
    field = float(np.mean([points[o] for o in opponents]))
    return [Honesty(t, points[t], points[t] - field,
                    run_difference(cs, sides, t, opponents, innings, rng, rule_of_set(card_set)))
            for t in teams]
