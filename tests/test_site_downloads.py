"""The site's downloads (cardgen/site/downloads.py): each saves under a name that says what it is,
holds the kit's own bytes, and a team page offers that team's files, TTS sheets and zip only.

Issue 38: every team's files saved as `cards-a4.pdf`, the whole set's name too (29 files of one
name on a three-set site); two teams for a match saved as "cards-a4 (1).pdf".
"""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from cardgen.render.images import TtsDeck, tts_decks_json, tts_readme
from cardgen.site.generate import generate_site
from cardgen.site.downloads import download_name
from test_site_generate import _pdf, _png, make_synthetic_kit, write_kit_manifest

TEAMS = ("Perth Scorchers", "Sydney Thunder")


def _two_team_kit(out: Path, code: str = "BBL", season: str = "2024-25") -> Path:
    """A synthetic kit as `cardgen build` writes it: each team's own PDFs under teams/, and TTS
    sheets per team with the decks.json that says whose they are."""
    folder = make_synthetic_kit(out, code=code, season=season)
    (folder / "tts" / "deck-1.png").unlink()
    teams, decks = [], []
    for team in TEAMS:
        tslug = team.lower().replace(" ", "-")
        files = {}
        for key in ("cards-a4", "cards-letter", "team-sheet-a4"):
            (folder / "teams" / tslug).mkdir(parents=True, exist_ok=True)
            _pdf(folder / "teams" / tslug / f"{key}.pdf", f"{code} {season} {team} {key}")
            files[key] = f"teams/{tslug}/{key}.pdf"
        teams.append({"name": team, "folder": f"teams/{tslug}", "files": files})
        for sheet in ("1", "back"):
            _png(folder / "tts" / f"{tslug}-{sheet}.png", f"{team} TTS {sheet}", "#0d3b1e")
        decks.append(TtsDeck(team, f"tts/{tslug}-1.png", f"tts/{tslug}-back.png", 2, 10, 7))
    (folder / "tts" / "decks.json").write_text(tts_decks_json(decks), encoding="utf-8")
    (folder / "tts" / "README.txt").write_text(tts_readme(decks, f"{code} {season}"), encoding="utf-8")
    write_kit_manifest(folder, teams=teams)
    return folder


@pytest.fixture(scope="module")
def two_sets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two seasons of one league on one site: the names must differ by set as well as by team."""
    out = tmp_path_factory.mktemp("out")
    _two_team_kit(out, season="2024-25")
    _two_team_kit(out, season="2023-24")
    return out, generate_site(out).site_dir


LINK = re.compile(r'<a href="([^"#?]+)" download(?:="([^"]*)")?>')


def _offered(site: Path) -> dict[Path, set[str]]:
    """Every file a page offers for download -> the names it is offered under."""
    found: dict[Path, set[str]] = {}
    for page in site.rglob("*.html"):
        for href, name in LINK.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / href).resolve()
            found.setdefault(target, set()).add(name)
    return found


def test_every_download_saves_under_a_name_of_its_own(two_sets):
    out, site = two_sets
    offered = _offered(site)
    # every named file is offered by some page (none is an orphan a link checker would miss)
    assert {p.resolve() for p in site.glob("sets/*/downloads/*")} <= set(offered)
    owners: dict[str, Path] = {}
    for target, names in offered.items():
        # the `download` name is the file's own name: a browser that ignores the attribute
        # (or "Save link as") saves the same name
        assert names == {target.name}, (target, names)
        assert owners.setdefault(target.name, target) == target, f"two files saved as {target.name}"
    names = set(owners)
    for season in ("2024-25", "2023-24"):
        for team in ("perth-scorchers", "sydney-thunder"):
            assert f"bbl-{season}-{team}-cards-a4.pdf" in names
            assert f"bbl-{season}-{team}.zip" in names
        assert f"bbl-{season}-cards-a4.pdf" in names and f"bbl-{season}-card-set.json" in names
    assert not [n for n in names if n in ("cards-a4.pdf", "team-sheet-a4.pdf", "card-set.json")]


def test_every_download_is_the_kits_own_bytes(two_sets):
    out, site = two_sets
    for season in ("2024-25", "2023-24"):
        folder = out / f"BBL_{season}"
        kit_files = {p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        for target in _offered(site):
            if target.suffix == ".zip" or f"BBL_{season}" not in target.parts:
                continue
            assert target.read_bytes() in kit_files, target


def test_a_team_zip_holds_its_own_files_and_tts_sheets_byte_for_byte(two_sets):
    out, site = two_sets
    folder = out / "BBL_2024-25"
    with zipfile.ZipFile(site / "sets" / "BBL_2024-25" / "downloads" / "bbl-2024-25-perth-scorchers.zip") as zf:
        entries = {name: zf.read(name) for name in zf.namelist()}
    expected = {"perth-scorchers-cards-a4.pdf": "teams/perth-scorchers/cards-a4.pdf",
                "perth-scorchers-cards-letter.pdf": "teams/perth-scorchers/cards-letter.pdf",
                "perth-scorchers-team-sheet-a4.pdf": "teams/perth-scorchers/team-sheet-a4.pdf",
                "tts-perth-scorchers-1.png": "tts/perth-scorchers-1.png",
                "tts-perth-scorchers-back.png": "tts/perth-scorchers-back.png"}
    top = "bbl-2024-25-perth-scorchers/bbl-2024-25-"
    assert sorted(entries) == sorted(top + name for name in expected)
    for name, rel in expected.items():
        assert entries[top + name] == (folder / rel).read_bytes(), name


def test_a_team_page_lists_only_its_own_tts_sheets(two_sets):
    _, site = two_sets
    page = (site / "sets" / "BBL_2024-25" / "team-perth-scorchers.html").read_text(encoding="utf-8")
    sheets = re.findall(r'download="(bbl-2024-25-tts-[^"]+)"', page)
    assert sheets == ["bbl-2024-25-tts-perth-scorchers-1.png", "bbl-2024-25-tts-perth-scorchers-back.png"]
    # the set page still offers every team's, with the README on loading them
    whole = (site / "sets" / "BBL_2024-25" / "index.html").read_text(encoding="utf-8")
    assert len(re.findall(r'download="bbl-2024-25-tts-[^"]+\.png"', whole)) == 4
    assert 'download="bbl-2024-25-tts-readme.txt"' in whole


def test_a_tts_sheet_is_its_teams_by_name_when_decks_json_is_missing(tmp_path):
    out = tmp_path / "out"
    folder = _two_team_kit(out)
    (folder / "tts" / "decks.json").unlink()
    page = (generate_site(out).site_dir / "sets" / "BBL_2024-25" / "team-sydney-thunder.html").read_text()
    assert re.findall(r'download="(bbl-2024-25-tts-[^"]+)"', page) == [
        "bbl-2024-25-tts-sydney-thunder-1.png", "bbl-2024-25-tts-sydney-thunder-back.png"]


@pytest.mark.parametrize("set_name, relpath, name", [
    ("BBL_2024-25", "cards-a4.pdf", "bbl-2024-25-cards-a4.pdf"),
    ("BBL_2024-25-advanced", "teams/sydney-sixers/team-sheet-a4.pdf", "bbl-2024-25-advanced-sydney-sixers-team-sheet-a4.pdf"),
    ("IPL_2025", "START-HERE.txt", "ipl-2025-start-here.txt"),
    ("IPL_2025", "tts/mumbai-indians-back.png", "ipl-2025-tts-mumbai-indians-back.png"),
])
def test_download_names_say_set_team_and_sheet(set_name: str, relpath: str, name: str):
    assert download_name(set_name, relpath) == name



def _meta(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta (?:property|name)="((?:og|twitter):[a-z:_]+)" content="([^"]*)"', html))


def test_set_team_and_player_pages_share_a_card_picture_and_a_line(tmp_path):
    """Issue 38: a set or player link pasted into a chat showed no preview. Each set, team and
    player page has an Open Graph / Twitter card: its title, a line saying what it is, and one
    of its own cards' pictures; with a whole --base-url the picture's address is whole too."""
    out = tmp_path / "out"
    _two_team_kit(out)
    site = generate_site(out, base_url="https://kits.example/cricket").site_dir
    root = site / "sets" / "BBL_2024-25"
    pages = {"set": root / "index.html", "team": root / "team-perth-scorchers.html",
             "player": root / "players" / "aa000002.html"}
    for what, page in pages.items():
        meta = _meta(page.read_text(encoding="utf-8"))
        assert meta["og:title"] and meta["og:description"], what
        image = meta["og:image"]
        assert image.startswith("https://kits.example/cricket/sets/BBL_2024-25/thumbs/"), (what, image)
        assert (site / image.removeprefix("https://kits.example/cricket/")).is_file(), what
        assert meta["twitter:card"] == "summary_large_image" and meta["twitter:image"] == image
    assert "Perth Scorchers" in _meta(pages["team"].read_text())["og:description"]
    assert "perth-scorchers" in _meta(pages["team"].read_text())["og:image"]   # the team's own card
    player = _meta(pages["player"].read_text())
    assert player["og:title"].startswith("Cooper Connolly") and "cooper-connolly" in player["og:image"]
    # served from a path only, the picture is linked from the page itself
    relative = generate_site(out).site_dir / "sets" / "BBL_2024-25" / "players" / "aa000002.html"
    image = _meta(relative.read_text())["og:image"]
    assert image.startswith("../../../sets/") and (relative.parent / image).resolve().is_file()


def test_a_pair_page_puts_two_teams_cards_side_by_side_by_rating(tmp_path):
    """Issue 38 item 4: a compare page per pair of teams, each side's batting cards by strike rate
    (highest first) and bowling cards by economy (lowest first), with the replays' figures when
    `cardgen simulate` ran; compare.html lists every pair and every card with its ratings."""
    out = tmp_path / "out"
    folder = make_synthetic_kit(out)
    card_set = json.loads((folder / "card-set.json").read_text())
    # a second Perth striker, slower than Cooper Connolly: the page must put him second
    slower = json.loads(json.dumps(next(c for c in card_set["cards"] if c["player"]["id"] == "aa000002")))
    slower["player"].update(id="aa000009", name="Slow Batter", full_name="Slow Batter")
    slower["expected"]["strike_rate"] = 99.5
    card_set["cards"].append(slower)
    (folder / "card-set.json").write_text(json.dumps(card_set))
    (folder / "validation").mkdir()
    (folder / "validation" / "simulate_ladder.csv").write_text(
        "sim_rank,team,played,real_place,real_won,sim_win_share,sim_mean_place\n"
        "1,Perth Scorchers,10,2,7,0.625,1.8\n2,Sydney Thunder,10,1,8,0.41,2.2\n")
    site = generate_site(out).site_dir / "sets" / "BBL_2024-25"
    page = (site / "compare-sydney-thunder-vs-perth-scorchers.html").read_text(encoding="utf-8")
    assert "<h1>Sydney Thunder v Perth Scorchers</h1>" in page
    batting = page.split('id="batting"')[1].split('id="bowling"')[0]
    perth = batting.split("<caption>Perth Scorchers</caption>")[1].split("</table>")[0]
    names = re.findall(r'<a href="[^"]+">([^<]+)</a>', perth)
    assert names == ["Cooper Connolly", "Slow Batter"]
    assert "130.1" in perth and "99.5" in perth
    figures = page.split("The two sides in figures")[1].split("</table>")[0]
    assert re.search(r"Replays: share of matches won</th><td>41.0%</td><td>62.5%</td>", figures)
    index = (site / "compare.html").read_text(encoding="utf-8")
    assert index.count('data-pair="') == 3   # three teams: three pairs
    assert len(re.findall(r"<tr data-team=", index)) == len(card_set["cards"])
    # linked from the set page and from each team page to its two pairs
    assert 'href="compare.html"' in (site / "index.html").read_text()
    team = (site / "team-perth-scorchers.html").read_text()
    assert 'href="compare-sydney-thunder-vs-perth-scorchers.html">Sydney Thunder</a>' in team
    # no head-to-head file (simulate not run, or an older one): the page says how to get it
    assert "No head-to-head in this build: <code>cardgen simulate -c BBL -s 2024-2025</code>" in page
    # with simulate's per-pair results: "A beat B n of m replays", whoever is named first
    (folder / "validation" / "simulate_head_to_head.json").write_text(json.dumps({"seasons": 2, "pairs": [
        {"teams": ["Perth Scorchers", "Sydney Thunder"], "played": 4, "tied": 1,
         "won": {"Perth Scorchers": 1, "Sydney Thunder": 2}}]}))
    page = (generate_site(out).site_dir / "sets" / "BBL_2024-25" /
            "compare-sydney-thunder-vs-perth-scorchers.html").read_text(encoding="utf-8")
    said = re.sub(r"\s+", " ", page.split('class="head-to-head">')[1].split("</p>")[0])
    assert said.startswith("<strong>Sydney Thunder beat Perth Scorchers 2 of 4 replays</strong>")
    assert "(Perth Scorchers won 1, 1 tied)" in said and "played again 2 times" in said


def test_the_validation_names_the_cards_outside_its_range(tmp_path):
    """Issue 38 item 8: "116 of 117 ... passed" named no card; the set page now names and links
    the judged cards that played differently from their season."""
    out = tmp_path / "out"
    folder = make_synthetic_kit(out, validation=True)
    (folder / "validation" / "validate_cards.csv").write_text(
        "kind,player_id,name,team,qualified,ok,sim_economy,lo_economy,hi_economy,ok_economy\n"
        "bowler,aa000001,Chris Green,Sydney Thunder,True,True,7.2871,6.9,7.7,True\n"
        "bowler,aa000004,Lance Morris,Perth Scorchers,True,False,9.9,6.9,7.7,False\n")
    page = (generate_site(out).site_dir / "sets" / "BBL_2024-25" / "index.html").read_text(encoding="utf-8")
    named = page.split('class="outside"')[1].split("</p>")[0]
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', named) == [("players/aa000004.html", "Lance Morris")]
    assert "Perth Scorchers, bowler card" in named and "Chris Green" not in named


def test_the_first_match_page_lists_what_to_print_and_the_dice_to_buy(two_sets):
    """Issue 38 item 7: no first-match checklist; the dice table was 3.5 screens down how to print."""
    _, site = two_sets
    page = (site / "first-match.html").read_text(encoding="utf-8")
    section = page.split('id="print"')[1].split("</section>")[0]
    a4, letter = (re.findall(r'download="([^"]+)"', part) for part in section.split('id="print-letter"'))
    # the newest season's first two teams (the card set's order), their own cards and team sheets, then the shared sheets
    assert a4 == ["bbl-2024-25-sydney-thunder-cards-a4.pdf", "bbl-2024-25-sydney-thunder-team-sheet-a4.pdf",
                  "bbl-2024-25-perth-scorchers-cards-a4.pdf", "bbl-2024-25-perth-scorchers-team-sheet-a4.pdf",
                  "bbl-2024-25-fielding-chart-a4.pdf", "bbl-2024-25-scoresheet-a4.pdf",
                  "bbl-2024-25-quick-reference-a4.pdf"]
    # issue 39: a US Letter player gets the teams' files too (this kit has their cards on Letter only)
    assert letter == ["bbl-2024-25-sydney-thunder-cards-letter.pdf", "bbl-2024-25-perth-scorchers-cards-letter.pdf"]
    assert 'href="#print-a4">on A4</a> or <a href="#print-letter">on US Letter</a>' in section
    dice = page.split('id="dice-to-buy"')[1].split("</section>")[0]
    assert "role-playing dice set" in dice and "d6" in dice and "two d10s" in dice and "d20" in dice
    assert "buy a second" in dice
    assert 'href="sets/BBL_2024-25/compare-sydney-thunder-vs-perth-scorchers.html"' in page
    assert 'href="first-match.html#dice-to-buy"' in (site / "how-to-print.html").read_text()



def _record(team_files: dict[str, list[str]], shared: list[str]) -> dict:
    """A set's record as the first-match page reads it (site/pages.py set_record), by hand."""
    rels = [f"teams/{t}/{f}" for t, files in team_files.items() for f in files] + shared
    return {"teams": [[t.title(), t] for t in team_files],
            "team_info": {t: {"name": t.title(), "page": f"team-{t}.html", "pages": {},
                              "downloads": [{"relpath": f"teams/{t}/{f}", "label": f} for f in files]}
                          for t, files in team_files.items()},
            "downloads": [{"relpath": rel, "label": rel} for rel in shared], "pages": {},
            "named": {rel: rel.replace("/", "-") for rel in rels}}


def test_a_kit_on_one_paper_gets_one_list_and_a_team_without_files_its_page():
    from cardgen.site.first_match import paper_of, what_to_print
    assert [paper_of(n) for n in ("cards-a4.pdf", "teams/x/cards-letter-bleed.pdf", "card-set.json")] == [
        "a4", "letter", None]
    lists = what_to_print(_record({"one": ["cards-letter.pdf", "team-sheet-letter.pdf"], "two": []},
                                  ["scoresheet-letter.pdf", "season-tracker-letter.pdf"]))
    assert [p["paper"] for p in lists] == ["letter"]   # built with --paper letter: no empty A4 list
    assert [f.get("relpath", f.get("page")) for f in lists[0]["files"]] == [
        "teams/one/cards-letter.pdf", "teams/one/team-sheet-letter.pdf", "team-two.html", "scoresheet-letter.pdf"]
    both = what_to_print(_record({"one": ["cards-a4.pdf", "cards-letter.pdf"], "two": ["cards-a4.pdf"]}, []))
    assert [[f["relpath"] for f in p["files"]] for p in both] == [
        ["teams/one/cards-a4.pdf", "teams/two/cards-a4.pdf"], ["teams/one/cards-letter.pdf"]]
