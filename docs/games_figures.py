"""Print the figures docs/games-cricket-the-game.md and docs/games-roll-and-play.md quote.

The comparison tables (distances, the real first innings) come from `cardgen compare-games`; this
script prints the rest, each with the seed and size the docs name:

  ctg            Cricket: The Game, 20,000 first innings (seed 1) with the BBL 2024-25 squads and
                 with the box's make-up; the squads' mean Confidence by role; dismissals, dots and runs a ball from the engine's ball
                 log (5,000 innings, seed 0); engine CPU time
  roll-and-play  Roll & Play, 20,000 first innings (seed 1): classic deck, team edition, Law 6
                 variation; the team edition's table (300 innings each way for every pair of
                 BBL 2024-25 teams, seed 3); engine CPU time
  real           the real side of the dismissals and dots (BBL 2024-25, the 40 uninterrupted
                 first innings compare-games uses; needs the Cricsheet mirror)

A dot is a legal ball off which the batter scores no run, a wicket ball included (the scorer's
dot), in the engine and in the real data alike.

Usage: PYTHONPATH=. python3 docs/games_figures.py [ctg] [roll-and-play] [real] [--mirror DIR]
(no section: all three; about a minute of CPU on the shared machine)
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from cardgen.competitions import get_competition
from cardgen.games.base import SimContext

ROOT = Path(__file__).resolve().parent.parent
COMP, SEASON = "BBL", "2024-25"


def innings_line(label: str, df: pd.DataFrame) -> str:
    return (f"{label}: runs {df['runs'].mean():.1f} (sd {df['runs'].std():.1f}), wickets "
            f"{df['wickets'].mean():.2f}, fours {df['fours'].mean():.1f}, sixes {df['sixes'].mean():.2f}, "
            f"legal balls {df['legal_balls'].mean():.1f}")


def ctg() -> None:
    from cardgen.games.cricket_the_game import SYSTEM, _squads
    from cardgen.games.cricket_the_game.engine import CtgInnings
    from cardgen.games.roll_and_play.draws import RandomDraws
    comp = get_competition(COMP)
    season = SYSTEM.simulate_innings(np.random.default_rng(1), 20_000, SimContext(comp, SEASON, None))
    print(innings_line(f"CTG, {COMP} {SEASON} squads, 20,000 innings seed 1", season))
    start = time.process_time()
    box = SYSTEM.simulate_innings(np.random.default_rng(1), 20_000, SimContext(None, None, None))
    cpu = time.process_time() - start
    print(innings_line("CTG, the box's make-up, 20,000 innings seed 1", box))
    print(f"engine: the box's 20,000 innings in {cpu:.1f} s of CPU")

    # the ball log of 5,000 innings, squads drawn as engine.simulate draws them
    squads = [s for _, s in sorted(_squads(comp, SEASON, None).items())]
    for label, roles in (("specialist batters", ("batter",)), ("specialist bowlers", ("pace", "spin"))):
        conf = [p.confidence for squad in squads for p in squad if p.role in roles]
        print(f"Confidence of the {COMP} {SEASON} {label}: mean {np.mean(conf):+.2f} ({len(conf)} cards)")
    rng = np.random.default_rng(0)
    draws = RandomDraws(rng)
    n = 5_000
    balls = []
    for _ in range(n):
        a, b = rng.choice(len(squads), size=2, replace=False)
        balls += CtgInnings(draws, squads[a], squads[b], 20, keep_log=True).play().balls
    kinds = Counter(b.out for b in balls if b.out)
    print(f"dismissals per innings ({n:,} innings seed 0): "
          + ", ".join(f"{k} {v / n:.2f}" for k, v in kinds.most_common()))
    legal = [b for b in balls if b.legal]
    dots = sum(b.runs == 0 for b in legal)
    print(f"dots: {100 * dots / len(legal):.1f}% of legal balls (wicket balls included; "
          f"{100 * sum(b.runs == 0 and not b.out for b in legal) / len(legal):.1f}% without them)")
    for label, group in (("express", [b for b in balls if b.express]),
                         ("full", [b for b in balls if not b.express])):
        print(f"{label} balls: {sum(b.runs + b.extras for b in group) / len(group):.3f} runs a delivery "
              f"(no-ball extras included), {len(group) / n:.1f} an innings")


def roll_and_play() -> None:
    from cardgen.games.roll_and_play import SYSTEM, _season_stats
    from cardgen.games.roll_and_play.draws import RandomDraws
    from cardgen.games.roll_and_play.engine import simulate_classic
    from cardgen.games.roll_and_play.team import team_decks, team_innings
    comp = get_competition(COMP)
    start = time.process_time()
    classic = simulate_classic(np.random.default_rng(1), 20_000)
    cpu = time.process_time() - start
    print(innings_line("Roll & Play classic deck, 20,000 innings seed 1", classic))
    team = SYSTEM.simulate_team_innings(np.random.default_rng(1), 20_000, SimContext(comp, SEASON, None))
    print(innings_line(f"Roll & Play {COMP} {SEASON} team edition, 20,000 innings seed 1", team))
    variation = simulate_classic(np.random.default_rng(1), 20_000, variation=True)
    print(innings_line("Roll & Play Law 6 variation, 20,000 innings seed 1", variation))
    print(f"engine: 20,000 classic innings in {cpu:.1f} s of CPU")

    stats = _season_stats(comp, SEASON, None)
    decks = team_decks(stats)
    teams = sorted(decks)
    draws = RandomDraws(np.random.default_rng(3))
    runs: dict[tuple[str, str], list[int]] = {}
    for bat in teams:
        for bowl in teams:
            if bat != bowl:
                runs[bat, bowl] = [team_innings(draws, decks[bat], decks[bowl]).play().runs for _ in range(300)]
    inn = stats.innings[~stats.innings["super_over"].astype(bool)]  # the season's means: every innings
    print(f"team edition, 300 innings each way for every pair (seed 3); real: every innings of the "
          f"season ({len(inn)}, shortened ones included)")
    print("team | sum BAT of XI | sum BOWL of XI | sim scores | sim concedes | real scores | real concedes")
    for t in teams:
        xi = decks[t][:11]
        scores = np.mean([r for (a, _), rs in runs.items() if a == t for r in rs])
        concedes = np.mean([r for (_, b), rs in runs.items() if b == t for r in rs])
        print(f"{t} | {sum(c.bat for c in xi):+d} | {sum(c.bowl for c in xi):+d} | {scores:.1f} | "
              f"{concedes:.1f} | {inn.loc[inn['batting_team'] == t, 'runs'].mean():.1f} | "
              f"{inn.loc[inn['bowling_team'] == t, 'runs'].mean():.1f}")


def real(mirror: str) -> None:
    from cardgen.sim.season import real_first_innings
    from cardgen.stats.load import load_season_data, season_stats
    comp = get_competition(COMP)
    first = real_first_innings(season_stats(comp, SEASON, mirror))
    ids = set(first["match_id"].astype(str))
    data = load_season_data(comp, SEASON, mirror)
    d = data.deliveries
    d = d[(d["innings"] == 1) & ~d["super_over"].astype(bool) & d["match_id"].astype(str).isin(ids)]
    w = data.wickets
    w = w[(w["innings"] == 1) & ~w["super_over"].astype(bool) & w["match_id"].astype(str).isin(ids)]
    n = len(ids)
    print(f"real {COMP} {SEASON}, {n} uninterrupted first innings: dismissals per innings "
          + ", ".join(f"{k} {v / n:.2f}" for k, v in w["kind"].value_counts().items()))
    legal = d[d["legal"].astype(bool)]
    print(f"dots: {100 * (legal['runs_batter'] == 0).mean():.1f}% of legal balls (wicket balls included)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sections", nargs="*", choices=["ctg", "roll-and-play", "real"])
    ap.add_argument("--mirror", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    args = ap.parse_args()
    sections = args.sections or ["ctg", "roll-and-play", "real"]
    if "ctg" in sections:
        ctg()
    if "roll-and-play" in sections:
        roll_and_play()
    if "real" in sections:
        real(args.mirror)


if __name__ == "__main__":
    main()
