/* Sides and the computer captain (cardgen/sim/captain.py, and cardgen/play/sides.py for the
 * page's sides): the XI in batting order, the keeper, and the bowling plan of an innings drawn
 * from each bowler's real share of his team's balls, within the format's limits.
 *
 * The plan is the simulator's, to the last bit: the shares are water-filled under the cap, rounded
 * at random by one uniform draw (QuotaDraw), and ordered greedily (order_plan). numpy sums a
 * float array pairwise (8 accumulators from 8 elements on), so `npSum` does too: the same floats
 * in, the same plan out.
 */
(function (Q) {
  "use strict";

  /** numpy's float64 sum of a contiguous array (pairwise_sum for up to 128 elements). */
  function npSum(a) {
    var n = a.length, i, res;
    if (n < 8) {
      res = 0;
      for (i = 0; i < n; i++) res += a[i];
      return res;
    }
    if (n > 128) throw new Error("npSum: more than 128 elements");
    var r = a.slice(0, 8);
    for (i = 8; i < n - (n % 8); i += 8) {
      for (var j = 0; j < 8; j++) r[j] += a[i + j];
    }
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += a[i];
    return res;
  }

  function pick(a, mask) { return a.filter(function (_, i) { return mask[i]; }); }

  /** captain.QuotaDraw: the capped real shares, worked out once; draw() rounds them. */
  function QuotaDraw(weights, fmt) {
    var units = fmt.units, cap = fmt.maxUnitsPerBowler;
    if (weights.length * cap < units) {
      throw new Q.CardSetError(weights.length + " bowlers cannot bowl " + units + " units at " + cap + " each");
    }
    var w = weights.map(function (x) { return x > 0 ? x : 1e-6; });
    var target = w.map(function () { return 0; });
    var free = w.map(function () { return true; });
    var left = units;
    for (;;) {  // water-filling: cap the heavy bowlers, share the rest out again
      var wf = pick(w, free), total = npSum(wf);
      var i;
      for (i = 0; i < w.length; i++) if (free[i]) target[i] = left * w[i] / total;
      var over = target.map(function (t, k) { return free[k] && t > cap; });
      if (over.indexOf(true) < 0) break;
      for (i = 0; i < w.length; i++) if (over[i]) { target[i] = cap; free[i] = false; }
      left = units - npSum(pick(target, free.map(function (f) { return !f; })));
    }
    this.floor = target.map(function (t) { return Math.floor(t + 1e-9); });
    this.short = units - this.floor.reduce(function (s, x) { return s + x; }, 0);
    this.edges = [];
    if (this.short) {
      // systematic sampling: bowler i gets his extra unit with probability exactly frac[i]
      var floor = this.floor;
      var frac = target.map(function (t, k) { return floor[k] < cap ? Math.min(Math.max(t - floor[k], 0), 1) : 0; });
      var scale = this.short / npSum(frac);
      frac = frac.map(function (f) { return f * scale; });
      var edge = 0;
      this.edges = [0];
      for (var k = 0; k < frac.length; k++) { edge += frac[k]; this.edges.push(edge); }
    }
  }
  /** Units per bowler, from one uniform draw of `rng` (np.histogram of u, u + 1, ...). */
  QuotaDraw.prototype.draw = function (rng) {
    var quota = this.floor.slice();
    if (!this.short) return quota;
    var u = rng.random(), edges = this.edges, last = edges.length - 2;
    for (var p = 0; p < this.short; p++) {
      var x = u + p;
      for (var b = 0; b <= last; b++) {
        if (x >= edges[b] && (x < edges[b + 1] || (b === last && x <= edges[b + 1]))) { quota[b] += 1; break; }
      }
    }
    return quota;
  };

  /** captain.order_plan: bowler index per unit, T20 never two overs running, 100-ball spells of
   * one or two sets between changes of end; greedy on most units left. */
  function orderPlan(quota, fmt) {
    var remaining = quota.slice(), plan = [], spell = 0, hundred = fmt.name === "100-ball";
    var total = remaining.reduce(function (s, x) { return s + x; }, 0);
    for (var u = 0; u < total; u++) {
      var last = plan.length ? plan[plan.length - 1] : -1, choice;
      if (hundred && spell === 1 && plan.length % 2 === 1 && remaining[last] > 0) {
        choice = last;
      } else {
        var allowed = remaining.slice();
        if (last >= 0) allowed[last] = -1;
        var best = Math.max.apply(null, allowed);
        choice = allowed.indexOf(best);
        if (best <= 0) throw new Q.CardSetError("no bowler can take the next over within the limits");
      }
      spell = choice === last ? spell + 1 : 1;
      remaining[choice] -= 1;
      plan.push(choice);
    }
    return plan;
  }

  // ---------------------------------------------------------------------------------------
  // Sides as the page fields them
  // ---------------------------------------------------------------------------------------
  function key(pid, team) { return String(pid) + "|" + String(team); }

  /** Each bowler card's share of its team's legal balls over the season (card `real.balls`). */
  function bowlingShares(cs) {
    var totals = {}, shares = {};
    var ballsOf = function (card) {
      var b = (card.real || {}).balls;
      return typeof b === "number" && isFinite(b) ? Math.trunc(b) : 0;
    };
    cs.bowlerCards.forEach(function (card) {
      totals[card.team] = (totals[card.team] || 0) + ballsOf(card);
    });
    cs.bowlerCards.forEach(function (card) {
      shares[key(card.player.id, card.team)] = totals[card.team] > 0 ? ballsOf(card) / totals[card.team] : 0;
    });
    return shares;
  }

  /** R9: a batter without a striker card bats with his team's last-placed striker card. */
  function standInStriker(cs, team) {
    var best = null;
    cs.strikerCards.forEach(function (c, i) {
      if (c.team !== team) return;
      var row = [Number(c.position) || 99, -i];
      if (best === null || row[0] > best[0][0] || (row[0] === best[0][0] && row[1] > best[0][1])) best = [row, i];
    });
    return best === null ? null : best[1];
  }

  /** Every player of a team with a card, in the team sheet's order: the usual XI, then the rest. */
  function squad(cs, team) {
    var entry = cs.teams[team] || {};
    var seen = {}, ids = [];
    var add = function (pid) {
      pid = String(pid);
      if (!seen[pid] && cs.playerOf[key(pid, team)] !== undefined) { seen[pid] = true; ids.push(pid); }
    };
    (entry.batting_order || []).forEach(add);
    (entry.reserves || []).forEach(add);
    cs.strikerCards.concat(cs.bowlerCards).forEach(function (c) { if (c.team === team) add(c.player.id); });
    return ids;
  }

  /** The team's usual XI (the card set's batting order) and keeper. */
  function usualXI(cs, team) {
    var entry = cs.teams[team];
    if (!entry) throw new Q.CardSetError("no team " + JSON.stringify(team) + " in the card set");
    var xi = (entry.batting_order || []).map(String);
    if (xi.length !== 11) xi = squad(cs, team).slice(0, 11);
    var keeper = entry.wicketkeeper === undefined || entry.wicketkeeper === null ? null : String(entry.wicketkeeper);
    return { xi: xi, keeper: keeper };
  }

  /** Why an XI cannot take the field ("" when it can). */
  function xiProblem(cs, team, xi) {
    if (xi.length !== 11) return "an XI needs 11 players (" + xi.length + " chosen)";
    var seen = {};
    for (var i = 0; i < xi.length; i++) {
      if (seen[xi[i]]) return cs.playerNames[cs.playerOf[key(xi[i], team)]] + " is in the XI twice";
      seen[xi[i]] = true;
      if (cs.playerOf[key(xi[i], team)] === undefined) return "player " + xi[i] + " has no card for " + team;
    }
    var bowlers = xi.filter(function (pid) { return cs.bowlerCardOf[key(pid, team)] !== undefined; }).length;
    var need = Math.ceil(cs.fmt.units / cs.fmt.maxUnitsPerBowler);
    if (bowlers < need) {
      return "this XI has " + bowlers + " bowler" + (bowlers === 1 ? "" : "s") + " with a card; the "
        + cs.fmt.units + (cs.fmt.name === "T20" ? " overs" : " sets") + " need at least " + need;
    }
    if (standInStriker(cs, team) === null) return team + " has no striker card";
    return "";
  }

  /** A side: players (fielding slots), striker-card rows in batting order, the keeper's slot,
   * its bowler cards with their season shares, and R8's super-over bowler and batters. */
  function makeSide(cs, team, xi, keeperId, shares) {
    var problem = xiProblem(cs, team, xi);
    if (problem) throw new Q.CardSetError(team + ": " + problem);
    shares = shares || bowlingShares(cs);
    var players = [], batters = [], bowlerCards = [], weights = [], bowlerIds = [];
    xi.forEach(function (pid) {
      var k = key(pid, team);
      players.push(cs.playerOf[k]);
      batters.push(cs.strikerCardOf[k] !== undefined ? cs.strikerCardOf[k] : standInStriker(cs, team));
      if (cs.bowlerCardOf[k] !== undefined) {
        bowlerCards.push(cs.bowlerCardOf[k]);
        weights.push(shares[k] || 0);
        bowlerIds.push(pid);
      }
    });
    var keeperSlot = xi.indexOf(keeperId);
    if (keeperSlot < 0) {  // the best keeping rating in the XI, else the best catcher
      var best = -1;
      players.forEach(function (p, i) {
        var v = cs.keeper[p] * 100 + cs.catch[p];
        if (v > best) { best = v; keeperSlot = i; }
      });
    }
    var top = 0;
    weights.forEach(function (w, i) { if (w > weights[top]) top = i; });
    return {
      team: team, xi: xi.slice(), players: players, batters: batters, keeperSlot: keeperSlot,
      bowlerCards: bowlerCards, weights: weights, bowlerIds: bowlerIds,
      superOverBowler: bowlerCards[top], superOverBatters: batters.slice(0, 3)
    };
  }

  /** The computer's bowling plan for an innings: bowler-card rows per unit. */
  function drawPlan(cs, side, rng) {
    var quota = new QuotaDraw(side.weights, cs.fmt).draw(rng);
    return orderPlan(quota, cs.fmt).map(function (i) { return side.bowlerCards[i]; });
  }

  // ---------------------------------------------------------------------------------------
  // The limits, for a captain choosing over by over (captain.check_plan, as a question)
  // ---------------------------------------------------------------------------------------
  /** Can `prefix` (bowler cards of the units bowled, the next one included) still be completed
   * to a full innings within the limits by the side's bowlers? */
  function canComplete(cs, side, prefix) {
    var fmt = cs.fmt, cap = fmt.maxUnitsPerBowler, hundred = fmt.name === "100-ball";
    var used = {}, i;
    for (i = 0; i < prefix.length; i++) used[prefix[i]] = (used[prefix[i]] || 0) + 1;
    for (var b in used) if (used[b] > cap) return false;
    for (i = 1; i < prefix.length; i++) {
      if (prefix[i] !== prefix[i - 1]) continue;
      if (!hundred) return false;                      // T20: never two overs running
      if (i % 2 === 0) return false;                   // 100-ball: a spell of two sets from one end
    }
    var left = fmt.units - prefix.length;
    var caps = side.bowlerCards.map(function (c) { return cap - (used[c] || 0); });
    var lastIdx = prefix.length ? side.bowlerCards.indexOf(prefix[prefix.length - 1]) : -1;
    var memo = {};
    // a depth-first search over what is left: T20 no bowler twice running; 100-ball pairs
    // (sets 2k, 2k + 1) may be one bowler's, never across a change of end
    function search(leftUnits, unitIndex, last) {
      if (leftUnits === 0) return true;
      var sig = caps.join(",") + "/" + unitIndex + "/" + last;
      if (sig in memo) return memo[sig];
      var ok = false;
      for (var b = 0; b < caps.length && !ok; b++) {
        if (caps[b] <= 0) continue;
        // the same bowler again: only a 100-ball set completing a 10-ball spell from one end
        if (b === last && (!hundred || unitIndex % 2 === 0)) continue;
        caps[b] -= 1;
        ok = search(leftUnits - 1, unitIndex + 1, b);
        caps[b] += 1;
      }
      memo[sig] = ok;
      return ok;
    }
    return search(left, prefix.length, lastIdx);
  }

  /** For the captain choosing the next unit's bowler: each of the side's bowlers with whether
   * the limits allow him and why not. */
  function bowlerOptions(cs, side, bowled) {
    var fmt = cs.fmt, cap = fmt.maxUnitsPerBowler, unitWord = fmt.name === "T20" ? "overs" : "sets";
    return side.bowlerCards.map(function (card) {
      var used = bowled.filter(function (c) { return c === card; }).length;
      var reason = "";
      if (used >= cap) reason = "has bowled his " + cap + " " + unitWord;
      else if (!canComplete(cs, side, bowled.concat([card]))) {
        var last = bowled[bowled.length - 1];
        reason = last === card
          ? (fmt.name === "T20" ? "bowled the last over" : "would bowl more than 10 balls in a row or across a change of ends")
          : "the other bowlers could not finish the innings within the limits";
      }
      return { card: card, used: used, allowed: !reason, reason: reason };
    });
  }

  /** The computer's next bowler when it takes over a side mid-innings: the allowed bowler
   * furthest short of his real share of the units, the first in the XI on a tie. */
  function takeOverBowler(cs, side, bowled) {
    var options = bowlerOptions(cs, side, bowled), best = null, bestGap = -Infinity;
    options.forEach(function (o, i) {
      if (!o.allowed) return;
      var gap = side.weights[i] * cs.fmt.units - o.used;
      if (gap > bestGap + 1e-12) { bestGap = gap; best = o.card; }
    });
    return best;
  }

  Q.npSum = npSum;
  Q.QuotaDraw = QuotaDraw;
  Q.orderPlan = orderPlan;
  Q.bowlingShares = bowlingShares;
  Q.standInStriker = standInStriker;
  Q.squad = squad;
  Q.usualXI = usualXI;
  Q.xiProblem = xiProblem;
  Q.makeSide = makeSide;
  Q.drawPlan = drawPlan;
  Q.canComplete = canComplete;
  Q.bowlerOptions = bowlerOptions;
  Q.takeOverBowler = takeOverBowler;
  Q.playerKey = key;
})(globalThis.Quicket = globalThis.Quicket || {});
