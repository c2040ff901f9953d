/* Quicket Cricket's rules in the browser: the dice, the cards and one delivery at a time.
 *
 * A port of the Python reference engine (cardgen/sim/reference.py), line for line where it
 * matters: the same dice drawn in the same order, the same result codes, the same scoring. The
 * tests feed both engines one stream of integers and compare every ball (tests/test_play_engine.py).
 * Rule numbers (3.4.2, 4.3.8 ...) are the rules text's; R-numbers are docs/rules.md's.
 *
 * Plain script (no modules: a page opened from file:// cannot load ES modules); everything hangs
 * on the global `Quicket`, which Node's tests load the same way.
 */
(function (Q) {
  "use strict";

  // ---------------------------------------------------------------------------------------
  // The shared random-number generator (cardgen/play/prng.py is the same, bit for bit)
  // ---------------------------------------------------------------------------------------
  var TWO_32 = 4294967296;
  var DICE_STREAM = 0, CAPTAIN_STREAM = 1;
  var MAX_SEED = 4294967295;

  function rotl(x, k) { return ((x << k) | (x >>> (32 - k))) >>> 0; }

  /** xoshiro128** seeded through splitmix32; `stream` picks one of a seed's streams. */
  function SharedRandom(seed, stream) {
    if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new Error("seed must be a whole number from 0 to " + MAX_SEED);
    }
    var state = (seed ^ Math.imul(stream || 0, 0x632BE5AB)) >>> 0;
    this.s = [];
    for (var i = 0; i < 4; i++) {
      state = (state + 0x9E3779B9) >>> 0;
      var z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
      this.s.push((z ^ (z >>> 16)) >>> 0);
    }
    this.draws = 0;
  }
  SharedRandom.prototype.nextU32 = function () {
    var s = this.s;
    var result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    var t = (s[1] << 9) >>> 0;
    s[2] = (s[2] ^ s[0]) >>> 0;
    s[3] = (s[3] ^ s[1]) >>> 0;
    s[1] = (s[1] ^ s[2]) >>> 0;
    s[0] = (s[0] ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    this.draws += 1;
    return result;
  };
  /** A whole number from low to high - 1, each equally likely (rejection sampling). */
  SharedRandom.prototype.integers = function (low, high) {
    var n = high - low;
    var limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      var x = this.nextU32();
      if (x < limit) return low + (x % n);
    }
  };
  SharedRandom.prototype.random = function () { return this.nextU32() / TWO_32; };

  // ---------------------------------------------------------------------------------------
  // Dice: every roll of a ball, each with what it is for (the page explains and asks by it)
  // ---------------------------------------------------------------------------------------
  // A die's kind and the integer range it is drawn from, as the reference engine's Dice draws it
  var DIE_RANGE = { d6: [1, 7], "2d10": [1, 101], d20: [1, 21] };

  /** Thrown by scripted dice that have run out: the page asks the player for this die. */
  function NeedDie(kind, n, purpose) {
    this.kind = kind; this.n = n; this.purpose = purpose;
  }

  /** Dice that roll themselves from a SharedRandom, recording each die as it is drawn. */
  function RollingDice(rng) { this.rng = rng; this.rolled = []; }
  RollingDice.prototype.draw = function (kind, n, purpose) {
    var value = kind === "pick" ? this.rng.integers(0, n)
      : this.rng.integers(DIE_RANGE[kind][0], DIE_RANGE[kind][1]);
    this.rolled.push(kind === "pick" ? [kind, value, n] : [kind, value]);
    return value;
  };

  /** Dice read from a list ([kind, value] or ["pick", index, n]), as typed or as a match file
   * has them; NeedDie when the list runs out, an Error when a die is not the one asked for. */
  function ScriptedDice(list) { this.list = list; this.at = 0; this.rolled = []; }
  ScriptedDice.prototype.draw = function (kind, n, purpose) {
    if (this.at >= this.list.length) throw new NeedDie(kind, n, purpose);
    var die = this.list[this.at];
    var value = die[1];
    var ok = die[0] === kind && Number.isInteger(value) && (kind === "pick"
      ? die[2] === n && value >= 0 && value < n
      : value >= DIE_RANGE[kind][0] && value < DIE_RANGE[kind][1]);
    if (!ok) {
      throw new Error("die " + (this.at + 1) + " of the ball is " + JSON.stringify(die) + " where "
        + (kind === "pick" ? "a card drawn from " + n : "a " + kind) + " was asked for");
    }
    this.at += 1;
    this.rolled.push(kind === "pick" ? [kind, value, n] : [kind, value]);
    return value;
  };

  // ---------------------------------------------------------------------------------------
  // The card set: result codes and lookup tables (cardgen/sim/model.py)
  // ---------------------------------------------------------------------------------------
  var C = {
    DOT: 0, ONE: 1, TWO: 2, THREE: 3, FOUR: 4, SIX: 6, BOWLED: 10, CARD_W: 11, FIELD: 12,
    LBW: 13, RUN_OUT: 14, CAUGHT: 15, STUMPED: 16, CATCH_CHANCE: 17, RUN_OUT_CHANCE: 18,
    STUMPING_CHANCE: 19, LEG_BYE: 20, BYE: 21, WIDE: 22, NO_BALL: 23, LEG_BYE_4: 24, BYE_4: 25
  };
  var CARD_CODES = { B: C.BOWLED, W: C.CARD_W, F: C.FIELD, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "6": 6 };
  var FIELDING_CODES = {
    bowled: C.BOWLED, lbw: C.LBW, run_out: C.RUN_OUT, caught: C.CAUGHT, stumped: C.STUMPED,
    catch_chance: C.CATCH_CHANCE, run_out_chance: C.RUN_OUT_CHANCE,
    stumping_chance: C.STUMPING_CHANCE, leg_bye: C.LEG_BYE, bye: C.BYE, leg_bye_4: C.LEG_BYE_4,
    bye_4: C.BYE_4, wide: C.WIDE, no_ball: C.NO_BALL, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "6": 6
  };
  var CODE_NAMES = {};
  Object.keys(FIELDING_CODES).forEach(function (k) { CODE_NAMES[FIELDING_CODES[k]] = k; });
  CODE_NAMES[C.CARD_W] = "W";
  CODE_NAMES[C.FIELD] = "F";
  // what a result means, in words (the page's explanation of each ball)
  var CODE_WORDS = {
    0: "dot", 1: "1 run", 2: "2 runs", 3: "3 runs", 4: "four", 6: "six", 10: "bowled",
    11: "W: caught", 12: "F: the fielding chart", 13: "LBW", 14: "run out", 15: "caught",
    16: "stumped", 17: "catch chance", 18: "run-out chance", 19: "stumping chance",
    20: "leg bye", 21: "bye", 22: "wide", 23: "no-ball", 24: "four leg byes", 25: "four byes"
  };
  var FOUR_OF = { leg_bye: "leg_bye_4", bye: "bye_4" };
  var DEFAULT_CATCH = 10, DEFAULT_RUN_OUT = 10, DEFAULT_KEEPER = 10, MAX_DEFENCE = 20;

  function Format(name, ballsPerOver, ballsPerInnings, maxUnits, ballsPerEnd) {
    this.name = name; this.ballsPerOver = ballsPerOver; this.ballsPerInnings = ballsPerInnings;
    this.maxUnitsPerBowler = maxUnits; this.ballsPerEnd = ballsPerEnd;
    this.units = ballsPerInnings / ballsPerOver;
  }
  var FORMATS = { T20: new Format("T20", 6, 120, 4, 6), "100-ball": new Format("100-ball", 5, 100, 4, 10) };

  /** A card set that cannot be played; the page shows its message as it is. */
  function CardSetError(message) { this.message = message; this.name = "CardSetError"; }
  CardSetError.prototype = Object.create(Error.prototype);

  function isWhole(v) { return typeof v === "number" && Number.isInteger(v); }

  function cardWhere(card) {
    var p = card.player || {};
    return "card " + (p.name || p.id || "?") + " (" + (card.team || "?") + ", " + (card.kind || "?") + ")";
  }

  /** A card's ranges -> 100 result codes (model.chart_results: the same checks, same words). */
  function chartTable(chart, where) {
    if (!Array.isArray(chart)) throw new CardSetError(where + ": the chart is not a list of ranges");
    var table = new Array(100).fill(-1);
    chart.forEach(function (cell) {
      if (!cell || typeof cell !== "object" || !("lo" in cell) || !("hi" in cell) || !("result" in cell)) {
        throw new CardSetError(where + ": chart range " + JSON.stringify(cell) + " needs lo, hi and result");
      }
      var lo = cell.lo, hi = cell.hi, result = cell.result;
      if (typeof result !== "string" || !(result in CARD_CODES)) {
        throw new CardSetError(where + ": unknown chart result " + JSON.stringify(result));
      }
      if (!isWhole(lo) || !isWhole(hi) || !(lo >= 1 && lo <= hi && hi <= 100)) {
        throw new CardSetError(where + ": bad range " + JSON.stringify(lo) + "-" + JSON.stringify(hi)
          + " (rolls run 1 to 100, low end first)");
      }
      for (var r = lo; r <= hi; r++) {
        if (table[r - 1] !== -1) throw new CardSetError(where + ": range " + lo + "-" + hi + " overlaps another");
      }
      for (r = lo; r <= hi; r++) table[r - 1] = CARD_CODES[result];
    });
    var missing = table.indexOf(-1);
    if (missing >= 0) throw new CardSetError(where + ": chart leaves roll " + (missing + 1) + " uncovered");
    return table;
  }

  /** The fielding chart as the game plays it, four leg byes / byes in place (model.chart_cells). */
  function chartCells(cardSet) {
    var chart = cardSet.fielding_chart;
    if (!chart || typeof chart !== "object" || !Array.isArray(chart.cells)) {
      throw new CardSetError("the card set has no fielding chart (fielding_chart.cells)");
    }
    var cells = chart.cells.map(function (row) { return Array.isArray(row) ? row.slice() : row; });
    (chart.fours || []).forEach(function (where) {
      var ok = Array.isArray(where) && where.length === 2 && isWhole(where[0]) && isWhole(where[1])
        && where[0] >= 1 && where[0] <= 6 && where[1] >= 1 && where[1] <= 20
        && Array.isArray(cells[where[0] - 1]);
      if (!ok) throw new CardSetError("fielding_chart.fours: " + JSON.stringify(where) + " is not a (d6, d20) cell of the chart");
      var cell = cells[where[0] - 1][where[1] - 1];
      if (!(cell in FOUR_OF)) throw new CardSetError("fielding_chart.fours: cell " + JSON.stringify(where) + " is " + JSON.stringify(cell) + ", not a leg bye or bye");
      cells[where[0] - 1][where[1] - 1] = FOUR_OF[cell];
    });
    return cells;
  }

  function rating(value, fallback) {
    return isWhole(value) && value >= 1 && value <= 20 ? value : fallback;
  }

  /** R13: a striker card's Defence rating, 0 for none (model.card_defence). */
  function cardDefence(card) {
    var value = card.defence;
    if (value === undefined || value === null || value === 0) return 0;
    var name = (card.player || {}).name || "?";
    if (!isWhole(value) || value < 1 || value > MAX_DEFENCE) {
      throw new CardSetError(name + "'s " + (card.kind || "") + " card has defence " + JSON.stringify(value)
        + ": a Defence rating is a whole number from 1 to " + MAX_DEFENCE);
    }
    if (card.kind !== "striker") throw new CardSetError(name + "'s bowler card has a defence rating: only striker cards carry one");
    return value;
  }

  /** A value as Python's repr quotes it, so the page's messages are rule_sets.py's word for word. */
  function quoted(value) {
    return typeof value === "string" ? "'" + value + "'" : JSON.stringify(value);
  }

  /** Which rules a set is made for: "quicket" (as printed) or "advanced" (wickets in hand R12,
   * Defence R13). The top-level "rules" field where a set has it; else the older "rule" field
   * ("classic" = as printed); the two must agree (cardgen/rule_sets.py). */
  function rulesName(cardSet) {
    var rule = cardSet.rule, named = cardSet.rules, implied = null;   // as rule_sets.rules_of_set
    if (rule === "" || rule === "classic") implied = "quicket";
    else if (rule === "wickets-in-hand") implied = "advanced";
    else if (rule !== undefined && rule !== null) {
      throw new CardSetError("the card set names an unknown rule " + quoted(rule)
        + " (expected 'wickets-in-hand' or 'classic')");
    }
    if (named === undefined || named === null) return implied || "quicket";
    if (named !== "quicket" && named !== "advanced") {
      throw new CardSetError("the card set's rules are " + quoted(named) + "; expected 'quicket' or 'advanced'");
    }
    if (implied !== null && implied !== named) {
      throw new CardSetError("the card set says rules " + quoted(named) + " but rule " + quoted(rule)
        + " (made for the " + (implied === "quicket" ? "Quicket rules" : "Advanced rules")
        + "); make the two agree or rebuild the card set");
    }
    return named;
  }

  /** Check a card set is playable and turn it into lookup tables (model.compile_card_set). */
  function compileSet(cardSet) {
    if (!cardSet || typeof cardSet !== "object" || Array.isArray(cardSet)) {
      throw new CardSetError("the card set is not a JSON object");
    }
    var fmt = FORMATS[cardSet.format];
    if (!fmt) throw new CardSetError("unknown format " + JSON.stringify(cardSet.format) + "; expected 'T20' or '100-ball'");
    if (!Array.isArray(cardSet.cards)) throw new CardSetError("card set is missing 'cards'");
    var cells = chartCells(cardSet);
    if (cells.length !== 6 || cells.some(function (row) { return !Array.isArray(row) || row.length !== 20; })) {
      throw new CardSetError("fielding chart must be 6 rows (d6) of 20 cells (d20)");
    }
    var fielding = cells.map(function (row, r) {
      return row.map(function (cell, c) {
        if (typeof cell !== "string" || !(cell in FIELDING_CODES)) {
          throw new CardSetError("fielding chart cell d6=" + (r + 1) + " d20=" + (c + 1) + ": unknown " + JSON.stringify(cell));
        }
        return FIELDING_CODES[cell];
      });
    });
    var rules = rulesName(cardSet);
    var cs = {
      raw: cardSet, fmt: fmt, fielding: fielding, rules: rules,
      rule: rules === "advanced" ? ruleOfSet(cardSet) : null,
      playerOf: {}, playerIds: [], playerNames: [], playerTeams: [], catch: [], runOut: [], keeper: [],
      strikerLut: [], bowlerLut: [], strikerPlayer: [], bowlerPlayer: [], strikerDefence: [],
      strikerCardOf: {}, bowlerCardOf: {}, strikerCards: [], bowlerCards: [], teams: {}, teamNames: []
    };
    cardSet.cards.forEach(function (card) {
      if (!card || typeof card !== "object" || !card.player || typeof card.player !== "object"
          || card.player.id === undefined || card.team === undefined) {
        throw new CardSetError("card set is missing a card's player or team");
      }
      var player = card.player;
      var key = String(player.id) + "|" + String(card.team);
      var where = cardWhere(card);
      var p = cs.playerOf[key];
      if (p === undefined) {
        p = cs.playerOf[key] = cs.playerIds.length;
        cs.playerIds.push(String(player.id));
        cs.playerNames.push(String(player.name === undefined ? player.id : player.name));
        cs.playerTeams.push(String(card.team));
        cs.catch.push(rating(player.catch, DEFAULT_CATCH));
        cs.runOut.push(rating(player.run_out, DEFAULT_RUN_OUT));
        cs.keeper.push(rating(player.keeper, 0));
      } else {  // a second card of the same player may carry ratings the first left out
        if (player.catch !== undefined && player.catch !== null) cs.catch[p] = rating(player.catch, cs.catch[p]);
        if (player.run_out !== undefined && player.run_out !== null) cs.runOut[p] = rating(player.run_out, cs.runOut[p]);
        if (player.keeper !== undefined && player.keeper !== null) cs.keeper[p] = rating(player.keeper, cs.keeper[p]);
      }
      var table = chartTable(card.chart, where);
      var defence = cardDefence(card);
      if (card.kind === "striker") {
        if (table.indexOf(C.BOWLED) >= 0) throw new CardSetError(where + ": B (bowled) appears only on bowler cards");
        cs.strikerCardOf[key] = cs.strikerLut.length;
        cs.strikerLut.push(table); cs.strikerPlayer.push(p); cs.strikerCards.push(card);
        cs.strikerDefence.push(defence);
      } else if (card.kind === "bowler") {
        cs.bowlerCardOf[key] = cs.bowlerLut.length;
        cs.bowlerLut.push(table); cs.bowlerPlayer.push(p); cs.bowlerCards.push(card);
      } else {
        throw new CardSetError(where + ": unknown kind");
      }
    });
    if (!cs.strikerLut.length || !cs.bowlerLut.length) {
      throw new CardSetError("a card set needs at least one striker and one bowler card");
    }
    // a set made for the Quicket rules carries no Defence rating (R13 is an advanced rule), as
    // cardset.check_defence_belongs refuses it in Python
    if (rules !== "advanced") {
      cs.strikerDefence.forEach(function (value, i) {
        if (value) {
          throw new CardSetError(cs.playerNames[cs.strikerPlayer[i]] + "'s striker card has a Defence rating, which "
            + "only the advanced rules play, in a set made for the Quicket rules; "
            + "remove it or make the set \"rules\": \"advanced\"");
        }
      });
    }
    (Array.isArray(cardSet.teams) ? cardSet.teams : []).forEach(function (t) {
      if (t && typeof t === "object" && t.name !== undefined) {
        cs.teams[String(t.name)] = t;
        cs.teamNames.push(String(t.name));
      }
    });
    return cs;
  }

  // ---------------------------------------------------------------------------------------
  // R12, the wickets-in-hand rule of the advanced rules (cardgen/wickets_in_hand.py)
  // ---------------------------------------------------------------------------------------
  var ATTACK = 0, NORMAL = 1, CONSOLIDATE = 2;
  var BANDS = ["attack", "normal", "consolidate"];
  var T20_BALLS = 120;
  var DEFAULT_RULE = {
    attackBelow: 5.0, consolidateFrom: 8.0, attackBowled: 1, attackOut: 2, attackFour: 8,
    attackSix: 10, consolidateSafe: 12, consolidateBoundaries: false, consolidateSaves: ["caught"],
    chaseAttackAbove: 2.0, chaseLine: null
  };

  /** The rule a set's rule_parameters describe (wickets_in_hand.from_description). */
  function ruleOfSet(cardSet) {
    var d = cardSet.rule_parameters;
    if (!d) return Object.assign({}, DEFAULT_RULE);
    try {
      var d20 = d.attack_d20;
      if (!d20 || typeof d20 !== "object" || Object.keys(d20).some(function (k) {
        return ["bowled", "caught", "four", "six"].indexOf(k) < 0;
      })) throw new Error("attack_d20 " + JSON.stringify(d20));
      var last = {}, end = 0;
      ["bowled", "caught", "four", "six"].forEach(function (result) {
        if (result in d20) {
          var lo = d20[result][0], hi = d20[result][1];
          if (!isWhole(lo) || !isWhole(hi) || lo !== end + 1 || hi < lo || hi > 20) {
            throw new Error("attack_d20 " + result + " " + JSON.stringify(d20[result]));
          }
          end = hi;
        }
        last[result] = end;
      });
      var applies = d.consolidate_applies_to;
      var num = function (v, name) {
        if (typeof v !== "number") throw new Error(name);
        return v;
      };
      if (!Array.isArray(applies)) throw new Error("consolidate_applies_to");
      return {
        attackBelow: num(d.attack_below_balls_per_wicket, "attack_below_balls_per_wicket"),
        consolidateFrom: num(d.consolidate_from_balls_per_wicket, "consolidate_from_balls_per_wicket"),
        attackBowled: last.bowled, attackOut: last.caught, attackFour: last.four, attackSix: last.six,
        consolidateSafe: num(d.consolidate_d20_safe[1], "consolidate_d20_safe"),
        consolidateBoundaries: applies.indexOf("4") >= 0,
        consolidateSaves: applies.filter(function (k) { return k !== "4" && k !== "6"; }),
        chaseAttackAbove: "chase_attack_above_runs_per_ball" in d
          ? num(d.chase_attack_above_runs_per_ball, "chase_attack_above_runs_per_ball") : null,
        chaseLine: "chase_line" in d ? chaseLineOf(d.chase_line) : null
      };
    } catch (err) {
      throw new CardSetError("the card set's rule_parameters are damaged (" + (err.message || err) + "); rebuild the card set");
    }
  }

  /** The printed table: per wickets down 0..9, [attack while balls left <= a, consolidate while
   * balls left >= c] (WicketsInHand.thresholds; 100-ball edges scaled to its 100 balls). */
  function bandThresholds(rule, ballsPerInnings) {
    var scale = ballsPerInnings / T20_BALLS;
    var rows = [];
    for (var down = 0; down < 10; down++) {
      var hand = 10 - down;
      rows.push([Math.ceil(rule.attackBelow * hand * scale - 1e-9) - 1,
                 Math.ceil(rule.consolidateFrom * hand * scale - 1e-9)]);
    }
    return rows;
  }

  /** The chase line a set's rule_parameters.chase_line describes (wickets_in_hand.ChaseLine):
   * rate edges (runs needed a ball), wickets-in-hand edges, a row of cells (A, N, C or T) per
   * rate row, a cell per wickets-in-hand column. */
  function chaseLineOf(d) {
    var letters = { A: ATTACK, N: NORMAL, C: CONSOLIDATE, T: -1 };
    var rates = d.runs_per_ball_edges, hands = d.wickets_in_hand_edges, rows = d.cells;
    if (!Array.isArray(rates) || !Array.isArray(hands) || !Array.isArray(rows)
        || rows.length !== rates.length + 1) throw new Error("chase_line");
    var cells = rows.map(function (row) {
      if (typeof row !== "string" || row.length !== hands.length + 1) throw new Error("chase_line cells");
      return row.split("").map(function (ch) {
        if (!(ch in letters)) throw new Error("chase_line cell " + ch);
        return letters[ch];
      });
    });
    rates.forEach(function (e) { if (typeof e !== "number") throw new Error("chase_line edges"); });
    hands.forEach(function (e) { if (typeof e !== "number") throw new Error("chase_line edges"); });
    return { rateEdges: rates, handEdges: hands, cells: cells };
  }

  /** The chase's band from its line (or the clause as a line: read the table up to its edge,
   * attack past it); -1: the table's band stands. Runs needed > edge x balls left, as Python. */
  function chaseBand(rule, wicketsDown, ballsLeft, runsNeeded) {
    var line = rule.chaseLine;
    if (!line) {
      if (rule.chaseAttackAbove === null) return -1;
      return runsNeeded > rule.chaseAttackAbove * ballsLeft ? ATTACK : -1;
    }
    return chaseCell(rule, wicketsDown, ballsLeft, runsNeeded).cell;
  }

  /** The chase line's cell before a ball of a chase: {row, col, cell} (row: the runs-needed row,
   * col: the wickets-in-hand column, cell -1: read the table), or null without a line or a
   * chase. Runs needed > edge x balls left, as Python (ChaseLine). */
  function chaseCell(rule, wicketsDown, ballsLeft, runsNeeded) {
    var line = rule && rule.chaseLine;
    if (!line || runsNeeded === null || runsNeeded === undefined) return null;
    var row = 0, col = 0, hand = 10 - Math.min(wicketsDown, 10);
    line.rateEdges.forEach(function (e) { if (runsNeeded > e * ballsLeft) row += 1; });
    line.handEdges.forEach(function (h) { if (hand > h) col += 1; });
    return { row: row, col: col, cell: line.cells[row][col] };
  }

  /** The line's rows as the scoresheet prints them ("need ≤ 2×left", ..., "need > 2.5×left":
   * the first that holds) and its columns' wickets in hand ("1-6", "7-10"). */
  function chaseRowWords(line) {
    if (!line.rateEdges.length) return ["any need"];
    return line.rateEdges.map(function (e) { return "need ≤ " + e + "×left"; })
      .concat(["need > " + line.rateEdges[line.rateEdges.length - 1] + "×left"]);
  }
  function chaseColumnWords(line) {
    var bounds = [0].concat(line.handEdges, [10]), words = [];
    for (var k = 1; k < bounds.length; k++) {
      words.push(bounds[k] === bounds[k - 1] + 1 ? String(bounds[k]) : (bounds[k - 1] + 1) + "-" + bounds[k]);
    }
    return words;
  }

  /** R12's band before a delivery: from wickets down and legal balls left (the table), and in a
   * chase the runs needed (the chase line). The one place the band is decided. */
  function wicketsInHandBand(rule, wicketsDown, ballsLeft, ballsPerInnings, runsNeeded) {
    if (runsNeeded !== null && runsNeeded !== undefined) {
      var chase = chaseBand(rule, Math.min(wicketsDown, 10), ballsLeft, runsNeeded);
      if (chase >= 0) return chase;
    }
    if (wicketsDown >= 10) return ATTACK;  // never bowled to (the innings is over), kept defined
    var left = Math.max(ballsLeft, 0);
    var edge = bandThresholds(rule, ballsPerInnings)[wicketsDown];
    if (left >= edge[1]) return CONSOLIDATE;
    if (left <= edge[0]) return ATTACK;
    return NORMAL;
  }

  /** The attack d20's faces in words: "1 bowled, 2 caught, 3-7 four, 8-10 six, 11-20 dot". */
  function attackWords(rule) {
    var ends = [[rule.attackBowled, "bowled"], [rule.attackOut, "caught"], [rule.attackFour, "four"],
                [rule.attackSix, "six"], [20, "dot"]];
    var lo = 0, words = [];
    ends.forEach(function (e) {
      if (e[0] > lo) words.push((e[0] === lo + 1 ? String(e[0]) : (lo + 1) + "-" + e[0]) + " " + e[1]);
      lo = Math.max(lo, e[0]);
    });
    return words.join(", ");
  }

  /** R12's extra d20 on a dot (attack) or a catch (consolidate), before the free hit. */
  function applyAdvancedRule(rule, band, ball, dice, nFielders, say, fielderName) {
    ball.band = BANDS[band];
    var dot = ball.outSlot === null && !ball.extraKind && ball.batRuns === 0;
    if (band === ATTACK && dot) {
      var d20 = dice.draw("d20", 0, "Attack d20 (R12), on the dot: " + attackWords(rule));
      if (d20 <= rule.attackBowled) {
        ball.outSlot = ball.striker; ball.howOut = "bowled";
        ball.result += " (attack: bowled)";
        say("attack d20 = " + d20 + ": bowled");
      } else if (d20 <= rule.attackOut) {
        ball.outSlot = ball.striker; ball.howOut = "caught";
        var f = dice.draw("pick", nFielders, "Caught going for it: shuffle the fielding side's deck and draw: who took the catch?");
        ball.fielders = [f];
        ball.result += " (attack: caught)";
        say("attack d20 = " + d20 + ": caught, by " + fielderName(f) + " (drawn from the deck)");
      } else if (d20 <= rule.attackFour) {
        ball.batRuns = 4; ball.result += " (attack: four)";
        say("attack d20 = " + d20 + ": four");
      } else if (d20 <= rule.attackSix) {
        ball.batRuns = 6; ball.result += " (attack: six)";
        say("attack d20 = " + d20 + ": six");
      } else {
        say("attack d20 = " + d20 + ": still a dot");
      }
    } else if (band === CONSOLIDATE) {
      var saved = ball.outSlot !== null && rule.consolidateSaves.indexOf(ball.howOut) >= 0;
      if (saved || (rule.consolidateBoundaries && (ball.batRuns === 4 || ball.batRuns === 6))) {
        var roll = dice.draw("d20", 0, "Consolidate d20 (R12): 1-" + rule.consolidateSafe + " the " + (saved ? "catch goes to ground, not out" : "boundary is a single"));
        if (roll <= rule.consolidateSafe) {
          if (saved) {
            ball.outSlot = null; ball.howOut = ""; ball.fielders = [];
            ball.result += " (consolidate: not out)";
            say("consolidate d20 = " + roll + ": kept on the ground, not out");
          } else {
            ball.batRuns = 1; ball.result += " (consolidate: single)";
            say("consolidate d20 = " + roll + ": a single");
          }
        } else {
          say("consolidate d20 = " + roll + ": the " + (saved ? "catch" : "boundary") + " stands");
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------
  // One delivery (reference._deliver)
  // ---------------------------------------------------------------------------------------
  function keeperRatingOf(cs, side) {
    var r = cs.keeper[side.players[side.keeperSlot]];
    return r > 0 ? r : DEFAULT_KEEPER;
  }

  /** Roll for one delivery and resolve it to runs, extras and any dismissal. Draws every die
   * before it changes anything, so scripted dice that run out (NeedDie) leave no trace. */
  function deliver(cs, dice, ctx) {
    var bowler = ctx.bowler, strikerCard = ctx.strikerCard;
    var fielders = ctx.fielders, keeperSlot = ctx.keeperSlot;
    var says = [];
    var say = function (s) { says.push(s); };
    var nameOf = function (p) { return cs.playerNames[p]; };
    var fielderName = function (slot) { return nameOf(fielders[slot]); };
    var bowlerName = nameOf(cs.bowlerPlayer[bowler]), strikerName = ctx.strikerName;

    var cardD6 = dice.draw("d6", 0, "d6: whose card? 1-3 the bowler's (" + bowlerName + "), 4-6 the striker's (" + strikerName + ")");                 // 3.2: 1-3 bowler card, 4-6 striker card
    var onBowler = cardD6 <= 3;
    var roll = dice.draw("2d10", 0, "2d10 on " + (onBowler ? bowlerName : strikerName) + "'s card (tens and units, 00 = 100)");   // 3.3
    var code = (onBowler ? cs.bowlerLut[bowler] : cs.strikerLut[strikerCard])[roll - 1];
    say("d6 = " + cardD6 + ": " + (onBowler ? "the bowler's card (" + bowlerName + ")" : "the striker's card (" + strikerName + ")"));
    say("2d10 = " + (roll === 100 ? "00" : roll) + ": " + CODE_WORDS[code]);
    var chartD6 = 0;
    if (code === C.FIELD) {                                  // 4.2: d6 + d20 on the fielding chart
      chartD6 = dice.draw("d6", 0, "F: the fielding chart's d6 (its row)");
      var chartD20 = dice.draw("d20", 0, "the fielding chart's d20 (its column; row " + chartD6 + ")");
      code = cs.fielding[chartD6 - 1][chartD20 - 1];
      say("fielding chart d6 = " + chartD6 + ", d20 = " + chartD20 + ": " + CODE_WORDS[code]);
    }
    var defended = false;
    var defence = ctx.defenceOn ? cs.strikerDefence[strikerCard] : 0;
    if (onBowler && code === C.CARD_W && defence) {          // R13: Defence against the bowler card's W
      var dd = dice.draw("d20", 0, "Defence d20 for " + strikerName + ": " + defence + " or under, the W is a dot (R13)");
      if (dd <= defence) { code = C.DOT; defended = true; }
      say("Defence d20 = " + dd + " against " + defence + ": " + (defended ? "survived, a dot" : "the W stands"));
    }
    var ball = {
      legalNo: 0, bowler: bowler, striker: ctx.strikerSlot, card: onBowler ? "bowler" : "striker",
      result: "", batRuns: 0, extras: 0, extraKind: "", legal: true, freeHit: ctx.freeHit,
      band: "", outSlot: null, howOut: "", fielders: []
    };
    if (code === 0 || code === 1 || code === 2 || code === 3 || code === 4 || code === 6) {
      ball.batRuns = code;
    } else if (code === C.BOWLED) {
      ball.outSlot = ctx.strikerSlot; ball.howOut = "bowled";
    } else if (code === C.LBW) {
      ball.outSlot = ctx.strikerSlot; ball.howOut = "lbw";
    } else if (code === C.STUMPED) {
      ball.outSlot = ctx.strikerSlot; ball.howOut = "stumped"; ball.fielders = [keeperSlot];
    } else if (code === C.CARD_W || code === C.CAUGHT) {     // 3.4.3.2 / 4.3.4: a random fielder
      ball.outSlot = ctx.strikerSlot; ball.howOut = "caught";
      ball.fielders = [dice.draw("pick", fielders.length, "Caught: shuffle the fielding side's deck and draw a card: who took the catch?")];
      say("caught by " + fielderName(ball.fielders[0]) + " (drawn from the deck)");
    } else if (code === C.CATCH_CHANCE) {                    // 4.3.7: d20 <= C, else one run
      var catcher = dice.draw("pick", fielders.length, "Catch chance: shuffle the fielding side's deck and draw a card: who is under it?");
      var c = cs.catch[fielders[catcher]];
      var cd = dice.draw("d20", 0, "d20 against " + fielderName(catcher) + "'s C(" + c + "): " + c + " or under, caught; over, dropped (1 run)");
      if (cd <= c) {
        ball.outSlot = ctx.strikerSlot; ball.howOut = "caught"; ball.fielders = [catcher];
      } else {
        ball.batRuns = 1;
      }
      say(fielderName(catcher) + " (drawn from the deck) C(" + c + "), d20 = " + cd + ": " + (cd <= c ? "caught" : "dropped, 1 run"));
    } else if (code === C.STUMPING_CHANCE) {                 // 4.3.6: d20 <= keeper rating, else a dot
      var sd = dice.draw("d20", 0, "Stumping chance: d20 against the keeper " + fielderName(keeperSlot) + " (" + ctx.keeperRating + "): at or under, stumped");
      if (sd <= ctx.keeperRating) {
        ball.outSlot = ctx.strikerSlot; ball.howOut = "stumped"; ball.fielders = [keeperSlot];
      }
      say("keeper " + fielderName(keeperSlot) + " (" + ctx.keeperRating + "), d20 = " + sd + ": " + (sd <= ctx.keeperRating ? "stumped" : "not out, a dot"));
    } else if (code === C.RUN_OUT || code === C.RUN_OUT_CHANCE) {  // 4.3.3 / 4.3.8: the chart's d6
      var strikerOut = chartD6 >= 1 && chartD6 <= 3;
      var withKeeper = chartD6 === 1 || chartD6 === 3 || chartD6 === 4 || chartD6 === 6;
      var involved;
      if (withKeeper) {                                      // R3: the other fielder is one of the other ten
        var fielder = dice.draw("pick", fielders.length - 1, "Run out with the keeper: shuffle the deck without the keeper (" + fielderName(keeperSlot) + ") and draw: who threw?");
        if (fielder >= keeperSlot) fielder += 1;
        involved = [fielder, keeperSlot];
      } else {
        involved = [dice.draw("pick", fielders.length, "Run out: shuffle the fielding side's deck and draw: who threw?")];
      }
      var out = true, rd = 0;
      if (code === C.RUN_OUT_CHANCE) {
        rd = dice.draw("d20", 0, "Run-out chance: d20 against " + involved.map(function (f) { return fielderName(f) + "'s RO(" + cs.runOut[fielders[f]] + ")"; }).join(" and ") + ": at or under " + (involved.length > 1 ? "both" : "it") + ", out");
        out = involved.every(function (f) { return rd <= cs.runOut[fielders[f]]; });
      }
      var who = (strikerOut ? "the striker" : "the non-striker");
      var by = involved.map(function (f) { return fielderName(f) + " RO(" + cs.runOut[fielders[f]] + ")"; }).join(" and ");
      say("chart d6 = " + chartD6 + ": " + who + ", " + by + (code === C.RUN_OUT ? ": run out"
        : ", d20 = " + rd + ": " + (out ? "run out" : "safe, 1 run")));
      if (out) {
        ball.outSlot = strikerOut ? ctx.strikerSlot : ctx.nonStrikerSlot;
        ball.howOut = "run out"; ball.fielders = involved;
      } else {
        ball.batRuns = 1;
      }
    } else if (code === C.LEG_BYE || code === C.BYE) {       // 4.3.9: one run, a legal ball
      ball.extras = 1; ball.extraKind = code === C.LEG_BYE ? "leg_bye" : "bye";
    } else if (code === C.LEG_BYE_4 || code === C.BYE_4) {   // R14: four to Extras, no crossing
      ball.extras = 4; ball.extraKind = code === C.LEG_BYE_4 ? "leg_bye" : "bye";
    } else if (code === C.WIDE || code === C.NO_BALL) {      // 4.3.10-11: one run, not a legal ball
      ball.extras = 1; ball.extraKind = code === C.WIDE ? "wide" : "no_ball"; ball.legal = false;
    } else {
      throw new Error("unhandled result code " + code);
    }
    ball.result = CODE_NAMES[code];
    if (defended) ball.result = "W (defence: not out, a dot)";
    if (ctx.rule && ctx.band !== null) applyAdvancedRule(ctx.rule, ctx.band, ball, dice, fielders.length, say, fielderName);
    if (ctx.freeHit && ball.outSlot !== null && ball.howOut !== "run out") {
      // R6: on a free hit only a run-out dismisses; the dismissal becomes a dot
      ball.outSlot = null; ball.howOut = ""; ball.fielders = [];
      ball.result += " (free hit: not out)";
      say("free hit: not out");
    }
    ball.says = says;
    return ball;
  }

  // ---------------------------------------------------------------------------------------
  // One innings, a ball at a time (reference.play_innings as a state machine)
  // ---------------------------------------------------------------------------------------
  /** opts: target (runs to win, or null), maxBalls, maxWickets, order (striker-card rows in
   * batting order), rule (R12 or null), defenceOn (R13) */
  function Innings(cs, batting, bowling, opts) {
    this.cs = cs; this.batting = batting; this.bowling = bowling;
    this.target = opts.target === undefined ? null : opts.target;
    this.maxBalls = opts.maxBalls || cs.fmt.ballsPerInnings;
    this.maxWickets = opts.maxWickets || 10;
    this.order = opts.order || batting.batters;
    this.slotPlayers = opts.slotPlayers || batting.players;  // player index of each batting slot
    this.rule = opts.rule || null;
    this.defenceOn = !!opts.defenceOn;
    this.superOver = !!opts.superOver;
    this.runs = 0; this.wickets = 0; this.legalBalls = 0;
    this.byes = 0; this.legByes = 0; this.wides = 0; this.noBalls = 0;
    this.batters = {}; this.bowlers = {}; this.unitBowler = []; this.balls = [];
    this.batters[0] = newBatterLine(); this.batters[1] = newBatterLine();
    this.battedOrder = [0, 1];
    this.striker = 0; this.nonStriker = 1; this.nextIn = 2; this.freeHit = false;
    this.keeperRating = keeperRatingOf(cs, bowling);
    this.fow = [];
  }
  function newBatterLine() { return { runs: 0, balls: 0, fours: 0, sixes: 0, howOut: "", out: false }; }
  function newBowlerLine() { return { legalBalls: 0, runs: 0, wickets: 0, wides: 0, noBalls: 0, dots: 0, units: {} }; }

  Innings.prototype.done = function () {
    return this.wickets >= this.maxWickets || this.legalBalls >= this.maxBalls
      || (this.target !== null && this.runs >= this.target);
  };
  Innings.prototype.unit = function () { return Math.floor(this.legalBalls / this.cs.fmt.ballsPerOver); };
  /** The band before the next ball (null: the rules as printed, or a super over). */
  Innings.prototype.band = function () {
    if (!this.rule) return null;
    var balls = this.cs.fmt.ballsPerInnings;
    return wicketsInHandBand(this.rule, this.wickets, balls - this.legalBalls, balls,
      this.target === null ? null : this.target - this.runs);
  };
  /** The chase line's cell before the next ball (`chaseCell`; null: no line, no chase, the
   * rules as printed or a super over). */
  Innings.prototype.chaseCell = function () {
    if (!this.rule) return null;
    var balls = this.cs.fmt.ballsPerInnings;
    return chaseCell(this.rule, this.wickets, balls - this.legalBalls,
      this.target === null ? null : this.target - this.runs);
  };
  /** Bowl one ball with `bowler` (a bowler-card row) and the dice; returns the ball. */
  Innings.prototype.bowl = function (bowler, dice) {
    var cs = this.cs, fmt = cs.fmt;
    var unit = this.unit();
    var band = this.band();
    var strikerCard = this.order[this.striker];
    var ball = deliver(cs, dice, {
      bowler: bowler, strikerCard: strikerCard, strikerSlot: this.striker,
      nonStrikerSlot: this.nonStriker, freeHit: this.freeHit, fielders: this.bowling.players,
      keeperSlot: this.bowling.keeperSlot, keeperRating: this.keeperRating, rule: this.rule,
      band: band, defenceOn: this.defenceOn, strikerName: cs.playerNames[this.slotPlayers[this.striker]]
    });
    // --- every die is drawn: from here on the innings changes ---------------------------
    if (this.unitBowler.length <= unit) this.unitBowler.push(bowler);
    ball.nonStriker = this.nonStriker;
    ball.unit = unit;
    ball.ballOfUnit = this.legalBalls - unit * fmt.ballsPerOver;  // legal balls of the over before it
    var line = this.bowlers[bowler] || (this.bowlers[bowler] = newBowlerLine());
    var bat = this.batters[this.striker];
    var total = ball.batRuns + ball.extras;
    this.runs += total;
    if (ball.legal) { this.legalBalls += 1; line.legalBalls += 1; }
    ball.legalNo = this.legalBalls;
    if (ball.extraKind !== "wide") bat.balls += 1;  // a wide is not a ball faced; a no-ball is
    bat.runs += ball.batRuns;
    if (ball.batRuns === 4) bat.fours += 1;
    if (ball.batRuns === 6) bat.sixes += 1;
    var charged = ball.batRuns + (ball.extraKind === "wide" || ball.extraKind === "no_ball" ? ball.extras : 0);
    line.runs += charged;
    line.units[unit] = (line.units[unit] || 0) + charged;
    if (ball.legal && charged === 0) line.dots += 1;
    if (ball.extraKind === "wide") { this.wides += ball.extras; line.wides += ball.extras; }
    else if (ball.extraKind === "no_ball") { this.noBalls += ball.extras; line.noBalls += ball.extras; }
    else if (ball.extraKind === "bye") this.byes += ball.extras;
    else if (ball.extraKind === "leg_bye") this.legByes += ball.extras;
    this.balls.push(ball);
    ball.incoming = null;
    if (ball.outSlot !== null) {
      this.wickets += 1;
      var outLine = this.batters[ball.outSlot];
      outLine.howOut = ball.howOut; outLine.out = true;
      outLine.bowler = bowler; outLine.fielders = ball.fielders.slice();
      if (ball.howOut !== "run out") line.wickets += 1;
      this.fow.push({ wicket: this.wickets, runs: this.runs, slot: ball.outSlot, legalBalls: this.legalBalls });
      if (this.wickets < this.maxWickets && this.nextIn < this.order.length) {
        this.batters[this.nextIn] = newBatterLine();
        this.battedOrder.push(this.nextIn);
        ball.incoming = this.nextIn;
        if (ball.outSlot === this.striker) this.striker = this.nextIn;   // R4/R5: the new batter
        else this.nonStriker = this.nextIn;                              // takes the dismissed end
        this.nextIn += 1;
      }
    }
    var ran = ball.batRuns + (ball.extraKind === "bye" || ball.extraKind === "leg_bye" ? ball.extras : 0);
    if (ran % 2) swapEnds(this);                               // 3.4.2: odd runs swap ends
    if (ball.legal && this.legalBalls % fmt.ballsPerEnd === 0) swapEnds(this);  // ends change
    // 4.3.10 / R6: a no-ball gives a free hit; a wide on a free hit keeps it
    this.freeHit = ball.extraKind === "no_ball" || (this.freeHit && ball.extraKind === "wide");
    ball.runsAfter = this.runs; ball.wicketsAfter = this.wickets;
    return ball;
  };
  function swapEnds(inn) { var s = inn.striker; inn.striker = inn.nonStriker; inn.nonStriker = s; }

  Q.SharedRandom = SharedRandom;
  Q.DICE_STREAM = DICE_STREAM;
  Q.CAPTAIN_STREAM = CAPTAIN_STREAM;
  Q.MAX_SEED = MAX_SEED;
  Q.NeedDie = NeedDie;
  Q.RollingDice = RollingDice;
  Q.ScriptedDice = ScriptedDice;
  Q.DIE_RANGE = DIE_RANGE;
  Q.CODES = C;
  Q.CODE_WORDS = CODE_WORDS;
  Q.FORMATS = FORMATS;
  Q.CardSetError = CardSetError;
  Q.compileSet = compileSet;
  Q.rulesName = rulesName;
  Q.BANDS = BANDS;
  Q.bandThresholds = bandThresholds;
  Q.wicketsInHandBand = wicketsInHandBand;
  Q.attackWords = attackWords;
  Q.chaseCell = chaseCell;
  Q.chaseRowWords = chaseRowWords;
  Q.chaseColumnWords = chaseColumnWords;
  Q.Innings = Innings;
  Q.keeperRatingOf = keeperRatingOf;
})(globalThis.Quicket = globalThis.Quicket || {});
