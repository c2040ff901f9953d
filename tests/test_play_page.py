"""The match page (play.html) in headless Chromium, from file:// as a kit folder opens it.

Whole matches are played through the page's own controls (its Roll button, the Space key, the
bowler list when the test captains a side, the "I rolled" form for physical dice) and the final
scorecard is compared with the Python reference engine playing the same dice and choices
(`cardgen.play.match`, `cardgen.play.scorecard`): nothing the page computes is trusted for the
expected side. Also: undo, resume after a reload, restart with the seed, the match file read back
by `cardgen replay`, the print stylesheet (one A4 / Letter page per innings), season mode,
keyboard-only play at 390 px (no sideways scroll, tap targets of 44 px), axe-core (vendored,
tests/vendor/axe-core) with no serious or critical violation, and bad input as a plain message.

Chromium is Debian's (/usr/bin/chromium, which ./test.sh installs), driven by Playwright. Set
CARDGEN_PLAY_SCREENSHOTS=docs/images to refresh the screenshots of the page (docs/play.md).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import numpy as np
import pytest
from click.testing import CliRunner

from accessibility import assert_accessible, page_errors
from cardgen.cli import main
from cardgen.rule_sets import TITLES
from cardgen.sim.model import compile_card_set
from conftest import BROWSER_WAIT_MS
from test_play_replay import reference_scorecard
from conftest import as_model

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
pytestmark = pytest.mark.slow   # a browser, two kits built

# name -> (competition, season, kit folder, format, rules): the default kits (the Quicket rules)
# of both formats, and BBL's advanced kit (wickets in hand, Defence), each page playing its own
KITS = {"T20": ("BBL", "2024-25", "BBL_2024-25", "T20", "quicket"),
        "100-ball": ("HUNDRED", "2024", "HUNDRED_2024", "100-ball", "quicket"),
        "T20-advanced": ("BBL", "2024-25", "BBL_2024-25-advanced", "T20", "advanced")}


# ---------------------------------------------------------------------------------------------
# Kits and pages
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> Path:
    """BBL 2024-25 (T20, both rule sets) and The Hundred 2024 (100-ball) built by `cardgen build`
    (each reuses its shipped card set)."""
    folder = tmp_path_factory.mktemp("play-out")
    for code, season, _, _, rules in KITS.values():
        result = CliRunner().invoke(main, ["build", "--competition", code, "--season", season,
                                           "--source", str(mirror), "--out", str(folder), "--paper", "a4",
                                           "--no-images", "--rules", rules])
        assert result.exit_code == 0, result.output
    return folder


def kit(out: Path, fmt: str) -> Path:
    return out / KITS[fmt][2]


def page_url(out: Path, fmt: str) -> str:
    return (kit(out, fmt) / "play.html").as_uri()


def waiting(ctx: Any) -> Any:
    """The context with conftest's wide bound on Playwright's waits (a loaded CI machine)."""
    ctx.set_default_timeout(BROWSER_WAIT_MS)
    ctx.set_default_navigation_timeout(BROWSER_WAIT_MS)
    return ctx


@pytest.fixture
def context(chromium) -> Iterator[Any]:
    ctx = waiting(chromium.new_context(viewport=DESKTOP, accept_downloads=True))
    yield ctx
    ctx.close()


@pytest.fixture
def phone(chromium) -> Iterator[Any]:
    ctx = waiting(chromium.new_context(viewport=PHONE, accept_downloads=True, has_touch=True))
    yield ctx
    ctx.close()


def open_page(ctx, url: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("#setup:not([hidden]), #play:not([hidden]), #message:not([hidden])")
    return page, errors


def screenshot(page, name: str, tmp_path: Path) -> None:
    """Save the page to tmp (always) and to $CARDGEN_PLAY_SCREENSHOTS (when set)."""
    path = tmp_path / f"play-{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    height = min(page.evaluate("document.documentElement.scrollHeight"), 2200)
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": height},
                    full_page=True)
    assert path.stat().st_size > 10_000   # a blank page compresses to a few hundred bytes
    target = os.environ.get("CARDGEN_PLAY_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(target) / path.name)


# ---------------------------------------------------------------------------------------------
# Driving the page
# ---------------------------------------------------------------------------------------------
def set_up(page, teams: tuple[str, str], captains: tuple[str, str], seed: int) -> None:
    for k, (team, captain) in enumerate(zip(teams, captains)):
        page.select_option(f"#team-{k}-name", label=team)
        page.check(f"input[name=captain-{k}][value={captain}]")
    page.fill("#seed", str(seed))


def toss_and_start(page, choose: str = "bat") -> None:
    """Toss the page's coin; a side the player captains chooses `choose`."""
    page.click("#toss")
    if page.locator("#start").count():
        page.click("#start")
    else:
        page.click("#bat-first" if choose == "bat" else "#bowl-first")
    page.wait_for_selector("#play:not([hidden])")


def match_over(page) -> bool:
    return page.locator("#roll").is_disabled()


STATE = """() => ({over: document.getElementById('roll').disabled,
                   asks: !document.getElementById('bowler-row').hidden && !document.getElementById('play').hidden})"""


def choose_bowler(page, rng: np.random.Generator, chosen: list[tuple[str, int, int, str]]) -> None:
    """The page asks the test (a captain) for the next over's bowler: pick one of the allowed
    bowlers at random and record (score line, unit, bowler-card row, name) from 'Your bowler for
    over N'."""
    options = page.eval_on_selector_all("#bowler option", "os => os.map(o => [o.value, o.disabled, o.textContent])")
    allowed = [o for o in options if not o[1]]
    assert allowed, options
    value, _, text = allowed[int(rng.integers(len(allowed)))]
    page.select_option("#bowler", value)
    unit = int(re.search(r"(\d+)$", page.text_content("#bowler-label")).group(1)) - 1
    chosen.append((page.text_content("#score-h"), unit, int(value), re.sub(r" \(.*$", "", text)))


def play_to_the_end(page, rng: np.random.Generator) -> list:
    """Every ball through the page's controls: the bowler list when the test captains, then the
    Space key. Returns the test's bowler choices."""
    chosen: list = []
    page.locator("#score-h").focus()
    for _ in range(2000):
        state = page.evaluate(STATE)
        if state["over"]:
            return chosen
        if state["asks"]:
            choose_bowler(page, rng, chosen)
            page.locator("#score-h").focus()   # Space on the list would open it, not roll
        page.keyboard.press("Space")
    raise AssertionError("the match did not end in 2,000 balls")


def saved_match(page, tmp_path: Path, name: str = "match.json") -> Path:
    with page.expect_download() as download:
        page.click("#save")
    path = tmp_path / name
    download.value.save_as(path)
    return path


def page_scorecard(page) -> str:
    return page.eval_on_selector("#card-body", "e => e.dataset.text")


# ---------------------------------------------------------------------------------------------
# The expected side: the Python reference engine (test_play_replay.reference_scorecard)
# ---------------------------------------------------------------------------------------------
def rows_of_choices(card_set: dict, chosen: list, batting_first_team: str) -> dict[int, list[int]]:
    """The test's choices as bowler-card rows per unit of each main innings, checking each row
    is the bowler the list named (the page's rows are the reference engine's)."""
    cs = compile_card_set(as_model(card_set))
    rows: dict[int, list[int]] = {}
    for score, unit, row, name in chosen:
        innings = 0 if score.startswith(batting_first_team + " ") else 1
        assert cs.player_names[int(cs.bowler_player[row])] == name, (row, name)
        rows.setdefault(innings, [])
        assert len(rows[innings]) == unit, (innings, unit, rows[innings])
        rows[innings].append(row)
    return rows


def file_setup(path: Path) -> tuple[list[dict], int, int]:
    doc = json.loads(path.read_text())
    names = [t["name"] for t in doc["teams"]]
    return doc["teams"], names.index(doc["batting_first"]), doc["seed"]


def replayed(path: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["replay", str(path), "--out", str(out)])
    return result.exit_code, result.output


# ---------------------------------------------------------------------------------------------
# Whole matches through the controls
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt, teams, seed", [
    ("T20", ("Perth Scorchers", "Sydney Sixers"), 2024),
    ("100-ball", ("Oval Invincibles", "Southern Brave"), 100),
    ("T20-advanced", ("Perth Scorchers", "Sydney Sixers"), 37),
])
def test_a_whole_match_through_the_controls_is_the_reference_engines(out: Path, context, tmp_path: Path,
                                                                     fmt, teams, seed):
    """The test captains the first side (it picks each over's bowler from the page's list, at
    random among those the limits allow), the computer the other; every ball is rolled with the
    Space key. The final scorecard is the reference engine's for the same seed and choices, and
    `cardgen replay` of the page's match file prints it too."""
    card_set = json.loads((kit(out, fmt) / "card-set.json").read_text())
    page, errors = open_page(context, page_url(out, fmt))
    _, _, _, format_name, rules = KITS[fmt]
    assert format_name in page.text_content("header")
    assert page.text_content("#rules-label") == TITLES[rules]   # the page says which rules it plays
    set_up(page, teams, ("player", "computer"), seed)
    toss_and_start(page, "bowl")
    chosen = play_to_the_end(page, np.random.default_rng(seed))
    text = page_scorecard(page)
    path = saved_match(page, tmp_path)
    sides, first, file_seed = file_setup(path)
    assert file_seed == seed and [s["name"] for s in sides] == list(teams)
    assert [s["captain"] for s in sides] == ["player", "computer"]
    assert chosen, "the test captained a side but was never asked for a bowler"
    expected = reference_scorecard(card_set, sides, first, seed,
                                   rows_of_choices(card_set, chosen, sides[first]["name"]))
    assert text == expected
    assert re.search(r"won by \d+ (run|wicket)|Match tied", text.splitlines()[1])
    assert page.locator("[data-result]").text_content() == text.splitlines()[1]
    code, printed = replayed(path, out)
    assert code == 0, printed
    assert printed == expected
    assert not errors


def test_physical_dice_for_an_over(out: Path, context, tmp_path: Path):
    """'I rolled' for the whole first over: the page asks for each die by name (d6, 2d10, d20,
    or a card drawn from the deck), explains what each read, refuses a face the die has not got,
    and plays exactly what the reference engine plays on those dice; Roll plays the rest from
    the seed, and `cardgen replay` reads the mixed file back."""
    fmt, seed = "T20", 77
    card_set = json.loads((kit(out, fmt) / "card-set.json").read_text())
    page, errors = open_page(context, page_url(out, fmt))
    set_up(page, ("Melbourne Stars", "Hobart Hurricanes"), ("computer", "computer"), seed)
    toss_and_start(page)
    rng = np.random.default_rng(3)
    typed: list[int] = []
    kinds: list[str] = []
    page.click("#i-rolled")
    ask = """() => ({line: document.getElementById('score-line').textContent,
                     form: !document.getElementById('dice-form').hidden,
                     label: document.getElementById('die-label').textContent,
                     pick: !document.getElementById('die-pick').hidden,
                     cards: document.getElementById('die-pick').options.length,
                     placeholder: document.getElementById('die').placeholder})"""
    for _ in range(200):
        state = page.evaluate(ask)
        if state["line"].startswith("1.0 overs"):   # the over is bowled
            break
        if not state["form"]:                     # a ball done: the next one's dice
            page.click("#i-rolled")
            state = page.evaluate(ask)
        assert state["label"], "the page asks for a die without saying which"
        if state["pick"]:
            value = int(rng.integers(state["cards"]))
            page.select_option("#die-pick", str(value))
            kinds.append("pick")
            field = "#die-pick"
        else:
            kind, low, high = {"1-6": ("d6", 1, 7), "01-00": ("2d10", 1, 101),
                               "1-20": ("d20", 1, 21)}[state["placeholder"]]
            if kind == "d6" and not kinds:   # a face the die has not got: refused, asked again
                page.fill("#die", "7")
                page.press("#die", "Enter")
                assert "A d6 reads 1 to 6" in page.text_content("#message")
            value = int(rng.integers(low, high))
            page.fill("#die", "00" if kind == "2d10" and value == 100 else str(value))
            kinds.append(kind)
            field = "#die"
        typed.append(value)
        page.press(field, "Enter")
    else:
        raise AssertionError("the over did not end")
    assert {"d6", "2d10"} <= set(kinds)
    explained = page.text_content("#last")
    assert re.search(r"d6 = \d: the (bowler|striker)'s card", explained), explained
    assert re.search(r"2d10 = \d\d?: ", explained), explained
    after_over = page.text_content("#score-h")
    page.click("#auto")   # the computer captains both sides: the rest from the seed
    text = page_scorecard(page)
    path = saved_match(page, tmp_path)
    doc = json.loads(path.read_text())
    first_over = [b for b in doc["innings"][0]["balls"] if b["over"].startswith("0.")]
    assert first_over and not any(b["rolled"] for b in first_over)
    assert [d[1] for b in first_over for d in b["dice"]] == typed
    assert all(b["rolled"] for b in doc["innings"][0]["balls"][len(first_over):])
    sides, first, _ = file_setup(path)
    expected = reference_scorecard(card_set, sides, first, seed, typed=typed)
    assert text == expected
    first_innings = doc["innings"][0]["balls"]
    assert after_over.endswith(first_innings[len(first_over) - 1]["score"])
    code, printed = replayed(path, out)
    assert code == 0 and printed == expected, printed
    assert not errors


def test_undo_resume_and_restart(out: Path, context, tmp_path: Path):
    """U takes the last ball back (the board as it was) and rolling again gives the same ball
    (the seed's); a reload resumes the match where it was; the finished match is the reference
    engine's; restart plays it again from the seed."""
    fmt, seed = "T20", 9
    card_set = json.loads((kit(out, fmt) / "card-set.json").read_text())
    url = page_url(out, fmt)
    page, errors = open_page(context, url)
    set_up(page, ("Adelaide Strikers", "Sydney Thunder"), ("computer", "computer"), seed)
    toss_and_start(page)
    board = lambda: (page.text_content("#score-h"), page.text_content("#score-line"),  # noqa: E731
                     page.inner_html("#grids"), page.inner_html("#batting-now"))
    page.locator("#score-h").focus()
    for _ in range(30):
        page.keyboard.press("Space")
    before = board()
    page.keyboard.press("Space")
    after = board()
    assert after != before
    page.keyboard.press("u")
    assert board() == before
    assert "Undone" in page.text_content("#last")
    page.keyboard.press("Space")
    assert board() == after
    # close the tab and come back: the match resumes from browser storage
    page.close()
    page, errors2 = open_page(context, url)
    assert page.locator("#play").is_visible()
    assert "Resumed" in page.text_content("#last")
    assert board() == after
    page.click("#auto")
    assert match_over(page)
    text = page_scorecard(page)
    path = saved_match(page, tmp_path)
    sides, first, _ = file_setup(path)
    assert text == reference_scorecard(card_set, sides, first, seed)
    page.click("#restart")
    assert page.text_content("#score-h").endswith(" 0/0")
    assert "seed 9" in page.text_content("#last")
    page.click("#auto")
    assert page_scorecard(page) == text
    assert not errors and not errors2


# ---------------------------------------------------------------------------------------------
# Print, season, keyboard and phone, accessibility
# ---------------------------------------------------------------------------------------------
def test_the_scorecard_prints_one_page_per_innings(out: Path, context, tmp_path: Path):
    import pypdfium2
    page, errors = open_page(context, page_url(out, "T20"))
    set_up(page, ("Brisbane Heat", "Melbourne Renegades"), ("computer", "computer"), 5)
    toss_and_start(page)
    page.click("#auto")
    headings = page.eval_on_selector_all(".card-innings h3", "hs => hs.map(h => h.textContent)")
    assert len(headings) >= 2
    for paper in ("A4", "Letter"):
        pdf = tmp_path / f"scorecard-{paper}.pdf"
        page.pdf(path=str(pdf), format=paper)
        doc = pypdfium2.PdfDocument(str(pdf))
        assert len(doc) == len(headings), paper
        for number, heading in enumerate(headings):
            text = doc[number].get_textpage().get_text_range()
            assert heading in text and "Bowler" in text and "Total" in text, (paper, number)
            assert "Ball by ball" not in text and "Roll" not in text   # the scorecard only
        if paper == "A4":
            doc[0].render(scale=1).to_pil().save(tmp_path / "scorecard-page-1.png")
    assert not errors


def test_season_mode_plays_the_real_fixture_list(out: Path, context):
    fixtures = json.loads(re.sub(r"^globalThis\.QUICKET_DATA = |;\s*$", "",
                                 (kit(out, "T20") / "play" / "set-data.js").read_text()))["fixtures"]
    league = [f for f in fixtures if not f["stage"]]
    # BBL 2024-25: 40 league matches, of which the mirror lacks the washed-out 21 and 27; 4 finals
    assert (len(league), len(fixtures)) == (38, 42)
    page, errors = open_page(context, page_url(out, "T20"))
    page.click("#mode-season")
    assert page.locator("#fixtures tbody tr").count() == len(fixtures)
    page.click("#season-rest")
    points = page.eval_on_selector_all("#ladder tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert len(points) == 8
    played = sum(int(r[2]) for r in points)
    assert played == 2 * len(league)
    assert sum(int(r[6]) for r in points) == 2 * len(league)   # 2 a win; a tie is 1 each
    # the real ladder beside it: each team's real wins are the fixture list's
    for row in points:
        real_wins = sum(1 for f in league if f["winner"] == row[1])
        assert int(row[8]) == real_wins, row
    # results are kept in the browser, and a fixture can be played by hand
    page.reload()
    page.click("#mode-season")
    assert page.text_content("#fixtures").count("(computer)") == len(fixtures)
    page.click("button[data-fixture='0'][data-action=play]")
    assert page.locator("#setup").is_visible()
    assert page.input_value("#team-0-name") == fixtures[0]["team1"]
    assert page.input_value("#team-1-name") == fixtures[0]["team2"]
    toss_and_start(page)
    page.click("#auto")
    page.click("#mode-season")
    first_row = page.locator("#fixtures tbody tr").first.text_content()
    assert "(computer)" not in first_row and re.search(r"won by|tied", first_row)
    assert not errors


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def small_targets(page) -> list[str]:
    """Visible controls under 44 x 44 px (links inside a sentence excepted, as WCAG 2.5.5 does; a
    radio button's target is its whole label)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, select, input, summary, a, [tabindex="0"]')]
        .filter(e => e.offsetParent !== null && !e.closest('p.lead, li, td, .meta, .foot, .skip, .scroll'))
        .filter(e => { const r = (e.closest('label') || e).getBoundingClientRect();   // a radio's target is its label
                       return r.height < 44 || r.width < 44; })
        .map(e => e.outerHTML.slice(0, 80))""")


def test_keyboard_alone_on_a_phone(out: Path, phone, tmp_path: Path):
    """At 390 px: Tab to the toss, Enter, Space to roll (the bowler list keeps the computer's
    suggestion for the side 'you' captain), U to undo, Tab and Enter to let the computer finish;
    no view scrolls sideways and every control is at least 44 px. (The whole T20 match above is
    rolled with Space too.)"""
    page, errors = open_page(phone, page_url(out, "T20"))
    assert no_sideways_scroll(page) and not small_targets(page), small_targets(page)
    screenshot(page, "phone-setup", tmp_path)
    for _ in range(80):
        if page.evaluate("document.activeElement.id") == "toss":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the toss")
    page.keyboard.press("Enter")
    focused = page.evaluate("document.activeElement.id")
    assert focused in ("start", "bat-first"), focused
    page.keyboard.press("Enter")
    assert page.locator("#play").is_visible()
    for _ in range(40):
        page.keyboard.press("Space")
    assert no_sideways_scroll(page) and not small_targets(page), small_targets(page)
    screenshot(page, "phone-play", tmp_path)
    score = page.text_content("#score-h")
    page.keyboard.press("Space")
    page.keyboard.press("U")
    assert page.text_content("#score-h") == score
    for _ in range(60):   # the rest by keyboard too: Tab to "Computer plays the rest", Enter
        if page.evaluate("document.activeElement.id") == "auto":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert match_over(page)
    assert no_sideways_scroll(page) and not small_targets(page), small_targets(page)
    page.click("#mode-season")
    assert no_sideways_scroll(page) and not small_targets(page), small_targets(page)
    assert not errors


def test_desktop_screenshot(out: Path, context, tmp_path: Path):
    page, errors = open_page(context, page_url(out, "T20"))
    set_up(page, ("Perth Scorchers", "Sydney Sixers"), ("player", "computer"), 31)
    toss_and_start(page, "bowl")
    page.locator("#score-h").focus()
    for _ in range(45):
        page.keyboard.press("Space")
    assert no_sideways_scroll(page)
    screenshot(page, "desktop", tmp_path)
    assert not errors


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1366", "390"])
def test_axe_finds_no_serious_violation(out: Path, chromium, viewport):
    """axe-core on each view: setup, a match in play with the bowler list and the dice form
    open, the finished scorecard, season mode; the advanced rules' help (T20) and 100-ball."""
    ctx = waiting(chromium.new_context(viewport=viewport))
    try:
        for fmt in KITS:
            page, errors = open_page(ctx, page_url(out, fmt))
            assert_accessible(page, f"the setup view, {fmt}, at {viewport['width']} px")
            set_up(page, tuple(json.loads((kit(out, fmt) / "card-set.json").read_text())["teams"][i]["name"]
                               for i in (0, 1)), ("player", "computer"), 1)
            toss_and_start(page, "bowl")
            page.click("#i-rolled")
            assert page.locator("#dice-form").is_visible()
            assert_accessible(page, f"the play view, {fmt}, at {viewport['width']} px")
            page.click("#dice-cancel")
            page.click("#auto")
            assert_accessible(page, f"the end view, {fmt}, at {viewport['width']} px")
            page.click("#mode-season")
            if fmt == "T20":
                page.click("#season-rest")
            assert_accessible(page, f"the season view, {fmt}, at {viewport['width']} px")
            assert page_errors(errors) == []   # but axe-core's own lines on file://
            page.close()
    finally:
        ctx.close()


# ---------------------------------------------------------------------------------------------
# Links and bad input
# ---------------------------------------------------------------------------------------------
def test_every_kit_and_the_site_link_the_match_page(out: Path, context):
    """Each built kit carries play.html and its engine; the site's set page and team pages say
    "Play a match in your browser", and the team page's link opens the page with that team."""
    from cardgen.site.generate import generate_site
    for fmt in KITS:
        folder = kit(out, fmt)
        assert (folder / "play.html").is_file()
        for name in ("engine.js", "captain.js", "match.js", "scorecard.js", "page.js", "play.css", "set-data.js"):
            assert (folder / "play" / name).is_file(), name
    report = generate_site(out)
    set_page = report.site_dir / "sets" / "BBL_2024-25" / "index.html"
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(set_page.as_uri())
    page.get_by_role("link", name="Play a match in your browser").click()
    page.wait_for_selector("#setup:not([hidden])")
    assert page.title().startswith("Play a match")
    team_page = report.site_dir / "sets" / "BBL_2024-25" / "team-sydney-sixers.html"
    page.goto(team_page.as_uri())
    page.get_by_role("link", name="Play a match in your browser").click()
    page.wait_for_selector("#setup:not([hidden])")
    assert page.input_value("#team-0-name") == "Sydney Sixers"
    assert not errors


def test_bad_input_is_a_plain_message(out: Path, context, tmp_path: Path):
    """A damaged data file, a hand-edited card set or a damaged match file: the page says so in
    words; never a blank page, never an uncaught error."""
    copy = tmp_path / "kit"
    shutil.copytree(kit(out, "T20"), copy, ignore=shutil.ignore_patterns("*.pdf", "png", "tts", "teams"))
    data = copy / "play" / "set-data.js"
    good = data.read_text()
    data.write_text(good[: len(good) // 2])   # cut short, as a failed copy leaves it
    page, errors = open_page(context, (copy / "play.html").as_uri())
    assert "could not read its card set" in page.text_content("#message")
    assert page.locator("#message").is_visible()
    assert all("SyntaxError" in e or "Unexpected" in e or "Invalid" in e for e in errors), errors  # the cut file's own
    # a hand-edited card set in the data: one card's chart leaves a roll uncovered
    doc = json.loads(re.sub(r"^globalThis\.QUICKET_DATA = |;\s*$", "", good))
    doc["cardSet"]["cards"][3]["chart"][0]["lo"] += 1
    data.write_text("globalThis.QUICKET_DATA = " + json.dumps(doc) + ";\n")
    page, errors = open_page(context, (copy / "play.html").as_uri())
    text = page.text_content("#message")
    assert text.startswith("These cards cannot be played: ") and "leaves roll" in text, text
    assert not errors
    # the page's own data again: a hand-edited card-set.json opened on it, then a damaged match file
    data.write_text(good)
    page, errors = open_page(context, (copy / "play.html").as_uri())
    edited = json.loads((copy / "card-set.json").read_text())
    edited["cards"][0]["chart"][0]["result"] = "Z"
    bad_set = tmp_path / "edited-card-set.json"
    bad_set.write_text(json.dumps(edited))
    page.click("details.files summary")
    page.set_input_files("#card-file", str(bad_set))
    page.wait_for_selector("#message:not([hidden])")
    assert 'unknown chart result "Z"' in page.text_content("#message")
    bad_match = tmp_path / "damaged-match.json"
    bad_match.write_text('{"kind": "quicket-match", "version": 1, "card_set": {"competition": "BBL", ')
    page.set_input_files("#match-file", str(bad_match))
    page.wait_for_function("document.getElementById('message').textContent.includes('not readable JSON')")
    # a match that does not fit these cards: the seed's dice edited
    set_up(page, ("Perth Scorchers", "Sydney Sixers"), ("computer", "computer"), 3)
    toss_and_start(page)
    page.click("#auto")
    path = saved_match(page, tmp_path)
    match = json.loads(path.read_text())
    match["innings"][0]["balls"][5]["dice"][0][1] = match["innings"][0]["balls"][5]["dice"][0][1] % 6 + 1
    path.write_text(json.dumps(match))
    page.click("#new-match")
    page.click("details.files summary")
    page.set_input_files("#match-file", str(path))
    page.wait_for_selector("#message:not([hidden])")
    assert "damaged" in page.text_content("#message") and "seed 3" in page.text_content("#message")
    # damaged browser storage: the page starts a new match and says why
    page.evaluate("localStorage.setItem('quicket-match:' + QuicketPage.state.fp, '{\"doc\": {\"kind\": 1}}')")
    page.reload()
    page.wait_for_selector("#setup:not([hidden])")
    assert "could not be resumed" in page.text_content("#message")
    assert not errors


LEAGUE_FILE = ('name = "Three sides"\nbaseline = "BBL 2024-25"\nrounds = 2\n'
               '[[team]]\nfrom = "BBL 2024-25: Sydney Sixers"\n'
               '[[team]]\nfrom = "BBL 2024-25: Hobart Hurricanes"\n'
               '[[team]]\nfrom = "BBL 2024-25: Perth Scorchers"\n')


@pytest.fixture(scope="module")
def league_kit(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> Path:
    folder = tmp_path_factory.mktemp("play-league")
    (folder / "three.toml").write_text(LEAGUE_FILE, encoding="utf-8")
    result = CliRunner().invoke(main, ["league", str(folder / "three.toml"), "--source", str(mirror),
                                       "--out", str(folder / "out"), "--paper", "a4", "--no-images"])
    assert result.exit_code == 0, result.output
    return folder / "out" / "THREE-SIDES_2024-25"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_season_mode_plays_a_league_s_round_robin(league_kit: Path, context, phone, viewport: str,
                                                  tmp_path: Path):
    """A league kit's Season tab is its own round robin: every fixture playable, a ladder of
    its own with no real one beside it (none was played), kept in the browser."""
    own = json.loads((league_kit / "card-set.json").read_text(encoding="utf-8"))["own_league"]
    assert len(own["fixtures"]) == 6    # three pairs of sides, each meeting twice
    page, errors = open_page(context if viewport == "desktop" else phone, (league_kit / "play.html").as_uri())
    page.focus("#mode-season")
    page.keyboard.press("Enter")
    assert page.text_content("#season-h") == "Three sides: the league"
    heads = page.eval_on_selector_all("#fixtures thead th", "hs => hs.map(h => h.textContent)")
    assert heads == ["Match", "Teams", "Your result", "Play"]
    rows = page.eval_on_selector_all("#fixtures tbody th", "hs => hs.map(h => h.textContent)")
    assert rows == [f"{a} v {b}" for a, b in own["fixtures"]]
    assert "Real" not in page.text_content("#ladder thead")
    page.focus("#season-rest")
    page.keyboard.press("Enter")
    ladder = page.eval_on_selector_all("#ladder tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert sorted(r[1] for r in ladder) == sorted(t for t in {x for f in own["fixtures"] for x in f})
    assert [int(r[2]) for r in ladder] == [4, 4, 4]          # each side plays the other two twice
    assert sum(int(r[6]) for r in ladder) == 2 * 6          # 2 points a match, shared in a tie
    assert page.text_content("#fixtures").count("(computer)") == 6
    assert no_sideways_scroll(page)
    screenshot(page, f"league-season-{viewport}", tmp_path)
    # kept in this browser: after a reload the results are still there
    page.reload()
    page.click("#mode-season")
    assert page.text_content("#fixtures").count("(computer)") == 6
    # a fixture played by hand: the setup has its two sides
    page.click("button[data-fixture='1'][data-action=play]")
    assert page.input_value("#team-0-name") == own["fixtures"][1][0]
    assert page.input_value("#team-1-name") == own["fixtures"][1][1]
    assert not errors
