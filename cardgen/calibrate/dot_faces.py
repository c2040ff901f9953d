"""How the league's dot balls are shared between the bowler's card and the striker's card.

A delivery reads the bowler's card half the time and the striker's half the time, so every
pairing plays (bowler card + striker card) / 2: moving a few dot faces from every striker card
to every bowler card, and the same number of run faces back, changes no pairing's delivery.
Only the sum of the two halves is pinned by the league; the split is a free choice, and the
fixed point of the league means keeps whatever split it starts from (a striker is solved as
twice his figures less the mean bowler card, so a dot face more on the mean bowler card is one
less on every striker card, and the bowlers then solve back to where they were).

Left to itself the split came from the seed: run faces at the league's rates on both kinds of
card and dots as whatever room is left, the bowler card's after its F slots (his wides) and
wickets. The first striker solve then absorbed every dot the seed left out, so striker cards
carried 30-38 dot faces and bowler cards 20-26 (IPL 2024 under the rule: 36.6 and 21.9), and a
bowler a little below the league's dot share (Harshal Patel IPL 2024: 29% against 35%, with
wickets and wides on 29 of his slots) had no dot face at all: his few dots came from the
striker's half, from his W slots and from his F slots' leg byes and LBWs.

`balance_dot_faces` chooses the split instead: the mean bowler card shows as many dot faces as
the mean striker card, as on the published game's sample cards (bowler Chris Green 35, striker
Cooper Connolly 33), so a bowler with the league's dot share shows the dot faces a striker with
the league's dot share does, and every bowler's dot faces rise or fall from there with his own
dot share. The run faces given back to the striker side are taken from the bowler side's mean
card in proportion to its run faces (singles, twos, fours, sixes), so no single result is
emptied on the bowler cards with few of it.

That leaves the players whose real dot share is far from the league's: "twice the player less
the average" doubles the gap, so a bowler with 20% dots in a league of 37% (Matt Kuhnemann,
BBL 2024-25) would need fewer than no dot faces, and the fit stops at none. A card still
shows at least `dot_face_floor` dot faces: a quarter of what his real dot share would show at
the league's proportion (his share / the league's x the mean card of his kind), taken from the
run faces with his run content unchanged, so his strike rate or economy and his dismissals stay
exact and only his shape (dots, singles) gives. Small samples use their shrunk share.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from cardgen.calibrate.expect import LeagueModel
from cardgen.calibrate.model import CARD_INDEX

RUN_FACES = ("1", "2", "4", "6")
# a card's floor of dot faces, as a share of those his dot share shows at league proportion:
# low enough to bind only where the exact fit wants (almost) none (a few cards a season)
DOT_FLOOR_SHARE = 0.25


def dot_face_gap(model: LeagueModel) -> float:
    """Dot faces the mean striker card shows beyond the mean bowler card."""
    i = CARD_INDEX["0"]
    return float(model.mean_striker[i] - model.mean_bowler[i])


def shift_dot_faces(model: LeagueModel, faces: float) -> LeagueModel:
    """The model with `faces` dot faces moved onto the mean bowler card, its run faces giving
    way in proportion (the striker cards follow when they are solved against it)."""
    bowler = np.array(model.mean_bowler, float)
    runs = np.array([CARD_INDEX[r] for r in RUN_FACES])
    room = float(bowler[runs].sum())
    if faces <= 0 or room <= 0:
        return model
    faces = min(faces, room)
    bowler[runs] -= faces * bowler[runs] / room
    bowler[CARD_INDEX["0"]] += faces
    return replace(model, mean_bowler=bowler)


def balance_dot_faces(model: LeagueModel) -> LeagueModel:
    """Move half the gap, so the two mean cards show the same dot faces once the strikers are
    solved again against the new mean bowler card."""
    return shift_dot_faces(model, dot_face_gap(model) / 2)


def dot_face_floor(kind: str, dot_ratio: float, model: LeagueModel) -> int:
    """Fewest dot faces a card of `kind` shows, for a player whose dot share is `dot_ratio`
    times the league's: a quarter of the mean card's dot faces scaled by that ratio."""
    mean = model.mean_striker if kind == "striker" else model.mean_bowler
    return int(DOT_FLOOR_SHARE * max(dot_ratio, 0.0) * float(mean[CARD_INDEX["0"]]))
