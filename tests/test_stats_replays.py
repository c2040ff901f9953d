"""League no-results played again in full (stats.replays): read from the teams' game counts."""
from __future__ import annotations

from cardgen.stats.replays import replayed_no_results


def _round_robin(teams: list[str]) -> list[tuple[str, str, str, str]]:
    games = [(a, b) for i, a in enumerate(teams) for b in teams[i + 1:]]
    return [(f"m{k}", a, b, "win") for k, (a, b) in enumerate(games)]


def test_a_washout_that_stands_is_no_replay() -> None:
    league = _round_robin(["A", "B", "C", "D"])
    league[2] = (league[2][0], league[2][1], league[2][2], "no result")
    assert replayed_no_results(league) == {}          # every side still plays 3: nothing was replayed


def test_a_no_result_played_again_maps_to_its_replay() -> None:
    league = _round_robin(["A", "B", "C", "D", "E"])  # m0 is A v B
    league[0] = ("m0", "A", "B", "no result")
    league.append(("again", "B", "A", "win"))          # A and B now have 5 games, the others 4
    assert replayed_no_results(league) == {"m0": "again"}


def test_each_voided_match_has_its_own_replay() -> None:
    league = _round_robin(["A", "B", "C", "D", "E"])
    league[0] = ("m0", "A", "B", "no result")
    league += [("x", "A", "B", "no result"), ("y", "A", "B", "win")]
    # m0 and x were both played again? only one later full match: m0's replay is x (a no result
    # itself, later replayed as y), and x maps to y, never both to the same match
    replays = replayed_no_results(league)
    assert len(set(replays.values())) == len(replays) and replays["x"] == "y"


def test_no_league_matches() -> None:
    assert replayed_no_results([]) == {}
