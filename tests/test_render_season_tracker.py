"""The season tracker (render.season_tracker): real results read from the stats tables, checked
against Cricsheet's own outcome records, and the printed pages."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.competitions import get_competition
from cardgen.render.layout import MM, load_layout
from cardgen.render.preflight import check_pdf
from cardgen.render.season_tracker import (ALL_OUT, _fixture_table, _styles, fixtures_from_tables,
                                           real_ladder, render_season_tracker_pdf, replayed_no_results,
                                           result_text, short_sides_text)
from cardgen.stats.load import season_stats
from conftest import as_model

CREDIT = "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."
# every season of the mirror: (competition, season, its folder)
SEASONS = [("BBL", "2023-24", "bbl_2023-24"), ("BBL", "2024-25", "bbl_2024-25"),
           ("HUNDRED", "2024", "hundred_men_2024"), ("IPL", "2024", "ipl_2024"), ("IPL", "2025", "ipl_2025"),
           ("SMASH", "2024-25", "super_smash_men_2024-25"), ("PSL", "2021", "psl_2021"),
           ("WPL", "2023", "wpl_2023"), ("SMASH-W", "2022-23", "super_smash_women_2022-23")]


def _fixtures(mirror: Path, code: str, season: str, tmp_cache):
    stats = season_stats(get_competition(code), season, str(mirror), cache=tmp_cache)
    return stats, fixtures_from_tables(stats.matches, stats.innings)


@pytest.mark.needs_data
@pytest.mark.parametrize("code,season,folder", SEASONS)
def test_results_agree_with_cricsheets_outcome_records(mirror: Path, tmp_cache, code: str, season: str,
                                                       folder: str) -> None:
    """The margin is worked out from the scores; Cricsheet records it separately (info.outcome),
    so every printed result is checked against that record."""
    stats, fixtures = _fixtures(mirror, code, season, tmp_cache)
    assert len(fixtures) == len(stats.matches)
    league = stats.matches[stats.matches["stage"].fillna("") == ""]
    assert sorted(f.number for f in fixtures if f.league_match) == sorted(league["match_number"].astype(int))
    # only IPL 2025 played a no result again in full (SOURCES.md: 1473495, replayed as 1485779)
    replays = {k: v.match_id for k, v in replayed_no_results(fixtures).items()}
    assert replays == ({"1473495": "1485779"} if (code, season) == ("IPL", "2025") else {})
    assert all(f.number is None for f in fixtures if not f.league_match)
    assert [f.date for f in fixtures] == sorted(f.date for f in fixtures)
    for f in fixtures:
        record = json.loads((mirror / folder / f"{f.match_id}.json").read_text())
        outcome, text = record["info"]["outcome"], result_text(f)
        penalty = sum(sum(i.get("penalty_runs", {}).values()) for i in record["innings"])
        if outcome.get("result") == "no result":
            assert text == "No result", (f.match_id, text)
        elif outcome.get("result") == "tie":
            assert text.startswith("Tied"), (f.match_id, text)
            winner = outcome.get("eliminator") or outcome.get("winner")
            assert (winner is None) == (text == "Tied") and (winner is None or winner in text), (f.match_id, text)
        elif outcome.get("method") == "D/L":
            assert text == f"{outcome['winner']} won (DLS)", (f.match_id, text)
        elif "wickets" in outcome["by"]:
            n = outcome["by"]["wickets"]
            assert text == f"{outcome['winner']} won by {n} wicket{'s' if n != 1 else ''}", (f.match_id, text)
        else:  # by runs: the scores leave out penalty runs (BBL 2023-24: 5 to Perth Scorchers)
            n = outcome["by"]["runs"] - penalty
            assert text == f"{outcome['winner']} won by {n} run{'s' if n != 1 else ''}", (f.match_id, text)
        for inn in f.innings:
            assert 0 <= inn.wickets <= ALL_OUT and inn.balls > 0


def test_the_ladder_adds_up_and_leaves_the_finals_out(tmp_cache) -> None:
    """IPL 2025 (bundled tables): 70 league matches, then four play-offs; one tie (Delhi Capitals
    won its Super Over against Rajasthan Royals) and Cricsheet's no-results. Match 58 (Punjab
    Kings v Delhi Capitals, stopped after 10.1 overs) was played again in full as match 66 and the
    league's table counts only the replay: both sides finished on 14 games, Punjab Kings 9 won, 4
    lost, 1 no result and Delhi Capitals 7, 6, 1 (IPL 2025's final table)."""
    stats = season_stats(get_competition("IPL"), "2025", None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    league = [f for f in fixtures if f.league_match]
    assert len(league) == 70 and [f.stage for f in fixtures[70:]] == ["Qualifier 1", "Eliminator", "Qualifier 2",
                                                                       "Final"]
    ladder = real_ladder(fixtures, sorted({f.team1 for f in fixtures}))
    assert len(ladder) == 10 and sum(r.played for r in ladder) == 2 * (len(league) - 1)
    rows = {r.team: (r.played, r.won, r.lost, r.no_decision) for r in ladder}
    assert rows["Punjab Kings"] == (14, 9, 4, 1) and rows["Delhi Capitals"] == (14, 7, 6, 1)
    # the washout with no file (RCB v KKR, 17 May) leaves those two a game short, as the page says
    assert sorted(r.played for r in ladder) == [13, 13] + [14] * 8
    assert short_sides_text(ladder).startswith("Kolkata Knight Riders and Royal Challengers Bengaluru count one "
                                               "game fewer than the other sides: a league match between them")
    assert sum(r.won for r in ladder) == sum(r.lost for r in ladder)
    for row in ladder:
        assert row.won + row.lost + row.no_decision == row.played
        assert row.won == sum(f.winner == row.team for f in league)
    no_results = sum(f.result == "no result" for f in league)
    assert sum(r.no_decision for r in ladder) == 2 * (no_results - 1)
    tie = next(f for f in league if f.result == "tie")
    assert result_text(tie) == "Tied: Delhi Capitals won the Super Over"


@pytest.mark.slow
def test_the_pages_print_every_result_with_room_to_write(tmp_cache, pdf_words, tmp_path: Path) -> None:
    """Both papers: every fixture's result is on the pages, preflight finds nothing, the rows are
    at least the layout's height, and the same input gives the same bytes."""
    from conftest import _shipped_rule_set
    card_set = _shipped_rule_set("IPL_2025")
    stats = season_stats(get_competition("IPL"), "2025", None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    spec = load_layout("sheets")["season_tracker"]
    for paper in ("a4", "letter"):
        data = render_season_tracker_pdf(as_model(card_set), fixtures, paper, CREDIT)
        assert data == render_season_tracker_pdf(as_model(card_set), fixtures, paper, CREDIT)
        assert check_pdf(data, f"season-tracker-{paper}.pdf") == []
        assert 2 <= len(pdfium.PdfDocument(data)) <= 6
        path = tmp_path / f"tracker-{paper}.pdf"
        path.write_bytes(data)
        words = pdf_words(path)
        for f in fixtures:
            assert " ".join(result_text(f).split()) in words, result_text(f)
        assert "Indian Premier League 2025" in words and "Ladder" in words
        assert "No result, played again in full as match 66; the ladder counts that one" in words
        assert "Royal Challengers Bengaluru count one game fewer than the other sides" in words
    table = _fixture_table(fixtures, 6, spec, _styles(spec), 186.0)
    assert min(table._rowHeights[1:]) >= spec["fixture_row_mm"] * MM - 1e-6


def test_the_tracker_names_the_league_matches_the_data_lacks(tmp_cache, pdf_words, tmp_path: Path) -> None:
    """BBL 2024-25: league matches 21 and 27 were washed out without a ball and have no file
    (../shared/data/SOURCES.md), so two sides' ladder rows count 9 games, not 10; the page says
    which matches, as the build's coverage line does."""
    from conftest import _shipped_rule_set
    from cardgen.stats.load import coverage
    stats = season_stats(get_competition("BBL"), "2024-25", None, cache=tmp_cache)
    missing = tuple(coverage(stats.matches)["missing_match_numbers"])
    assert missing == (21, 27)
    assert not set(stats.matches["match_number"].dropna().astype(int)) & set(missing)
    path = tmp_path / "tracker.pdf"
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    path.write_bytes(render_season_tracker_pdf(as_model(_shipped_rule_set("BBL_2024-25")), fixtures, "a4", CREDIT, missing))
    assert "Not in the data: league matches 21, 27 (washed out before a ball" in pdf_words(path)
    assert "count one game fewer" not in pdf_words(path)  # the intro already says why
    assert sorted(r.played for r in real_ladder(fixtures, [])) == [9, 9, 9, 9, 10, 10, 10, 10]
    path.write_bytes(render_season_tracker_pdf(as_model(_shipped_rule_set("BBL_2024-25")), fixtures, "a4", CREDIT))
    assert "Not in the data" not in pdf_words(path)


def test_the_hundreds_tie_is_decided_by_a_super_five(tmp_cache, pdf_words, tmp_path: Path) -> None:
    """The Hundred breaks a tie with a Super Five (5 balls), not a Super Over: its 2024
    Eliminator (Southern Brave and Birmingham Phoenix, 126 each) printed "won the Super Over",
    and so did its ladder's note. A T20 season keeps the Super Over."""
    from conftest import _shipped_rule_set
    stats = season_stats(get_competition("HUNDRED"), "2024", None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    path = tmp_path / "tracker.pdf"
    path.write_bytes(render_season_tracker_pdf(as_model(_shipped_rule_set("HUNDRED_2024")), fixtures, "a4", CREDIT))
    words = pdf_words(path)
    assert "Tied: Southern Brave won the Super Five" in words
    assert "a tie counts for the side that won its Super Five" in words
    assert "Super Over" not in words
    ipl = season_stats(get_competition("IPL"), "2025", None, cache=tmp_cache)
    path.write_bytes(render_season_tracker_pdf(as_model(_shipped_rule_set("IPL_2025")),
                                               fixtures_from_tables(ipl.matches, ipl.innings), "a4", CREDIT))
    words = pdf_words(path)
    assert "Tied: Delhi Capitals won the Super Over" in words
    assert "a tie counts for the side that won its Super Over" in words and "Super Five" not in words


# the seasons whose tables and card sets are bundled (stats_cache/)
BUNDLED = [("BBL", "2023-24", "BBL_2023-24"), ("BBL", "2024-25", "BBL_2024-25"), ("HUNDRED", "2024", "HUNDRED_2024"),
           ("IPL", "2024", "IPL_2024"), ("IPL", "2025", "IPL_2025"), ("SMASH", "2024-25", "SMASH_2024-25")]


@pytest.mark.parametrize("code,season,key", BUNDLED)
def test_a_score_is_never_split_from_its_overs_or_balls(tmp_cache, code: str, season: str, key: str) -> None:
    """A long fixture row wraps before a score, not inside it: the Hundred 2024 Eliminator on A4
    ('... v Birmingham Phoenix 126/7' then '(100 b)' on a line of its own). Every bundled season,
    both papers: each innings' '126/7 (100 b)' or '147/6 (18.3)' is whole on one printed line."""
    from conftest import _shipped_rule_set
    from cardgen.render.season_tracker import score_text
    stats = season_stats(get_competition(code), season, None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    balls_per_over = 5 if code == "HUNDRED" else 6
    scores = Counter(score_text(inn, balls_per_over).replace("\u00a0", " ") for f in fixtures for inn in f.innings)
    for paper in ("a4", "letter"):
        data = render_season_tracker_pdf(as_model(_shipped_rule_set(key)), fixtures, paper, CREDIT)
        lines = [" ".join(line.replace("\u00a0", " ").split()) for page in pdfium.PdfDocument(data)
                 for line in page.get_textpage().get_text_range().splitlines()]
        for score, n in scores.items():  # each innings' score whole on one line
            found = sum(len(re.findall(rf"(?<![\d/]){re.escape(score)}", line)) for line in lines)
            assert found == n, (paper, score)
        assert not [line for line in lines if re.match(r"\(\d+(\.\d)?( b)?\)(\s|$)", line)], paper


def test_a_source_without_match_numbers_counts_the_league_matches_in_date_order(tmp_cache) -> None:
    """A user's own mirror may carry no match numbers: the league matches are then numbered 1..n
    in date order, the play-offs still unnumbered."""
    stats = season_stats(get_competition("BBL"), "2024-25", None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches.assign(match_number=float("nan")), stats.innings)
    league = [f for f in fixtures if f.league_match]
    assert [f.number for f in league] == list(range(1, 39))
    assert [f.stage for f in fixtures if f.number is None] == ["Qualifier", "Knockout", "Challenger", "Final"]


def test_a_credit_too_long_for_the_footer_is_printed_whole(tmp_cache, pdf_words, tmp_path: Path) -> None:
    """A custom attribution longer than the footer line holds (it would run off the page there)
    is printed whole under the ladder, as the team sheets and quick reference print it."""
    from conftest import _shipped_rule_set
    stats = season_stats(get_competition("HUNDRED"), "2024", None, cache=tmp_cache)
    fixtures = fixtures_from_tables(stats.matches, stats.innings)
    long_credit = "Data: " + "a credit a league's own data source asks for, " * 6
    for credit, whole in ((CREDIT, False), (long_credit, True)):
        data = render_season_tracker_pdf(as_model(_shipped_rule_set("HUNDRED_2024")), fixtures, "letter", credit)
        path = tmp_path / "tracker.pdf"
        path.write_bytes(data)
        pages = len(pdfium.PdfDocument(data))
        # in every page's footer; one the footer cannot hold is printed once under the ladder and
        # the footers point there (it ran off the paper's edges before)
        words = pdf_words(path)
        assert words.count(" ".join(credit.split())) == (1 if whole else pages), credit
        assert words.count("data credit in full at the end") == (pages if whole else 0)
        assert check_pdf(data, "season-tracker-letter.pdf") == []


def test_a_complete_season_says_nothing_of_short_sides(tmp_cache) -> None:
    """The Hundred 2024 is complete (SOURCES.md): every side played 8 league games, no line."""
    stats = season_stats(get_competition("HUNDRED"), "2024", None, cache=tmp_cache)
    ladder = real_ladder(fixtures_from_tables(stats.matches, stats.innings), [])
    assert [r.played for r in ladder] == [8] * 8 and short_sides_text(ladder) == ""
