"""The catalogue site (cardgen/site/catalogue.py and generate.generate): a home page by
competition, a page per competition, the search index over every player of every season, and
the incremental render that carries unchanged sets over."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from accessibility import assert_accessible, page_errors
from cardgen.manifest import kit_fingerprint
from cardgen.site import catalogue
from cardgen.site.generate import SiteOptions, generate, generate_site
from cardgen.site.linkcheck import check_links
from test_site_generate import make_synthetic_kit, write_kit_manifest

# (code, competition name, season): two seasons of one competition, one of another
KITS = (("BBL", "Big Bash League", "2024-25"), ("BBL", "Big Bash League", "2023-24"),
        ("WBBL", "Women's Big Bash League", "2024-25"))


def _kit(out: Path, code: str, name: str, season: str) -> Path:
    folder = make_synthetic_kit(out, code=code, season=season)
    card_set = json.loads((folder / "card-set.json").read_text())
    card_set["competition"]["name"] = name
    (folder / "card-set.json").write_text(json.dumps(card_set, indent=1, sort_keys=True))
    write_kit_manifest(folder, teams=[])
    return folder


@pytest.fixture(scope="module")
def catalogue_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("catalogue")
    for code, name, season in KITS:
        _kit(out, code, name, season)
    return out, generate_site(out).site_dir


def _shard(path: Path) -> object:
    """The data a shard file hands to CardgenSearch (the file is one call of a JSON argument)."""
    text = path.read_text(encoding="utf-8")
    found = re.fullmatch(r"CardgenSearch\.(\w+)\((.*)\);\n", text, re.S)
    assert found, path
    return json.loads(found.group(2).replace("<\\/", "</"))


def test_home_lists_each_competition_and_its_page_every_season(catalogue_site):
    out, site = catalogue_site
    home = (site / "index.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section class="competition" aria-labelledby="comp-([\w-]+)">', home)
    assert sections == ["bbl", "wbbl"]   # by competition name
    # the newest BBL season in full, the older one as a link
    assert 'id="set-BBL_2024-25"' in home and 'id="set-BBL_2023-24"' not in home
    assert 'href="sets/BBL_2023-24/index.html"' in home
    page = (site / "competitions" / "bbl.html").read_text(encoding="utf-8")
    assert page.index('id="set-BBL_2024-25"') < page.index('id="set-BBL_2023-24"')   # newest first
    assert 'href="../sets/BBL_2023-24/downloads/bbl-2023-24-cards-a4.pdf"' in page   # its downloads
    assert "WBBL_" not in page
    # the home page carries none of the index: it loads on demand
    assert "assets/catalogue-search.js" in home and "assets/search/" not in home


def test_every_link_of_the_catalogue_site_resolves(catalogue_site):
    _, site = catalogue_site
    report = check_links(site)
    assert report.broken == []
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert {"index.html", "competitions/bbl.html", "competitions/wbbl.html"} <= pages


def test_the_search_index_finds_every_player_of_every_season(catalogue_site):
    """Each player of each card set is in the shard of every word of his name, with the player
    page of that season; one entry per player across the seasons."""
    out, site = catalogue_site
    folder = site / catalogue.SEARCH_FOLDER
    sets = _shard(folder / "sets.js")
    known = _shard(folder / "shards.js")
    shards = {key: _shard(folder / f"{key}.js")[1] for key in known}
    assert sorted(p.stem for p in folder.glob("?.js")) == sorted(known)
    names = [s[0] for s in sets]
    for code, _, season in KITS:
        name = f"{code}_{season}"
        card_set = json.loads((out / name / "card-set.json").read_text())
        for card in card_set["cards"]:
            player = card["player"]
            for word in catalogue.words(player["name"]):
                entries = [e for e in shards[catalogue.shard_of(word)]["p"] if e[0] == player["name"]]
                assert len(entries) == 1, (player["name"], word)
                pages = {names[i]: page for i, _, page in entries[0][2]}
                assert pages[name] == f"sets/{name}/players/{player['id']}.html"
                assert (site / pages[name]).is_file()
    # and a team's page of each season, from its name
    sixers = [t for t in shards["p"]["t"] if t[0] == "Perth Scorchers"]
    assert len(sixers) == 1 and len(sixers[0][1]) == len(KITS)
    assert all((site / page).is_file() for _, page in sixers[0][1])


def test_a_second_render_carries_every_set_and_writes_the_same_site(catalogue_site, tmp_path):
    out, site = catalogue_site

    def digests(root: Path) -> dict[str, str]:
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file()}

    report = generate_site(out, tmp_path / "site")
    assert sorted(report.rendered) == sorted(f"{c}_{s}" for c, _, s in KITS) and report.carried == []
    again = generate_site(out, tmp_path / "site")
    assert again.rendered == [] and sorted(again.carried) == sorted(report.rendered)
    # a carried set gives the pages a render gives: byte for byte the same site
    assert digests(tmp_path / "site") == digests(site)


@pytest.mark.slow
def test_a_changed_kit_alone_is_rendered_again(tmp_path):
    out = tmp_path / "out"
    folders = [_kit(out, code, name, season) for code, name, season in KITS]
    generate_site(out)
    changed = folders[1]
    card_set = json.loads((changed / "card-set.json").read_text())
    for card in card_set["cards"]:
        if card["player"]["id"] == "aa000001":
            card["player"]["name"] = "Chris Greene"
    (changed / "card-set.json").write_text(json.dumps(card_set, indent=1, sort_keys=True))
    write_kit_manifest(changed, teams=[])
    report = generate_site(out)
    assert report.rendered == [changed.name]
    assert sorted(report.carried) == sorted(f.name for f in folders if f != changed)
    shard = _shard(report.site_dir / catalogue.SEARCH_FOLDER / "g.js")[1]
    assert any(e[0] == "Chris Greene" for e in shard["p"])
    assert not check_links(report.site_dir).broken
    # --full (SiteOptions.full) renders every set whatever its fingerprint
    full = generate(folders, report.site_dir, SiteOptions(full=True))
    assert sorted(full.rendered) == sorted(f.name for f in folders) and full.carried == []


def test_generate_takes_kits_from_several_folders(tmp_path):
    """build --all's entry: a list of kit folders, wherever they are, and a site folder."""
    first = _kit(tmp_path / "a", "BBL", "Big Bash League", "2024-25")
    second = _kit(tmp_path / "b", "WBBL", "Women's Big Bash League", "2024-25")
    report = generate([first, second], tmp_path / "site")
    assert report.sets == ["BBL_2024-25", "WBBL_2024-25"]
    assert (tmp_path / "site" / "competitions" / "wbbl.html").is_file()
    assert not check_links(report.site_dir).broken


def test_a_kit_without_a_manifest_is_never_taken_as_unchanged(tmp_path):
    folder = make_synthetic_kit(tmp_path / "out")   # no manifest: not known to be finished
    assert kit_fingerprint(folder) is None
    generate_site(tmp_path / "out")
    assert generate_site(tmp_path / "out").rendered == [folder.name]


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1366"])
def test_the_home_search_finds_a_player_of_each_season_from_the_keyboard(catalogue_site, chromium, viewport):
    """From file:// (where fetch() of JSON is refused): typing a surname loads only its shard and
    lists the player with a link to each season's page; the arrow keys and Enter open one; a
    word of the season narrows to that season; a team is found by its name; axe-core finds no
    serious or critical violation on the home page (results shown) or a competition page."""
    out, site = catalogue_site
    context = chromium.new_context(viewport=viewport)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        loaded: list[str] = []
        page.on("request", lambda request: loaded.append(request.url.rsplit("/", 1)[-1])
                if "/assets/search/" in request.url else None)
        page.goto((site / "index.html").as_uri())
        assert loaded == []   # the index loads on demand only
        box = page.get_by_label("Name, team or competition, in every season built here")
        box.focus()
        page.keyboard.type("connolly")
        results = page.locator("#find-results li")
        results.first.wait_for()
        assert sorted(loaded) == ["c.js", "sets.js", "shards.js"]
        hrefs = results.first.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert sorted(hrefs) == sorted(f"sets/{c}_{s}/players/aa000002.html" for c, _, s in KITS)
        assert "1 match" in page.locator("#find-status").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert_accessible(page, f"the home page's search results at {viewport['width']} px")
        # a word of the season: that season's page first
        box.fill("connolly 2023")
        page.wait_for_function("document.querySelector('#find-results a') && "
                               "document.querySelector('#find-results a').getAttribute('href').includes('2023-24')")
        box.focus()
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.textContent") == "Cooper Connolly"
        page.keyboard.press("Enter")
        page.wait_for_url("**/sets/BBL_2023-24/players/aa000002.html")
        # a team, and a name that is markup shown as text
        page.go_back()
        box = page.get_by_label("Name, team or competition, in every season built here")
        box.fill("perth")
        page.locator("#find-results").get_by_role("link", name="Perth Scorchers", exact=True).wait_for()
        box.fill("<script")
        page.wait_for_function("document.querySelector('#find-status').textContent.includes('script')")
        assert page.locator("#find-results a").first.inner_text() == '<script>alert("owned")</script>'
        assert page.locator("#find-results script").count() == 0
        page.goto((site / "competitions" / "bbl.html").as_uri())
        assert_accessible(page, f"the competition page at {viewport['width']} px")
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert page_errors(errors) == []   # but axe-core's own lines on file://
    finally:
        context.close()


def _pages(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_a_set_no_longer_given_leaves_the_site_but_a_users_files_stay(tmp_path):
    """Sets are published in place (site/incremental.py): a set the kits no longer hold goes,
    but for a file of the user's in its folder, and a user's file in a carried set stays."""
    folders = [_kit(tmp_path / "out", code, name, season) for code, name, season in KITS]
    site = tmp_path / "site"
    generate(folders, site)
    (site / "sets/BBL_2023-24/notes.txt").write_text("mine")
    (site / "sets/WBBL_2024-25/players/cover.txt").write_text("mine too")
    report = generate([folders[0], folders[2]], site)
    assert report.rendered == [] and sorted(report.carried) == ["BBL_2024-25", "WBBL_2024-25"]
    assert report.kept == ["sets/BBL_2023-24/notes.txt", "sets/WBBL_2024-25/players/cover.txt"]
    assert [p.name for p in (site / "sets/BBL_2023-24").iterdir()] == ["notes.txt"]
    assert (site / "sets/WBBL_2024-25/players/cover.txt").read_text() == "mine too"
    assert "BBL_2023-24" not in (site / "index.html").read_text(encoding="utf-8")
    assert "BBL_2023-24" not in (site / catalogue.SEARCH_FOLDER / "sets.js").read_text(encoding="utf-8")
    manifest = json.loads((site / ".cardgen-kit.json").read_text())
    assert "sets/BBL_2023-24/.cardgen-kit.json" not in manifest["files"]
    assert "sets/WBBL_2024-25/.cardgen-kit.json" in manifest["files"]
    assert not check_links(site).broken
    assert [p.name for p in tmp_path.iterdir()] == ["out", "site"]   # no staging folder left
    # the two sets' pages are the ones a fresh render of them makes, byte for byte
    fresh = generate([folders[0], folders[2]], tmp_path / "fresh").site_dir
    mine = {"sets/BBL_2023-24/notes.txt", "sets/WBBL_2024-25/players/cover.txt"}
    assert {k: v for k, v in _pages(site).items() if k not in mine} == _pages(fresh)


@pytest.mark.slow
def test_a_carried_set_missing_a_page_is_rendered_again(tmp_path):
    folders = [_kit(tmp_path / "out", code, name, season) for code, name, season in KITS]
    site = generate(folders, tmp_path / "site").site_dir
    page = site / "sets/BBL_2023-24/players/aa000001.html"
    before = page.read_bytes()
    page.unlink()
    report = generate(folders, site)
    assert report.rendered == ["BBL_2023-24"] and len(report.carried) == 2
    assert page.read_bytes() == before


@pytest.mark.slow
def test_a_render_killed_while_placing_pages_is_completed_by_the_next(tmp_path, monkeypatch):
    """Killed (here: Ctrl+C) after the changed set went in and while the pages above the sets
    were being put in place: every link of the half-updated site still resolves, and the next
    render leaves the site a fresh render makes."""
    from cardgen.site import incremental
    folders = [_kit(tmp_path / "out", code, name, season) for code, name, season in KITS]
    site = generate(folders, tmp_path / "site").site_dir
    card_set = json.loads((folders[1] / "card-set.json").read_text())
    card_set["cards"][0]["player"]["name"] = "Chris Greene"
    (folders[1] / "card-set.json").write_text(json.dumps(card_set, indent=1, sort_keys=True))
    write_kit_manifest(folders[1], teams=[])
    placed: list[Path] = []
    real_place = incremental._place

    def place_then_stop(source: Path, target: Path, root: Path) -> None:
        if len(placed) == 3:
            raise KeyboardInterrupt
        placed.append(target)
        real_place(source, target, root)
    monkeypatch.setattr(incremental, "_place", place_then_stop)
    with pytest.raises(KeyboardInterrupt):
        generate(folders, site)
    monkeypatch.undo()
    assert len(placed) == 3 and "Chris Greene" in (site / "sets/BBL_2023-24/index.html").read_text(encoding="utf-8")
    assert not check_links(site).broken
    assert [p.name for p in tmp_path.iterdir()] == ["out", "site"]
    report = generate(folders, site)
    assert report.rendered == [] and len(report.carried) == 3
    assert _pages(site) == _pages(generate(folders, tmp_path / "fresh").site_dir)


@pytest.mark.slow
def test_a_site_from_before_per_set_manifests_is_rendered_again_whole(tmp_path):
    """A site whose manifest lists every file of every set (before site/incremental.py) and
    whose set folders hold none: every set is rendered again, its old files replaced, and the
    site is then the one a fresh render makes."""
    folders = [_kit(tmp_path / "out", code, name, season) for code, name, season in KITS[:2]]
    site = generate(folders, tmp_path / "site").site_dir
    for folder in folders:
        (site / "sets" / folder.name / ".cardgen-kit.json").unlink()
    (site / "sets" / folders[0].name / "players" / "old-page.html").write_text("gone")
    every = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    manifest = json.loads((site / ".cardgen-kit.json").read_text())
    manifest["files"] = [rel for rel in every if rel != ".cardgen-kit.json"]
    (site / ".cardgen-kit.json").write_text(json.dumps(manifest))
    report = generate(folders, site)
    assert sorted(report.rendered) == sorted(f.name for f in folders) and report.kept == []
    assert _pages(site) == _pages(generate(folders, tmp_path / "fresh").site_dir)
