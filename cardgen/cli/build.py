"""`cardgen build`: the printable kit for a competition season."""
from __future__ import annotations

import functools
import gc
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardgen.cli import (check_season_format, FolderPath, competition_options, friendly_errors, out_option,
                         refuse_other_rules, resolve, rules_option)
from cardgen.competitions import Competition
from cardgen.errors import CardgenError
from cardgen.games import DEFAULT_GAME, game_codes

if TYPE_CHECKING:
    from cardgen.cardset import Card, CardSet, Player


def _season_options(func):  # type: ignore[no-untyped-def]
    """--competition/--season/--source, optional here: systems without real players need none,
    and --all takes several competitions (or none: every one)."""
    func = competition_options(func)
    for i, param in enumerate(func.__click_params__):
        if param.name == "competition":
            func.__click_params__[i] = click.Option(
                ["--competition", "-c"], multiple=True, metavar="CODE",
                help="Competition code or alias, e.g. BBL, HUNDRED, IPL (see `cardgen competitions`); "
                     "with --all, only these (repeat for more).")
        elif param.name == "season":
            param.required = False
    return func


def _build_game(code: str, competition: str | None, season: str | None, source: str | None,
                out_dir: Path, papers: tuple[str, ...], ink_saver: bool, seed: int | None) -> None:
    """A non-Quicket system's kit, through the games registry."""
    from cardgen.games import get_game
    from cardgen.games.base import BuildRequest
    system = get_game(code)
    if system.uses_real_players and not (competition and season):
        raise CardgenError(f"{code} uses real players: give --competition and --season")
    comp: Competition | None = None
    if competition and season:
        comp, season = resolve(competition, season)
        check_season_format(comp, season, source)
    else:
        season = None
    started = time.perf_counter()
    req = BuildRequest(out_dir=out_dir, comp=comp, season=season, source=source, papers=papers,
                       seed=seed or 0, ink_saver=ink_saver)
    files = system.build(req)
    click.echo(f"wrote {len(files)} files for {system.name} to {system.kit_folder(req)} "
               f"in {time.perf_counter() - started:.1f} s")
    _report_preflight(system.kit_folder(req))
    from cardgen.render.start_here import START_HERE
    if (system.kit_folder(req) / START_HERE).is_file():  # as a Quicket kit ends (helper-51)
        click.echo(f"what to print, and how: {system.kit_folder(req) / START_HERE}")


def rules_lines(card_set: CardSet, comp: Competition, season: str) -> list[str]:
    """What build says about the rules: which set the cards are for, and how to make the other."""
    from cardgen.rule_sets import QUICKET, rules_of_set
    rules = rules_of_set(card_set)
    command = f"cardgen build -c {comp.code} -s {season}"
    if rules == QUICKET:
        return ["rules: the cards are made for the Quicket rules as printed; for the advanced rules "
                f"(wickets in hand and Defence, whole matches that score like the real season): "
                f"{command} --rules advanced"]
    from cardgen.wickets_in_hand import rule_of_set
    rule = rule_of_set(card_set)
    line = rule.chase_line if rule is not None else None
    with_line = "" if line is None else (
        f" with the chase line {','.join(f'{e:g}' for e in line.rate_edges)}/"
        f"{','.join(str(h) for h in line.hand_edges)}/{','.join(line.letters())} (printed on the "
        f"scoresheet's second-innings page, the rules sheet and the quick reference)")
    return [f"rules: the cards are made for the advanced rules (wickets in hand and Defence){with_line}; "
            f"for the rules as printed: {command}"]


# a young generation of this many objects before a garbage collection (Python's default is 700):
# a build loads hundreds of thousands of long-lived objects (renderers, the card set, pandas) and
# each collection walked them again (0.1-0.2 s of CPU before the workers start)
YOUNG_OBJECTS_PER_COLLECTION = 7000


def _fewer_collections(func):  # type: ignore[no-untyped-def]
    """Run the command with YOUNG_OBJECTS_PER_COLLECTION, then restore the thresholds."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        before = gc.get_threshold()
        gc.set_threshold(max(before[0], YOUNG_OBJECTS_PER_COLLECTION), *before[1:])
        try:
            return func(*args, **kwargs)
        finally:
            gc.set_threshold(*before)
    return wrapper


@click.command("build")
@_season_options
@click.option("--game", type=click.Choice(game_codes()), default=DEFAULT_GAME, show_default=True,
              help="Which tabletop system's kit to print (quicket: the calibrated card sets).")
@out_option
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True,
              help="Paper size of the kit's PDFs: a4, letter, or both (every sheet in both sizes); "
                   "each file names its paper (scoresheet-a4.pdf, scoresheet-letter.pdf).")
@click.option("--team", default=None, metavar="NAME", help="Print one team only (name or short name).")
@click.option("--bleed", is_flag=True,
              help="Give every card its own bleed, 8 to a landscape sheet (3 mm on A4, 1.5 mm on Letter, "
                   "so the crop marks stay printable).")
@click.option("--bleed-mm", "bleed_mm", type=click.FloatRange(min=0.5, max=4.5), default=None, metavar="MM",
              help="Bleed of this width instead (implies --bleed), e.g. 3.2 for a US print shop's 1/8 in: "
                   "each paper takes the most cards a sheet that leave the crop marks printable "
                   "(3.2 mm: 8 on A4, 6 on Letter).")
@click.option("--ink-saver", is_flag=True, help="Outlines only: no filled areas.")
@click.option("--backs", is_flag=True, help="Add card backs after each sheet, mirrored for duplex printing.")
@click.option("--solid-backs", is_flag=True, help="Backs in solid team colour (default: light backs, under 15% ink).")
@click.option("--variants", is_flag=True,
              help="Also print the whole set's card sheets three more ways, each its own file beside the "
                   "plain one: low ink (cards-a4-ink-saver.pdf), with bleed for a print shop "
                   "(cards-a4-bleed.pdf) and with backs for duplex (cards-a4-backs.pdf); the site offers them.")
@click.option("--team-per-sheet", is_flag=True, help="Start every team on a new card sheet (default: pack full sheets).")
@click.option("--no-images", is_flag=True, help="Skip the card PNGs and Tabletop Simulator sheets.")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Seed for the calibration (when it draws random numbers; output is deterministic).")
@click.option("--card-set", "card_set_path", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="Print an existing card-set.json instead of calibrating the season.")
@click.option("--league", "league_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Build a league of your own from FILE instead of a season "
                                   "(the same as `cardgen league FILE`; docs/league.md).")
@click.option("--all", "all_seasons", is_flag=True,
              help="Every T20 and 100-ball season of the source, several at once, then their site: "
                   "the same as `cardgen catalogue` (with --competition, --since, --jobs; docs/catalogue.md).")
@click.option("--since", type=click.IntRange(1800, 2200), default=None, metavar="YEAR",
              help="With --all: only the seasons that start in YEAR or later.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="With --all: seasons built at once (default: the cores).")
@click.option("--chase-line", "chase_line", default=None, metavar="EDGES/HANDS/ROWS",
              help="With --rules advanced: cards calibrated for this chase line, printed on the "
                   "scoresheet, the rules sheet and the quick reference and played by the match page "
                   "(issue 41: in a chase the band read from runs needed a ball x wickets in hand; "
                   "A attack, N normal, C consolidate, T the table), e.g. 2,2.5/6/TT,AC,AA.")
@rules_option
@friendly_errors
@_fewer_collections
def build(competition: tuple[str, ...], season: str | None, source: str | None, out_dir: Path, paper: str,
          team: str | None, bleed: bool, ink_saver: bool, backs: bool, solid_backs: bool, team_per_sheet: bool,
          no_images: bool, seed: int | None, card_set_path: Path | None, game: str, rules: str | None,
          league_file: Path | None = None, bleed_mm: float | None = None, all_seasons: bool = False,
          since: int | None = None, jobs: int | None = None, variants: bool = False,
          chase_line: str | None = None) -> None:
    """Write the print-and-play kit to OUT/<CODE>_<season>/: START-HERE.txt (what to print, and
    how), card sheets (A4, Letter), fielding chart, scoresheet, team sheets, quick reference, season
    tracker, card-set.json, each team's own sheets (teams/), card PNGs and TTS deck sheets.

    The cards are made for the Quicket rules as printed; --rules advanced makes them for the
    advanced rules (wickets in hand and Defence) instead, in OUT/<CODE>_<season>-advanced/ with
    a rules sheet; --chase-line adds a chase line to those rules (`cardgen simulate --chase-line`
    measures one).

    --game prints another tabletop system's kit instead, to OUT/<system>/ (with a season's
    players, OUT/<system>/<CODE>_<season>/; --competition and --season only where the system uses
    real players). --all builds every season of the source (`cardgen catalogue`)."""
    given = locals()
    if all_seasons:
        _build_all(given)
        return
    if league_file is not None:
        _build_league(league_file, given)
        return
    catalogue_only = [flag for name, flag in (("since", "--since"), ("jobs", "--jobs")) if given[name] is not None]
    if catalogue_only or len(competition) > 1:
        what = ", ".join(catalogue_only) or "several --competition"
        raise click.UsageError(f"{what}: for --all (every season of the source); one season's kit "
                               f"takes one --competition and its --season")
    _refuse_other_games(game, team, rules, given)
    code = competition[0] if competition else None
    papers = ("a4", "letter") if paper == "both" else (paper,)
    if game != DEFAULT_GAME:
        _build_game(game, code, season, source, out_dir, papers, ink_saver, seed)
        return
    if not (code and season):
        raise CardgenError("which season? give --competition and --season, e.g. cardgen build "
                           "--competition BBL --season 2024-25 (`cardgen competitions` lists them), "
                           "or --all for every season of --source")
    if seed is not None:
        click.echo("note: the calibration is deterministic; --seed changes nothing", err=True)
    from cardgen.catalogue.season import KitSettings
    from cardgen.rule_sets import DEFAULT_RULES
    _check_chase_line(chase_line, rules, card_set_path)
    settings = KitSettings(rules=rules or DEFAULT_RULES, papers=papers, images=not no_images, team=team,
                           bleed=bleed, bleed_mm=bleed_mm, ink_saver=ink_saver, backs=backs,
                           solid_backs=solid_backs, team_per_sheet=team_per_sheet, variants=variants,
                           chase_line=chase_line or "")
    _build_season_kit(code, season, source, out_dir, settings, card_set_path, rules)


def _check_chase_line(chase_line: str | None, rules: str | None, card_set_path: Path | None) -> None:
    """--chase-line in one line when it cannot be built: a bad spec, the rules as printed (the
    line is a rule of the advanced rules), or a --card-set (which records its own rules)."""
    if chase_line is None:
        return
    from cardgen.rule_sets import ADVANCED
    from cardgen.wickets_in_hand import chase_line_of_words
    try:
        chase_line_of_words(chase_line)
    except CardgenError as exc:
        raise click.BadParameter(str(exc), param_hint="'--chase-line'") from None
    if card_set_path is not None:
        raise click.UsageError("--chase-line calibrates the season's cards for the line; a --card-set "
                               "is printed by the rules it records (leave one of them out)")
    if rules != ADVANCED:
        raise click.UsageError("--chase-line is a rule of the advanced rules: give --rules advanced")


def _refuse_other_games(game: str, team: str | None, rules: str | None, given: dict[str, Any]) -> None:
    """--team and --rules and the card layout options are the Quicket kit's: refused, in one
    line, for another system's (they were ignored without a word)."""
    if team is not None and not team.strip():
        raise click.BadParameter("give a team's name or short name (leave --team out for every team)",
                                 param_hint="'--team'")
    if game == DEFAULT_GAME:
        return
    if team is not None:
        raise click.BadParameter(f"one team is printed from the {DEFAULT_GAME} card sets only; the "
                                 f"{game} kit is printed whole (leave --team out)", param_hint="'--team'")
    if rules is not None:
        raise click.BadParameter(f"the rules are chosen for the {DEFAULT_GAME} cards; the {game} kit "
                                 f"prints its own game (leave --rules out)", param_hint="'--rules'")
    quicket_only = [flag for name, flag in QUICKET_ONLY if given.get(name) not in (None, False, ())]
    if quicket_only:
        raise click.UsageError(f"{', '.join(quicket_only)}: for the {DEFAULT_GAME} kit only; the "
                               f"{game} kit has its own cards and layout (leave "
                               f"{'it' if len(quicket_only) == 1 else 'them'} out)")


QUICKET_ONLY = (("card_set_path", "--card-set"), ("bleed", "--bleed"), ("bleed_mm", "--bleed-mm"),
                ("backs", "--backs"), ("solid_backs", "--solid-backs"), ("team_per_sheet", "--team-per-sheet"),
                ("variants", "--variants"), ("chase_line", "--chase-line"))


def _build_season_kit(code: str, season: str, source: str | None, out_dir: Path, settings: Any,
                      card_set_path: Path | None, rules: str | None) -> None:
    """One season's Quicket kit, by the function every season of a catalogue is built by
    (`catalogue.season.build_season`), always built, and what it holds said."""
    from dataclasses import replace

    from cardgen.catalogue.season import BuildRequest, build_season
    from cardgen.stats.tables import SeasonStats
    comp, season = resolve(code, season)
    card_set = None
    if card_set_path is not None:  # made for its own rules: a --rules that names the other is refused
        from cardgen.cardset import load_card_set
        from cardgen.rule_sets import rules_of_set
        model = load_card_set(card_set_path)
        refuse_other_rules(model, rules, str(card_set_path))
        settings = replace(settings, rules=rules_of_set(model))
        card_set = model.to_json()  # as a document: --names corrects it before the kit reads it

    def tables(stats: SeasonStats) -> None:  # how much of the season Cricsheet had (issue 11)
        from cardgen.stats.load import attributes_text, coverage, coverage_text
        click.echo(coverage_text(comp, season, coverage(stats.matches)))
        click.echo(attributes_text(stats.attributes))
        for line in renamed_team_lines(stats.matches):
            click.echo(line, err=True)
    built = build_season(comp, season, source, out_dir, settings,
                         BuildRequest(force=True, progress=True, workers=None, card_set=card_set, on_tables=tables))
    assert built.kit is not None and built.card_set is not None  # a forced build is built or raises
    _report_season_kit(built.kit, built.card_set, comp, season, settings.team, built.seconds)


def _report_season_kit(result: Any, card_set: CardSet, comp: Any, season: str, team: str | None,
                       seconds: float) -> None:
    click.echo(f"wrote {result.cards} cards, {len(result.files)} files to {result.folder} in {seconds:.1f} s")
    for line in rules_lines(card_set, comp, season):
        click.echo(line)
    for line in deckless_team_lines(card_set, team):
        click.echo(line, err=True)
    for line in season_identity_lines(card_set, team):
        click.echo(line)
    if result.kept:
        click.echo(f"kept {len(result.kept)} file(s) already in the folder that the build does not "
                   f"write ({', '.join(result.kept[:3])}{', ...' if len(result.kept) > 3 else ''})")
    for report in result.dropped_reports:
        click.echo(f"removed the old {report}/ report: it described the previous cards "
                   f"(run `cardgen {'validate' if report == 'validation' else report}` again)")
    # the kit checked each PDF as it wrote it (in its workers): the same check as `cardgen preflight`
    _report_preflight(result.folder, (result.pdfs, result.problems) if result.problems is not None else None)
    from cardgen.render.start_here import START_HERE
    click.echo(f"what to print, and how: {result.folder / START_HERE}")


# what `build --all` passes on to `cardgen catalogue`; every other option of build's prints one
# season's kit and is refused with --all rather than ignored
ALL_PASSES_ON = ("source", "out_dir", "paper", "no_images", "rules", "since", "jobs")
ALL_REFUSES = (("season", "--season"), ("team", "--team"), ("bleed", "--bleed"), ("bleed_mm", "--bleed-mm"),
               ("ink_saver", "--ink-saver"), ("backs", "--backs"), ("solid_backs", "--solid-backs"),
               ("team_per_sheet", "--team-per-sheet"), ("seed", "--seed"), ("card_set_path", "--card-set"),
               ("league_file", "--league"), ("variants", "--variants"), ("chase_line", "--chase-line"))


def _build_all(given: dict[str, Any]) -> None:
    """`cardgen build --all`: `cardgen catalogue` with build's --competition (several), --since,
    --jobs, --source, --out, --paper, --no-images and --rules; the options of one season's kit
    are refused in one line."""
    refused = [flag for name, flag in ALL_REFUSES if given.get(name) not in (None, False, ())]
    if given.get("game") != DEFAULT_GAME:
        refused.append("--game")
    if refused:
        raise click.UsageError(f"{', '.join(refused)}: for one season's kit; --all builds every season "
                               f"of the source as `cardgen catalogue` does (leave "
                               f"{'it' if len(refused) == 1 else 'them'} out with --all)")
    ctx = click.get_current_context()
    from cardgen.cli.catalogue import catalogue
    ctx.invoke(catalogue, competitions=given["competition"], site_dir=None, no_site=False,
               **{k: given[k] for k in ALL_PASSES_ON})


# what `build --league` passes on to `cardgen league`; every other option of build's prints a
# season's kit and is refused with a league file rather than ignored
LEAGUE_PASSES_ON = ("source", "out_dir", "paper", "no_images", "rules")
SEASON_ONLY = (("competition", "--competition"), ("season", "--season"), ("team", "--team"),
               ("bleed", "--bleed"), ("bleed_mm", "--bleed-mm"), ("ink_saver", "--ink-saver"), ("backs", "--backs"),
               ("solid_backs", "--solid-backs"), ("team_per_sheet", "--team-per-sheet"),
               ("seed", "--seed"), ("card_set_path", "--card-set"), ("variants", "--variants"),
               ("chase_line", "--chase-line"))


def _build_league(league_file: Path, given: dict[str, Any]) -> None:
    """`cardgen build --league FILE`: `cardgen league FILE` with build's --out, --paper,
    --no-images, --rules and --source. The league command is found through the command group
    (not imported: cli.league already reads this module)."""
    refused = [flag for name, flag in SEASON_ONLY if given.get(name) not in (None, False, ())]
    if given.get("game") != DEFAULT_GAME:
        refused.append("--game")
    if refused:
        raise click.UsageError(f"{', '.join(refused)}: for a season's kit; a league file names its "
                               f"own seasons and sides (leave {'it' if len(refused) == 1 else 'them'} "
                               f"out with --league)")
    ctx = click.get_current_context()
    league = ctx.find_root().command.get_command(ctx, "league")  # type: ignore[attr-defined]
    if league is None:  # build run as a command of its own, outside the cardgen group
        from cardgen.cli import main
        league = main.get_command(ctx, "league")
    ctx.invoke(league, file=league_file, **{k: given[k] for k in LEAGUE_PASSES_ON})


def renamed_team_lines(matches: Any) -> list[str]:
    """A note per pair of the season's teams that look like one team renamed mid-season
    (`stats.renamed_teams`): the kit prints them as two teams; the note says how to make them one."""
    from cardgen.stats.renamed_teams import renamed_teams
    return [f"note: {r.first!r} (to {r.first_to}) and {r.then!r} (from {r.then_from}) look like one team "
            f"renamed: the kit prints them as two teams; to make them one, give the competition's entry "
            f"in your competitions file team_aliases = {{\"{r.longer}\" = \"{r.shorter}\"}}"
            for r in renamed_teams(matches)]


def season_identity_lines(card_set: CardSet, team: str | None = None) -> list[str]:
    """The count of cards whose identity came from the season alone (no attribute row fits:
    `cardgen.stats.identity`), then a line per such player: what the card prints and why. With
    --team, only the printed team's."""
    short_names = {t.name: t.short_name for t in card_set.teams}

    def printed(card: Card) -> bool:
        if team is None:
            return True
        return team.casefold() in (str(card.team).casefold(), str(short_names.get(card.team)).casefold())
    cards = [c for c in card_set.cards if printed(c)]
    alone = [c for c in cards if c.player.extra.get("identity") == "season"]
    if not alone:
        return [f"identity from the season alone: none of the {len(cards)} cards (every player "
                f"matched a source row that fits the season)"]
    players: dict[tuple[str, str], Player] = {}
    for card in alone:
        players.setdefault((card.team, card.player.id), card.player)
    lines = [f"identity from the season alone: {len(alone)} of {len(cards)} cards, {len(players)} "
             f"player{'s' if len(players) != 1 else ''} whom no source row fits: their cards print "
             f"the nation of the team's country and the roles they had this season"]
    for (team_name, _), player in sorted(players.items(), key=lambda kv: (kv[0][0], kv[1].name)):
        nation = player.country or "no nation"
        lines.append(f"  {player.name} ({team_name}, {nation}): "
                     f"{player.extra.get('identity_note') or 'no source describes the player'}")
    return lines


def deckless_team_lines(card_set: CardSet, team: str | None = None) -> list[str]:
    """A line per team of the season that cannot take the field: no striker or no bowler card
    (a tiny season whose only match for the team was a no result without a ball). The kit
    printed nothing for it and said nothing, while its tracker still lists the team's
    fixtures. With --team, only the printed team's."""
    kinds = {(c.team, c.kind) for c in card_set.cards}
    lines = []
    for entry in card_set.teams:
        name = entry.name
        if team is not None and team.casefold() not in (str(name).casefold(), str(entry.short_name).casefold()):
            continue
        lacking = [kind for kind in ("striker", "bowler") if (name, kind) not in kinds]
        if len(lacking) == 2:
            lines.append(f"note: {name} has no cards: it neither batted nor bowled in the season's files "
                         f"(no ball in its matches), so it has no deck and its fixtures cannot be played")
        elif lacking:
            did = "batted" if lacking[0] == "striker" else "bowled"
            lines.append(f"note: {name} has no {lacking[0]} card: it never {did} in the season's files, "
                         f"so its fixtures cannot be played")
    return lines


def _report_preflight(folder: Path, checked: tuple[list[Path], list] | None = None) -> int:
    """Preflight the kit folder (or report `checked`: its PDFs and their problems, found while
    they were written): one line per problem, then a summary; the number of problems."""
    from cardgen.render.preflight import bleed_lines, check_folder
    files, problems = checked if checked is not None else check_folder(folder)
    for problem in problems:
        click.echo(f"preflight: {problem}", err=True)
    pages = f"{len(files)} PDF{'s' if len(files) != 1 else ''}"
    click.echo(f"preflight: {len(problems)} problem{'s' if len(problems) != 1 else ''} in {pages}"
               + ("" if problems else " (margins, text, crop marks, fonts all print-safe)"))
    for line in bleed_lines(folder, files):  # what a print shop asks first
        click.echo(f"preflight: {line}")
    return len(problems)


@click.command("preflight")
@click.argument("folder", type=FolderPath())
@friendly_errors
def preflight(folder: Path) -> None:
    """Check every PDF under FOLDER as a printer would: A4/Letter page size, nothing but
    backgrounds within 5 mm of the paper edge, no text over text or through a line, fonts
    embedded, no text under 4 pt. One line per problem; exit code 1 when there are any. A kit's
    validate and compare-games reports (screen pages, not printed) are left out."""
    if _report_preflight(folder):
        raise SystemExit(1)


from cardgen.cli.site import with_site_option  # noqa: E402 (adds --site: refresh OUT/site afterwards)

COMMANDS = [with_site_option(build), preflight]
