"""The browser's engine plays exactly what the Python reference engine plays.

Both engines draw every die from one stream of integers in the same order (the reference
engine's `Dice`), here the page's shared generator (`cardgen.play.prng`, `static/engine.js`)
from the same seed. 2,200 whole matches are played by the JavaScript engine under Node (tests/js/
play_agreement.js) and by `cardgen.play.match.play_page_match`, and every ball is compared:
result, batter, bowler, runs, extras, dismissal, fielders, score and wickets after it. The matches
cover T20 and 100-ball, both rule sets, the real card sets and stress sets made for ties (super
overs, tied super overs) and for the fielding chart (free hits, run outs, chances); each side is
captained by the computer (the simulator's plan, drawn by both) or by a "chooser" that picks a
random allowed bowler each over, as a player does.
"""
from __future__ import annotations

import copy
import gzip
import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardgen.calibrate.model import chart_document
from cardgen.calibrate.reuse import FOLDER
from cardgen.errors import CardSetError
from cardgen.paths import bundled_tables_dir
from cardgen.play.match import play_page_match
from cardgen.play.prng import CAPTAIN_STREAM, DICE_STREAM, SharedRandom
from cardgen.play.sides import draw_plan, page_side, usual_xi, xi_problem
from cardgen.rule_sets import rules_of_set
from cardgen.sim.captain import check_plan
from cardgen.sim.example import example_fielding_chart
from cardgen.sim.model import compile_card_set
from cardgen.wickets_in_hand import rule_of_set
from conftest import as_model

pytestmark = pytest.mark.slow

NO_BOWLER = 10**9  # a bowler-card row no set has
HARNESS = Path(__file__).parent / "js" / "play_agreement.js"
STATIC = Path(__file__).resolve().parent.parent / "cardgen" / "play" / "static"


def node_binary() -> str:
    """Debian's nodejs (./test.sh installs it): a missing node fails, it never skips."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.fail("node is not installed: ./test.sh installs Debian's nodejs (apt-get install nodejs)",
                    pytrace=False)
    return node


def shipped(name: str, rule: str) -> dict[str, Any]:
    for path in sorted((bundled_tables_dir() / FOLDER).glob(f"{name}-*.json.gz")):
        card_set = json.loads(gzip.decompress(path.read_bytes()))
        if card_set.get("rule") == rule:
            return card_set
    raise AssertionError(f"no shipped {name} set with rule {rule}")


def low_scoring(card_set: dict[str, Any]) -> dict[str, Any]:
    """Every card mostly dots: low totals, so ties, super overs and tied super overs are common."""
    out = copy.deepcopy(card_set)
    for card in out["cards"]:
        ranges = ([(1, 3, "B"), (4, 12, "W"), (13, 17, "F"), (18, 96, "0"), (97, 100, "1")]
                  if card["kind"] == "bowler" else [(1, 8, "W"), (9, 13, "F"), (14, 97, "0"), (98, 100, "1")])
        card["chart"] = [{"lo": lo, "hi": hi, "result": r} for lo, hi, r in ranges]
    return out


def with_chase_line(card_set: dict[str, Any]) -> dict[str, Any]:
    """The set's rule with tests/test_chase_line.py's chase line (every band in some cell)."""
    from tests.test_chase_line import LINE
    out = copy.deepcopy(card_set)
    out["rule_parameters"] = {**out["rule_parameters"], "chase_line": LINE.describe()}
    return out


def fielding_heavy(card_set: dict[str, Any]) -> dict[str, Any]:
    """A third of every card an F on a chart holding every result: no-balls and free hits, run
    outs of both batters with and without the keeper, catch and stumping chances, four byes."""
    out = copy.deepcopy(card_set)
    out["fielding_chart"] = chart_document(example_fielding_chart())
    for card in out["cards"]:
        kept = [dict(c) for c in card["chart"] if c["hi"] > 33]
        for c in kept:
            c["lo"] = max(c["lo"], 34)
        card["chart"] = [{"lo": 1, "hi": 33, "result": "F"}] + kept
    return out


CARD_SETS = {  # name: (card set, matches)
    "bbl-quicket": (lambda: shipped("BBL_2024-25", "classic"), 300),
    "bbl-advanced": (lambda: shipped("BBL_2024-25", "wickets-in-hand"), 300),
    "hundred-quicket": (lambda: shipped("HUNDRED_2024", "classic"), 300),
    "hundred-advanced": (lambda: shipped("HUNDRED_2024", "wickets-in-hand"), 300),
    "ipl-advanced": (lambda: shipped("IPL_2025", "wickets-in-hand"), 200),
    "ties-t20-quicket": (lambda: low_scoring(shipped("BBL_2024-25", "classic")), 200),
    "ties-hundred-advanced": (lambda: low_scoring(shipped("HUNDRED_2024", "wickets-in-hand")), 200),
    "fielding-t20-advanced": (lambda: fielding_heavy(shipped("BBL_2024-25", "wickets-in-hand")), 200),
    "fielding-hundred-quicket": (lambda: fielding_heavy(shipped("HUNDRED_2024", "classic")), 200),
    "chase-line-t20-advanced": (lambda: with_chase_line(shipped("BBL_2024-25", "wickets-in-hand")), 200),
}


def match_specs(name: str, card_set: dict[str, Any], n: int, rng: np.random.Generator) -> list[dict]:
    """n matches between random teams of the set: usual XIs, some with a reserve in (a batter
    with no striker card of his own bats with the stand-in card, R9), some with no keeper named
    (the best keeping rating keeps); computer or chooser captains; either side batting first."""
    cs = compile_card_set(as_model(card_set))
    teams = [t["name"] for t in card_set["teams"]]
    specs = []
    for _k in range(n):
        pair = [str(t) for t in rng.choice(teams, 2, replace=False)]
        sides = []
        for team in pair:
            xi, keeper = usual_xi(cs, team)
            reserves = [str(x) for x in cs.teams[team].reserves if (str(x), team) in cs.player_of]
            if reserves and rng.random() < 0.3:
                changed = list(xi)
                changed[int(rng.integers(1, 11))] = reserves[int(rng.integers(len(reserves)))]
                if not xi_problem(cs, team, changed):
                    xi = changed
            if keeper not in xi or rng.random() < 0.1:
                keeper = None
            sides.append({"name": team, "xi": xi, "keeper": keeper,
                          "captain": "chooser" if rng.random() < 0.35 else "computer"})
        specs.append({"set": name, "seed": int(rng.integers(0, 2**32)), "teams": sides,
                      "batting_first": int(rng.integers(2))})
    return specs


def reference_rows(cs, card_set: dict, spec: dict, js: dict) -> dict:
    """The same match by the Python reference engine (the chooser's overs as the JS chose them)."""
    sides = [page_side(cs, t["name"], t["xi"], t["keeper"]) for t in spec["teams"]]
    first = spec["batting_first"]
    captain = SharedRandom(spec["seed"], CAPTAIN_STREAM)

    def plan_for(innings: int, side) -> list[int]:
        plan = draw_plan(cs, side, captain)   # drawn for every innings, as the page does
        index = sides.index(side)
        if spec["teams"][index]["captain"] == "chooser":
            # the overs the JS chooser picked; past them (the engines disagree on how long the
            # innings lasts) the innings cannot go on, which the comparison reports
            plan = js["innings"][innings]["units"] + [NO_BOWLER] * len(plan)
        return plan

    try:
        match = play_page_match(cs, sides[first], sides[1 - first], SharedRandom(spec["seed"], DICE_STREAM),
                                plan_for, rule_of_set(card_set))
    except IndexError:  # NO_BOWLER: more overs than the JS innings had
        return {"winner": "(Python played on past the JS innings)", "innings": []}
    innings = [match.first, match.second] + [inn for pair in match.super_overs for inn in pair]
    rows = []
    for inn in innings:
        runs = wickets = 0
        balls = []
        for b in inn.balls:
            runs += b.bat_runs + b.extras
            wickets += b.out_slot is not None
            balls.append([b.legal_no, b.bowler, b.striker, b.card, b.result, b.bat_runs, b.extras,
                          b.extra_kind, b.free_hit, b.band, b.out_slot, b.how_out, list(b.fielders),
                          runs, wickets])
        rows.append({"units": list(inn.unit_bowler), "balls": balls})
    return {"winner": match.winner, "innings": rows}


@pytest.fixture(scope="module")
def played() -> list[tuple[str, dict, dict, dict]]:
    """(set name, spec, JS match, Python match) for every match."""
    rng = np.random.default_rng(37)
    sets = {name: make() for name, (make, _) in CARD_SETS.items()}
    specs = [spec for name, (_, n) in CARD_SETS.items() for spec in match_specs(name, sets[name], n, rng)]
    job = json.dumps({"card_sets": sets, "matches": specs})
    proc = subprocess.run([node_binary(), str(HARNESS)], input=job, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    js_matches = [json.loads(line) for line in proc.stdout.splitlines() if line]
    assert len(js_matches) == len(specs)
    compiled = {name: compile_card_set(as_model(card_set)) for name, card_set in sets.items()}
    return [(spec["set"], spec, js, reference_rows(compiled[spec["set"]], sets[spec["set"]], spec, js))
            for spec, js in zip(specs, js_matches)]


def test_every_ball_of_2200_matches_is_the_same(played):
    assert len(played) >= 2000
    for name, spec, js, py in played:
        where = f"{name} seed {spec['seed']}"
        for k, (a, b) in enumerate(zip(js["innings"], py["innings"])):
            for n, (x, y) in enumerate(zip(a["balls"], b["balls"])):
                assert x == y, f"{where} innings {k + 1} ball {n + 1}: JS {x} != Python {y}"
            assert len(a["balls"]) == len(b["balls"]), f"{where} innings {k + 1}"
            assert a["units"] == b["units"], f"{where} innings {k + 1}: bowlers"
        assert len(js["innings"]) == len(py["innings"]), where
        assert js["winner"] == py["winner"], where


def chase_cells_seen(innings: list[dict]) -> Counter[str]:
    """The chase line's cells (row: runs needed a ball, column: wickets in hand) the chase's
    balls were bowled in, from each ball's score after it (JS rows: legal no, ..., runs, wickets)."""
    from tests.test_chase_line import LINE
    target = (innings[0]["balls"][-1][13] if innings[0]["balls"] else 0) + 1
    seen: Counter[str] = Counter()
    runs = wickets = legal = 0
    for ball in innings[1]["balls"]:
        need, left = target - runs, 120 - legal
        row = sum(need > edge * left for edge in LINE.rate_edges)
        col = int(LINE.column_of_down()[wickets])
        seen[f"chase cell {row}{col}"] += 1
        legal, runs, wickets = ball[0], ball[13], ball[14]
    return seen


def test_the_matches_cover_every_rule(played):
    """What the agreement above covers: both formats and rule sets, ties and super overs (tied
    ones too, up to the five), free hits, run outs of either batter, chances, Defence saves,
    every band of R12, and the chooser's overs within the limits."""
    seen: Counter[str] = Counter()
    for name, spec, js, _py in played:
        seen[name] += 1
        seen["hundred" if "hundred" in name else "t20"] += 1
        seen["advanced" if "advanced" in name else "quicket"] += 1
        supers = len(js["innings"]) - 2
        seen["super over"] += supers > 0
        seen["tied super over"] += supers > 2
        seen["tie after five"] += js["winner"] is None
        for inn in js["innings"]:
            for ball in inn["balls"]:
                result, free_hit, band, out_slot, how_out, fielders = (ball[4], ball[8], ball[9], ball[10],
                                                                        ball[11], ball[12])
                seen["free hit"] += free_hit
                seen["free hit saved"] += "free hit: not out" in result
                seen["run out striker"] += how_out == "run out" and out_slot == ball[2]
                seen["run out non-striker"] += how_out == "run out" and out_slot != ball[2]
                seen["run out with keeper"] += how_out == "run out" and len(fielders) == 2
                seen["catch chance"] += result.startswith("catch_chance")
                seen["stumping"] += how_out == "stumped"
                seen["defence"] += "defence" in result
                seen[f"band {band}"] += 1
                seen["four byes"] += ball[6] == 4
        if name.startswith("chase-line") and len(js["innings"]) >= 2:
            seen.update(chase_cells_seen(js["innings"]))
        for _k, inn in enumerate(js["innings"][:2]):
            if spec["teams"][1 - inn["bat"]]["captain"] == "chooser":
                seen["chooser innings"] += 1
                units = inn["units"]
                fmt = "T20" if "hundred" not in name else "100-ball"
                from cardgen.sim.model import format_named
                full = format_named(fmt)
                if len(units) == full.units:
                    check_plan(units, full)
                    seen["chooser full innings"] += 1
    for need in ("t20", "hundred", "quicket", "advanced", "super over", "tied super over",
                 "free hit", "free hit saved", "run out striker", "run out non-striker",
                 "run out with keeper", "catch chance", "stumping", "defence", "band attack",
                 "band normal", "band consolidate", "band ", "four byes", "chooser full innings",
                 *(f"chase cell {r}{c}" for r in range(4) for c in range(3))):
        assert seen[need] > 0, (need, seen)
    assert seen["super over"] >= 30 and seen["tied super over"] >= 3, seen


def test_the_generator_is_the_same_in_both_languages():
    """The first draws of a few seeds and streams, every range the dice use, and the captain's
    floats: equal bit for bit in Node and Python."""
    script = (
        "globalThis.Quicket = {};"
        f"require('vm').runInThisContext(require('fs').readFileSync({json.dumps(str(STATIC / 'engine.js'))}, 'utf8'));"
        "const Q = globalThis.Quicket, out = [];"
        "for (const [seed, stream] of [[0, 0], [1, 0], [4294967295, 1], [123456789, 7]]) {"
        "  const r = new Q.SharedRandom(seed, stream), row = [];"
        "  for (const n of [6, 100, 20, 11, 10, 3, 1, 16, 4294967296]) row.push(r.integers(0, n));"
        "  row.push(r.random()); row.push(r.nextU32()); out.push(row); }"
        "console.log(JSON.stringify(out));")
    proc = subprocess.run([node_binary(), "-e", script], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    expected = []
    for seed, stream in ((0, 0), (1, 0), (4294967295, 1), (123456789, 7)):
        r = SharedRandom(seed, stream)
        row: list[Any] = [r.integers(0, n) for n in (6, 100, 20, 11, 10, 3, 1, 16, 4294967296)]
        row += [r.random(), r.next_u32()]
        expected.append(row)
    assert json.loads(proc.stdout) == expected
    # and not a constant: the four streams differ, and a d6's faces come out evenly
    assert len({tuple(row) for row in expected}) == 4
    r = SharedRandom(5)
    faces = Counter(r.integers(1, 7) for _ in range(60_000))
    # 10,000 expected per face; 4 standard deviations of a binomial (n 60,000, p 1/6) is 365
    assert all(abs(faces[f] - 10_000) < 365 for f in range(1, 7)), faces


def test_the_captains_plan_is_the_same_for_any_shares():
    """captain.QuotaDraw + order_plan against their port (static/captain.js) on 3,000 random
    share vectors: 5-11 bowlers (numpy sums 8 or more pairwise), zero shares, a dominant bowler
    over the cap, both formats, and the uniform draw near 0 and 1."""
    from cardgen.sim.captain import QuotaDraw, order_plan
    from cardgen.sim.model import HUNDRED, T20
    rng = np.random.default_rng(5)
    cases = []
    for k in range(3000):
        n = int(rng.integers(5, 12))
        weights = rng.dirichlet(np.full(n, float(rng.choice([0.3, 1.0, 5.0]))))
        if k % 5 == 0:
            weights[rng.integers(n)] = 0.0
        if k % 7 == 0:
            weights[0] += 3.0
        u = float([0.0, 1 - 2**-32, rng.random()][k % 3])
        cases.append({"weights": [float(w) for w in weights], "u": u, "fmt": "T20" if k % 2 else "100-ball"})

    class Fixed:
        def __init__(self, u: float) -> None:
            self.u = u

        def random(self) -> float:
            return self.u

    expected = [order_plan(QuotaDraw(np.array(c["weights"]), T20 if c["fmt"] == "T20" else HUNDRED)
                           .draw(Fixed(c["u"])), T20 if c["fmt"] == "T20" else HUNDRED) for c in cases]
    script = (
        "globalThis.Quicket = {}; const fs = require('fs'), vm = require('vm');"
        f"for (const f of ['engine.js', 'captain.js']) vm.runInThisContext(fs.readFileSync({json.dumps(str(STATIC))} + '/' + f, 'utf8'));"
        "const Q = globalThis.Quicket, cases = JSON.parse(fs.readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(cases.map(c => { const fmt = Q.FORMATS[c.fmt];"
        "  return Q.orderPlan(new Q.QuotaDraw(c.weights, fmt).draw({ random: () => c.u }), fmt); })));")
    proc = subprocess.run([node_binary(), "-e", script], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    for case, a, b in zip(cases, got, expected):
        assert a == list(b), case
    assert len({tuple(p) for p in expected}) > 1000   # the cases are not all one plan


def test_a_quicket_set_with_a_defence_rating_is_refused():
    """Defence (R13) is an advanced rule: the page's engine refuses a set made for the Quicket
    rules that carries a Defence rating (as cardgen.cardset.check_defence_belongs does), and plays
    the same cards once the set says "rules": "advanced" (the older "rule" field left out, which
    would otherwise contradict it)."""
    card_set = shipped("BBL_2024-25", "classic")
    striker = next(c for c in card_set["cards"] if c["kind"] == "striker")
    striker["defence"] = 5
    script = (
        "globalThis.Quicket = {}; const fs = require('fs');"
        f"require('vm').runInThisContext(fs.readFileSync({json.dumps(str(STATIC / 'engine.js'))}, 'utf8'));"
        "const Q = globalThis.Quicket, set = JSON.parse(fs.readFileSync(0, 'utf8')), out = [];"
        "delete set.rule; for (const rules of ['quicket', 'advanced']) { set.rules = rules;"
        "  try { const cs = Q.compileSet(set); out.push('ok ' + cs.rules); }"
        "  catch (e) { out.push((e instanceof Q.CardSetError ? 'refused ' : 'crashed ') + e.message); } }"
        "set.rule = 'classic';"   # and "rules" contradicting the older "rule": refused as Python does
        "try { Q.compileSet(set); out.push('ok'); } catch (e) { out.push(e.message); }"
        "console.log(JSON.stringify(out));")
    proc = subprocess.run([node_binary(), "-e", script], input=json.dumps(card_set), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    quicket, advanced, contradicted = json.loads(proc.stdout)
    assert quicket == (f"refused {striker['player']['name']}'s striker card has a Defence rating, which only "
                       "the advanced rules play, in a set made for the Quicket rules; remove it or make the "
                       'set "rules": "advanced"'), quicket
    assert advanced == "ok advanced", advanced
    with pytest.raises(CardSetError) as python:
        rules_of_set({**card_set, "rule": "classic", "rules": "advanced"})
    assert contradicted == str(python.value)


def test_every_chase_line_cell_is_the_same_in_both_languages():
    """The chase line (issue 41) on scripted dice, every cell, in Node and in the Python reference
    engine: `down` bowled balls, then the ball in the cell twice, a dot (attack's d20 3: a four)
    and a catch (consolidate's d20 1: kept on the ground); each ball's band, runs and dismissal
    equal, and the band the cell says. And the band itself on a grid of chase states."""
    from cardgen.sim.reference import Dice, play_innings
    from cardgen import wickets_in_hand as wih
    from tests.test_chase_line import cells
    from tests.test_sim_rules import ScriptedRng
    card_set = with_chase_line(low_scoring(shipped("BBL_2024-25", "wickets-in-hand")))
    cs = compile_card_set(as_model(card_set))
    rule = rule_of_set(card_set)
    assert rule is not None and rule.chase_line is not None
    teams = [t["name"] for t in card_set["teams"][:2]]
    sides = [(team, *usual_xi(cs, team)) for team in teams]
    # low_scoring's cards: the bowler's 1-3 bowled, the striker's 1-8 W and 14-97 a dot
    bowled, dot, catch = [["d6", 1], ["2d10", 1]], [["d6", 4], ["2d10", 50]], [["d6", 4], ["2d10", 1]]
    cases = []
    for _row, _col, down, need, expected in cells():
        attack, consolidate = expected == wih.ATTACK, expected == wih.CONSOLIDATE
        cases.append({"target": need, "balls": [bowled] * down + [dot + ([["d20", 3]] if attack else [])]})
        cases.append({"target": need, "balls": [bowled] * down + [
            catch + [["pick", 0, 11]] + ([["d20", 1]] if consolidate else [])]})
    grid = [[down, left, need] for down in range(10) for left in (1, 7, 30, 61, 100, 120)
            for need in (0, left, left + 1, 3 * left // 2, 2 * left, 2 * left + 1, 3 * left)]
    script = (
        "globalThis.Quicket = {}; const fs = require('fs'), vm = require('vm');"
        f"for (const n of ['engine.js', 'captain.js']) vm.runInThisContext(fs.readFileSync({json.dumps(str(STATIC))} + '/' + n, 'utf8'));"
        "const Q = globalThis.Quicket, job = JSON.parse(fs.readFileSync(0, 'utf8'));"
        "const cs = Q.compileSet(job.set), shares = Q.bowlingShares(cs);"
        "const [bat, bowl] = job.sides.map((s) => Q.makeSide(cs, s[0], s[1], s[2], shares));"
        "const played = job.cases.map((c) => {"
        "  const inn = new Q.Innings(cs, bat, bowl, { target: c.target, rule: cs.rule, maxBalls: c.balls.length });"
        "  return c.balls.map((dice) => { const d = new Q.ScriptedDice(dice);"
        "    const b = inn.bowl(bowl.bowlerCards[0], d);"
        "    if (d.at !== dice.length) throw new Error('dice left over');"
        "    return [b.band, b.batRuns, b.howOut]; }); });"
        "const bands = job.grid.map((g) => Q.BANDS[Q.wicketsInHandBand(cs.rule, g[0], g[1], cs.fmt.ballsPerInnings, g[2])]);"
        "console.log(JSON.stringify({ played: played, bands: bands }));")
    job = {"set": card_set, "sides": sides, "cases": cases, "grid": grid}
    proc = subprocess.run([node_binary(), "-e", script], input=json.dumps(job), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    js = json.loads(proc.stdout)
    bat, bowl = (page_side(cs, *side) for side in sides)
    plan = [bowl.bowler_cards[0]] * cs.fmt.units
    for k, case in enumerate(cases):
        rolls = [die[1] for ball in case["balls"] for die in ball]
        rng = ScriptedRng(rolls)
        inn = play_innings(cs, bat, bowl, Dice(rng), plan=plan, rule=rule, target=case["target"],
                           max_balls=len(case["balls"]))
        assert not rng.rolls
        py = [[b.band, b.bat_runs, b.how_out] for b in inn.balls]
        assert js["played"][k] == py, (case, js["played"][k], py)
        _row, _col, _down, _need, expected = cells()[k // 2]
        assert py[-1][0] == wih.BANDS[expected]
        assert py[-1][1] == (4 if k % 2 == 0 and expected == wih.ATTACK else 0)
        assert (py[-1][2] == "") == (k % 2 == 0 or expected == wih.CONSOLIDATE)
    assert js["bands"] == [wih.BANDS[rule.band(down, left, cs.fmt.balls_per_innings, need)]
                           for down, left, need in grid]
