"""The game's words on the site: the notes that explain a card a reader might take for a mistake
(no boundary face, no wicket face, out more often than its player, a consolidating batter's W
faces), roles, table captions, what a kit needs to play, which rules a kit is made for, and the
scoresheet's and fielding chart's shapes as the printed sheets have them.

Layer: site. Reads the card set's model (cardgen.cardset) and the render layer's constants;
builds no page, writes nothing.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from cardgen.calibrate.model import CARD_INDEX, MAX_DEFENCE
from cardgen.cardset import Card, CardSet, Player, RealFigures
from cardgen.errors import CardgenError, CardSetError
from cardgen.render.card import RUN_RESULTS, WICKET_RESULTS, chart_faces
from cardgen.site.kit import KitSet


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


_REAL_FIELDS = frozenset(f.name for f in dataclasses.fields(RealFigures)) - {"extra", "present"}


def _real_figure(real: RealFigures, key: str) -> Any:
    """One of a card's real figures by name: the model's field, or one a newer writer added."""
    return getattr(real, key) if key in _REAL_FIELDS else real.extra.get(key)


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def real_rate(key: str, real: RealFigures) -> float | None:
    """The real-season figure that an `expected` figure estimates, from the card's counts (the
    contract's integers: balls, runs, dismissals, fours, sixes, wides, no-balls). A rate or a
    dot count the set prints itself is outside the contract, so its type is checked."""
    rate = _real_figure(real, key) if "rate" in key or key == "economy" else None
    if _number(rate):
        return float(rate)
    balls = real.balls
    if balls is None or balls <= 0:
        return None
    runs, outs = real.runs, real.dismissals
    if key == "strike_rate" and runs is not None:
        return 100.0 * runs / balls
    if key == "economy" and runs is not None:
        return 6.0 * runs / balls   # runs per 6 balls in both formats, as the stats layer and the cards
    if key in ("dismissal_rate", "wicket_rate") and outs is not None:
        return outs / balls
    base = key.removesuffix("_per_ball")
    count = _real_figure(real, base) if base in ("fours", "sixes", "dots", "wides", "no_balls") else None
    return count / balls if _number(count) else None


# the card's roles as printed; "*" is the rules' mark for "not this side's job"
ROLE_STAR = {"batting_role": "Mainly a bowler", "bowling_role": "Mainly a batter, rarely bowls"}


def table_caption(relpath: str) -> str:
    """"validation/simulate_ladder.csv" -> "Simulated ladder (simulate_ladder.csv)"."""
    name = relpath.rsplit("/", 1)[-1]
    words = Path(name).stem.replace("_", " ")
    words = re.sub(r"^simulate\b", "simulated", words).replace("team totals", "team totals per match")
    return f"{words.capitalize()} ({name})"


def role_words(key: str, player: Player, kinds: Iterable[str]) -> str:
    """A player's batting or bowling role (`key`: "batting_role" or "bowling_role") in words; a
    "*" also says where it is printed: the striker card's role line shows the batting role, the
    bowler card's the bowling role (unless it says All-Rounder). A player with no such card sees
    no "*" anywhere."""
    text = str((player.batting_role if key == "batting_role" else player.bowling_role) or "").strip()
    if text != "*":
        return text
    if key == "batting_role":
        shown = "striker" in kinds
    else:
        shown = "bowler" in kinds and player.batting_role != "All-Rounder"
    return ROLE_STAR[key] + (" (shown as * on the card)" if shown else "")


BOUNDARY_FACES = (("4", "fours", "four"), ("6", "sixes", "six"))


def expected_figures(card: Card) -> Mapping[str, Any]:
    """What the card gives in play, by figure ({} when the set has none; every figure a number:
    the model's loader checks the block)."""
    return card.expected if card.expected is not None else {}


def boundary_note(card: Card, attack_die: bool) -> str:
    """For a striker card with no 4 (or 6) face whose player hit some in the season: where its
    boundaries come from, so a reader does not take the card for a mistake (MS Dhoni, IPL 2025:
    12 sixes in 145 balls, a card of dots and singles that plays to his real sixes); for a card
    with no run face at all whose player scored (a tail-ender's short stay in the attack band:
    9-38 cards a shipped rule set), where its runs come from. `attack_die`: the set is made for
    the wickets-in-hand rule, whose attack die turns dots into boundaries."""
    if card.kind != "striker":
        return ""
    faces = chart_faces(card)
    real = card.real
    expected = expected_figures(card)
    balls = real.balls
    if balls is None or balls <= 0:
        return ""
    source = ("from the bowler's card (half of every ball is read from it) and from the attack die "
              "of the wickets-in-hand rule, which turns dots into fours and sixes"
              if attack_die else "from the bowler's card (half of every ball is read from it)")
    runs = real.runs
    if not faces & RUN_RESULTS and runs is not None and runs > 0:
        # no run face at all: a short stay mostly in the attack band (docs/calibration.md
        # section 10), whose dots the attack die turns into runs
        return (f"No run on this card, yet {runs} run{'' if runs == 1 else 's'} in {balls} real "
                f"ball{'' if balls == 1 else 's'}: a card's runs also come {source}.")
    hits = {"fours": real.fours or 0, "sixes": real.sixes or 0}
    missing = [(face, key, word) for face, key, word in BOUNDARY_FACES
               if face not in faces and hits[key] > 0 and _number(expected.get(key)) and expected[key] > 0]
    if not missing:
        return ""
    hit = " and ".join(f"{hits[key]} {word if hits[key] == 1 else key}" for _, key, word in missing)
    played = " and ".join(f"{100 * expected[key]:.1f} {key} (real {100 * (real_rate(key, real) or 0):.1f})"
                          for _, key, _ in missing)
    note = (f"No {' or '.join(face for face, _, _ in missing)} on this card, yet {hit} in {balls} "
            f"real ball{'' if balls == 1 else 's'}: a card's boundaries also come {source}.")
    # rates per 100 balls say something only for a season of some length (the qualified cards')
    return note + (f" Played against the league's bowlers, the card hits {played} a 100 balls."
                   if balls >= qualify_balls() else "")


FLOOR_NOTE_MARGIN = 1.2  # a qualified card with this many times (and one more) its player's wickets or outs


def _over_floor(expected_rate: float, count: int, balls: int) -> bool:
    """Whether a card's expected wickets or outs over its player's real balls are at least
    FLOOR_NOTE_MARGIN times (and one more than) the real `count`."""
    return expected_rate * balls >= max(FLOOR_NOTE_MARGIN * count, count + 1)


def wicket_note(card: Card, attack_die: bool) -> str:
    """For a bowler card with no W or B face whose player took wickets: where its wickets come
    from, so a reader does not take the card for a mistake. A bowler whose real wicket rate is
    below what the batters' half of each delivery already gives gets no W of his own (Rashid
    Khan, IPL 2025: 9 wickets in 330 balls; 6-18 qualified bowlers a shipped season), and under
    the wickets-in-hand rule a death bowler's wickets come mostly from the attack die (Matheesha
    Pathirana, IPL 2025, 13 in 251). For a qualified card that still takes at least 20% (and a
    wicket) more than its player did, whatever its faces: that it does, and why (Ellyse Perry,
    WPL 2023: 4 wickets in 140 balls, her card 6.7 a 100 balls against 2.9; docs/calibration.md
    section 10). `attack_die`: the set is made for the rule."""
    if card.kind != "bowler":
        return ""
    faces = chart_faces(card)
    wickets, balls = card.real.dismissals, card.real.balls
    if wickets is None or balls is None or balls <= 0:
        return ""
    source = ("from the batter's card (half of every ball is read from it), from the fielding "
              "chart's catches, LBWs and stumpings, and from the attack die of the wickets-in-hand "
              "rule, which bowls or has caught a batter on some dots" if attack_die else
              "from the batter's card (half of every ball is read from it) and from the fielding "
              "chart's catches, LBWs and stumpings")
    rate = expected_figures(card).get("wicket_rate")
    # the card's expected wicket rate, when the card is qualified (None: the page quotes none)
    expected = rate if balls >= qualify_balls() else None
    if not faces & WICKET_RESULTS and wickets > 0:
        note = (f"No W or B on this card, yet {wickets} wicket{'' if wickets == 1 else 's'} in {balls} "
                f"real ball{'' if balls == 1 else 's'}: a bowler's wickets also come {source}.")
        if expected is not None:
            note += (f" Played against the league's batters, the card takes {100 * expected:.1f} "
                     f"wickets a 100 balls (real {100 * wickets / balls:.1f}).")
        return note
    if expected is None or not _over_floor(expected, wickets, balls):
        return ""
    try:
        f_faces = int(card.slots()[CARD_INDEX["F"]])
    except CardSetError:   # the schema does not check that a chart tiles 1..100
        return ""
    took = f"{wickets} in {balls} balls" if wickets else f"none in {balls} balls"
    die = " from the attack die of the wickets-in-hand rule," if attack_die else ""
    return (f"Played against the league's batters, this card takes {100 * expected:.1f} wickets a 100 "
            f"balls; its bowler took {100 * wickets / balls:.1f} ({took}). A bowler's wickets also come "
            f"from the batter's card (half of every ball is read from it),{die} and from the fielding "
            f"chart's catches, LBWs and stumpings, which this card reaches on its {f_faces} F "
            f"face{'' if f_faces == 1 else 's'} (they carry its wides, no-balls and byes too), so it "
            f"takes more than its bowler did.")


def out_note(card: Card, attack_die: bool) -> str:
    """For a qualified striker card out at least 20% (and once) more often than its batter was:
    that it is, and why (docs/calibration.md section 10: the bowler's half of every ball, the
    chart's catches and run-outs and the attack die's out faces; a Defence rating saves only the
    bowler card's W). Jamie Overton, BBL 2024-25: out twice in 122 balls, his card, rated 20, 3.5
    times a 100 balls."""
    if card.kind != "striker":
        return ""
    outs, balls = card.real.dismissals, card.real.balls
    expected = expected_figures(card).get("dismissal_rate")
    if outs is None or balls is None or expected is None \
            or balls < qualify_balls() or not _over_floor(expected, outs, balls):
        return ""
    took = f"{outs} in {balls} balls" if outs else f"never in {balls} balls"
    die = " and the attack die of the wickets-in-hand rule" if attack_die else ""
    figures = (f"Played against the league's bowlers, this card is out {100 * expected:.1f} times a "
               f"100 balls; its batter {100 * outs / balls:.1f} ({took}).")
    try:
        rated = card.defence_rating >= MAX_DEFENCE
    except CardSetError:  # a hand-edited rating the kit could not print: say nothing of it
        rated = False
    if rated:
        return (f"{figures} Its Defence {MAX_DEFENCE} saves every W read from the bowler's card, but "
                f"the fielding chart's catches and run-outs{die} dismiss a batter whatever his card "
                f"shows, so the card is out more often than he was.")
    return (f"{figures} Half of every ball is read from the bowler's card, and its W, the fielding "
            f"chart's catches and run-outs{die} dismiss a batter whatever his own card shows, so the "
            f"card is out more often than he was.")


# A striker card whose player batted mostly while his side consolidated (rules R12: a caught W
# is saved on the consolidate die) prints more W faces than his real rate looks to need: 10-18
# striker cards a shipped season have 25 or more (Sam Harper, BBL 2023-24, 23 balls: 45). Said
# on the player page so the card is not taken for a mistake.
CONSOLIDATE_NOTE_SHARE = 0.6


CONSOLIDATE_NOTE_W_FACES = 25


def consolidate_note(card: Card, card_set: CardSet) -> str:
    """For a striker card of a wickets-in-hand set with many W faces whose real balls came mostly
    in the consolidate band: why, and the dismissal rate it plays to against the real one."""
    if card.kind != "striker" or not plays_attack_die(card_set):
        return ""
    # the card's situations and the rule's parameters: typed by the model's loader
    share = card.situations.consolidate if card.situations is not None else None
    parameters = card_set.rule_parameters
    safe = parameters.consolidate_d20_safe if parameters is not None else None
    try:
        w_faces = int(card.slots()[CARD_INDEX["W"]])
    except CardSetError:
        return ""
    if share is None or safe is None or not (share >= CONSOLIDATE_NOTE_SHARE
                                             and w_faces >= CONSOLIDATE_NOTE_W_FACES):
        return ""
    expected = expected_figures(card).get("dismissal_rate")
    edge = parameters.consolidate_from_balls_per_wicket if parameters is not None else None
    when = f" ({edge:g} or more balls left for each wicket in hand)" if edge is not None else ""
    note = (f"{round(100 * share)}% of the real balls came while the batting side was consolidating"
            f"{when}, where a catch is saved on a d20 of {safe[0]}-{safe[1]} (the wickets-in-hand "
            f"rule). So this card prints {w_faces} W faces")
    outs, balls = card.real.dismissals, card.real.balls
    if expected is not None and outs is not None and balls is not None and balls > 0:
        small = "; a short stay, so the card is shrunk toward the league" if balls < qualify_balls() else ""
        note += (f": played that way it is out {100 * expected:.1f} times a 100 balls "
                 f"(real {100 * outs / balls:.1f}{small})")
    return note + "."


def plays_attack_die(card_set: CardSet) -> bool:
    """Whether the set is made for the advanced rules (`rule_sets.rules_of_set`), whose
    wickets-in-hand rule rolls the attack die; False for a set whose rules cannot be read."""
    from cardgen.rule_sets import ADVANCED, rules_of_set
    try:
        return rules_of_set(card_set) == ADVANCED
    except CardgenError:
        return False


def qualify_balls() -> int:
    """The real balls a card needs before the simulator judges it (the validator's own threshold)."""
    from cardgen.sim.validate import QUALIFY_BALLS
    return int(QUALIFY_BALLS)


def rules_summary(card_set: CardSet) -> dict[str, Any]:
    """Which rule set the kit is made for (`cardgen.rule_sets`), for the pages that show two kits
    of a season side by side: its name, its words, and the medians of its cards' errors on strike
    rate and economy (the qualified cards, calibrate.report.summary), the figure the "which should
    I print?" paragraph quotes."""
    from cardgen.calibrate.report import summary
    from cardgen.rule_sets import ADVANCED, QUICKET, TITLES, rules_of_set
    # what the set adds, beside its title
    in_short = {QUICKET: "the game as printed, nothing added",
                ADVANCED: "the printed rules plus wickets in hand and Defence"}
    try:
        rules = rules_of_set(card_set)
    except CardgenError:
        return {"rules": None, "rules_title": "", "rules_words": "", "card_median": None}
    try:
        figures = summary(card_set)
        medians = [figures[kind]["median_main_error"] for kind in ("striker", "bowler")]
        median = max(m for m in medians if m is not None) if any(m is not None for m in medians) else None
    except (KeyError, TypeError, ValueError, ZeroDivisionError):   # a hand-made set: no figure to quote
        median = None
    return {"rules": rules, "rules_title": TITLES[rules], "rules_words": in_short[rules],
            "card_median": median}


def rule_of(card_set: CardSet) -> Any:
    """The wickets-in-hand rule this set was made for, with its own attack faces (None: a set
    made for the rules as printed, or one whose rule cannot be read: the page then shows the
    standard faces)."""
    from cardgen.wickets_in_hand import rule_of_set
    try:
        return rule_of_set(card_set)
    except CardgenError:
        return None


def components(kit: KitSet, sheets: dict[str, Any]) -> list[tuple[str, str]]:
    """What a visitor needs to play this set, with the sheet counts of the real kit."""
    rows: list[tuple[str, str]] = []
    from cardgen.render.common import PAPER_LABELS
    for paper, label in PAPER_LABELS.items():
        count = sheets.get(paper)
        if not count:
            continue
        text = f"{count['whole']} sheet{'' if count['whole'] == 1 else 's'} of {label} card for every team's cards"
        if count["team_min"]:
            span = (str(count["team_min"]) if count["team_min"] == count["team_max"]
                    else f"{count['team_min']}–{count['team_max']}")
            text += f"; one team is {span} sheet{'' if span == '1' else 's'}"
        if count["backs"]:
            text += f"; printed on both sides (flip on {count['flip']} edge)"
        rows.append((f"Card stock ({label})", text + "."))
    plain: list[str] = []
    for stem, label in (("fielding-chart", "fielding chart"), ("quick-reference", "quick reference"),
                        ("team-sheets", "team sheets"), ("season-tracker", "season tracker")):
        n = next((kit.page_counts[f"{stem}-{p}.pdf"] for p in ("a4", "letter")
                  if f"{stem}-{p}.pdf" in kit.page_counts), None)  # the same pages in either paper
        if n is not None:
            plain.append(f"{label} {n} page{'' if n == 1 else 's'}")
    if any(f"scoresheet-{p}.pdf" in kit.page_counts for p in ("a4", "letter")):
        plain.append("a scoresheet for each match")
    if plain:
        rows.append(("Plain paper", ", ".join(plain).capitalize() + "."))
    rows.append(("Dice", "One d6 (which card to read), 2d10 (two ten-sided dice, tens and units, read as 1–100) "
                         "and one d20 (fielding chart and catch, run-out and stumping chances)."))
    rows.append(("Also", "Scissors, or a craft knife and a steel ruler; a pencil for the scoresheet."))
    return rows


RULES_SOURCE = "http://shortseasongames.com"


def scoresheet_shape() -> dict[str, int]:
    """What the printed scoresheet is, for the pages that describe it: grids an innings page and
    balls a grid, per format, and the scorecard's bowling rows (from the renderer and its layout,
    so the words cannot drift from the sheet)."""
    from cardgen.render.layout import load_layout
    from cardgen.render.scoresheet import GRIDS_PER_INNINGS, OVERS_PER_GRID
    return {"grids": GRIDS_PER_INNINGS, "t20_balls": OVERS_PER_GRID * 6, "hundred_balls": OVERS_PER_GRID * 5,
            "scorecard_bowlers": load_layout("sheets")["scorecard"]["bowling_rows"]}


def default_rule() -> Any:
    """The extra rule of the advanced rules, `cardgen build --rules advanced` (docs/rules.md R12)."""
    from cardgen.wickets_in_hand import RULE_NAME, rule_named
    return rule_named(RULE_NAME)


def fielding_words() -> dict[str, Any]:
    from cardgen.render.layout import load_layout
    return load_layout("fielding")
