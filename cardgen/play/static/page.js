/* play.html: the match page. Setup (teams, XIs, captains, seed, toss), then ball by ball:
 * Roll or type the dice, the scoreboard, the ball-by-ball grid, the scorecard; undo, resume
 * (browser storage), the match file; season mode. The rules are engine.js's; this file only
 * asks, shows and keeps. Keys: Space rolls, U undoes.
 */
(function (Q) {
  "use strict";
  var TOSS_STREAM = 2;
  var SEASON_STREAM = 3;
  var S = { cs: null, data: null, fp: "", match: null, entering: null, fixture: null, season: null, mode: "match" };

  // --- small helpers ------------------------------------------------------------------------
  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function show(id, on) { $(id).hidden = !on; }
  function message(text) {
    var box = $("message");
    box.textContent = text || "";
    box.hidden = !text;
  }
  function storage() {
    try { var s = window.localStorage; s.getItem("x"); return s; } catch (e) { return null; }
  }
  function storageKey(kind) { return "quicket-" + kind + ":" + (S.fp || "set"); }
  function save(kind, value) {
    var s = storage();
    if (!s) return;
    try {
      if (value === null) s.removeItem(storageKey(kind)); else s.setItem(storageKey(kind), JSON.stringify(value));
    } catch (e) { /* full or switched off: the match plays on, unsaved */ }
  }
  function load(kind) {
    var s = storage();
    if (!s) return null;
    try { return JSON.parse(s.getItem(storageKey(kind)) || "null"); } catch (e) { return null; }
  }
  function name(p) { return S.cs.playerNames[p]; }
  function bowlerName(card) { return S.cs.playerNames[S.cs.bowlerPlayer[card]]; }
  function unitWord() { return S.cs.fmt.name === "T20" ? "over" : "set"; }
  function randomSeed() {
    var a = new Uint32Array(1);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(a);
    else a[0] = Math.floor(Math.random() * 4294967296);
    return a[0] % 1000000;
  }

  // --- start up -------------------------------------------------------------------------------
  function init() {
    // never a blank page: whatever goes wrong is said in words (the match so far stays saved)
    window.addEventListener("error", function (e) {
      message("Something went wrong on this page (" + (e.message || "an error") + "). Reload it: "
        + "the match so far is kept in this browser.");
    });
    try {
      start();
    } catch (err) {
      message("This page could not start (" + (err.message || err) + "). Rebuild the kit with cardgen build.");
    }
    // the benchmark's first render (benchmarks/bench_play.py)
    if (window.performance && performance.mark) performance.mark("quicket-ready");
  }

  function start() {
    var data = globalThis.QUICKET_DATA;
    if (!data || typeof data !== "object" || !data.cardSet) {
      message("This page could not read its card set (play/set-data.js is missing or damaged). "
        + "Rebuild the kit with cardgen build, or open a card-set.json below.");
      show("setup", true);
      bindSetup();
      return;
    }
    if (!useCardSet(data.cardSet, data.fingerprint || "", data.fixtures || [])) {
      show("setup", true);
      bindSetup();
      return;
    }
    bindSetup();
    bindPlay();
    bindSeason();
    var saved = load("match");
    if (saved && saved.doc) {
      try {
        S.match = Q.matchFromFile(S.cs, saved.doc, S.fp);
        S.fixture = typeof saved.fixture === "number" ? saved.fixture : null;
        showPlay();
        $("last").textContent = "Resumed the match saved in this browser.";
        return;
      } catch (err) {
        save("match", null);
        message("The match saved in this browser could not be resumed (" + (err.message || err) + "); start a new one.");
      }
    }
    var wanted = /(?:^\?|&)team=([^&]*)/.exec(window.location.search);   // from a team page of the site
    if (wanted) {
      var team = decodeURIComponent(wanted[1].replace(/\+/g, " "));
      if (S.cs.teams[team]) {
        teamSelect(0).value = team;
        fillXI(0, null);
        if (teamSelect(1).value === team) { teamSelect(1).value = S.cs.teamNames.filter(function (t) { return t !== team; })[0]; fillXI(1, null); }
        checkXI(1);
      }
    }
    showSetup();
  }

  /** Take a card set (the kit's, or one the player opened); false with a message if unplayable. */
  function useCardSet(raw, fingerprint, fixtures, fileName) {
    var cs;
    try {
      cs = Q.compileSet(raw);
      if (cs.teamNames.length < 2) throw new Q.CardSetError("the card set has fewer than two teams");
    } catch (err) {
      // a file the player opened leaves the cards in play as they were
      message(fileName ? fileName + ": these cards cannot be played: " + (err.message || err) + "."
        + (S.cs ? " The page keeps its own cards." : "")
        : "These cards cannot be played: " + (err.message || err) + ". Rebuild the kit with cardgen build.");
      return false;
    }
    S.cs = cs;
    S.fp = fingerprint;
    S.data = { fixtures: fixtures };
    fillTeams();
    renderHelp();
    return true;
  }

  // --- setup ----------------------------------------------------------------------------------
  function teamBox(k) { return $("team-" + k); }
  function teamSelect(k) { return teamBox(k).querySelector("[data-team]"); }

  function fillTeams() {
    [0, 1].forEach(function (k) {
      var sel = teamSelect(k);
      sel.innerHTML = S.cs.teamNames.map(function (t) { return "<option>" + esc(t) + "</option>"; }).join("");
      sel.selectedIndex = Math.min(k, S.cs.teamNames.length - 1);
      fillXI(k, null);
    });
    fillTossWinner();
  }

  function fillXI(k, chosen) {
    var team = teamSelect(k).value, box = teamBox(k);
    var squad = Q.squad(S.cs, team), usual = Q.usualXI(S.cs, team);
    var xi = chosen ? chosen.xi : usual.xi, keeper = chosen ? chosen.keeper : usual.keeper;
    var options = squad.map(function (pid) {
      var p = S.cs.playerOf[Q.playerKey(pid, team)];
      var kinds = (S.cs.strikerCardOf[Q.playerKey(pid, team)] !== undefined ? "" : " (no striker card)")
        + (S.cs.bowlerCardOf[Q.playerKey(pid, team)] !== undefined ? " · bowls" : "");
      return [pid, name(p) + kinds];
    });
    var ol = box.querySelector("[data-xi]");
    ol.innerHTML = "";
    for (var i = 0; i < 11; i++) {
      var li = document.createElement("li");
      var id = "team-" + k + "-slot-" + i;
      li.innerHTML = '<label class="visually-hidden" for="' + id + '">Batting ' + (i + 1) + "</label>"
        + '<select id="' + id + '" data-slot="' + i + '">' + options.map(function (o) {
          return '<option value="' + esc(o[0]) + '"' + (o[0] === xi[i] ? " selected" : "") + ">" + esc(o[1]) + "</option>";
        }).join("") + "</select>";
      ol.appendChild(li);
    }
    var keeperSel = box.querySelector("[data-keeper]");
    keeperSel.innerHTML = options.map(function (o) {
      return '<option value="' + esc(o[0]) + '"' + (o[0] === keeper ? " selected" : "") + ">" + esc(o[1].replace(/ \(.*$/, "").replace(/ ·.*$/, "")) + "</option>";
    }).join("");
    checkXI(k);
  }

  function chosenTeam(k) {
    var box = teamBox(k);
    var xi = Array.prototype.map.call(box.querySelectorAll("[data-slot]"), function (s) { return s.value; });
    var captain = box.querySelector('input[name="captain-' + k + '"]:checked').value;
    return { name: teamSelect(k).value, xi: xi, keeper: box.querySelector("[data-keeper]").value, captain: captain };
  }

  function checkXI(k) {
    var t = chosenTeam(k);
    var problem = Q.xiProblem(S.cs, t.name, t.xi);
    if (!problem && t.xi.indexOf(t.keeper) < 0) problem = "the wicketkeeper is not in the XI";
    if (!problem && teamSelect(0).value === teamSelect(1).value) problem = "choose two different teams";
    teamBox(k).querySelector("[data-problem]").textContent = problem;
    return problem;
  }

  function fillTossWinner() {
    $("toss-winner").innerHTML = [0, 1].map(function (k) {
      return '<option value="' + k + '">' + esc(teamSelect(k).value) + "</option>";
    }).join("");
  }

  function seedValue() {
    var text = $("seed").value.trim();
    if (!/^\d{1,10}$/.test(text) || Number(text) > Q.MAX_SEED) return null;
    return Number(text);
  }

  function bindSetup() {
    $("seed").value = String(randomSeed());
    $("new-seed").addEventListener("click", function () { $("seed").value = String(randomSeed()); });
    [0, 1].forEach(function (k) {
      var box = teamBox(k);
      teamSelect(k).addEventListener("change", function () {
        fillXI(k, null); checkXI(1 - k); fillTossWinner(); $("toss-result").innerHTML = "";
      });
      box.addEventListener("change", function (e) {
        if (e.target.matches("[data-slot], [data-keeper], input[type=radio]")) checkXI(k);
      });
      box.querySelector("[data-usual]").addEventListener("click", function () { fillXI(k, null); });
    });
    $("toss").addEventListener("click", function () {
      var seed = seedValue();
      if (seed === null) { message("The seed is a whole number from 0 to " + Q.MAX_SEED + "."); $("seed").focus(); return; }
      tossWon(new Q.SharedRandom(seed, TOSS_STREAM).integers(0, 2), "The coin");
    });
    $("tossed").addEventListener("click", function () { tossWon(Number($("toss-winner").value), "You"); });
    $("match-file").addEventListener("change", function (e) { openFile(e.target, openMatchFile); });
    $("card-file").addEventListener("change", function (e) { openFile(e.target, openCardFile); });
  }

  function tossWon(winner, by) {
    message("");
    if (!S.cs) return;
    var problems = [checkXI(0), checkXI(1)].filter(Boolean);
    if (problems.length) { message("The teams are not ready: " + problems.join("; ") + "."); return; }
    var teams = [chosenTeam(0), chosenTeam(1)];
    var out = $("toss-result");
    var won = teams[winner];
    if (won.captain === "computer") {   // T20 and Hundred captains mostly bowl first and chase
      out.innerHTML = "<p>" + esc(by === "You" ? won.name + " won the toss" : "The coin: " + won.name + " won the toss")
        + " and chose to bowl.</p><p><button type=\"button\" class=\"primary\" id=\"start\">Start the match</button></p>";
      $("start").addEventListener("click", function () { begin(teams, winner, "bowl"); });
      $("start").focus();
    } else {
      out.innerHTML = "<p>" + esc(won.name) + " won the toss. You choose:</p><p>"
        + '<button type="button" class="primary" id="bat-first">Bat first</button> '
        + '<button type="button" id="bowl-first">Bowl first</button></p>';
      $("bat-first").addEventListener("click", function () { begin(teams, winner, "bat"); });
      $("bowl-first").addEventListener("click", function () { begin(teams, winner, "bowl"); });
      $("bat-first").focus();
    }
  }

  function begin(teams, winner, chose) {
    var seed = seedValue();
    if (seed === null) { message("The seed is a whole number from 0 to " + Q.MAX_SEED + "."); return; }
    var first = chose === "bat" ? winner : 1 - winner;
    try {
      S.match = new Q.Match(S.cs, { seed: seed, teams: teams, battingFirst: first, toss: { wonBy: winner, chose: chose } });
    } catch (err) {
      message(err.message || String(err));
      return;
    }
    S.entering = null;
    keep();
    showPlay();
    $("last").textContent = teams[first].name + " bat first.";
    $("score-h").focus();
  }

  function openFile(input, then) {
    var file = input.files && input.files[0];
    if (!file) return;
    var reader = new FileReader();
    reader.onload = function () {
      var doc;
      try { doc = JSON.parse(String(reader.result).replace(/^\uFEFF/, "")); } catch (err) {
        message(file.name + " is not readable JSON (" + (err.message || err) + ").");
        return;
      }
      then(doc, file.name);
    };
    reader.onerror = function () { message(file.name + " could not be read."); };
    reader.readAsText(file);
    input.value = "";
  }

  function openMatchFile(doc, fileName) {
    if (!S.cs) { message("Open a card set first: this page has none it can play."); return; }
    try {
      S.match = Q.matchFromFile(S.cs, doc, S.fp);
    } catch (err) {
      message(fileName + ": " + (err.message || err));
      return;
    }
    message("");
    S.fixture = null;
    keep();
    showPlay();
    $("last").textContent = "Opened " + fileName + ".";
  }

  function openCardFile(doc, fileName) {
    if (!doc || typeof doc !== "object" || !Array.isArray(doc.cards)) {
      message(fileName + " is not a card set (a card-set.json has cards, teams and a fielding chart).");
      return;
    }
    if (useCardSet(doc, "", [], fileName)) {
      message("");
      var comp = doc.competition || {};
      $("set-title").textContent = (comp.name || comp.code || "") + " " + (doc.season || "") + " (" + fileName + ")";
      $("set-format").textContent = S.cs.fmt.name;
      $("rules-label").textContent = Q.RULES_LABEL[S.cs.rules];
      $("rules-words").textContent = $("rules-words").getAttribute("data-" + S.cs.rules);
      S.match = null;
      bindPlayOnce();
      bindSeasonOnce();
      showSetup();
      $("toss-result").innerHTML = "<p>Playing the cards of " + esc(fileName) + ".</p>";
    }
  }

  // --- the match ----------------------------------------------------------------------------
  function keep() {
    if (S.match) save("match", { doc: S.match.toFile(S.fp), fixture: S.fixture });
  }

  var playBound = false;
  function bindPlayOnce() { if (!playBound) bindPlay(); }
  function bindPlay() {
    playBound = true;
    $("roll").addEventListener("click", roll);
    $("i-rolled").addEventListener("click", startEntering);
    $("undo").addEventListener("click", undo);
    $("auto").addEventListener("click", autoPlay);
    $("restart").addEventListener("click", restart);
    $("save").addEventListener("click", saveFile);
    $("new-match").addEventListener("click", function () { S.match = null; S.fixture = null; save("match", null); showSetup(); });
    $("print").addEventListener("click", function () { window.print(); });
    $("dice-form").addEventListener("submit", function (e) { e.preventDefault(); enterDie(); });
    $("dice-cancel").addEventListener("click", function () { S.entering = null; render(); $("i-rolled").focus(); });
    $("bowler").addEventListener("change", function () { renderCrease(); });
    document.addEventListener("keydown", onKey);
  }

  function onKey(e) {
    if (!S.match || $("play").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === " " || e.code === "Space") {
      if (tag === "BUTTON" || tag === "SUMMARY" || tag === "A") return;   // Space presses what has focus
      e.preventDefault();
      roll();
    } else if (e.key === "u" || e.key === "U") {
      e.preventDefault();
      undo();
    }
  }

  function showSetup() {
    show("setup", true); show("play", false); show("scorecard", false);
    fillTossWinner();
  }

  function showPlay() {
    show("setup", false); show("play", true);
    S.entering = null;
    render();
  }

  /** The bowler of the next ball: fixed (mid-over, super over), the computer's, or the player's. */
  function nextBowler() {
    var m = S.match, fixed = m.fixedBowler();
    if (fixed !== null) return fixed;
    if (m.bowlingCaptain() === "computer") return m.computerBowler();
    var v = $("bowler").value;
    return v === "" ? null : Number(v);
  }

  function roll() {
    var m = S.match;
    if (!m || m.over()) return;
    if (S.entering) { $("die").focus(); return; }
    var card = nextBowler();
    if (card === null) { message("Choose the bowler first."); $("bowler").focus(); return; }
    var ball;
    try { ball = m.roll(card); } catch (err) { message(err.message || String(err)); return; }
    message("");
    afterBall(ball);
  }

  function afterBall(ball) {
    keep();
    render();
    announce(ball);
    if (S.match.over()) finished();
  }

  function ballText(ball) {
    var runs = ball.batRuns + ball.extras;
    if (ball.outSlot !== null) return "OUT, " + ball.howOut;
    var extra = { wide: ["wide", "wides"], no_ball: ["no-ball", "no-balls"], leg_bye: ["leg bye", "leg byes"], bye: ["bye", "byes"] }[ball.extraKind];
    if (extra) return runs + " " + extra[runs === 1 ? 0 : 1];
    return runs === 0 ? "no run" : runs === 4 ? "four" : runs === 6 ? "six" : runs + (runs === 1 ? " run" : " runs");
  }

  function announce(ball) {
    var m = S.match, cur = m.innings.filter(function (c) { return c.inn.balls.indexOf(ball) >= 0; })[0];
    var batter = name(cur.inn.slotPlayers[ball.striker]);
    var label = Q.overLabel(S.cs.fmt, ball.legalNo - (ball.legal ? 1 : 0));
    $("last").innerHTML = "<p><strong>" + esc(label + " " + bowlerName(ball.bowler) + " to " + batter + ": " + ballText(ball))
      + "</strong></p><ul class=\"says\">" + ball.says.map(function (s) { return "<li>" + esc(s) + "</li>"; }).join("") + "</ul>";
  }

  function undo() {
    var m = S.match;
    if (!m || !m.entries.length) return;
    S.entering = null;
    try { S.match = m.withoutLastBall(S.fp); } catch (err) { message(err.message || String(err)); return; }
    keep();
    render();
    $("last").textContent = "Undone: the last ball is taken back.";
  }

  function restart() {
    var m = S.match;
    if (!m) return;
    S.match = new Q.Match(S.cs, m.setup);
    S.entering = null;
    keep();
    render();
    $("last").textContent = "Started again with seed " + m.setup.seed + ".";
  }

  function autoPlay() {
    var m = S.match;
    if (!m || m.over()) return;
    S.entering = null;
    var ball = null;
    while (!m.over()) ball = m.roll(m.computerBowler());
    afterBall(ball);
  }

  function finished() {
    var m = S.match;
    if (S.fixture !== null) recordSeasonResult(S.fixture, m, "you");
    $("last").insertAdjacentHTML("beforeend", "<p class=\"result\"><strong>" + esc(m.result.text) + ".</strong> The scorecard is below.</p>");
  }

  function saveFile() {
    var m = S.match;
    if (!m) return;
    var doc = m.toFile(S.fp);
    var blob = new Blob([JSON.stringify(doc, null, 1) + "\n"], { type: "application/json" });
    var a = document.createElement("a");
    var teams = m.sides.map(function (s) { return s.team.replace(/[^A-Za-z0-9]+/g, "-"); }).join("-v-");
    a.href = URL.createObjectURL(blob);
    a.download = "quicket-" + teams + "-seed-" + m.setup.seed + ".json";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }

  // --- physical dice ------------------------------------------------------------------------
  function startEntering() {
    var m = S.match;
    if (!m || m.over()) return;
    var card = nextBowler();
    if (card === null) { message("Choose the bowler first."); $("bowler").focus(); return; }
    S.entering = { card: card, dice: [] };
    askNext();
  }

  function askNext() {
    var m = S.match, e = S.entering;
    var got = m.tryDice(e.card, e.dice);
    if (got.ball) { S.entering = null; afterBall(got.ball); $("i-rolled").focus(); return; }
    e.need = got.need;
    render();
    var need = got.need, input = $("die"), pick = $("die-pick");
    $("die-label").textContent = need.purpose;
    if (need.kind === "pick") {
      var cur = m.current(), fielding = m.sides[cur.bowl], keeper = fielding.keeperSlot;
      var slots = [];
      for (var s = 0; s < fielding.players.length; s++) if (need.n === fielding.players.length || s !== keeper) slots.push(s);
      pick.innerHTML = slots.map(function (slot, i) {
        return '<option value="' + i + '">' + esc(name(fielding.players[slot])) + "</option>";
      }).join("");
      input.hidden = true; pick.hidden = false;
      pick.focus();
    } else {
      var range = Q.DIE_RANGE[need.kind];
      input.value = "";
      input.setAttribute("aria-describedby", "dice-so-far");
      input.placeholder = need.kind === "2d10" ? "01-00" : range[0] + "-" + (range[1] - 1);
      input.hidden = false; pick.hidden = true;
      input.focus();
    }
  }

  function enterDie() {
    var e = S.entering;
    if (!e || !e.need) return;
    var need = e.need, value;
    if (need.kind === "pick") {
      value = Number($("die-pick").value);
      e.dice.push(["pick", value, need.n]);
    } else {
      var text = $("die").value.trim();
      value = need.kind === "2d10" && /^0{1,2}$/.test(text) ? 100 : /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      var range = Q.DIE_RANGE[need.kind];
      if (!(value >= range[0] && value < range[1])) {
        message("A " + need.kind + " reads " + (need.kind === "2d10" ? "01 to 00 (00 is 100)" : range[0] + " to " + (range[1] - 1)) + ".");
        $("die").focus();
        return;
      }
      e.dice.push([need.kind, value]);
    }
    message("");
    askNext();
  }

  // --- what the page shows ------------------------------------------------------------------
  function render() {
    var m = S.match;
    if (!m) return;
    renderScore();
    renderControls();
    renderCrease();
    renderGrids();
    renderScorecard();
  }

  function rate(runs, legal) {
    if (S.cs.fmt.name === "T20") return "RR " + Q.fixed2(runs * 6, legal);
    return Q.fixed2(runs, legal) + " a ball";
  }

  function progress(inn) {
    var fmt = S.cs.fmt;
    return fmt.name === "T20" ? Q.oversText(inn.legalBalls, 6) + " overs" : inn.legalBalls + " balls";
  }

  function renderScore() {
    var m = S.match, cur = m.current(), inn = cur.inn;
    var team = m.sides[cur.bat].team;
    $("score-h").textContent = team + " " + inn.runs + "/" + inn.wickets + (cur.superOver ? " (super over " + cur.superOver + ")" : "");
    var line = [progress(inn), rate(inn.runs, inn.legalBalls)];
    if (inn.target !== null) {
      var need = inn.target - inn.runs, left = inn.maxBalls - inn.legalBalls;
      if (need > 0 && left > 0) {
        line.push("target " + inn.target + ": need " + need + " from " + left + " ball" + (left === 1 ? "" : "s")
          + (S.cs.fmt.name === "T20" ? " (RRR " + Q.fixed2(need * 6, left) + ")" : ""));
      }
    } else if (!cur.superOver && m.innings.length === 1) {
      line.push("first innings");
    }
    $("score-line").textContent = line.join(" · ");
    var flags = [];
    if (m.over()) flags.push('<span class="flag result">' + esc(m.result.text) + "</span>");
    else {
      if (inn.freeHit) flags.push('<span class="flag">Free hit</span>');
      var band = inn.band();
      var chase = band === null ? null : inn.chaseCell();
      var named = { 0: "Attack", 1: "Normal", 2: "Consolidate" }[band];
      if (chase) {   // the chase line's cell (issue 41): its row and column as the scoresheet prints them
        var line = inn.rule.chaseLine;
        flags.push('<span class="flag band">Chase line: ' + esc(chase.cell < 0 ? "the table's " + named.toLowerCase()
          : named.toLowerCase()) + " (" + esc(Q.chaseRowWords(line)[chase.row] + ", " + Q.chaseColumnWords(line)[chase.col])
          + " in hand)</span>");
      } else if (band !== null) flags.push('<span class="flag band">' + esc(named) + " (wickets in hand)</span>");
      flags.push('<span class="flag quiet">' + esc(m.sides[cur.bowl].team) + " bowling · captain: " + (m.bowlingCaptain() === "computer" ? "the computer" : "you") + "</span>");
    }
    $("flags").innerHTML = flags.join(" ");
  }

  function renderControls() {
    var m = S.match, over = m.over();
    ["roll", "i-rolled", "auto"].forEach(function (id) { $(id).disabled = over; });
    $("undo").disabled = !m.entries.length;
    $("seed-shown").textContent = String(m.setup.seed);
    var row = $("bowler-row"), note = $("bowler-note"), sel = $("bowler");
    if (over) { row.hidden = true; note.textContent = ""; }
    else {
      var cur = m.current(), fixed = m.fixedBowler(), unit = cur.inn.unit() + 1;
      if (fixed !== null) {
        row.hidden = true;
        note.textContent = (cur.superOver ? "Super over: " + bowlerName(fixed) + " bowls it (the most-used bowler, R8)."
          : bowlerName(fixed) + " is bowling " + unitWord() + " " + unit + ".");
      } else if (m.bowlingCaptain() === "computer") {
        row.hidden = true;
        note.textContent = "The computer's bowler for " + unitWord() + " " + unit + ": " + bowlerName(m.computerBowler()) + ".";
      } else {
        row.hidden = false;
        $("bowler-label").textContent = "Your bowler for " + unitWord() + " " + unit;
        var previous = sel.value, options = m.bowlerOptions(), suggestion = m.computerBowler();
        var keepPrevious = options.some(function (o) { return o.allowed && String(o.card) === previous; });
        sel.innerHTML = options.map(function (o) {
          var f = cur.inn.bowlers[o.card];
          var figures = f ? " (" + Q.oversText(f.legalBalls, S.cs.fmt.ballsPerOver) + "-" + f.runs + "-" + f.wickets + ")" : "";
          var selected = keepPrevious ? String(o.card) === previous : o.card === suggestion;
          return '<option value="' + o.card + '"' + (o.allowed ? "" : " disabled") + (selected ? " selected" : "") + ">"
            + esc(bowlerName(o.card) + figures + (o.allowed ? "" : ": " + o.reason)) + "</option>";
        }).join("");
        note.textContent = "The limits: at most " + S.cs.fmt.maxUnitsPerBowler + " " + unitWord() + "s each; "
          + (S.cs.fmt.name === "T20" ? "never two overs running." : "5 or 10 balls in a row, never across a change of ends.");
      }
    }
    var e = S.entering;
    $("dice-form").hidden = !e;
    if (e) {
      $("dice-so-far").textContent = e.dice.length ? "Entered so far: " + e.dice.map(function (d) {
        return d[0] === "pick" ? "card " + (d[1] + 1) + " of " + d[2] : d[0] + " " + (d[0] === "2d10" && d[1] === 100 ? "00" : d[1]);
      }).join(", ") : "";
    }
  }

  function renderCrease() {
    var m = S.match, cur = m.current(), inn = cur.inn, fmt = S.cs.fmt;
    var rows = [inn.striker, inn.nonStriker].map(function (slot, i) {
      var l = inn.batters[slot];
      return "<tr><th scope=\"row\">" + esc(name(inn.slotPlayers[slot])) + (i === 0 && !m.over() ? ' <span class="on-strike" title="on strike">*</span>' : "")
        + "</th><td>" + l.runs + "</td><td>" + l.balls + "</td><td>" + l.fours + "</td><td>" + l.sixes + "</td><td>" + Q.fixed2(l.runs * 100, l.balls) + "</td></tr>";
    });
    $("batting-now").innerHTML = "<caption>At the crease" + (m.over() ? " at the end" : " (* on strike)") + "</caption>"
      + "<thead><tr><th scope=\"col\">Batter</th><th scope=\"col\">R</th><th scope=\"col\">B</th><th scope=\"col\">4s</th><th scope=\"col\">6s</th><th scope=\"col\">SR</th></tr></thead><tbody>" + rows.join("") + "</tbody>";
    // the partnership: since the last wicket
    var runs = 0, balls = 0;
    for (var i = inn.balls.length - 1; i >= 0; i--) {
      var b = inn.balls[i];
      if (b.outSlot !== null) break;
      runs += b.batRuns + b.extras;
      if (b.extraKind !== "wide") balls += 1;
    }
    $("partnership").textContent = "Partnership " + runs + " (" + balls + " ball" + (balls === 1 ? "" : "s") + ")";
    var card = m.over() ? inn.unitBowler[inn.unitBowler.length - 1] : nextBowler();
    var f = card === null || card === undefined ? null : inn.bowlers[card];
    var head = fmt.name === "T20" ? "<th scope=\"col\">O</th>" : "<th scope=\"col\">Balls</th>";
    $("bowling-now").innerHTML = "<caption>Bowling</caption><thead><tr><th scope=\"col\">Bowler</th>" + head
      + "<th scope=\"col\">R</th><th scope=\"col\">W</th><th scope=\"col\">Wd</th><th scope=\"col\">NB</th></tr></thead><tbody>"
      + (card === null || card === undefined ? "<tr><td colspan=\"6\">Choose the bowler</td></tr>"
        : "<tr><th scope=\"row\">" + esc(bowlerName(card)) + "</th><td>" + (f ? (fmt.name === "T20" ? Q.oversText(f.legalBalls, 6) : f.legalBalls) : 0)
          + "</td><td>" + (f ? f.runs : 0) + "</td><td>" + (f ? f.wickets : 0) + "</td><td>" + (f ? f.wides : 0) + "</td><td>" + (f ? f.noBalls : 0) + "</td></tr>")
      + "</tbody>";
  }

  /** The mark a ball leaves in its box, as a scorer writes it. */
  function mark(b) {
    if (b.outSlot !== null) return "W";
    var k = b.extraKind;
    if (k === "wide") return "wd";
    if (k === "no_ball") return "nb";
    if (k === "leg_bye") return b.extras === 4 ? "4lb" : "lb";
    if (k === "bye") return b.extras === 4 ? "4b" : "b";
    return b.batRuns === 0 ? "•" : String(b.batRuns);
  }

  /** The ball-by-ball grid of each innings, as the printed scoresheet lays it out: batters down
   * the side, a box per delivery, overs (sets) in blocks of five with the bowler above each. */
  function renderGrids() {
    var m = S.match, fmt = S.cs.fmt, html = [];
    m.innings.forEach(function (cur, k) {
      var inn = cur.inn, bat = m.sides[cur.bat], slots = cur.superOver ? 3 : 11;
      var units = [];
      inn.balls.forEach(function (b) { (units[b.unit] = units[b.unit] || []).push(b); });
      var title = cur.superOver ? bat.team + ": super over " + cur.superOver : bat.team + " innings";
      html.push("<h3>" + esc(title) + "</h3>");
      if (!inn.balls.length) { html.push('<p class="meta">No ball bowled yet.</p>'); return; }
      var chase = inn.target !== null;
      var spells = {};   // the bowler's own count of units, as "Name (2)" on the printed sheet
      var line = {};     // each batter's runs (balls) so far: the sheet's R(B) column
      for (var start = 0; start < units.length; start += 5) {
        var block = units.slice(start, start + 5).filter(Boolean);
        var first = start;
        var head = "<tr><th scope=\"col\">" + (fmt.name === "T20" ? "Over" : "Set") + ": bowler</th>" + block.map(function (balls) {
          var u = balls[0].unit, card = inn.unitBowler[u];
          spells[card] = (spells[card] || 0) + 1;
          return '<th scope="colgroup" colspan="' + balls.length + '">' + (u + 1) + ": " + esc(bowlerName(card)) + " (" + spells[card] + ")</th>";
        }).join("") + '<th scope="col" class="rb">R(B)</th></tr>';
        block.forEach(function (balls) {
          balls.forEach(function (b) {
            var l = line[b.striker] || (line[b.striker] = [0, 0]);
            l[0] += b.batRuns;
            if (b.extraKind !== "wide") l[1] += 1;
            if (b.incoming !== null && !line[b.incoming]) line[b.incoming] = [0, 0];
          });
        });
        if (!line[0]) line[0] = [0, 0];
        if (!line[1]) line[1] = [0, 0];
        var body = [];
        for (var slot = 0; slot < slots; slot++) {
          var cells = block.map(function (balls) {
            return balls.map(function (b) {
              var text = "", cls = [];
              if (b.striker === slot) { text = mark(b); if (b.freeHit) cls.push("fh"); }
              if (b.outSlot === slot) { text = "W"; cls.push("out"); }
              else if (b.incoming === slot) { text = text || "›"; cls.push("in"); }
              return "<td" + (cls.length ? ' class="' + cls.join(" ") + '"' : "") + ">" + esc(text) + "</td>";
            }).join("");
          }).join("");
          var rb = line[slot] ? line[slot][0] + "(" + line[slot][1] + ")" : "";
          body.push("<tr><th scope=\"row\">" + (slot + 1) + " " + esc(name(bat.players[slot]) + (slot === bat.keeperSlot ? " †" : ""))
            + "</th>" + cells + '<td class="rb">' + rb + "</td></tr>");
        }
        var foot = "<tr class=\"count\"><th scope=\"row\">" + (chase ? "Balls left" : "Balls") + "</th>" + block.map(function (balls) {
          var last = balls[balls.length - 1].legalNo;
          return '<td colspan="' + balls.length + '">' + (chase ? inn.maxBalls - last : last) + "</td>";
        }).join("") + "<td></td></tr>";
        html.push('<div class="scroll" tabindex="0" role="region" aria-label="' + esc(title) + ", " + (fmt.name === "T20" ? "overs " : "sets ") + (first + 1) + "-" + (first + block.length) + '">'
          + '<table class="grid"><thead>' + head + "</thead><tbody>" + body.join("") + "</tbody><tfoot>" + foot + "</tfoot></table></div>");
      }
      if (inn.fow.length) {
        html.push("<p class=\"fow\"><strong>Fall of wickets:</strong> " + inn.fow.map(function (f) {
          return esc(f.wicket + "-" + f.runs + " (" + name(inn.slotPlayers[f.slot]) + ", "
            + (fmt.name === "T20" ? Q.oversText(f.legalBalls, 6) : "ball " + f.legalBalls) + ")");
        }).join(", ") + "</p>");
      }
    });
    $("grids").innerHTML = html.join("");
  }

  function table(caption, header, rows, cls) {
    return '<div class="scroll" tabindex="0" role="region" aria-label="' + esc(caption) + '"><table class="' + cls + '"><caption>' + esc(caption) + "</caption><thead><tr>"
      + header.map(function (h, i) { return '<th scope="col"' + (i > 1 || (cls === "bowl" && i > 0) ? ' class="num"' : "") + ">" + esc(h) + "</th>"; }).join("")
      + "</tr></thead><tbody>" + rows.map(function (r) {
        return "<tr>" + r.map(function (c, i) {
          return i === 0 ? '<th scope="row">' + esc(c) + "</th>" : "<td" + (i > 1 || cls === "bowl" ? ' class="num"' : "") + ">" + esc(c) + "</td>";
        }).join("") + "</tr>";
      }).join("") + "</tbody></table></div>";
  }

  function renderScorecard() {
    var m = S.match, card = Q.scorecard(m);
    var html = ['<p class="card-title">' + esc(card.title) + '</p><p class="card-result" data-result>' + esc(card.result) + "</p>"];
    card.innings.forEach(function (inn) {
      html.push('<section class="card-innings"><h3>' + esc(inn.heading) + "</h3>"
        + table(inn.heading + ": batting", inn.battingHeader, inn.batting, "bat")
        + (inn.didNotBat.length ? "<p>Did not bat: " + esc(inn.didNotBat.join(", ")) + "</p>" : "")
        + "<p>" + esc(inn.extras) + "</p><p class=\"total\">" + esc(inn.total) + "</p>"
        + (inn.fallOfWickets.length ? "<p>Fall of wickets: " + esc(inn.fallOfWickets.join(", ")) + "</p>" : "")
        + table(inn.heading + ": bowling", inn.bowlingHeader, inn.bowling, "bowl") + "</section>");
    });
    $("card-body").innerHTML = html.join("");
    $("card-body").dataset.text = Q.scorecardText(card);
    show("scorecard", true);
  }

  // --- how the dice work ----------------------------------------------------------------------
  function renderHelp() {
    var cs = S.cs, fmt = cs.fmt, h = [];
    h.push("<ul>");
    h.push("<li><strong>d6: whose card.</strong> 1-3 the bowler's card, 4-6 the striker's card (rule 3.2).</li>");
    h.push("<li><strong>2d10: the result</strong> on that card, read as 01-100 (00 is 100): B bowled, W caught (a fielder drawn from the fielding side's deck), F the fielding chart, • a dot, 1 2 4 6 runs.</li>");
    h.push("<li><strong>F: the fielding chart</strong>, a d6 for the row and a d20 for the column: bowled, LBW, caught, stumped, run out, wides and no-balls (1 run, bowled again; a no-ball gives a free hit, on which only a run out dismisses), leg byes and byes.</li>");
    h.push("<li><strong>d20 against a rating</strong> on a chance: a catch chance against the fielder's C (drawn from the deck; dropped is 1 run), a stumping chance against the keeper's rating, a run-out chance against RO (with the keeper: under both). The chart's d6 says who is run out: 1 or 3 the striker (fielder and keeper), 2 the striker (one fielder), 4 or 6 the non-striker (fielder and keeper), 5 the non-striker.</li>");
    if (cs.rules === "advanced") {
      var rule = cs.rule, rows = Q.bandThresholds(rule, fmt.ballsPerInnings);
      h.push("<li><strong>Wickets in hand (R12)</strong>, before each ball: from wickets down and balls left, the batting side attacks, plays normally or consolidates. Attack, on a dot: a d20, " + esc(Q.attackWords(rule)) + ". Consolidate, on a catch: a d20, 1-" + rule.consolidateSafe + " it goes to ground (not out)."
        + (rule.chaseLine ? " Chasing: the band from the chase line below (need = target − total against balls left, by wickets in hand; table: the wickets-in-hand table)."
          : rule.chaseAttackAbove !== null ? " Chasing, needing over " + rule.chaseAttackAbove + " a ball: always attack." : "") + " Super overs are played as printed.</li>");
      h.push("<li><strong>Defence (R13)</strong>: a striker card with a Defence rating rolls a d20 against a W from the bowler's card; at or under the rating it is a dot.</li>");
      h.push("</ul>");
      h.push('<div class="scroll" tabindex="0" role="region" aria-label="The wickets-in-hand table"><table class="bands"><caption>The wickets-in-hand table (' + esc(fmt.name) + ")</caption><thead><tr><th scope=\"col\">Wickets down</th>"
        + rows.map(function (_, d) { return "<th scope=\"col\">" + d + "</th>"; }).join("") + "</tr></thead><tbody><tr><th scope=\"row\">Attack if balls left ≤</th>"
        + rows.map(function (r) { return "<td>" + r[0] + "</td>"; }).join("") + "</tr><tr><th scope=\"row\">Consolidate if balls left ≥</th>"
        + rows.map(function (r) { return "<td>" + r[1] + "</td>"; }).join("") + "</tr></tbody></table></div>");
      if (rule.chaseLine) h.push(chaseLineTable(rule.chaseLine));
      h.push("<ul>");
    }
    h.push("<li><strong>Bowlers:</strong> " + (fmt.name === "T20" ? "at most 4 overs each, never two in a row; ends change after every over." : "at most 20 balls (4 sets of 5) each, 5 or 10 in a row; ends change after every 10 balls.")
      + " The computer captain shares the " + fmt.units + " " + unitWord() + "s out as each bowler's real season did, and bats the XI in order.</li>");
    h.push("<li><strong>A tie</strong> goes to a super over (R8): one " + unitWord() + " each, the first three batters, two wickets end it, bowled by the side's most-used bowler; the side that batted second bats first. Up to five.</li>");
    h.push("</ul>");
    $("help-body").innerHTML = h.join("");
  }

  /** The chase line as the rules sheet prints it: a row per runs-needed row, a column per
   * wickets-in-hand column, each cell its band ("table": the wickets-in-hand table). */
  function chaseLineTable(line) {
    var words = { 0: "attack", 1: "normal", 2: "consolidate" };
    words[-1] = "table";
    var rows = Q.chaseRowWords(line), cols = Q.chaseColumnWords(line);
    return '<div class="scroll" tabindex="0" role="region" aria-label="The chase line"><table class="bands"><caption>The chase line (second innings)</caption><thead><tr><th scope="col">Runs needed</th>'
      + cols.map(function (c) { return '<th scope="col">' + esc(c) + " in hand</th>"; }).join("") + "</tr></thead><tbody>"
      + line.cells.map(function (cells, k) {
        return '<tr><th scope="row">' + esc(rows[k]) + "</th>" + cells.map(function (c) { return "<td>" + words[c] + "</td>"; }).join("") + "</tr>";
      }).join("") + "</tbody></table></div>";
  }

  // --- season mode ----------------------------------------------------------------------------
  var seasonBound = false;
  function bindSeasonOnce() { if (!seasonBound) bindSeason(); }
  function bindSeason() {
    seasonBound = true;
    $("mode-match").addEventListener("click", function () { setMode("match"); });
    $("mode-season").addEventListener("click", function () { setMode("season"); });
    $("season-rest").addEventListener("click", seasonRest);
    $("season-reset").addEventListener("click", function () {
      if (!window.confirm || window.confirm("Forget every result of this season?")) {
        S.season = newSeason(); save("season", S.season); renderSeason();
      }
    });
    $("fixtures").addEventListener("click", function (e) {
      var b = e.target.closest("button[data-fixture]");
      if (!b) return;
      var i = Number(b.dataset.fixture);
      if (b.dataset.action === "computer") { computerPlays(i); save("season", S.season); renderSeason(); $("season-status").textContent = resultLine(i); }
      else playFixture(i);
    });
    S.season = load("season") || newSeason();
  }

  function newSeason() { return { seed: randomSeed(), results: {} }; }

  function setMode(mode) {
    S.mode = mode;
    $("mode-match").setAttribute("aria-pressed", String(mode === "match"));
    $("mode-season").setAttribute("aria-pressed", String(mode === "season"));
    show("season", mode === "season");
    if (mode === "season") {
      show("setup", false); show("play", false); show("scorecard", false);
      renderSeason();
      $("season-h").setAttribute("tabindex", "-1");
      $("season-h").focus();
    } else if (S.match) showPlay(); else showSetup();
  }

  function fixtures() { return (S.data && S.data.fixtures) || []; }
  function fixtureSeed(i) { return (S.season.seed + Math.imul(i + 1, 7919)) >>> 0; }

  function fixtureTeams(f) {
    return [f.team1, f.team2].map(function (t) {
      var u = Q.usualXI(S.cs, t);
      return { name: t, xi: u.xi, keeper: u.keeper, captain: "computer" };
    });
  }

  function computerPlays(i) {
    var f = fixtures()[i], teams = fixtureTeams(f);
    var first = f.innings.length && f.innings[0].team === f.team2 ? 1 : 0;   // as it was really played
    var m = new Q.Match(S.cs, { seed: fixtureSeed(i), teams: teams, battingFirst: first });
    m.autoPlay();
    recordSeasonResult(i, m, "computer");
  }

  function recordSeasonResult(i, m, by) {
    if (!S.season) return;
    S.season.results[i] = {
      by: by, text: m.result.text, winner: m.result.winner === null ? null : m.sides[m.result.winner].team,
      innings: m.innings.filter(function (c) { return !c.superOver; }).map(function (c) {
        return [m.sides[c.bat].team, c.inn.runs, c.inn.wickets, c.inn.legalBalls];
      })
    };
    save("season", S.season);
  }

  function seasonRest() {
    var list = fixtures(), n = 0;
    for (var i = 0; i < list.length; i++) {
      if (!S.season.results[i] && playable(list[i])) { computerPlays(i); n += 1; }
    }
    save("season", S.season);
    renderSeason();
    $("season-status").textContent = n ? "The computer played " + n + " match" + (n === 1 ? "" : "es") + "." : "Every match has a result.";
  }

  function playable(f) { return !!(S.cs.teams[f.team1] && S.cs.teams[f.team2]) && !Q.xiProblem(S.cs, f.team1, Q.usualXI(S.cs, f.team1).xi) && !Q.xiProblem(S.cs, f.team2, Q.usualXI(S.cs, f.team2).xi); }

  function playFixture(i) {
    var f = fixtures()[i];
    S.fixture = i;
    S.match = null;
    setMode("match");
    [f.team1, f.team2].forEach(function (t, k) {
      teamSelect(k).value = t;
      fillXI(k, null);
    });
    checkXI(0); checkXI(1);
    fillTossWinner();
    $("seed").value = String(fixtureSeed(i));
    $("toss-result").innerHTML = "<p>Season match " + esc(fixtureName(f)) + ": choose your captaincy, then toss.</p>";
    $("setup-h").setAttribute("tabindex", "-1");
    $("setup-h").focus();
  }

  function fixtureName(f) { return (f.number ? "match " + f.number : f.stage || "play-off") + ", " + f.team1 + " v " + f.team2; }
  function resultLine(i) { var r = S.season.results[i]; return r ? fixtureName(fixtures()[i]) + ": " + r.text : ""; }

  /** A league's round robin (own_league.fixtures) has no real results: no real ladder beside it. */
  function realFixtures() { return fixtures().some(function (f) { return !!f.result; }); }

  function realText(f) {
    if (!f.result) return "";
    if (f.result === "no result" || (!f.winner && f.result !== "tie")) return "No result";
    var scores = f.innings.map(function (x) { return x.team + " " + x.runs + "/" + x.wickets; }).join(", ");
    return (f.result === "tie" ? "Tied" + (f.winner ? ", " + f.winner + " won the super over" : "") : f.winner + " won") + (f.method ? " (" + f.method + ")" : "") + (scores ? ": " + scores : "");
  }

  /** Ladder rows from results (league matches only): played, won, lost, tied / no result, points, NRR. */
  function ladder(results) {
    var rows = {};
    S.cs.teamNames.forEach(function (t) { rows[t] = { team: t, p: 0, w: 0, l: 0, t: 0, pts: 0, rf: 0, bf: 0, ra: 0, ba: 0 }; });
    fixtures().forEach(function (f, i) {
      if (f.stage) return;
      var r = results(f, i);
      if (!r) return;
      [f.team1, f.team2].forEach(function (team) {
        var row = rows[team];
        if (!row) return;
        row.p += 1;
        if (r.winner === team) { row.w += 1; row.pts += 2; } else if (r.winner) row.l += 1; else { row.t += 1; row.pts += 1; }
        (r.innings || []).forEach(function (x) {
          var balls = x[2] === 10 ? r.ballsPerInnings : x[3];   // all out counts as the full innings
          if (x[0] === team) { row.rf += x[1]; row.bf += balls; } else { row.ra += x[1]; row.ba += balls; }
        });
      });
    });
    return Object.keys(rows).map(function (k) { return rows[k]; }).sort(function (a, b) {
      return b.pts - a.pts || nrr(b) - nrr(a) || (a.team < b.team ? -1 : 1);
    });
  }
  function nrr(r) { return (r.bf ? r.rf * 6 / r.bf : 0) - (r.ba ? r.ra * 6 / r.ba : 0); }

  function renderSeason() {
    var list = fixtures(), fmt = S.cs.fmt;
    if (!list.length) {
      $("ladder").innerHTML = "";
      $("fixtures").innerHTML = "<caption>No fixture list</caption><tbody><tr><td>This kit was built without the season's matches (from a card-set file), so there is no real fixture list to play.</td></tr></tbody>";
      return;
    }
    var mine = ladder(function (f, i) {
      var r = S.season.results[i];
      return r ? { winner: r.winner, innings: r.innings, ballsPerInnings: fmt.ballsPerInnings } : null;
    });
    var withReal = realFixtures();
    var real = {};
    if (withReal) ladder(function (f) {
      return { winner: f.result === "no result" ? null : f.winner || null,
               innings: f.innings.map(function (x) { return [x.team, x.runs, x.wickets, x.balls]; }), ballsPerInnings: fmt.ballsPerInnings };
    }).forEach(function (r, k) { real[r.team] = { place: k + 1, row: r }; });
    var heads = ["#", "Team", "P", "W", "L", "T/NR", "Pts", "NRR"].concat(withReal ? ["Real W", "Real L", "Real place"] : []);
    $("ladder").innerHTML = "<caption>" + (withReal ? "Your season beside the real one (league matches; 2 points a win, 1 a tie or no result)"
      : "Your league (2 points a win, 1 a tie or no result)") + "</caption><thead><tr>"
      + heads.map(function (h) { return '<th scope="col">' + h + "</th>"; }).join("") + "</tr></thead><tbody>"
      + mine.map(function (r, k) {
        var re = real[r.team] || { place: "", row: { w: "", l: "" } };
        return "<tr><td>" + (k + 1) + "</td><th scope=\"row\">" + esc(r.team) + "</th><td>" + r.p + "</td><td>" + r.w + "</td><td>" + r.l + "</td><td>" + r.t + "</td><td>" + r.pts + "</td><td>"
          + (r.p ? (nrr(r) >= 0 ? "+" : "") + nrr(r).toFixed(3) : "") + "</td>"
          + (withReal ? "<td>" + re.row.w + "</td><td>" + re.row.l + "</td><td>" + re.place + "</td>" : "") + "</tr>";
      }).join("") + "</tbody>";
    // a league's round robin (no real matches): no date and no real result to show
    var cols = withReal ? ["Match", "Date", "Teams", "Real result", "Your result", "Play"] : ["Match", "Teams", "Your result", "Play"];
    $("fixtures").innerHTML = "<caption>" + list.length + (withReal ? " matches in date order" : " matches of the round robin")
      + "</caption><thead><tr>" + cols.map(function (h) { return '<th scope="col">' + h + "</th>"; }).join("") + "</tr></thead><tbody>"
      + list.map(function (f, i) {
        var r = S.season.results[i], ok = playable(f);
        return "<tr><td>" + esc(f.number ? String(f.number) : f.stage || "") + "</td>" + (withReal ? "<td>" + esc(f.date) + "</td>" : "")
          + "<th scope=\"row\">" + esc(f.team1 + " v " + f.team2) + "</th>" + (withReal ? "<td>" + esc(realText(f)) + "</td>" : "") + "<td>"
          + (r ? esc(r.text) + (r.by === "computer" ? " <span class=\"meta\">(computer)</span>" : "") : "") + "</td><td class=\"actions\">"
          + (ok ? '<button type="button" data-fixture="' + i + '" data-action="play">' + (r ? "Play again" : "Play") + '<span class="visually-hidden"> ' + esc(fixtureName(f)) + "</span></button>"
            + (r ? "" : ' <button type="button" data-fixture="' + i + '" data-action="computer">Computer<span class="visually-hidden"> plays ' + esc(fixtureName(f)) + "</span></button>") : "<span class=\"meta\">a team cannot take the field</span>")
          + "</td></tr>";
      }).join("") + "</tbody>";
  }

  // for the tests and the benchmark: the state, read-only use
  globalThis.QuicketPage = { state: S, render: render };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})(globalThis.Quicket = globalThis.Quicket || {});
