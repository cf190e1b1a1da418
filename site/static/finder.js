/* The search box in every page's header: ranks as you type with FloorSearch (the port of
   `floor lookup`), reads rule numbers (44, 53-B, rp-4) as the rule, and previews short trees.
   The box takes typing from the first paint: on the home page the index comes with the page,
   elsewhere it loads the first time the box is used; what was typed meanwhile is searched then.
   On the home page the query lives in the address (#q=…), so a search can be shared. */
(function () {
  "use strict";
  var input = document.getElementById("q"), out = document.getElementById("results"), status = document.getElementById("search-status");
  if (!input || !out) return;
  var root = document.body.getAttribute("data-root") || "";
  var home = document.body.getAttribute("data-page") === "home";
  var html = document.documentElement;
  var SCRIPTS = ["static/search-index.js", "static/search-labels.js", "static/search.js"];
  var STATUS_DELAY_MS = 600;  // the count is read out once typing pauses, not at every keystroke
  var built = null, loading = false, pendingEnter = false, statusTimer = null;

  function ready() { return Boolean(window.FLOOR_INDEX && window.FLOOR_LABELS && typeof FloorSearch !== "undefined"); }
  function ranker() { return built || (built = FloorSearch.load(window.FLOOR_INDEX)); }

  function load() {
    if (ready() || loading) return;
    loading = true;
    SCRIPTS.forEach(function (path) {
      var script = document.createElement("script");
      script.src = root + path;
      script.async = false;  // in order: the index, the labels, then the ranker
      if (path === SCRIPTS[SCRIPTS.length - 1]) {
        script.addEventListener("load", function () { run(); if (pendingEnter) openFirst(); loadPreviews(); });
        script.addEventListener("error", function () { loading = false; show(el("p", "notice", "Search could not load: open the home page to search.")); });
      }
      document.body.appendChild(script);
    });
  }

  // The previews come after the ranker: the first results never wait for them.
  function loadPreviews() {
    if (window.FLOOR_PREVIEWS || document.getElementById("previews-script")) return;
    var script = document.createElement("script");
    script.id = "previews-script";
    script.src = root + "static/search-previews.js";
    script.addEventListener("load", function () { if (input.value.trim()) render(input.value); });
    document.body.appendChild(script);
  }

  var el = FloorDom.el, link = FloorDom.link;

  function show() {
    out.textContent = "";
    for (var i = 0; i < arguments.length; i++) if (arguments[i]) out.appendChild(arguments[i]);
  }

  function say(text) {
    if (!status) return;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(function () { status.textContent = text; }, STATUS_DELAY_MS);
  }

  function situationList(hits, withPreview) {
    var data = window.FLOOR_INDEX, labels = window.FLOOR_LABELS;
    var list = el("ol", "hits");
    hits.forEach(function (hit, n) {
      var li = el("li"), path = root + "situations/" + hit.id + ".html";
      var a = link(path, "hit");
      a.appendChild(el("span", "hit-title", data.names[hit.index][0]));
      var primary = labels.primary[hit.index];
      if (primary >= 0) a.appendChild(el("span", "hit-cite", labels.rule_labels[primary]));
      var preview = withPreview && n === 0 && window.FLOOR_PREVIEWS ? window.FLOOR_PREVIEWS[hit.index] : null;
      if (preview && preview.r) a.appendChild(el("span", "hit-ruling", "Ruling: " + preview.r));
      li.appendChild(a);
      if (preview && preview.a) li.appendChild(previewAnswers(path, preview));
      list.appendChild(li);
    });
    return list;
  }

  // One question decides it: each answer opens the page on its ruling, one tap sooner.
  function previewAnswers(path, preview) {
    var box = el("div", "preview");
    box.appendChild(el("p", "preview-ask", preview.ask));
    var list = el("ul", "preview-answers");
    preview.a.forEach(function (answer) {
      var li = el("li"), a = link(path + "#" + encodeURIComponent(preview.q) + "=" + encodeURIComponent(answer[0]), "preview-answer");
      a.appendChild(el("span", "preview-label", answer[1]));
      a.appendChild(el("span", "preview-ruling", answer[2]));
      li.appendChild(a);
      list.appendChild(li);
    });
    box.appendChild(list);
    return box;
  }

  function ruleList(hits) {
    var labels = window.FLOOR_LABELS, list = el("ul", "hits rules");
    hits.forEach(function (hit) {
      var li = el("li");
      li.appendChild(link(root + FloorSite.rulePath(hit.id), "hit", labels.rule_labels[hit.index]));
      list.appendChild(li);
    });
    return list;
  }

  function render(query) {
    if (!query.trim()) { show(); say(""); return; }
    if (!ready()) { load(); show(el("p", "hint", "Loading search…")); return; }
    var r = ranker(), text = r.complete(query), c = window.FLOOR_INDEX.constants;
    if (!r.cleanQuery(query)) { show(); say(""); return; }
    var result = r.rank(text, c.limit, c.rule_limit), parts = [];
    var fixed = Object.keys(result.expansions);
    if (fixed.length) parts.push(el("p", "hint", "Read as: " + fixed.map(function (k) { return k + " → " + result.expansions[k]; }).join(", ")));
    if (result.reference) {
      parts.push(el("h2", "results-head", "Rule"));
      var rule = ruleList(result.rules);
      rule.classList.add("reference");
      parts.push(rule);
      if (result.situations.length) { parts.push(el("h2", "results-head", "Situations that cite it")); parts.push(situationList(result.situations, false)); }
      say("Rule " + result.reference.split(":")[1] + ", and " + result.situations.length + " situations that cite it.");
      show.apply(null, parts);
      return;
    }
    if (!result.situations.length && !result.rules.length) {
      var miss = el("p", "notice", "Nothing matched" + (result.unknown.length ? " (unknown: " + result.unknown.join(", ") + ")" : "") + ". Try other words for what happened, a rule number, or ");
      miss.appendChild(link(root + "situations/index.html", "", "browse every situation"));
      miss.appendChild(document.createTextNode("."));
      show(miss);
      say("Nothing matched.");
      return;
    }
    if (result.outOfScope || !result.situations.length) {
      // As `floor lookup` does: a question these rules do not decide gets the closest rules, not situations.
      parts.push(el("p", "notice weak", "No situation fits well (" + result.whyWeak + "). The closest rules come first."));
      if (result.rules.length) { parts.push(el("h2", "results-head", "Closest rules")); parts.push(ruleList(result.rules)); }
      if (result.situations.length) { parts.push(el("h2", "results-head", "Situations that might fit")); parts.push(situationList(result.situations, false)); }
    } else if (!result.confident) {
      // Merely weak (often a query still being typed): the situations stay first, marked as a loose fit.
      // Said on the heading's own line: a line of its own (with the reason, "the best match is weak")
      // pushed a result under a phone's keyboard. The title keeps the reason.
      var head = el("h2", "results-head", "Closest situations");
      var hint = el("span", "weak-hint", " · loose fit: add a word");
      hint.title = result.whyWeak;
      head.appendChild(hint);
      parts.push(head);
      parts.push(situationList(result.situations, true));
      if (result.rules.length) { parts.push(el("h2", "results-head", "Rules")); parts.push(ruleList(result.rules)); }
    } else {
      parts.push(el("h2", "results-head", "Situations"));
      parts.push(situationList(result.situations, true));
      if (result.rules.length) { parts.push(el("h2", "results-head", "Rules")); parts.push(ruleList(result.rules)); }
    }
    say(result.situations.length + " situations, " + result.rules.length + " rules" + (result.confident ? "." : ": no situation fits well."));
    show.apply(null, parts);
  }

  function queryFromHash() {
    var match = /(?:^#|&)q=([^&]*)/.exec(location.hash);
    if (!match) return null;
    try { return decodeURIComponent(match[1].replace(/\+/g, " ")); } catch (e) { return null; }
  }

  function run() {
    var active = input.value.trim() !== "";
    html.classList.toggle("searching", active);
    if (!home) out.hidden = !active;
    render(input.value);
    if (home) {
      var hash = input.value ? "#q=" + encodeURIComponent(input.value).replace(/%20/g, "+") : location.pathname + location.search;
      history.replaceState(null, "", hash);
    }
  }

  function openFirst() {
    pendingEnter = false;
    var first = out.querySelector("a");
    if (first) location.href = first.href;
  }

  input.addEventListener("input", run);
  input.addEventListener("focus", load);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      event.preventDefault();
      if (ready()) openFirst(); else { pendingEnter = true; load(); }
    } else if (event.key === "ArrowDown") {
      var first = out.querySelector("a");
      if (first) { event.preventDefault(); first.focus(); }
    } else if (event.key === "Escape" && !home) {
      input.value = "";
      run();
    }
  });
  // Arrow keys walk the results; Escape goes back to the box.
  out.addEventListener("keydown", function (event) {
    var links = Array.prototype.slice.call(out.querySelectorAll("a")), at = links.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at + 1 < links.length) { event.preventDefault(); links[at + 1].focus(); }
    if (event.key === "ArrowUp") { event.preventDefault(); (at ? links[at - 1] : input).focus(); }
    if (event.key === "Escape") { event.preventDefault(); input.focus(); }
  });
  // "/" jumps to the box from anywhere on the page, as on most documentation sites.
  document.addEventListener("keydown", function (event) {
    var target = event.target, typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); input.focus(); }
  });

  if (home) {
    window.addEventListener("hashchange", function () {
      var query = queryFromHash();
      if (query !== null && query !== input.value) { input.value = query; run(); }
    });
    var initial = queryFromHash();
    if (initial !== null && !input.value) input.value = initial;
    showRecent();
    // A phone's keyboard should not pop up over the page unasked.
    if (!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) input.focus();
  }
  if (input.value) run();  // typed (or restored) before this script ran
  else if (home && ready()) setTimeout(ranker, 0);  // build the ranker once the page has painted
  if (home && ready()) setTimeout(loadPreviews, 0);

  function showRecent() {
    var box = document.getElementById("recent"), recent = typeof FloorSite !== "undefined" ? FloorSite.recent() : [];
    if (!box || !recent.length) return;
    box.appendChild(el("h2", "results-head", "Recent situations"));
    var list = el("ul", "hits");
    recent.forEach(function (s) {
      if (!s || !/^[a-z0-9-]+$/.test(String(s.id))) return;
      var li = el("li");
      li.appendChild(link(root + "situations/" + s.id + ".html", "hit", s.title));
      list.appendChild(li);
    });
    box.appendChild(list);
    box.hidden = false;
  }
})();
