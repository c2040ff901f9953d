"""Roll & Play Cricket: rules with scripted dice, invariants over 10,000 games, team edition on
the real BBL 2024-25 season, the kit build and its determinism."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardgen.competitions import get_competition
from cardgen.games import get_game
from cardgen.games.base import INNINGS_COLUMNS, BuildRequest, SimContext
from cardgen.games.roll_and_play.draws import RandomDraws, ScriptedDraws
from cardgen.games.roll_and_play.engine import (
    ChanceCard,
    Pile,
    PlayerCard,
    RollAndPlayInnings,
    batter_answer,
    bowler_answer,
    chance_deck,
    classic_innings,
    classic_player_deck,
)
from cardgen.games.roll_and_play.team import team_decks

SYSTEM = get_game("roll-and-play")


def card(title: str) -> ChanceCard:
    return next(c for c in chance_deck() if c.title == title)


def innings(faces: list[int], bat: list[int], bowl: list[int], pitches: list[int],
            chances: list[ChanceCard] | None = None, overs: int = 20) -> RollAndPlayInnings:
    """An innings with scripted dice, hands in the order given and decks in the order given."""
    draws = ScriptedDraws(faces)
    deck = Pile(classic_player_deck(), draws)
    hands = ([PlayerCard(v, v) for v in bat], [PlayerCard(v, v) for v in bowl])
    return RollAndPlayInnings(draws, overs, deck, deck, Pile(pitches, draws),
                              Pile(chances or chance_deck(), draws), hands=hands)


# --- the laws, with scripted dice ---------------------------------------------------------

def test_runs_are_dice_plus_the_three_cards() -> None:
    # the laws' own example: batter 5, pitch -1, bowler -3, dice 3 + 4 -> 8 runs
    inn = innings([5, 2, 3, 4], bat=[5], bowl=[-3], pitches=[-1])
    over = inn.play_over(1)
    assert (over.first, over.pitch, over.bat_card, over.bowl_card, over.dice) == ("bat", -1, 5, -3, (3, 4))
    assert (over.runs, over.outs) == (8, 0)


def test_tied_first_roll_of_one_to_three_is_an_out_and_no_card_is_played() -> None:
    inn = innings([2, 2], bat=[5], bowl=[-3], pitches=[0])
    over = inn.play_over(1)
    assert (over.runs, over.outs) == (0, 1)
    assert len(inn.bat.hand) == 1 and len(inn.bowl.hand) == 1


def test_tied_first_roll_of_four_to_six_gives_the_batter_one_more() -> None:
    # tie on 5s (+1), roll again: bowler 6 beats 1 and plays first; dice 2 + 3
    inn = innings([5, 5, 1, 6, 2, 3], bat=[1], bowl=[-1], pitches=[2])
    over = inn.play_over(1)
    assert over.first == "bowl"
    assert over.runs == 2 + 3 + 1 - 1 + 2 + 1


def test_double_one_is_an_out_whatever_the_cards() -> None:
    inn = innings([4, 1, 1, 1], bat=[6], bowl=[6], pitches=[3])
    over = inn.play_over(1)
    assert (over.runs, over.outs) == (0, 1)


def test_a_total_of_zero_or_less_is_an_out() -> None:
    # dice 2 + 1 = 3, cards -2 -1, pitch 0 -> 0: out
    inn = innings([4, 1, 2, 1], bat=[-2], bowl=[-1], pitches=[0])
    over = inn.play_over(1)
    assert (over.runs, over.outs) == (0, 1)


def test_other_doubles_draw_a_chance_card_that_trumps_a_losing_total() -> None:
    # dice 2 + 2 with cards -6 -6 and pitch -3: -11; "Through the gap" (+3) still gives 3 runs
    inn = innings([4, 1, 2, 2], bat=[-6], bowl=[-6], pitches=[-3], chances=[card("Through the gap")])
    over = inn.play_over(1)
    assert over.chance == ["Through the gap"]
    assert (over.runs, over.outs) == (3, 0)


def test_chance_runs_add_to_a_winning_total() -> None:
    inn = innings([4, 1, 3, 3], bat=[2], bowl=[-1], pitches=[0], chances=[card("Bowler in rhythm")])
    over = inn.play_over(1)
    assert over.runs == 3 + 3 + 2 - 1 - 2


def test_chance_out_cards_cost_wickets_and_the_over_scores_nothing() -> None:
    inn = innings([4, 1, 6, 6], bat=[6], bowl=[6], pitches=[3], chances=[card("Collapse")])
    over = inn.play_over(1)
    assert (over.runs, over.outs) == (0, 2)


def test_doctored_bat_penalty_outs_follow_the_die() -> None:
    inn = innings([4, 1, 6, 6, 5], bat=[6], bowl=[6], pitches=[3], chances=[card("Bat under inspection")])
    assert inn.play_over(1).outs == 4


def test_reroll_card_replaces_the_run_dice() -> None:
    # 4 + 4 drawn; re-rolled to 1 + 2: runs 3 + 1 + 0 + 0
    inn = innings([4, 1, 4, 4, 1, 2], bat=[1], bowl=[1], pitches=[-1], chances=[card("Try again")])
    over = inn.play_over(1)
    assert over.runs == 1 + 2 + 1 + 1 - 1


def test_mirror_image_turns_both_cards_over() -> None:
    inn = innings([4, 1, 5, 5], bat=[-4], bowl=[-3], pitches=[0], chances=[card("Mirror image")])
    assert inn.play_over(1).runs == 10 + 4 + 3


def test_kept_reroll_rescues_a_later_out() -> None:
    # over 1: double 3s draw "Second look", which the batter keeps; 3 + 3 + 1 + 1 + 0 = 8 runs
    inn = innings([4, 1, 3, 3, 4, 1, 1, 2, 6, 5], bat=[1], bowl=[1], pitches=[0, 2],
                  chances=[card("Second look")])
    first = inn.play_over(1)
    assert first.runs == 8 and [c.title for c in inn.bat.kept] == ["Second look"]
    # over 2: 1 + 2 - 6 - 6 + 2 = -7 would be out; the kept card re-rolls 6 + 5: 11 - 12 + 2 = 1
    inn.bat.hand, inn.bowl.hand = [PlayerCard(-6, -6)], [PlayerCard(-6, -6)]
    second = inn.play_over(2)
    assert (second.runs, second.outs) == (1, 0)
    assert inn.bat.kept == []


def test_batter_first_next_card_skips_the_next_order_roll() -> None:
    inn = innings([1, 4, 2, 2, 3, 4], bat=[1, 1], bowl=[1, 1], pitches=[0, 0],
                  chances=[card("Batter calls the shots")])
    inn.play_over(1)
    second = inn.play_over(2)  # no order roll: the next faces are the run dice
    assert second.first == "bat" and second.dice == (3, 4)


def test_hands_are_dealt_again_after_ten_overs() -> None:
    # 11 overs, each: order 5 v 2, dice 3 + 4, no doubles; hands of 11 from the deck in order
    # (all red cards, so most overs are outs, but never 10 before the 11th over)
    faces = [5, 2, 3, 4] * 11
    draws = ScriptedDraws(faces)
    deck = Pile(classic_player_deck(), draws, shuffle=False)
    inn = RollAndPlayInnings(draws, 11, deck, deck, Pile([0], draws), Pile(chance_deck(), draws))
    result = inn.play()
    assert result.overs == 11 and result.wickets < 10
    # re-dealt 11 before over 11, one played: 10 left (without a re-deal there would be none)
    assert len(inn.bat.hand) == 10 and len(inn.bowl.hand) == 10


def test_strategies_play_safe_and_threaten() -> None:
    # batter second: the lowest card that keeps even a 2 on the dice above 0...
    assert batter_answer([-2, 6, 5, 2], so_far=-4) == 2  # 5 (2 would leave -4 + 2 + 2 = 0: out)
    assert batter_answer([-2, 6, 5, 2], so_far=5) == 0  # -2 is already safe
    # ...else his highest card
    assert batter_answer([-2, 6, 5, 2], so_far=-9) == 1
    # bowler second: lowest card when it gives the dice an out chance
    assert bowler_answer([3, -5, 1], so_far=2) == 1
    assert bowler_answer([3, -1, 1], so_far=6) == 2  # no chance of an out: the median card


# --- invariants over 10,000 games ---------------------------------------------------------

@pytest.mark.slow
def test_invariants_over_ten_thousand_games() -> None:
    draws = RandomDraws(np.random.default_rng(7))
    overs_played = double_ones = tied_outs = 0
    for _ in range(10_000 * 2):  # two innings a game
        result = classic_innings(draws, 20).play()
        assert 0 <= result.wickets <= 10
        assert result.overs == 20 or result.wickets == 10
        assert result.runs == sum(o.runs for o in result.log) >= 0
        assert all(o.runs == 0 or o.outs == 0 for o in result.log)  # an over is runs or outs
        overs_played += result.overs
        double_ones += sum(o.note == "double one: out" for o in result.log)
        tied_outs += sum(o.note == "tied roll: out" for o in result.log)
    # the dice rules show through: double one 1/36 of the overs that reach the run dice (all but
    # the tied-roll outs, 1/12), tied 1-3 on the first order roll 3/36 of overs (a chance card can
    # skip the roll, ~0.3% of overs). ~390,000 overs: 1 s.d. is under 0.0005, tolerance 0.002.
    assert double_ones / overs_played == pytest.approx(1 / 36 * (1 - 1 / 12), abs=0.002)
    assert tied_outs / overs_played == pytest.approx(3 / 36, abs=0.002)


def test_fifty_over_game_deals_five_hands_and_stops_at_fifty() -> None:
    df = SYSTEM.simulate_innings(np.random.default_rng(3), 300, SimContext(None, None, None, overs=50))
    assert list(df.columns) == list(INNINGS_COLUMNS)
    assert (df["legal_balls"] <= 300).all() and ((df["legal_balls"] == 300) | (df["wickets"] == 10)).all()
    assert df["legal_balls"].mean() > 200


def test_same_seed_same_innings() -> None:
    ctx = SimContext(None, None, None)
    a = SYSTEM.simulate_innings(np.random.default_rng(11), 500, ctx)
    b = SYSTEM.simulate_innings(np.random.default_rng(11), 500, ctx)
    c = SYSTEM.simulate_innings(np.random.default_rng(12), 500, ctx)
    assert a.equals(b) and not a.equals(c)


# --- team edition on the real season --------------------------------------------------------

@pytest.fixture(scope="module")
def decks(bbl_stats):
    return team_decks(bbl_stats)


@pytest.mark.needs_data
def test_team_decks_are_real_squads_with_values_in_range(decks, bbl_stats) -> None:
    assert len(decks) == 8
    for team, cards in decks.items():
        assert len(cards) == 12
        assert all(c.player.team == team for c in cards)
        assert all(-6 <= c.bat <= 6 and -6 <= c.bowl <= 6 for c in cards)
    everyone = [c for cards in decks.values() for c in cards]
    # percentile bands: every value from -6 to +6 is used for batting
    assert {c.bat for c in everyone} == set(range(-6, 7))
    # a player who never bowled ranks below every bowler: his BOWL is at least any bowler's
    non_bowlers = [c.bowl for c in everyone if not c.player.bowls]
    bowlers = [c.bowl for c in everyone if c.player.bowls]
    assert non_bowlers and min(non_bowlers) >= max(bowlers) - 1


@pytest.mark.needs_data
def test_team_values_follow_real_figures(decks) -> None:
    everyone = [c for cards in decks.values() for c in cards]
    by_runs = sorted(everyone, key=lambda c: -c.player.runs)
    top_scorers = by_runs[:8]
    assert all(c.bat >= 3 for c in top_scorers), [(c.player.name, c.bat) for c in top_scorers]
    by_wickets = sorted(everyone, key=lambda c: -c.player.wickets)[:8]
    assert all(c.bowl <= -3 for c in by_wickets), [(c.player.name, c.bowl) for c in by_wickets]
    # ...and the run-scorers outscore the wicket-takers with the bat
    assert np.mean([c.bat for c in top_scorers]) > np.mean([c.bat for c in by_wickets]) + 3


@pytest.mark.needs_data
def test_team_edition_simulates_between_real_squads(bbl_stats, decks) -> None:
    from cardgen.games.roll_and_play.team import simulate_team_edition
    df = simulate_team_edition(np.random.default_rng(5), 400, decks)
    assert list(df.columns) == list(INNINGS_COLUMNS)
    assert (df["wickets"] <= 10).all() and (df["runs"] >= 0).all()


# --- the kit --------------------------------------------------------------------------------

def _build(out: Path, comp=None, season=None, papers=("a4",)) -> list[Path]:
    return SYSTEM.build(BuildRequest(out, comp, season, None, papers, seed=1))


def test_classic_kit_has_every_deck_scoresheets_previews_and_manifest(tmp_path: Path) -> None:
    from pypdf import PdfReader
    files = _build(tmp_path, papers=("a4", "letter"))
    folder = tmp_path / "roll-and-play"
    assert all(f.parent == folder and f.exists() for f in files)
    manifest = json.loads((folder / ".cardgen-kit.json").read_text())
    assert manifest["game"] == "roll-and-play" and manifest["competition"] is None
    listed = {f["path"] for f in manifest["downloads"]}
    assert {"player-deck-a4.pdf", "pitch-deck-letter.pdf", "chance-cards-a4.pdf",
            "scoresheet-20-overs-a4.pdf", "scoresheet-50-overs-letter.pdf", "player-deck-a4.png"} <= listed
    assert listed == {f.name for f in files if f.name != ".cardgen-kit.json"}
    # 48 player cards 9 to a sheet, 40 chance cards, scoresheet one page an innings
    assert len(PdfReader(folder / "player-deck-a4.pdf").pages) == 6
    assert len(PdfReader(folder / "chance-cards-a4.pdf").pages) == 5
    assert len(PdfReader(folder / "scoresheet-50-overs-a4.pdf").pages) == 2
    text = PdfReader(folder / "chance-cards-a4.pdf").pages[0].extract_text()
    assert "Bowler on a roll" in text and "CHANCE" in text
    from PIL import Image
    assert Image.open(folder / "player-deck-a4.png").size[0] > 300


@pytest.mark.needs_data
def test_team_edition_kit_prints_every_squad(tmp_path: Path, mirror: Path) -> None:
    from pypdf import PdfReader
    comp = get_competition("BBL")
    files = SYSTEM.build(BuildRequest(tmp_path, comp, "2024-25", str(mirror), ("a4",), seed=1))
    folder = tmp_path / "roll-and-play" / "BBL_2024-25"
    assert folder / "team-deck-a4.pdf" in files and (folder / ".cardgen-kit.json") in files
    manifest = json.loads((folder / ".cardgen-kit.json").read_text())
    assert (manifest["competition"], manifest["season"]) == ("BBL", "2024-25")
    assert "Cricsheet" in manifest["attribution"]
    reader = PdfReader(folder / "team-deck-a4.pdf")
    # issue 42: 8 teams x 12 cards packed onto full sheets of 9, as the Quicket sheets are (each
    # team on two sheets, 9 and 3, took 16); each sheet's header says where the teams' cards are
    assert len(reader.pages) == 11
    first = reader.pages[0].extract_text()
    assert "BAT" in first and "BOWL" in first and "Cricsheet" in first
    heads = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert "sheet 2 of 11 \u00b7 Adelaide 1-3, Brisbane 4-9" in heads[1]
    assert "sheet 11 of 11 \u00b7 Sydney (T) 1-6" in heads[-1]
    # every card's credit line at 6 pt or more (it was 4.6)
    sizes = credit_sizes(folder / "team-deck-a4.pdf", ("Cricsheet", "cardgen", "ODC-By"))
    assert len(sizes) >= 96 and min(sizes) >= 6.0, min(sizes)


def test_build_is_byte_identical(tmp_path: Path) -> None:
    a = _build(tmp_path / "a")
    b = _build(tmp_path / "b")
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_unknown_paper_is_a_named_error(tmp_path: Path) -> None:
    from cardgen.errors import CardgenError
    with pytest.raises(CardgenError, match="unknown paper"):
        _build(tmp_path, papers=("a3",))


# --- the command line -------------------------------------------------------------------------

@pytest.mark.needs_data
def test_cli_build_game_roll_and_play_classic_and_team_edition(tmp_path: Path, mirror: Path) -> None:
    from click.testing import CliRunner

    from cardgen.cli import main
    runner = CliRunner()
    result = runner.invoke(main, ["build", "--game", "roll-and-play", "--out", str(tmp_path), "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "roll-and-play" / "player-deck-a4.pdf").exists()
    assert "Roll & Play Cricket" in result.output
    result = runner.invoke(main, ["build", "--game", "roll-and-play", "-c", "BBL", "-s", "2024-25",
                                  "--source", str(mirror), "--out", str(tmp_path), "--paper", "letter"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "roll-and-play" / "BBL_2024-25"
    assert (folder / "team-deck-letter.pdf").exists() and (folder / ".cardgen-kit.json").exists()


def _filled_shapes(pdf: Path) -> int:
    """How many filled paths (rectangles) the pages paint: 're f' / 're B' operators."""
    import re

    from pypdf import PdfReader
    ops = 0
    for page in PdfReader(pdf).pages:
        data = page.get_contents().get_data().decode("latin-1")
        ops += len(re.findall(r"\bre\s+(?:f|B)\b", data))
    return ops


def test_ink_saver_prints_outlines_only(tmp_path: Path) -> None:
    normal = SYSTEM.build(BuildRequest(tmp_path / "n", None, None, None, ("a4",), seed=1))
    saver = SYSTEM.build(BuildRequest(tmp_path / "s", None, None, None, ("a4",), seed=1, ink_saver=True))
    by_name = {p.name: p for p in saver}
    for name in ("chance-cards-a4.pdf", "pitch-deck-a4.pdf"):
        before = next(p for p in normal if p.name == name)
        assert _filled_shapes(before) > 0 and _filled_shapes(by_name[name]) == 0


# --- law 6, the variation: chance cards in hand from the start --------------------------------

def variation_innings(faces: list[int], bat_cards: list[str], bowl_cards: list[str], overs: int = 20,
                      bat: list[int] | None = None, bowl: list[int] | None = None,
                      pitches: list[int] | None = None) -> RollAndPlayInnings:
    draws = ScriptedDraws(faces)
    deck = Pile(classic_player_deck(), draws)
    hands = ([PlayerCard(v, v) for v in (bat or [1])], [PlayerCard(v, v) for v in (bowl or [1])])
    chances = [card(t) for t in bat_cards + bowl_cards] + chance_deck()
    return RollAndPlayInnings(draws, overs, deck, deck, Pile(pitches or [0], draws), Pile(chances, draws),
                              hands=hands, variation=True)


def test_variation_deals_three_chance_cards_each_for_twenty_overs() -> None:
    inn = variation_innings([], ["Clean slate", "New deal", "Fresh hands"],
                            ["Caught behind", "Bonus runs", "Twelfth man"])
    assert [c.title for c in inn.bat.starting] == ["Clean slate", "New deal", "Fresh hands"]
    assert [c.title for c in inn.bowl.starting] == ["Caught behind", "Bonus runs", "Twelfth man"]


def test_variation_bowler_plays_an_out_card_at_once_then_nothing_he_cannot_use() -> None:
    inn = variation_innings([5, 2, 3, 4, 5, 2, 3, 4], ["Clean slate", "New deal", "Fresh hands"],
                            ["Caught behind", "Bonus runs", "Twelfth man"], bat=[1, 1], bowl=[1, 1])
    first = inn.play_over(1)
    assert (first.runs, first.outs) == (0, 1) and "(bowler's hand) Caught behind" in first.chance
    second = inn.play_over(2)  # "Bonus runs" helps the batter: the bowler never plays it
    assert (second.runs, second.outs) == (3 + 4 + 1 + 1, 0)
    assert [c.title for c in inn.bowl.starting] == ["Bonus runs", "Twelfth man"]


def test_variation_batter_saves_an_out_with_a_runs_card() -> None:
    # 1 + 2 - 6 - 6 = -9: out, but "Through the gap" from his hand gives the over 3 runs
    inn = variation_innings([5, 2, 1, 2], ["Through the gap", "New deal", "Fresh hands"],
                            ["Bonus runs", "Twelfth man", "New deal"], bat=[-6], bowl=[-6])
    over = inn.play_over(1)
    assert (over.runs, over.outs) == (3, 0)
    assert [c.title for c in inn.bat.starting] == ["New deal", "Fresh hands"]


def test_variation_cards_are_spent_one_an_over_before_the_innings_ends() -> None:
    # two helpful cards and two overs: one in each over, both spent
    inn = variation_innings([5, 2, 3, 4, 5, 2, 3, 4], ["Watching it closely", "Bonus runs", "New deal"],
                            ["Twelfth man", "New deal", "Fresh hands"], overs=2, bat=[1, 1], bowl=[1, 1])
    result = inn.play()
    assert [o.runs for o in result.log] == [3 + 4 + 1 + 1 + 2] * 2
    assert [c.title for c in inn.bat.starting] == ["New deal"]


@pytest.mark.slow
def test_variation_games_keep_the_invariants() -> None:
    from cardgen.games.roll_and_play.engine import simulate_classic
    for overs in (20, 50):
        df = simulate_classic(np.random.default_rng(overs), 1000, overs=overs, variation=True)
        assert (df["wickets"] <= 10).all() and (df["runs"] >= 0).all()
        assert ((df["legal_balls"] == 6 * overs) | (df["wickets"] == 10)).all()


def test_quick_reference_headings_stand_clear_of_the_text_column() -> None:
    """Every heading of the printed laws ends at least 3 mm before its text starts (the widest,
    "CHANCE FIRST", ran to within 1.2 mm of a fixed 30 mm column and read as one line)."""
    import pypdfium2 as pdfium

    from cardgen.games.roll_and_play.kit import rules_card_lines, rules_pdf
    page = pdfium.PdfDocument(rules_pdf("a4", "credit", team_edition=True))[0]
    text = page.get_textpage()
    mm = 72 / 25.4

    def box(words: str) -> tuple[float, float]:
        found = text.search(words, match_case=True, match_whole_word=False)
        start, count = found.get_next()
        return text.get_charbox(start)[0], text.get_charbox(start + count - 1)[2]
    gaps = {}
    for line in rules_card_lines(team_edition=True):
        head, _, body = line.partition("  ")
        gaps[head] = box(body.split()[0] + " " + body.split()[1])[0] - box(head)[1]
    assert len(gaps) == 12 and min(gaps.values()) >= 3 * mm, gaps


@pytest.mark.needs_data
def test_hundred_team_edition_counts_bowling_in_balls(tmp_path: Path, mirror: Path, hundred_stats,
                                                      pdf_words) -> None:
    """Gamer's audit: The Hundred's squad cards printed bowling as 6-ball overs ("6.5 ov" for 41
    balls), which a Hundred player reads as sets of five; the Quicket kit prints balls there. Each
    bowler's card now gives his real legal balls, and no card an over figure."""
    import re
    from collections import Counter

    SYSTEM.build(BuildRequest(tmp_path, get_competition("HUNDRED"), "2024", str(mirror), ("a4",), seed=1))
    text = pdf_words(tmp_path / "roll-and-play" / "HUNDRED_2024" / "team-deck-a4.pdf")
    assert not re.search(r"\d+\.\d ov", text)
    printed = Counter(int(n) for n in re.findall(r"Bowl: \d+ wkts? in (\d+) balls?, econ", text))
    real = Counter(c.player.legal_balls for cards in team_decks(hundred_stats).values() for c in cards
                   if c.player.legal_balls)
    assert printed == real and sum(real.values()) > 50


@pytest.mark.needs_data
def test_team_edition_quick_reference_deals_from_the_squad_decks(tmp_path: Path, mirror: Path) -> None:
    """Gamer's audit: the team edition's quick reference said "shuffle the player deck ... deal each
    side 11 player cards" and "shuffle all player cards and deal 11 to each side again", but that
    kit has no player deck: each side deals itself 11 of its own 12-card squad deck (as the engine
    plays it). The classic kit keeps the laws' wording."""
    from pypdf import PdfReader
    SYSTEM.build(BuildRequest(tmp_path / "team", get_competition("WPL"), "2023", str(mirror), ("a4",), seed=1))
    SYSTEM.build(BuildRequest(tmp_path / "classic", None, None, None, ("a4",), seed=1))

    def setup_text(folder: Path) -> str:
        page = PdfReader(folder / "quick-reference-a4.pdf").pages[0]
        return " ".join(page.extract_text().split())
    team = setup_text(tmp_path / "team" / "roll-and-play" / "WPL_2023")
    assert "player deck" not in team and "deals itself 11" in team and "shuffles its squad deck" in team
    for overs in (20, 50):   # and the scoresheets' thick line says the same
        sheet = PdfReader(tmp_path / "team" / "roll-and-play" / "WPL_2023" / f"scoresheet-{overs}-overs-a4.pdf")
        text = " ".join(sheet.pages[0].extract_text().split())
        assert "shuffles its squad deck and deals itself 11" in text and "player cards" not in text
    classic = setup_text(tmp_path / "classic" / "roll-and-play")
    assert "Shuffle the player deck" in classic and "squad deck (12 cards)" not in classic
    # the engine deals the team edition the same way: 11 of the 12, the 12th left in the squad deck
    from cardgen.games.roll_and_play.team import team_innings
    from cardgen.stats.load import season_stats
    decks = team_decks(season_stats(get_competition("WPL"), "2023", str(mirror)))
    inn = team_innings(RandomDraws(np.random.default_rng(0)), *list(decks.values())[:2])
    assert len(inn.bat.hand) == 11 and len(inn.bat_deck.cards) == 1


@pytest.mark.needs_data
def test_classic_quick_reference_speaks_only_of_the_classic_cards(tmp_path: Path, mirror: Path) -> None:
    """Gamer's audit: the classic kit's quick reference ended with "TEAM EDITION  Each side plays
    its own squad deck: use a card's BAT number when batting and its BOWL number when bowling",
    but that kit has no squad deck and its player cards carry one number ("Bat or bowl"). The row
    is now on the team edition's page only."""
    from pypdf import PdfReader
    SYSTEM.build(BuildRequest(tmp_path / "classic", None, None, None, ("a4", "letter"), seed=1))
    SYSTEM.build(BuildRequest(tmp_path / "team", get_competition("BBL"), "2024-25", str(mirror), ("a4",), seed=1))

    def words(path: Path) -> str:
        return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(path).pages)
    classic = tmp_path / "classic" / "roll-and-play"
    for paper in ("a4", "letter"):
        rules = words(classic / f"quick-reference-{paper}.pdf")
        assert "TEAM EDITION" not in rules and "squad deck" not in rules and "BAT number" not in rules
        assert "Shuffle the player deck" in rules and "VARIATION" in rules
    deck = words(classic / "player-deck-a4.pdf")
    assert "Bat or bowl" in deck and "BAT" not in deck and "BOWL" not in deck
    team = words(tmp_path / "team" / "roll-and-play" / "BBL_2024-25" / "quick-reference-a4.pdf")
    assert "TEAM EDITION Each side plays its own squad deck: use a card's BAT number" in team


@pytest.mark.needs_data
def test_a_bowler_of_unrecorded_type_is_not_printed_as_bowling_nothing(bbl_stats, recording_painter) -> None:
    """Gamer's audit, BBL 2024-25 Melbourne Renegades: Fergus O'Neill's card read "Bowler · bowls:
    —" above "Bowl: 7 wkts in 25.3 ov", and Josh Brown's "Opening · bowls: —" above 2.4 overs (the
    data has no bowling type for them; IPL 2025's Digvesh Rathi, 52 overs, likewise): the dash
    reads "does not bowl". A card with no recorded type now gives its role alone when the player
    bowled; "bowls: —" stays only beside "did not bowl this season"."""
    from cardgen.games.roll_and_play.kit import draw_team_card
    cards = {c.player.name: c for deck in team_decks(bbl_stats).values() for c in deck}
    checked = set()
    for name, card in cards.items():
        painter = recording_painter()
        draw_team_card(painter, card, "BBL 2024-2025", "credit")
        texts = [t.text for t in painter.texts]
        role = next(t for t in texts if t.startswith(card.player.batting_role if card.player.batting_role != "*"
                                                     else "Bowler"))
        bowl = next(t for t in texts if t.startswith("Bowl: "))
        if card.player.bowling_type == "*":
            checked.add(name)
            if card.player.legal_balls:
                assert "bowls" not in role and "did not bowl" not in bowl, (name, role, bowl)
            else:
                assert role.endswith("bowls: \u2014") and bowl == "Bowl: did not bowl this season"
        else:
            assert role.endswith(f"bowls: {card.player.bowling_type}"), (name, role)
    assert {"Fergus O'Neill", "Josh Brown", "Tim Seifert"} <= checked
    painter = recording_painter()
    draw_team_card(painter, cards["Fergus O'Neill"], "BBL 2024-2025", "credit")
    assert [t.text for t in painter.texts if t.text.startswith("Bowl")] == [
        "Bowler", "Bowl: 7 wkts in 25.3 ov, econ 6.94"]


@pytest.mark.needs_data
def test_a_squad_card_of_one_who_never_batted_says_he_did_not_bat(bbl_stats, hundred_stats,
                                                                  recording_painter) -> None:
    """Gamer's audit: a bowler who never came in to bat printed "Bat: 0 runs off 0 balls" (Wes
    Agar, Sydney Thunder, BBL 2024-25; Tymal Mills and Chris Wood, The Hundred 2024), while one
    who never bowled reads "Bowl: did not bowl this season". It now reads "Bat: did not bat this
    season"; one who came in and faced no ball (Danny Briggs, Southern Brave: 1 innings) keeps
    his 0 off 0."""
    from cardgen.games.roll_and_play.kit import draw_team_card
    cards = {(c.player.name, c.player.team): c for stats in (bbl_stats, hundred_stats)
             for deck in team_decks(stats).values() for c in deck}

    def bat_line(card) -> str:
        painter = recording_painter()
        draw_team_card(painter, card, "season", "credit")
        [line] = [t.text for t in painter.texts if t.text.startswith("Bat: ")]
        return line

    for key in (("Wes Agar", "Sydney Thunder"), ("Tymal Mills", "Southern Brave"),
                ("Chris Wood", "Birmingham Phoenix")):
        assert bat_line(cards[key]) == "Bat: did not bat this season", key
    assert bat_line(cards[("Danny Briggs", "Southern Brave")]) == "Bat: 0 runs off 0 balls"
    for key, card in cards.items():
        assert (bat_line(card) == "Bat: did not bat this season") == (card.player.innings == 0), key


def credit_sizes(pdf: Path, credit_words: tuple[str, ...]) -> list[float]:
    """The font sizes of every credit line on the card sheets (a line with one of the words)."""
    from pypdf import PdfReader
    sizes: list[float] = []
    for page in PdfReader(pdf).pages:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: sizes.append(float(size))
                          if any(w in text for w in credit_words) and "Print at 100%" not in text else None)
    return sizes


def test_the_quick_reference_marks_the_deck_counts_and_the_out_card_as_readings():
    """Issue 34: the laws give ranges, not deck counts, and say nothing of a chance card's OUT
    against a positive total; the quick reference says both are this kit's readings, with the
    counts of the decks the engine deals."""
    import io

    import pypdf

    from cardgen.games.roll_and_play.kit import rules_pdf
    text = " ".join(pypdf.PdfReader(io.BytesIO(rules_pdf("a4", "credit"))).pages[0].extract_text().split())
    assert "READINGS Where the laws are silent this kit reads" in text
    from cardgen.games.roll_and_play.engine import pitch_deck
    assert "= 48 cards" in text and f"= {len(pitch_deck())};" in text
    assert "gives outs makes the over worth those outs and no runs, whatever the total" in text
