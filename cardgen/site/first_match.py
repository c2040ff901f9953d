"""The first-match page's real replay: one match of two teams played by the Python reference
engine with the kit's own cards, every die written down, one over of it told ball by ball and
the whole match written on the kit's own scoresheet (a PDF and a PNG of its first page).

The match is the browser match page's (`cardgen.play`): each side the team sheet's usual XI
(`play.sides.usual_xi`), the computer captain's bowling plans from the seed's captain stream and
the dice from its dice stream (`play.prng`), so it is fixed by the card set and `SEED` alone.
The dice are kept by `cardgen.sim.recorded.RecordingDice`, which wraps the engine from outside.

The over told is the first one of the first innings that has a boundary (a four or a six) and a
ball read on the fielding chart (F), so the page shows both charts; failing that, the first
with a boundary; failing that, the first over.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from cardgen.calibrate.model import DEFAULT_KEEPER
from cardgen.cardset import CardSet
from cardgen.play.match import play_page_match
from cardgen.play.prng import CAPTAIN_STREAM, DICE_STREAM, SharedRandom
from cardgen.play.scorecard import overs, result_text
from cardgen.play.sides import PageSide, draw_plan, page_side, usual_xi
from cardgen.render.filled_scoresheet import BoxMark, FilledInnings, FilledSheet, render_filled_scoresheet_pdf
from cardgen.render.layout import load_layout
from cardgen.render.raster import pdf_page_png
from cardgen.sim import model as m
from cardgen.sim.model import CompiledSet, compile_card_set
from cardgen.sim.recorded import RecordedBall, RecordingDice, Roll, recorded_balls
from cardgen.sim.reference import Match
from cardgen.cache import atomic_write_bytes
from cardgen import ATTRIBUTION
from cardgen.errors import CardgenError
from cardgen.slugs import slug
from cardgen.wickets_in_hand import rule_of_set

SEED = 1            # the replay's seed (any fixed seed: the page says which)
FOLDER = "first-match"
SHEET_DPI = 150     # the page's picture of the filled sheet (its PDF is the download)
PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}
# the files every match needs besides the two teams' own, in the order the page lists them
SHARED_SHEETS = ("fielding-chart", "scoresheet", "quick-reference")
_PAPER_OF = re.compile(r"-(a4|letter)(?:-[a-z0-9-]+)?\.pdf$")   # cards-a4.pdf, cards-letter-bleed.pdf


@dataclass
class Replay:
    cs: CompiledSet
    match: Match
    bat_first: PageSide
    bat_second: PageSide
    balls: list[list[RecordedBall]]   # first innings, second innings, super overs


def play_replay(card_set: CardSet, first: str, second: str, seed: int = SEED) -> Replay:
    """`first` bats first against `second`, both with their usual XIs, as the match page plays it."""
    cs = compile_card_set(card_set)
    sides = [page_side(cs, team, *usual_xi(cs, team)) for team in (first, second)]
    captain = SharedRandom(seed, CAPTAIN_STREAM)
    dice = RecordingDice(SharedRandom(seed, DICE_STREAM))
    # the plans are drawn before each innings, outside any delivery (so no die of a ball)
    match = play_page_match(cs, sides[0], sides[1], dice, lambda _innings, side: draw_plan(cs, side, captain),
                            rule_of_set(card_set))
    innings = [match.first, match.second] + [inn for pair in match.super_overs for inn in pair]
    return Replay(cs, match, sides[0], sides[1], recorded_balls(innings, dice))


def _units(balls: list[RecordedBall], bpo: int) -> list[list[RecordedBall]]:
    """An innings' balls by over (set): a wide or no-ball belongs to the over it was bowled in."""
    units: list[list[RecordedBall]] = []
    legal = 0
    for rb in balls:
        unit = legal // bpo
        while len(units) <= unit:
            units.append([])
        units[unit].append(rb)
        legal += rb.ball.legal
    return units


def _card_code(cs: CompiledSet, bat: PageSide, rb: RecordedBall) -> int:
    """What the card read says (before any fielding chart): the d6 picks the card, the 2d10 the cell."""
    d6, roll = rb.rolls[0].value, rb.rolls[1].value
    lut = cs.bowler_lut[rb.ball.bowler] if d6 <= 3 else cs.striker_lut[bat.batters[rb.ball.striker]]
    return int(lut[roll - 1])


def chosen_over(cs: CompiledSet, bat: PageSide, units: list[list[RecordedBall]]) -> int:
    """The over the page tells (module docstring): its index in the innings."""
    def boundary(unit: list[RecordedBall]) -> bool:
        return any(rb.ball.bat_runs in (4, 6) for rb in unit)

    def chart(unit: list[RecordedBall]) -> bool:
        return any(_card_code(cs, bat, rb) == m.FIELD for rb in unit)
    for wanted in (lambda u: boundary(u) and chart(u), boundary):
        found = next((k for k, unit in enumerate(units) if wanted(unit)), None)
        if found is not None:
            return found
    return 0


def _range_of(card: Any, roll: int) -> str:
    for r in card.chart:
        if r.lo <= roll <= r.hi:
            shown = "•" if str(r.result) == "0" else str(r.result)
            return (f"{r.lo}" if r.lo == r.hi else f"{r.lo}–{r.hi}") + f": {shown}"
    return "?"


def _dice_2d10(roll: int) -> str:
    """How a 1-100 roll looks on the two d10s (00 and 0 is 100)."""
    return "tens 00, units 0: 100" if roll == 100 else f"tens {roll // 10 % 10}0, units {roll % 10}"


def _result_words(ball: Any, names: dict[str, str]) -> str:
    if ball.out_slot is not None:
        how = {"caught": f"caught by {names.get('fielder', 'a fielder')}", "run out": "run out",
               "stumped": f"stumped by {names.get('keeper', 'the keeper')}"}.get(ball.how_out, ball.how_out)
        return f"Out: {names['out']} {how}"
    if ball.extra_kind:
        kind = {"wide": "a wide", "no_ball": "a no-ball (the next ball is a free hit)", "bye": "bye",
                "leg_bye": "leg bye"}[ball.extra_kind]
        if ball.extra_kind in ("bye", "leg_bye"):
            kind = f"{ball.extras} {kind}{'s' if ball.extras > 1 else ''}"
            return f"{kind[0].upper()}{kind[1:]} (to Extras)"
        return f"{kind[0].upper()}{kind[1:]}: 1 to Extras, not one of the over's balls"
    if ball.bat_runs == 0:
        return "Dot ball"
    return {4: "Four", 6: "Six"}.get(ball.bat_runs, f"{ball.bat_runs} run{'s' if ball.bat_runs > 1 else ''}")


def explain_ball(replay: Replay, innings: int, rb: RecordedBall, label: str) -> dict[str, Any]:
    """One ball in words: each die as rolled, what it read (card and range, chart row and
    column, the fielder and his rating), the result and the score after it."""
    cs = replay.cs
    bat, bowl = (replay.bat_first, replay.bat_second) if innings == 0 else (replay.bat_second, replay.bat_first)
    ball = rb.ball
    name = lambda p: cs.player_names[p]  # noqa: E731
    striker_card = bat.batters[ball.striker]
    bowler_name = name(int(cs.bowler_player[ball.bowler]))
    striker_name = name(bat.players[ball.striker])
    fielding = load_layout("fielding")["results"]
    rolls = list(rb.rolls)
    steps: list[dict[str, str]] = []
    card_d6, pct = rolls.pop(0), rolls.pop(0)
    on_bowler = card_d6.value <= 3
    card = cs.bowler_cards[ball.bowler] if on_bowler else cs.striker_cards[striker_card]
    whose = f"the bowler's card ({bowler_name})" if on_bowler else f"the striker's card ({striker_name})"
    steps.append({"die": f"d6 {card_d6.value}", "reads": whose})
    lut = cs.bowler_lut[ball.bowler] if on_bowler else cs.striker_lut[striker_card]
    code = int(lut[pct.value - 1])
    steps.append({"die": f"2d10 {pct.value}", "reads": f"{_dice_2d10(pct.value)}; that card's {_range_of(card, pct.value)}"})
    chart_d6 = 0
    if code == m.FIELD:
        d6, d20 = rolls.pop(0), rolls.pop(0)
        chart_d6 = d6.value
        code = int(cs.fielding[d6.value - 1, d20.value - 1])
        cell = m.CODE_NAMES.get(code, str(code))
        steps.append({"die": f"d6 {d6.value}, d20 {d20.value}",
                      "reads": f"fielding chart row {d6.value}, column {d20.value}: "
                               f"{fielding.get(cell, {}).get('short', cell)}"})
    names: dict[str, str] = {"out": name(bat.players[ball.out_slot]) if ball.out_slot is not None else ""}
    drawn: list[int] = []
    if code == m.RUN_OUT_CHANCE and chart_d6 in (1, 3, 4, 6):
        drawn.append(bowl.players[bowl.keeper_slot])   # with the keeper: both ratings
    for roll in rolls:    # the rest: a fielder drawn, a chance's d20, the rules' own d20s
        steps.append(_other_roll(cs, bowl, roll, code, chart_d6, ball, drawn))
    if ball.fielders:
        names["fielder"] = name(bowl.players[ball.fielders[0]])
        names["keeper"] = name(bowl.players[bowl.keeper_slot])
    return {"label": label, "bowler": bowler_name, "striker": striker_name, "steps": steps,
            "result": _result_words(ball, names) + (" (free hit)" if ball.free_hit else ""),
            "score": f"{rb.runs}/{rb.wickets}", "out": ball.out_slot is not None,
            "boundary": ball.bat_runs in (4, 6)}


def _other_roll(cs: CompiledSet, bowl: PageSide, roll: Roll, code: int, chart_d6: int, ball: Any,
                drawn: list[int]) -> dict[str, str]:
    """A die after the card and the chart: a fielder drawn (`drawn` keeps his player index), a
    chance's d20 against a rating, or a d20 of the advanced rules."""
    out = ball.out_slot is not None
    if roll.die == "pick":
        slot = roll.value
        if code in (m.RUN_OUT, m.RUN_OUT_CHANCE) and chart_d6 in (1, 3, 4, 6):
            slot += slot >= bowl.keeper_slot   # R3: the keeper's partner is one of the other ten
        drawn.append(bowl.players[slot])
        return {"die": f"card {roll.value + 1} of {roll.deck}",
                "reads": f"fielder drawn: {cs.player_names[bowl.players[slot]]}"}
    if code == m.CATCH_CHANCE and drawn:
        rating = int(cs.catch[drawn[-1]])
        return {"die": f"d20 {roll.value}", "reads": f"catch chance, C({rating}): "
                + ("at most it, held" if out else "over it, dropped: 1 run")}
    if code == m.STUMPING_CHANCE:
        rating = int(cs.keeper[bowl.players[bowl.keeper_slot]]) or DEFAULT_KEEPER
        return {"die": f"d20 {roll.value}", "reads": f"stumping chance, the keeper's {rating}: "
                + ("at most it, stumped" if out else "over it, missed: a dot")}
    if code == m.RUN_OUT_CHANCE and drawn:
        ratings = " and ".join(f"RO({int(cs.run_out[p])})" for p in drawn)
        return {"die": f"d20 {roll.value}", "reads": f"run-out chance, {ratings}: " + ("out" if out else "not out: 1 run")}
    return {"die": f"d20 {roll.value}", "reads": "the advanced rules' d20 (wickets in hand, or the striker's Defence)"}


def _mark(ball: Any) -> str:
    """The mark a ball leaves in its box, as the sheet's notes have it (the page's `mark`)."""
    if ball.out_slot is not None:
        return "W"
    kind = ball.extra_kind
    if kind in ("wide", "no_ball"):
        return "wd" if kind == "wide" else "nb"
    if kind in ("leg_bye", "bye"):
        return ("4" if ball.extras == 4 else "") + ("lb" if kind == "leg_bye" else "b")
    return "•" if ball.bat_runs == 0 else str(ball.bat_runs)


def _how_out(cs: CompiledSet, bowl: PageSide, ball: Any) -> tuple[str, str]:
    """The scorecard's How out and Bowler cells (its notes' words)."""
    bowler = cs.player_names[int(cs.bowler_player[ball.bowler])]
    fielder = (lambda k: cs.player_names[bowl.players[ball.fielders[k]]])  # noqa: E731
    if ball.how_out == "caught":
        if bowl.players[ball.fielders[0]] == int(cs.bowler_player[ball.bowler]):
            return "c & b", bowler
        return f"c {fielder(0)}", bowler
    if ball.how_out == "stumped":
        return f"st {fielder(0)}", bowler
    if ball.how_out == "run out":
        return "run out (" + " / ".join(fielder(k) for k in range(len(ball.fielders))) + ")", ""
    return {"bowled": "b", "lbw": "lbw"}.get(ball.how_out, ball.how_out), bowler


@dataclass
class _Tally:
    """One innings written down ball by ball, as a scorer keeps it: the raw stuff of the
    scoresheet's cells (`_filled_innings` turns them into text)."""
    cs: CompiledSet
    bowl: PageSide
    marks: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # (box, row) -> its marks
    outs: set[tuple[int, int]] = field(default_factory=set)  # the boxes of a wicket
    # each batter in so far (slot) -> runs, balls, 4s, 6s
    lines: dict[int, list[int]] = field(default_factory=lambda: {0: [0, 0, 0, 0], 1: [0, 0, 0, 0]})
    came_in: list[int] = field(default_factory=lambda: [0, 1])
    how: dict[int, tuple[str, str]] = field(default_factory=dict)  # slot -> How out, Bowler
    fall: list[tuple[str, ...]] = field(default_factory=list)
    spells: dict[int, int] = field(default_factory=dict)  # bowler card -> spells begun
    heads: list[tuple[int, str]] = field(default_factory=list)  # (over, bowler (spell)) atop the grid
    figures: dict[int, dict[str, Any]] = field(default_factory=dict)  # bowler card -> his figures
    runs_balls: list[tuple[int, int, str]] = field(default_factory=list)  # (grid, slot, "R(B)")
    in_grid: set[int] = field(default_factory=set)  # slots batting in the grid in progress
    legal: int = 0
    runs: int = 0
    wickets: int = 0
    extras: dict[str, int] = field(default_factory=lambda: {"bye": 0, "leg_bye": 0, "wide": 0, "no_ball": 0})

    def add(self, ball: Any, last: bool) -> None:
        """The ball `ball` (`last`: the innings' last) in every cell it changes."""
        bpo = self.cs.fmt.balls_per_over
        unit = self.legal // bpo
        if self.legal % bpo == 0 and (not self.heads or self.heads[-1][0] != unit):
            self._head(ball.bowler, unit)
        f = self.figures.setdefault(ball.bowler, {"units": {}, "legal": 0, "wickets": 0, "wides": 0,
                                                  "no_balls": 0, "dots": 0})
        charged = ball.bat_runs + (ball.extras if ball.extra_kind in ("wide", "no_ball") else 0)
        f["units"][unit] = f["units"].get(unit, 0) + charged
        # a run-out of the non-striker: the striker's box gets the ball's runs (none), the W goes
        # in the row of the batter out
        self.marks.setdefault((self.legal, ball.striker), []).append(
            _mark(ball) if ball.out_slot in (None, ball.striker) else "•")
        self.in_grid.update({ball.striker} | ({ball.out_slot} if ball.out_slot is not None else set()))
        self._score(ball, f)
        if ball.legal:
            self.legal += 1
            f["legal"] += 1
            f["dots"] += charged == 0
        if ball.out_slot is not None:
            self._wicket(ball, f)
        if last or (ball.legal and self.legal % (5 * bpo) == 0):
            self._end_grid(5 * bpo)

    def _head(self, bowler: int, unit: int) -> None:
        """Over (set) `unit` begins: its bowler's name and spell head its column."""
        self.spells[bowler] = self.spells.get(bowler, 0) + 1
        self.heads.append((unit, f"{self.cs.player_names[int(self.cs.bowler_player[bowler])]} "
                                 f"({self.spells[bowler]})"))

    def _score(self, ball: Any, f: dict[str, Any]) -> None:
        """The ball's runs: the striker's line, the extras and the total."""
        line = self.lines[ball.striker]
        line[0] += ball.bat_runs
        line[1] += ball.extra_kind != "wide"
        line[2] += ball.bat_runs == 4
        line[3] += ball.bat_runs == 6
        if ball.extra_kind:
            self.extras[ball.extra_kind] += ball.extras
            f["wides" if ball.extra_kind == "wide" else "no_balls"] += (
                ball.extras if ball.extra_kind in ("wide", "no_ball") else 0)
        self.runs += ball.bat_runs + ball.extras

    def _wicket(self, ball: Any, f: dict[str, Any]) -> None:
        """A batter out: his box, How out, the fall of wicket and the next batter in."""
        self.wickets += 1
        box = (self.legal - ball.legal, ball.out_slot)
        self.outs.add(box)
        self.marks.setdefault(box, ["W"])
        self.how[ball.out_slot] = _how_out(self.cs, self.bowl, ball)
        f["wickets"] += ball.how_out != "run out"
        bpo = self.cs.fmt.balls_per_over
        at = _overs(self.legal, bpo) if self.cs.fmt.name == "T20" else str(self.legal)
        self.fall.append((f"{self.runs}", at, str(ball.out_slot + 1)))
        if len(self.came_in) < 11:
            self.lines[len(self.came_in)] = [0, 0, 0, 0]
            self.came_in.append(len(self.came_in))

    def _end_grid(self, grid_balls: int) -> None:
        """R(B): each batter's runs (balls) so far, against those who batted in this grid."""
        grid = (self.legal - 1) // grid_balls
        self.runs_balls += [(grid, slot, f"{self.lines[slot][0]}({self.lines[slot][1]})")
                            for slot in sorted(self.in_grid)]
        self.in_grid = set()


def _filled_innings(cs: CompiledSet, bat: PageSide, bowl: PageSide, balls: list[RecordedBall],
                    target: int | None) -> FilledInnings:
    bpo = cs.fmt.balls_per_over
    name = lambda p: cs.player_names[p]  # noqa: E731
    tally = _Tally(cs, bowl)
    for i, rb in enumerate(balls):
        tally.add(rb.ball, i + 1 == len(balls))
    boxes = tuple(BoxMark(box, row, " ".join(texts), (box, row) in tally.outs)
                  for (box, row), texts in tally.marks.items())
    total_extras = sum(tally.extras.values())
    shown_overs = _overs(tally.legal, bpo) if cs.fmt.name == "T20" else str(tally.legal)
    keeper = name(bat.players[bat.keeper_slot])
    extras = tally.extras
    return FilledInnings(
        team=bat.team, keeper=keeper, batters=tuple(name(p) + (" \u2020" if s == bat.keeper_slot else "")
                                                    for s, p in enumerate(bat.players)),
        bowlers=tuple(tally.heads), boxes=boxes, runs_balls=tuple(tally.runs_balls), extras=str(total_extras),
        total=str(tally.runs), wickets=str(tally.wickets), balls=str(tally.legal),
        target="" if target is None else str(target), batting=_batting_rows(cs, bat, tally),
        extras_cells=(str(extras["bye"]), str(extras["leg_bye"]), str(extras["wide"]), str(extras["no_ball"])),
        total_cells=(str(tally.wickets), shown_overs), extras_total=str(total_extras), runs_total=str(tally.runs),
        fall=tuple(tally.fall), bowling=_bowling_rows(cs, balls, tally.figures))


def _batting_rows(cs: CompiledSet, bat: PageSide, tally: _Tally) -> tuple[tuple[str, ...], ...]:
    """The scorecard's batting rows: number, name († the keeper), How out, Bowler, R, B, 4s, 6s."""
    batting = []
    for slot, player in enumerate(bat.players):
        label = cs.player_names[player] + (" \u2020" if slot == bat.keeper_slot else "")
        if slot in tally.came_in:
            out, bowler = tally.how.get(slot, ("not out", ""))
            r, b, fours, sixes = tally.lines[slot]
            batting.append((str(slot + 1), label, out, bowler, str(r), str(b), str(fours), str(sixes)))
        else:
            batting.append((str(slot + 1), label, "did not bat", "", "", "", "", ""))
    return tuple(batting)


def _bowling_rows(cs: CompiledSet, balls: list[RecordedBall],
                  figures: dict[int, dict[str, Any]]) -> tuple[tuple[str, ...], ...]:
    """The scorecard's bowling rows, in the order they bowled: name, runs in each of the first
    four overs (sets), overs and maidens (T20) or balls and dots, runs, wickets, wides, no-balls."""
    bpo = cs.fmt.balls_per_over
    bowling = []
    for card, f in figures.items():
        per_unit = [str(v) for v in f["units"].values()][:4]
        per_unit += [""] * (4 - len(per_unit))
        spent = sum(f["units"].values())
        if cs.fmt.name == "T20":
            maidens = sum(1 for u, v in f["units"].items() if v == 0 and _unit_legal(balls, bpo, u) == bpo)
            work = [_overs(f["legal"], bpo), str(maidens)]
        else:
            work = [str(f["legal"]), str(f["dots"])]
        bowling.append((cs.player_names[int(cs.bowler_player[card])], *per_unit, *work, str(spent),
                        str(f["wickets"]), str(f["wides"]), str(f["no_balls"])))
    return tuple(bowling)


def _overs(legal: int, bpo: int) -> str:
    """Overs as a scorer writes them: 20, 3.4."""
    return overs(legal, bpo) if legal % bpo else str(legal // bpo)


def _unit_legal(balls: list[RecordedBall], bpo: int, unit: int) -> int:
    """Legal balls bowled in one over (set) of an innings."""
    units = _units(balls, bpo)
    return sum(rb.ball.legal for rb in units[unit]) if unit < len(units) else 0


def filled_sheet(replay: Replay, match_name: str) -> FilledSheet:
    """The replay's two innings as a scorer writes them on the kit's scoresheet (a super over,
    if any, goes on paper of its own: the sheet has room for the two innings)."""
    cs = replay.cs
    first = _filled_innings(cs, replay.bat_first, replay.bat_second, replay.balls[0], None)
    second = _filled_innings(cs, replay.bat_second, replay.bat_first, replay.balls[1], replay.match.first.runs + 1)
    return FilledSheet(match=match_name, date=f"replay, seed {SEED}",
                       result=result_text(cs, replay.match, replay.bat_first, replay.bat_second),
                       innings=(first, second))


def write_first_match(card_set: CardSet, set_name: str, teams: tuple[str, str], site_root: Path,
                      papers: tuple[str, ...] = ("a4",)) -> dict[str, Any]:
    """Play the replay of `teams` (the first bats first), write the filled scoresheet (a PDF
    per paper, a PNG of its first page) under `site_root`/first-match/, and return what the
    page shows: the worked over ball by ball, the pictures and the downloads."""
    replay = play_replay(card_set, *teams)
    cs = replay.cs
    bpo = cs.fmt.balls_per_over
    units = _units(replay.balls[0], bpo)
    k = chosen_over(cs, replay.bat_first, units)
    before = replay.balls[0][replay.balls[0].index(units[k][0]) - 1] if k else None
    worked, legal = [], 0
    for rb in units[k]:
        label = (f"{k + 1}.{legal + 1}" if rb.ball.legal else
                 f"{k + 1}.{legal + 1} ({'wide' if rb.ball.extra_kind == 'wide' else 'no-ball'})")
        worked.append(explain_ball(replay, 0, rb, label))
        legal += rb.ball.legal
    sheet = filled_sheet(replay, f"{teams[0]} v {teams[1]}")
    credit = card_set.attribution or ATTRIBUTION
    folder = site_root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    downloads = []
    png = None
    for paper in papers:
        pdf = render_filled_scoresheet_pdf(card_set, paper, credit, sheet)
        name = f"{slug(set_name)}-first-match-scoresheet-filled-{paper}.pdf"
        atomic_write_bytes(folder / name, pdf)
        downloads.append({"href": f"{FOLDER}/{name}", "name": name, "paper": PAPER_LABELS.get(paper, paper),
                          "size": len(pdf)})
        if png is None:
            data = pdf_page_png(pdf, SHEET_DPI, 1)
            png_name = f"{slug(set_name)}-first-match-scoresheet-filled-page-1.png"
            atomic_write_bytes(folder / png_name, data)
            with Image.open(io.BytesIO(data)) as image:
                png = {"src": f"{FOLDER}/{png_name}", "size": list(image.size)}
    bowler = worked[0]["bowler"]
    return {"seed": SEED, "first": teams[0], "second": teams[1], "over": k + 1,
            "unit": "over" if cs.fmt.name == "T20" else "set", "bowler": bowler,
            "score_before": f"{before.runs}/{before.wickets}" if before else "0/0",
            "score_after": worked[-1]["score"], "balls": worked, "result": sheet.result,
            "first_total": f"{replay.match.first.runs}/{replay.match.first.wickets}",
            "second_total": f"{replay.match.second.runs}/{replay.match.second.wickets}",
            "super_overs": len(replay.match.super_overs), "png": png, "downloads": downloads}


def for_site(record: dict[str, Any], card_set: CardSet | None, site_root: Path) -> dict[str, Any] | None:
    """The first-match page's replay of a set's first two teams (`record`: the set as the pages
    above it see it); None when they cannot take the field (a hand-made set without the team
    sheet's XIs): the page then goes without the worked over and the filled sheet."""
    teams = [str(t[0]) for t in record.get("teams", [])][:2]
    if len(teams) < 2 or card_set is None:
        return None
    shipped = {d["relpath"] for d in record.get("downloads", [])}
    papers = tuple(p for p in ("a4", "letter") if f"scoresheet-{p}.pdf" in shipped) or ("a4",)
    try:
        return write_first_match(card_set, str(record["name"]), (teams[0], teams[1]), site_root, papers)
    except CardgenError:
        return None


def paper_of(relpath: str) -> str | None:
    """The paper a kit's PDF is printed on ("a4", "letter"), from its name; None for neither."""
    found = _PAPER_OF.search(relpath.rsplit("/", 1)[-1])
    return found.group(1) if found else None


def what_to_print(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The first-match page's checklist, once per paper the set was printed on (A4 first, then
    US Letter): the first two teams' own PDFs, then the fielding chart, scoresheet and quick
    reference, each {"relpath", "name" (what it saves as), "label", "pages", "cards"}. A team
    without files of its own gets {"team", "page"} instead: the page then points to its team
    page. A PDF that names no paper is listed under every paper."""
    named = record.get("named", {})
    teams = [record["team_info"][tslug] for _, tslug in record.get("teams", [])[:2]
             if tslug in record.get("team_info", {})]
    shared = [d for sheet in SHARED_SHEETS for d in record.get("downloads", [])
              if d["relpath"] in (f"{sheet}-a4.pdf", f"{sheet}-letter.pdf")]
    papers = [p for p in PAPER_LABELS
              if any(paper_of(d["relpath"]) == p for t in teams for d in t["downloads"])
              or any(paper_of(d["relpath"]) == p for d in shared)] or ["a4"]
    lists = []
    for paper in papers:
        files: list[dict[str, Any]] = []
        for team in teams:
            own = [d for d in team["downloads"] if d["relpath"].endswith(".pdf")]
            if not own:
                files.append({"team": team["name"], "page": team["page"]})
            files += [_entry(d, named, team.get("pages", {})) for d in own if paper_of(d["relpath"]) in (paper, None)]
        files += [_entry(d, named, record.get("pages", {})) for d in shared if paper_of(d["relpath"]) == paper]
        lists.append({"paper": paper, "label": PAPER_LABELS[paper], "files": files})
    return lists


def _entry(download: dict[str, Any], named: dict[str, str], pages: dict[str, int]) -> dict[str, Any]:
    rel = download["relpath"]
    return {"relpath": rel, "name": named[rel], "label": download["label"],
            "pages": pages.get(rel), "cards": "cards" in rel.rsplit("/", 1)[-1]}
