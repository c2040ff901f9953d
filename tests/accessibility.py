"""The one axe-core runner of the browser tests (test_site_browser.py, test_site_catalogue.py,
test_play_page.py): every page they check is checked the same way.

axe-core is vendored (tests/vendor/axe-core, its version pinned below) and injected into the
page as it is now; it runs with its default rules (every rule axe-core 4.14.1 enables by
default, no tag or rule switched off), and a violation counts when its impact is serious or
critical. A failure names each rule, its impact, what it asks for and the first elements it
found, so it reads without opening the browser:

    axe-core on first-match at 390 px: 1 serious or critical violation
      color-contrast (serious): Elements must meet minimum color contrast ratio thresholds;
        2 elements: p.meta, a.skip
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"          # tests/vendor/axe-core/README.md: change both together
IMPACTS = ("serious", "critical")
SHOWN_ELEMENTS = 3              # the first elements a violation names (then "and N more")

# axe.run over the whole document with axe-core's default rules and options
_RUN = """async () => (await axe.run(document)).violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}))"""

# axe-core reads the page's stylesheets again with XMLHttpRequest, which file:// refuses: the
# console lines that says so are axe-core's, not the page's
AXE_CONSOLE_NOISE = ("XMLHttpRequest", "ERR_FAILED")


def inject(page: Any) -> None:
    """Put the vendored axe-core on the page (once: a page that has it keeps it)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    version = page.evaluate("axe.version")
    assert version == AXE_VERSION, f"axe-core {version} on the page, {AXE_VERSION} vendored"


def format_violation(violation: dict[str, Any]) -> str:
    """One violation in one readable line: rule (impact): what it asks; the elements found."""
    nodes = violation["nodes"]
    shown = ", ".join(nodes[:SHOWN_ELEMENTS])
    more = f" and {len(nodes) - SHOWN_ELEMENTS} more" if len(nodes) > SHOWN_ELEMENTS else ""
    count = f"{len(nodes)} element{'' if len(nodes) == 1 else 's'}"
    return f"{violation['id']} ({violation['impact']}): {violation['help']}; {count}: {shown}{more}"


def violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    inject(page)
    return [format_violation(v) for v in page.evaluate(_RUN) if v["impact"] in IMPACTS]


def assert_accessible(page: Any, where: str) -> None:
    """Fail, naming `where` and every serious or critical violation, unless axe-core finds none."""
    found = violations(page)
    assert not found, (f"axe-core on {where}: {len(found)} serious or critical violation"
                       f"{'' if len(found) == 1 else 's'}\n  " + "\n  ".join(found))


def page_errors(errors: list[str]) -> list[str]:
    """The page's own console errors of `errors`, without axe-core's file:// lines."""
    return [e for e in errors if not any(noise in e for noise in AXE_CONSOLE_NOISE)]
