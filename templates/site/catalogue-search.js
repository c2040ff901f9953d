// The search over every season of the site (home and competition pages). The index is static
// JavaScript under assets/search/ (cardgen/site/catalogue.py): one shard per first letter of a
// name's words, loaded with a <script> element only when a visitor types (so it works from
// file:// too, where fetch() of a JSON file is refused), and only the shards a query needs.
// Every word typed must start a word of the player's name, team or season, and one of them a
// word of his name (of the team's or the set's, for those entries).
(function () {
  "use strict";
  var form = document.querySelector("[data-catalogue-search]");
  if (!form) { return; }
  var root = form.getAttribute("data-root") || "";
  var input = form.querySelector("input[type=search]");
  var status = document.querySelector("[data-find-status]");
  var list = document.querySelector("[data-find-results]");
  var LIMIT = 40;
  var sets = null;
  var known = null;
  var shards = {};
  var waiting = {};
  var lastQuery = null;

  window.CardgenSearch = {
    sets: function (data) { sets = data; done("sets"); },
    known: function (data) { known = {}; data.forEach(function (k) { known[k] = true; }); done("shards"); },
    shard: function (pair) { shards[pair[0]] = pair[1]; done(pair[0]); }
  };

  function fold(text) {
    return String(text).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function words(text) { return fold(text).match(/[\p{L}\p{N}]+/gu) || []; }
  function shardOf(word) {
    var c = word.charAt(0);
    if (c >= "a" && c <= "z") { return c; }
    return /[0-9]/.test(c) ? "0" : "_";
  }

  function done(name) {
    var callbacks = waiting[name] || [];
    delete waiting[name];
    callbacks.forEach(function (cb) { cb(); });
  }
  function load(name, cb) {
    var ready = name === "sets" ? sets !== null : name === "shards" ? known !== null : shards[name] !== undefined;
    if (ready) { cb(); return; }
    if (waiting[name]) { waiting[name].push(cb); return; }
    waiting[name] = [cb];
    var script = document.createElement("script");
    script.src = root + "assets/search/" + name + ".js";
    script.async = true;
    script.onerror = function () {
      delete waiting[name];
      if (status) { status.textContent = "The search index could not be loaded."; }
    };
    document.head.appendChild(script);
  }
  function loadAll(names, cb) {
    var left = names.length;
    if (!left) { cb(); return; }
    names.forEach(function (n) { load(n, function () { left -= 1; if (!left) { cb(); } }); });
  }

  function matches(query, text) {
    var have = words(text);
    return query.every(function (q) {
      return have.some(function (w) { return w.lastIndexOf(q, 0) === 0; });
    });
  }

  function link(href, text) {
    var a = document.createElement("a");
    a.href = root + href;
    a.textContent = text;
    return a;
  }
  function meta(text) {
    var span = document.createElement("span");
    span.className = "meta";
    span.textContent = text;
    return span;
  }

  function show(found, total, query) {
    list.textContent = "";
    found.forEach(function (item) {
      var li = document.createElement("li");
      li.appendChild(link(item.href, item.text));
      if (item.meta) { li.appendChild(document.createTextNode(" ")); li.appendChild(meta(item.meta)); }
      if (item.more && item.more.length) {
        li.appendChild(document.createTextNode(" "));
        var also = document.createElement("span");
        also.className = "also";
        also.appendChild(document.createTextNode("also "));
        item.more.forEach(function (m, i) {
          if (i) { also.appendChild(document.createTextNode(" · ")); }
          also.appendChild(link(m.href, m.text));
        });
        li.appendChild(also);
      }
      list.appendChild(li);
    });
    if (status) {
      status.textContent = !query ? "" : total === 0 ? "Nothing matches \u201c" + query + "\u201d. Try the start of a surname."
        : total > found.length ? total + " matches for \u201c" + query + "\u201d; the first " + found.length + " are shown: type more to narrow them."
        : total + " match" + (total === 1 ? "" : "es") + " for \u201c" + query + "\u201d.";
    }
  }

  function title(index) { return sets[index][1]; }

  function search(raw) {
    var query = words(raw);
    var text = raw.trim();
    lastQuery = text;
    if (!query.length) { show([], 0, ""); return; }
    loadAll(["sets", "shards"], function () {
      // an entry is in the shard of each of its own name's words: the shards of every word
      // typed hold every entry whose name one of them starts
      var need = query.map(shardOf).filter(function (k, i, all) { return known[k] && all.indexOf(k) === i; });
      loadAll(need, function () {
        if (lastQuery !== text) { return; }   // a newer query is on its way
        var found = [];
        var seen = {};
        function add(item) { if (!seen[item.href]) { seen[item.href] = true; found.push(item); } }
        function named(own) {
          return query.some(function (q) { return matches([q], own); });
        }
        var parts = need.map(function (k) { return shards[k]; });
        parts.forEach(function (shard) {
          shard.s.forEach(function (i) {
            if (matches(query, sets[i][1] + " " + sets[i][2])) {
              add({href: "sets/" + sets[i][0] + "/index.html", text: title(i), meta: "the whole set", rank: 0});
            }
          });
        });
        parts.forEach(function (shard) {
          shard.t.forEach(function (team) {
            if (!named(team[0])) { return; }
            var seasons = team[1].filter(function (s) { return matches(query, team[0] + " " + title(s[0]) + " " + sets[s[0]][2]); });
            if (seasons.length) {
              add({href: seasons[0][1], text: team[0], meta: "team, " + title(seasons[0][0]),
                   more: seasons.slice(1, 6).map(function (s) { return {href: s[1], text: title(s[0])}; })});
            }
          });
        });
        parts.forEach(function (shard) {
          shard.p.forEach(function (p) {
            if (!named(p[0] + " " + p[1])) { return; }
            var seasons = p[2].filter(function (s) {
              return matches(query, p[0] + " " + p[1] + " " + s[1] + " " + title(s[0]) + " " + sets[s[0]][2]);
            });
            if (!seasons.length) { return; }
            add({href: seasons[0][2], text: p[0], meta: seasons[0][1] + ", " + title(seasons[0][0]),
                 more: seasons.slice(1, 6).map(function (s) { return {href: s[2], text: title(s[0])}; })});
          });
        });
        show(found.slice(0, LIMIT), found.length, text);
      });
    });
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { search(input.value); }, 120);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    search(input.value);
    var first = list.querySelector("a");
    if (first) { first.focus(); }
  });
  // arrow keys move between the input and the results; Escape goes back to the input
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") {
      var first = list.querySelector("a");
      if (first) { event.preventDefault(); first.focus(); }
    }
  });
  list.addEventListener("keydown", function (event) {
    var links = Array.prototype.slice.call(list.querySelectorAll("a"));
    var at = links.indexOf(document.activeElement);
    if (at === -1) { return; }
    if (event.key === "ArrowDown" && at + 1 < links.length) { event.preventDefault(); links[at + 1].focus(); }
    else if (event.key === "ArrowUp") { event.preventDefault(); (at ? links[at - 1] : input).focus(); }
    else if (event.key === "Escape") { event.preventDefault(); input.focus(); }
  });
  var start = new URLSearchParams(location.search).get("q");
  if (start) { input.value = start; search(start); }
}());
