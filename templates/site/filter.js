// Progressive enhancement for the set page: the filter links are ordinary links to static pages
// (so filtering works without JavaScript); on the full card list this filters in place instead.
(function () {
  "use strict";
  var all = document.querySelector("[data-all-cards]");
  var nav = document.querySelector("[data-set-filters]");
  // on a phone the filter rows scroll sideways: bring the chosen team into view
  if (nav) {
    nav.querySelectorAll("a[aria-current]").forEach(function (link) {
      var row = link.parentNode;
      if (row.scrollWidth > row.clientWidth) { row.scrollLeft = link.offsetLeft - row.offsetLeft - 80; }
    });
  }
  if (!all || !nav) { return; }
  var count = document.querySelector("[data-card-count]");
  var state = { team: "", kind: "" };

  function apply() {
    var shown = 0;
    all.querySelectorAll("section.team").forEach(function (section) {
      var visible = 0;
      section.querySelectorAll("li.card").forEach(function (card) {
        var ok = (!state.team || card.dataset.team === state.team) &&
                 (!state.kind || card.dataset.kind === state.kind);
        card.hidden = !ok;
        if (ok) { visible += 1; }
      });
      section.hidden = visible === 0;
      shown += visible;
    });
    nav.querySelectorAll("a[data-team]").forEach(function (link) {
      var isTeamLink = link.parentNode === nav.children[0];
      var current = isTeamLink ? link.dataset.team === state.team : link.dataset.kind === state.kind;
      if (current) { link.setAttribute("aria-current", "page"); } else { link.removeAttribute("aria-current"); }
      // keep each link's target in step with the other filter, for middle-click and no-JS reloads
      var team = isTeamLink ? link.dataset.team : state.team;
      var kind = isTeamLink ? state.kind : link.dataset.kind;
      link.dataset.targetTeam = team;
      link.dataset.targetKind = kind;
      link.setAttribute("href", pageFor(team, kind));
    });
    if (count) { count.textContent = "Showing " + shown + " card" + (shown === 1 ? "" : "s") + "."; }
  }

  function pageFor(team, kind) {
    if (!team) { return kind ? kind + "s.html" : "index.html"; }
    return "team-" + team + (kind ? "-" + kind + "s" : "") + ".html";
  }

  nav.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-team]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    state.team = link.dataset.targetTeam !== undefined ? link.dataset.targetTeam : link.dataset.team;
    state.kind = link.dataset.targetKind !== undefined ? link.dataset.targetKind : link.dataset.kind;
    apply();
    remember();
  });

  // Each filter is a step in the history, so Back returns to the previous filter, not another page.
  // Opened from disk (file://) the address cannot change (Chromium refuses it), so only the state is kept.
  function remember() {
    if (!window.history || !history.pushState) { return; }
    var saved = { team: state.team, kind: state.kind };
    if (location.protocol === "file:") { history.pushState(saved, ""); return; }
    try { history.pushState(saved, "", pageFor(state.team, state.kind)); } catch (e) { history.pushState(saved, ""); }
  }

  window.addEventListener("popstate", function (event) {
    var saved = event.state || { team: "", kind: "" };
    state.team = saved.team || "";
    state.kind = saved.kind || "";
    apply();
  });
  if (window.history && history.replaceState && !history.state) {
    try { history.replaceState({ team: "", kind: "" }, ""); } catch (e) { /* nothing to restore then */ }
  }
  apply();
}());
