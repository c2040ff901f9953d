// Plays page matches with the browser engine (cardgen/play/static/*.js) for
// tests/test_play_engine.py: reads a job (JSON) on stdin, writes one JSON line per match with
// every ball. Each side is captained by the computer (its plan) or by a "chooser" that picks a
// random allowed bowler each over (as a player would, within the limits), from its own stream.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

globalThis.Quicket = {};
const STATIC = path.join(__dirname, "..", "..", "cardgen", "play", "static");
for (const name of ["engine.js", "captain.js", "match.js"]) {
  vm.runInThisContext(fs.readFileSync(path.join(STATIC, name), "utf8"), { filename: name });
}
const Q = globalThis.Quicket;
const CHOOSER_STREAM = 7;

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const compiled = {};
for (const [name, raw] of Object.entries(job.card_sets)) compiled[name] = Q.compileSet(raw);

const out = [];
for (const spec of job.matches) {
  const cs = compiled[spec.set];
  const match = new Q.Match(cs, { seed: spec.seed, teams: spec.teams, battingFirst: spec.batting_first });
  const chooser = new Q.SharedRandom(spec.seed, CHOOSER_STREAM);
  while (!match.over()) {
    const cur = match.current();
    let card;
    if (spec.teams[cur.bowl].captain === "chooser" && match.fixedBowler() === null) {
      const allowed = match.bowlerOptions().filter((o) => o.allowed);
      card = allowed[chooser.integers(0, allowed.length)].card;
    } else {
      card = match.computerBowler();
    }
    match.roll(card);
  }
  const innings = match.innings.map((cur) => ({
    bat: cur.bat, super_over: cur.superOver, units: cur.inn.unitBowler,
    balls: cur.inn.balls.map((b) => [b.legalNo, b.bowler, b.striker, b.card, b.result, b.batRuns,
      b.extras, b.extraKind, b.freeHit, b.band, b.outSlot, b.howOut, b.fielders,
      b.runsAfter, b.wicketsAfter]),
  }));
  out.push(JSON.stringify({ winner: match.result.winner === null ? null : match.sides[match.result.winner].team,
                            result: match.result.text, innings: innings }));
}
process.stdout.write(out.join("\n") + "\n");
