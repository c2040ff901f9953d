"""Where the replayed chases lose their extra wickets: the chase ball by ball, real v replays.

    python benchmarks/bench_chase.py [--seasons 20] [--seed 1] [--source ../shared/data/cricsheet]
                                     [--only BBL:2024-25,...]

For each T20 / 100-ball season in the local Cricsheet mirror: calibrate the cards for the
wickets-in-hand rule, replay the real fixture list (real XIs) `--seasons` times ball by ball with
the reference engine, and sort every chase delivery, real and replayed, by its situation before
the ball: runs needed a ball (runs needed / legal balls left), wickets in hand, and the band the
wickets-in-hand table gives (before the chase line). Printed, pooled over the seasons: each
cell's legal balls a season (real / replays), wickets a 120 legal balls, runs a legal ball, and
the replays' excess wickets a season at the cell's replayed balls, (replay rate - real rate) x
replay balls, which sums (with the balls the replays spend elsewhere) to the chase-wickets gap of
`bench_matches.py` (issue 41). Real: the chases of the matches played to full length.

`--real-factors` prints instead (real balls only, no calibration, ~15 s): each cell's wickets and
runs factor controlled for who bats and bowls (a Poisson model out ~ batter x bowler x cell,
fitted by alternating updates, each player shrunk towards the league by 20 balls), first
innings by the table's band and chases by runs needed a ball x wickets in hand x the table's
band, relative to the first innings' normal band: how real chasers' risk and scoring move with
the required rate and the wickets in hand (issue 41's design data).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_matches import SEASONS, season_arguments  # noqa: E402  (the same nine seasons)

RATE_EDGES = (1.0, 1.5, 2.0, 2.5)      # runs needed a ball: <= 1, 1-1.5, 1.5-2, 2-2.5, > 2.5
RATE_NAMES = ("<= 1", "1-1.5", "1.5-2", "2-2.5", "> 2.5")
HAND_EDGES = (3, 6)                    # wickets in hand: 1-3, 4-6, 7-10
HAND_NAMES = ("1-3", "4-6", "7-10")
BAND_NAMES = ("attack", "normal", "consolidate")
COLUMNS = ["need", "left", "down", "table_band", "out", "runs", "legal"]


def _situation(frame: pd.DataFrame) -> pd.DataFrame:
    """Each chase ball's cell: runs needed a ball and wickets in hand, by the edges above."""
    rate = frame["need"] / frame["left"].clip(lower=1)
    return frame.assign(rate=np.digitize(rate, RATE_EDGES, right=True),
                        hand=np.digitize(10 - frame["down"], HAND_EDGES, right=True))


def _deliveries_in_situation(comp, season: str, source: str, cache
                             ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The season's deliveries (no super overs) in match, innings and ball order, and for each
    the wickets it took, the wickets down, the runs needed (first innings: NaN) and the legal
    balls left before it."""
    from cardgen.stats.load import load_season_data
    from cardgen.stats.tables import NOT_OUT_KINDS
    bpi = comp.balls_per_innings
    data = load_season_data(comp, season, source, cache=cache)
    d = data.deliveries[~data.deliveries["super_over"].astype(bool)]
    keys = ["match_id", "innings"]
    d = d.sort_values(keys + ["delivery"]).reset_index(drop=True)
    legal_before = (d.groupby(keys)["legal"].cumsum() - d["legal"]).to_numpy()
    w = data.wickets
    outs = w[~w["kind"].isin(NOT_OUT_KINDS)].groupby(keys + ["delivery"]).size()
    fell = outs.reindex(pd.MultiIndex.from_frame(d[keys + ["delivery"]]), fill_value=0).to_numpy()
    down = pd.Series(fell).groupby([d[k] for k in keys]).cumsum().to_numpy() - fell
    first_total = d.loc[d["innings"] == 1].groupby("match_id")["runs_total"].sum()
    runs_before = (d.groupby(keys)["runs_total"].cumsum() - d["runs_total"]).to_numpy()
    need = d["match_id"].map(first_total).to_numpy(float) + 1 - runs_before
    left = np.clip(bpi - legal_before, 0, bpi)
    return d, fell, down, need, left


def real_chase_balls(comp, season: str, source: str, cache, stats, rule) -> pd.DataFrame:
    """Every real chase delivery of the full-length matches, with its situation before the ball."""
    from cardgen.sim.season import full_length_innings
    from cardgen.wickets_in_hand import band_table
    bpi = comp.balls_per_innings
    d, fell, down, need, left = _deliveries_in_situation(comp, season, source, cache)
    full = set(full_length_innings(stats)["match_id"].astype(str))
    keep = ((d["innings"] == 2) & d["match_id"].astype(str).isin(full)).to_numpy() & np.isfinite(need)
    table = band_table(rule, bpi)[np.minimum(down, 10), left]
    return pd.DataFrame({"need": need[keep], "left": left[keep], "down": down[keep],
                         "table_band": table[keep], "out": fell[keep],
                         "runs": d["runs_total"].to_numpy()[keep], "legal": d["legal"].to_numpy()[keep]})


def real_balls(comp, season: str, source: str, cache, stats, rule) -> pd.DataFrame:
    """Every real delivery faced (wides left out) of the full-length matches, both innings, with
    its batter, bowler, situation and the table's band before the ball."""
    from cardgen.sim.season import full_length_innings
    from cardgen.wickets_in_hand import band_table
    bpi = comp.balls_per_innings
    d, fell, down, need, left = _deliveries_in_situation(comp, season, source, cache)
    full = d["match_id"].astype(str).isin(set(full_length_innings(stats)["match_id"].astype(str))).to_numpy()
    keep = full & (d["wides"] == 0).to_numpy() & ((d["innings"] == 1).to_numpy() | np.isfinite(need))
    tag = f"{comp.code} {season} "
    return pd.DataFrame({"innings": d["innings"].to_numpy()[keep],
                         "batter": tag + d["batter_id"].astype(str).to_numpy()[keep],
                         "bowler": tag + d["bowler_id"].astype(str).to_numpy()[keep],
                         "need": need[keep], "left": left[keep], "down": down[keep],
                         "table_band": band_table(rule, bpi)[np.minimum(down, 10), left][keep],
                         "out": fell[keep], "runs": d["runs_batter"].to_numpy()[keep]})


def controlled_factors(balls: pd.DataFrame, prior: float = 20.0, rounds: int = 30) -> pd.DataFrame:
    """Each cell's wickets and runs factor, batter and bowler controlled (module docstring),
    relative to the first innings' normal band; with balls, wickets and the factor's SE."""
    sit = _situation(balls)
    first = sit["innings"] == 1
    # a cell per first-innings band and per chase rate x hand x band, keyed to sort in that order
    cell = np.where(first, "0 0 0 ", "1 " + sit["rate"].astype(str) + " " + sit["hand"].astype(str) + " ") \
        + sit["table_band"].astype(str)
    out = {}
    for y in ("out", "runs"):
        mean = float(sit[y].mean())
        fx = {k: pd.Series(1.0, index=pd.unique(v)) for k, v in (("batter", sit["batter"]),
                                                              ("bowler", sit["bowler"]), ("cell", cell))}
        keys = {"batter": sit["batter"].to_numpy(), "bowler": sit["bowler"].to_numpy(), "cell": cell}
        for _ in range(rounds):
            for k in ("batter", "bowler", "cell"):
                e = mean * np.prod([fx[o].reindex(keys[o]).to_numpy() for o in fx if o != k], axis=0)
                g = pd.DataFrame({"k": keys[k], "y": sit[y].to_numpy(), "e": e}).groupby("k").sum()
                fx[k] = g["y"] / g["e"] if k == "cell" else (g["y"] + prior * mean) / (g["e"] + prior * mean)
        base = fx["cell"][f"0 0 0 {BAND_NAMES.index('normal')}"]
        out[y] = fx["cell"] / base
        if y == "out":
            out["wickets"] = g["y"]
    table = pd.DataFrame({"balls": pd.Series(cell).value_counts(), "wickets": out["wickets"],
                          "wicket factor": out["out"], "runs factor": out["runs"]})
    table["SE"] = table["wicket factor"] / np.sqrt(table["wickets"].clip(lower=1))
    return table.sort_index()


def replayed_chase_balls(cs, stats, rule, seasons: int, seed: int) -> pd.DataFrame:
    """Every chase delivery of `seasons` replays of the fixture list (the reference engine)."""
    from cardgen.sim.reference import play_match
    from cardgen.sim.season import build_fixtures
    from cardgen.wickets_in_hand import band_table
    rng = np.random.default_rng(seed)
    fx = build_fixtures(cs, stats, rng)
    bpi = cs.fmt.balls_per_innings
    table = band_table(rule, bpi)
    rows = []
    for _ in range(seasons):
        for home, away in zip(fx.home, fx.away):
            match = play_match(cs, fx.sides[home], fx.sides[away], rng, rule=rule)
            target, runs, down, legal = match.first.runs + 1, 0, 0, 0
            for ball in match.second.balls:
                out = int(ball.out_slot is not None)
                rows.append((target - runs, bpi - legal, down, table[min(down, 10), bpi - legal],
                             out, ball.bat_runs + ball.extras, int(ball.legal)))
                runs, down, legal = runs + ball.bat_runs + ball.extras, down + out, legal + int(ball.legal)
    return pd.DataFrame(rows, columns=COLUMNS)


def cells(frame: pd.DataFrame, by: list[str], per: float) -> pd.DataFrame:
    """Legal balls, wickets and runs a season in each cell (`per`: seasons in the frame)."""
    return _situation(frame).groupby(by)[["legal", "out", "runs"]].sum() / per


def measure(code: str, season: str, source: str, seasons: int, seed: int, cache) -> dict:
    from cardgen.calibrate.calibrate import calibrate, league_rule
    from cardgen.calibrate.cardset import card_sets_from_calibration
    from cardgen.competitions import get_competition
    from cardgen.cardset import CardSet
    from cardgen.sim.model import compile_card_set
    from cardgen.stats.load import season_stats
    comp = get_competition(code)
    stats = season_stats(comp, season, source, cache=cache)
    rule = league_rule(stats)
    cs = compile_card_set(CardSet.from_json(card_sets_from_calibration(calibrate(stats, rule=rule), comp, season)))
    return {"real": real_chase_balls(comp, season, source, cache, stats, rule),
            "sim": replayed_chase_balls(cs, stats, rule, seasons, seed), "seasons": seasons}


def table(figures: dict[str, dict], by: list[str]) -> str:
    # summed cell by cell (a cell one season never reached counts as none there)
    real = pd.concat([cells(m["real"], by, 1.0) for m in figures.values()]).groupby(level=by).sum()
    sim = pd.concat([cells(m["sim"], by, m["seasons"]) for m in figures.values()]).groupby(level=by).sum()
    index = real.index.union(sim.index)
    real, sim = real.reindex(index, fill_value=0), sim.reindex(index, fill_value=0)
    names = {"rate": RATE_NAMES, "hand": HAND_NAMES, "table_band": BAND_NAMES}
    heads = {"rate": "runs needed a ball", "hand": "wickets in hand", "table_band": "table's band"}
    lines = ["| " + " | ".join(heads[b] for b in by) + " | legal balls real / replays | wickets / 120 "
             "real / replays | runs a ball real / replays | replays' excess wickets |",
             "|" + "---|" * (len(by) + 4)]
    for key in real.index:
        key_t = key if isinstance(key, tuple) else (key,)
        r, s = real.loc[key], sim.loc[key]
        rate = lambda x, k: x[k] / x["legal"] if x["legal"] else float("nan")  # noqa: E731
        excess = (rate(s, "out") - rate(r, "out")) * s["legal"] if r["legal"] and s["legal"] else float("nan")
        lines.append("| " + " | ".join(names[b][int(v)] for b, v in zip(by, key_t))
                     + f" | {r['legal']:.0f} / {s['legal']:.0f} | {120 * rate(r, 'out'):.2f} / "
                     f"{120 * rate(s, 'out'):.2f} | {rate(r, 'runs'):.2f} / {rate(s, 'runs'):.2f} | {excess:+.1f} |")
    tr, ts = real.sum(), sim.sum()
    lines.append(f"\nAll chase balls: {tr['legal']:.0f} / {ts['legal']:.0f} legal balls a season, "
                 f"wickets a 120 balls {120 * tr['out'] / tr['legal']:.2f} real / "
                 f"{120 * ts['out'] / ts['legal']:.2f} replays, runs a ball {tr['runs'] / tr['legal']:.3f} / "
                 f"{ts['runs'] / ts['legal']:.3f}.")
    return "\n".join(lines)


def print_real_factors(args, only: set, cache) -> None:
    from cardgen.calibrate.calibrate import league_rule
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    frames, names = [], []
    for code, season in SEASONS:
        if not only or (code, season) in only:
            comp = get_competition(code)
            stats = season_stats(comp, season, args.source, cache=cache)
            frames.append(real_balls(comp, season, args.source, cache, stats, league_rule(stats)))
            names.append(f"{code} {season}")
    table = controlled_factors(pd.concat(frames, ignore_index=True))
    print(f"Real balls faced (full-length matches, wides left out), pooled over {', '.join(names)}: "
          "wickets and runs factors controlled for batter and bowler, relative to the first "
          "innings' normal band (SE: the wicket factor's, from its count).\n")
    print("| innings | runs needed, wickets in hand | table's band | balls | wickets | wicket factor (SE) | runs factor |")
    print("|---|---|---|---|---|---|---|")
    for key, r in table.iterrows():
        chase, rate, hand, band = (int(k) for k in str(key).split())
        where = f"{RATE_NAMES[rate]} a ball, {HAND_NAMES[hand]} in hand" if chase else "-"
        print(f"| {'chase' if chase else '1st innings'} | {where} | {BAND_NAMES[band]} | {r['balls']:.0f} | {r['wickets']:.0f} | "
              f"{r['wicket factor']:.2f} ({r['SE']:.2f}) | {r['runs factor']:.2f} |")


def main() -> None:
    ap = season_arguments(__doc__.splitlines()[0])
    ap.set_defaults(seasons=20)   # the reference engine plays a ball at a time
    ap.add_argument("--real-factors", action="store_true",
                    help="only the real balls' controlled factors by cell (no calibration, no replays)")
    args = ap.parse_args()
    from cardgen.cache import Cache
    only = {tuple(x.split(":")) for x in args.only.split(",") if x}
    start = time.perf_counter()
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Cache(Path(tmp))
        if args.real_factors:
            print_real_factors(args, only, cache)
            return
        for code, season in SEASONS:
            if not only or (code, season) in only:
                figures[f"{code} {season}"] = measure(code, season, args.source, args.seasons,
                                                      args.seed, cache)
    print(f"Chase deliveries, real (full-length matches) / {args.seasons} replays a season "
          f"(seed {args.seed}, reference engine), pooled over {', '.join(figures)}; "
          f"balls, wickets and runs a season ({time.perf_counter() - start:.0f} s).\n")
    print(table(figures, ["rate", "hand"]))
    print("\nThe same, by the band the wickets-in-hand table gives (before the chase line):\n")
    print(table(figures, ["rate", "hand", "table_band"]))


if __name__ == "__main__":
    main()
