"""`cardgen site` and `cardgen serve`: publish every built set as a static download site."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardgen.cli import CardgenExit, FolderPath, friendly_errors, out_option
from cardgen.errors import EXIT_ENVIRONMENT

if TYPE_CHECKING:  # the site layer is imported when the command runs
    from cardgen.site.generate import SiteReport

SITE_DIR_OPTION = click.option(
    "--site-dir", type=FolderPath(), default=None,
    help="Where the site is written (default: OUT/site).")


def _report(report: SiteReport) -> None:
    for problem in report.problems:
        click.echo(f"warning: {problem}", err=True)
    sets = ", ".join(report.sets) or "no sets yet"
    games = f", {len(report.games)} other game kit(s)" if report.games else ""
    click.echo(f"site: {len(report.sets)} set(s) ({sets}){games}, {report.pages} pages, "
               f"{report.files} files -> {report.site_dir}")
    if report.carried:  # the incremental render: unchanged kits' pages kept as they were
        click.echo(f"{len(report.rendered)} set(s) rendered, {len(report.carried)} unchanged and kept")
    if report.team_kits:  # a fan who printed one team looks for it on the site
        click.echo(f"not listed: {len(report.team_kits)} one-team kit(s) ({', '.join(report.team_kits)}); "
                   "the site publishes whole sets: build without --team to add the season")
    if report.kept:
        click.echo(f"kept {len(report.kept)} file(s) in {report.site_dir} that cardgen did not write "
                   f"({', '.join(report.kept[:3])}{', ...' if len(report.kept) > 3 else ''})")


# site and serve read the kits in OUT; they write only the site folder
SITE_OUT_HELP = "Folder of built kits the site is made from (as `cardgen build --out`)."


@click.command("site")
@out_option(must_write=False, help_text=SITE_OUT_HELP)
@SITE_DIR_OPTION
@click.option("--base-url", default="/", show_default=True, metavar="PATH|URL",
              help="Where the site will be served from, for the links of its 404 page: '/' at a "
                   "domain's root, '/cardgen/' for a project site such as user.github.io/cardgen/. "
                   "Every other page links relatively and works anywhere.")
@friendly_errors
def site(out_dir: Path, site_dir: Path | None, base_url: str) -> None:
    """Render the download site (static HTML) from every set built in OUT."""
    from cardgen.site.generate import generate_site
    _report(generate_site(out_dir, site_dir, base_url=base_url))


@click.command("serve")
@out_option(must_write=False, help_text=SITE_OUT_HELP)
@SITE_DIR_OPTION
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0 picks a free one).")
@click.option("--refresh/--no-refresh", default=True, show_default=True,
              help="Re-render the site from OUT before serving it.")
@click.option("--quiet", is_flag=True, help="Do not log each request.")
@friendly_errors
def serve(out_dir: Path, site_dir: Path | None, port: int, refresh: bool, quiet: bool) -> None:
    """Serve the download site on http://127.0.0.1:PORT/ (Ctrl+C stops)."""
    from cardgen.site.generate import default_site_dir, generate_site
    from cardgen.site.serve import HOST, make_server
    site_dir = site_dir if site_dir is not None else default_site_dir(out_dir)
    try:  # the port first: a busy port is reported before seconds of rendering
        server = make_server(site_dir, port, quiet=quiet)
    except OSError as exc:
        raise CardgenExit(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}; "
                          f"choose another --port (0 picks a free one)", EXIT_ENVIRONMENT) from None
    try:
        if refresh or not (site_dir / "index.html").is_file():
            _report(generate_site(out_dir, site_dir))
    except BaseException:
        server.server_close()
        raise
    bound = server.server_address[1]
    click.echo(f"serving {site_dir} at http://{HOST}:{bound}/ (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def with_site_option(command: click.Command) -> click.Command:
    """Give a command that writes to OUT (`--out`) a `--site` flag: refresh OUT's site after it.

    This is how `cardgen build --site` works without the build command knowing about the site.
    """
    command.params.append(click.Option(["--site", "refresh_site_after"], is_flag=True,
                                       help="Afterwards, refresh the download site in OUT/site "
                                            "(as `cardgen site`)."))
    run = command.callback
    if run is None:
        raise TypeError(f"command {command.name!r} has no callback to wrap")

    @functools.wraps(run)
    @friendly_errors
    def run_then_refresh(*args: Any, refresh_site_after: bool = False, **kwargs: Any) -> Any:
        result = run(*args, **kwargs)
        if refresh_site_after:
            from cardgen.site.generate import refresh_site  # only now: pypdf, jinja2, Pillow
            _report(refresh_site(kwargs["out_dir"]))
        return result

    command.callback = run_then_refresh
    return command


COMMANDS = [site, serve]
