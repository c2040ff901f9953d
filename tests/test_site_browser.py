"""End to end in a real browser: `cardgen build` -> `cardgen serve` -> headless Debian Chromium.

Chromium is driven by Playwright (only its driver; the browser is Debian's /usr/bin/chromium,
installed by .ci/run). If Chromium cannot start, these tests FAIL: a skipped browser test would
hide a site nobody has opened.

Set CARDGEN_SITE_SCREENSHOTS=docs/images to refresh the site's screenshots (docs/site.md).
"""
from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from accessibility import assert_accessible
from cardgen.cli import main
from conftest import BROWSER_WAIT_MS, CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (the session's one Chromium)
from test_calibrate_cardset import hundred_set  # noqa: F401  (shared, built once per session)

pytestmark = pytest.mark.slow

SET = "BBL_2024-25"
SET_LINK = "Big Bash League 2024-2025"
VIEWPORT = {"width": 1366, "height": 900}  # a common laptop screen


@pytest.fixture(scope="session")
def bbl_out(tmp_path_factory: pytest.TempPathFactory, mirror: Path, card_set_file: Path) -> Path:
    """The real BBL 2024-25 kit, built once by `cardgen build` (from the session's calibrated card
    set) into a temporary OUT folder."""
    out = tmp_path_factory.mktemp("site-out")
    assert "build" in main.commands, "`cardgen build` is not available: the site has no kit to publish"
    result = CliRunner().invoke(main, ["build", "--competition", "BBL", "--season", "2024-25",
                                       "--source", str(mirror), "--out", str(out),
                                       "--card-set", str(card_set_file)])
    assert result.exit_code == 0, result.output
    assert (out / SET / "cards-a4.pdf").is_file()
    # the simulator's reports, for the validation panel (exit 1 = some cards off, still reported)
    for command in (["validate"], ["simulate", "--seasons", "100"]):
        result = CliRunner().invoke(main, [*command, "--competition", "BBL", "--season", "2024-25",
                                           "--source", str(mirror), "--out", str(out)])
        assert result.exit_code in (0, 1), result.output
    assert (out / SET / "validation" / "validate_summary.json").is_file()
    # another game system's kit in the same OUT, for the home page's "Other cricket games"
    result = CliRunner().invoke(main, ["build", "--game", "quick-cricket", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


# How long `cardgen serve` may take to start (a Python process, its imports, a bound port) before
# a test calls it broken: generous, for a CI machine under load (the whole run has 90 minutes).
SERVE_START_TIMEOUT = 600


@pytest.fixture(scope="session")
def bbl_site(bbl_out: Path) -> Path:
    """The site of the real BBL 2024-25 kit (OUT/site), rendered once by `cardgen site`: every
    test that reads the site's files asks for it, so none depends on `served` having run first
    (the file-copy test found no OUT/site when it ran alone)."""
    result = CliRunner().invoke(main, ["site", "--out", str(bbl_out)])
    assert result.exit_code == 0, result.output
    assert (bbl_out / "site" / "index.html").is_file()
    return bbl_out / "site"


@pytest.fixture(scope="session")
def served(bbl_out: Path, bbl_site: Path) -> Iterator[str]:
    """`cardgen serve --port 0` in a child process; yields its base URL. The site is rendered
    first, in this process (bbl_site: the same generate_site serve would run), so the clock
    below covers only serve's start: a render timed with it missed a 60 s deadline on a loaded
    machine."""
    proc = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "serve", "--out", str(bbl_out),
                             "--port", "0", "--no-refresh", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str | None] = queue.Queue()  # read on a thread: a silent serve cannot block

    def read() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        url, seen = None, []
        deadline = time.monotonic() + SERVE_START_TIMEOUT
        while url is None:
            try:
                line = lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                break
            if line is None:
                break
            seen.append(line)
            found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
            url = found.group(1) if found else None
        assert url, f"cardgen serve did not start: {''.join(seen)}"
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _launch(chromium, javascript: bool = True):
    """A context of its own (cookies, storage, cache and downloads, as a fresh profile has) in
    the session's Chromium."""
    context = chromium.new_context(viewport=VIEWPORT, java_script_enabled=javascript,
                                   accept_downloads=True)
    context.set_default_timeout(BROWSER_WAIT_MS)
    context.set_default_navigation_timeout(BROWSER_WAIT_MS)
    return context


@pytest.fixture
def browser(chromium):
    context = _launch(chromium)
    yield context
    context.close()


def _screenshot(page, name: str, tmp_path: Path, height: int = 900, top: int = 0) -> Path:
    """Save part of the page to tmp (always) and to $CARDGEN_SITE_SCREENSHOTS (when set)."""
    path = tmp_path / f"site-{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": 0, "y": top, "width": page.viewport_size["width"], "height": height})
    assert path.stat().st_size > 10_000  # a blank page compresses to a few hundred bytes
    target = os.environ.get("CARDGEN_SITE_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / path.name).write_bytes(path.read_bytes())
    return path


def _load_all_images(page) -> list[dict]:
    """Make lazy images load now, wait for them, and return each image's loaded and shown size."""
    return page.evaluate("""async () => {
        const imgs = Array.from(document.images);
        imgs.forEach(img => { img.loading = 'eager'; });
        await Promise.all(imgs.map(img => img.decode().catch(() => null)));
        return imgs.map(img => ({src: img.currentSrc, natural: img.naturalWidth,
                                 shown: img.getBoundingClientRect().width, alt: img.alt}));
    }""")


@pytest.mark.needs_data
def test_home_to_set_to_download_in_chromium(served: str, bbl_out: Path, browser, tmp_path: Path):
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    failed: list[str] = []
    # a request the next navigation cancelled (the favicon of a page left at once, on a loaded
    # machine) is no broken link: a missing file still answers 404 and is caught below
    page.on("requestfailed", lambda request: failed.append(request.url)
            if request.failure != "net::ERR_ABORTED" else None)
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)

    page.goto(served)
    assert page.title().startswith("All sets")
    _screenshot(page, "home", tmp_path, height=1000)

    # keyboard: the first Tab lands on the skip link, Enter takes focus to the content
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"

    assert page.get_by_role("link", name="Quick Cricket", exact=True).get_attribute("href") == \
        "games/quick-cricket/index.html"
    page.get_by_role("link", name=SET_LINK, exact=True).click()
    page.wait_for_load_state()
    assert page.url == f"{served}sets/{SET}/index.html"
    images = _load_all_images(page)
    card_images = [i for i in images if "/thumbs/" in i["src"]]
    assert len(card_images) == len(card_set["cards"])
    assert all(i["natural"] > 0 and i["shown"] > 0 for i in images), [i for i in images if not i["natural"]]
    assert all(i["alt"] for i in images)
    _screenshot(page, "set", tmp_path, height=1000)
    validation = page.locator("section[aria-labelledby=validation]")
    # the share the simulator printed (BBL 2024-25 with the wickets-in-hand rule: 116 of 117)
    assert re.search(r"qualified cards \(\d+(\.\d)?%\) play like the real season",
                     validation.inner_text())
    assert validation.locator(".previews img").count() >= 1  # the report's pages, loaded above
    _screenshot(page, "validation", tmp_path, height=1000,
                top=int(validation.evaluate("e => e.getBoundingClientRect().top + window.scrollY")))

    # the filters are links to static pages (an address always shows what it names): bowlers of one team
    filters = page.get_by_role("navigation", name="Filter cards")
    filters.get_by_role("link", name="Bowlers", exact=True).focus()
    page.keyboard.press("Enter")  # the filters work from the keyboard too
    page.wait_for_url("**/bowlers.html")
    first_team = card_set["teams"][0]["name"]
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name=first_team, exact=True).click()
    page.wait_for_url("**/team-*-bowlers.html")
    shown = page.locator("li.card:visible")
    expected = [c for c in card_set["cards"] if c["kind"] == "bowler" and c["team"] == first_team]
    assert shown.count() == len(expected) > 0
    assert page.url.endswith("-bowlers.html")
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name="All teams", exact=True).click()
    page.wait_for_url(f"**/sets/{SET}/bowlers.html")
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name="All cards", exact=True).click()
    page.wait_for_url(f"**/sets/{SET}/index.html")
    assert page.locator("li.card:visible").count() == len(card_set["cards"])

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Player cards (A4)").first.click()
    download = download_info.value
    saved = tmp_path / "downloaded-cards-a4.pdf"
    download.save_as(saved)
    assert download.suggested_filename == "bbl-2024-25-cards-a4.pdf"   # not the teams' "cards-a4.pdf"
    assert saved.read_bytes() == (bbl_out / SET / "cards-a4.pdf").read_bytes()

    # player page: the full-size card loads, with its chart as text
    page.locator("li.card a").first.click()
    page.wait_for_load_state()
    assert "/players/" in page.url
    full = _load_all_images(page)
    assert full and all(i["natural"] > 0 for i in full)
    assert page.locator("table.chart tbody tr").count() >= 3
    _screenshot(page, "player", tmp_path, height=1100)

    page.get_by_role("link", name="How to print").click()
    page.wait_for_load_state()
    assert "100" in page.locator("main").inner_text()
    _screenshot(page, "how-to-print", tmp_path)

    assert errors == [] and failed == []


@pytest.mark.needs_data
def test_filters_and_downloads_work_without_javascript(served: str, bbl_out: Path, chromium,
                                                       tmp_path: Path):
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    context = _launch(chromium, javascript=False)
    try:
        page = context.new_page()
        page.goto(f"{served}sets/{SET}/index.html")
        page.get_by_role("link", name="Strikers", exact=True).click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/sets/{SET}/strikers.html")
        strikers = sum(c["kind"] == "striker" for c in card_set["cards"])
        assert page.locator("li.card").count() == strikers
        with page.expect_download() as download_info:
            page.get_by_role("link", name="Card set data (JSON)").click()
        saved = tmp_path / "card-set.json"
        download_info.value.save_as(saved)
        assert saved.read_bytes() == (bbl_out / SET / "card-set.json").read_bytes()
    finally:
        context.close()


def test_a_script_name_renders_as_text_from_disk(browser, tmp_path: Path):
    """A player called `<script>...` shows as those characters, and runs nothing (site opened from disk)."""
    from test_site_generate import EVIL_NAME, make_synthetic_kit
    from cardgen.site.generate import generate_site
    make_synthetic_kit(tmp_path / "out")
    site = generate_site(tmp_path / "out").site_dir
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto((site / "sets" / SET / "players" / "aa000003.html").as_uri())
    assert page.locator("h1").inner_text() == EVIL_NAME
    page.goto((site / "sets" / SET / "index.html").as_uri())
    assert page.get_by_text(EVIL_NAME).first.is_visible()
    assert _load_all_images(page) and dialogs == []


def test_the_find_a_player_box_shows_its_whole_hint_on_a_phone(browser, tmp_path: Path):
    """At 390 px the set and team pages' search box, sharing its line with Find and "All players
    A-Z", was 166 px wide and showed "Name or team, e" of its hint "Name or team, e.g. Short"."""
    from test_site_generate import make_synthetic_kit
    from cardgen.site.generate import generate_site
    make_synthetic_kit(tmp_path / "out")
    site = generate_site(tmp_path / "out").site_dir
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    for name in ("index.html", "team-perth-scorchers.html", "players.html"):
        page.goto((site / "sets" / SET / name).as_uri())
        box = page.locator("#find-player")
        hint_width = box.evaluate("""e => { const s = getComputedStyle(e);
            const c = document.createElement('canvas').getContext('2d'); c.font = s.font;
            return c.measureText(e.placeholder).width + parseFloat(s.paddingLeft) + parseFloat(s.paddingRight); }""")
        assert box.evaluate("e => e.clientWidth") >= hint_width, name
        assert _no_sideways_scroll(page), name


@pytest.mark.needs_data
def test_every_link_and_image_on_the_real_site_resolves(bbl_site: Path, bbl_out: Path):
    from cardgen.site.linkcheck import check_links
    report = check_links(bbl_site)  # the site `cardgen serve` serves
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    # at least: a thumbnail and a player link per card on the full list, and a page per player
    assert report.checked > 2 * len(card_set["cards"])
    assert report.broken == []
    assert {link.target for link in report.external} <= {"http://shortseasongames.com"}


@pytest.mark.needs_data
def test_the_real_site_is_deterministic(bbl_site: Path, bbl_out: Path, tmp_path: Path):
    import hashlib
    from cardgen.site.generate import generate_site

    def digests(root: Path) -> dict[str, str]:
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file()}

    again = generate_site(bbl_out, tmp_path / "again").site_dir
    assert digests(again) == digests(bbl_site)


PHONE = {"width": 390, "height": 844}


def _watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.needs_data
def test_player_pages_fit_a_phone_without_sideways_scroll(served: str, bbl_out: Path, browser):
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    errors = _watch_errors(page)
    page.goto(f"{served}sets/{SET}/index.html")
    # a player with both cards (the widest page: two charts, two real-vs-card tables) and a bowler
    both = next(c["player"]["name"] for c in card_set["cards"] if c["kind"] == "bowler" and any(
        d["kind"] == "striker" and d["player"]["id"] == c["player"]["id"] for d in card_set["cards"]))
    links = [page.locator("li.card.bowler a").filter(has_text=both).first.get_attribute("href"),
             page.locator("li.card.bowler a").last.get_attribute("href"),
             page.locator("li.card.striker a").first.get_attribute("href")]
    for link in links:
        page.goto(f"{served}sets/{SET}/{link}")
        assert page.locator("table.versus th", has_text="95% range").count() >= 1   # validated: six columns
        assert _no_sideways_scroll(page), (link, page.evaluate("document.documentElement.scrollWidth"))
        # nor inside the page: the real-vs-card table fits whole (its caption was cut at 390 px)
        assert page.evaluate("[...document.querySelectorAll('.scroll')].every("
                             "e => e.scrollWidth <= e.clientWidth)"), link
    assert errors == []


@pytest.mark.needs_data
def test_a_missing_address_shows_the_site_404_page(served: str, browser):
    page = browser.new_page()
    for path in ("sets/NOPE_1999/index.html", f"sets/{SET}/files/", "assets/"):
        response = page.goto(f"{served}{path}")
        assert response.status == 404, path
        assert page.locator("h1").inner_text() == "Page not found"
        assert "Directory listing" not in page.content()
        # styled by the site's own stylesheet, and its links lead back into the site
        assert page.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor") \
            == "rgb(13, 59, 30)"
    page.get_by_role("link", name=SET_LINK).click()
    page.wait_for_load_state()
    assert page.url == f"{served}sets/{SET}/index.html"


@pytest.mark.needs_data
def test_filters_from_a_file_copy_raise_no_error_and_back_undoes_them(bbl_site: Path, browser, tmp_path: Path):
    import shutil
    copy = tmp_path / "site-copy"
    shutil.copytree(bbl_site, copy)
    page = browser.new_page()
    errors = _watch_errors(page)
    start = (copy / "sets" / SET / "index.html").as_uri()
    page.goto(start)
    filters = page.get_by_role("navigation", name="Filter cards")
    filters.get_by_role("link", name="Bowlers", exact=True).click()
    page.wait_for_url("**/bowlers.html")
    bowlers = page.locator("li.card:visible").count()
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name="Perth Scorchers", exact=True).click()
    page.wait_for_url("**/team-perth-scorchers-bowlers.html")
    assert 0 < page.locator("li.card:visible").count() < bowlers
    page.go_back()  # Back undoes the last filter and stays on the set page
    assert page.locator("li.card:visible").count() == bowlers
    page.go_back()
    assert page.url == start and page.locator("li.card:visible").count() == page.locator("li.card").count()
    assert errors == []


@pytest.mark.needs_data
def test_filters_push_history_when_served(served: str, browser):
    page = browser.new_page()
    errors = _watch_errors(page)
    page.goto(served)
    page.get_by_role("link", name=SET_LINK, exact=True).click()
    page.wait_for_load_state()
    filters = page.get_by_role("navigation", name="Filter cards")
    filters.get_by_role("link", name="Strikers", exact=True).click()
    page.wait_for_url("**/strikers.html")
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name="Sydney Sixers", exact=True).click()
    page.wait_for_url("**/team-sydney-sixers-strikers.html")
    page.go_back()
    assert page.url.endswith("/strikers.html")
    assert page.locator("li.card:visible").count() == page.locator("li.card.striker").count()
    page.go_back()
    page.go_back()
    assert page.url == served or page.url == f"{served}index.html"  # Back, Back, Back: home again
    assert errors == []


@pytest.mark.needs_data
def test_a_bowler_thumbnail_opens_the_bowler_card(served: str, bbl_out: Path, browser):
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    two_cards = {c["player"]["id"] for c in card_set["cards"] if c["kind"] == "striker"} & \
        {c["player"]["id"] for c in card_set["cards"] if c["kind"] == "bowler"}
    name = next(c["player"]["name"] for c in card_set["cards"]
                if c["kind"] == "bowler" and c["player"]["id"] in two_cards)
    page = browser.new_page()
    page.goto(f"{served}sets/{SET}/index.html")
    page.locator("li.card.bowler a").filter(has_text=name).first.click()
    page.wait_for_load_state()
    assert page.url.endswith("#bowler")
    heading = page.locator("#bowler h2")
    assert heading.inner_text().startswith("Bowler card")
    top = heading.evaluate("e => e.getBoundingClientRect().top")
    assert -5 <= top < 200  # the bowler card is what the visitor sees, not the striker card above it
    # the striker thumbnail of the same player opens the page at its top
    page.go_back()
    page.locator("li.card.striker a").filter(has_text=name).first.click()
    page.wait_for_load_state()
    assert "#" not in page.url and page.evaluate("window.scrollY") == 0


@pytest.mark.needs_data
def test_the_tts_list_holds_only_tts_sheets(served: str, bbl_out: Path, browser):
    page = browser.new_page()
    page.goto(f"{served}sets/{SET}/index.html")
    tts = page.locator("summary", has_text="Tabletop Simulator").locator("xpath=..").locator("a")
    hrefs = [tts.nth(i).get_attribute("href") for i in range(tts.count())]
    on_disk = sorted(f"bbl-2024-25-tts-{p.name}" for p in (bbl_out / SET / "tts").glob("*.png"))
    assert sorted(h.rsplit("/", 1)[-1] for h in hrefs) == sorted([*on_disk, "bbl-2024-25-tts-readme.txt"])
    assert all(h.startswith("downloads/bbl-2024-25-tts-") for h in hrefs)


@pytest.mark.needs_data
def test_the_hundred_lists_matthew_potts_as_cards_not_tts_sheets(hundred_set, tmp_path: Path):  # noqa: F811
    """The Hundred 2024: Matthew Potts's card PNGs hold "tts" in their names; only tts/ is TTS."""
    from cardgen.cardset import CardSet
    from cardgen.render.kit import KitOptions, build_kit, select_team
    from cardgen.site.kit import read_set
    team = select_team(CardSet.from_json(hundred_set), "Northern Superchargers")
    folder = build_kit(team, tmp_path, KitOptions(papers=("a4",), progress=False, workers=1)).folder
    potts = sorted(p.name for p in (folder / "png").glob("*matthew-potts*.png"))
    assert len(potts) == 2
    kit = read_set(folder)
    assert kit.tts_sheets and all(d.relpath.startswith("tts/") for d in kit.tts_sheets)
    assert not any("potts" in d.relpath for d in kit.tts_sheets)


@pytest.mark.needs_data
def test_one_teams_a4_cards_in_two_clicks_from_home(served: str, bbl_out: Path, browser, tmp_path: Path,
                                                    pdf_words):
    """Home -> the team's page -> its A4 cards: the PDF holds exactly that team's cards."""
    import pypdf
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    team = "Perth Scorchers"
    page = browser.new_page()
    errors = _watch_errors(page)
    page.goto(served)
    page.get_by_role("link", name=team, exact=True).first.click()  # click 1
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == team  # the team's own heading, not the set's
    _screenshot(page, "team", tmp_path, height=900)
    with page.expect_download() as download_info:
        page.get_by_role("link", name=f"{team} cards (A4)").click()  # click 2
    saved = tmp_path / "team-cards-a4.pdf"
    download_info.value.save_as(saved)
    assert download_info.value.suggested_filename == "bbl-2024-25-perth-scorchers-cards-a4.pdf"
    text = pdf_words(saved)
    ours = [c for c in card_set["cards"] if c["team"] == team]
    ours_names = {c["player"]["name"].upper() for c in ours}
    theirs = {c["player"]["name"].upper() for c in card_set["cards"] if c["team"] != team} - ours_names
    assert all(name in text for name in ours_names)
    assert not [name for name in theirs if re.search(rf"\b{re.escape(name)}\b", text)]
    assert text.count("STRIKER") + text.count("BOWLER") >= len(ours)
    # the page range it shows is the team's bookmark in the whole-set PDF, and as long as its own PDF
    ranges = page.locator(".team-ranges").inner_text()
    first, last = map(int, re.search(r"whole-set cards \(A4\) pages (\d+)–(\d+)", ranges).groups())
    whole = pypdf.PdfReader(bbl_out / SET / "cards-a4.pdf")
    marks = {item.title: whole.get_destination_page_number(item) + 1 for item in whole.outline}
    assert marks[team] == first
    own = {c["player"]["name"].upper() for c in ours}
    assert any(n in whole.pages[first - 1].extract_text() for n in own)
    assert any(n in whole.pages[last - 1].extract_text() for n in own)
    assert errors == []


@pytest.mark.needs_data
def test_search_short_reaches_matthew_short(served: str, browser, chromium, tmp_path: Path):
    page = browser.new_page()
    errors = _watch_errors(page)
    page.goto(f"{served}sets/{SET}/index.html")
    page.get_by_role("searchbox", name="Find a player").fill("Short")
    page.keyboard.press("Enter")
    page.wait_for_url("**/players.html?q=Short")
    found = page.locator("[data-player-index] li:visible")
    names = sorted(found.locator("a").all_inner_texts())
    assert "Matt Short" in names and all("Short" in name for name in names)
    page.get_by_role("link", name="Matt Short", exact=True).click()
    page.wait_for_url("**/players/*.html")
    assert page.locator("h1").inner_text() == "Matt Short"
    assert errors == []
    # without JavaScript the same box leads to the plain index of every player, A-Z
    context = _launch(chromium, javascript=False)
    try:
        plain = context.new_page()
        plain.goto(f"{served}sets/{SET}/index.html")
        plain.get_by_role("searchbox", name="Find a player").fill("Short")
        plain.get_by_role("button", name="Find").click()
        plain.wait_for_url("**/players.html?q=Short")
        assert plain.locator("[data-player-index] li").count() > 100
        plain.get_by_role("link", name="Matt Short", exact=True).click()
        plain.wait_for_url("**/players/*.html")
        assert plain.locator("h1").inner_text() == "Matt Short"
    finally:
        context.close()


@pytest.mark.needs_data
def test_set_page_shows_previews_page_counts_and_what_you_need(served: str, bbl_out: Path, browser):
    import pypdf
    page = browser.new_page()
    page.goto(f"{served}sets/{SET}/index.html")
    previews = page.locator(".kit-previews li")
    pdfs = sorted(p.name for p in (bbl_out / SET).glob("*.pdf"))
    # one picture per sheet, a link per paper: every top-level PDF is offered exactly once
    documents = {p.removesuffix(".pdf").removesuffix("-a4").removesuffix("-letter") for p in pdfs}
    assert previews.count() == len(documents) < len(pdfs)
    offered = sorted(a.get_attribute("href").removeprefix("downloads/bbl-2024-25-")
                     for a in previews.locator(".caption a").all())
    assert offered == pdfs
    images = [i for i in _load_all_images(page) if "/previews/kit-" in i["src"]]
    assert len(images) == len(documents) and all(i["natural"] > 0 for i in images)
    a4_pages = len(pypdf.PdfReader(bbl_out / SET / "cards-a4.pdf").pages)
    letter_pages = len(pypdf.PdfReader(bbl_out / SET / "cards-letter.pdf").pages)
    assert (f"Player cards: A4 ({a4_pages} pages) \u00b7 US Letter ({letter_pages} pages)"
            in previews.all_inner_texts())
    # two grid pages and two scorecard pages (6a3984e), on each paper
    sheet_pages = [len(pypdf.PdfReader(bbl_out / SET / name).pages)
                   for name in ("scoresheet-a4.pdf", "scoresheet-letter.pdf")]
    assert sheet_pages == [4, 4]
    assert "Scoresheet: A4 (4 pages) \u00b7 US Letter (4 pages)" in previews.all_inner_texts()
    needs = page.locator("dl.components").inner_text()
    assert f"{a4_pages} sheets of A4 card" in needs
    assert "d6" in needs and "2d10" in needs and "d20" in needs


@pytest.mark.needs_data
def test_how_to_play_walks_one_ball_with_a_real_card(served: str, browser, tmp_path: Path):
    page = browser.new_page()
    errors = _watch_errors(page)
    page.goto(served)
    page.get_by_role("navigation", name="Site").get_by_role("link", name="How to play").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "How to play Quicket Cricket"
    steps = page.locator("#ball ~ .howto-ball ol.steps").inner_text()
    assert "d6" in steps and "2d10" in steps and "fielding chart" in steps
    cards = [i for i in _load_all_images(page) if "/thumbs/" in i["src"]]
    assert len(cards) == 2 and all(i["natural"] > 0 for i in cards)
    assert page.locator("table.fielding tbody tr").count() == 6
    assert page.locator("table.fielding td.hit").count() == 1
    assert page.get_by_role("link", name="shortseasongames.com").get_attribute("href") == \
        "http://shortseasongames.com"
    _screenshot(page, "how-to-play", tmp_path, height=1400)
    assert errors == []


@pytest.mark.needs_data
def test_the_fielding_charts_caption_stays_on_a_phone(served: str, browser):
    """The how-to-play fielding chart scrolls sideways on a 390 px phone (20 columns); its
    caption, inside the scrolling box, ran the chart's 704 px width, so "... is marked: row 2,
    column 15" (where the example ball landed) was off the screen. It wraps on the screen now."""
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"{served}how-to-play.html")
    caption = page.locator("table.fielding caption")
    assert "The cell of the example ball is marked: row" in caption.inner_text()
    box = caption.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.locator("table.fielding").bounding_box()["width"] > PHONE["width"]  # the chart still scrolls
    assert _no_sideways_scroll(page)


@pytest.mark.needs_data
def test_every_team_and_a_teams_downloads_come_first_on_a_phone(served: str, bbl_out: Path, browser,
                                                               tmp_path: Path):
    """Issue 38: on a phone the team row showed "All teams" and one team, the other seven behind an
    unmarked sideways swipe, and a set page was 40-58 screens long. Every team is on the first
    screen now, a team page has its downloads there and its cards within three screens."""
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"{served}sets/{SET}/index.html")
    filters = page.get_by_role("navigation", name="Filter cards")
    for team in card_set["teams"]:
        box = filters.get_by_role("link", name=team["name"], exact=True).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], team["name"]
        assert box["y"] + box["height"] <= PHONE["height"], team["name"]   # no scroll, no swipe
    assert _no_sideways_scroll(page)
    _load_all_images(page)
    _screenshot(page, "phone-set", tmp_path, height=PHONE["height"])
    page.goto(f"{served}sets/{SET}/team-perth-scorchers.html")
    box = page.get_by_role("link", name="Perth Scorchers cards (A4)").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
    cards = page.locator("li.card")
    assert cards.count() == sum(c["team"] == "Perth Scorchers" for c in card_set["cards"])
    span = cards.last.bounding_box()["y"] + cards.last.bounding_box()["height"] - cards.first.bounding_box()["y"]
    assert span <= 3 * PHONE["height"], span   # 29 cards, three to a row
    page.locator("li.card.bowler a").first.click()
    page.wait_for_url("**/players/*.html#bowler")
    assert _no_sideways_scroll(page)
    _load_all_images(page)
    _screenshot(page, "phone-player", tmp_path, height=PHONE["height"],
                top=int(page.evaluate("window.scrollY")))


@pytest.fixture(scope="module")
def three_kit_site(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of three real kits without images, built once for the phone-width tests: IPL 2025
    and BBL 2024-25 (shipped card sets, no calibration) and the women's Super Smash 2022-23
    (calibrated here; the longest competition label)."""
    from cardgen.site.generate import generate_site
    out = tmp_path_factory.mktemp("three-kits")
    for code, season in (("IPL", "2025"), ("BBL", "2024-25"), ("SMASH-W", "2022-23")):
        result = CliRunner().invoke(main, ["build", "-c", code, "-s", season, "--source", str(mirror),
                                           "--out", str(out), "--no-images"])
        assert result.exit_code == 0, result.output
    return generate_site(out).site_dir


@pytest.mark.needs_data
def test_how_to_print_fits_a_phone_without_sideways_scroll(browser, three_kit_site: Path):
    """The sheet-count table (five columns) fits a 390 px phone: the page does not scroll sideways.
    "Super Smash (women) 2022-23" and IPL's "3-4" sheets a team made the table 3 px wider than the
    phone."""
    site = three_kit_site
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    page.goto((site / "how-to-print.html").as_uri())
    assert page.locator("table.sheet-counts").is_visible()
    assert _no_sideways_scroll(page), page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.needs_data
def test_a_team_pages_chooser_shows_all_ten_ipl_teams_on_a_phone(browser, three_kit_site: Path):
    """IPL 2025 has ten teams, the most of a shipped season: on a 390 px team page every one is
    on the screen, none past its right edge (the row used to scroll sideways to the chosen one)."""
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    page.goto((three_kit_site / "sets" / "IPL_2025" / "team-sunrisers-hyderabad.html").as_uri())
    row = page.locator("[data-set-filters] p").first
    assert row.evaluate("r => r.scrollWidth <= r.clientWidth")
    links = row.locator("a")
    assert links.count() == 11   # all teams and the ten
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], links.nth(i).inner_text()
    assert row.locator("a[aria-current]").inner_text() == "Sunrisers Hyderabad"
    assert _no_sideways_scroll(page)


# --- issue 38: the pages a gamer comes back to ---------------------------------------------------

WIDTHS = [PHONE, VIEWPORT]
TEAM = "Sydney Sixers"

# Every element that takes a tap and is at least 44 x 44 px, unless it is a link inside a
# sentence (its parent holds other words: WCAG 2.5.8's inline exception).
SMALL_TAPS = """() => {
  const inline = el => el.tagName === 'A' && [...el.parentElement.childNodes]
    .filter(n => n !== el && n.nodeType === 3).map(n => n.textContent).join('')
    .replace(/[\\s·,;:.()|›–-]/g, '').length > 0;
  return [...document.querySelectorAll('a[href], button, input, select, summary')]
    .filter(el => { const r = el.getBoundingClientRect();
                    return r.width > 0 && r.height > 0 && !el.closest('[hidden]') && !el.classList.contains('skip'); })
    .filter(el => !inline(el))
    .map(el => { const r = el.getBoundingClientRect();
                 return `${el.tagName} "${(el.textContent || el.id).trim().slice(0, 40)}" ${Math.round(r.width)}x${Math.round(r.height)}`; })
    .filter((_, i, all) => true)
    .filter(s => { const [w, h] = s.split(' ').pop().split('x').map(Number); return w < 44 || h < 44; });
}"""


def _page_types(bbl_out: Path) -> dict[str, str]:
    """One address of each page type a set has, the new ones included."""
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    teams = [t["name"] for t in card_set["teams"]]
    slugs = [t.lower().replace(" ", "-") for t in teams]
    player = sorted((bbl_out / "site" / "sets" / SET / "players").glob("*.html"))[0].name
    return {"set": f"sets/{SET}/index.html", "team": f"sets/{SET}/team-{slugs[6]}.html",
            "kind": f"sets/{SET}/bowlers.html", "player": f"sets/{SET}/players/{player}",
            "players": f"sets/{SET}/players.html", "compare": f"sets/{SET}/compare.html",
            "pair": f"sets/{SET}/compare-{slugs[0]}-vs-{slugs[1]}.html"}


@pytest.mark.needs_data
@pytest.mark.parametrize("viewport", WIDTHS, ids=["390", "1366"])
def test_every_page_type_passes_axe_and_takes_taps_of_44_px(served: str, bbl_out: Path, browser, viewport):
    """axe-core (vendored, tests/vendor/axe-core) finds no serious or critical violation on any
    page type of a set, the compare pages included; no element that takes a tap is under 44 px."""
    page = browser.new_page()
    page.set_viewport_size(viewport)
    errors = _watch_errors(page)
    for what, path in [("home", ""), *_page_types(bbl_out).items(), ("how-to-play", "how-to-play.html"),
                       ("first-match", "first-match.html")]:
        page.goto(served + path)
        _load_all_images(page)   # a lazy image's link is its picture's size once it loads
        assert_accessible(page, f"{what} at {viewport['width']} px")
        assert page.evaluate(SMALL_TAPS) == [], what
        assert _no_sideways_scroll(page), what
    assert errors == []


@pytest.mark.needs_data
@pytest.mark.parametrize("viewport", WIDTHS, ids=["390", "1366"])
def test_my_teams_cards_and_team_sheet_in_two_clicks_under_their_own_names(served: str, bbl_out: Path,
                                                                           browser, tmp_path: Path, viewport):
    """Home -> the team's page (click 1) -> its zip (click 2): the team's cards and team sheet,
    byte for byte; each is also one click on the team page, saved as a name of its own."""
    import zipfile
    page = browser.new_page()
    page.set_viewport_size(viewport)
    page.goto(served)
    page.get_by_role("link", name=TEAM, exact=True).first.click()   # click 1
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == TEAM
    with page.expect_download() as got:
        page.get_by_role("link", name=f"{TEAM}: all of these (zip)").click()   # click 2
    saved = tmp_path / "team.zip"
    got.value.save_as(saved)
    assert got.value.suggested_filename == "bbl-2024-25-sydney-sixers.zip"
    team_dir = bbl_out / SET / "teams" / "sydney-sixers"
    with zipfile.ZipFile(saved) as zf:
        entries = {Path(name).name: zf.read(name) for name in zf.namelist()}
    for name in ("cards-a4.pdf", "team-sheet-a4.pdf"):
        assert entries[f"bbl-2024-25-sydney-sixers-{name}"] == (team_dir / name).read_bytes()
    names = set()
    for label, name in ((f"{TEAM} cards (A4)", "cards-a4.pdf"), (f"{TEAM} team sheet (A4)", "team-sheet-a4.pdf")):
        with page.expect_download() as got:
            page.get_by_role("link", name=label, exact=True).click()
        got.value.save_as(tmp_path / name)
        assert (tmp_path / name).read_bytes() == (team_dir / name).read_bytes()
        names.add(got.value.suggested_filename)
    assert names == {"bbl-2024-25-sydney-sixers-cards-a4.pdf", "bbl-2024-25-sydney-sixers-team-sheet-a4.pdf"}


@pytest.mark.needs_data
def test_back_and_reload_after_a_filter_show_the_page_their_address_names(served: str, bbl_out: Path,
                                                                         browser):
    from playwright.sync_api import expect
    """Issue 38: the team button put team-x.html in the address over the whole set's page (the
    set's heading, no team downloads); after a reload, Back showed a page that did not match."""
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    page = browser.new_page()
    errors = _watch_errors(page)
    start = f"{served}sets/{SET}/index.html"
    page.goto(start)
    set_heading = page.locator("h1").inner_text()
    filters = page.get_by_role("navigation", name="Filter cards")
    filters.get_by_role("link", name=TEAM, exact=True).click()   # one click: the team's own page
    page.wait_for_url("**/team-sydney-sixers.html")
    ours = sum(c["team"] == TEAM for c in card_set["cards"])
    assert page.locator("h1").inner_text() == TEAM and page.locator("li.card:visible").count() == ours
    page.reload()
    assert page.locator("h1").inner_text() == TEAM and page.locator("li.card:visible").count() == ours
    page.go_back()
    assert page.url == start and page.locator("h1").inner_text() == set_heading
    assert page.locator("li.card:visible").count() == len(card_set["cards"])
    # the kind filter too is its own page; reload and Back agree with it
    bowlers = sum(c["kind"] == "bowler" for c in card_set["cards"])
    page.get_by_role("navigation", name="Filter cards").get_by_role("link", name="Bowlers", exact=True).click()
    page.wait_for_url("**/bowlers.html")
    assert page.url.endswith("/bowlers.html") and page.locator("li.card:visible").count() == bowlers
    page.reload()
    assert page.url.endswith("/bowlers.html") and page.locator("li.card:visible").count() == bowlers
    page.go_back()
    assert page.url == start
    expect(page.locator("li.card:visible")).to_have_count(len(card_set["cards"]))
    expect(page.locator("h1")).to_have_text(set_heading)
    page.go_forward()
    assert page.url.endswith("/bowlers.html")
    expect(page.locator("li.card:visible")).to_have_count(bowlers)
    assert errors == []


@pytest.mark.needs_data
@pytest.mark.parametrize("viewport", WIDTHS, ids=["390", "1366"])
def test_the_compare_page_puts_two_teams_side_by_side(served: str, bbl_out: Path, browser, viewport):
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    page = browser.new_page()
    page.set_viewport_size(viewport)
    errors = _watch_errors(page)
    page.goto(f"{served}sets/{SET}/index.html")
    page.get_by_role("link", name="Compare two teams").click()
    page.wait_for_url("**/compare.html")
    page.get_by_label("Team", exact=True).select_option(label="Perth Scorchers")
    page.get_by_label("against").select_option(label=TEAM)
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url("**/compare-perth-scorchers-vs-sydney-sixers.html")
    assert page.locator("h1").inner_text() == f"Perth Scorchers v {TEAM}"
    for side in ("Perth Scorchers", TEAM):
        table = page.locator("#batting ~ .side-by-side table", has=page.locator("caption", has_text=side))
        shown = table.locator("tbody tr")
        assert shown.count() == sum(c["team"] == side and c["kind"] == "striker" for c in card_set["cards"])
        rates = [float(t) for t in table.locator("tbody td:nth-child(2)").all_inner_texts()]
        assert rates == sorted(rates, reverse=True) and rates   # highest strike rate first
    # the season was replayed (the fixture ran `cardgen simulate`): its figures are beside the real ones
    assert page.get_by_role("row", name=re.compile("Replays: share of matches won")).count() == 1
    # and the two sides' own replayed matches: "A beat B n of m replays", as simulate counted them
    pairs = json.loads((bbl_out / SET / "validation" / "simulate_head_to_head.json").read_text())["pairs"]
    pair = next(p for p in pairs if sorted(p["teams"]) == sorted(["Perth Scorchers", TEAM]))
    (win, w), (lose, _) = sorted(pair["won"].items(), key=lambda kv: -kv[1])
    assert page.locator("p.head-to-head").inner_text().startswith(f"{win} beat {lose} {w} of {pair['played']} replays")
    if viewport is VIEWPORT:   # two tables side by side at 1366 px, one above the other on a phone
        boxes = [t.bounding_box() for t in page.locator("#batting ~ .side-by-side table").all()]
        assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]
    assert _no_sideways_scroll(page)
    # every card by its ratings: filtered to strikers, sorted by strike rate from the keyboard
    page.goto(f"{served}sets/{SET}/compare.html")
    page.get_by_label("Show cards", exact=True).select_option("striker")
    rows = page.locator("[data-ratings] tbody tr:visible")
    assert rows.count() == sum(c["kind"] == "striker" for c in card_set["cards"])
    page.get_by_role("button", name="Strike rate or economy").focus()
    page.keyboard.press("Enter")   # a column of numbers sorts highest first
    rates = [float(t) for t in rows.locator("td:nth-child(4)").all_inner_texts()]
    assert rates == sorted(rates, reverse=True)
    assert page.locator("th[aria-sort=descending]").count() == 1
    assert errors == []


@pytest.mark.needs_data
@pytest.mark.parametrize("viewport", WIDTHS, ids=["390", "1366"])
def test_the_first_match_page_lists_every_file_on_a4_and_on_us_letter(bbl_out: Path, bbl_site: Path, browser,
                                                                     tmp_path: Path, viewport):
    """Issue 39: the checklist gave each team's files on A4 only. From file:// (no server, no
    script needed: plain links to the page's own headings), a US Letter player goes by keyboard
    to the US Letter list; each paper's list has both teams' cards and team sheets and the
    shared sheets, every one of them the kit's own file, byte for byte."""
    from cardgen.site.downloads import download_name
    card_set = json.loads((bbl_out / SET / "card-set.json").read_text())
    teams = [t["name"].lower().replace(" ", "-") for t in card_set["teams"]][:2]
    page = browser.new_page()
    page.set_viewport_size(viewport)
    errors = _watch_errors(page)
    page.goto((bbl_site / "first-match.html").as_uri())
    for paper in ("a4", "letter"):
        wanted = [f"teams/{team}/{kind}-{paper}.pdf" for team in teams for kind in ("cards", "team-sheet")]
        wanted += [f"{sheet}-{paper}.pdf" for sheet in ("fielding-chart", "scoresheet", "quick-reference")]
        listed = page.locator(f"#print-{paper} + ul.checklist a[download]")
        assert listed.evaluate_all("links => links.map(a => a.getAttribute('download'))") == [
            download_name(SET, rel) for rel in wanted], paper
        for k, rel in enumerate(wanted):
            href = listed.nth(k).get_attribute("href")
            assert (bbl_site / href).read_bytes() == (bbl_out / SET / rel).read_bytes(), (paper, rel)
    # the keyboard: Tab to "on US Letter", Enter, and the next Tab is the first US Letter file
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('href')") == "#print-letter":
            break
    else:
        raise AssertionError("no link to the US Letter list on the keyboard's way")
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#print-letter"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('download')") == download_name(
        SET, f"teams/{teams[0]}/cards-letter.pdf")
    assert page.locator("#print-letter").bounding_box()["y"] < viewport["height"]   # scrolled to it
    assert _no_sideways_scroll(page)
    _screenshot(page, f"first-match-papers-{viewport['width']}", tmp_path)
    assert errors == []


@pytest.mark.needs_data
@pytest.mark.parametrize("viewport", WIDTHS, ids=["390", "1366"])
def test_the_first_match_page_tells_a_real_over_and_shows_the_filled_sheet(served: str, bbl_out: Path, browser,
                                                                          tmp_path: Path, viewport):
    """Home -> first match (keyboard): the worked over is the replay's (cardgen.site.first_match,
    played again here), its picture of the filled scoresheet loads and its PDF downloads byte for
    byte as the site's file."""
    from cardgen.cardset import load_card_set
    from cardgen.site import first_match as fm
    card_set = load_card_set(bbl_out / SET / "card-set.json")   # the model the site replays
    teams = card_set.team_names()[:2]
    replay = fm.play_replay(card_set, teams[0], teams[1])
    units = fm._units(replay.balls[0], replay.cs.fmt.balls_per_over)
    over = units[fm.chosen_over(replay.cs, replay.bat_first, units)]
    page = browser.new_page()
    page.set_viewport_size(viewport)
    errors = _watch_errors(page)
    page.goto(served)
    link = page.get_by_role("link", name=re.compile("first match", re.I)).first
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/first-match.html")
    balls = page.locator("ol.worked-over > li")
    assert balls.count() == len(over)
    for k, rb in enumerate(over):
        text = balls.nth(k).inner_text()
        assert f"{rb.runs}/{rb.wickets}" in text   # the score after the ball
        assert f"d6 {rb.rolls[0].value}" in text and f"2d10 {rb.rolls[1].value}" in text
    images = [i for i in _load_all_images(page) if "first-match" in i["src"]]
    assert len(images) == 1 and images[0]["natural"] > 1000 and 0 < images[0]["shown"] <= viewport["width"]
    with page.expect_download() as got:
        page.get_by_role("link", name=re.compile(r"The scoresheet filled in \(A4")).click()
    download = got.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert saved.name == "bbl-2024-25-first-match-scoresheet-filled-a4.pdf"
    assert saved.read_bytes() == (bbl_out / "site" / "first-match" / saved.name).read_bytes()
    assert _no_sideways_scroll(page)
    _screenshot(page, f"first-match-{viewport['width']}", tmp_path, height=min(3000, page.evaluate(
        "document.documentElement.scrollHeight")))
    assert errors == []
