/* The scorecard of a match: the page shows it and prints it; `cardgen replay` prints the same
 * rows as text (cardgen/play/scorecard.py builds them by the same rules from the Python
 * reference engine's innings, and the tests compare the two).
 */
(function (Q) {
  "use strict";

  /** num / den to two decimals, halves rounded up, in whole numbers ("-" when den is 0), so
   * both languages print the same digits (floats would differ on exact halves). */
  function fixed2(num, den) {
    if (!den) return "-";
    var q = Math.floor((num * 200 + den) / (2 * den));
    var cents = q % 100;
    return Math.floor(q / 100) + "." + (cents < 10 ? "0" : "") + cents;
  }
  function overs(legal, perOver) { return Math.floor(legal / perOver) + "." + (legal % perOver); }

  function oversWords(fmt, legal) {
    if (fmt.name !== "T20") return legal + " ball" + (legal === 1 ? "" : "s");
    var o = legal % fmt.ballsPerOver ? overs(legal, fmt.ballsPerOver) : String(legal / fmt.ballsPerOver);
    return o + (o === "1" ? " over" : " overs");
  }

  var RULES_LABEL = { quicket: "Quicket rules", advanced: "Advanced rules" };

  /** One innings as plain values: everything the scorecard reads (the same in Python). */
  function inningsView(match, cur) {
    var cs = match.cs, bat = match.sides[cur.bat], bowl = match.sides[cur.bowl];
    return {
      team: bat.team, superOver: cur.superOver, maxWickets: cur.inn.maxWickets,
      slots: cur.superOver ? 3 : 11,
      batName: function (slot) { return cs.playerNames[bat.players[slot]]; },
      keeperSlot: bat.keeperSlot,
      fieldName: function (slot) { return cs.playerNames[bowl.players[slot]]; },
      fieldPlayer: function (slot) { return bowl.players[slot]; },
      bowlerName: function (card) { return cs.playerNames[cs.bowlerPlayer[card]]; },
      bowlerPlayer: function (card) { return cs.bowlerPlayer[card]; },
      balls: cur.inn.balls.map(function (b) {
        return { bowler: b.bowler, striker: b.striker, batRuns: b.batRuns, extras: b.extras,
                 extraKind: b.extraKind, legal: b.legal, outSlot: b.outSlot, howOut: b.howOut,
                 fielders: b.fielders };
      })
    };
  }

  /** How a batter was out, as a scorecard says it. */
  function howOutText(view, ball) {
    var bowler = view.bowlerName(ball.bowler);
    switch (ball.howOut) {
      case "bowled": return "b " + bowler;
      case "lbw": return "lbw b " + bowler;
      case "stumped": return "st " + view.fieldName(ball.fielders[0]) + " b " + bowler;
      case "caught":
        return view.fieldPlayer(ball.fielders[0]) === view.bowlerPlayer(ball.bowler)
          ? "c & b " + bowler : "c " + view.fieldName(ball.fielders[0]) + " b " + bowler;
      case "run out": return "run out (" + ball.fielders.map(view.fieldName).join(" / ") + ")";
      default: return ball.howOut;
    }
  }

  /** The scorecard of one innings: headed rows, like the kit's printed scorecard page. */
  function inningsCard(fmt, view) {
    var bpo = fmt.ballsPerOver;
    var lines = {}, order = [0, 1], out = {}, bowlers = [], figures = {};
    var runs = 0, wickets = 0, legal = 0, byes = 0, legByes = 0, wides = 0, noBalls = 0, fow = [];
    var unitRuns = {}, unitBalls = {};
    lines[0] = { runs: 0, balls: 0, fours: 0, sixes: 0 };
    lines[1] = { runs: 0, balls: 0, fours: 0, sixes: 0 };
    var nextIn = 2;
    view.balls.forEach(function (b) {
      var unit = Math.floor(legal / bpo);
      var line = lines[b.striker];
      if (b.extraKind !== "wide") line.balls += 1;
      line.runs += b.batRuns;
      if (b.batRuns === 4) line.fours += 1;
      if (b.batRuns === 6) line.sixes += 1;
      if (figures[b.bowler] === undefined) {
        bowlers.push(b.bowler);
        figures[b.bowler] = { legal: 0, runs: 0, wickets: 0, wides: 0, noBalls: 0, dots: 0, units: [] };
      }
      var f = figures[b.bowler];
      var charged = b.batRuns + (b.extraKind === "wide" || b.extraKind === "no_ball" ? b.extras : 0);
      f.runs += charged;
      if (f.units.indexOf(unit) < 0) f.units.push(unit);
      unitRuns[unit] = (unitRuns[unit] || 0) + charged;
      if (b.legal) {
        legal += 1; f.legal += 1;
        unitBalls[unit] = (unitBalls[unit] || 0) + 1;
        if (charged === 0) f.dots += 1;
      }
      if (b.extraKind === "wide") { wides += b.extras; f.wides += b.extras; }
      else if (b.extraKind === "no_ball") { noBalls += b.extras; f.noBalls += b.extras; }
      else if (b.extraKind === "bye") byes += b.extras;
      else if (b.extraKind === "leg_bye") legByes += b.extras;
      runs += b.batRuns + b.extras;
      if (b.outSlot !== null) {
        wickets += 1;
        out[b.outSlot] = b;
        if (b.howOut !== "run out") f.wickets += 1;
        fow.push(wickets + "-" + runs + " (" + view.batName(b.outSlot) + ", "
          + (fmt.name === "T20" ? overs(legal, bpo) : "ball " + legal) + ")");
        if (wickets < view.maxWickets && nextIn < view.slots) {
          lines[nextIn] = { runs: 0, balls: 0, fours: 0, sixes: 0 };
          order.push(nextIn);
          nextIn += 1;
        }
      }
    });
    var batting = order.map(function (slot) {
      var l = lines[slot];
      return [view.batName(slot) + (slot === view.keeperSlot ? " †" : ""),
              out[slot] ? howOutText(view, out[slot]) : "not out",
              String(l.runs), String(l.balls), String(l.fours), String(l.sixes), fixed2(l.runs * 100, l.balls)];
    });
    var didNotBat = [];
    for (var s = nextIn; s < view.slots; s++) didNotBat.push(view.batName(s) + (s === view.keeperSlot ? " †" : ""));
    var bowling = bowlers.map(function (card) {
      var f = figures[card];
      if (fmt.name === "T20") {
        var maidens = f.units.filter(function (u) { return unitBalls[u] === bpo && unitRuns[u] === 0; }).length;
        return [view.bowlerName(card), overs(f.legal, bpo), String(maidens), String(f.runs), String(f.wickets),
                String(f.wides), String(f.noBalls), fixed2(f.runs * 6, f.legal)];
      }
      return [view.bowlerName(card), String(f.legal), String(f.dots), String(f.runs), String(f.wickets),
              String(f.wides), String(f.noBalls)];
    });
    var extras = byes + legByes + wides + noBalls;
    return {
      heading: view.superOver ? view.team + ": super over " + view.superOver : view.team + " innings",
      battingHeader: ["Batter", "How out", "R", "B", "4s", "6s", "SR"],
      batting: batting,
      didNotBat: didNotBat,
      extras: "Extras " + extras + " (b " + byes + ", lb " + legByes + ", w " + wides + ", nb " + noBalls + ")",
      total: "Total " + runs + (wickets === 10 ? " all out" : "/" + wickets) + " (" + oversWords(fmt, legal) + ")",
      fallOfWickets: fow,
      bowlingHeader: fmt.name === "T20" ? ["Bowler", "O", "M", "R", "W", "Wd", "NB", "Econ"]
        : ["Bowler", "Balls", "Dots", "R", "W", "Wd", "NB"],
      bowling: bowling
    };
  }

  /** The whole scorecard (a match in play has no result yet). */
  function scorecard(match) {
    var cs = match.cs, raw = cs.raw, comp = raw.competition || {};
    var teams = [match.sides[match.first].team, match.sides[1 - match.first].team];
    return {
      title: (comp.name || comp.code || "") + " " + (raw.season || "") + ": " + teams[0] + " v " + teams[1]
        + " (" + cs.fmt.name + ", " + RULES_LABEL[cs.rules] + ")",
      result: match.result ? match.result.text : "In play",
      innings: match.innings.map(function (cur) { return inningsCard(cs.fmt, inningsView(match, cur)); })
    };
  }

  function textTable(header, rows) {
    var all = [header].concat(rows);
    var widths = header.map(function (_, c) {
      return Math.max.apply(null, all.map(function (r) { return r[c].length; }));
    });
    return all.map(function (r) {
      return r.map(function (cell, c) {
        return c < 2 ? cell + " ".repeat(widths[c] - cell.length) : " ".repeat(widths[c] - cell.length) + cell;
      }).join("  ").replace(/\s+$/, "");
    });
  }

  /** The scorecard as text (what `cardgen replay` prints for the same match). */
  function scorecardText(card) {
    var lines = [card.title, card.result];
    card.innings.forEach(function (inn) {
      lines.push("", inn.heading);
      lines = lines.concat(textTable(inn.battingHeader, inn.batting));
      if (inn.didNotBat.length) lines.push("Did not bat: " + inn.didNotBat.join(", "));
      lines.push(inn.extras, inn.total);
      if (inn.fallOfWickets.length) lines.push("Fall of wickets: " + inn.fallOfWickets.join(", "));
      lines = lines.concat(textTable(inn.bowlingHeader, inn.bowling));
    });
    return lines.join("\n") + "\n";
  }

  Q.fixed2 = fixed2;
  Q.oversText = overs;
  Q.RULES_LABEL = RULES_LABEL;
  Q.scorecard = scorecard;
  Q.scorecardText = scorecardText;
})(globalThis.Quicket = globalThis.Quicket || {});
