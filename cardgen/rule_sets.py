"""The two rule sets a Quicket kit is made for, and which one a card set says it is.

* **Quicket rules** (`quicket`, the default): the game as printed
  (`../shared/seeds/quicket-cricket-rules.txt`), with the readings of docs/rules.md R1-R11 and
  R14 where the text is silent. Every card is solved so that its player, facing the
  league-average opponent, reproduces his real season under these rules.
* **Advanced rules** (`advanced`): the printed rules plus wickets in hand (R12,
  `cardgen.wickets_in_hand`) and Defence (R13, some striker cards' rating). Cards are solved
  for them, so whole matches score like the real season; the kit carries a rules sheet.

A card set names its rule set in the top-level `"rules"` field. Sets written before that field
existed say it through `"rule"` (`"classic"` or absent: quicket; `"wickets-in-hand"`:
advanced), which stays as it was so older readers keep working. Defence ratings exist only on
advanced sets and are played only under the advanced rules, in every engine.

Shared below the render, sim and site layers (it reads only the rule module and the errors).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.errors import CardSetError, CardgenError
from cardgen.wickets_in_hand import CLASSIC_NAME, RULE_NAME, WicketsInHand

QUICKET = "quicket"
ADVANCED = "advanced"
RULE_SETS: tuple[str, ...] = (QUICKET, ADVANCED)
DEFAULT_RULES = QUICKET

# how every printed piece names the set, in words a player knows without the docs
TITLES = {QUICKET: "Quicket rules", ADVANCED: "Advanced rules"}
# the same, said once in full where there is room (START-HERE, the rules sheet, the site)
DESCRIPTIONS = {QUICKET: "the Quicket Cricket rules as printed",
                ADVANCED: "the advanced rules: the printed rules plus wickets in hand and Defence"}
# the kit's folder: OUT/<CODE>_<season>/ for the default rules, OUT/<CODE>_<season>-advanced/
FOLDER_SUFFIX = {QUICKET: "", ADVANCED: "-advanced"}
# the card set's older field (`rule`) each rule set writes, for readers before `rules`
LEGACY_RULE = {QUICKET: CLASSIC_NAME, ADVANCED: RULE_NAME}


def check_rules(name: str) -> str:
    """`name` if it is a rule set's name, else a CardgenError saying the two."""
    if name not in RULE_SETS:
        raise CardgenError(f"unknown rules {name!r}; expected {QUICKET!r} (as printed) or {ADVANCED!r}")
    return name


def rules_of_set(card_set: Any) -> str:
    """The rule set a card set (`cardgen.cardset.CardSet`, or its document) is made for: its
    `rules` field, else what its older `rule` field implies. CardSetError when the two disagree
    or either names no rule set."""
    if isinstance(card_set, Mapping):
        legacy, named = card_set.get("rule"), card_set.get("rules")
    else:
        legacy, named = card_set.rule, card_set.rules
    if legacy is None:
        implied = None                  # says nothing: the `rules` field, else as printed
    elif legacy in ("", CLASSIC_NAME):
        implied = QUICKET
    elif legacy == RULE_NAME:
        implied = ADVANCED
    else:
        raise CardSetError(f"the card set names an unknown rule {legacy!r} "
                           f"(expected {RULE_NAME!r} or {CLASSIC_NAME!r})")
    if named is None:
        return implied or QUICKET
    if named not in RULE_SETS:
        raise CardSetError(f"the card set's rules are {named!r}; expected {QUICKET!r} or {ADVANCED!r}")
    if implied is not None and implied != named:
        raise CardSetError(f"the card set says rules {named!r} but rule {legacy!r} (made for the "
                           f"{TITLES[implied]}); make the two agree or rebuild the card set")
    return named


def rules_fields(rules: str, rule: WicketsInHand | None) -> dict[str, Any]:
    """The top-level fields a card set made for `rules` carries: `rules`, and the older `rule`
    (with the wickets-in-hand rule's `rule_parameters` on an advanced set)."""
    check_rules(rules)
    if rules == ADVANCED and rule is not None:
        return {"rules": rules, "rule": rule.name, "rule_parameters": rule.describe()}
    return {"rules": rules, "rule": LEGACY_RULE[rules]}


def plays_defence(rules: str) -> bool:
    """Whether the rule set plays the striker cards' Defence ratings (R13)."""
    return rules == ADVANCED


def kit_folder_name(code: str, season: str, rules: str) -> str:
    """The kit's folder: `BBL_2024-25` (Quicket rules), `BBL_2024-25-advanced`."""
    return f"{code}_{season}{FOLDER_SUFFIX[check_rules(rules)]}"


def other_rules(rules: str) -> str:
    return ADVANCED if check_rules(rules) == QUICKET else QUICKET
