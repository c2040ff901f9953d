"""The browser tests' one axe-core runner (tests/accessibility.py): it finds what axe-core finds,
says it in one readable line per rule, and passes a page with nothing serious on it."""
from __future__ import annotations

import pytest

from accessibility import AXE_VERSION, assert_accessible, format_violation, page_errors, violations

# an image without a text alternative (axe-core's image-alt, critical) and a button without a
# name (button-name, critical): two rules, three elements
BAD = """<!doctype html><html lang="en"><head><title>bad</title></head><body><main>
<h1>Bad</h1><img src="data:," id="one"><img src="data:," id="two"><button id="mute"></button>
</main></body></html>"""
GOOD = """<!doctype html><html lang="en"><head><title>good</title></head><body><main>
<h1>Good</h1><img src="data:," alt="nothing"><button>Roll</button></main></body></html>"""


@pytest.mark.slow   # a browser
def test_a_page_with_serious_violations_fails_naming_each_rule_and_element(chromium):
    page = chromium.new_page()
    try:
        page.set_content(BAD)
        found = violations(page)
        assert found == ["button-name (critical): Buttons must have discernible text; 1 element: #mute",
                         "image-alt (critical): Images must have alternative text; 2 elements: #one, #two"]
        assert page.evaluate("axe.version") == AXE_VERSION
        with pytest.raises(AssertionError) as failed:
            assert_accessible(page, "the bad page")
        assert str(failed.value).startswith("axe-core on the bad page: 2 serious or critical violations\n"
                                            "  button-name (critical)")
        page.set_content(GOOD)
        assert_accessible(page, "the good page")   # axe-core injected again into the new document
    finally:
        page.close()


def test_a_violation_names_its_first_three_elements_and_counts_the_rest():
    line = format_violation({"id": "color-contrast", "impact": "serious", "help": "Enough contrast",
                             "nodes": ["a.one", "a.two", "p.three", "p.four", "p.five"]})
    assert line == "color-contrast (serious): Enough contrast; 5 elements: a.one, a.two, p.three and 2 more"


def test_only_axe_cores_own_file_url_lines_are_left_out_of_the_pages_errors():
    errors = ["Failed to load resource: net::ERR_FAILED", "Access to XMLHttpRequest at 'file:///x.css' refused",
              "Uncaught TypeError: x is undefined"]
    assert page_errors(errors) == ["Uncaught TypeError: x is undefined"]
