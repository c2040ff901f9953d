"""The download site on a small synthetic kit: pages, escaping, links, determinism, CLI, server.

The synthetic kit is what `cardgen build` writes, in miniature: a schema-valid card-set.json,
tiny PDFs (reportlab) and card PNGs (pillow). The real BBL 2024-25 build is used by
test_site_browser.py.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw
from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfgen.canvas import Canvas

from cardgen.cardset import Card, CardSet, CardSetError
from cardgen.cli import main
from cardgen.site.generate import generate_site
from cardgen.site.kit import SiteError
from cardgen.site.linkcheck import check_links
from cardgen.site.serve import make_server
from conftest import as_model

SCHEMA = Path(__file__).resolve().parent.parent.parent / "shared" / "schemas" / "card-set.schema.json"
EVIL_NAME = '<script>alert("owned")</script>'
EVIL_TEAM = "Sydney & <Co>"
PDFS = ("cards-a4.pdf", "cards-letter.pdf", "fielding-chart-a4.pdf", "scoresheet-a4.pdf",
        "team-sheets-a4.pdf", "quick-reference-a4.pdf")


def _pdf(path: Path, title: str, size=A4) -> None:
    canvas = Canvas(str(path), pagesize=size, invariant=1)
    canvas.drawString(72, 720, title)
    canvas.showPage()
    canvas.save()


def _png(path: Path, text: str, colour: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (189, 264), "white")  # 63 x 88 mm at 76 dpi
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 188, 40), fill=colour)
    draw.text((8, 60), text, fill="black")
    image.save(path, format="PNG")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _chart(kind: str) -> list[dict]:
    if kind == "bowler":
        spans = [(1, 1, "B"), (2, 2, "W"), (3, 6, "F"), (7, 41, "0"), (42, 70, "1"),
                 (71, 89, "2"), (90, 96, "4"), (97, 100, "6")]
    else:
        spans = [(1, 1, "W"), (2, 3, "F"), (4, 36, "0"), (37, 67, "1"), (68, 86, "2"),
                 (87, 93, "4"), (94, 100, "6")]
    return [{"lo": lo, "hi": hi, "result": r} for lo, hi, r in spans]


PLAYERS = [  # id, name, team, kind, position
    ("aa000001", "Chris Green", "Sydney Thunder", "bowler", 7),
    ("aa000001", "Chris Green", "Sydney Thunder", "striker", 7),
    ("aa000002", "Cooper Connolly", "Perth Scorchers", "striker", 4),
    ("aa000003", EVIL_NAME, EVIL_TEAM, "striker", 1),
    ("aa000004", "Lance Morris", "Perth Scorchers", "bowler", 12),
]


def make_synthetic_kit(out_dir: Path, code: str = "BBL", season: str = "2024-25",
                       validation: bool = False, rules: str | None = None) -> Path:
    """Write a miniature built kit to out_dir/<code>_<season>/ and return that folder (`rules`
    "advanced": an advanced kit, out_dir/<code>_<season>-advanced/; None: a set from before
    the `rules` field, read as the Quicket rules)."""
    folder = out_dir / f"{code}_{season}{'-advanced' if rules == 'advanced' else ''}"
    folder.mkdir(parents=True)
    cards = []
    for pid, name, team, kind, position in PLAYERS:
        card = {"player": {"id": pid, "name": name, "full_name": name + " (full)", "country": "Australia",
                           "batting_role": "All-Rounder", "bowling_role": "Spin", "catch": 10,
                           "run_out": 8, "keeper": None},
                "team": team, "kind": kind, "chart": _chart(kind), "position": position,
                "real": {"innings": 11, "balls": 246, "runs": 301, "dismissals": 12, "fours": 20,
                         "sixes": 19},
                "expected": ({"economy": 7.30, "wicket_rate": 0.05} if kind == "bowler"
                             else {"strike_rate": 130.1, "dismissal_rate": 0.04})}
        if kind == "bowler":
            card["usage"] = {"letter": "A", "innings": 11}
            card["real"].update({"overs": "41.0", "economy": 7.34,
                                 "phase_balls": {"powerplay": 96, "middle": 102, "death": 48}})
        cards.append(card)
        # the renderer's name: print order, team, name, kind
        _png(folder / "png" / f"{len(cards):03d}-{_slug(team)}-{_slug(name)}-{kind}.png", f"{name} {kind}",
             "#0b4f9c" if kind == "striker" else "#8a1c1c")
    card_set = {
        "schema_version": 1, "season": season, "format": "T20",
        "competition": {"code": code, "name": "Big Bash League", "nation": "Australia", "sex": "men"},
        "fielding_chart": {"cells": [["0"] * 20 for _ in range(6)]},
        "teams": [{"name": "Sydney Thunder", "short_name": "Sydney (T)"},
                  {"name": "Perth Scorchers", "short_name": "Perth"},
                  {"name": EVIL_TEAM, "short_name": "Evil"}],
        "cards": cards, "attribution": "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0.",
        "built": "2026-11-20",
    }
    if rules is not None:
        card_set.update({"rules": rules, "rule": "wickets-in-hand" if rules == "advanced" else "classic"})
    (folder / "card-set.json").write_text(json.dumps(card_set, indent=1, sort_keys=True))
    for name in PDFS:
        _pdf(folder / name, f"{code} {season} {name}", letter if "letter" in name else A4)
    _png(folder / "tts" / "deck-1.png", "TTS sheet", "#0d3b1e")
    if validation:
        (folder / "validation").mkdir()
        (folder / "validation" / "summary.csv").write_text("team,real_runs,sim_runs\nPerth,170,168.2\n")
        _png(folder / "validation" / "runs.png", "plot", "#333333")
        (folder / "validation" / "report.md").write_text("# Validation\nAll <b>good</b>.\n")
        # what `cardgen validate` writes: a JSON summary, a row per card, a PDF report
        (folder / "validation" / "validate_summary.json").write_text(json.dumps(
            {"qualified_cards": 4, "passed": 3, "pass_share": 0.75, "ok": False,
             "metric_pass_share": {"economy": 1.0}}))
        (folder / "validation" / "validate_cards.csv").write_text(
            "kind,player_id,name,team,sim_economy,lo_economy,hi_economy,ok_economy\n"
            "bowler,aa000001,Chris Green,Sydney Thunder,7.2871,6.9,7.7,True\n")
        _pdf(folder / "validation" / "validate.pdf", "Card validation plots")
    return folder


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    out = tmp_path_factory.mktemp("out")
    folder = make_synthetic_kit(out)
    report = generate_site(out)
    return out, folder, report.site_dir


def _pages(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}


def test_a_season_built_both_ways_shows_both_kits_side_by_side_with_which_to_print(tmp_path):
    """Issue 34: `cardgen build` and `cardgen build --rules advanced` of one season make two kits;
    the home page shows them together, the Quicket rules kit first, under a "which kit should I
    print?" paragraph, each named by its rules (as every set page is); a season built one way
    only is shown alone, without the paragraph."""
    out = tmp_path / "out"
    make_synthetic_kit(out, rules="advanced")
    make_synthetic_kit(out, rules="quicket")
    make_synthetic_kit(out, season="2023-24")   # one kit only (a set from before "rules")
    site = generate_site(out).site_dir
    home = (site / "index.html").read_text(encoding="utf-8")
    pairs = re.findall(r'<section class="season-pair".*?</section>', home, re.S)
    assert len(pairs) == 1
    pair = pairs[0]
    assert "Big Bash League 2024-2025: which kit should I print?" in pair
    text = " ".join(re.sub(r"<[^>]+>", "", pair).split())
    assert "The Quicket rules kit is the game as designed" in text
    assert "The Advanced rules kit adds two small rules, wickets in hand and Defence" in text
    assert "whole matches score like the real season" in text
    first, second = (pair.index(f'href="sets/{name}/index.html"') for name in ("BBL_2024-25", "BBL_2024-25-advanced"))
    assert first < second   # side by side, the default kit first
    assert '<span class="rules-mark">Quicket rules</span>' in pair and '<span class="rules-mark">Advanced rules</span>' in pair
    assert 'href="sets/BBL_2023-24/index.html"' in home and 'href="sets/BBL_2023-24/index.html"' not in pair
    for name, title in (("BBL_2024-25", "Quicket rules"), ("BBL_2024-25-advanced", "Advanced rules"),
                        ("BBL_2023-24", "Quicket rules")):
        assert f"<strong>{title}</strong>" in (site / "sets" / name / "index.html").read_text(encoding="utf-8"), name
    assert not check_links(site).broken


@pytest.mark.needs_data
def test_synthetic_card_set_is_valid_against_the_contract(built_site):
    _, folder, _ = built_site
    schema = json.loads(SCHEMA.read_text())
    jsonschema.validate(json.loads((folder / "card-set.json").read_text()), schema)


def test_every_page_type_is_written(built_site):
    _, _, site = built_site
    pages = _pages(site)
    for page in ("index.html", "how-to-print.html", "sets/BBL_2024-25/index.html",
                 "sets/BBL_2024-25/strikers.html", "sets/BBL_2024-25/bowlers.html",
                 "sets/BBL_2024-25/team-perth-scorchers.html",
                 "sets/BBL_2024-25/team-perth-scorchers-bowlers.html",
                 "sets/BBL_2024-25/players/aa000001.html"):
        assert page in pages, page
    home = pages["index.html"]
    for name in PDFS + ("card-set.json", "BBL_2024-25-kit.zip", "deck-1.png"):
        assert name in home, name
    assert "Not validated yet" in pages["sets/BBL_2024-25/index.html"]
    assert "Not validated yet." in pages["sets/BBL_2024-25/players/aa000001.html"]
    assert "not validated yet" in home


def test_filter_pages_hold_only_their_cards(built_site):
    _, _, site = built_site
    pages = _pages(site)
    def kinds(html: str) -> list[tuple[str, str]]:
        return re.findall(r'class="card (striker|bowler)" data-team="([a-z0-9-]+)"', html)

    assert sorted(kinds(pages["sets/BBL_2024-25/index.html"])) == sorted(
        [("bowler", "sydney-thunder"), ("striker", "sydney-thunder"), ("striker", "perth-scorchers"),
         ("striker", "sydney-co"), ("bowler", "perth-scorchers")])
    assert kinds(pages["sets/BBL_2024-25/bowlers.html"]) == [("bowler", "sydney-thunder"),
                                                            ("bowler", "perth-scorchers")]
    assert kinds(pages["sets/BBL_2024-25/team-perth-scorchers-strikers.html"]) == [
        ("striker", "perth-scorchers")]
    # the filter is plain links, so it works with JavaScript off; the current one is marked
    perth = pages["sets/BBL_2024-25/team-perth-scorchers.html"]
    assert re.search(r'<a href="team-perth-scorchers.html"[^>]*aria-current="page"', perth)


def test_player_names_are_escaped(built_site):
    _, _, site = built_site
    for rel, html in _pages(site).items():
        assert "<script>alert" not in html, rel
        assert "& <Co>" not in html, rel
    html = _pages(site)["sets/BBL_2024-25/index.html"]
    assert "&lt;script&gt;alert(&#34;owned&#34;)&lt;/script&gt;" in html
    assert "Sydney &amp; &lt;Co&gt;" in html


def test_the_search_hint_names_a_player_of_the_set(built_site):
    """The Find a player box's hint said "e.g. Short" on every set: BBL's Matt Short, whom an IPL
    2025 or Hundred page does not hold. It now names a player of the set it is on."""
    from bs4 import BeautifulSoup
    _, folder, site = built_site
    names = [c["player"]["name"] for c in json.loads((folder / "card-set.json").read_text())["cards"]]
    pages = _pages(site)
    boxes = 0
    for rel, html in pages.items():
        box = BeautifulSoup(html, "html.parser").find("input", id="find-player")
        if box is None:
            continue
        boxes += 1
        hint = box["placeholder"]
        assert hint.startswith("Name or team, e.g. "), (rel, hint)
        example = hint.removeprefix("Name or team, e.g. ")
        assert any(example in name.split() for name in names), (rel, hint)
    assert boxes >= 3  # the set page, its filter pages and the player index


def test_how_to_print_says_how_to_cut_a_bleed_kit(built_site):
    """A --bleed kit has two crop marks at every gap between cards (each card's own edge, the
    colour running across the strip between): "cut along the crop marks" left a single cut down
    the middle open, which leaves each card 1.5-3 mm too big. The page says to cut at both."""
    _, _, site = built_site
    text = " ".join(re.sub(r"<[^>]+>", " ", _pages(site)["how-to-print.html"]).split())
    assert ("has a pair of marks at each gap between two cards, one for each card's edge: cut at both and "
            "throw away the thin strip between them") in text.replace("&#39;", "'")


def test_every_image_has_alt_text_and_every_page_a_language(built_site):
    from bs4 import BeautifulSoup
    _, _, site = built_site
    for rel, html in _pages(site).items():
        soup = BeautifulSoup(html, "html.parser")
        assert soup.html.get("lang") == "en", rel
        assert soup.find("a", class_="skip")["href"] == "#main", rel
        for img in soup.find_all("img"):
            assert img.get("alt", "").strip(), (rel, img)
        ids = [tag["id"] for tag in soup.find_all(id=True)]
        assert len(ids) == len(set(ids)), rel  # duplicate ids break in-page links and labels
        assert len(soup.find_all("h1")) == 1, rel


def test_player_page_shows_card_real_and_expected(built_site):
    _, _, site = built_site
    html = _pages(site)["sets/BBL_2024-25/players/aa000001.html"]
    assert "Bowler card" in html and "Striker card" in html
    assert "A/11" in html  # usage
    # real economy printed on the card (7.34) against the card's expected 7.30
    assert re.search(r"<th scope=\"row\">Economy</th><td>7.34</td><td>7.30</td>", html)
    # strike rate from the counts: 100 * 301 / 246 = 122.36 against 130.10 expected
    assert re.search(r"Strike rate</th><td>122.36</td><td>130.10</td>", html)
    assert "42–70" in html  # the chart as text
    # when he bowled, in the team sheet's shares: 96, 102 and 48 of his 246 balls
    assert "When bowled</th><td>powerplay 39% · middle 41% · death 20%</td>" in html


def test_a_bowlers_wides_and_no_balls_say_they_are_per_100_balls(tmp_path):
    """The real-against-card table shows wides and no-balls per 100 balls, as it does 4s and dots,
    so its label says so: Adil Rashid's 4 wides in 120 balls (The Hundred 2024) read "Wides 3.3"
    a row below "Wides 4" in the real figures, as if the card had changed his count. The real
    table's no-ball runs read "No-ball runs", as "No-balls" above them."""
    folder = make_synthetic_kit(tmp_path / "out")
    card_set_file = folder / "card-set.json"
    card_set = json.loads(card_set_file.read_text())
    bowler = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000004")
    bowler["real"].update(balls=120, wides=4, no_balls=0, no_ball_runs=0)   # Rashid's real figures
    bowler["expected"].update(wides=0.0222, no_balls=0.0058)                 # and his card's
    card_set_file.write_text(json.dumps(card_set))
    html = _pages(generate_site(tmp_path / "out").site_dir)["sets/BBL_2024-25/players/aa000004.html"]
    assert re.search(r'<th scope="row">Wides</th><td>4</td>', html)
    assert re.search(r'<th scope="row">No-ball runs</th><td>0</td>', html)
    assert re.search(r'<th scope="row">Wides /100 balls</th><td>3.3</td><td>2.2</td>', html)
    assert re.search(r'<th scope="row">No-balls /100 balls</th><td>0.0</td><td>0.6</td>', html)
    assert not re.search(r'<th scope="row">(No balls|Wides|No ball runs)</th><td>[\d.]+</td><td>', html)


@pytest.mark.parametrize("name", ["IPL_2025", "HUNDRED_2024"])
def test_the_real_against_card_table_runs_in_a_cricket_order(name: str) -> None:
    """A bowler's "Real season against the card" rows were sorted by key, so "No-balls /100
    balls" sat between 4s and 6s. They run as the real figures above them do: the rate, wickets,
    4s, 6s, dots, wides, no-balls; a striker's the rate, outs, 4s, 6s, dots. Every card of a
    shipped set."""
    from conftest import _shipped_rule_set
    from cardgen.site.views import card_views
    from cardgen.site.kit import KitSet, Validation
    kit = KitSet(folder=Path(name), card_set=CardSet.from_json(_shipped_rule_set(name)), downloads=[], tts_sheets=[],
                 other_files=[], card_pngs={}, validation=Validation(), build_date="")
    economy = "Economy" + (" (runs per 6 balls)" if name == "HUNDRED_2024" else "")
    order = {"bowler": [economy, "Wickets /100 balls", "4s /100 balls", "6s /100 balls", "Dots /100 balls",
                        "Wides /100 balls", "No-balls /100 balls"],
             "striker": ["Strike rate", "Outs /100 balls", "4s /100 balls", "6s /100 balls", "Dots /100 balls"]}
    views = card_views(kit)
    assert {v.kind for v in views} == {"bowler", "striker"}
    for view in views:
        assert [v.label for v in view.versus] == order[view.kind], (view.name, view.kind)


def test_downloads_are_the_kit_files_byte_for_byte(built_site):
    _, folder, site = built_site
    for name in PDFS + ("card-set.json",):
        assert (site / "sets/BBL_2024-25/files" / name).read_bytes() == (folder / name).read_bytes()
    with zipfile.ZipFile(site / "sets/BBL_2024-25/BBL_2024-25-kit.zip") as zf:
        names = zf.namelist()
        assert zf.read("BBL_2024-25/cards-a4.pdf") == (folder / "cards-a4.pdf").read_bytes()
    expected = sorted(f"BBL_2024-25/{p.relative_to(folder).as_posix()}" for p in folder.rglob("*") if p.is_file())
    assert names == expected


def test_every_link_and_image_resolves(built_site):
    _, _, site = built_site
    report = check_links(site)
    assert report.checked > 100
    assert report.broken == []
    assert {link.target for link in report.external} == {"http://shortseasongames.com"}


def test_link_check_finds_a_broken_link(tmp_path):
    (tmp_path / "index.html").write_text('<a href="gone.html">x</a><img src="a.png" alt="a">'
                                         '<a href="index.html#nowhere">y</a><a href="#here" id="here">z</a>')
    (tmp_path / "a.png").write_bytes(b"png")
    report = check_links(tmp_path)
    assert sorted(link.target for link in report.broken) == ["gone.html", "index.html#nowhere"]


def _digests(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_output_is_deterministic_and_regeneration_replaces_the_site(built_site, tmp_path):
    out, _, site = built_site
    first = _digests(site)
    second_dir = tmp_path / "again"
    generate_site(out, second_dir)
    assert _digests(second_dir) == first
    # a page an earlier run wrote (its marker lists it) goes; a file the user added stays
    marker = json.loads((second_dir / ".cardgen-kit.json").read_text())
    assert marker["kind"] == "site" and marker["manifest_version"] == 1 and "index.html" in marker["files"]
    (second_dir / "stale.html").write_text("old")
    marker["files"].append("stale.html")
    (second_dir / ".cardgen-kit.json").write_text(json.dumps(marker))
    (second_dir / "CNAME").write_text("cards.example.org\n")
    report = generate_site(out, second_dir)
    assert not (second_dir / "stale.html").exists()
    assert (second_dir / "CNAME").read_text() == "cards.example.org\n" and report.kept == ["CNAME"]
    assert [p.name for p in tmp_path.iterdir()] == ["again"]  # no temp folders left behind


def test_validation_folder_is_shown_when_present(tmp_path):
    folder = make_synthetic_kit(tmp_path, validation=True)
    (folder / "validation" / "validate.pdf").chmod(0o600)  # as a temp-file write leaves it
    site = generate_site(tmp_path).site_dir
    # the site is readable by a web server running as another user; the output is untouched
    assert (site / "sets/BBL_2024-25/files/validation/validate.pdf").stat().st_mode & 0o777 == 0o644
    assert (folder / "validation" / "validate.pdf").stat().st_mode & 0o777 == 0o600
    assert all(p.stat().st_mode & 0o004 for p in site.rglob("*"))
    html = (site / "sets/BBL_2024-25/index.html").read_text()
    assert "Not validated yet" not in html
    assert "<td>168.2</td>" in html
    assert 'src="files/validation/runs.png"' in html
    assert "All &lt;b&gt;good&lt;/b&gt;." in html
    assert "3 of 4 qualified cards (75%) play like the real season: did not pass." in html
    assert "<th scope=\"row\">Economy: cards inside the range</th><td>100%</td>" in html
    assert "validate_summary.json" not in html.split('id="validation"')[1].split("All validation files")[0]
    assert "qualified</strong> (judged) when its player faced or bowled at least 60 balls" in " ".join(html.split())
    assert 'src="previews/validate-1.png"' in html  # drawn with pypdfium2, no system binary
    with Image.open(site / "sets/BBL_2024-25/previews/validate-1.png") as preview:
        assert preview.format == "PNG" and preview.width > 100
    player = (site / "sets/BBL_2024-25/players/aa000001.html").read_text()
    assert re.search(r"Economy</th><td>7.34</td><td>7.30</td><td>7.29</td>"
                     r"<td>6.90 – 7.70</td><td>inside</td>", player)
    assert check_links(site).broken == []


@pytest.mark.slow
def test_unreadable_set_is_skipped_and_named(tmp_path):
    make_synthetic_kit(tmp_path)
    bad = tmp_path / "HUNDRED_2024"
    bad.mkdir()
    (bad / "card-set.json").write_text("{not json")
    png = next((tmp_path / "BBL_2024-25" / "png").glob("*-perth-scorchers-lance-morris-bowler.png"))
    png.write_bytes(b"not a png")
    report = generate_site(tmp_path)
    assert report.sets == ["BBL_2024-25"] and report.skipped == ["HUNDRED_2024"]
    assert sorted(report.problems) == [
        "BBL_2024-25: cannot read png/005-perth-scorchers-lance-morris-bowler.png (not an image)",
        f"cannot read {tmp_path / 'HUNDRED_2024' / 'card-set.json'}: Expecting property name enclosed in "
        "double quotes: line 1 column 2 (char 1)"]
    html = (report.site_dir / "sets/BBL_2024-25/index.html").read_text()
    assert "Bowler card: Lance Morris, Perth Scorchers (no image in this build)" in html
    assert check_links(report.site_dir).broken == []
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path)])
    assert result.exit_code == 0 and "warning: " in result.output


def _minimal_set() -> dict:
    return {"schema_version": 1, "competition": {"code": "HUNDRED", "name": "The Hundred (men)"},
            "season": "2024", "format": "100-ball", "fielding_chart": {"cells": [["0"] * 20] * 6},
            "cards": [{"player": {"id": "x1", "name": "Solo"}, "team": "Oval Invincibles",
                       "kind": "striker", "chart": _chart("striker")}]}


@pytest.mark.parametrize("damage, message", [
    (lambda d: [d], "is not a card set (no list of cards)"),
    (lambda d: {k: v for k, v in d.items() if k != "cards"}, "is not a card set (no list of cards)"),
    (lambda d: dict(d, cards=[dict(d["cards"][0], kind="umpire")]),
     "is not a valid card set: cards/0/kind: 'umpire'"),
    (lambda d: dict(d, cards=[{k: v for k, v in d["cards"][0].items() if k != "player"}]),
     "is not a valid card set: cards/0: 'player' is a required"),
    (lambda d: dict(d, cards=[*d["cards"], 7]), "is not a valid card set: cards/1: 7 is not of type 'object'"),
    (lambda d: dict(d, teams="Oval"), "is not a valid card set: teams: 'Oval' is not of type 'array'"),
    (lambda d: dict(d, competition={"name": "The Hundred"}),
     "is not a valid card set: competition: 'code' is a required"),
])
def test_a_hand_edited_set_the_pages_cannot_read_is_one_line_naming_it(tmp_path, damage, message):
    """The site reads the card set once, as the model every page reads (cardset.CardSet): a set
    the shared schema refuses is a SiteError of one line naming the file and the fault (the set
    is then skipped, as an unreadable one), never a traceback from a page deep in the site."""
    from cardgen.site.kit import load_card_set_file
    path = tmp_path / "card-set.json"
    path.write_text(json.dumps(damage(_minimal_set())))
    with pytest.raises(SiteError) as raised:
        load_card_set_file(path)
    assert str(raised.value).startswith(f"{path} ") and message in str(raised.value)
    assert "\n" not in str(raised.value)
    path.write_text(json.dumps(_minimal_set()))
    assert load_card_set_file(path).cards[0].player.name == "Solo"


def test_missing_output_folder_is_a_named_error(tmp_path):
    with pytest.raises(SiteError, match="run `cardgen build` first"):
        generate_site(tmp_path / "nothing")
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "nothing")])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.output.strip().startswith("Error: no output folder at")


def test_empty_output_folder_gives_a_home_page_that_says_so(tmp_path):
    report = generate_site(tmp_path)
    assert report.sets == []
    assert "No sets have been built yet" in (report.site_dir / "index.html").read_text()


def test_site_command(built_site, tmp_path):
    out, _, _ = built_site
    result = CliRunner().invoke(main, ["site", "--out", str(out), "--site-dir", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert "1 set(s) (BBL_2024-25)" in result.output
    assert (tmp_path / "s" / "index.html").is_file()
    help_text = CliRunner().invoke(main, ["serve", "--help"]).output
    assert "--port" in help_text and "127.0.0.1" in help_text


@pytest.mark.slow
def test_the_404_page_links_from_where_the_site_is_served(built_site, tmp_path):
    """A static host answers a missing address anywhere with 404.html, so its links cannot be
    relative; they started at '/', which loses the styling and every link on a project site
    (user.github.io/<repo>/). --base-url says where the site lives; other pages do not change."""
    out, _, default_site = built_site
    assert 'href="/assets/site.css"' in (default_site / "404.html").read_text()
    for given, root in (("/cardgen/", "/cardgen/"), ("cardgen", "/cardgen/"),
                        ("https://fan.github.io/kits", "https://fan.github.io/kits/")):
        site = tmp_path / _slug(given)
        result = CliRunner().invoke(main, ["site", "--out", str(out), "--site-dir", str(site),
                                           "--base-url", given])
        assert result.exit_code == 0, result.output
        page = (site / "404.html").read_text()
        assert f'href="{root}assets/site.css"' in page and f'href="{root}index.html"' in page
        assert f'href="{root}sets/BBL_2024-25/index.html"' in page
        assert 'href="/assets' not in page.replace(f'href="{root}assets', "")
        assert (site / "index.html").read_bytes() == (default_site / "index.html").read_bytes()


def test_the_site_command_names_the_one_team_kits_it_does_not_list(built_site, tmp_path):
    """`build --team` writes <CODE>_<season>_<team>/; the site publishes whole sets, and said
    nothing of the team kit a fan had just printed."""
    import shutil
    out, folder, _ = built_site
    mixed = tmp_path / "out"
    shutil.copytree(folder, mixed / folder.name)
    shutil.copytree(folder, mixed / f"{folder.name}_sydney-sixers")
    result = CliRunner().invoke(main, ["site", "--out", str(mixed)])
    assert result.exit_code == 0, result.output
    assert "1 set(s) (BBL_2024-25)" in result.output
    assert ("not listed: 1 one-team kit(s) (BBL_2024-25_sydney-sixers); the site publishes whole "
            "sets: build without --team to add the season") in result.output
    plain = CliRunner().invoke(main, ["site", "--out", str(out), "--site-dir", str(tmp_path / "s")])
    assert "not listed" not in plain.output


@pytest.fixture
def served_site(built_site):
    """(base URL, kit folder): the built site served by `make_server` on a free loopback port."""
    _, folder, site = built_site
    server = make_server(site, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        yield f"http://{host}:{port}", folder
    finally:
        server.shutdown()
        server.server_close()


def test_server_serves_the_site_on_loopback(served_site):
    base, folder = served_site
    with urllib.request.urlopen(f"{base}/sets/BBL_2024-25/downloads/bbl-2024-25-cards-a4.pdf") as resp:
        assert resp.headers["Content-Type"] == "application/pdf"
        assert resp.read() == (folder / "cards-a4.pdf").read_bytes()


def test_server_gives_the_site_404_page_and_never_a_directory_listing(served_site):
    base, _ = served_site
    # a missing page, and folders with no index.html (Python would list them)
    for path in ("/no/such/page.html", "/sets/BBL_2024-25/files/", "/sets/BBL_2024-25/players/", "/assets/"):
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(f"{base}{path}")
        body = caught.value.read().decode()
        assert caught.value.code == 404, path
        assert "<h1>Page not found</h1>" in body and 'href="/assets/site.css"' in body
        assert "Directory listing" not in body and "Error response" not in body
    with urllib.request.urlopen(f"{base}/sets/BBL_2024-25/") as resp:  # index.html
        assert resp.status == 200


def test_only_the_tts_folder_is_listed_as_tabletop_simulator_sheets(tmp_path):
    """A card PNG of a player whose name holds "tts" (Matthew Potts) is a card, not a TTS sheet."""
    from cardgen.site.kit import read_set
    folder = make_synthetic_kit(tmp_path)
    _png(folder / "png" / "099-durham-matthew-potts-bowler.png", "Potts", "#8a1c1c")
    kit = read_set(folder)
    assert [d.relpath for d in kit.tts_sheets] == ["tts/deck-1.png"]
    assert "png/099-durham-matthew-potts-bowler.png" not in [d.relpath for d in kit.other_files]


def test_tts_sheets_show_their_card_counts_and_how_to_load_them(tmp_path):
    """The kit's tts/decks.json (as the renderer writes it) gives each sheet's Number for TTS's
    Custom Deck dialog; the set page shows it beside the sheet, with the grid and the README;
    a damaged decks.json leaves the plain list, and neither file is an "other" download."""
    from cardgen.render.images import TtsDeck, tts_decks_json, tts_readme
    from cardgen.site.kit import read_set
    out = tmp_path / "out"
    folder = make_synthetic_kit(out)
    decks = [TtsDeck("Sydney Thunder", "tts/deck-1.png", "tts/deck-back.png", 23, 10, 7)]
    (folder / "tts" / "decks.json").write_text(tts_decks_json(decks), encoding="utf-8")
    (folder / "tts" / "README.txt").write_text(tts_readme(decks, "BBL 2024-25"), encoding="utf-8")
    kit = read_set(folder)
    assert kit.tts_decks is not None and kit.tts_decks.cards == {"tts/deck-1.png": 23}
    assert not {"tts/decks.json", "tts/README.txt"} & {d.relpath for d in kit.other_files}

    def tts_block() -> str:
        page = (generate_site(out).site_dir / "sets" / "BBL_2024-25" / "index.html").read_text(encoding="utf-8")
        block = page[page.index("Tabletop Simulator deck sheets"):]
        return block[:block.index("</details>")]

    block = tts_block()
    assert "Width 10, Height 7" in block and "23 cards" in block
    assert 'href="downloads/bbl-2024-25-tts-readme.txt" download="bbl-2024-25-tts-readme.txt"' in block
    (folder / "tts" / "decks.json").write_text('{"decks": [{"face": "tts/deck-1.png", "cards": "many"}]}')
    assert read_set(folder).tts_decks is None
    block = tts_block()
    assert "deck-1.png" in block and " cards, " not in block and "Width 10" not in block


def test_intervals_are_clipped_at_zero_and_each_card_has_a_verdict(tmp_path):
    folder = make_synthetic_kit(tmp_path, validation=True)
    (folder / "validation" / "validate_cards.csv").write_text(
        "kind,player_id,name,team,real_balls,qualified,ok,sim_economy,lo_economy,hi_economy,ok_economy,"
        "sim_wicket_rate,lo_wicket_rate,hi_wicket_rate,ok_wicket_rate\n"
        "bowler,aa000001,Chris Green,Sydney Thunder,246,True,False,7.2871,6.9,7.7,True,0.02,-0.026,0.086,False\n"
        "bowler,aa000004,Lance Morris,Perth Scorchers,36,False,True,7.1,5.0,9.0,True,0.05,-0.01,0.1,True\n")
    site = generate_site(tmp_path).site_dir
    green = (site / "sets/BBL_2024-25/players/aa000001.html").read_text()
    # wickets per ball -0.026 .. 0.086 is shown per 100 balls and starts at 0, never below
    assert "<td>0.0 – 8.6</td><td>outside</td>" in green
    assert "Plays differently from the real season on: Wickets /100 balls." in green
    morris = (site / "sets/BBL_2024-25/players/aa000004.html").read_text()
    assert "Not judged: 36 real balls this season" in morris and "from 60 real balls up" in morris
    assert not re.search(r"<td>-\d", green + morris)


def test_a_star_role_is_said_in_words_and_said_to_be_on_the_card_only_where_a_card_prints_it(tmp_path):
    """A "*" role is said in words. Gamer's audit (helper-43, The Hundred 2024): Adam Rossington's
    page said his bowling role was "shown as * on the card", but he has only a striker card, whose
    role line prints his batting role (Wicketkeeper): the "*" is printed nowhere. The page says
    where the star is only for a card that prints it (as card_views draws the role line)."""
    from cardgen.render.card import card_views
    folder = make_synthetic_kit(tmp_path)
    doc = json.loads((folder / "card-set.json").read_text())
    for card in doc["cards"]:
        if card["player"]["id"] in ("aa000004", "aa000001"):  # a bowler card only; both cards
            card["player"]["batting_role"] = "*"
        if card["player"]["id"] in ("aa000002", "aa000001"):  # a striker card only; both cards
            card["player"]["bowling_role"] = "*"
    (folder / "card-set.json").write_text(json.dumps(doc))
    printed = {(v.name, v.kind): v.role for v in card_views(as_model(doc))}
    assert printed[("CHRIS GREEN", "striker")] == printed[("CHRIS GREEN", "bowler")] == "*"
    assert printed[("LANCE MORRIS", "bowler")] != "*" and printed[("COOPER CONNOLLY", "striker")] != "*"
    site = generate_site(tmp_path).site_dir
    bowler = (site / "sets/BBL_2024-25/players/aa000004.html").read_text()
    batter = (site / "sets/BBL_2024-25/players/aa000002.html").read_text()
    both = (site / "sets/BBL_2024-25/players/aa000001.html").read_text()
    assert "<dt>Batting role</dt><dd>Mainly a bowler</dd>" in bowler
    assert "<dt>Bowling role</dt><dd>Mainly a batter, rarely bowls</dd>" in batter
    assert "<dt>Batting role</dt><dd>Mainly a bowler (shown as * on the card)</dd>" in both
    assert "<dt>Bowling role</dt><dd>Mainly a batter, rarely bowls (shown as * on the card)</dd>" in both
    assert "<dd>*</dd>" not in bowler + batter + both


def test_serve_reports_a_busy_port_in_one_line(built_site):
    out, _, site = built_site
    server = make_server(site, 0, quiet=True)
    try:
        port = server.server_address[1]
        result = CliRunner().invoke(main, ["serve", "--out", str(out), "--site-dir", str(site),
                                           "--no-refresh", "--port", str(port)])
        assert result.exit_code == 3  # environment
        assert result.output.strip().splitlines()[-1].startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    finally:
        server.server_close()


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_text_colours_meet_wcag_aa_contrast(built_site):
    _, _, site = built_site
    css = (site / "assets/site.css").read_text()
    palette = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6});", css))
    pairs = [("ink", "paper"), ("muted", "paper"), ("link", "paper"), ("band-ink", "band"),
             ("ink", "panel"), ("muted", "panel"), ("link", "panel"), ("striker", "paper"),
             ("bowler", "paper"), ("ink", "focus")]
    for fg, bg in pairs:
        hi, lo = sorted((_luminance(palette[fg]), _luminance(palette[bg])), reverse=True)
        ratio = (hi + 0.05) / (lo + 0.05)
        assert ratio >= 4.5, (fg, bg, round(ratio, 2))  # WCAG 2 AA for normal text


@pytest.mark.needs_data
def test_a_minimal_card_set_still_publishes(tmp_path):
    """Only the schema's required fields: no teams, real figures, PNGs or PDFs."""
    folder = tmp_path / "HUNDRED_2024"
    folder.mkdir()
    minimal = {"schema_version": 1, "competition": {"code": "HUNDRED", "name": "The Hundred (men)"},
               "season": "2024", "format": "100-ball", "fielding_chart": {"cells": [["0"] * 20] * 6},
               "cards": [{"player": {"id": "x1", "name": "Solo"}, "team": "Oval Invincibles",
                          "kind": "striker", "chart": _chart("striker")}]}
    jsonschema.validate(minimal, json.loads(SCHEMA.read_text()))
    (folder / "card-set.json").write_text(json.dumps(minimal))
    site = generate_site(tmp_path).site_dir
    html = (site / "sets/HUNDRED_2024/index.html").read_text()
    assert "no image in this build" in html and "Not validated yet" in html
    assert "Solo" in (site / "sets/HUNDRED_2024/players/x1.html").read_text()
    assert check_links(site).broken == []


@pytest.mark.slow
def test_refresh_site_picks_up_a_new_set(tmp_path):
    from cardgen.site.generate import refresh_site
    make_synthetic_kit(tmp_path)
    assert refresh_site(tmp_path).sets == ["BBL_2024-25"]
    make_synthetic_kit(tmp_path, code="WBBL", season="2024-25")
    make_synthetic_kit(tmp_path, code="BBL", season="2023-24")
    report = refresh_site(tmp_path)
    assert report.sets == ["BBL_2024-25", "WBBL_2024-25", "BBL_2023-24"]  # newest season first
    home = (report.site_dir / "index.html").read_text()
    assert 'href="sets/WBBL_2024-25/index.html"' in home
    assert 'href="sets/WBBL_2024-25/downloads/wbbl-2024-25-cards-a4.pdf"' in home


def test_never_replaces_a_folder_that_is_not_a_site(tmp_path):
    folder = make_synthetic_kit(tmp_path / "out")
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    for site_dir, message in ((precious, "is not a cardgen site"), (tmp_path / "out", "would replace the output"),
                              (tmp_path, "would replace the output"), (folder / "site", "inside the set")):
        with pytest.raises(SiteError, match=message):
            generate_site(tmp_path / "out", site_dir)
    assert (precious / "notes.txt").read_text() == "keep me"
    assert (folder / "card-set.json").is_file() and not (folder / "site").exists()
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "out"), "--site-dir", str(precious)])
    assert result.exit_code == 2 and "is not a cardgen site" in result.output  # input error


def write_kit_manifest(folder: Path, teams: list[dict], card_sheets: dict | None = None) -> None:
    """The manifest `cardgen build` writes into a season kit (cardgen/manifest.py), as JSON: the
    site reads each team's files and how the card sheets print from it."""
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    doc = {"manifest_version": 1, "kind": "season-kit", "written_by": "cardgen build", "generator": "cardgen test",
           "teams": teams, "card_sheets": card_sheets or {}, "files": files}
    (folder / ".cardgen-kit.json").write_text(json.dumps(doc))


def make_game_kit(out_dir: Path, relname: str, name: str, competition: str | None = None,
                  season: str | None = None) -> Path:
    """A miniature kit of another game system, with its manifest (cardgen/games/, cardgen/manifest.py)."""
    folder = out_dir / relname
    folder.mkdir(parents=True)
    _pdf(folder / "cards-a4.pdf", f"{name} cards")
    _png(folder / "cards-a4-page1.png", f"{name} page 1", "#0d3b1e")
    (folder / "secret.txt").write_text("not listed, not published")
    manifest = {"manifest_version": 1, "kind": "game-kit", "written_by": "cardgen build --game",
                "game": relname.split("/")[0], "name": name, "competition": competition, "season": season,
                "attribution": "rules by someone else", "generator": "cardgen test",
                "downloads": [{"path": "cards-a4.pdf", "label": "The cards (A4)", "kind": "pdf"},
                              {"path": "cards-a4-page1.png", "label": "The cards (A4): page 1", "kind": "png"},
                              {"path": "missing.pdf", "label": "Not built", "kind": "pdf"},
                              {"path": "../../escape.pdf", "label": "Outside the kit", "kind": "pdf"}],
                "files": ["cards-a4.pdf", "cards-a4-page1.png"]}
    (folder / ".cardgen-kit.json").write_text(json.dumps(manifest))
    return folder


def test_other_game_kits_are_published_from_their_manifests(tmp_path):
    make_synthetic_kit(tmp_path)
    generic = make_game_kit(tmp_path, "quick-cricket", "Quick Cricket")
    make_game_kit(tmp_path, "roll-and-play/BBL_2024-25", "Roll & Play <Cricket>", "BBL", "2024-25")
    (tmp_path / "escape.pdf").write_bytes(b"%PDF outside")
    (tmp_path / "broken-game").mkdir()
    (tmp_path / "broken-game" / ".cardgen-kit.json").write_text("[]")
    report = generate_site(tmp_path)
    assert report.games == ["quick-cricket", "roll-and-play/BBL_2024-25"]
    assert report.skipped == ["broken-game"]
    site = report.site_dir
    page = (site / "games/quick-cricket/index.html").read_text()
    assert 'href="files/cards-a4.pdf" download>The cards (A4)</a>' in page
    assert '<a href="files/cards-a4.pdf"><img src="files/cards-a4-page1.png" alt="The cards (A4): page 1"' in page
    assert "Not built" not in page and "Outside the kit" not in page and "secret" not in page
    assert (site / "games/quick-cricket/files/cards-a4.pdf").read_bytes() == (generic / "cards-a4.pdf").read_bytes()
    with zipfile.ZipFile(site / "games/quick-cricket/quick-cricket-kit.zip") as zf:
        assert zf.namelist() == ["quick-cricket/cards-a4-page1.png", "quick-cricket/cards-a4.pdf"]
    home = (site / "index.html").read_text()
    assert ('<a href="games/roll-and-play/BBL_2024-25/index.html">'
            'Roll &amp; Play &lt;Cricket&gt; BBL 2024-2025</a>') in home
    assert check_links(site).broken == []


def test_site_option_refreshes_the_site_after_a_command(tmp_path):
    """`with_site_option` is what gives `cardgen build` its --site flag."""
    import click
    from cardgen.cli import out_option
    from cardgen.cli.site import with_site_option

    @click.command()
    @out_option
    def fake_build(out_dir: Path) -> None:
        make_synthetic_kit(out_dir)
        click.echo("built")

    command = with_site_option(fake_build)
    result = CliRunner().invoke(command, ["--out", str(tmp_path / "a")])
    assert result.exit_code == 0 and result.output == "built\n"
    assert not (tmp_path / "a" / "site").exists()
    result = CliRunner().invoke(command, ["--out", str(tmp_path / "b"), "--site"])
    assert result.exit_code == 0, result.output
    assert "site: 1 set(s) (BBL_2024-25)" in result.output
    assert (tmp_path / "b" / "site" / "sets" / "BBL_2024-25" / "index.html").is_file()


def test_build_site_flag_refreshes_the_site(tmp_path):
    """`cardgen build --site` (a generic game: quick to build) leaves a fresh site beside the kit."""
    result = CliRunner().invoke(main, ["build", "--game", "quick-cricket", "--out", str(tmp_path), "--site"])
    assert result.exit_code == 0, result.output
    assert "1 other game kit(s)" in result.output
    assert (tmp_path / "site" / "games" / "quick-cricket" / "index.html").is_file()
    assert check_links(tmp_path / "site").broken == []


def test_team_pages_offer_the_teams_own_files_and_pages(tmp_path, monkeypatch):
    folder = make_synthetic_kit(tmp_path / "output")
    (folder / "teams" / "perth-scorchers").mkdir(parents=True)
    for name in ("cards-a4.pdf", "cards-letter.pdf", "team-sheet-a4.pdf"):
        _pdf(folder / "teams" / "perth-scorchers" / name, f"Perth {name}")
    write_kit_manifest(folder, teams=[
        {"name": "Perth Scorchers", "folder": "teams/perth-scorchers",
         "files": {"cards-a4": "teams/perth-scorchers/cards-a4.pdf", "cards-letter": "teams/perth-scorchers/cards-letter.pdf",
                   "team-sheet-a4": "teams/perth-scorchers/team-sheet-a4.pdf", "evil": "../../etc/passwd"},
         "pages_in_whole_set": {"cards-a4.pdf": [3, 4], "cards-letter.pdf": [3, 4]}}])
    monkeypatch.chdir(tmp_path)  # `cardgen site` with the default, relative output folder
    site = generate_site(Path("output")).site_dir
    pages = _pages(site)
    team = pages["sets/BBL_2024-25/team-perth-scorchers.html"]
    assert "<h1>Perth Scorchers</h1>" in team
    assert ('href="downloads/bbl-2024-25-perth-scorchers-cards-a4.pdf" '
            'download="bbl-2024-25-perth-scorchers-cards-a4.pdf">Perth Scorchers cards (A4)</a>') in team
    assert "1 page, " in team and "passwd" not in team
    assert re.search(r'href="files/cards-a4.pdf#page=3">whole-set cards \(A4\)</a> pages 3–4', team)
    # the home page links each team's page; the teams' files are not "other files"
    assert 'href="sets/BBL_2024-25/team-perth-scorchers.html">Perth Scorchers</a>' in pages["index.html"]
    assert "teams/perth-scorchers" not in pages["sets/BBL_2024-25/index.html"].split("Other files")[-1]
    assert check_links(site).broken == []


def test_team_pages_work_from_a_relative_output_folder(tmp_path, monkeypatch):
    # `cardgen site` run with the default `--out output` passes a relative folder
    folder = make_synthetic_kit(tmp_path)
    (folder / "teams" / "perth-scorchers").mkdir(parents=True)
    _pdf(folder / "teams" / "perth-scorchers" / "cards-a4.pdf", "Perth cards")
    write_kit_manifest(folder, teams=[
        {"name": "Perth Scorchers", "folder": "teams/perth-scorchers",
         "files": {"cards-a4": "teams/perth-scorchers/cards-a4.pdf"}}])
    monkeypatch.chdir(tmp_path.parent)
    site = generate_site(Path(tmp_path.name)).site_dir
    team = _pages(site)["sets/BBL_2024-25/team-perth-scorchers.html"]
    assert 'href="downloads/bbl-2024-25-perth-scorchers-cards-a4.pdf" download=' in team


def test_player_index_lists_everyone_by_surname_and_the_menu_has_how_to_play(built_site):
    _, _, site = built_site
    pages = _pages(site)
    index = pages["sets/BBL_2024-25/players.html"]
    names = re.findall(r'<li data-search="[^"]*"><a href="players/[^"]+">([^<]+)</a>', index)
    assert len(names) == 4  # one entry per player page (Chris Green's two cards are one player)
    assert [n for n in names if "script" not in n] == ["Cooper Connolly", "Chris Green", "Lance Morris"]  # by surname
    assert 'action="players.html"' in pages["sets/BBL_2024-25/index.html"]
    assert all(re.search(r'href="(/|(\.\./)*)how-to-play\.html"', html) for html in pages.values())
    play = pages["how-to-play.html"]
    assert "Setup and the two decks" in play and "http://shortseasongames.com" in play


def test_kit_previews_are_drawn_through_the_shared_rasteriser(tmp_path, monkeypatch):
    """The site's page previews go through render.raster, under its lock (pdfium is not
    thread-safe), at the preview width; an unreadable PDF gives no preview, not an error."""
    from cardgen.render import raster
    from cardgen.site import media

    class CountingLock:
        def __init__(self) -> None:
            self.entered = 0

        def __enter__(self):
            self.entered += 1

        def __exit__(self, *exc: object) -> None:
            pass

    lock = CountingLock()
    monkeypatch.setattr(raster, "_LOCK", lock)
    pdf = tmp_path / "cards-letter.pdf"
    _pdf(pdf, "Letter page", size=letter)
    size = media.first_page_preview(pdf, tmp_path / "kit.png")
    assert lock.entered == 1
    width, height = size
    # a Letter page 300 px wide (pdfium rounds the 388.2 px height up)
    assert width == media.KIT_PREVIEW_WIDTH and abs(height - media.KIT_PREVIEW_WIDTH * 11 / 8.5) < 1
    with Image.open(tmp_path / "kit.png") as preview:
        assert preview.size == size
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")
    assert media.first_page_preview(tmp_path / "broken.pdf", tmp_path / "broken.png") is None
    assert not (tmp_path / "broken.png").exists()


@pytest.mark.slow
def test_how_to_print_counts_sheets_and_the_flip_of_a_kit_with_backs(tmp_path):
    """With --backs a back page follows each sheet: two pages are one sheet; the flip edge is
    the one the back pages print (short edge for landscape bleed sheets, long for portrait)."""
    from pypdf import PdfReader

    from cardgen.render.card import card_views
    from cardgen.render.sheets import render_cards_pdf
    folder = make_synthetic_kit(tmp_path / "out")
    views = card_views(as_model(json.loads((folder / "card-set.json").read_text(encoding="utf-8"))))
    # A4 as `build --backs --bleed` writes it, Letter as `build --backs`
    (folder / "cards-a4.pdf").write_bytes(render_cards_pdf(views, "a4", "t", "c", bleed=True, backs=True))
    (folder / "cards-letter.pdf").write_bytes(render_cards_pdf(views, "letter", "t", "c", backs=True))
    (folder / "teams" / "perth").mkdir(parents=True)
    perth = [v for v in views if v.team == "Perth Scorchers"]
    (folder / "teams" / "perth" / "cards-a4.pdf").write_bytes(
        render_cards_pdf(perth, "a4", "t", "c", bleed=True, backs=True))
    # as `build --backs` writes its manifest: A4 with --bleed (landscape sheets), Letter without
    write_kit_manifest(folder, teams=[
        {"name": "Perth Scorchers", "folder": "teams/perth",
         "files": {"cards-a4": "teams/perth/cards-a4.pdf"}}],
        card_sheets={"cards-a4.pdf": {"backs": True, "flip": "short", "landscape": True},
                     "cards-letter.pdf": {"backs": True, "flip": "long", "landscape": False}})
    assert len(PdfReader(folder / "cards-a4.pdf").pages) == 2  # 5 cards: one sheet, front and back
    site = generate_site(tmp_path / "out").site_dir
    pages = _pages(site)
    how = pages["how-to-print.html"]
    row = re.search(r'<tr><th scope="row"><a href="sets/BBL_2024-25/index.html">.*?</tr>', how, re.S).group(0)
    assert re.findall(r"<td>([^<]*)</td>", row) == ["1", "1", "—", "1"]  # sheets, not pages
    assert "(A4): 1 landscape sheet, <strong>flip on short edge</strong>" in how
    assert "(Letter): 1 portrait sheet, <strong>flip on long edge</strong>" in how
    kit_page = pages["sets/BBL_2024-25/index.html"]
    assert "1 sheet of A4 card for every team&#39;s cards; one team is 1 sheet; printed on both sides " \
           "(flip on short edge)" in kit_page
    # a kit without backs says nothing of flipping for its sets
    plain = make_synthetic_kit(tmp_path / "plain")
    (plain / "cards-a4.pdf").write_bytes(render_cards_pdf(views, "a4", "t", "c", bleed=True))
    write_kit_manifest(plain, teams=[], card_sheets={"cards-a4.pdf": {"backs": False, "flip": "short", "landscape": True}})
    how = _pages(generate_site(tmp_path / "plain").site_dir)["how-to-print.html"]
    assert "The sets built here with card backs" not in how and "flip on short edge</strong>" not in how


def test_how_to_print_describes_the_sheets_the_kit_really_prints(tmp_path):
    """The page's words about the scoresheet and the card sheets agree with the PDFs: the
    scoresheet is portrait with a page per innings of four 30-ball grids (T20), and the
    whole-set card sheets are packed, teams sharing a sheet (not 'a new sheet per team')."""
    import io

    from pypdf import PdfReader

    from cardgen.render.card import card_views
    from cardgen.render.sample import rules_example_card_set
    from cardgen.render.scoresheet import render_scoresheet_pdf
    from cardgen.render.sheets import render_cards_pdf
    card_set = rules_example_card_set()
    scoresheet = PdfReader(io.BytesIO(render_scoresheet_pdf(as_model(card_set), "a4", "c")))
    box = scoresheet.pages[0].mediabox
    assert float(box.height) > float(box.width) and len(scoresheet.pages) == 4  # + scorecards
    grid_ends = re.findall(r"\b(30|60|90|120)\b", scoresheet.pages[0].extract_text())
    assert sorted(set(grid_ends)) == ["120", "30", "60", "90"]  # four grids of 30 balls
    for innings in (1, 2):  # pages 3 and 4: each innings' scorecard
        assert f"Innings {innings} scorecard" in scoresheet.pages[1 + innings].extract_text()
    packed = PdfReader(io.BytesIO(render_cards_pdf(card_views(as_model(card_set)), "a4", "t", "c")))
    assert "PS 1, ST 2" in packed.pages[0].extract_text()  # two teams on one sheet

    make_synthetic_kit(tmp_path / "out")
    how = _pages(generate_site(tmp_path / "out").site_dir)["how-to-print.html"]
    text = " ".join(re.sub(r"<[^>]+>", " ", how).split())
    said = re.search(r"Scoresheet\s*:\s*(.*?)\s*Team sheets", text).group(1)
    assert "portrait" in said and "landscape" not in said and "a page per innings" in said
    assert "4 grids" in said and "30-ball grids for T20" in said and "25-ball grids for 100-ball" in said
    from cardgen.render.layout import load_layout
    bowlers = load_layout("sheets")["scorecard"]["bowling_rows"]  # test_render_scoresheet counts them drawn
    assert "then a scorecard page per innings" in said and f"and {bowlers} rows of bowling figures" in said
    assert "start on a new sheet" not in text and "Each team's cards start" not in text
    assert "whose cards sit where" in text


def test_how_to_play_gives_the_rule_the_cards_are_made_for_as_the_quick_reference_does(tmp_path):
    """The site's rules in short name the wickets-in-hand rule the default cards are calibrated
    for, with the quick reference's own d20 faces, and set up the scoresheet as it is printed (a
    page per innings, not 'batting side on top')."""
    import html

    from cardgen.render.teamsheets import quick_reference_text
    from cardgen.wickets_in_hand import RULE_NAME
    make_synthetic_kit(tmp_path / "out")
    page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    reference = quick_reference_text(as_model({"cards": [], "competition": {"name": "X"}, "season": "2025",
                                               "format": "T20", "rule": RULE_NAME}))
    reference = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", reference)).split())
    attack = re.search(r"Attack , on a • (?:\([^)]*\) )?roll a d20: ([^.]*)\.", reference).group(1)
    consolidate = re.search(r"roll a d20: (1-\d+ not out \(•\), \d+-20 out)", reference).group(1)
    assert "wickets-in-hand rule" in text
    assert f"roll a d20: {attack}." in text and f"roll a d20: {consolidate}." in text
    assert "Chasing, needing over 2 a ball: always attack." in text
    assert "batting side on top" not in text and "its own innings page of the scoresheet" in text
    # the scorecard pages follow the two grid pages (test_how_to_print_... reads them there)
    assert "on its scorecard page of the scoresheet (page 3 for the first innings, 4 for the second)" in text


def test_how_to_play_gives_the_example_kits_own_attack_faces(tmp_path):
    """The attack die's four and six faces follow each league's boundaries (docs/rules.md R12):
    the rules in short print the faces of the kit they take their example from, and say that
    another league's kit prints its own; a kit whose rule cannot be read shows the standard faces."""
    import html
    import json

    from cardgen.wickets_in_hand import RULE, RULE_NAME
    folder = make_synthetic_kit(tmp_path / "out")
    card_set_file = folder / "card-set.json"
    card_set = json.loads(card_set_file.read_text())
    womens = RULE.for_league(0.1083, 0.0076, 1)   # the women's Super Smash 2022-23: no six face
    card_set.update(rule=RULE_NAME, rule_parameters=womens.describe())
    card_set_file.write_text(json.dumps(card_set))

    def rules_in_short() -> str:
        page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    text = rules_in_short()
    assert "roll a d20: 1 bowled, 2 caught, 3-8 four, 9-20 dot (as Big Bash League 2024-2025's sheets print it)." in text
    assert "each kit's scoresheet and quick reference print its own" in text
    # who catches the attack die's caught: as for a W (docs/rules.md R12: a random fielder, R1)
    assert "A batter caught on it is caught by a fielder drawn from the fielding side's deck, as for a W." in text
    card_set["rule_parameters"] = {"attack_d20": "damaged"}
    card_set_file.write_text(json.dumps(card_set))
    assert "roll a d20: 1 bowled, 2 caught, 3-8 four, 9-10 six, 11-20 dot." in rules_in_short()


def test_player_pages_call_w_what_the_quick_reference_calls_it(built_site):
    """A card's W is a catch (rules 3.4.3.2): the player page's chart table says so in the quick
    reference's word, not a vaguer 'Wicket' (a gamer would wonder whether it could be bowled)."""
    from cardgen.render.layout import load_layout
    _, _, site = built_site
    quick_reference_word = load_layout("fielding")["card_results"]["W"].split()[0]
    pages = [html for path, html in _pages(site).items() if "/players/" in path]
    rows = [m for html in pages for m in re.findall(r"<td>[\d–]+</td><td>W</td><td>([^<]*)</td>", html)]
    assert rows and set(rows) == {quick_reference_word} == {"Caught"}


def test_validation_headline_names_the_cards_at_the_games_limit():
    """validate leaves out of its share the cards no printed card could reach; the site says so
    and names them rather than showing a share that does not add up."""
    from cardgen.site.kit import _headline, _validate_items
    doc = {"qualified_cards": 79, "passed": 74, "judged_cards": 75, "pass_share": 0.9867, "ok": True,
           "at_its_limit": [{"kind": "striker", "name": "Kate Anderson", "team": "Canterbury", "real_balls": 466},
                            {"kind": "bowler", "name": "Bella Armstrong", "team": "Auckland", "real_balls": 90}]}
    text, ok = _headline(doc)
    assert ok is True and text.startswith("74 of 75 qualified cards (98.7%) play like the real season, "
                                          "and 2 more are at the game's limit")
    assert ("At the game's limit, left out of the share (no printed card could reach their real figure)",
            "Kate Anderson, Bella Armstrong") in _validate_items(doc)
    # a summary written before the limit was judged reads as it always did
    old = {"qualified_cards": 4, "passed": 3, "pass_share": 0.75, "ok": False}
    assert _headline(old)[0].startswith("3 of 4 qualified cards (75%) play like the real season: did not pass.")


def test_validation_table_gives_the_same_share_as_the_headline():
    """The BBL 2024-25 site's validation panel (docs/images/site-validation.png) read "116 of 117
    qualified cards (99.1%)" over a table row "Share that play like the real season: 99.2%": the
    row rounded the summary's pass_share, itself rounded to 4 places (0.9915), a second time."""
    from cardgen.site.kit import _headline, _validate_items
    doc = {"qualified_cards": 117, "passed": 116, "pass_share": round(116 / 117, 4), "ok": True}
    assert _headline(doc)[0].startswith("116 of 117 qualified cards (99.1%) play like the real season")
    assert ("Share that play like the real season", "99.1%") in _validate_items(doc)
    # with cards at the game's limit the share is of the cards judged, in both places
    limited = {"qualified_cards": 79, "passed": 74, "judged_cards": 75, "pass_share": round(74 / 75, 4),
               "at_its_limit": [{"kind": "striker", "name": "Kate Anderson"}, {"kind": "bowler", "name": "B"},
                                {"kind": "bowler", "name": "C"}, {"kind": "bowler", "name": "D"}]}
    assert "(98.7%)" in _headline(limited)[0]
    assert ("Share that play like the real season", "98.7%") in _validate_items(limited)
    # a summary without the counts shows its own share
    assert ("Share that play like the real season", "75%") in _validate_items({"pass_share": 0.75})


def test_a_card_at_the_games_limit_says_so_on_its_page():
    """validate's at-its-limit cards (no printed card reaches the real figure) are neither called
    a pass nor a failure of the set on the player's page; the figure that is off is named."""
    from cardgen.site.views import Versus, card_verdict
    versus = [Versus("Strike rate", "115.02", "114.38", verdict="inside"),
              Versus("Outs /100 balls", "1.9", "4.4", verdict="outside")]
    text, ok = card_verdict({"qualified": "True", "ok": "False", "at_limit": "True", "real_balls": "466"}, versus)
    assert ok is None and text.startswith("At the game's limit on: Outs /100 balls.")
    assert "leaves this card out" in text
    text, ok = card_verdict({"qualified": "True", "ok": "False", "at_limit": "False"}, versus)
    assert ok is False and text == "Plays differently from the real season on: Outs /100 balls."
    # a death bowler whose economy is out of reach because the attack d20 rolls his dots again
    # (Pathirana, IPL 2024: 7.68 real, 10.46 on the card, 85% of his balls in the attack band)
    from cardgen.cardset import Card, Player, RealFigures
    bowler = Card(player=Player(id="p1", name="M Pathirana"), team="Chennai Super Kings", kind="bowler",
                  chart=(), situations={"attack": 0.848, "normal": 0.114, "consolidate": 0.038},
                  real=RealFigures(balls=132, runs=169), expected={"economy": 10.46})
    versus = [Versus("Economy", "7.68", "10.46", verdict="outside")]
    text, ok = card_verdict({"qualified": "True", "ok": "False", "at_limit": "True"}, versus, bowler)
    assert ok is None and "85% of the real balls were in the attack band" in text, text
    # judged outside (not at the limit), the page still says where the runs come from
    text, ok = card_verdict({"qualified": "True", "ok": "False", "at_limit": "False"}, versus, bowler)
    assert ok is False and text.startswith("Plays differently from the real season on: Economy. Why: 85%")
    # the same card bowling at the top of the innings is at the limit for the usual reason
    bowler = dataclasses.replace(bowler, situations={"attack": 0.1, "normal": 0.3, "consolidate": 0.6})
    text, _ = card_verdict({"qualified": "True", "ok": "False", "at_limit": "True"}, versus, bowler)
    assert "attack band" not in text and "opponent's half" in text


def test_how_to_play_settles_what_the_printed_quick_reference_settles(tmp_path):
    """The site's rules in short say what the kit's quick reference says after a match played by
    hand from the printed kit (helper-32): the keeper's partner in a run-out, where the new batter
    stands, the free hit, the target, the super over and the missed stumping chance in attack;
    and after two overs played by helper-43, what any out but a run-out is on a free hit (a dot,
    R6) and what a keeper with no printed rating keeps at (10, R9)."""
    import html
    make_synthetic_kit(tmp_path / "out")
    page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    for said in ("another player: draw again if you draw the keeper",
                 "the new batter takes the out batter's end (on strike, unless the non-striker was run out)",
                 "a run-out scores no run", "A leg bye or bye is a run to the extras, not the batter's",
                 "the next ball is a free hit : the striker can be out only run out (any other out is a dot",
                 "The target is the first innings' total + 1",
                 "a super over of one over (6 balls; in The Hundred a Super Five, 5 balls), three batters a side, two wickets end it; "
                 "the side that batted second bats first. Tied again: another, the other side first; after five, a tie.",
                 "wicketkeeper's WK rating (a keeper with none printed keeps at 10), else a dot", "on a • (a missed stumping chance too) roll a d20",
                 "Runs needed = target \u2212 total.", "Super overs are played with the cards as printed."):
        assert said in text, said


def _how_to_play_and_quick_reference(tmp_path: Path) -> tuple[str, str]:
    """The site's how-to-play page (a synthetic kit's site) and a T20 quick reference's text,
    each as plain words, for comparing what the site and the printed page say."""
    import html

    from cardgen.render.teamsheets import quick_reference_text
    make_synthetic_kit(tmp_path / "out")
    page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
    reference = quick_reference_text(as_model({"cards": [], "competition": {"name": "X"}, "season": "2025",
                                               "format": "T20"}))

    def words(markup: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())
    return words(page), words(reference)


def test_how_to_play_says_what_a_wide_and_a_no_ball_are_worth_as_the_quick_reference_does(tmp_path):
    """The fielding chart on the page is mostly Wide, No-ball, Bye and Leg bye cells (51, 7, 6 and
    33 of BBL 2024-25's 120), and the printed quick reference says what wides and no-balls are
    worth, when the innings ends and how the catcher is drawn; the site's rules in short said none
    of it, so a gamer reading the site alone could not score a wide."""
    text, reference = _how_to_play_and_quick_reference(tmp_path)
    for printed, on_the_site in (
            ("Wides and no-balls add a run, batters stay; not one of the 6 balls",
             "Wides and no-balls add a run, batters stay; they do not count as one of the over's balls"),
            ("the striker can be out only run out (any other out is a dot; a wide in between keeps it)",) * 2,
            ("The innings ends after 120 legal balls or 10 wickets",
             "The innings ends after its legal balls (120 in T20, 100 in The Hundred) or 10 wickets"),
            ("the side batting second wins on reaching it",) * 2,
            ("one card a player (an all-rounder's two count once)",) * 2):
        assert printed in reference, printed   # the printed kit still says it
        assert on_the_site in text, on_the_site


def test_every_sheet_says_its_paper_whatever_papers_the_kit_has(tmp_path):
    """Every kit file names its paper (scoresheet-a4.pdf, scoresheet-letter.pdf), so each download
    says its paper too, in a kit of both papers (BBL), of Letter only (`--paper letter`: its sheets
    used to take the bare names that meant A4 in a two-paper kit) and of A4 only (IPL)."""
    out = tmp_path / "out"
    two_papers = make_synthetic_kit(out, season="2024-25")
    letter_only = make_synthetic_kit(out, code="HUNDRED", season="2024")
    a4_only = make_synthetic_kit(out, code="IPL", season="2025")
    sheets = ("fielding-chart", "scoresheet", "team-sheets", "quick-reference")
    for stem in ("cards",) + sheets:
        (letter_only / f"{stem}-a4.pdf").unlink()
        if stem != "cards":
            _pdf(letter_only / f"{stem}-letter.pdf", stem, letter)
    for stem in sheets:
        _pdf(two_papers / f"{stem}-letter.pdf", stem, letter)
    (a4_only / "cards-letter.pdf").unlink()
    for folder, papers in ((two_papers, ("a4", "letter")), (letter_only, ("letter",)), (a4_only, ("a4",))):
        (folder / "teams" / "perth-scorchers").mkdir(parents=True)
        files = {}
        for paper in papers:
            _pdf(folder / "teams" / "perth-scorchers" / f"team-sheet-{paper}.pdf", "team sheet",
                 letter if paper == "letter" else A4)
            files[f"team-sheet-{paper}"] = f"teams/perth-scorchers/team-sheet-{paper}.pdf"
        write_kit_manifest(folder, teams=[{"name": "Perth Scorchers", "files": files}])
    pages = _pages(generate_site(out).site_dir)

    def labels(html: str) -> dict[str, str]:
        return {href: " ".join(text.split())
                for href, text in re.findall(r'<a href="([^"]+\.pdf)" download="[^"]+">([^<]+)</a>', html)}
    home = labels(pages["index.html"])
    said = {"a4": "(A4)", "letter": "(US Letter)"}
    for code, season, papers in (("BBL", "2024-25", ("a4", "letter")), ("HUNDRED", "2024", ("letter",)),
                                 ("IPL", "2025", ("a4",))):
        prefix = f"{code.lower()}-{season}"
        for paper in papers:
            for stem, label in zip(("cards",) + sheets,
                                   ("Player cards", "Fielding chart", "Scoresheet", "Team sheets", "Quick reference")):
                href = f"sets/{code}_{season}/downloads/{prefix}-{stem}-{paper}.pdf"
                assert home[href] == f"{label} {said[paper]}", href
            team = labels(pages[f"sets/{code}_{season}/team-perth-scorchers.html"])
            href = f"downloads/{prefix}-perth-scorchers-team-sheet-{paper}.pdf"
            assert team[href] == f"Perth Scorchers team sheet {said[paper]}", href
        missing = {"a4", "letter"} - set(papers)
        assert not any(href.endswith(f"-{p}.pdf") and href.startswith(f"sets/{code}_") for href in home
                       for p in missing)


def test_how_to_print_and_how_to_play_offer_the_quick_reference_on_both_papers(tmp_path):
    """How to print's "The rules" listed only quick-reference-a4.pdf of each set: a two-paper kit's
    US Letter page was missing (a US gamer got A4 only) and a letter-only kit's page was not
    named as Letter. Each is listed with its paper, and the section links the site's how to play,
    whose own quick-reference link was also A4 only."""
    out = tmp_path / "out"
    two_papers = make_synthetic_kit(out, season="2024-25")
    _pdf(two_papers / "quick-reference-letter.pdf", "quick reference", letter)
    card_set = json.loads((two_papers / "card-set.json").read_text())
    card_set["fielding_chart"]["cells"][5][19] = "catch_chance"   # so how to play walks a ball of this kit
    (two_papers / "card-set.json").write_text(json.dumps(card_set))
    letter_only = make_synthetic_kit(out, code="HUNDRED", season="2024")
    (letter_only / "quick-reference-a4.pdf").unlink()
    _pdf(letter_only / "quick-reference-letter.pdf", "quick reference", letter)
    pages = _pages(generate_site(out).site_dir)
    rules = pages["how-to-print.html"].split('id="rules"', 1)[1]
    listed = {href: " ".join(text.split())
              for href, text in re.findall(r'<a href="([^"]+\.pdf)" download="[^"]+">([^<]+)</a>', rules)}
    assert listed == {
        "sets/BBL_2024-25/downloads/bbl-2024-25-quick-reference-a4.pdf": "Quick reference: Big Bash League 2024-2025 (A4)",
        "sets/BBL_2024-25/downloads/bbl-2024-25-quick-reference-letter.pdf": "Quick reference: Big Bash League 2024-2025 (US Letter)",
        "sets/HUNDRED_2024/downloads/hundred-2024-quick-reference-letter.pdf": "Quick reference: Big Bash League 2024 (US Letter)"}
    assert 'href="how-to-play.html"' in rules
    # how to play offers its example kit's quick reference on both papers too (it linked the A4 one only)
    play = pages["how-to-play.html"]
    offered = re.findall(r'<a href="(sets/BBL_2024-25/downloads/bbl-2024-25-quick-reference[^"]*)" download="[^"]+">([^<]+)</a>',
                         play)
    assert offered == [("sets/BBL_2024-25/downloads/bbl-2024-25-quick-reference-a4.pdf", "A4"),
                       ("sets/BBL_2024-25/downloads/bbl-2024-25-quick-reference-letter.pdf", "US Letter")]


def test_a_hundred_bowlers_economy_says_runs_per_6_balls(tmp_path):
    """A 100-ball set is bowled in sets of 5, but economy (the card's Econ, the stats layer's and the
    calibration's) is runs per 6 balls; the quick reference says so and the player page now does
    too. A card without the real economy worked it out per 5 balls (139 runs off 120 balls read
    5.79, not Adil Rashid's 6.95)."""
    folder = make_synthetic_kit(tmp_path / "out", code="HUNDRED", season="2024")
    card_set_file = folder / "card-set.json"
    card_set = json.loads(card_set_file.read_text())
    card_set["format"] = "100-ball"
    bowler = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000004")
    bowler["real"].update(balls=120, runs=139)           # Adil Rashid, The Hundred 2024
    bowler["real"].pop("economy", None)                  # worked out from the counts
    bowler["expected"]["economy"] = 6.95
    card_set_file.write_text(json.dumps(card_set))
    pages = _pages(generate_site(tmp_path / "out").site_dir)
    html = pages["sets/HUNDRED_2024/players/aa000004.html"]
    assert re.search(r'<th scope="row">Economy \(runs per 6 balls\)</th><td>6.95</td><td>6.95</td>', html), html
    assert "average balls an innings bowled (A+\u00a0=\u00a020" in html   # the usage legend counts balls too
    other = pages["sets/HUNDRED_2024/players/aa000001.html"]
    assert re.search(r'<th scope="row">Economy \(runs per 6 balls\)</th><td>7.34</td>', other)


def test_a_bowlers_usage_says_what_its_letter_and_number_mean(built_site):
    """A bowler page showed "Usage A/11" and nothing more; the team sheets and quick reference say
    what the letter and the number mean, and the page now prints the team sheets' own legend."""
    from cardgen.render.teamsheets import usage_legend
    _, _, site = built_site
    pages = _pages(site)
    bowler = pages["sets/BBL_2024-25/players/aa000004.html"]
    assert "<dt>Usage</dt><dd>A/11</dd>" in bowler
    # the team sheets' legend, its bands kept whole on a line (a non-breaking hyphen: "B = 10-" broke from "15")
    assert f'<p class="meta">{usage_legend(hundred=False).replace("-", chr(0x2011))}</p>' in bowler
    assert "average overs an innings bowled" in bowler
    striker_only = pages["sets/BBL_2024-25/players/aa000002.html"]
    assert "average overs an innings bowled" not in striker_only


def test_how_to_play_says_where_the_bowlers_card_goes_after_a_single_and_an_over(tmp_path):
    """The bowler's card marks the striker (rules 2.2 and 3.5.3): the walked ball said only that
    "at the end of the over the bowler's card moves to the other batter", as if the same bowler
    bowled on, and not what a single does to it."""
    import html
    folder = make_synthetic_kit(tmp_path / "out")
    card_set = json.loads((folder / "card-set.json").read_text())
    card_set["fielding_chart"]["cells"][5][19] = "catch_chance"   # so how to play walks a ball of this kit
    (folder / "card-set.json").write_text(json.dumps(card_set))
    page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
    steps = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.split('class="steps"', 1)[1].split("</ol>")[0])).split())
    assert "The bowler's card lies beside the batter on strike" in steps
    assert "after one run (or three) the batters change ends, so move it beside the other batter" in steps
    assert "put the next bowler's card in its place" in steps
    assert "the bowler's card moves to the other batter" not in steps
    # a team's name as a name: IPL 2025's walked ball said "shuffle Delhi Capitals's XI"
    assert "shuffle the Perth Scorchers XI and draw a card: Cooper Connolly" in steps
    # on a phone the chart scrolls sideways and the marked cell (column 20) starts out of sight
    caption = re.search(r'<table class="fielding">\s*<caption>([^<]*)</caption>', page).group(1)
    assert caption.endswith("The cell of the example ball is marked: row 6, column 20."), caption


def test_how_to_play_walks_a_hundred_ball_in_sets_of_5(tmp_path):
    """A site of 100-ball kits only walks its ball with a Hundred card: the last step spoke of the
    over and of the ends changing at its end, where The Hundred changes ends every 10 balls and a
    bowler bowls 5 or 10 in a row."""
    import html
    folder = make_synthetic_kit(tmp_path / "out", code="HUNDRED", season="2024")
    card_set = json.loads((folder / "card-set.json").read_text())
    card_set["format"] = "100-ball"
    card_set["fielding_chart"]["cells"][5][19] = "catch_chance"   # so how to play walks a ball of this kit
    (folder / "card-set.json").write_text(json.dumps(card_set))
    page = _pages(generate_site(tmp_path / "out").site_dir)["how-to-play.html"]
    steps = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.split('class="steps"', 1)[1].split("</ol>")[0])).split())
    assert "under the current set of 5" in steps and "After every 10 balls the strike changes too" in steps
    assert "A bowler bowls 5 or 10 balls in a row" in steps
    assert "over" not in steps



def test_a_rated_strikers_page_shows_his_defence_and_how_to_play_explains_it(tmp_path):
    """A striker card's Defence rating (docs/rules.md R13) on the player page, with a line on what
    it does and a link to the how-to-play page's R13 section, which names the set's rated cards."""
    from bs4 import BeautifulSoup
    folder = make_synthetic_kit(tmp_path / "out")
    card_set_file = folder / "card-set.json"
    card_set = json.loads(card_set_file.read_text())
    connolly = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000002")
    connolly["defence"] = 9
    green = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000001" and c["kind"] == "striker")
    green["defence"] = "nine"  # a hand-edited set the kit could not print: shown without it
    card_set_file.write_text(json.dumps(card_set))
    site = generate_site(tmp_path / "out").site_dir
    pages = _pages(site)
    rated = BeautifulSoup(pages["sets/BBL_2024-25/players/aa000002.html"], "html.parser")
    facts = {dt.get_text(): dt.find_next_sibling("dd").get_text() for dt in rated.select(".card-data dt")}
    assert facts == {"Catching C": "10", "Run-out RO": "8", "Defence": "9"}
    note = " ".join(rated.find("a", string="how Defence works").parent.get_text().split())
    assert note == ("Defence 9: when the bowler's card shows W, roll a d20; at or under 9 the batter is not out "
                    "and the ball is a dot (how Defence works).")
    assert rated.find("a", string="how Defence works")["href"] == "../../../how-to-play.html#defence"
    for pid in ("aa000001", "aa000003"):  # no rating, and a rating that is not one: nothing shown
        assert "Defence" not in pages[f"sets/BBL_2024-25/players/{pid}.html"], pid
    play = BeautifulSoup(pages["how-to-play.html"], "html.parser")
    section = play.find("section", attrs={"aria-labelledby": "defence"})
    text = " ".join(section.get_text().split())
    assert play.find(id="defence").get_text() == "Defence (some striker cards)"
    assert "When the d6 sends you to the bowler's card and it shows W" in text
    assert "at or under the rating the batter survives and the ball is a dot" in text
    assert "Big Bash League 2024-2025: 1 rated card, Defence 9; highest: Cooper Connolly (9)." in text
    assert section.find("a", string="Cooper Connolly")["href"] == "sets/BBL_2024-25/players/aa000002.html"
    assert check_links(site).broken == []  # the link to #defence (an id there) and the player link resolve


@pytest.mark.slow
def test_how_to_play_sums_up_each_kits_defence_ratings_and_names_its_highest(tmp_path):
    """A calibrated season rates up to 22 strikers (IPL): how-to-play gives each kit with ratings
    one line (how many, their range, the three highest, equal ratings by balls faced: the names a
    reader knows) and leaves out a kit with none; the team sheets list every rated card."""
    from bs4 import BeautifulSoup
    out = tmp_path / "out"
    ratings = {"2024-25": {"aa000002": 9}, "2023-24": {"aa000001": 20, "aa000002": 20, "bb000001": 12,
                                                       "bb000002": 5}}
    for season in ("2024-25", "2023-24", "2022-23"):
        card_set_file = make_synthetic_kit(out, season=season) / "card-set.json"
        card_set = json.loads(card_set_file.read_text())
        connolly = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000002")
        for pid, name, balls in (("bb000001", "Ashton Turner", 400), ("bb000002", "Josh Inglis", 500)):
            extra = json.loads(json.dumps(connolly))
            extra["player"].update(id=pid, name=name, full_name=name)
            extra["real"]["balls"] = balls
            card_set["cards"].append(extra)
        green = next(c for c in card_set["cards"] if c["player"]["id"] == "aa000001" and c["kind"] == "striker")
        green["real"]["balls"] = 100  # Connolly faced 246: he is named first of the two 20s
        for card in card_set["cards"]:
            if card["kind"] == "striker" and card["player"]["id"] in ratings.get(season, {}):
                card["defence"] = ratings[season][card["player"]["id"]]
        card_set_file.write_text(json.dumps(card_set))
    site = generate_site(out).site_dir
    play = BeautifulSoup(_pages(site)["how-to-play.html"], "html.parser")
    section = play.find("section", attrs={"aria-labelledby": "defence"})
    lines = [" ".join(li.get_text().split()) for li in section.find_all("li")]
    assert lines == [
        "Big Bash League 2024-2025: 1 rated card, Defence 9; highest: Cooper Connolly (9).",
        "Big Bash League 2023-2024: 4 rated cards, Defence 5–20; highest: Cooper Connolly (20), Chris Green (20), "
        "Ashton Turner (12).",
    ]
    words = " ".join(section.get_text().split())
    assert words.startswith("Defence (some striker cards) Some striker cards print a Defence rating (1–20)")
    assert "Every rated card is on its kit's team sheets (the Defence column). In each kit:" in words
    links = {a.get_text(): a["href"] for a in section.find_all("li")[1].find_all("a")}
    assert links == {"Big Bash League 2023-2024": "sets/BBL_2023-24/index.html",
                     "Cooper Connolly": "sets/BBL_2023-24/players/aa000002.html",
                     "Chris Green": "sets/BBL_2023-24/players/aa000001.html",
                     "Ashton Turner": "sets/BBL_2023-24/players/bb000001.html"}
    assert check_links(site).broken == []


def test_how_to_play_says_nothing_of_defence_when_no_set_has_a_rated_card(built_site):
    """R13 applies only to a rated card: a site of kits without one does not teach it."""
    _, _, site = built_site
    play = _pages(site)["how-to-play.html"]
    assert 'id="defence"' not in play and "Defence" not in play


def test_a_striker_card_without_a_six_face_says_where_its_players_sixes_come_from(tmp_path):
    """MS Dhoni's IPL 2025 card (shipped set) is dots and singles, yet he hit 12 fours and 12
    sixes in 145 balls: his player page says the card's boundaries come from the bowler's card
    and the attack die, with what the card hits a 100 balls against the real figure. A card with
    both faces says nothing; a short stay gets the reason without the rates."""
    import gzip

    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    from cardgen.site.texts import boundary_note
    [path] = [p for p in sorted((bundled_tables_dir() / FOLDER).glob("IPL_2025-*.json.gz"))
              if json.loads(gzip.decompress(p.read_bytes())).get("rule") == "wickets-in-hand"]
    card_set = json.loads(gzip.decompress(path.read_bytes()))
    dhoni = next(c for c in card_set["cards"] if c["player"]["name"] == "MS Dhoni" and c["kind"] == "striker")
    assert {r["result"] for r in dhoni["chart"]}.isdisjoint({"4", "6"})
    note = boundary_note(Card.from_json(dhoni), attack_die=True)
    assert note.startswith("No 4 or 6 on this card, yet 12 fours and 12 sixes in 145 real balls")
    assert "attack die" in note
    sixes = f"{100 * dhoni['expected']['sixes']:.1f} sixes (real {100 * 12 / 145:.1f})"
    assert sixes in note and note.endswith("a 100 balls.")
    assert "attack die" not in boundary_note(Card.from_json(dhoni), attack_die=False)   # the printed rules
    hitter = next(c for c in card_set["cards"] if c["kind"] == "striker"
                  and {"4", "6"} <= {r["result"] for r in c["chart"]})
    assert boundary_note(Card.from_json(hitter), attack_die=True) == ""
    short = dict(dhoni, real={**dhoni["real"], "balls": 7, "fours": 1, "sixes": 0})
    assert boundary_note(Card.from_json(short), attack_die=True) == ("No 4 on this card, yet 1 four in 7 real balls: a card's "
                                                     "boundaries also come from the bowler's card (half of "
                                                     "every ball is read from it) and from the attack die of "
                                                     "the wickets-in-hand rule, which turns dots into fours "
                                                     "and sixes.")
    # and on the page: the synthetic kit's striker card without a 6 face
    folder = make_synthetic_kit(tmp_path / "out")
    doc = json.loads((folder / "card-set.json").read_text())
    striker = next(c for c in doc["cards"] if c["kind"] == "striker")
    striker["chart"] = [dict(r, result="0") if r["result"] == "6" else r for r in striker["chart"]]
    striker["real"]["sixes"], striker["expected"]["sixes"] = 3, 0.02
    (folder / "card-set.json").write_text(json.dumps(doc))
    pid = striker["player"]["id"]
    html = _pages(generate_site(tmp_path / "out").site_dir)[f"sets/BBL_2024-25/players/{pid}.html"]
    assert "No 6 on this card, yet 3 sixes in" in html


def test_player_page_says_where_a_striker_card_without_runs_gets_them():
    """A tail-ender's short stay, mostly in the attack band, can print a card with no run face
    (Jamie Overton, IPL 2025: 15 runs off 7 balls, a card of 100 dots; 9-38 such cards a
    shipped season): in the attack band the attack die turns a dot into four or six, so dots are
    where his runs are. The player page says so; a card with a run face says nothing of it."""
    from conftest import _shipped_rule_set
    from cardgen.render.card import RUN_RESULTS as RUN_FACES
    from cardgen.site.texts import boundary_note
    card_set = _shipped_rule_set("IPL_2025")
    strikers = [c for c in card_set["cards"] if c["kind"] == "striker" and c["real"]["balls"]]
    runless = [c for c in strikers if not {r["result"] for r in c["chart"]} & RUN_FACES
               and c["real"]["runs"] > 0]
    assert len(runless) >= 10
    for card in runless:
        runs, balls = card["real"]["runs"], card["real"]["balls"]
        note = boundary_note(Card.from_json(card), attack_die=True)
        assert note.startswith(f"No run on this card, yet {runs} run{'' if runs == 1 else 's'} in {balls} real")
        assert "attack die" in note and "attack die" not in boundary_note(Card.from_json(card), attack_die=False)
    assert not any(boundary_note(Card.from_json(c), True).startswith("No run") for c in strikers
                   if {r["result"] for r in c["chart"]} & RUN_FACES)


def test_player_page_says_why_a_bowler_card_takes_more_wickets_than_its_bowler():
    """A qualified bowler whose card, whatever its faces, takes at least 20% and one wicket more
    than he did (docs/calibration.md section 10): Spencer Johnson, IPL 2025, 1 wicket in 68 balls,
    a card with a B face that takes 3.6 a 100 balls; Fazalhaq Farooqi, none in 102. The note
    gives both rates, his F faces and where the wickets come from; a bowler at his rate gets none."""
    from conftest import _shipped_rule_set
    from cardgen.calibrate.model import CARD_INDEX, chart_to_slots
    from cardgen.site.texts import wicket_note
    cards = {c["player"]["name"]: c for c in _shipped_rule_set("IPL_2025")["cards"] if c["kind"] == "bowler"}
    johnson = cards["Spencer Johnson"]
    assert "B" in {r["result"] for r in johnson["chart"]}
    f_faces = int(chart_to_slots(johnson["chart"])[CARD_INDEX["F"]])
    note = wicket_note(Card.from_json(johnson), attack_die=True)
    assert note.startswith(f"Played against the league's batters, this card takes "
                           f"{100 * johnson['expected']['wicket_rate']:.1f} wickets a 100 balls; its bowler "
                           f"took {100 / 68:.1f} (1 in 68 balls).")
    assert f"on its {f_faces} F faces" in note and "attack die" in note
    assert "attack die" not in wicket_note(Card.from_json(johnson), attack_die=False)
    assert "(none in 102 balls)" in wicket_note(Card.from_json(cards["Fazalhaq Farooqi"]), attack_die=True)
    ashwin = cards["Ravichandran Ashwin"]   # a W on his card, and about his real rate
    assert ashwin["expected"]["wicket_rate"] * ashwin["real"]["balls"] < 1.2 * ashwin["real"]["dismissals"]
    assert wicket_note(Card.from_json(ashwin), attack_die=True) == ""


def test_player_page_says_why_a_striker_card_is_out_more_often_than_its_batter():
    """A qualified striker card out at least 20% and once more often than its batter (bench_players'
    second table): Jamie Overton, BBL 2024-25, out twice in 122 balls, his card rated Defence 20;
    the note gives both rates and why a rating of 20 cannot do more. Without the rating it names
    the bowler card's W; a batter at his rate gets none."""
    from conftest import _shipped_rule_set
    from cardgen.site.texts import out_note
    cards = {c["player"]["name"]: c for c in _shipped_rule_set("BBL_2024-25")["cards"] if c["kind"] == "striker"}
    overton = cards["Jamie Overton"]
    assert overton["defence"] == 20 and overton["real"]["dismissals"] == 2 and overton["real"]["balls"] == 122
    note = out_note(Card.from_json(overton), attack_die=True)
    assert note.startswith(f"Played against the league's bowlers, this card is out "
                           f"{100 * overton['expected']['dismissal_rate']:.1f} times a 100 balls; its batter "
                           f"{200 / 122:.1f} (2 in 122 balls). Its Defence 20 saves every W")
    assert "attack die" in note and "attack die" not in out_note(Card.from_json(overton), attack_die=False)
    unrated = out_note(Card.from_json(dict(overton, defence=None)), attack_die=True)
    assert "and its W, the fielding chart's catches" in unrated
    # a hand-edited rating the kit would refuse to print: the note leaves the rating out
    assert "and its W, the fielding chart's catches" in out_note(Card.from_json(dict(overton, defence="twenty")), attack_die=True)
    from cardgen.site.texts import wicket_note
    # a set without the expected block: no note, no error
    assert out_note(Card.from_json(dict(overton, expected=None)), attack_die=True) == ""
    assert "Played against" not in wicket_note(Card.from_json(dict(overton, kind="bowler", expected=None)), attack_die=True)
    for broken in ([], "n/a", {"dismissal_rate": "high"}):   # hand-edited: refused once, at the model's load
        with pytest.raises(CardSetError, match="Jamie Overton .*expected"):
            Card.from_json(dict(overton, expected=broken))
    steady = cards["Steve Smith"]   # out once in 95: his card's 1.6 is under one more dismissal
    assert out_note(Card.from_json(steady), attack_die=True) == ""


def test_player_page_says_where_a_bowler_card_without_w_gets_its_wickets(tmp_path):
    """Rashid Khan's IPL 2025 card (shipped set) has no W or B face, yet he took 9 wickets in 330
    balls (the batters' half of each delivery already gives more): his player page says where a
    bowler's wickets come from and what the card takes a 100 balls against the real figure. A
    card with a W says nothing, nor does a bowler without a wicket."""
    from conftest import _shipped_rule_set
    from cardgen.site.texts import wicket_note
    card_set = _shipped_rule_set("IPL_2025")
    rashid = next(c for c in card_set["cards"] if c["player"]["name"] == "Rashid Khan" and c["kind"] == "bowler")
    assert {r["result"] for r in rashid["chart"]}.isdisjoint({"W", "B"})
    note = wicket_note(Card.from_json(rashid), attack_die=True)
    assert note.startswith("No W or B on this card, yet 9 wickets in 330 real balls")
    assert "batter's card" in note and "attack die" in note
    assert f"takes {100 * rashid['expected']['wicket_rate']:.1f} wickets a 100 balls (real {100 * 9 / 330:.1f})" in note
    assert "attack die" not in wicket_note(Card.from_json(rashid), attack_die=False)   # the printed rules
    taker = next(c for c in card_set["cards"] if c["kind"] == "bowler"
                 and "W" in {r["result"] for r in c["chart"]})
    assert wicket_note(Card.from_json(taker), attack_die=True) == ""
    # without a wicket, the card's floor is all there is to say
    assert wicket_note(Card.from_json(dict(rashid, real={**rashid["real"], "dismissals": 0})), attack_die=True).startswith(
        "Played against the league's batters, this card takes")
    short = dict(rashid, real={**rashid["real"], "balls": 12, "dismissals": 1})
    assert wicket_note(Card.from_json(short), attack_die=True).endswith("on some dots.")   # no rates on a short spell
    # and on the page: the synthetic kit's bowler card with its W and B faces made dots
    folder = make_synthetic_kit(tmp_path / "out")
    doc = json.loads((folder / "card-set.json").read_text())
    bowler = next(c for c in doc["cards"] if c["kind"] == "bowler" and c["real"].get("dismissals"))
    bowler["chart"] = [dict(r, result="0") if r["result"] in ("W", "B") else r for r in bowler["chart"]]
    (folder / "card-set.json").write_text(json.dumps(doc))
    pid = bowler["player"]["id"]
    html = _pages(generate_site(tmp_path / "out").site_dir)[f"sets/BBL_2024-25/players/{pid}.html"]
    assert f"No W or B on this card, yet {bowler['real']['dismissals']} wicket" in html


def test_player_page_says_why_a_consolidating_batters_card_has_many_w_faces():
    """R12 saves a caught W on the consolidate die, so a batter who faced nearly every ball while
    his side consolidated prints far more W faces than his rate looks to need (Sam Harper, BBL
    2023-24, 23 balls: 45): the player page says why and what the card plays to."""
    import gzip

    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    from cardgen.site.texts import consolidate_note
    [path] = [p for p in sorted((bundled_tables_dir() / FOLDER).glob("IPL_2025-*.json.gz"))
              if json.loads(gzip.decompress(p.read_bytes())).get("rules") == "advanced"]
    card_set = json.loads(gzip.decompress(path.read_bytes()))
    strikers = [c for c in card_set["cards"] if c["kind"] == "striker"]
    model = as_model(card_set)   # the notes read the model, as the site does

    def w_faces(card: dict) -> int:
        return sum(r["hi"] - r["lo"] + 1 for r in card["chart"] if r["result"] == "W")

    noted = [c for c in strikers if consolidate_note(Card.from_json(c), model)]
    assert noted and all(c["situations"]["consolidate"] >= 0.6 and w_faces(c) >= 25 for c in noted)
    card = noted[0]
    note = consolidate_note(Card.from_json(card), model)
    assert f"{round(100 * card['situations']['consolidate'])}% of the real balls" in note
    assert "8 or more balls left for each wicket in hand" in note and "d20 of 1-12" in note
    assert f"prints {w_faces(card)} W faces" in note
    real = 100 * card["real"]["dismissals"] / card["real"]["balls"]
    assert f"out {100 * card['expected']['dismissal_rate']:.1f} times a 100 balls (real {real:.1f}" in note
    # a card with few W faces, or mostly attacking, says nothing; nor does a set for the printed rules
    assert all(consolidate_note(Card.from_json(c), model) == "" for c in strikers if w_faces(c) < 25)
    # (which rules a set is made for is read by rule_sets.rules_of_set, as every layer reads it)
    assert consolidate_note(Card.from_json(card), as_model(dict(card_set, rules="quicket", rule="classic"))) == ""


def test_how_to_play_says_who_bats_without_a_striker_card_and_what_a_role_star_is(tmp_path):
    """Gamer's audit (helper-41, WPL 2023 / PSL 2021): cards print the rules' role "*" (Jess
    Jonassen's striker card, Amanjot Kaur's bowler card) and many squads have bowler-only
    players (Peshawar Zalmi's Abrar Ahmed); the printed quick reference says both, the site's
    setup said neither."""
    text, reference = _how_to_play_and_quick_reference(tmp_path)
    assert "A batter with no striker card (Cards: B) bats with the card the team sheet names." in reference
    assert "A player with only a bowler card (Cards: B) bats with the striker card the team sheet names." in text
    assert "Role * : mainly a bowler (on a bowler card: mainly a batter)." in reference
    assert "A role of * means mainly a bowler on a striker card, mainly a batter on a bowler card." in text


def test_a_team_page_shows_the_cards_in_the_order_of_the_printed_decks(tmp_path):
    """Gamer's audit (helper-43, IPL 2025): Mumbai Indians' page showed Ryan Rickelton, then the
    reserve Jonny Bairstow, then Rohit Sharma, ordered by each player's average batting place,
    while the printed sheets (and the team sheet's decks) put the usual XI in batting order and
    then the reserves. The page now follows the printed order, as card_views stacks it."""
    import html

    from cardgen.render.card import card_views
    folder = make_synthetic_kit(tmp_path)
    doc = json.loads((folder / "card-set.json").read_text())
    perth = next(t for t in doc["teams"] if t["name"] == "Perth Scorchers")
    # Lance Morris (average place 12) in the XI, Cooper Connolly (place 4) a reserve
    perth.update({"batting_order": ["aa000004"], "reserves": ["aa000002"]})
    (folder / "card-set.json").write_text(json.dumps(doc))
    site = generate_site(tmp_path).site_dir
    page = (site / "sets/BBL_2024-25/team-perth-scorchers.html").read_text()
    shown = [(html.unescape(name), kind.lower()) for name, kind in
             re.findall(r'<span class="name">([^<]+)</span> <span class="kind">([^<]+)</span>', page)]
    printed = [(v.name.title(), v.kind) for v in card_views(as_model(doc)) if v.team == "Perth Scorchers"]
    assert shown == printed == [("Lance Morris", "bowler"), ("Cooper Connolly", "striker")]


def test_a_player_with_only_a_bowler_card_is_told_which_striker_card_he_bats_with(tmp_path):
    """Gamer's audit (helper-41's list, met again by helper-43: Chris Wood of Birmingham Phoenix,
    The Hundred 2024): the team sheet names the striker card a player with only a bowler card
    bats with (docs/rules.md R9), and his page said only "Batting role: Mainly a bowler". The
    page names that card now, linked, as the team sheet chooses it."""
    from cardgen.cardset import CardSet
    from cardgen.render.teamsheets import stand_in_card
    folder = make_synthetic_kit(tmp_path)
    doc = json.loads((folder / "card-set.json").read_text())
    assert stand_in_card(CardSet.from_json(doc), "Perth Scorchers").player.id == "aa000002"  # Cooper Connolly
    site = generate_site(tmp_path).site_dir
    morris = (site / "sets/BBL_2024-25/players/aa000004.html").read_text()  # Lance Morris: a bowler card
    assert ('<dt>Bats with</dt><dd>No striker card of their own: <a href="../players/aa000002.html#striker">'
            "Cooper Connolly</a>'s striker card (the team's last-placed batter), as the team sheet says</dd>"
            in morris)
    for pid in ("aa000001", "aa000002"):  # a striker card of their own: not told
        assert "Bats with" not in (site / f"sets/BBL_2024-25/players/{pid}.html").read_text()


def test_the_site_prints_the_season_as_the_kits_cards_do(tmp_path):
    """Review finding (helper-45): the cards print "2024-2025" (the rules' example cards' form),
    the site printed "2024-25" (home page, set and player pages, other systems' kits). Every page's
    text now says "2024-2025"; only folder and file names keep the short form."""
    make_synthetic_kit(tmp_path)
    make_game_kit(tmp_path, "roll-and-play/BBL_2024-25", "Roll & Play", "BBL", "2024-25")
    site = generate_site(tmp_path).site_dir
    pages = _pages(site)
    for name, html in pages.items():
        text = re.sub(r"<[^>]*>", " ", html)  # what a reader sees: no link targets or file paths
        text = re.sub(r"\S+\.(zip|pdf|png|json|txt|csv|md|html|js|css)\b", " ", text)  # a download's file name
        assert not re.search(r"2024-25(?!\d)", text), name
    assert "<dt>Season</dt><dd>2024-2025</dd>" in pages["index.html"]
    assert '<span class="nowrap">2024-2025</span></h1>' in pages["sets/BBL_2024-25/index.html"]
    player = next(html for name, html in pages.items() if "/players/" in name)
    assert "<dt>Season</dt><dd>2024-2025</dd>" in player
    assert "BBL 2024-2025" in pages["games/roll-and-play/BBL_2024-25/index.html"]


def test_how_to_play_says_whose_run_a_failed_catch_or_run_out_chance_is(built_site):
    """Review finding (helper-45): "else 1 run" left a scorer asking whose run it is: the
    striker's (rules 4.3.7 / 4.3.8, docs/rules.md R4), as the printed sheets now say."""
    from bs4 import BeautifulSoup
    page = BeautifulSoup(_pages(built_site[2])["how-to-play.html"], "html.parser")
    chances = {li.strong.get_text(): " ".join(li.get_text().split()) for li in page.find_all("li")
               if li.strong and li.strong.get_text() in ("Catch chance", "Run-out chance")}
    assert sorted(chances) == ["Catch chance", "Run-out chance"]
    assert all(text.endswith("else 1 run to the striker.") for text in chances.values()), chances
