/* The home page search box: ranks as you type with FloorSearch (the port of `floor lookup`).
   The query lives in the address (#q=…) so a search can be shared and survives a reload. */
(function () {
  "use strict";
  var data = window.FLOOR_INDEX, labels = window.FLOOR_LABELS, input = document.getElementById("q"), out = document.getElementById("results");
  if (!data || !labels || !input || !out || typeof FloorSearch === "undefined") return;
  // Building the ranker (unpacking postings, counting titles and aliases) takes tens of ms on a
  // phone: do it after the page has painted, or at the first keystroke if that comes sooner.
  var built = null;
  function ranker() { return built || (built = FloorSearch.load(data)); }
  var root = document.body.getAttribute("data-root") || "";
  var c = data.constants;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function rulePath(id) {
    var at = id.indexOf(":");
    return "rules/" + id.slice(0, at) + "/" + id.slice(at + 1) + ".html";
  }

  function render(query) {
    out.textContent = "";
    if (!ranker().cleanQuery(query)) return;
    var result = ranker().rank(query, c.limit, c.rule_limit);
    var fixed = Object.keys(result.expansions);
    if (fixed.length) {
      out.appendChild(el("p", "hint", "Read as: " + fixed.map(function (k) { return k + " → " + result.expansions[k]; }).join(", ")));
    }
    if (!result.situations.length && !result.rules.length) {
      var miss = el("p", "notice", "Nothing matched" + (result.unknown.length ? " (unknown: " + result.unknown.join(", ") + ")" : "") + ". Try other words for what happened, or ");
      var all = el("a", "", "browse every situation");
      all.href = root + "situations/index.html";
      miss.appendChild(all);
      miss.appendChild(document.createTextNode("."));
      out.appendChild(miss);
      return;
    }
    if (result.situations.length) {
      out.appendChild(el("h2", "results-head", "Situations"));
      var list = el("ol", "hits");
      result.situations.forEach(function (hit) {
        var li = el("li"), a = el("a");
        a.href = root + "situations/" + hit.id + ".html";
        a.appendChild(el("span", "hit-title", data.names[hit.index][0]));
        var primary = labels.primary[hit.index];
        if (primary >= 0) a.appendChild(el("span", "hit-cite", labels.rule_labels[primary]));
        li.appendChild(a);
        list.appendChild(li);
      });
      out.appendChild(list);
    }
    if (result.rules.length) {
      out.appendChild(el("h2", "results-head", "Rules"));
      var rules = el("ul", "hits rules");
      result.rules.forEach(function (hit) {
        var li = el("li"), a = el("a", "", labels.rule_labels[hit.index]);
        a.href = root + rulePath(hit.id);
        li.appendChild(a);
        rules.appendChild(li);
      });
      out.appendChild(rules);
    }
  }

  function queryFromHash() {
    var match = /(?:^#|&)q=([^&]*)/.exec(location.hash);
    if (!match) return null;
    try { return decodeURIComponent(match[1].replace(/\+/g, " ")); } catch (e) { return null; }
  }

  function run() {
    render(input.value);
    var hash = input.value ? "#q=" + encodeURIComponent(input.value).replace(/%20/g, "+") : location.pathname + location.search;
    history.replaceState(null, "", hash);
  }

  input.disabled = false;
  input.addEventListener("input", run);
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var first = out.querySelector("a");
    if (first) { event.preventDefault(); location.href = first.href; }
  });
  window.addEventListener("hashchange", function () {
    var query = queryFromHash();
    if (query !== null && query !== input.value) { input.value = query; render(query); }
  });
  var initial = queryFromHash();
  if (initial !== null) input.value = initial;
  if (input.value) render(input.value);
  else setTimeout(ranker, 0);
  // A phone's keyboard should not pop up over the page unasked.
  if (!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) input.focus();
})();
