"""The fast engine's compiled bookkeeping (numba, the `fast` extra) plays the numpy path's
matches exactly: the same seed gives the same scorecards, every array equal, on the real
calibrated sets (with their rule and as printed, super overs included) and on stress charts that
bring up every rare branch. Skipped when numba is not installed."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from cardgen.calibrate.model import chart_document
from cardgen.options import RunOptions, running_with
from cardgen.sim import fast
from cardgen.sim import model as m
from cardgen.sim.captain import Captain
from cardgen.sim.example import example_bowling, example_card_set, example_lineups
from cardgen.sim.model import compile_card_set
from cardgen.sim.validate import rule_of
from cardgen import wickets_in_hand as wih
from tests.test_sim_engine import give_defence, shipped_with_defence
from conftest import as_model

pytestmark = pytest.mark.slow

numba = pytest.importorskip("numba")

# A fielding chart of chances, run-outs, no-balls and wides (free hits, both ends run out)
STRESS_ROW = ["no_ball", "bye_4", "wide", "run_out", "run_out_chance", "run_out_chance",
              "catch_chance", "catch_chance", "stumping_chance", "stumping_chance", "caught",
              "bowled", "lbw", "stumped", "leg_bye", "bye", "leg_bye_4", "2", "4", "6"]


@pytest.fixture(scope="module")
def kernel():
    """The compiled kernel; numba installed but the kernel not loading is a failure here (the
    engine would fall back to numpy and these tests would compare numpy with itself)."""
    compiled = fast.compiled_engine()
    assert compiled is not None, "numba is installed but cardgen.sim.fast_compiled did not load"
    return compiled


def both_engines(monkeypatch: pytest.MonkeyPatch, play):  # type: ignore[no-untyped-def]
    """play() on the numpy path, then on the compiled path (each from its own fresh seed)."""
    monkeypatch.setenv(fast.ENGINE_VARIABLE, "numpy")
    with_numpy = play()
    monkeypatch.setenv(fast.ENGINE_VARIABLE, "numba")
    return with_numpy, play()


def assert_same_matches(a: fast.MatchBatch, b: fast.MatchBatch) -> None:
    for innings in ("first", "second"):
        x, y = getattr(a, innings), getattr(b, innings)
        for field, value in vars(x).items():
            other = getattr(y, field)
            assert np.array_equal(value, other), (innings, field)
            if isinstance(value, np.ndarray):
                assert value.dtype == other.dtype and value.shape == other.shape, (innings, field)
    for field in ("winner", "super_overs", "deliveries", "first_plan", "second_plan"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def real_table(card_set: dict, stats) -> tuple[m.CompiledSet, fast.SideTable]:  # type: ignore[no-untyped-def]
    cs = compile_card_set(as_model(card_set))
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(0))
    return cs, fast.SideTable.build(cs, [captain.usual_side(t["name"]) for t in card_set["teams"]])


@pytest.mark.needs_data
@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
def test_compiled_plays_the_numpy_matches_on_real_sets(kernel, monkeypatch, render_card_sets,
                                                       bbl_stats, hundred_stats, code):
    """Every pairing of the season's sides, both ways of playing, three seeds: the same matches
    (ties go to super overs: 6,000 matches a season bring some)."""
    card_set = render_card_sets[code]
    cs, table = real_table(card_set, bbl_stats if code == "BBL" else hundred_stats)
    rule = rule_of(card_set)
    assert rule is not None                      # the shipped way of playing, and as printed
    n_sides = len(table.teams)
    supers = 0
    for seed, way in ((1, rule), (2, None), (3, rule)):
        home, away = random_fixtures(seed, n_sides, 2000)
        a, b = both_engines(monkeypatch, lambda home=home, away=away, seed=seed, way=way: fast.play_matches(
            cs, table, home, away, np.random.default_rng(seed), rule=way, defence=True))
        assert_same_matches(a, b)
        supers += int((a.super_overs > 0).sum())
    assert supers > 0


def random_fixtures(seed: int, n_sides: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` matches between random pairs of different sides (home, away side indices)."""
    pairs = np.random.default_rng(seed)
    home = pairs.integers(0, n_sides, n)
    return home, (home + pairs.integers(1, n_sides, n)) % n_sides


@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
@pytest.mark.parametrize("with_defence", [False, True])
def test_compiled_plays_the_numpy_matches_on_stress_charts(kernel, monkeypatch, fmt, with_defence):
    """Random cards whose charts send a fifth of all rolls to a fielding chart of chances,
    run-outs, no-balls and wides: free hits, run-outs at either end, stumpings, all-outs,
    chases won early, the rule's chase clause, all in batches where innings end at every step;
    and with Defence ratings (R13) on three striker cards in four."""
    rng = np.random.default_rng(5)
    raw = example_card_set(fmt, rng=rng, teams=("Alpha", "Bravo", "Charlie"))
    raw["fielding_chart"] = chart_document([list(rng.permutation(STRESS_ROW)) for _ in range(6)])
    for card in raw["cards"]:
        card["chart"] = [{"lo": lo, "hi": hi, "result": r} for lo, hi, r in (
            (1, 20, "F"), (21, 24, "W"), (25, 50, "0"), (51, 78, "1"), (79, 88, "2"),
            (89, 95, "4"), (96, 100, "6"))]
    if with_defence:
        give_defence(raw)
    cs = compile_card_set(as_model(raw))
    captain = Captain(cs, example_lineups(raw), example_bowling(raw), np.random.default_rng(5))
    table = fast.SideTable.build(cs, [captain.usual_side(t["name"]) for t in raw["teams"]])
    # (13: a chase line, issue 41, every band in some cell)
    line = wih.ChaseLine.from_letters((1.0, 1.5, 2.0), (3, 6), ("NCT", "ANC", "CAN", "ATA"))
    for seed, way in ((11, wih.RULE), (12, None), (13, replace(wih.RULE, chase_line=line))):
        home = np.random.default_rng(seed).integers(0, 3, 1500)
        away = (home + 1 + (np.arange(1500) % 2)) % 3
        a, b = both_engines(monkeypatch, lambda home=home, away=away, seed=seed, way=way: fast.play_matches(
            cs, table, home, away, np.random.default_rng(seed), rule=way, defence=True))
        assert_same_matches(a, b)
        assert (a.first.wickets == 10).any() and (a.first.no_balls > 0).any()
        assert (a.second.runs > a.first.runs).any() and (a.super_overs > 0).any()


@pytest.mark.needs_data
@pytest.mark.parametrize("code, season", [("BBL", "2024-25"), ("HUNDRED", "2024")])
def test_compiled_plays_the_numpy_matches_with_defence(kernel, monkeypatch, mirror, code, season):
    """A shipped set with Defence ratings (R13) on its three most-used striker cards: both paths
    play the same matches, with its rule and as printed; and the ratings are played (the same
    seed without them plays other matches, in which those batters are out more often). The
    ratings are the advanced rules': played with the rule, and here also without it (defence on),
    so the Defence die is checked on its own."""
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    card_set, rows = shipped_with_defence(mirror, code, season, (8, 14, 20))
    stats = season_stats(get_competition(code), season, str(mirror))
    cs, table = real_table(card_set, stats)
    plain = {**card_set, "cards": [{k: v for k, v in c.items() if k != "defence"}
                                   for c in card_set["cards"]]}
    plain_cs, plain_table = real_table(plain, stats)
    assert cs.has_defence and not plain_cs.has_defence
    rated = np.isin(table.bat_cards[:, :11], rows)        # (side, slot): a rated batter
    n_sides = len(table.teams)
    outs = {"rated": 0, "plain": 0}
    balls = {"rated": 0, "plain": 0}
    for seed, way in ((21, rule_of(card_set)), (22, None)):
        home, away = random_fixtures(seed, n_sides, 1500)
        a, b = both_engines(monkeypatch, lambda home=home, away=away, seed=seed, way=way: fast.play_matches(
            cs, table, home, away, np.random.default_rng(seed), rule=way, defence=True))
        assert_same_matches(a, b)
        without = fast.play_matches(plain_cs, plain_table, home, away,
                                    np.random.default_rng(seed), rule=way, defence=True)
        assert not np.array_equal(a.first.runs, without.first.runs)
        for key, batch in (("rated", a), ("plain", without)):
            for sides, innings in ((home, batch.first), (away, batch.second)):
                outs[key] += int((innings.bat_out[:, :11] * rated[sides]).sum())
                balls[key] += int((innings.bat_balls[:, :11] * rated[sides]).sum())
    # the three batters' dismissals per ball faced (~60,000 balls, ~1,700 dismissals each way):
    # Defence 8-20 takes a quarter to a third off (measured 0.75x BBL, 0.70x Hundred; cf. the
    # exact expectation in test_sim_engine); the ratio's SE is ~3.5%, so 0.88 is 4 SE away
    per_ball = {key: outs[key] / balls[key] for key in outs}
    assert per_ball["rated"] < 0.88 * per_ball["plain"], (outs, balls)


def test_kernel_constants_are_the_engines(kernel):
    """The kernel's copies of result codes, bands and word layouts are those of the engine."""
    for name in ("DOT", "ONE", "CARD_W", "FIELD", "RUN_OUT", "CAUGHT", "STUMPED", "CATCH_CHANCE",
                 "RUN_OUT_CHANCE", "STUMPING_CHANCE", "WIDE", "NO_BALL"):
        assert getattr(kernel, name) == getattr(m, name), name
    assert (kernel.ATTACK, kernel.CONSOLIDATE) == (wih.ATTACK, wih.CONSOLIDATE)
    for name in ("BIG", "SLOTS", "SLOT_SHIFT", "CHART_SHIFT", "SLOT_MASK", "BAT_FIGURES",
                 "FALLEN_SHIFT", "OVER_BALLS_SHIFT"):
        assert getattr(kernel, name) == getattr(fast, name), name
    # the scorecard pass reads the words' fields where fast.py packs them
    assert fast.BAT_FIELDS == {"runs": (0, 12), "balls": (12, 10), "fours": (22, 8),
                               "sixes": (30, 8)}
    assert fast.OVER_FIELDS == {"runs": (0, 12), "wickets": (12, 4), "wides": (16, 10),
                                "no_balls": (26, 10), "byes": (36, 8), "fallen": (44, 4),
                                "balls": (48, 4)}


def small_table() -> tuple[m.CompiledSet, fast.SideTable]:
    raw = example_card_set("T20", rng=np.random.default_rng(9))
    cs = compile_card_set(as_model(raw))
    captain = Captain(cs, example_lineups(raw), example_bowling(raw), np.random.default_rng(9))
    return cs, fast.SideTable.build(cs, [captain.usual_side(t["name"]) for t in raw["teams"]])


def test_numpy_path_when_forced_or_when_numba_cannot_load(kernel, monkeypatch):
    """CARDGEN_ENGINE=numpy plays without the kernel; a numba that cannot be imported (or
    compile) leaves the numpy path, silently, with the same matches."""
    monkeypatch.setenv(fast.ENGINE_VARIABLE, "numpy")
    assert fast.compiled_engine() is None
    monkeypatch.setenv(fast.ENGINE_VARIABLE, "numba")
    with running_with(RunOptions(engine="numpy")):  # a command's own choice comes first
        assert fast.compiled_engine() is None
    assert fast.compiled_engine() is kernel
    cs, table = small_table()
    home, away = np.zeros(300, int), np.ones(300, int)
    compiled = fast.play_matches(cs, table, home, away, np.random.default_rng(4))
    import cardgen.sim
    fast._load_kernel.cache_clear()
    monkeypatch.delattr(cardgen.sim, "fast_compiled")
    monkeypatch.delitem(sys.modules, "cardgen.sim.fast_compiled")
    monkeypatch.setitem(sys.modules, "numba", None)          # import numba -> ImportError
    try:
        assert fast.compiled_engine() is None
        assert_same_matches(fast.play_matches(cs, table, home, away, np.random.default_rng(4)),
                            compiled)
    finally:
        fast._load_kernel.cache_clear()  # the next test loads the real kernel again


def test_compiled_once_the_process_has_played_enough(kernel, monkeypatch):
    """Unset, CARDGEN_ENGINE plays numpy until COMPILE_AFTER_DELIVERIES, then compiled (the
    same matches either way)."""
    monkeypatch.delenv(fast.ENGINE_VARIABLE, raising=False)
    monkeypatch.setattr(fast.WARMUP, "numpy_deliveries", 0)
    monkeypatch.setattr(fast, "COMPILE_AFTER_DELIVERIES", 10**12)
    steps = []
    play_innings = kernel.play_innings
    monkeypatch.setattr(kernel, "play_innings",
                        lambda *args: steps.append(1) or play_innings(*args))
    cs, table = small_table()
    home, away = np.zeros(100, int), np.ones(100, int)
    first = fast.play_matches(cs, table, home, away, np.random.default_rng(6))
    assert not steps and fast.WARMUP.numpy_deliveries == first.deliveries
    monkeypatch.setattr(fast, "COMPILE_AFTER_DELIVERIES", first.deliveries)   # reached
    second = fast.play_matches(cs, table, home, away, np.random.default_rng(6))
    assert steps and fast.WARMUP.numpy_deliveries == first.deliveries
    assert_same_matches(first, second)


def test_numba_is_imported_only_to_play():
    """Importing the engine (and so `cardgen --help`) does not import numba."""
    code = ("import sys, cardgen.cli, cardgen.sim.fast, cardgen.sim.season; "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_compiled_lanes_without_their_sides_tables(kernel):
    """Lanes built by hand (no sides' tables: each lane its own side) and a subset of lanes
    play the innings that SideTable's lanes play."""
    import dataclasses
    raw = example_card_set("100-ball", rng=np.random.default_rng(13), teams=("A", "B", "C"))
    cs = compile_card_set(as_model(raw))
    captain = Captain(cs, example_lineups(raw), example_bowling(raw), np.random.default_rng(13))
    table = fast.SideTable.build(cs, [captain.usual_side(t["name"]) for t in raw["teams"]])
    batting = np.random.default_rng(14).integers(0, 3, 900)
    lanes = table.lanes(batting, (batting + 1) % 3, np.zeros(900, int), np.full(900, 150))
    with_sides = fast.play_innings_batch(cs, lanes, np.random.default_rng(15), rule=wih.RULE)
    by_hand = fast.play_innings_batch(cs, dataclasses.replace(lanes, sides=None),
                                      np.random.default_rng(15), rule=wih.RULE)
    for field, value in vars(with_sides).items():
        assert np.array_equal(value, getattr(by_hand, field)), field
    rows = np.arange(0, 900, 3)
    part = fast.play_innings_batch(cs, lanes.subset(rows), np.random.default_rng(15))
    alone = fast.play_innings_batch(cs, dataclasses.replace(lanes.subset(rows), sides=None),
                                    np.random.default_rng(15))
    assert np.array_equal(part.runs, alone.runs) and np.array_equal(part.bat_runs, alone.bat_runs)


class DrawCounter:
    """A stand-in for a Generator (as benchmarks/bench_sim.py records draws): numpy's own
    integers and random, counted."""

    def __init__(self, seed: int) -> None:
        self.rng, self.calls = np.random.default_rng(seed), 0

    def integers(self, *args):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.rng.integers(*args)

    def random(self, *args):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.rng.random(*args)


def test_compiled_draws_are_numpys_draws(kernel, monkeypatch):
    """Given a Generator the compiled path draws inside numba (numba's Generator); given a
    stand-in it calls numpy's methods step by step: the same matches, and the Generator ends
    in the same state (so the next batch's dice are the same too)."""
    monkeypatch.setenv(fast.ENGINE_VARIABLE, "numba")
    cs, table = small_table()
    home, away = np.zeros(400, int), np.ones(400, int)
    inside = np.random.default_rng(8)
    compiled = fast.play_matches(cs, table, home, away, inside, rule=wih.RULE)
    counter = DrawCounter(8)
    stepped = fast.play_matches(cs, table, home, away, counter, rule=wih.RULE)  # type: ignore[arg-type]
    assert counter.calls > 7 * 100                  # (seven dice a step, 100+ steps an innings)
    assert_same_matches(compiled, stepped)
    assert inside.integers(0, 2**62) == counter.rng.integers(0, 2**62)
