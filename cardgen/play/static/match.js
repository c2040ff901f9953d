/* A whole match: the innings in order, the super overs, the result; and the match file.
 *
 * A match is its setup (teams, XIs, keepers, who bats first, the seed) and the list of balls
 * bowled, each with its bowler and its dice. Everything else -- the score, the batters at the
 * crease, whose over it is -- is worked out by playing those balls again, so undo is "drop the
 * last ball", resuming is "play the saved balls", and a match file is the same list
 * (cardgen/play/matchfile.py reads it; `cardgen replay` plays it through the reference engine).
 * The order of innings is cardgen/play/match.py's.
 */
(function (Q) {
  "use strict";

  var MAX_SUPER_OVERS = 5;
  var FILE_KIND = "quicket-match";
  var FILE_VERSION = 1;

  /** setup: {seed, teams: [{name, xi, keeper, captain: "player"|"computer"}] x 2,
   * battingFirst: 0|1, toss: {wonBy: 0|1, chose: "bat"|"bowl"} (for the record)} */
  function Match(cs, setup) {
    this.cs = cs;
    this.setup = setup;
    var shares = Q.bowlingShares(cs);
    this.sides = setup.teams.map(function (t) { return Q.makeSide(cs, t.name, t.xi, t.keeper, shares); });
    if (this.sides[0].team === this.sides[1].team) throw new Q.CardSetError("a match needs two different teams");
    this.first = setup.battingFirst;
    this.diceRng = new Q.SharedRandom(setup.seed, Q.DICE_STREAM);
    this.captainRng = new Q.SharedRandom(setup.seed, Q.CAPTAIN_STREAM);
    this.innings = [];   // {inn, bat, bowl, superOver (0 = the main innings), plan}
    this.entries = [];   // the balls as played: {bowler: player id, dice, rolled}
    this.result = null;  // {winner: side index or null, text}
    this._start(this.first, 1 - this.first, 0, null);
  }

  Match.prototype._start = function (bat, bowl, superOver, target) {
    var cs = this.cs, batting = this.sides[bat], bowling = this.sides[bowl];
    var opts;
    if (superOver) {   // R8: one over, three batters, two wickets, the most-used bowler
      opts = { target: target, maxBalls: cs.fmt.ballsPerOver, maxWickets: 2,
               order: batting.superOverBatters, rule: null, superOver: true };
    } else {
      opts = { target: target, rule: cs.rule };
    }
    opts.defenceOn = cs.rules === "advanced";
    opts.slotPlayers = batting.players;
    var inn = new Q.Innings(cs, batting, bowling, opts);
    // the computer's plan is drawn for every main innings as it starts (the captain stream's
    // order never depends on who captains): it bowls it while the plan fits what was bowled
    var plan = superOver ? [bowling.superOverBowler] : Q.drawPlan(cs, bowling, this.captainRng);
    this.innings.push({ inn: inn, bat: bat, bowl: bowl, superOver: superOver, plan: plan });
  };

  Match.prototype.current = function () { return this.innings[this.innings.length - 1]; };
  Match.prototype.over = function () { return this.result !== null; };

  /** The bowler the next ball must have (mid-over, or a super over), or null: a new over or
   * set, whose bowler the captain chooses. */
  Match.prototype.fixedBowler = function () {
    var cur = this.current();
    if (cur.superOver) return cur.plan[0];
    var unit = cur.inn.unit();
    return cur.inn.unitBowler.length > unit ? cur.inn.unitBowler[unit] : null;
  };

  /** The bowling side's bowlers for the next over, each allowed or not (and why). */
  Match.prototype.bowlerOptions = function () {
    var cur = this.current(), fixed = this.fixedBowler();
    if (fixed !== null) {
      return [{ card: fixed, used: 0, allowed: true, reason: "" }];
    }
    return Q.bowlerOptions(this.cs, this.sides[cur.bowl], cur.inn.unitBowler);
  };

  /** The computer captain's bowler for the next ball: its plan while the plan fits what was
   * bowled, else the allowed bowler furthest short of his share (takeOverBowler). */
  Match.prototype.computerBowler = function () {
    var fixed = this.fixedBowler();
    if (fixed !== null) return fixed;
    var cur = this.current(), bowled = cur.inn.unitBowler;
    var fits = bowled.every(function (c, i) { return cur.plan[i] === c; });
    if (fits) return cur.plan[bowled.length];
    return Q.takeOverBowler(this.cs, this.sides[cur.bowl], bowled);
  };

  /** Who captains the side bowling now ("player" | "computer"). */
  Match.prototype.bowlingCaptain = function () { return this.setup.teams[this.current().bowl].captain; };

  Match.prototype._checkBowler = function (card) {
    var options = this.bowlerOptions();
    var found = options.filter(function (o) { return o.card === card; })[0];
    if (!found) throw new Error("that bowler is not one of the bowling side's bowlers now");
    if (!found.allowed) throw new Error(this.cs.playerNames[this.cs.bowlerPlayer[card]] + " " + found.reason);
  };

  /** Bowl the next ball with `card` (a bowler-card row) and `dice` (Rolling or Scripted).
   * NeedDie (scripted dice run out) leaves the match as it was. */
  Match.prototype.bowl = function (card, dice, rolled) {
    if (this.over()) throw new Error("the match is over");
    this._checkBowler(card);
    var cur = this.current();
    var ball = cur.inn.bowl(card, dice);
    if (dice instanceof Q.ScriptedDice && dice.at !== dice.list.length) {
      throw new Error("the ball has " + (dice.list.length - dice.at) + " dice more than it needs");
    }
    var bowlerId = this.cs.playerIds[this.cs.bowlerPlayer[card]];
    this.entries.push({ bowler: bowlerId, dice: dice.rolled, rolled: !!rolled });
    ball.entry = this.entries.length - 1;
    if (cur.inn.done()) this._next();
    return ball;
  };

  /** The next ball rolled by the seed's dice. */
  Match.prototype.roll = function (card) {
    return this.bowl(card, new Q.RollingDice(this.diceRng), true);
  };

  /** The next ball from dice the player rolled (a list of [kind, value] / ["pick", i, n]):
   * the ball, or {need: NeedDie} when it needs another die. */
  Match.prototype.tryDice = function (card, list) {
    try {
      return { ball: this.bowl(card, new Q.ScriptedDice(list), false) };
    } catch (err) {
      if (err instanceof Q.NeedDie) return { need: err };
      throw err;
    }
  };

  Match.prototype._next = function () {
    var cur = this.current(), n = this.innings.length;
    if (n === 1) {                                     // the chase, target first innings + 1
      this._start(1 - this.first, this.first, 0, cur.inn.runs + 1);
      return;
    }
    if (cur.superOver && cur.inn.target === null) {    // a super over's second half
      this._start(cur.bowl, cur.bat, cur.superOver, cur.inn.runs + 1);
      return;
    }
    var a = this.innings[n - 2].inn, b = cur.inn;     // a pair is complete
    if (a.runs !== b.runs) {
      var winner = b.runs > a.runs ? cur.bat : cur.bowl;
      this.result = { winner: winner, text: resultText(this, winner) };
      return;
    }
    if (cur.superOver === MAX_SUPER_OVERS) {
      this.result = { winner: null, text: "Match tied (" + MAX_SUPER_OVERS + " super overs tied)" };
      return;
    }
    // a tie: a super over, the side that batted second first (3.7.1); after a tied super
    // over the other way round, which is again the side that batted second in it
    this._start(cur.bat, cur.bowl, cur.superOver + 1, null);
  };

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /** "Perth Scorchers won by 12 runs", "... by 5 wickets (13 balls left)", "Match tied; ... won
   * the super over". (cardgen/play/scorecard.py result_text: the same words.) */
  function resultText(match, winner) {
    var cs = match.cs, team = match.sides[winner].team;
    var last = match.innings[match.innings.length - 1];
    if (last.superOver) {
      return "Match tied; " + team + " won the " + (last.superOver === 1 ? "" : ordinal(last.superOver) + " ") + "super over";
    }
    var second = last.inn, first = match.innings[0].inn;
    if (winner === last.bat) {
      var left = cs.fmt.ballsPerInnings - second.legalBalls;
      return team + " won by " + plural(10 - second.wickets, "wicket") + " (" + plural(left, "ball") + " left)";
    }
    return team + " won by " + plural(first.runs - second.runs, "run");
  }
  function ordinal(n) { return n + (n === 2 ? "nd" : n === 3 ? "rd" : "th"); }

  // ---------------------------------------------------------------------------------------
  // The match file
  // ---------------------------------------------------------------------------------------
  function overLabel(fmt, legalBefore) {
    return Math.floor(legalBefore / fmt.ballsPerOver) + "." + (legalBefore % fmt.ballsPerOver + 1);
  }

  /** Identity of the card set a match is played with (the page knows it from its data file). */
  function setIdentity(cs, fingerprint) {
    var comp = cs.raw.competition || {};
    return { competition: comp.code || "", season: String(cs.raw.season || ""), format: cs.fmt.name,
             rules: cs.rules, fingerprint: fingerprint || "" };
  }

  /** The match as a JSON-ready object: setup, every ball with its dice, the result. */
  Match.prototype.toFile = function (fingerprint) {
    var cs = this.cs, sides = this.sides, setup = this.setup, match = this;
    var innings = this.innings.map(function (cur) {
      var legal = 0;
      return {
        batting: sides[cur.bat].team, bowling: sides[cur.bowl].team, super_over: cur.superOver,
        balls: cur.inn.balls.map(function (ball) {
          var entry = match.entries[ball.entry];
          var row = {
            over: overLabel(cs.fmt, legal), bowler: entry.bowler,
            striker: cs.playerIds[cur.inn.slotPlayers[ball.striker]],
            dice: entry.dice, rolled: entry.rolled, result: ball.result,
            runs: ball.batRuns + ball.extras, score: ball.runsAfter + "/" + ball.wicketsAfter
          };
          legal = ball.legalNo;
          return row;
        })
      };
    });
    return {
      kind: FILE_KIND, version: FILE_VERSION, card_set: setIdentity(cs, fingerprint),
      seed: setup.seed,
      teams: setup.teams.map(function (t) { return { name: t.name, xi: t.xi.slice(), keeper: t.keeper, captain: t.captain }; }),
      toss: setup.toss ? { won_by: setup.teams[setup.toss.wonBy].name, chose: setup.toss.chose } : null,
      batting_first: setup.teams[setup.battingFirst].name,
      innings: innings,
      result: this.result ? this.result.text : null
    };
  };

  /** A match file's setup and balls, checked (a damaged file: Error with a plain message). */
  function readFile(cs, doc, fingerprint) {
    var bad = function (what) { throw new Error("this match file is damaged: " + what); };
    if (!doc || typeof doc !== "object" || doc.kind !== FILE_KIND) bad("it is not a Quicket match file");
    if (doc.version !== FILE_VERSION) bad("version " + JSON.stringify(doc.version) + " (this page reads version " + FILE_VERSION + ")");
    var id = doc.card_set || {};
    var mine = setIdentity(cs, fingerprint);
    if (id.competition !== mine.competition || id.season !== mine.season) {
      throw new Error("this match was played with the " + id.competition + " " + id.season + " cards, not these (" + mine.competition + " " + mine.season + ")");
    }
    if (id.rules !== mine.rules) throw new Error("this match was played by the " + id.rules + " rules; these cards are for the " + mine.rules + " rules");
    if (fingerprint && id.fingerprint && id.fingerprint !== fingerprint) {
      throw new Error("this match was played with other cards of " + mine.competition + " " + mine.season + " (the card set changed since)");
    }
    if (!Number.isInteger(doc.seed) || doc.seed < 0 || doc.seed > Q.MAX_SEED) bad("its seed");
    if (!Array.isArray(doc.teams) || doc.teams.length !== 2) bad("it needs two teams");
    var teams = doc.teams.map(function (t) {
      if (!t || typeof t.name !== "string" || !Array.isArray(t.xi)) bad("a team without a name or XI");
      return { name: t.name, xi: t.xi.map(String), keeper: t.keeper === null || t.keeper === undefined ? null : String(t.keeper),
               captain: t.captain === "computer" ? "computer" : "player" };
    });
    var first = teams.map(function (t) { return t.name; }).indexOf(doc.batting_first);
    if (first < 0) bad("batting_first names neither team");
    var toss = null;
    if (doc.toss && typeof doc.toss === "object") {
      var won = teams.map(function (t) { return t.name; }).indexOf(doc.toss.won_by);
      if (won >= 0 && (doc.toss.chose === "bat" || doc.toss.chose === "bowl")) toss = { wonBy: won, chose: doc.toss.chose };
    }
    if (!Array.isArray(doc.innings)) bad("no innings");
    var balls = [];
    doc.innings.forEach(function (inn, i) {
      if (!inn || !Array.isArray(inn.balls)) bad("innings " + (i + 1) + " has no balls");
      inn.balls.forEach(function (b) {
        if (!b || typeof b.bowler !== "string" || !Array.isArray(b.dice)) bad("a ball without its bowler or dice");
        balls.push({ innings: i, bowler: b.bowler, dice: b.dice, rolled: !!b.rolled, over: b.over, score: b.score, result: b.result });
      });
    });
    return { setup: { seed: doc.seed, teams: teams, battingFirst: first, toss: toss }, balls: balls };
  }

  /** Play a match file's balls again: the match as it stood after its last ball. */
  function fromFile(cs, doc, fingerprint) {
    var read = readFile(cs, doc, fingerprint);
    var match;
    try {
      match = new Match(cs, read.setup);
    } catch (err) {
      throw new Error("this match file's teams do not fit these cards: " + (err.message || err));
    }
    read.balls.forEach(function (b, k) {
      var where = "ball " + (k + 1) + (b.over ? " (" + b.over + ")" : "");
      if (match.over()) throw new Error("this match file is damaged: " + where + " comes after the end of the match");
      if (b.innings !== match.innings.length - 1) throw new Error("this match file is damaged: " + where + " is in the wrong innings");
      var side = match.sides[match.current().bowl];
      var index = side.bowlerIds.indexOf(b.bowler);
      if (index < 0) throw new Error("this match file is damaged: " + where + "'s bowler " + b.bowler + " is not a bowler of " + side.team);
      var card = side.bowlerCards[index], ball;
      try {
        if (b.rolled) {
          ball = match.roll(card);
          var rolled = match.entries[match.entries.length - 1].dice;
          if (JSON.stringify(rolled) !== JSON.stringify(b.dice)) throw new Error("its dice are not what seed " + read.setup.seed + " rolls");
        } else {
          var got = match.tryDice(card, b.dice);
          if (got.need) throw new Error("it needs more dice than the file gives");
          ball = got.ball;
        }
      } catch (err) {
        throw new Error("this match file is damaged: " + where + ": " + (err.message || err));
      }
      if (b.score !== undefined && b.score !== ball.runsAfter + "/" + ball.wicketsAfter) {
        throw new Error("this match file is damaged: " + where + " says " + b.score + " but these cards give " + ball.runsAfter + "/" + ball.wicketsAfter);
      }
    });
    return match;
  }

  Match.prototype.withoutLastBall = function (fingerprint) {
    var doc = this.toFile(fingerprint);
    var innings = doc.innings;
    for (var i = innings.length - 1; i >= 0; i--) {
      if (innings[i].balls.length) { innings[i].balls.pop(); break; }
    }
    doc.innings = innings.filter(function (inn, k) { return k === 0 || inn.balls.length; });
    return fromFile(this.cs, doc, fingerprint);
  };

  /** Play the rest of the match with the computer captaining both sides and the seed's dice. */
  Match.prototype.autoPlay = function () {
    while (!this.over()) this.roll(this.computerBowler());
  };

  Q.Match = Match;
  Q.MAX_SUPER_OVERS = MAX_SUPER_OVERS;
  Q.matchFromFile = fromFile;
  Q.readMatchFile = readFile;
  Q.overLabel = overLabel;
  Q.setIdentity = setIdentity;
})(globalThis.Quicket = globalThis.Quicket || {});
