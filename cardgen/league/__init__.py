"""Your own league (issue 35): players from any seasons on one baseline, points, a computer draft
and a round-robin fixture list.

Layer: beside `games` (it reads calibrate, render and sim; the CLI reads it). `spec` parses the
league file at the edge into typed values; `players` finds each named player in his season;
`build` makes the league's card set (`calibrate.baseline` solves the cards, `sim.points` values
them); `draft` picks sides by a snake draft on points; `fixtures` makes the round robin.
"""
