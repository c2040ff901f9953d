"""Cricket: The Game: the dice duel with scripted dice, invariants over 10,000 games, squads
from the real BBL 2024-25 season, the compatible-card kit and its determinism."""
from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from cardgen.competitions import get_competition
from cardgen.games import get_game
from cardgen.games.base import INNINGS_COLUMNS, BuildRequest, SimContext
from cardgen.games.cricket_the_game import NeedsSeason
from cardgen.games.cricket_the_game.engine import (
    BallLog,
    Batter,
    CtgInnings,
    bowling_attack,
    bowling_order,
    field_for,
)
from cardgen.games.cricket_the_game.kit import dice_line
from cardgen.games.cricket_the_game.squads import (
    COMPOSITION,
    SquadPlayer,
    generic_squad,
    season_squads,
)
from cardgen.games.roll_and_play.draws import RandomDraws, ScriptedDraws

SYSTEM = get_game("cricket-the-game")
SQUAD = generic_squad()


def player(role: str, confidence: int = 1) -> SquadPlayer:
    return SquadPlayer(role, confidence, name=role)


def ball(faces: list[int], role: str = "allrounder", confidence: int = 1, style: str = "medium",
         attitude: str = "aggressive", over: int = 10, effect: str = "none", protected: bool = False,
         bowler_d8: bool = False, pitch: str = "dead") -> tuple[tuple[int, str], Batter, BallLog, ScriptedDraws]:
    """One full delivery with scripted dice: bowl-card zones (d4), batter's zone (d5), bowler's
    die, batter's die, then whatever the outcome asks for."""
    draws = ScriptedDraws(faces)
    inn = CtgInnings(draws, SQUAD, SQUAD, pitch=pitch)
    striker = Batter(player(role, confidence), confidence)
    slips, cells = field_for(over, style)
    log = BallLog(over, express=False)
    bowler = player({"medium": "allrounder"}.get(style, style))
    result = inn._delivery(striker, bowler, style, attitude, slips, cells, over, effect, bowler_d8,
                           protected, log)
    assert not draws.faces, "the delivery left scripted dice unused"
    return result, striker, log, draws


def test_clean_bowled_beats_full_advantage() -> None:
    # zone matches the bowl card (+3 to the bat), but bowler 6 and batter 1 is bowled
    (runs, out), *_ = ball([2, 2, 6, 1])
    assert (runs, out) == (0, "bowled")


def test_no_ball_or_free_hit_cannot_be_clean_bowled() -> None:
    (runs, out), *_ = ball([2, 2, 6, 1], protected=True)
    assert (runs, out) == (0, "")


def test_no_ball_card_on_the_top_face_is_an_extra_that_cannot_bowl_him() -> None:
    # the no-ball card counts when the bowler rolls his top face: 6 and the batter's 1 would be
    # clean bowled, but it is a no-ball: one extra, not a legal ball, not out
    (runs, out), _, log, _ = ball([2, 2, 6, 1], effect="no_ball")
    assert (runs, out, log.legal, log.extras) == (0, "", False, 1)
    # any other face: a fair delivery (4 v 4 blocked)
    (runs, out), _, log, _ = ball([2, 2, 4, 4], effect="no_ball")
    assert (log.legal, log.extras, log.note) == (True, 0, "blocked")


def test_bowler_one_against_batter_six_is_four_and_eight_is_six() -> None:
    (runs, out), striker, log, _ = ball([1, 5, 1, 6], confidence=1)
    assert (runs, log.boundary, striker.confidence) == (4, 4, 2)  # a boundary lifts confidence
    (runs, out), *_ = ball([1, 5, 1, 8])
    assert (runs, out) == (6, "")


def test_equal_faces_block_whatever_the_advantage() -> None:
    (runs, out), _, log, draws = ball([2, 2, 4, 4], style="medium")
    assert (runs, out, log.note) == (0, "", "blocked")
    assert len(draws.asked) == 4  # a medium bowler has no slips: no catch roll


def test_block_against_pace_gives_the_slip_a_catch_in_the_powerplay() -> None:
    (runs, out), *_ = ball([2, 2, 4, 4, 6], style="pace", over=1)
    assert (runs, out) == (0, "caught")


def test_advantage_moves_one_step_per_zone_to_the_bowler() -> None:
    # bowl card zones 0-1, batter's zone 3: two zones away, confidence 1 -> -1 (bowler +1):
    # bowler 4 + 1 = 5 against batter 5: equal totals, blocked
    (runs, out), _, log, _ = ball([1, 4, 4, 5], confidence=1)
    assert (runs, out, log.note) == (0, "", "blocked")


def test_specialist_batter_advantage_never_below_neutral() -> None:
    # zones 0-1 against zone 4: -3 from confidence 0, floored at 0 for a specialist batter:
    # batter 6 beats bowler 5 and strikes (distance 1, bounce 1 red: an empty infield area, 1 run)
    (runs, out), _, log, _ = ball([1, 5, 5, 6, 1, 2], role="batter", confidence=0)
    assert (runs, out) == (1, "")
    # the same dice for an all-rounder: the bowler's +1 makes it 6 v 6, blocked
    (runs, out), _, log, _ = ball([1, 5, 5, 6], role="allrounder", confidence=0)
    assert log.note == "blocked"


def test_miss_by_three_gives_a_bowled_roll_by_attitude() -> None:
    # zones 0-1 v zone 2 (one away) from confidence 0: bowler +1; 6 + 1 against 2: missed by 5
    (runs, out), *_ = ball([1, 3, 6, 2, 7], confidence=0, attitude="aggressive")  # D8 7+: bowled
    assert out == "bowled"
    (runs, out), *_ = ball([1, 3, 6, 2, 5], confidence=0, attitude="defensive")  # D6 5: survives
    assert out == ""
    (runs, out), *_ = ball([1, 3, 6, 2, 6], confidence=0, attitude="defensive")  # D6 6: bowled
    assert (runs, out) == (0, "bowled")


def test_red_bounce_into_a_fielded_area_is_a_catch_chance() -> None:
    # strike 5 v 3 (+3): distance 3 lands in the ring (area 2, fielded in the powerplay);
    # red 0 on the bounce die: catch on 5+ (the stand-in number for the ring)
    (runs, out), *_ = ball([1, 1, 3, 5, 3, 1, 5], over=1)
    assert out == "caught"
    # dropped (4): the ball stays in the fielded ring area; red and aggressive early: 0 runs
    (runs, out), *_ = ball([1, 1, 3, 5, 3, 1, 4], over=1)
    assert (runs, out) == (0, "")


def test_pace_strike_by_three_carries_one_area_further() -> None:
    # strike 6 + 3 v 2: distance 5 -> 6 against pace; bounce red 3 -> 9: past the rope, four
    (runs, out), *_ = ball([1, 1, 2, 6, 5, 4], style="pace")
    assert runs == 4
    # the same dice against a medium bowler: 5 + 3 = 8, stops where a deep fielder stands: 1 run
    (runs, out), *_ = ball([1, 1, 2, 6, 5, 4], style="medium")
    assert (runs, out) == (1, "")


def test_spin_strike_by_less_than_three_loses_an_area() -> None:
    # zones 0-1 v zone 3 from confidence 3: +1; batter 4 + 1 v 3: strike by 2 against spin.
    # Distance 8 -> 7 (still the outermost area) and a green 2: six
    (runs, out), *_ = ball([1, 4, 3, 4, 8, 6], style="spin", confidence=3)
    assert runs == 6
    # distance 5 -> 4 and a green 0 (defensive die, face 1): stops in the infield of zone 3
    # (empty after over 6): 1 run; against medium pace the same dice stop in the outfield: 2 runs
    (runs, out), *_ = ball([1, 4, 3, 4, 5, 1], style="spin", confidence=3, attitude="defensive")
    assert runs == 1
    (runs, out), *_ = ball([1, 4, 3, 4, 5, 1], style="medium", confidence=3, attitude="defensive")
    assert (runs, out) == (2, "")


def test_risky_run_late_in_the_innings_can_be_a_run_out() -> None:
    # over 19: ball fielded in the deep (distance 7, red 0, catch missed on 3): 1 safe,
    # the batters go for 2; the throw (6) runs one out, 1 run counts
    (runs, out), *_ = ball([1, 1, 3, 5, 7, 1, 3, 6], over=19)
    assert (runs, out) == (1, "run out")


def test_green_pitch_lets_pace_re_roll_a_one() -> None:
    # bowler's 1 re-rolled to 4 on a green pitch: batter 4 blocks (equal faces), slips not in after PP
    (runs, out), _, log, _ = ball([2, 2, 1, 4, 4], style="pace", pitch="green", over=10)
    assert (runs, out, log.note) == (0, "", "blocked")


def test_express_icons() -> None:
    inn = CtgInnings(ScriptedDraws([8, 5, 4]), SQUAD, SQUAD, pitch="dead")
    log = BallLog(2, express=True)
    assert inn._express("bat_d8", "pace", log) == (6, "") and log.boundary == 6
    assert inn._express("wicket", "pace", BallLog(2, True)) == (0, "bowled")
    assert inn._express("wicket", "pace", BallLog(2, True)) == (0, "")
    assert inn._express("two", "pace", BallLog(2, True)) == (2, "")


def test_bowling_plan_three_overs_each_never_twice_running() -> None:
    attack = bowling_attack(SQUAD)
    assert Counter(p.role for p in attack) == {"allrounder": 4, "pace": 2, "spin": 1}
    order = bowling_order(attack, 20)
    assert len(order) == 20 and max(Counter(order).values()) == 3
    assert all(a != b for a, b in pairwise(order))


def test_fields_keep_the_t20_restrictions() -> None:
    for over in range(1, 21):
        for style in ("pace", "spin", "medium"):
            slips, cells = field_for(over, style)
            outfield = sum(1 for _, area in cells if area >= 3)
            assert slips + len(cells) == 9
            assert outfield <= (2 if over <= 6 else 5)


# --- invariants over 10,000 games ---------------------------------------------------------

@pytest.mark.slow
def test_invariants_over_ten_thousand_games() -> None:
    draws = RandomDraws(np.random.default_rng(21))
    squads = [generic_squad()]
    totals = Counter()
    for _ in range(10_000 * 2):  # two innings a game
        r = CtgInnings(draws, squads[0], squads[0]).play()
        assert 0 <= r.wickets <= 10
        assert r.legal_balls <= 120 and (r.legal_balls == 120 or r.wickets == 10)
        assert r.runs >= 4 * r.fours + 6 * r.sixes
        totals["runs"] += r.runs
        totals["balls"] += r.legal_balls
    # scoring stays in cricket's range: 3-12 runs an over (a seed change moves it < 0.1)
    rate = 6 * totals["runs"] / totals["balls"]
    assert 3 < rate < 12


@pytest.mark.needs_data
def test_same_seed_same_innings_and_the_api_shape(bbl_stats) -> None:
    ctx = SimContext(None, None, None)
    a = SYSTEM.simulate_innings(np.random.default_rng(4), 300, ctx)
    b = SYSTEM.simulate_innings(np.random.default_rng(4), 300, ctx)
    assert list(a.columns) == list(INNINGS_COLUMNS) and a.equals(b)


# --- squads from the real season -------------------------------------------------------------

@pytest.fixture(scope="module")
def squads(bbl_stats):
    return season_squads(bbl_stats)


@pytest.mark.needs_data
def test_every_team_has_twelve_in_the_box_make_up(squads, bbl_stats) -> None:
    assert len(squads) == 8
    kept = bbl_stats.lineups[bbl_stats.lineups["keeper"]].groupby(["team", "player_id"])["match_id"].nunique()
    for team, squad in squads.items():
        assert Counter(p.role for p in squad) == COMPOSITION
        assert len({p.player.player_id for p in squad}) == 12
        assert all(p.player.team == team for p in squad)
        assert all(-1 <= p.confidence <= 3 for p in squad)
        keeper = next(p for p in squad if p.role == "keeper")
        # the man who kept in most of the team's matches
        assert kept[(team, keeper.player.player_id)] == kept[team].max()
        for p in squad:
            if p.role in ("pace", "spin"):
                assert p.player.legal_balls > 0


@pytest.mark.needs_data
def test_roles_and_confidence_follow_real_figures(squads) -> None:
    everyone = [p for squad in squads.values() for p in squad]
    batters = [p for p in everyone if p.role == "batter"]
    bowlers = [p for p in everyone if p.role in ("pace", "spin")]
    assert np.mean([p.player.runs for p in batters]) > 3 * np.mean([p.player.runs for p in bowlers])
    assert np.mean([p.confidence for p in batters]) > np.mean([p.confidence for p in bowlers]) + 1
    # specialists mostly bowl their real type (a team short of one fills in with its next bowler)
    typed = sum(p.player.bowling_type.lower() == p.role for p in bowlers)
    assert typed >= 0.8 * len(bowlers)
    top = max(everyone, key=lambda p: p.player.batting_index)
    assert top.confidence == 3


@pytest.mark.needs_data
def test_a_batter_who_bowled_more_than_an_all_rounder_bowls_in_the_game(squads) -> None:
    """Issue 34: D'Arcy Short (BBL 2024-25: 139 balls faced, 62 bowled, 10.2 overs) was printed
    "Specialist batter ... no bowling in the game" while Jordan Buckingham (2 faced, 60 bowled)
    took an all-rounder's slot and bowled the Medium deck. No specialist batter now both batted
    and bowled more than one of his team's all-rounders."""
    adelaide = {p.player.name: p for p in squads["Adelaide Strikers"]}
    assert adelaide["D'Arcy Short"].role == "allrounder"
    assert dice_line(adelaide["D'Arcy Short"]) == "Bats with the D8 \u00b7 bowls: Medium deck"
    assert "Jordan Buckingham" not in adelaide
    for team, squad in squads.items():
        rounders = [p.player for p in squad if p.role == "allrounder"]
        for b in (p.player for p in squad if p.role == "batter" and p.player.legal_balls > 0):
            assert not any(a.balls <= b.balls and a.legal_balls < b.legal_balls
                           or a.balls < b.balls and a.legal_balls <= b.legal_balls for a in rounders), (team, b.name)


@pytest.mark.needs_data
def test_batting_slots_go_to_the_season_s_batters_and_bowling_slots_to_its_bowlers(
        mirror: Path, tmp_path: Path) -> None:
    """Gamer's audit, WPL 2023 Mumbai Indians: Harmanpreet Kaur (281 runs, listed an all-rounder,
    bowled no ball) was printed an all-rounder bowling the Medium deck while Humaira Kazi (8 runs)
    was a specialist batter, and Hayley Matthews (the opener, 271 runs) a spin specialist batting
    with the D6 while Amelia Kerr bowled more than she batted. Now a listed all-rounder who did
    not bowl all season can be a specialist batter, and of the non-specialists who bowl a type,
    the one who bowls more than she bats takes the specialist slot."""
    from cardgen.cache import Cache
    from cardgen.stats.load import season_stats
    stats = season_stats(get_competition("WPL"), "2023", str(mirror), cache=Cache(tmp_path))
    squads = season_squads(stats)
    mumbai = {p.player.name: p.role for p in squads["Mumbai Indians"]}
    assert mumbai["Harmanpreet Kaur"] == "batter"
    assert mumbai["Hayley Matthews"] not in ("pace", "spin") and mumbai["Amelia Kerr"] == "spin"
    # Pooja Vastrakar (a front-line seamer) and Hayley Matthews (16 wickets) keep their bowling
    assert mumbai["Pooja Vastrakar"] == mumbai["Hayley Matthews"] == "allrounder"
    for team, squad in squads.items():
        batters = [p.player for p in squad if p.role == "batter"]
        assert not any(b.bowls and b.batting_role in ("All-Rounder", "*") for b in batters), team
        for p in squad:
            if p.role == "allrounder" and not p.player.bowls:
                # a non-bowler fills an all-rounder slot only when he made fewer runs than every batter
                assert all(p.player.runs <= b.runs for b in batters), (team, p.player.name)
        # a front-line seamer (Tara Norris, medium) is not an all-rounder while an all-rounder
        # (Marizanne Kapp, 177 runs) takes a pace specialist's slot and bats with the D6
        part_timers = [p for p in squad if p.role == "pace" and p.player.batting_role != "*"]
        seamers = [p for p in squad if p.role == "allrounder" and p.player.batting_role == "*"
                   and p.player.bowling_type in ("Pace", "Medium") and p.player.bowls]
        assert not (part_timers and seamers), (team, part_timers, seamers)


@pytest.mark.needs_data
def test_the_xi_is_named_before_the_pitch_card_is_drawn(squads, tmp_path: Path, mirror: Path) -> None:
    """Gamer's audit: the rulebook names the XI (dropping one pace or one spin specialist) before
    the pitch card is drawn, but the engine dropped a spinner on a Green or Dead pitch and a pace
    bowler on a Dusty one, and the squad sheet told players to do the same. Now every real BBL
    squad plays the same XI on every pitch, without its weakest-batting specialist bowler, and the
    sheet says the pitch comes after."""
    from pypdf import PdfReader
    for team, squad in squads.items():
        xis = {pitch: CtgInnings(ScriptedDraws([]), squad, squad, pitch=pitch)
               for pitch in CtgInnings.PITCHES}
        names = {tuple(p.label for p in inn.order) for inn in xis.values()}
        assert len(names) == 1, team
        left_out = [p for p in squad if p.label not in next(iter(names))]
        assert len(left_out) == 1 and left_out[0].specialist_bowler
        assert left_out[0].confidence == min(p.confidence for p in squad if p.specialist_bowler)
    SYSTEM.build(BuildRequest(tmp_path, get_competition("BBL"), "2024-25", str(mirror), ("a4",), seed=1))
    sheet = PdfReader(tmp_path / "cricket-the-game" / "BBL_2024-25" / "squads-a4.pdf").pages[0]
    text = " ".join(sheet.extract_text().split())
    assert "before the pitch card is drawn" in text and "Dusty one" not in text


@pytest.mark.needs_data
def test_season_squads_simulate(squads) -> None:
    from cardgen.games.cricket_the_game.engine import simulate
    df = simulate(np.random.default_rng(9), 400, list(squads.values()))
    assert (df["wickets"] <= 10).all() and df["runs"].mean() > 60


# --- the kit --------------------------------------------------------------------------------

def _build(out: Path, mirror: Path, papers=("a4",)) -> list[Path]:
    return SYSTEM.build(BuildRequest(out, get_competition("BBL"), "2024-25", str(mirror), papers, seed=1))


@pytest.mark.needs_data
def test_kit_prints_compatible_cards_with_the_publisher_note(tmp_path: Path, mirror: Path) -> None:
    from pypdf import PdfReader
    files = _build(tmp_path, mirror, papers=("a4", "letter"))
    folder = tmp_path / "cricket-the-game" / "BBL_2024-25"
    manifest = json.loads((folder / ".cardgen-kit.json").read_text())
    assert manifest["kind"] == "game-kit" and manifest["game"] == "cricket-the-game" and manifest["season"] == "2024-25"
    assert {f["path"] for f in manifest["downloads"]} == {f.name for f in files if f.name != ".cardgen-kit.json"}
    cards = PdfReader(folder / "player-cards-a4.pdf")
    assert len(cards.pages) == 11  # 8 teams x 12 cards packed onto full sheets of 9 (16 a team at a time)
    text = " ".join(cards.pages[0].extract_text().split())
    assert "CONFIDENCE" in text and "Zero Point Games" in text and "Cricsheet" in text
    from tests.test_games_roll_and_play import credit_sizes
    for paper in ("a4", "letter"):  # every card's credit line at 6 pt or more (it was 4.4)
        sizes = credit_sizes(folder / f"player-cards-{paper}.pdf", ("Zero Point", "Cricsheet", "ODC-By"))
        assert len(sizes) >= 96 and min(sizes) >= 6.0, (paper, min(sizes))
    sheet = " ".join(PdfReader(folder / "squads-a4.pdf").pages[0].extract_text().split())
    assert "come from the publisher" in sheet
    assert (folder / "player-cards-a4.png").exists() and (folder / "squads-a4.png").exists()


@pytest.mark.needs_data
def test_build_is_byte_identical(tmp_path: Path, mirror: Path) -> None:
    a = _build(tmp_path / "a", mirror)
    b = _build(tmp_path / "b", mirror)
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_build_without_a_season_is_a_named_error(tmp_path: Path) -> None:
    with pytest.raises(NeedsSeason):
        SYSTEM.build(BuildRequest(tmp_path, None, None, None, ("a4",), seed=1))


# --- the command line -------------------------------------------------------------------------

@pytest.mark.needs_data
def test_cli_build_game_cricket_the_game(tmp_path: Path, mirror: Path) -> None:
    from click.testing import CliRunner

    from cardgen.cli import main
    runner = CliRunner()
    result = runner.invoke(main, ["build", "--game", "cricket-the-game", "-c", "BBL", "-s", "2024-25",
                                  "--source", str(mirror), "--out", str(tmp_path), "--paper", "a4"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "cricket-the-game" / "BBL_2024-25"
    assert (folder / "player-cards-a4.pdf").exists() and (folder / ".cardgen-kit.json").exists()
    # without a season: a one-line message, no traceback
    result = runner.invoke(main, ["build", "--game", "cricket-the-game", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--competition" in result.output and "Traceback" not in result.output


@pytest.mark.needs_data
def test_ink_saver_cards_have_no_filled_areas(tmp_path: Path, mirror: Path) -> None:
    import re

    from pypdf import PdfReader
    files = SYSTEM.build(BuildRequest(tmp_path, get_competition("BBL"), "2024-25", str(mirror), ("a4",),
                                      seed=1, ink_saver=True))
    cards = next(p for p in files if p.name == "player-cards-a4.pdf")
    data = PdfReader(cards).pages[0].get_contents().get_data().decode("latin-1")
    assert not re.findall(r"\bre\s+(?:f|B)\b", data)
    assert "CONFIDENCE" in PdfReader(cards).pages[0].extract_text()


@pytest.mark.needs_data
def test_hundred_cards_count_bowling_in_balls(tmp_path: Path, mirror: Path, hundred_stats, pdf_words) -> None:
    """Gamer's audit: The Hundred's compatible cards printed bowling as 6-ball overs ("6.5 ov" for
    41 balls), which a Hundred player reads as sets of five; the Quicket kit prints balls there."""
    import re

    SYSTEM.build(BuildRequest(tmp_path, get_competition("HUNDRED"), "2024", str(mirror), ("a4",), seed=1))
    text = pdf_words(tmp_path / "cricket-the-game" / "HUNDRED_2024" / "player-cards-a4.pdf")
    assert not re.search(r"\d+\.\d ov", text)
    printed = Counter(int(n) for n in re.findall(r"Bowling: \d+ wkts?, (\d+) balls?, econ", text))
    real = Counter(p.player.legal_balls for squad in season_squads(hundred_stats).values() for p in squad
                   if p.player.legal_balls)
    assert printed == real and sum(real.values()) > 50


@pytest.mark.needs_data
def test_an_all_rounder_of_unrecorded_type_has_no_really_bowls_line(bbl_stats, hundred_stats) -> None:
    """Gamer's audit: the "Really bowls:" line tells a player that an all-rounder bowling the
    Medium deck is really a pace or spin bowler, but where the data records no bowling type it
    printed "Really bowls: unknown type": on Fergus O'Neill (BBL 2024-25, 7 wickets) and, under
    "Bowling: did not bowl", on Joe Clarke (Welsh Fire, The Hundred 2024), which says nothing
    and reads as a misprint. An all-rounder of unrecorded type now has no such line; a known
    type other than Medium still gets it."""
    from cardgen.games.cricket_the_game.kit import stat_lines
    cards = {(c.player.name, c.player.team): c for stats in (bbl_stats, hundred_stats)
             for squad in season_squads(stats).values() for c in squad}
    clarke = cards[("Joe Clarke", "Welsh Fire")]
    oneill = cards[("Fergus O'Neill", "Melbourne Renegades")]
    assert clarke.role == oneill.role == "allrounder"
    assert stat_lines(clarke, 5)[1:] == ["Bowling: did not bowl"]
    assert stat_lines(oneill)[1:] == ["Bowling: 7 wkts, 25.3 ov, econ 6.94"]
    for card in cards.values():
        lines = stat_lines(card)
        assert not any("unknown type" in line for line in lines if card.role == "allrounder")
        if card.role == "allrounder" and card.player.bowling_type not in ("*", "Medium"):
            assert lines[-1] == f"Really bowls: {card.player.bowling_type}"


@pytest.mark.needs_data
def test_the_squad_sheet_prints_confidence_with_the_cards_minus(squads) -> None:
    """Gamer's audit: the squad sheet printed a Confidence of -1 with a hyphen ("-1") while the
    cards print a true minus ("\u22121"). Both now print it the cards' way: on BBL 2024-25's
    squads (18 players at -1), the sheet's every negative Confidence is "\u22121", no hyphen."""
    import re

    import pypdfium2 as pdfium

    from cardgen.games.cricket_the_game.kit import squads_pdf
    negative = sum(c.confidence < 0 for squad in squads.values() for c in squad)
    assert negative >= 10
    for paper in ("a4", "letter"):
        data = squads_pdf(squads, "BBL 2024-2025", paper, "Data: Cricsheet")
        text = "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data))
        assert text.count("\u22121") == negative, paper
        assert not re.search(r"(?<![\w.])-\d", text), paper
    from cardgen.games.cricket_the_game.kit import confidence_text
    assert [confidence_text(c) for c in (-1, 0, 2)] == ["\u22121", "0", "+2"]


@pytest.mark.needs_data
def test_a_card_of_one_who_never_batted_says_he_did_not_bat(bbl_stats, hundred_stats) -> None:
    """Gamer's audit: a bowler who never came in to bat printed "Batting: 0 runs in 0 inns" above
    "Bowling: ..." (Wes Agar and Tanveer Sangha, Sydney Thunder, BBL 2024-25; Tymal Mills, The
    Hundred 2024), while one who never bowled reads "Bowling: did not bowl". It now reads
    "Batting: did not bat", on the card and the squad sheet; one who came in and faced no ball
    (Danny Briggs, Southern Brave: 1 innings) keeps "0 runs in 1 inns"."""
    from cardgen.games.cricket_the_game.kit import compact_stats, stat_lines
    cards = {(c.player.name, c.player.team): c for stats in (bbl_stats, hundred_stats)
             for squad in season_squads(stats).values() for c in squad}
    for key in (("Wes Agar", "Sydney Thunder"), ("Tanveer Sangha", "Sydney Thunder"),
                ("Tymal Mills", "Southern Brave")):
        assert stat_lines(cards[key])[0] == "Batting: did not bat", key
        assert compact_stats(cards[key]).startswith("did not bat \u00b7 "), key
    briggs = cards[("Danny Briggs", "Southern Brave")]
    assert stat_lines(briggs, 5)[0] == "Batting: 0 runs in 1 inns" and compact_stats(briggs).startswith("0 runs")
    for key, card in cards.items():
        assert (stat_lines(card)[0] == "Batting: did not bat") == (card.player.innings == 0), key
        assert "in 0 inns" not in stat_lines(card)[0], key


@pytest.mark.needs_data
def test_the_last_sheet_has_no_crop_marks_along_its_empty_row(squads) -> None:
    """Gamer's audit: a part-filled sheet's empty rows still printed their crop marks. The 96
    cards of BBL 2024-25 fill ten 3 x 3 sheets and six cards of an eleventh, which marks only the
    cut lines its cards have (all four columns' lines, its two rows' three); a full sheet keeps
    every mark."""
    import io
    import math

    import pypdf
    from pypdf.generic import ContentStream

    from cardgen.games.cricket_the_game.kit import cards_pdf

    def lines(page) -> tuple[int, int]:
        ops = ContentStream(page.get_contents(), page.pdf).operations
        depth, start, xs, ys = 0, None, set(), set()
        for operands, op in ops:
            depth += {b"q": 1, b"Q": -1}.get(op, 0)
            if depth == 0 and op == b"m":
                start = [float(v) for v in operands]
            elif depth == 0 and op == b"l" and start is not None:
                end = [float(v) for v in operands]
                if math.isclose(start[0], end[0]):
                    xs.add(round(start[0], 2))
                elif math.isclose(start[1], end[1]):
                    ys.add(round(start[1], 2))
        return len(xs), len(ys)

    for paper in ("a4", "letter"):
        pages = pypdf.PdfReader(io.BytesIO(cards_pdf(squads, "BBL 2024-2025", paper, "credit"))).pages
        assert sum(len(team) for team in squads.values()) == 96
        assert len(pages) == 11
        assert [lines(page) for page in pages] == [(4, 4)] * 10 + [(4, 3)], paper
