// Progressive enhancement for the set page: the filter links are ordinary links to static pages
// (so filtering works without JavaScript). A team link always opens its team's own page (its
// heading and downloads): filtering the whole list in place under a team's address showed the
// set's heading and none of the team's files, and a reload then showed another page. Only the
// Strikers / Bowlers links filter the whole list in place, to the same cards their own pages show.
(function () {
  "use strict";
  var all = document.querySelector("[data-all-cards]");
  var nav = document.querySelector("[data-set-filters]");
  if (!all || !nav) { return; }
  var count = document.querySelector("[data-card-count]");
  var title = document.title;
  var titles = { striker: "Strikers", bowler: "Bowlers" };
  var kind = "";

  function pageFor(team, kind) {
    if (!team) { return kind ? kind + "s.html" : "index.html"; }
    return "team-" + team + (kind ? "-" + kind + "s" : "") + ".html";
  }

  function apply() {
    var shown = 0;
    all.querySelectorAll("section.team").forEach(function (section) {
      var visible = 0;
      section.querySelectorAll("li.card").forEach(function (card) {
        var ok = !kind || card.dataset.kind === kind;
        card.hidden = !ok;
        if (ok) { visible += 1; }
      });
      section.hidden = visible === 0;
      shown += visible;
    });
    nav.querySelectorAll("a[data-kind]").forEach(function (link) {
      if (link.hasAttribute("data-kind-link")) {
        if (link.dataset.kind === kind) { link.setAttribute("aria-current", "page"); } else { link.removeAttribute("aria-current"); }
      } else {
        // a team link opens that team's page of the chosen kind
        link.setAttribute("href", pageFor(link.dataset.team, kind));
        if (link.dataset.team) { link.removeAttribute("aria-current"); } else { link.setAttribute("aria-current", "page"); }
      }
    });
    document.title = kind ? title.replace(" \u00b7 Quicket", " \u00b7 " + titles[kind] + " \u00b7 Quicket") : title;
    if (count) { count.textContent = "Showing " + shown + " card" + (shown === 1 ? "" : "s") + "."; }
  }

  nav.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-kind-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    if (link.dataset.kind === kind) { return; }
    kind = link.dataset.kind;
    apply();
    remember();
  });

  // Each kind is a step in the history at the address of its own page, so Back returns to the
  // previous one and a reload shows the same cards. Opened from disk (file://) the address
  // cannot change (Chromium refuses it), so only the state is kept.
  function remember() {
    if (!window.history || !history.pushState) { return; }
    var saved = { kind: kind };
    if (location.protocol === "file:") { history.pushState(saved, ""); return; }
    try { history.pushState(saved, "", pageFor("", kind)); } catch (e) { history.pushState(saved, ""); }
  }

  window.addEventListener("popstate", function (event) {
    kind = (event.state && event.state.kind) || "";
    apply();
  });
  if (window.history && history.state && history.state.kind) {
    kind = history.state.kind;   // back here from another page, the document loaded again
    apply();
  } else if (window.history && history.replaceState) {
    try { history.replaceState({ kind: "" }, ""); } catch (e) { /* nothing to restore then */ }
  }
}());
