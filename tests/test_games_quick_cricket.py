"""Quick Cricket: the cards' rules with scripted draws, and invariants over 10,000 innings."""
from __future__ import annotations

import numpy as np
import pytest

from cardgen.games.base import SimContext
from cardgen.games.quick_cricket import SYSTEM
from cardgen.games.quick_cricket import rules as R
from cardgen.games.quick_cricket.engine import (
    BIG_HIT,
    Ball,
    Batter,
    Bowler,
    Choice,
    Innings,
    Over,
    RngDraws,
    ScriptedDraws,
    ScriptExhausted,
    Umpires,
    View,
    _umpire_decision,
    play_innings,
    play_over,
    resolve,
    style_of_over,
)

SLOWER = 3   # "Slower ball", risk 4: upright it changes length (A -> B)


class FixedBatter(Batter):
    """Plays the same cards every over (scripted tests)."""

    def __init__(self, choice: Choice, hook: bool = False) -> None:
        self.fixed = choice
        self.hook = hook

    def choose(self, view: View) -> Choice:
        return self.fixed

    def hit_the_bouncer(self, view: View, risk: int) -> bool:
        return self.hook


class GreenBowler(Bowler):
    """Bowls one no-ball first (the Cutter turned round: the green quadrant), then as usual."""

    def __init__(self) -> None:
        self.first = True

    def path(self, draws, style, pitch, remaining):  # type: ignore[no-untyped-def]
        if self.first:
            self.first = False
            return 2, 1
        return super().path(draws, style, pitch, remaining)


def test_worked_example_from_the_rules() -> None:
    # Pitch in A, the slower ball (risk 4) to B; batter moves to B (the Path) and strokes through
    # D (empty) with 3 down: Runs = chart D (10) + 4 = 14
    assert R.moved(R.A, R.PATH_CARDS[SLOWER].orientations[0]) == R.B
    for style in ("pace", "spin"):
        ball = resolve(style, R.A, R.B, 4, Choice(R.B, R.D), wickets=3, fielder=R.C)
        assert (ball.runs, ball.out, ball.appeal) == (14, None, None)
    # the same stroke into the fielder's quadrant loses 4
    assert resolve("pace", R.A, R.B, 4, Choice(R.B, R.D), 3, fielder=R.D).runs == 10


def test_outcome_table_cells() -> None:
    # pitch A, path B (risk 1); C and D are empty. Rows: stroke class, columns: move class.
    assert resolve("pace", R.A, R.B, 1, Choice(R.A, R.A), 0, R.C) == Ball()                    # 0
    assert resolve("pace", R.A, R.B, 1, Choice(R.C, R.B), 0, R.D) == Ball(runs=4 + 1, four=True)
    assert resolve("pace", R.A, R.B, 1, Choice(R.C, R.B), 0, R.B) == Ball()                    # fielded 4
    assert resolve("pace", R.A, R.B, 1, Choice(R.C, R.A), 0, R.B).appeal == "caught"
    assert resolve("pace", R.A, R.B, 1, Choice(R.A, R.C), 0, R.B) == Ball(appeal="lbw", flips=1)
    assert resolve("spin", R.A, R.B, 1, Choice(R.A, R.C), 0, R.B) == Ball(out="lbw")           # plumb
    assert resolve("spin", R.A, R.B, 1, Choice(R.C, R.D), 0, R.B) == Ball(out="bowled")
    # an edge with the fielder beside A or D turns two umpire cards, otherwise one
    assert resolve("pace", R.A, R.B, 1, Choice(R.C, R.A), 0, R.D).flips == 2
    assert resolve("pace", R.A, R.B, 1, Choice(R.C, R.A), 0, R.C).flips == 1


def test_yorker_bouncer_and_big_hit() -> None:
    big = Choice(BIG_HIT, BIG_HIT)
    # yorker (pitch = path, full): a big hit is bowled; otherwise no quadrant is "Path"
    assert resolve("pace", R.A, R.A, 1, big, 0, R.C) == Ball(out="bowled")
    assert resolve("spin", R.B, R.B, 1, big, 0, R.C) == Ball(out="bowled")   # spin: a yorker anywhere
    assert resolve("pace", R.D, R.D, 2, Choice(R.D, R.D), 0, R.C) == Ball()
    # big hit off any other ball: Runs chart at the PITCH quadrant + risk + 6, a catch appeal
    ball = resolve("pace", R.B, R.C, 2, big, 0, fielder=R.B)
    assert (ball.runs, ball.six, ball.appeal, ball.flips) == (12 + 2 + 6, True, "caught", 1)
    # bouncer (pace, pitch = path in B or C): moved into it -> catch appeal, else 2 + risk
    assert resolve("pace", R.C, R.C, 1, Choice(R.B, R.A), 0, R.A) == Ball(runs=3, appeal="caught", flips=1)
    # moved away: ducks (a dot) or hooks it as a big hit
    assert resolve("pace", R.C, R.C, 1, Choice(R.A, R.B), 0, R.A) == Ball()
    assert resolve("pace", R.C, R.C, 1, Choice(R.A, R.B), 0, R.A, hit_the_bouncer=True).six
    assert R.is_yorker("pace", R.A, R.A) and not R.is_yorker("pace", R.B, R.B)


def test_umpire_cards_and_reviews() -> None:
    ump = Umpires()
    assert ump.appeal(ScriptedDraws([1]), 1) is False          # a NOT OUT of three
    # two flips from the last two face-down cards: certainly out (no draw needed for the last)
    assert Umpires(face_down=2).appeal(ScriptedDraws([1]), 2) is True
    inn, bowler, batter = Innings(), Bowler(), Batter()
    over = Over(1, "pace", R.A, 0, R.A, Choice(R.A, R.B))
    # umpire says OUT (card 0 of 3); the batter reviews, the reshuffled three give NOT OUT
    ump = Umpires()
    out = _umpire_decision(inn, ump, ScriptedDraws([0, 2]), Ball(appeal="lbw", flips=1), batter, bowler, over)
    assert out is False and over.review == "batting kept" and inn.reviews_left["batting"] == 3
    assert ump.face_down == 3                                 # an OUT was turned: reshuffled
    # NOT OUT with two face down: the bowler reviews and the OUT comes up
    ump = Umpires(face_down=2)
    out = _umpire_decision(inn, ump, ScriptedDraws([1, 0]), Ball(appeal="caught", flips=1), batter,
                           bowler, over)
    assert out is True and over.review == "bowling kept"
    # NOT OUT from three: no review (1 in 3 odds), the turned card stays up
    ump = Umpires()
    assert not _umpire_decision(inn, ump, ScriptedDraws([2]), Ball(appeal="lbw", flips=1), batter,
                                bowler, over)
    assert ump.face_down == 2 and inn.reviews_left == {"batting": 3, "bowling": 3}
    # a failed batting review is lost
    ump = Umpires()
    assert _umpire_decision(inn, ump, ScriptedDraws([0, 0]), Ball(appeal="lbw", flips=1), batter,
                            bowler, over)
    assert inn.reviews_left["batting"] == 2


def test_scripted_over_and_no_ball() -> None:
    # draws: pitch A (0), card 3 = slower ball (its only legal orientation needs no draw)
    inn = Innings(wickets=3, partnerships=[0, 0, 0, 0])
    over = play_over(inn, Umpires(), ScriptedDraws([0, 3]), "spin", (0, 1, 2, 3), R.C, 20,
                     FixedBatter(Choice(R.B, R.D)), Bowler())
    assert (over.pitch, over.path, over.runs, inn.runs, inn.overs) == (R.A, R.B, 14, 14, 1)
    # a green Path: 5 runs, all cards back, the over bowled again (draws: pitch, pitch, card, orient.)
    inn = Innings()
    play_over(inn, Umpires(), ScriptedDraws([0, 1, 0, 0]), "pace", (0, 1, 2, 3), R.C, 20,
              FixedBatter(Choice(R.A, R.A)), GreenBowler())
    assert inn.no_balls == 1 and inn.overs == 1 and inn.log[0].no_ball and inn.runs == 5
    assert inn.log[1].pitch == R.B and inn.log[1].card == 0 and inn.log[1].path == R.B


def test_scripted_draws_run_out() -> None:
    with pytest.raises(ScriptExhausted):
        play_innings(ScriptedDraws([0, 0, 0]))


def test_spells_alternate_and_each_path_card_once_per_spell() -> None:
    inn = play_innings(RngDraws(np.random.default_rng(5)), overs=20)
    legal = [o for o in inn.log if not o.no_ball]
    assert [style_of_over(k) for k in range(8)] == ["pace"] * 4 + ["spin"] * 4
    for start in range(0, len(legal) - 3, 4):
        spell = legal[start:start + 4]
        assert sorted(o.card for o in spell) == [0, 1, 2, 3]
        assert {o.style for o in spell} == {style_of_over(start)}


@pytest.mark.slow
def test_invariants_over_10000_innings() -> None:
    draws = RngDraws(np.random.default_rng(20260101))
    totals, no_balls = [], 0
    for _ in range(10_000):
        inn = play_innings(draws, overs=20)
        assert 0 <= inn.wickets <= 10 and len(inn.fall_of_wickets) == inn.wickets
        assert inn.overs == 20 or inn.wickets == 10
        assert inn.legal_balls == 6 * inn.overs <= 120
        assert inn.runs == sum(inn.partnerships) == sum(o.runs for o in inn.log)
        assert len(inn.partnerships) == min(inn.wickets + 1, 10)
        assert [f[1] for f in inn.fall_of_wickets] == sorted(f[1] for f in inn.fall_of_wickets)
        assert inn.fours + inn.sixes <= inn.overs   # at most one boundary event per over
        assert all(0 <= v <= 3 for v in inn.reviews_left.values())
        assert all(o.runs == 0 for o in inn.log if o.wicket)   # a wicket scores nothing
        totals.append(inn.runs)
        no_balls += inn.no_balls
    # the built-in bowler never chooses a green quadrant
    assert no_balls == 0
    # sanity of scale (not calibration): a 20-over innings of this game makes 100-260 on average
    assert 100 < np.mean(totals) < 260


def test_simulate_innings_is_deterministic() -> None:
    ctx = SimContext(comp=None, season=None, source=None, overs=20)
    a = SYSTEM.simulate_innings(np.random.default_rng(3), 300, ctx)
    b = SYSTEM.simulate_innings(np.random.default_rng(3), 300, ctx)
    assert a.equals(b) and list(a.columns) == ["runs", "wickets", "fours", "sixes", "legal_balls"]
    assert (a["legal_balls"] <= 120).all() and (a["wickets"] <= 10).all()


def _texts_and_strokes(pdf: bytes, index: int) -> tuple[list, list]:
    """Page `index` of a PDF: [(string, size pt, (left, top, right, bottom) mm)] of its texts, and
    its stroked segments (x1, y1, x2, y2 mm) with their stroke width (mm), read back with pdfium."""
    import ctypes

    import pypdfium2
    import pypdfium2.raw as raw

    from cardgen.render.layout import MM
    from cardgen.render.preflight import _segments
    from tests.test_render_layout import pdf_texts
    page = pypdfium2.PdfDocument(pdf)[index]
    H = page.get_height() / MM
    texts = [(text.strip(), size, box) for text, size, box in pdf_texts(pdf, index)]
    strokes = []
    for obj in page.get_objects():
        if obj.type == raw.FPDF_PAGEOBJ_PATH:
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
            if stroke.value:
                width = ctypes.c_float()
                raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
                strokes += [(seg, width.value / MM) for seg in _segments(raw, obj.raw, obj.get_matrix(), H)]
    return texts, strokes


def test_the_printed_cards_text_sits_clear_of_the_quadrant_lines_and_reads_at_6_pt() -> None:
    """Print audit: on the Path cards "P+Path" (7.5 pt bold, 11.03 mm) ran over its 11 mm
    quadrant, touching the grid lines both sides; the quadrant letters were 5 pt, "upright" /
    "turned 180°" 5.5 pt and "Out bowled" 5.85 pt (under 6 pt a home print is hard to read).
    Every text but the credit line now reads at 6 pt or more, and every quadrant label keeps
    clear of the grid line on either side of it."""
    from cardgen.games.quick_cricket.kit import cards_pdf
    pdf = cards_pdf("a4")
    labels = {"P+Path", "Path", "P", "NB"}
    checked = 0
    for index in range(2):
        texts, strokes = _texts_and_strokes(pdf, index)
        for text, size, (left, top, right, bottom) in texts:
            if not text or "18-card game" in text:  # the credit line: not game text
                continue
            assert size >= 6.0 - 1e-6, (text, size)
            if text not in labels:
                continue
            middle = (top + bottom) / 2
            # the vertical grid lines beside the label, at its height: the nearest each side
            sides = [(x1, w) for (x1, y1, x2, y2), w in strokes
                     if abs(x1 - x2) < 1e-6 and min(y1, y2) < middle < max(y1, y2)]
            gap_left = min(left - (x + w / 2) for x, w in sides if x < (left + right) / 2)
            gap_right = min((x - w / 2) - right for x, w in sides if x > (left + right) / 2)
            assert min(gap_left, gap_right) >= 0.3, (text, gap_left, gap_right)
            checked += 1
    assert checked >= 8  # the four Path cards' two drawings each hold a label or two


def test_a_partnership_row_has_a_box_for_every_over_it_can_last() -> None:
    """Gamer's audit: the scoresheet gave each partnership 12 boxes, one per over, but in a fifth of
    the engine's 20-over innings one partnership lasted longer (up to all 20 overs), and the
    scorer ran out of boxes. Every row now has a box for every over of the innings."""
    from cardgen.games.quick_cricket.kit import scoresheet_pdf
    draws = RngDraws(np.random.default_rng(0))
    longest = 0
    for _ in range(300):
        inn = play_innings(draws, overs=20)
        run = 0
        for over in inn.log:
            run += 1
            longest = max(longest, run)
            if over.wicket:
                run = 0
    assert longest > 12  # the old sheet's 12 boxes were not enough
    for paper in ("a4", "letter"):
        texts, strokes = _texts_and_strokes(scoresheet_pdf(paper, overs=20), 0)
        rows = [box for text, _, box in texts if text == "1st wicket"]
        assert len(rows) == 2  # one per innings
        for _, top, _, bottom in rows:
            middle = (top + bottom) / 2
            xs = sorted({round(x1, 2) for (x1, y1, x2, y2), _ in strokes
                         if abs(x1 - x2) < 1e-6 and min(y1, y2) < middle < max(y1, y2)})
            # the row's edges, the partnership-name and total columns, and a box per over between
            boxes = len(xs) - 3
            assert boxes >= max(longest, 20), (paper, boxes)


def test_the_printed_kit_says_a_yorker_s_quadrant_counts_as_pitch_as_the_engine_plays_it() -> None:
    """Gamer's audit: with Pitch and Path in one quadrant (a yorker or bouncer) the printed cards
    did not say whether that quadrant is "Pitch" or "Path" in the outcome table, and the answer
    changes the ball (moved there, stroked elsewhere: an LBW appeal as Pitch, runs as Path). The
    engine counts it as Pitch; both Pitch cards and the rules sheet now say so, and the rules
    sheet has the toss."""
    from cardgen.games.quick_cricket.kit import cards_pdf, rules_sheet_pdf
    from tests.test_render_layout import pdf_texts
    # pace yorker in D (Line and length upright), batter moved to D and stroked through C
    ball = resolve("pace", R.D, R.D, 1, Choice(move=R.D, stroke=R.C), wickets=0, fielder=R.A)
    assert ball.appeal == "lbw"  # Empty row, Pitch column; as Path it would have been runs
    for paper in ("a4", "letter"):
        cards = " ".join(t for t, _, _ in pdf_texts(cards_pdf(paper), 0)).split()
        assert " ".join(cards).count("counts as Pitch") == 2  # the Pace and the Spin Pitch card
    rules = " ".join(" ".join(t for t, _, _ in pdf_texts(rules_sheet_pdf("a4"), 0)).split())
    assert "shared quadrant counts as Pitch" in rules and "Toss a coin" in rules


def test_the_generic_rules_sheets_do_not_assume_a_man_at_the_crease() -> None:
    """Gamer's audit: Quick Cricket's and Competitive Patience's rules sheets (one kit for every
    season, a WPL or Super Smash women's build included) said "quadrants of his choice", "turns
    his cards up", "whenever he can" and "the next man goes on". Patience keeps its own word,
    batsman (its scoresheet's column)."""
    import re

    from cardgen.games.competitive_patience.kit import rules_sheet_pdf as patience_rules
    from cardgen.games.quick_cricket.kit import rules_sheet_pdf
    from tests.test_render_layout import pdf_texts
    for pdf in (rules_sheet_pdf("a4"), patience_rules("a4"), rules_sheet_pdf("letter")):
        text = " ".join(t for t, _, _ in pdf_texts(pdf, 0))
        assert len(text) > 1500
        assert not re.search(r"\b(he|his|him|man|men)\b", text, re.IGNORECASE), re.findall(
            r"[^.]*\b(?:he|his|him|man|men)\b[^.]*", text, re.IGNORECASE)


def test_ink_saver_cards_have_no_filled_areas(tmp_path) -> None:
    """Gamer's audit: `cardgen build --game quick-cricket --ink-saver` printed the cards with
    their solid colour bands and fills (the option was dropped on the way to the kit), while
    Roll & Play and Cricket: The Game print outlines only."""
    import re

    from pypdf import PdfReader

    from cardgen.games.base import BuildRequest

    def filled(files: list) -> int:
        pdf = next(p for p in files if p.name == "cards-a4.pdf")
        return sum(len(re.findall(r"\bre\s+(?:f|B)\b", page.get_contents().get_data().decode("latin-1")))
                   for page in PdfReader(pdf).pages)
    normal = SYSTEM.build(BuildRequest(tmp_path / "n", None, None, None, ("a4",), seed=1))
    saver = SYSTEM.build(BuildRequest(tmp_path / "s", None, None, None, ("a4",), seed=1, ink_saver=True))
    assert filled(normal) > 50 and filled(saver) == 0


def test_the_rules_sheet_marks_this_kits_readings_with_the_engines_own_numbers():
    """Issue 34: where the published rules are silent (the 1-2 and 5-9 down Runs charts, Path
    cards once a spell, the umpire cards) the printed rules sheet says the kit decided, and with
    the numbers the engine plays (rules.py), not a copy that could drift."""
    import io

    import pypdf

    from cardgen.games.quick_cricket import rules as R
    from cardgen.games.quick_cricket.kit import rules_sheet_pdf
    text = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(rules_sheet_pdf("a4"))).pages)
    assert "this kit's readings" in text
    for chart in R.RUNS_CHARTS:
        a, b, c, d = chart.runs
        assert f"(B{b} C{c} A{a} D{d})" in text, chart
    assert "once per four-over spell" in text and R.UMPIRE_CARDS == ("OUT", "NOT OUT", "NOT OUT")
    assert "one OUT, two NOT OUT" in text
