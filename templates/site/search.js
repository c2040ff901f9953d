// Progressive enhancement for the player index: the search box's words (?q=...) keep only the
// players whose name or team holds every word. Without JavaScript the page lists every player A-Z.
(function () {
  "use strict";
  var list = document.querySelector("[data-player-index]");
  if (!list) { return; }
  var input = document.getElementById("find-player");
  var count = document.querySelector("[data-player-count]");
  var none = document.querySelector("[data-no-match]");
  var total = list.children.length;

  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function apply(query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(list.children, function (item) {
      var text = fold(item.dataset.search || "");
      var ok = words.every(function (word) { return text.indexOf(word) !== -1; });
      item.hidden = !ok;
      if (ok) { shown += 1; }
    });
    if (count) {
      count.textContent = words.length ? shown + " of " + total + " players match \u201c" + query.trim() + "\u201d."
                                       : total + " players, A\u2013Z by surname.";
    }
    if (none) { none.hidden = shown !== 0; }
  }

  var query = new URLSearchParams(location.search).get("q") || "";
  if (input) {
    input.value = query;
    input.addEventListener("input", function () { apply(input.value); });
  }
  apply(query);
}());
