"""Cricket Competitive Patience: each variant's rules on scripted packs, and invariants over
10,000 simulated innings (2,500 of each variant)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from cardgen.games.base import SimContext
from cardgen.games.competitive_patience import SYSTEM
from cardgen.games.competitive_patience.engine import (
    VARIANTS,
    Game,
    Innings,
    PacksExhausted,
    RngPacks,
    ScriptedPacks,
    Table,
    UnknownVariant,
    card_of,
)

# Nine cards that fill the grid with nothing to cover: no pair makes 11, no line of one rank
QUIET = ["AC", "2C", "3C", "4C", "5C", "AD", "2D", "3D", "4D"]
# Six cards that finish a grid quietly once its top row is covered
TAIL = ["4D", "2D", "3D", "3H", "5H", "4H"]


def pack(*names: str) -> list[int]:
    """These cards on top, then the rest of the pack in order (a full 52)."""
    top = [card_of(n) for n in names]
    return top + [c for c in range(52) if c not in top]


def one_turn(variant: str, role: str, *names: str) -> tuple[Innings, object]:
    game = Game(variant)
    inn = Innings()
    turn = game.play_turn(Table(ScriptedPacks([pack(*names)])), inn, role)
    return inn, turn


def test_quiet_grid_ends_the_turn_after_nine_cards() -> None:
    inn, turn = one_turn("british", "batting", *QUIET)
    assert (turn.cards, turn.runs, turn.wickets, inn.batsmen) == (9, 9, 0, [9])
    inn, turn = one_turn("british", "bowling", *QUIET)
    assert (turn.cards, turn.runs, turn.wickets) == (9, 0, 0)


def test_pair_making_eleven_is_covered() -> None:
    table = Table(ScriptedPacks([pack("3C", "8C", "AC", "2C", "4C", "5C", "AD", "2D", "4D", "5D", "3H")]))
    game, inn = Game("british"), Innings()
    turn = game.play_turn(table, inn, "batting")
    assert turn.cards == 11 and turn.runs == 11
    assert table.grid[:2] == [card_of("AC"), card_of("2C")]   # 3 and 8 covered, in grid order


def test_british_three_of_a_kind_in_a_line() -> None:
    # batting: the third 7 runs the batsman out (his three cards count); the new man scores the rest
    inn, turn = one_turn("british", "batting", "7C", "7D", "7H", "2C", "3C", "5C", *TAIL)
    assert turn.events == ["3: wicket: run out (three of a kind in a line)"]
    assert (turn.cards, turn.runs, inn.wickets, inn.batsmen) == (12, 12, 1, [3, 9])
    # bowling: 4 byes instead
    inn, turn = one_turn("british", "bowling", "7C", "7D", "7H", "2C", "3C", "5C", *TAIL)
    assert (turn.runs, turn.wickets, inn.extras) == (4, 0, 4)


def test_british_jack_queen_king() -> None:
    inn, turn = one_turn("british", "batting", "JC", "QC", "KC", "2C", "3C", "5C", *TAIL)
    assert (turn.cards, turn.runs, turn.sixes, turn.fours) == (12, 15, 1, 0)   # 6 for the three
    inn, turn = one_turn("british", "batting", "JC", "QD", "KC", "2C", "3C", "5C", *TAIL)
    assert (turn.runs, turn.sixes, turn.fours) == (13, 0, 1)                   # 4 for the three
    inn, turn = one_turn("british", "bowling", "JC", "QD", "KC", "2C", "3C", "5C", *TAIL)
    assert (turn.runs, inn.extras, turn.events) == (1, 1, ["3: wide (J-Q-K)"])


def test_bowler_takes_a_wicket_every_21_cards_in_random_turns() -> None:
    game = Game("british")
    table, inn = Table(RngPacks(np.random.default_rng(11))), Innings()
    for _ in range(300):
        turn = game.play_turn(table, inn, "bowling")
        by_cards = sum("cards" in e for e in turn.events)
        assert by_cards == turn.cards // 21 or inn.wickets == 10
        if inn.wickets == 10:
            inn = Innings()


def test_derek_hill() -> None:
    game = Game("derek-hill")
    inn = game.play_innings(ScriptedPacks([pack(*QUIET)] + [list(range(52))] * 40))
    assert inn.turns[0].role == "batting" and inn.turns[0].runs == 9   # batting side first
    # a run of three in a line is a wicket whoever deals
    for role in ("batting", "bowling"):
        _, turn = one_turn("derek-hill", role, "2C", "3D", "4C", "AC", "AD", "5C", "5D", "AH", "5H")
        assert turn.events[0] == "3: wicket: run of three in a line"
    # Q-K-A counts as a run; the bowler never covers (the 3 and 8 stay: nine cards, turn over)
    _, turn = one_turn("derek-hill", "bowling", "QC", "KD", "AC", "3C", "8C", "5C", "5D", "2H", "5H")
    assert turn.events[0] == "3: wicket: run of three in a line" and turn.cards == 9
    _, turn = one_turn("derek-hill", "batting", "3C", "8C", *QUIET)
    assert turn.cards > 9                                               # the batter covers


def test_south_african() -> None:
    inn, turn = one_turn("south-african", "batting", "KC", "QD", "JH", "2C", "3C", "5C", *TAIL)
    assert turn.runs == 12 + 50 and turn.events == ["3: K-Q-J in a line: half century"]
    inn, turn = one_turn("south-african", "bowling", "KC", "QD", "JH", "2C", "3C", "5C", *TAIL)
    assert inn.wickets == 6   # five for the line, one for the 11th card
    assert turn.events == ["3: wicket: K-Q-J in a line"] * 5 + ["11: wicket: 11 cards"]
    # threes of a kind do nothing and are not covered
    inn, turn = one_turn("south-african", "batting", "7C", "7D", "7H", "2C", "3C", "5C", "2D", "3D", "5D")
    assert turn.cards == 9 and inn.wickets == 0


def test_new_zealand() -> None:
    # the lower card of a pair is covered first: 3 (cell 1) before 8 (cell 0)
    table, inn = Table(ScriptedPacks([pack("8C", "3C", "2C", "4C", "5C", "AC", "AD", "2D", "4D", "5D", "3H")])), Innings()
    Game("new-zealand").play_turn(table, inn, "batting")
    assert table.grid[:2] == [card_of("4C"), card_of("2C")]
    # covering three of a kind: 60 runs batting, a hat trick bowling; no byes or wides
    inn, turn = one_turn("new-zealand", "batting", "7C", "7D", "7H", "2C", "3C", "5C", *TAIL)
    assert turn.runs == 12 + 60 and inn.wickets == 0
    inn, turn = one_turn("new-zealand", "bowling", "7C", "7D", "7H", "2C", "3C", "5C", *TAIL)
    assert inn.wickets == 3 and inn.extras == 0
    inn, turn = one_turn("new-zealand", "bowling", "JC", "QD", "KC", "2C", "3C", "5C", *TAIL)
    assert inn.extras == 0 and turn.cards == 12


def test_new_pack_and_new_grid_when_the_pack_runs_out() -> None:
    table, inn = Table(ScriptedPacks([[card_of(n) for n in ("AC", "2C", "3C")], pack(*QUIET)])), Innings()
    turn = Game("british").play_turn(table, inn, "batting")
    assert turn.new_packs == 1 and turn.cards == 3 + 9
    assert table.grid == [card_of(n) for n in QUIET]
    with pytest.raises(PacksExhausted):
        Game("british").play_turn(Table(ScriptedPacks([[card_of("AC")]])), Innings(), "batting")
    with pytest.raises(UnknownVariant):
        Game("australian")


@pytest.mark.slow
def test_invariants_over_4000_innings() -> None:
    # 1,000 innings a variant: every turn path (short grids, bonus cards, the last wicket) comes up
    # hundreds of times, and the whole check stays a few seconds
    for k, variant in enumerate(VARIANTS):
        game, packs = Game(variant), RngPacks(np.random.default_rng(100 + k))
        for _ in range(1_000):
            inn = game.play_innings(packs)
            assert inn.wickets == 10                          # played to the last wicket
            assert inn.cards == sum(t.cards for t in inn.turns)
            assert inn.runs == sum(t.runs for t in inn.turns) == sum(inn.batsmen) + inn.extras
            assert sum(t.wickets for t in inn.turns) == 10
            assert len(inn.batsmen) == 10                     # ten batsmen out, the last one not in
            roles = [t.role for t in inn.turns]
            assert roles[0] == ("batting" if variant == "derek-hill" else "bowling")
            assert all(a != b for a, b in itertools.pairwise(roles))   # turns alternate
            for t in inn.turns[:-1]:                          # every finished turn filled the grid
                assert t.cards >= 9
            for t in inn.turns:
                if t.role == "batting":
                    assert t.runs >= t.cards                  # one run a card, plus bonuses
                elif variant != "south-african":              # (SA: K-Q-J takes 5 at once)
                    assert t.wickets <= t.cards // VARIANTS[variant].cards_per_wicket + (
                        3 * t.cards if variant != "british" else 0)
            if variant != "british":
                assert inn.fours == inn.sixes == 0


def test_simulate_innings_columns_and_seed() -> None:
    ctx = SimContext(comp=None, season=None, source=None)
    a = SYSTEM.simulate_innings(np.random.default_rng(1), 50, ctx, variant="south-african")
    b = SYSTEM.simulate_innings(np.random.default_rng(1), 50, ctx, variant="south-african")
    assert a.equals(b) and (a["wickets"] == 10).all() and (a["legal_balls"] >= 9).all()


def test_the_rules_card_says_what_the_engine_scores() -> None:
    """Gamer's audit: the rules card gave South Africa's K-Q-J "50 runs" and New Zealand's covered
    triple "60 runs" (a total, or on top of a run a card? the engine adds them), did not say that
    Derek Hill's run of three counts in any order, and left out the cut for who chooses to bat."""
    from pypdf import PdfReader
    import io

    from cardgen.games.competitive_patience.kit import rules_sheet_pdf
    _, south_african = one_turn("south-african", "batting", "KC", "QD", "JH", "2C", "3C", "5C", *TAIL)
    assert south_african.runs == south_african.cards + 50
    _, new_zealand = one_turn("new-zealand", "batting", "7C", "7D", "7H", "2C", "3C", "5C", *TAIL)
    assert new_zealand.runs == new_zealand.cards + 60
    _, derek_hill = one_turn("derek-hill", "bowling", "4C", "2D", "3H", "AC", "AD", "5C", "5D", "AH", "5H")
    assert derek_hill.events[0] == "3: wicket: run of three in a line"   # 4-2-3 across the top
    for paper in ("a4", "letter"):
        page = PdfReader(io.BytesIO(rules_sheet_pdf(paper))).pages[0]
        text = " ".join(page.extract_text().split())
        assert "50 extra runs" in text and "60 extra runs" in text and "besides a run a card" in text
        assert "in any order" in text and "higher cut chooses to bat or bowl" in text


def test_the_rules_card_shows_the_grid_numbered_as_the_engine_deals_it() -> None:
    """Gamer's audit: the published rules deal the grid "as shown by the numbers in the diagram";
    the rules card had no diagram. It now prints the 3 x 3 grid numbered 1-9, row by row from the
    top left, which is how the engine's lines number the cells (rows 0-1-2, 3-4-5, 6-7-8)."""
    from cardgen.games.competitive_patience.engine import LINES
    from cardgen.games.competitive_patience.kit import rules_sheet_pdf
    from tests.test_render_layout import pdf_texts
    assert LINES[:3] == ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    for paper in ("a4", "letter"):
        digits = {t.strip(): (left, top) for t, _, (left, top, _, _) in pdf_texts(rules_sheet_pdf(paper), 0)
                  if t.strip() in {str(n) for n in range(1, 10)}}
        assert len(digits) == 9, digits
        for cell in range(9):
            x, y = digits[str(cell + 1)]
            row, col = divmod(cell, 3)
            # same row: same height; next column: to the right; next row: lower down
            assert abs(y - digits[str(3 * row + 1)][1]) < 0.5 and abs(x - digits[str(col + 1)][0]) < 0.5
            if col:
                assert x > digits[str(cell)][0] + 5
            if row:
                assert y > digits[str(cell - 2)][1] + 5


def test_the_scoresheet_has_a_fall_of_wicket_for_every_batsman() -> None:
    """Gamer's audit: the rules card lets the players agree on eleven wickets ("ten wickets, or
    eleven if you agree beforehand") and the scoresheet names eleven batsmen, but each innings'
    fall of wickets stopped at 10-___, so the eleventh had nowhere to go; and each blank was 4 mm,
    too short to write a score (a British innings makes ~300, up to ~700). Both papers now print
    1-_____ to 11-_____, blanks of 6.6 mm, on one line inside the 12 mm margins."""
    import re

    from cardgen.games.competitive_patience.kit import rules_sheet_pdf, scoresheet_pdf
    from cardgen.render.fonts import text_width_mm
    from tests.test_render_layout import pdf_texts
    from pypdf import PdfReader
    import io
    assert "eleven if you agree" in " ".join(PdfReader(io.BytesIO(rules_sheet_pdf("a4"))).pages[0]
                                             .extract_text().split())
    for paper, width_mm in (("a4", 210.0), ("letter", 215.9)):
        texts = pdf_texts(scoresheet_pdf(paper))
        rows = [t for t, _, _ in texts if re.fullmatch(r"\d+", t.strip())]
        assert rows.count("11") == 2            # eleven batsmen an innings, two innings
        falls = [(t, size, box) for t, size, box in texts if "Fall of wickets" in t]
        assert len(falls) == 2
        for text, size, (left, _, right, _) in falls:
            slots = re.findall(r"(\d+)-(_+)", text.split("Fall of wickets")[1])
            assert [int(n) for n, _ in slots] == list(range(1, 12)), text
            assert min(text_width_mm(blank, "regular", size) for _, blank in slots) >= 6.0, text
            assert left >= 12 - 0.01 and right <= width_mm - 12, (paper, right)
