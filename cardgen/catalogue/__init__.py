"""The whole catalogue in one command (issue 36): every T20 and 100-ball season a source holds,
each built into its kit in a process of its own, then one site.

Layer: just below `cli` (it reads sources, stats, calibrate, render, play and site; only the CLI
reads it). `plan` finds the seasons a source holds (as `cardgen competitions --source` lists
them); `season` builds one season's kit and says whether a kit on disk is still current (its
manifest records the fingerprint of its inputs); `engine` runs the seasons in parallel, one
forked process per season, and reports each outcome.
"""
