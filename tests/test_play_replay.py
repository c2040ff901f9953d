"""`cardgen replay`: a match file saved by play.html, played again by the Python reference engine.

The match files here are written by the page's own engine under Node (tests/js/
play_match_file.js: the same `Match.toFile` the page's "Save match file" calls); the browser
test saves one from the page itself (tests/test_play_page.py). The scorecard replay prints is
compared with the reference engine's, worked out here from the seed alone; damaged files and
hand-edited card sets give one line that says what to do, never a traceback or a bug report.
"""
from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any
from collections.abc import Callable

import numpy as np
import pytest
from click.testing import CliRunner

from cardgen.calibrate.cardset import write_card_set
from cardgen.cardset import load_card_set
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.play.match import play_page_match
from cardgen.play.matchfile import card_set_fingerprint, parse_match
from cardgen.play.prng import CAPTAIN_STREAM, DICE_STREAM, SharedRandom
from cardgen.play.replay import replay
from cardgen.rule_sets import rules_of_set
from cardgen.play.scorecard import scorecard
from cardgen.play.sides import draw_plan, page_side, usual_xi
from cardgen.sim.model import compile_card_set
from cardgen.wickets_in_hand import rule_of_set
from test_play_engine import node_binary, shipped
from conftest import as_model

HARNESS = Path(__file__).parent / "js" / "play_match_file.js"


class ListThenSeed:
    """An IntegerSource: dice typed on the page first (in the order asked), then the seed's."""

    def __init__(self, typed: list[int], seed: int) -> None:
        self.typed = list(typed)
        self.rng = SharedRandom(seed, DICE_STREAM)

    def integers(self, low: int, high: int) -> int:
        if self.typed:
            value = self.typed.pop(0)
            assert low <= value < high, (value, low, high)
            return value
        return self.rng.integers(low, high)


def reference_scorecard(card_set: dict, teams: list[dict], batting_first: int, seed: int,
                        chosen_rows: dict[int, list[int]] | None = None, typed: list[int] = ()) -> str:
    """The scorecard the reference engine plays for a page match: the computer's plan drawn from
    the seed's captain stream for each innings (as the page draws it, whoever captains), the
    overs a player chose where given (bowler-card rows per unit of innings 0 / 1), and the seed's
    dice after any typed ones."""
    cs = compile_card_set(as_model(card_set))
    sides = [page_side(cs, t["name"], t["xi"], t["keeper"]) for t in teams]
    captain = SharedRandom(seed, CAPTAIN_STREAM)
    chosen_rows = chosen_rows or {}

    def plan_for(innings: int, side) -> list[int]:
        plan = draw_plan(cs, side, captain)
        return chosen_rows.get(innings, plan)

    first, second = sides[batting_first], sides[1 - batting_first]
    rules = rules_of_set(card_set)
    match = play_page_match(cs, first, second, ListThenSeed(list(typed), seed), plan_for,
                            rule_of_set(card_set) if rules == "advanced" else None)
    return scorecard(cs, as_model(card_set), rules, match, first, second).text()


# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    """OUT with BBL 2024-25's kit (as built today: its card-set.json), and The Hundred 2024's
    printed-rules set in a folder of its own: name -> (card-set.json, the set as replay reads it)."""
    out = tmp_path_factory.mktemp("replay-out")
    sets = {"bbl": (shipped("BBL_2024-25", "wickets-in-hand"), out),
            "hundred": (shipped("HUNDRED_2024", "classic"), tmp_path_factory.mktemp("hundred"))}
    found = {}
    for name, (card_set, folder) in sets.items():
        path = write_card_set(card_set, folder)   # folder/<CODE>_<season>/card-set.json
        found[name] = (path, load_card_set(path).to_json())
    return found


def page_matches(card_set: dict, specs: list[dict]) -> list[dict]:
    """The page engine's match files and scorecards for these matches (Node)."""
    job = json.dumps({"card_set": card_set, "fingerprint": card_set_fingerprint(card_set), "matches": specs})
    proc = subprocess.run([node_binary(), str(HARNESS)], input=job, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines() if line]


def specs_for(card_set: dict, n: int, rng: np.random.Generator) -> list[dict]:
    cs = compile_card_set(as_model(card_set))
    names = [t["name"] for t in card_set["teams"]]
    specs = []
    for _ in range(n):
        pair = [str(t) for t in rng.choice(names, 2, replace=False)]
        teams = []
        for team in pair:
            xi, keeper = usual_xi(cs, team)
            teams.append({"name": team, "xi": xi, "keeper": keeper, "captain": "computer"})
        specs.append({"seed": int(rng.integers(0, 2**32)), "teams": teams, "batting_first": int(rng.integers(2))})
    return specs


@pytest.fixture(scope="module")
def bbl_file(kits, tmp_path_factory) -> tuple[Path, dict, str]:
    """One BBL match file as the page saves it: (path, document, the page's scorecard)."""
    _, card_set = kits["bbl"]
    made = page_matches(card_set, specs_for(card_set, 1, np.random.default_rng(11)))[0]
    path = tmp_path_factory.mktemp("match") / "match.json"
    path.write_text(json.dumps(made["file"], indent=1))
    return path, made["file"], made["text"]


def run_replay(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["replay", *args])
    return result.exit_code, result.output


# ---------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_replay_prints_the_reference_engines_scorecard(kits, tmp_path: Path):
    """Both formats and rule sets: the kit found in OUT by the file's competition, season and
    rules (BBL), or the card set given with --cards (a kit folder or its card-set.json); what
    replay prints is the reference engine's scorecard from the seed, and the page's."""
    rng = np.random.default_rng(4)
    for name in ("bbl", "hundred"):
        path, card_set = kits[name]
        specs = specs_for(card_set, 6, rng)
        for k, (spec, made) in enumerate(zip(specs, page_matches(card_set, specs))):
            expected = reference_scorecard(card_set, spec["teams"], spec["batting_first"], spec["seed"])
            assert made["text"] == expected, (name, spec["seed"])
            file = tmp_path / f"{name}-{k}.json"
            file.write_text(json.dumps(made["file"]))
            args = ["--out", str(path.parent.parent)] if name == "bbl" else \
                ["--cards", str(path.parent if k % 2 else path)]
            code, printed = run_replay(str(file), *args)
            assert code == 0, printed
            assert printed == expected
    assert "(100-ball, Quicket rules)" in expected
    assert expected.count(" innings\n") == 2 and "Fall of wickets" in expected


def edit(doc: dict, change: Callable[[dict], Any]) -> dict:
    changed = copy.deepcopy(doc)
    change(changed)
    return changed


def _set(path: list, value: Any) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _other_die(doc: dict) -> None:
    die = doc["innings"][0]["balls"][7]["dice"][1]   # the 2d10 of ball 8
    die[1] = die[1] % 100 + 1


def _typed_die(doc: dict) -> None:   # typed dice (not the seed's) that the cards do not need
    ball = doc["innings"][1]["balls"][0]
    ball["rolled"] = False
    ball["dice"] = ball["dice"] + [["d20", 4]]


DAMAGED = {
    "not JSON": ("cut", "is not a usable match file: not readable JSON"),
    "another kind of file": (_set(["kind"], "card-set"), "it is not a Quicket match file"),
    "a newer version": (_set(["version"], 2), "version 2 (this cardgen reads version 1)"),
    "no seed": (_set(["seed"], "x"), "seed 'x'"),
    "one team": (lambda d: d["teams"].pop(), "it needs two teams"),
    "a die out of range": (_set(["innings", 0, "balls", 3, "dice", 0], ["d6", 9]), "is not a d6, 2d10, d20"),
    "a roll the seed did not roll": (_other_die, "says the seed rolled it, but seed"),
    "typed dice the cards do not use": (_typed_die, "has dice the card set does not use there"),
    "a ball left out": (lambda d: d["innings"][1]["balls"].pop(), "the match goes on after its last ball"),
    "a ball too many": (lambda d: d["innings"][1]["balls"].append(d["innings"][1]["balls"][-1]),
                        "the match ends after ball"),
    "a bowler changed mid-over": (lambda d: d["innings"][0]["balls"][2].update(
        bowler=d["innings"][0]["balls"][9]["bowler"]), "the bowler changes in the middle of an over"),
    "a bowler not in the XI": (_set(["innings", 0, "balls", 0, "bowler"], "nobody"), "is not a bowler of"),
    "a score edited": (_set(["innings", 0, "balls", 5, "score"], "99/0"), "says 99/0, but these cards make it"),
    "a player not in the set": (_set(["teams", 0, "xi", 3], "nobody"), "player nobody has no card for"),
    "another season": (_set(["card_set", "season"], "2023-24"), "was played with the BBL 2023-24 cards"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_match_file_is_one_line(bbl_file, kits, tmp_path: Path, damage: str):
    path, doc, _ = bbl_file
    change, words = DAMAGED[damage]
    damaged = tmp_path / "damaged.json"
    if change == "cut":
        damaged.write_text(path.read_text()[:4000])
    else:
        damaged.write_text(json.dumps(edit(doc, change)))
    code, printed = run_replay(str(damaged), "--cards", str(kits["bbl"][0]))
    assert code == 2, printed
    assert printed.count("\n") == 1 and printed.startswith("Error: ") and "Traceback" not in printed, printed
    assert words in printed, printed


def test_a_hand_edited_card_set_is_one_line(bbl_file, kits, tmp_path: Path):
    path, _, _ = bbl_file
    good = json.loads(kits["bbl"][0].read_text())
    cases = {
        "overlap": (lambda d: d["cards"][0]["chart"][0].update(hi=d["cards"][0]["chart"][0]["hi"] + 1),
                    "overlaps another"),
        "one result changed": (lambda d: d["cards"][5]["chart"][-1].update(result="0"),
                               "was played with other BBL 2024-25 cards than these"),
        "unknown result": (lambda d: d["cards"][0]["chart"][0].update(result="Z"), "is not a valid card set"),
        "another season's set": (lambda d: d.update(season="2023-24"), "not BBL 2023-24"),
    }
    for name, (change, words) in cases.items():
        edited = tmp_path / f"{name}.json"
        edited.write_text(json.dumps(edit(good, change)))
        code, printed = run_replay(str(path), "--cards", str(edited))
        assert code == 2 and printed.count("\n") == 1 and printed.startswith("Error: "), (name, printed)
        assert words in printed, (name, printed)
    cut = tmp_path / "cut.json"
    cut.write_text(kits["bbl"][0].read_text()[:5000])
    code, printed = run_replay(str(path), "--cards", str(cut))
    assert code == 2 and "is not a readable card set" in printed and printed.count("\n") == 1
    # no kit for the match in OUT, a missing file, a folder
    code, printed = run_replay(str(path), "--out", str(tmp_path / "empty"))
    assert code == 2 and "no BBL 2024-25 kit for the advanced rules in" in printed, printed
    code, printed = run_replay(str(tmp_path / "missing.json"), "--cards", str(kits["bbl"][0]))
    assert code == 2 and printed == f"Error: no match file at {tmp_path / 'missing.json'}\n"
    code, printed = run_replay(str(tmp_path), "--cards", str(kits["bbl"][0]))
    assert code == 2 and "is a folder" in printed


@pytest.mark.slow
def test_any_damage_is_an_error_the_reader_names(bbl_file, kits):
    """400 random edits of a match file (a value swapped for another of any type, a key dropped,
    a list cut): each is read and replayed, and either plays (an edit that changes nothing the
    engine reads) or is refused with cardgen's own error, never anything else."""
    _, doc, _ = bbl_file
    _, card_set = kits["bbl"]
    rng = np.random.default_rng(8)
    values: list[Any] = [None, True, 0, -1, 7, 2**40, 1.5, "", "x", [], {}, ["d6"], ["pick", 3, 11], ["d20", 0]]
    refused = 0
    for _ in range(400):
        changed = copy.deepcopy(doc)
        containers: list[Any] = []

        def walk(node: Any, containers: list[Any] = containers) -> None:
            if isinstance(node, (dict, list)):
                containers.append(node)
                for child in (node.values() if isinstance(node, dict) else node):
                    walk(child)
        walk(changed)
        node = containers[int(rng.integers(len(containers)))]
        keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            continue
        key = keys[int(rng.integers(len(keys)))]
        action = int(rng.integers(3))
        if action == 0:
            node[key] = copy.deepcopy(values[int(rng.integers(len(values)))])
        elif action == 1:
            del node[key]
        elif isinstance(node, list):
            del node[key:]
        else:
            node[key] = copy.deepcopy(values[int(rng.integers(len(values)))])
        try:
            replay(as_model(card_set), parse_match(changed, "the file"), "the file")
        except CardgenError as exc:
            refused += 1
            assert "\n" not in str(exc)
    assert refused > 200   # most edits break the file; the rest change nothing replay reads
