// Progressive enhancement for compare.html: the pair form opens the pair's static page, and the
// ratings table sorts by a column and filters by team, kind and real balls. Without JavaScript
// the page lists every pair's link and the table in team order.
(function () {
  "use strict";
  var form = document.querySelector("[data-pair-form]");
  if (form) {
    form.hidden = false;
    var list = document.querySelector("[data-pair-list]");
    if (list) { list.open = false; }   // the form picks the pair: the list of every pair folds away
    form.addEventListener("submit", function (event) {
      var a = form.elements.a.value, b = form.elements.b.value;
      var link = document.querySelector('a[data-pair="' + a + " " + b + '"]') ||
                 document.querySelector('a[data-pair="' + b + " " + a + '"]');
      event.preventDefault();
      if (link) { location.href = link.getAttribute("href"); }
    });
  }
  var table = document.querySelector("[data-ratings]");
  if (!table) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var count = document.querySelector("[data-rating-count]");
  var filter = document.querySelector("[data-card-filter]");
  var sorted = { key: -1, up: true };

  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.setAttribute("aria-sort", "none");
    th.querySelector("button").addEventListener("click", function () {
      var up = sorted.key === column ? !sorted.up : !th.hasAttribute("data-numeric");
      var numeric = th.hasAttribute("data-numeric");
      rows.sort(function (x, y) {
        var p = x.cells[column].dataset.v, q = y.cells[column].dataset.v;
        if (p === "" && q !== "") { return 1; }   // a card with no such rating goes last
        if (q === "" && p !== "") { return -1; }
        var d = numeric ? parseFloat(p) - parseFloat(q) : p.localeCompare(q);
        return up ? d : -d;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      table.querySelectorAll("thead th").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      sorted = { key: column, up: up };
    });
  });

  function apply() {
    var team = document.getElementById("filter-team").value;
    var kind = document.getElementById("filter-kind").value;
    var balls = parseInt(document.getElementById("filter-balls").value, 10) || 0;
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!team || row.dataset.team === team) && (!kind || row.dataset.kind === kind) &&
               parseInt(row.dataset.balls, 10) >= balls;
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    if (count) { count.textContent = shown + " of " + rows.length + " cards."; }
  }
  if (filter) {
    filter.hidden = false;
    filter.addEventListener("input", apply);
    filter.addEventListener("change", apply);
    filter.addEventListener("submit", function (event) { event.preventDefault(); });
  }
}());
