"""The match page (play.html): load time, a whole T20 match auto-played in it, and its size.

Builds the BBL 2024-25 kit once with `cardgen build`, opens its play.html from file:// in headless
Debian Chromium (Playwright, as the tests do) and prints, each the median of --runs fresh pages:

- first render: from the start of navigation to the page's own "quicket-ready" mark (setup
  filled in, help drawn), beside the same browser's first paint of a one-paragraph page;
- auto-play: "Computer plays the rest" from the first ball of a T20 match to the scorecard drawn
  (the click's work and the next frame), beside the Python reference engine playing the same
  match (cardgen.play.match, same seed and sides) in this process, and the page's engine alone;
- size: play.html and its engine, style and scripts (play/*) without the card data
  (play/set-data.js), plain and gzipped; and the card data.

Targets (issue 37): first render < 1 s, a whole match < 0.5 s, page + engine <= 300 KB.
Usage: python3 benchmarks/bench_play.py [--runs N]
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import main
from cardgen.play.match import play_page_match
from cardgen.play.page import DATA_FILE, FOLDER, PAGE
from cardgen.play.prng import CAPTAIN_STREAM, DICE_STREAM, SharedRandom
from cardgen.play.sides import draw_plan, page_side, usual_xi
from cardgen.cardset import CardSet
from cardgen.sim.model import compile_card_set
from cardgen.wickets_in_hand import rule_of_set

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TEAMS = ("Perth Scorchers", "Sydney Sixers")
TARGET_RENDER_MS, TARGET_MATCH_MS, TARGET_KB = 1000, 500, 300
BASELINE_HTML = "<!doctype html><html lang=en><title>baseline</title><p>One paragraph.</p></html>"


def build_kit(out: Path) -> Path:
    mirror = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "cricsheet"
    args = ["build", "-c", "BBL", "-s", "2024-25", "--out", str(out), "--paper", "a4", "--no-images"]
    if mirror.is_dir():
        args += ["--source", str(mirror)]
    result = CliRunner().invoke(main, args)
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return out / "BBL_2024-25"


def sizes(kit: Path) -> tuple[int, int, int]:
    page = [kit / PAGE] + [p for p in sorted((kit / FOLDER).iterdir()) if p.name != DATA_FILE]
    raw = sum(p.stat().st_size for p in page)
    zipped = sum(len(gzip.compress(p.read_bytes(), 9)) for p in page)
    return raw, zipped, (kit / FOLDER / DATA_FILE).stat().st_size


def python_match_ms(card_set: dict, seed: int, batting_first: int) -> float:
    """The reference engine playing the page's match (computer captains) once, in ms (the card
    set compiled beforehand, as the page's engine has it)."""
    cs = compile_card_set(CardSet.from_json(card_set))
    started = time.perf_counter()
    sides = [page_side(cs, team, *usual_xi(cs, team)) for team in TEAMS]
    captain = SharedRandom(seed, CAPTAIN_STREAM)
    play_page_match(cs, sides[batting_first], sides[1 - batting_first], SharedRandom(seed, DICE_STREAM),
                    lambda innings, side: draw_plan(cs, side, captain), rule_of_set(card_set))
    return (time.perf_counter() - started) * 1000


def run(runs: int) -> None:
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        kit = build_kit(Path(tmp))
        print(f"cardgen build BBL 2024-25 (A4, no images): {time.perf_counter() - started:.1f} s")
        baseline = Path(tmp) / "baseline.html"
        baseline.write_text(BASELINE_HTML)
        card_set = json.loads((kit / "card-set.json").read_text())
        raw, zipped, data = sizes(kit)
        render, paint, match, engine, python = [], [], [], [], []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for run_no in range(runs):
                seed = 1000 + run_no
                ctx = browser.new_context(viewport={"width": 1366, "height": 900})
                page = ctx.new_page()
                page.goto(baseline.as_uri())
                paint.append(page.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(() => "
                                           "r(performance.getEntriesByType('paint').map(e => e.startTime)"
                                           ".concat([performance.now()])[0]))))"))
                page.goto((kit / PAGE).as_uri())
                page.wait_for_function("performance.getEntriesByName('quicket-ready').length > 0")
                render.append(page.evaluate("performance.getEntriesByName('quicket-ready')[0].startTime"))
                for k, team in enumerate(TEAMS):
                    page.select_option(f"#team-{k}-name", label=team)
                    page.check(f"input[name=captain-{k}][value=computer]")
                page.fill("#seed", str(seed))
                page.click("#toss")
                page.click("#start")
                first = 0 if page.text_content("#score-h").startswith(TEAMS[0]) else 1
                match.append(page.evaluate("""() => new Promise(resolve => {
                    const t0 = performance.now();
                    document.getElementById('auto').click();
                    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0)));
                })"""))
                assert page.locator("#roll").is_disabled(), "the match did not finish"
                engine.append(page.evaluate("""() => {
                    const m = QuicketPage.state.match, t0 = performance.now();
                    const again = new Quicket.Match(m.cs, m.setup);
                    again.autoPlay();
                    return performance.now() - t0;
                }"""))
                python.append(python_match_ms(card_set, seed, first))
                ctx.close()
            browser.close()
    med = statistics.median
    print(f"first render: median {med(render):.0f} ms (target < {TARGET_RENDER_MS} ms: "
          f"{'met' if med(render) < TARGET_RENDER_MS else 'MISSED'}); the same browser's first paint of a "
          f"one-paragraph page {med(paint):.0f} ms (x{med(render) / med(paint):.1f})")
    print(f"auto-play a whole T20 match in the page: median {med(match):.0f} ms (target < {TARGET_MATCH_MS} ms: "
          f"{'met' if med(match) < TARGET_MATCH_MS else 'MISSED'}); the page's engine alone {med(engine):.1f} ms; "
          f"the Python reference engine {med(python):.1f} ms (page x{med(match) / med(python):.1f}, "
          f"engine x{med(engine) / med(python):.2f})")
    print(f"page + engine: {raw / 1000:.0f} KB ({zipped / 1000:.0f} KB gzipped; target <= {TARGET_KB} KB: "
          f"{'met' if raw <= TARGET_KB * 1000 else 'MISSED'}); card data {data / 1000:.0f} KB "
          f"({runs} runs)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    run(parser.parse_args().runs)
