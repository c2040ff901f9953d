"""Preflight on hand-made PDFs: each fault it must catch, and a clean page it must pass."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import main
from cardgen.render.common import new_canvas
from cardgen.render.fonts import PDF_NAMES
from cardgen.render.layout import MM
from cardgen.render.preflight import check_folder, check_pdf
from conftest import as_model


def _a4(draw) -> bytes:  # type: ignore[no-untyped-def]
    """One A4 page; `draw(canvas, height_pt)` with y measured in points from the bottom."""
    canvas, buf, _, h = new_canvas("a4", "test", "credit")
    draw(canvas, h * MM)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _text(canvas, x_mm: float, y_from_bottom_mm: float, text: str, size: float = 10.0,
          font: str = PDF_NAMES["regular"]) -> None:  # type: ignore[no-untyped-def]
    canvas.setFont(font, size)
    canvas.drawString(x_mm * MM, y_from_bottom_mm * MM, text)


def test_a_clean_page_has_no_problems():
    def draw(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 20, 250, "Quicket Cricket")
        _text(c, 20, 240, "Second line, well clear of the first")
        c.setLineWidth(0.2 * MM)
        c.line(20 * MM, 230 * MM, 120 * MM, 230 * MM)  # a rule below the text, crossing nothing
        c.rect(0, 0, 210 * MM, 30 * MM, stroke=0, fill=1)  # a background fill may bleed off the edge
    assert check_pdf(_a4(draw), "clean.pdf") == []


def test_text_two_mm_from_the_edge_is_reported_with_page_and_place():
    def draw(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 60, 2.0, "footer two millimetres from the bottom edge", size=6)
        _text(c, 60, 150, "safe text in the middle")
    problems = check_pdf(_a4(draw), "edge.pdf")
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.file, problem.page) == ("edge.pdf", 1)
    assert "within 5 mm of the paper edge" in problem.what and "footer two" in problem.where
    assert str(problem).startswith("edge.pdf page 1: text within 5 mm")


def test_overlapping_text_is_reported():
    def draw(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 40, 150, "Match ______________")
        _text(c, 60, 151, "BBL 2024-25 scoresheet title")  # runs into the first text
    problems = check_pdf(_a4(draw), "overlap.pdf")
    assert [p.what.split(" '")[0] for p in problems] == ["text overlaps text"]


def test_text_lines_set_at_normal_leading_do_not_count_as_overlapping():
    def draw(c, _h):  # type: ignore[no-untyped-def]
        for i in range(5):  # 10 pt text on 11.5 pt leading, descenders and all
            c.setFont(PDF_NAMES["regular"], 10)
            c.drawString(30 * MM, 200 * MM - i * 11.5, "Typography: jumpy quoits, gleefully")
    assert check_pdf(_a4(draw), "leading.pdf") == []


def test_a_line_through_text_and_a_crop_mark_in_the_no_print_zone_are_reported():
    def draw(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 30, 150, "Out bowled")
        c.setLineWidth(0.2 * MM)
        c.line(38 * MM, 140 * MM, 38 * MM, 160 * MM)  # a cell border through the word
        c.line(50 * MM, 0, 50 * MM, 3 * MM)  # a crop mark the printer cannot print
    whats = sorted(p.what for p in check_pdf(_a4(draw), "lines.pdf"))
    assert whats == ["a line runs through text", "line within 5 mm of the paper edge"]


def test_blank_texts_count_for_nothing_and_problems_name_the_text_concerned():
    """Preflight reads a text's string only when it has something to report (most of a page's
    time went into reading them all): a blank string still counts for nothing, anywhere."""
    def draw(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 60, 2.0, "   ", size=6)  # blank, in the no-print zone
        _text(c, 30, 150, "      ")  # blank, over the next text and under a line
        _text(c, 31, 150.5, "Caught")
        c.setLineWidth(0.2 * MM)
        c.line(33 * MM, 145 * MM, 33 * MM, 148 * MM)  # below "Caught": touches only the blank
        _text(c, 30, 100, "Run out")
        _text(c, 33, 100.5, "Stumped")  # overlaps "Run out"
        c.line(80 * MM, 95 * MM, 80 * MM, 110 * MM)
        _text(c, 75, 100, "Bowled")  # the line runs through it
    problems = check_pdf(_a4(draw), "blank.pdf")
    assert [(p.what, p.where.split(" mm", 2)[-1]) for p in problems] == [
        ("text overlaps text 'Stumped'", " 'Run out'"), ("a line runs through text", " 'Bowled'")]


def test_a_font_is_reported_at_its_first_text_that_is_not_blank():
    from reportlab.pdfgen.canvas import Canvas
    import io
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(210 * MM, 297 * MM), invariant=1)
    c.setFont("Helvetica", 10)  # not embedded
    c.drawString(30 * MM, 150 * MM, "  ")
    c.drawString(30 * MM, 100 * MM, "Wides")
    c.drawString(30 * MM, 50 * MM, "No balls")
    c.showPage()
    c.save()
    problems = check_pdf(buf.getvalue(), "font.pdf")
    assert [(p.what, p.where.split(" mm", 2)[-1]) for p in problems] == [
        ("font Helvetica not embedded", " 'Wides'")]


def test_unembedded_font_tiny_text_and_odd_page_size_are_reported():
    from reportlab.pdfgen.canvas import Canvas
    import io
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100 * MM, 100 * MM), invariant=1)
    c.setFont("Helvetica", 3)  # one of the standard 14: reportlab does not embed it
    c.drawString(30 * MM, 50 * MM, "tiny")
    c.showPage()
    c.save()
    whats = " | ".join(p.what for p in check_pdf(buf.getvalue(), "odd.pdf"))
    assert "page size is neither A4 nor US Letter" in whats
    assert "font Helvetica not embedded" in whats
    assert "text of 3.0 pt" in whats


def test_cli_prints_one_line_per_problem_and_fails(tmp_path: Path):
    def bad(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 60, 2.0, "too low")
    def good(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 60, 100, "fine")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.pdf").write_bytes(_a4(bad))
    (tmp_path / "good.pdf").write_bytes(_a4(good))
    result = CliRunner().invoke(main, ["preflight", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("preflight: sub/bad.pdf page 1: text within 5 mm")
    assert lines[-1] == "preflight: 1 problem in 2 PDFs"
    (tmp_path / "sub" / "bad.pdf").unlink()
    result = CliRunner().invoke(main, ["preflight", str(tmp_path)])
    assert result.exit_code == 0 and "0 problems in 1 PDF" in result.output
    files, problems = check_folder(tmp_path)
    assert len(files) == 1 and problems == []


def test_cli_on_a_missing_folder_is_one_line(tmp_path: Path):
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "nope")])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "does not exist" in result.output  # a missing folder is named as missing (issue 39 item 8)


def _report_pdf() -> bytes:
    """A page as `validate` and `compare-games` write their reports: reportlab's platypus in
    its sample styles, whose standard Helvetica is not embedded."""
    import io
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=A4, invariant=1).build(
        [Paragraph("Card validation: Big Bash League 2024-25", getSampleStyleSheet()["Title"])])
    return buf.getvalue()


def test_a_kits_screen_reports_are_left_out_and_other_pdfs_are_not(tmp_path: Path):
    """`cardgen preflight OUT/BBL_2024-25` after `validate` failed on validation/validate.pdf's
    Helvetica: the reports are read on screen, not printed. Outside a kit the same PDF counts."""
    def good(c, _h):  # type: ignore[no-untyped-def]
        _text(c, 60, 100, "fine")
    assert any("not embedded" in p.what for p in check_pdf(_report_pdf(), "validate.pdf"))
    kit = tmp_path / "BBL_2024-25"
    for folder in ("validation", "compare-games"):
        (kit / folder).mkdir(parents=True)
        (kit / folder / f"{folder}.pdf").write_bytes(_report_pdf())
    (kit / "cards-a4.pdf").write_bytes(_a4(good))
    (kit / "card-set.json").write_text("{}")
    result = CliRunner().invoke(main, ["preflight", str(kit)])
    assert result.exit_code == 0 and "0 problems in 1 PDF" in result.output
    (kit / "card-set.json").unlink()  # not a kit: every PDF under the folder is checked
    files, problems = check_folder(kit)
    assert len(files) == 3 and {p.file for p in problems} == {"validation/validation.pdf",
                                                              "compare-games/compare-games.pdf"}


def _listed_fonts(pdf: bytes) -> set[tuple[str, bool]]:
    """Every font any page lists in its resources: (base name, embedded)."""
    import io

    import pypdf
    fonts = set()
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            inner = font["/DescendantFonts"][0].get_object() if font["/Subtype"] == "/Type0" else font
            descriptor = inner.get("/FontDescriptor")
            fonts.add((str(font["/BaseFont"]).lstrip("/"),
                       descriptor is not None and "/FontFile2" in descriptor.get_object()))
    return fonts


def test_a_listed_but_unused_font_that_is_not_embedded_is_reported_once():
    """Issue 42: every kit PDF listed reportlab's opening Helvetica in each page's fonts, unused
    and not embedded; a print shop's preflight flags it, ours did not (no text drew in it)."""
    import io

    from reportlab.pdfgen.canvas import Canvas
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(210 * MM, 297 * MM), invariant=1)  # reportlab's default opening font
    for page in range(2):
        _text(c, 30, 150, f"page {page + 1}")  # an embedded face: nothing draws in Helvetica
        c.showPage()
    c.save()
    assert ("Helvetica", False) in _listed_fonts(buf.getvalue())
    problems = check_pdf(buf.getvalue(), "listed.pdf")
    assert [str(p) for p in problems] == [
        "listed.pdf page 1: font Helvetica not embedded at the page's font list (no text uses it)"]


def test_the_kits_pdf_makers_list_only_embedded_fonts():
    """Issue 42: the drawn pages (new_canvas: cards, charts, scoresheets), the flowing documents
    (team sheets, quick reference) and the other games' rules sheets open their pages in an
    embedded face, so no page lists Helvetica; the whole kits' preflight
    (tests/test_render_preflight_kits.py) then checks every PDF of nine kits the same way."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from cardgen.games.printing import rules_pdf
    from cardgen.render.common import flowing_document
    doc, buf = flowing_document("a4", "t", "credit", 12)
    doc.build([Paragraph("Deck 1", ParagraphStyle("p", fontName=PDF_NAMES["bold"]))])
    made = {"canvas": _a4(lambda c, _h: _text(c, 60, 100, "fine")), "document": buf.getvalue(),
            "rules": rules_pdf("letter", "Rules", "credit", [("Setup", ["Shuffle the deck."])])}
    for kind, pdf in made.items():
        fonts = _listed_fonts(pdf)
        assert fonts and all(embedded for _, embedded in fonts), (kind, fonts)
        assert not any("Helvetica" in name for name, _ in fonts), kind
        assert check_pdf(pdf, f"{kind}.pdf") == [], kind


def test_preflight_reports_each_card_sheets_bleed_read_back_from_the_pdf(tmp_path: Path):
    """Issue 42: a print shop asks first for the bleed. `cardgen preflight` reads it back from
    each card sheet at the top of the folder (cut lines from the crop marks, how far the colour
    runs past them): none on a plain sheet, 3.0 / 1.5 mm with --bleed (and on Letter the shops'
    1/8 in and how to get it), the --bleed-mm width when given; a sheet without crop marks (a
    scoresheet) has no bleed line."""
    from cardgen.render.card import card_views
    from cardgen.render.preflight import sheet_bleed
    from cardgen.render.scoresheet import render_scoresheet_pdf
    from cardgen.render.sheets import render_cards_pdf
    from tests.conftest import shipped_set
    card_set = shipped_set("BBL_2024-25", "quicket")
    views = card_views(as_model(card_set))[:9]
    sheets = {"cards-a4.pdf": render_cards_pdf(views, "a4", "t", "c"),
              "cards-letter.pdf": render_cards_pdf(views, "letter", "t", "c", bleed=True),
              "cards-b.pdf": render_cards_pdf(views, "letter", "t", "c", bleed_mm=3.2),
              "scoresheet-a4.pdf": render_scoresheet_pdf(as_model(card_set), "a4", "c")}
    for name, data in sheets.items():
        (tmp_path / name).write_bytes(data)
    assert sheet_bleed(sheets["scoresheet-a4.pdf"], "scoresheet-a4.pdf") is None
    result = CliRunner().invoke(main, ["preflight", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "bleed" in line]
    assert lines == [
        "preflight: cards-a4.pdf: no bleed (9 cards a sheet; --bleed or --bleed-mm for a print shop)",
        "preflight: cards-b.pdf: bleed 3.2 mm past the cut lines (6 cards a sheet)",
        "preflight: cards-letter.pdf: bleed 1.5 mm past the cut lines (8 cards a sheet); US print shops "
        "ask for 3.2 mm (1/8 in): --bleed-mm 3.2"], lines
