"""Must-show figures on the real data: cards reproduce their players, the league its totals.

Tolerances are the issue's: qualified cards (>= 60 real balls) within +/-2% on strike rate and
economy and +/-5% on dismissal/wicket rate, medians within 0.5% and 2%; league-level figures
within +/-2%. A qualified card outside tolerance passes only when the report lists it with its
gap and reason and no card with its F, B and dot slots could meet both headline figures (the
report's `reachable`), as the issue allows.
"""
from __future__ import annotations

import statistics
from collections import Counter

import pytest

from cardgen.calibrate.fielding import chart_extra_surplus
from cardgen.calibrate.model import CARD_INDEX, chart_cells, chart_to_slots
from cardgen.calibrate.report import card_rows, league_errors
from test_calibrate_cardset import bbl_set, hundred_set  # noqa: F401  (shared, built once)

SEASONS = ["bbl_set", "hundred_set"]


def _qualified(card_set: dict, kind: str) -> list[dict]:
    return [r for r in card_rows(card_set) if r["kind"] == kind and r["balls"] >= 60]


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_median_errors_within_half_and_two_percent(which, request):
    card_set = request.getfixturevalue(which)
    for kind in ("striker", "bowler"):
        rows = _qualified(card_set, kind)
        main = statistics.median(abs(r["main_error"]) for r in rows)
        rate = statistics.median(abs(r["rate_error"]) for r in rows if r["rate_error"] is not None)
        assert main <= 0.005 and rate <= 0.02, (kind, main, rate)


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_qualified_cards_within_tolerance_or_reported(which, request):
    """Every qualified card is within tolerance, or the report lists it with a reason."""
    card_set = request.getfixturevalue(which)
    rows = [r for r in card_rows(card_set) if r["balls"] >= 60]
    for r in rows:
        within = abs(r["main_error"]) <= 0.02 and (
            r["rate_error"] is None or abs(r["rate_error"]) <= 0.05)
        assert within or r["outside"], r
    outside = [r for r in rows if r["outside"]]
    # every miss must be structural, never a fitting failure: no card with its F, B and dot slots
    # meets both headline figures within tolerance under the rule (`reachable` is an exact LP over
    # real-valued slots, so an infeasible one rules out every printed card too)
    fixable = [(r["name"], r["outside"]) for r in outside if r["reachable"]]
    assert not fixable, fixable
    assert len(outside) <= 0.2 * len(rows), [(r["name"], r["outside"]) for r in outside]
    # the report prints each of them with its gap and reason
    from cardgen.calibrate.report import format_report
    text = format_report(card_set)
    for r in outside:
        assert f"{r['kind']} {r['name']} ({r['team']}, {r['balls']} balls): " in text


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_league_runs_and_extras_within_two_percent(which, request):
    errors = league_errors(request.getfixturevalue(which))
    for key in ("runs_per_ball", "wides_per_ball", "no_balls_per_ball", "leg_byes_per_ball"):
        assert abs(errors[key]) <= 0.02, (key, errors[key])


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_league_dismissal_kind_mix_within_two_percent(which, request):
    errors = league_errors(request.getfixturevalue(which))
    shares = {k: v for k, v in errors.items() if k.startswith("share_")}
    assert set(shares) >= {"share_bowled", "share_caught", "share_lbw", "share_run_out",
                           "share_stumped"}
    # bowled and caught are set by the cards, LBWs by the chart's cells, run-outs and stumpings
    # through the ratings
    assert all(abs(v) <= 0.02 for v in shares.values()), shares


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_extra_runs_beyond_one_per_ball_are_kept(which, request):
    """The chart plays extras by deliveries (one run each); the real runs beyond that (5-wides,
    two leg byes off a ball, The Hundred's two-run no-balls) are carried as runs off the bat, so
    the league's total runs hold, and economies still count every wide and no-ball run."""
    card_set = request.getfixturevalue(which)
    league, expected = card_set["league"], card_set["expected_league"]
    legal = league["legal_balls"]
    surplus = (league["wide_runs"] - league["wide_balls"] + league["leg_byes"]
               - league["leg_bye_balls"] + league["byes"] - league["bye_balls"]
               + league["no_ball_runs"] - league["no_ball_balls"])
    assert surplus / league["runs_total"] > 0.008  # a real effect (~1% of runs) in both seasons
    # extras the game plays: 1 run each, so extras alone come up short by the surplus...
    game_extras = sum(expected[k] for k in ("wides_per_ball", "no_balls_per_ball",
                                            "leg_byes_per_ball", "byes_per_ball")) * legal
    real_extras = (league["wide_runs"] + league["no_ball_runs"] + league["leg_byes"]
                   + league["byes"])
    assert game_extras < real_extras - 0.8 * surplus
    # ...and the runs off the bat make it up: total runs within 0.5% (a quarter of the issue's
    # 2%: whole slots leave the league mean a few tenths of a percent off at most)
    assert abs(expected["runs_per_ball"] * legal / league["runs_total"] - 1) < 0.005
    # bowlers are charged every real wide and no-ball run; the leg-bye and bye surplus is not
    # theirs: the chart's four-leg-bye and four-bye cells carry most of it as Extras, and only
    # what whole cells leave over (either way) rides on the small-sample bowlers' bat runs
    # (qualified bowlers keep their real economies), so the league economy holds just that
    counts = Counter(cell for row in chart_cells(card_set) for cell in row)
    assert counts["leg_bye_4"] >= 1 and counts["bye_4"] >= 1
    carried = chart_extra_surplus(counts, league)
    not_bowlers = (league["leg_byes"] - league["leg_bye_balls"] - carried["leg_bye"]
                   + league["byes"] - league["bye_balls"] - carried["bye"])
    assert abs(not_bowlers) < 0.5 * (league["leg_byes"] - league["leg_bye_balls"]
                                     + league["byes"] - league["bye_balls"])
    conceded = league["economy"] * legal / 6 + not_bowlers
    assert abs(expected["economy"] * legal / 6 / conceded - 1) < 0.005


@pytest.mark.needs_data
def test_small_samples_are_flagged(bbl_set):  # noqa: F811
    for c in bbl_set["cards"]:
        assert c["small_sample"] == (c["real"]["balls"] < 60)


@pytest.mark.needs_data
def test_chart_plan_spreads_its_whole_cell_errors(bbl_stats, hundred_stats):
    """The joint cell-count search: at the chart share it centres on, wides, no-balls, leg byes
    and LBWs all err by at most the plan's score, and The Hundred 2024 fits within 2%."""
    from cardgen.calibrate.fielding import CELLS, plan_counts
    for stats in (bbl_stats, hundred_stats):
        plan = plan_counts(stats.league)
        assert sum(plan.counts.values()) == CELLS
        errors = [plan.ratio_errors[k] for k in ("wide", "no_ball", "leg_bye", "lbw")]
        assert max(errors) == pytest.approx(-min(errors), abs=1e-9)  # centred
    assert max(abs(v) for k, v in plan_counts(hundred_stats.league).ratio_errors.items()
               if k != "bye") < 0.02


@pytest.mark.needs_data
def test_chart_share_correction_centres_or_leaves_wild_ratios_alone(bbl_stats):
    from cardgen.calibrate.calibrate import chart_share_correction
    league = bbl_stats.league
    legal = league["legal_balls"]
    kinds = league["dismissal_kinds"]
    total = sum(kinds.get(k, 0) for k in ("bowled", "hit wicket", "caught", "caught and bowled",
                                          "lbw", "run out", "stumped"))
    exact = {"wides_per_ball": league["wide_balls"] / legal,
             "no_balls_per_ball": league["no_ball_balls"] / legal,
             "leg_byes_per_ball": league["leg_bye_balls"] / legal,
             "dismissal_kinds": {"lbw": kinds["lbw"] / total}}
    assert chart_share_correction(exact, league) == pytest.approx(1.0)
    # everything 1% low: the chart share goes up by 1%
    low = {k: (v * 0.99 if isinstance(v, float) else {"lbw": v["lbw"] * 0.99}) for k, v in exact.items()}
    assert chart_share_correction(low, league) == pytest.approx(1 / 0.99)
    # LBW share 5% above the extras: the share centres them (worst error 2.4% each way)
    apart = dict(exact, dismissal_kinds={"lbw": exact["dismissal_kinds"]["lbw"] * 1.05})
    assert chart_share_correction(apart, league) == pytest.approx(2 / 2.05)
    # 25% apart is not a whole-cell effect: nothing moves
    wild = dict(exact, dismissal_kinds={"lbw": exact["dismissal_kinds"]["lbw"] * 1.25})
    assert chart_share_correction(wild, league) == 1.0


@pytest.mark.needs_data
@pytest.mark.parametrize("which", SEASONS)
def test_reach_test_accepts_every_card_within_tolerance(which, request):
    """`reachable` is an LP over cards with the card's F, B and dots. With `both`, it asks for a
    card meeting both headline figures: a card within tolerance is itself a feasible point, so
    the LP must find one for every such card (a wrong constraint, free-hit or rule term would
    reject some); a card whose real rate no card can reach is rejected, and is at its limit."""
    import copy

    from cardgen.calibrate.expect import model_from_card_set
    from cardgen.calibrate.report import reachable
    card_set = request.getfixturevalue(which)
    model = model_from_card_set(card_set)
    rows = {(r["id"], r["team"], r["kind"]): r for r in card_rows(card_set) if r["balls"] >= 60}
    checked = 0
    for c in card_set["cards"]:
        r = rows.get((c["player"]["id"], c["team"], c["kind"]))
        if r and abs(r["main_error"]) <= 0.015 and r["rate_error"] is not None \
                and abs(r["rate_error"]) <= 0.04:   # inside tolerance with room for rounding
            assert reachable(card_set, c, model, both=True), r
            if abs(r["main_error"]) <= 0.01 and abs(r["rate_error"]) <= 0.02:
                assert reachable(card_set, c, model), r   # it misses nothing: within reach
            checked += 1
    assert checked >= 40
    # never dismissed in a season of balls: the opponent's half alone dismisses, so no card can
    striker = next(c for c in card_set["cards"] if c["kind"] == "striker"
                   and c["real"]["balls"] >= 100)
    never_out = copy.deepcopy(striker)
    never_out["real"]["dismissals"] = 0
    assert not reachable(card_set, never_out, model, both=True)
    assert not reachable(card_set, never_out, model)


def _shipped_sets() -> list[tuple[str, dict]]:
    """Every card set that ships (stats_cache/card-sets/: each bundled season, with the rule and
    --classic); read, not calibrated, so every season is checked at no cost."""
    import gzip
    import json
    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    paths = sorted((bundled_tables_dir() / FOLDER).glob("*.json.gz"))
    assert len(paths) >= 12
    return [(p.name, json.loads(gzip.decompress(p.read_bytes()))) for p in paths]


@pytest.mark.slow
def test_every_shipped_set_meets_the_medians_and_league_figures():
    """The must-show medians (issue 17: strike rate and economy <= 0.5%, dismissal and wicket
    rate <= 2%) and the league's runs hold in every season that ships, not only the two
    calibrated above (a later fitting step could drift other seasons unseen)."""
    problems = []
    for name, card_set in _shipped_sets():
        for kind in ("striker", "bowler"):
            rows = _qualified(card_set, kind)
            main = statistics.median(abs(r["main_error"]) for r in rows)
            rate = statistics.median(abs(r["rate_error"]) for r in rows if r["rate_error"] is not None)
            if main > 0.005 or rate > 0.02:
                problems.append((name, kind, f"medians {main:.2%} / {rate:.2%}"))
        # the league's runs (extras and the dismissal mix are checked above on BBL and the Hundred;
        # IPL and Super Smash sit 2-3% off on some of them with either rules, a known gap)
        runs = league_errors(card_set)["runs_per_ball"]
        if abs(runs) > 0.02:
            problems.append((name, "league runs per ball", f"{runs:+.2%}"))
    assert not problems, problems


def test_a_scoring_miss_in_the_attack_band_says_so():
    """A card scoring more under the rule than its player really did, from a season mostly in
    the attack band, says where the runs come from: the attack d20 rolls a dot again whoever's
    card it came off, so a death bowler's dots score like anyone's there. Read from the shipped
    IPL 2024 set (Matheesha Pathirana bowled 85% of his balls in the attack band); the same
    reason on a printed-rules set would be false, and no card there says it."""
    said = {}
    for name, card_set in _shipped_sets():
        for r in card_rows(card_set):
            for reason in r["outside"]:
                if "attack band" in reason:
                    said.setdefault(name, []).append((r["name"], r["kind"], reason))
    ipl = next(v for k, v in said.items() if k.startswith("IPL_2024") and v)
    pathirana = [reason for n, kind, reason in ipl if n == "Matheesha Pathirana" and kind == "bowler"]
    assert pathirana and "85% of the real balls" in pathirana[0], ipl
    for name, card_set in _shipped_sets():
        if card_set.get("rule") != "wickets-in-hand":
            assert name not in said, said[name]


def _mean_faces(cards: list[dict], result: str) -> float:
    return statistics.mean(int(chart_to_slots(c["chart"])[CARD_INDEX[result]]) for c in cards)


def test_small_sample_cards_keep_a_cricket_shape():
    """Cards under 60 real balls carry what the league's means need beyond the qualified cards
    (calibrate.recentre_small_samples), but still look like their kind of card: on average at
    least half the dot faces and at most twice the 2 faces of the qualified cards of that kind.

    Why these bounds: part-time bowlers and tail-enders really are unlike the rest (they concede
    and score differently), so some distance from the qualified shape is right; the bounds catch
    the fault they guard against, the rule passes' centre put 3-4% of the league's dots on a few
    hundred balls, and Super Smash 2024-25's part-time bowlers printed 8 dot faces and 25 twos
    on average against the qualified 31 and 5 (IPL 2024: 22 twos against 7)."""
    problems = []
    for name, card_set in _shipped_sets():
        if card_set.get("rule") != "wickets-in-hand":
            continue
        for kind in ("striker", "bowler"):
            cards = [c for c in card_set["cards"] if c["kind"] == kind and c["real"].get("balls")]
            small = [c for c in cards if c.get("small_sample")]
            full = [c for c in cards if not c.get("small_sample")]
            if len(small) < 5:
                continue
            dots, twos = _mean_faces(small, "0"), _mean_faces(small, "2")
            if dots < 0.5 * _mean_faces(full, "0") or twos > 2 * _mean_faces(full, "2"):
                problems.append((name, kind, f"dots {dots:.1f} / {_mean_faces(full, '0'):.1f}",
                                 f"twos {twos:.1f} / {_mean_faces(full, '2'):.1f}"))
    assert not problems, problems


def test_neutral_centres_weigh_each_players_own_factor():
    """Under the rule the small samples are centred on real count / each player's own factor,
    over the real counts (calibrate.neutral_centres): two strikers with 10 and 30 dots whose
    factors are 0.5 and 1.0 keep (20 + 30) / 40 = 1.25 of the league's dots, not 1 / the mean
    factor; a figure both kinds of card share takes the mean of the two kinds' shares, a figure
    of one kind (field outs) its own, and a figure no factor touches stays as it was."""
    from cardgen.calibrate.calibrate import CardFit, neutral_centres
    from cardgen.calibrate.situations import RuleFactors
    from cardgen.calibrate.solve import Target

    def fit(kind: str, pid: str) -> CardFit:
        return CardFit(kind, pid, "T", 100, False, Target(kind, {}, {}, {}))
    strikers, bowlers = [fit("striker", "a"), fit("striker", "b")], [fit("bowler", "c")]
    factors = RuleFactors(cards={("striker", "a", "T"): {"dots": 0.5, "field_outs": 2.0},
                                 ("striker", "b", "T"): {"dots": 1.0, "field_outs": 1.0},
                                 ("bowler", "c", "T"): {"dots": 0.8}})
    s_counts = [{"dots": 10.0, "field_outs": 4.0, "ones": 5.0}, {"dots": 30.0, "field_outs": 4.0, "ones": 5.0}]
    b_counts = [{"dots": 40.0, "extras": 3.0, "ones": 10.0}]
    ls, lb = neutral_centres(factors, strikers, s_counts, bowlers, b_counts,
                             {"dots": 0.4, "field_outs": 0.02, "ones": 0.3},
                             {"dots": 0.4, "extras": 0.04, "ones": 0.3})
    both = 0.5 * (1.25 + 1 / 0.8)
    assert ls["dots"] == pytest.approx(0.4 * both) and lb["dots"] == pytest.approx(0.4 * both)
    assert ls["field_outs"] == pytest.approx(0.02 * (2.0 + 4.0) / 8.0)
    assert ls["ones"] == lb["ones"] == 0.3 and lb["extras"] == 0.04
