"""Where the cards cannot follow their players: tail-enders and the hardest batters to dismiss.

    python benchmarks/bench_players.py [--seasons 200] [--seed 1] [--source ../shared/data/cricsheet]
                                       [--only BBL:2024-25,...]

For each T20 / 100-ball season in the local Cricsheet mirror: calibrate the cards for the
wickets-in-hand rule, replay the real fixture list (real XIs) `--seasons` times, and print two
Markdown tables (docs/calibration.md, section 10, quotes them):

1. batters grouped by their real balls faced in the season (<= 30, 31-59, >= 60): real strike
   rate, the replays' strike rate, and the replays' balls faced per real ball;
2. the qualified batters (>= 60 real balls) whose card is out at least 20% more often than they
   were (expected dismissals under the rule over their real balls and situations, from the card
   set's `expected` block): how many, and the batting average they had beside the one their card
   plays to;
3. wickets a 120 balls: the real season, the replays, and the cards' own expectation over their
   real balls (striker cards' dismissals, bowler cards' wickets), with the qualified bowlers whose
   card takes at least 20% (and one wicket) more wickets than they did.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_matches import SEASONS, season_arguments  # noqa: E402  (the same nine seasons)

GROUPS = ((1, 30, "<= 30"), (31, 59, "31-59"), (60, 10 ** 6, ">= 60"))
OUT_MARGIN = 1.2  # a card out 20% more often than its player was


def measure(code: str, season: str, source: str, seasons: int, seed: int, cache) -> dict:
    from cardgen.calibrate.calibrate import calibrate, league_rule
    from cardgen.calibrate.cardset import card_sets_from_calibration
    from cardgen.competitions import get_competition
    from cardgen.cardset import CardSet
    from cardgen.sim.model import compile_card_set
    from cardgen.sim.season import leaderboards, replay_season
    from cardgen.stats.load import season_stats
    comp = get_competition(code)
    stats = season_stats(comp, season, source, cache=cache)
    rule = league_rule(stats)
    card_set = card_sets_from_calibration(calibrate(stats, rule=rule), comp, season)
    cs = compile_card_set(CardSet.from_json(card_set))
    rep = replay_season(cs, stats, seasons, np.random.default_rng(seed), rule=rule)
    board = leaderboards(cs, stats, rep)
    groups = []
    for lo, hi, label in GROUPS:
        g = board[(board["real_balls_faced"] >= lo) & (board["real_balls_faced"] <= hi)]
        real_b, sim_b = float(g["real_balls_faced"].sum()), float(g["sim_balls_faced"].sum())
        groups.append((label, len(g), 100 * g["real_runs"].sum() / real_b,
                       100 * g["sim_runs"].sum() / sim_b if sim_b else float("nan"), sim_b / real_b))
    floor = []
    qualified = [c for c in card_set["cards"] if c["kind"] == "striker" and c["real"]["balls"] >= 60]
    for c in qualified:
        real, exp = c["real"], c["expected"]
        expected_outs = real["balls"] * exp["dismissal_rate"]
        if real["dismissals"] and expected_outs >= OUT_MARGIN * real["dismissals"]:
            floor.append((c["player"]["name"], real["runs"] / real["dismissals"],
                          exp["strike_rate"] / 100 / exp["dismissal_rate"]))
    floor.sort(key=lambda f: f[2] / f[1])
    # wickets: is the cards' own expectation (each over his real balls) already above the season,
    # or do the replays add it (situations, who bats)?
    innings = stats.innings[~stats.innings["super_over"].astype(bool)]
    rates = {"real": 120 * innings["wickets"].sum() / innings["legal_balls"].sum(),
             "replays": 120 * rep.team_rows["wickets"].sum() / rep.team_rows["legal_balls"].sum()}
    for kind, rate in (("striker", "dismissal_rate"), ("bowler", "wicket_rate")):
        cards = [c for c in card_set["cards"] if c["kind"] == kind and c["real"]["balls"]]
        balls = sum(c["real"]["balls"] for c in cards)
        rates[kind] = (120 * sum(c["real"]["dismissals"] for c in cards) / balls,
                       120 * sum(c["real"]["balls"] * c["expected"][rate] for c in cards) / balls)
    bowlers = [c for c in card_set["cards"] if c["kind"] == "bowler" and c["real"]["balls"] >= 60]
    over, reach = [], 0.0
    for c in bowlers:
        real_w, card_w = c["real"]["dismissals"], c["real"]["balls"] * c["expected"]["wicket_rate"]
        if card_w >= OUT_MARGIN * real_w and card_w >= real_w + 1:
            over.append((c["player"]["name"], real_w, card_w))
            # a bowler's rating that saved every W read from the striker's card (Defence the other
            # way round) could take off at most this much: the rest comes through his own F faces
            reach += min(card_w - real_w, c["real"]["balls"] * (c["expected"]["wicket_rate"]
                                                                - _without_striker_w(card_set, c)))
    over.sort(key=lambda f: -f[2] / max(f[1], 0.5))
    return {"groups": groups, "qualified": len(qualified), "floor": floor, "wickets": rates,
            "bowlers": len(bowlers), "bowler_floor": over, "reach": reach}


def _without_striker_w(card_set: dict, card: dict) -> float:
    """A bowler card's expected wicket rate under the rule if the league-average striker's W
    faces all read as dots."""
    from cardgen.calibrate.expect import bowler_figures, delivery, model_from_card_set, rule_matrix_of
    from cardgen.calibrate.model import CARD_INDEX, card_where, chart_to_slots
    model = model_from_card_set(card_set)
    striker = np.array(model.mean_striker, float)
    striker[CARD_INDEX["0"]] += striker[CARD_INDEX["W"]]
    striker[CARD_INDEX["W"]] = 0.0
    p = delivery(chart_to_slots(card["chart"], card_where(card)), striker, model.a, model.free_hit,
                 rule_matrix_of(card_set, card), model.mean_defence)
    return float(bowler_figures(p)["wicket_rate"])


def main() -> None:
    args = season_arguments(__doc__.splitlines()[0]).parse_args()
    from cardgen.cache import Cache
    only = {tuple(x.split(":")) for x in args.only.split(",") if x}
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Cache(Path(tmp))
        for code, season in SEASONS:
            if not only or (code, season) in only:
                figures[f"{code} {season}"] = measure(code, season, args.source, args.seasons,
                                                      args.seed, cache)
    print(f"{args.seasons} replays of each fixture list with the wickets-in-hand rule, seed "
          f"{args.seed}. Batters by real balls faced: real strike rate / replays' strike rate "
          "(replays' balls per real ball).\n")
    print("| season | " + " | ".join(f"{label} balls" for _, _, label in GROUPS) + " |")
    print("|---|" + "---|" * len(GROUPS))
    for name, m in figures.items():
        cells = [f"{n} batters: {real:.0f} / {sim:.0f} (x{ratio:.2f})" for _, n, real, sim, ratio in m["groups"]]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\nQualified batters whose card is out at least {100 * (OUT_MARGIN - 1):.0f}% more often "
          "than they were (expected under the rule over their real balls): real average / the "
          "card's, the three furthest.\n")
    print("| season | cards | furthest |")
    print("|---|---|---|")
    for name, m in figures.items():
        worst = "; ".join(f"{n} {real:.1f} / {card:.1f}" for n, real, card in m["floor"][:3])
        print(f"| {name} | {len(m['floor'])} of {m['qualified']} | {worst} |")
    print("\nWickets a 120 balls: the real season / the replays; the cards' own expectation (each "
          "card over its real balls and situations, against the league-average opponent) beside "
          "their players' real figure: striker cards' dismissals, bowler cards' wickets (run-outs "
          "are not a bowler's). Then the qualified bowlers (>= 60 balls) whose card takes at least "
          f"{100 * (OUT_MARGIN - 1):.0f}% and one wicket more than they did: their wickets over real, "
          "and at most how many of them a bowler's rating saving every W read from the striker's "
          "card could take off; real wickets / the card's over the same balls, the three furthest.\n")
    print("| season | team innings: real / replays | striker cards: real / expected | "
          "bowler cards: real / expected | bowlers over: excess (a rating's reach) | furthest |")
    print("|---|---|---|---|---|---|")
    for name, m in figures.items():
        w = m["wickets"]
        worst = "; ".join(f"{n} {real} / {card:.1f}" for n, real, card in m["bowler_floor"][:3])
        cells = [f"{w['real']:.2f} / {w['replays']:.2f} ({100 * (w['replays'] / w['real'] - 1):+.1f}%)"]
        cells += [f"{r:.2f} / {e:.2f} ({100 * (e / r - 1):+.1f}%)" for r, e in (w["striker"], w["bowler"])]
        excess = sum(card - real for _, real, card in m["bowler_floor"])
        print(f"| {name} | " + " | ".join(cells) + f" | {len(m['bowler_floor'])} of {m['bowlers']}: "
              f"+{excess:.1f} ({m['reach']:.1f}) | {worst or '-'} |")


if __name__ == "__main__":
    main()
