"""The match page: Quicket played in a browser, ball by ball, with a kit's own cards.

Layer: beside `cardgen.games` (above `sim` and `render`, below `site` and the CLI). It reads the
card set the way the engines do (`cardgen.sim.model`), plays page matches through the reference
engine (`cardgen.sim.reference`) for `cardgen replay`, and writes the page and its JavaScript
engine (`static/`) into a built kit. Nothing below it imports it; the CLI hands the kit writer
the page's files as data (`render.kit.KitOptions.extra_files`).

- `prng`: the one random-number generator both engines implement (xoshiro128**), so a seed
  replays in Python and in the browser;
- `sides`: a side as the page fields it (XI, keeper, the captain's bowling plan);
- `match`: a whole page match played by the reference engine, with explicit bowling plans;
- `matchfile`: the page's match file, read and checked once into typed values;
- `replay`: a match file played again by the reference engine (`cardgen replay`);
- `scorecard`: a page match's scorecard, as the page shows it and replay prints it;
- `page`: play.html and its files, as a kit carries them.
"""
