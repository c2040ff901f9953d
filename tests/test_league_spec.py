"""The league file (league.spec): parsed at the edge into typed values; every problem one line
naming the file and the line."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.league.fixtures import round_robin
from cardgen.league.spec import LeagueFileError, code_of, parse_league, season_range

ROOT = Path(__file__).resolve().parent.parent
GOOD = """name = "Test league"
baseline = "BBL 2024-25"
cap = 30

[[team]]
name = "Mine"
players = [
  "BBL 2024-25: JR Philippe",
  "WPL 2023: EA Perry",
]

[[team]]
from = "IPL 2025: Mumbai Indians"
"""


def test_the_shipped_example_parses() -> None:
    path = ROOT / "examples" / "big-bash-all-stars.toml"
    spec = parse_league(path.read_text(encoding="utf-8"), str(path))
    assert spec.baseline.text == "BBL 2024-25" and spec.format == "T20"
    assert len(spec.teams) >= 4 and spec.cap is not None
    kinds = {t.whole_side[0].competition if t.whole_side else "players" for t in spec.teams}
    assert {"players", "IPL", "WPL", "HUNDRED"} <= kinds


def test_a_league_file_as_typed_values_with_each_line() -> None:
    spec = parse_league(GOOD, "my.toml")
    assert (spec.name, spec.code, spec.cap, spec.rounds) == ("Test league", "TEST-LEAGUE", 30.0, 2)
    mine, whole = spec.teams
    assert [p.text for p in mine.players] == ["BBL 2024-25: JR Philippe", "WPL 2023: EA Perry"]
    assert [p.line for p in mine.players] == [8, 9] and mine.line == 5
    assert whole.whole_side is not None and whole.whole_side[1] == "Mumbai Indians"
    assert whole.whole_side[0].line == 13


@pytest.mark.parametrize("text, line, words", [
    ('name = "x"\nbaseline = "BBL 2024-25"\n[[team]]\nname = "A"\nplayers = ["BBL 2024-25 JR Philippe"]\n',
     5, "name a player as \"SEASON: NAME\""),
    ('name = "x"\nbaseline = "BBL"\n[[team]]\nfrom = "IPL 2025: Mumbai Indians"\n', 2, "is not a season"),
    ('name = "x"\nbaseline = "BBL 2024-25"\ncolour = "red"\n[[team]]\nfrom = "IPL 2025: MI"\n', 3,
     "unknown key 'colour'"),
    ('name = "x"\nbaseline = "BBL 2024-25"\nformat = "ODI"\n[[team]]\nfrom = "IPL 2025: MI"\n', 3,
     "format 'ODI'"),
    ('name = "x"\nbaseline = "BBL 2024-25"\n[[team]]\nfrom = "IPL 2025: MI"\n[[team]]\nname = "B"\n'
     'players = ["BBL 2024-25: A"]\nplayres = 1\n', 8, "unknown key 'playres'"),
    ('name = "x"\nbaseline = "BBL 2024-25"\ncap = "lots"\n[[team]]\nfrom = "IPL 2025: MI"\n', 3, "cap is a number"),
    ('name = "x"\nbaseline = "BBL 2024-25"\n[draft]\nseasons = "BBL 2023-24..2022-23"\n', 4,
     "not a range of seasons"),
])
def test_a_bad_file_is_one_line_naming_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(LeagueFileError) as err:
        parse_league(text, "my.toml")
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"my.toml, line {line}: "), message
    assert words in message, message


def test_unreadable_toml_says_where_the_parser_stopped() -> None:
    with pytest.raises(LeagueFileError) as err:
        parse_league('name = "x"\nbaseline = "BBL 2024-25\n', "my.toml")
    message = str(err.value)
    assert "\n" not in message and message.startswith("my.toml, line 2: ") and "TOML" in message


def test_no_sides_and_no_baseline_are_refused() -> None:
    with pytest.raises(LeagueFileError, match="no sides"):
        parse_league('name = "x"\nbaseline = "BBL 2024-25"\n', "f")
    with pytest.raises(LeagueFileError, match="no baseline"):
        parse_league('name = "x"\n[[team]]\nfrom = "IPL 2025: MI"\n', "f")


def test_season_ranges_split_and_calendar_years() -> None:
    assert [r.season for r in season_range("BBL 2022-23..2024-25", 1, "f")] == ["2022-23", "2023-24", "2024-25"]
    assert [r.text for r in season_range("IPL 2023..IPL 2025", 1, "f")] == ["IPL 2023", "IPL 2024", "IPL 2025"]
    assert [r.text for r in season_range("WPL 2023", 1, "f")] == ["WPL 2023"]
    with pytest.raises(LeagueFileError, match="one competition"):
        season_range("IPL 2024..BBL 2025", 1, "f")


def test_a_kit_code_from_the_name() -> None:
    assert code_of("Big Bash all-stars") == "BIG-BASH-ALL"
    assert code_of("!!!") == "LEAGUE"


@pytest.mark.parametrize("n, rounds", [(4, 2), (5, 1), (6, 1), (7, 1), (8, 1), (8, 2), (9, 1), (12, 1), (2, 3)])
def test_a_round_robin_meets_every_pair_rounds_times_and_shares_batting_first(n: int, rounds: int) -> None:
    teams = [f"T{i}" for i in range(n)]
    games = round_robin(teams, rounds)
    pairs: dict[frozenset[str], int] = {}
    for a, b in games:
        assert a != b
        pairs[frozenset((a, b))] = pairs.get(frozenset((a, b)), 0) + 1
    assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {rounds}
    per_round = n // 2
    for r in range(0, len(games), per_round):   # each side at most once a round
        names = [t for g in games[r:r + per_round] for t in g]
        assert len(names) == len(set(names))
    first = {t: sum(a == t for a, _ in games) for t in teams}
    played = rounds * (n - 1)
    # batting first as even as a round robin allows: within one game of half
    assert all(abs(2 * k - played) <= 2 for k in first.values()), first


def test_baseline_mean_is_read_as_the_mean_of_the_seasons_used() -> None:
    spec = parse_league('name = "x"\nbaseline = "Mean"\n[[team]]\nfrom = "IPL 2025: MI"\n', "my.toml")
    assert spec.baseline is None and spec.baseline_text == "mean" and spec.baseline_line == 2
    # the draft's league file writes it back as it was
    season = parse_league('name = "x"\nbaseline = "BBL 2024-25"\n[[team]]\nfrom = "IPL 2025: MI"\n')
    assert season.baseline_text == "BBL 2024-25"


def test_a_draft_pool_joins_seasons_and_ranges_of_any_competitions() -> None:
    spec = parse_league('name = "x"\nbaseline = "BBL 2024-25"\n[draft]\n'
                        'seasons = "BBL 2023-24..2024-25, IPL 2025, BBL 2024-25"\n', "my.toml")
    assert spec.draft is not None
    assert [r.text for r in spec.draft.seasons] == ["BBL 2023-24", "BBL 2024-25", "IPL 2025"]
    with pytest.raises(LeagueFileError, match=r"^my.toml, line 4: .* has an empty season between commas"):
        parse_league('name = "x"\nbaseline = "BBL 2024-25"\n[draft]\nseasons = "BBL 2024-25,, IPL 2025"\n', "my.toml")


def test_mean_of_names_the_seasons_of_a_mean_and_goes_with_it_only() -> None:
    spec = parse_league('name = "x"\nbaseline = "mean"\nmean_of = ["BBL 2024-25", "IPL 2025"]\n'
                        '[[team]]\nfrom = "IPL 2025: MI"\n', "my.toml")
    assert [r.text for r in spec.mean_of] == ["BBL 2024-25", "IPL 2025"] and spec.mean_of[0].line == 3
    for text, words in (('baseline = "BBL 2024-25"\nmean_of = ["IPL 2025"]\n', 'mean_of goes with baseline = "mean"'),
                        ('baseline = "mean"\nmean_of = "IPL 2025"\n', "mean_of is a list of seasons")):
        with pytest.raises(LeagueFileError, match=f"^my.toml, line 3: {words}"):
            parse_league('name = "x"\n' + text + '[[team]]\nfrom = "IPL 2025: MI"\n', "my.toml")
