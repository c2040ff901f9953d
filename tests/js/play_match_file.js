// Plays whole page matches with the browser engine (cardgen/play/static/*.js) for
// tests/test_play_replay.py, the computer captaining both sides, and writes each match's file
// (exactly what play.html's "Save match file" writes) and its scorecard text, one JSON line a
// match. Job on stdin: {card_set, fingerprint, matches: [{seed, teams, batting_first}]}.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

globalThis.Quicket = {};
const STATIC = path.join(__dirname, "..", "..", "cardgen", "play", "static");
for (const name of ["engine.js", "captain.js", "match.js", "scorecard.js"]) {
  vm.runInThisContext(fs.readFileSync(path.join(STATIC, name), "utf8"), { filename: name });
}
const Q = globalThis.Quicket;
const job = JSON.parse(fs.readFileSync(0, "utf8"));
const cs = Q.compileSet(job.card_set);
const out = job.matches.map((spec) => {
  const match = new Q.Match(cs, { seed: spec.seed, teams: spec.teams, battingFirst: spec.batting_first });
  match.autoPlay();
  return JSON.stringify({ file: match.toFile(job.fingerprint), text: Q.scorecardText(Q.scorecard(match)) });
});
process.stdout.write(out.join("\n") + "\n");
