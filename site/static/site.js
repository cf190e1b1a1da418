/* Floorcall: what every page needs. Loaded in <head> (blocking, tiny) so the page is styled for
   JavaScript, Hold'em mode, the chosen theme and text size before it first paints.
   Storage is this browser's localStorage only. */
var FloorStore = (function () {
  "use strict";
  var PREFIX = "floorcall:";
  function load(key, fallback) {
    try {
      var value = window.localStorage.getItem(PREFIX + key);
      return value === null ? fallback : JSON.parse(value);
    } catch (e) {
      return fallback;  // storage off (private mode, file:// policies): the site still works, it just forgets
    }
  }
  function save(key, value) {
    try { window.localStorage.setItem(PREFIX + key, JSON.stringify(value)); } catch (e) { /* see load */ }
  }
  return { load: load, save: save };
})();

// Building the page from script (finder.js, walk.js, quiz.js): text always as text, never as HTML.
var FloorDom = (function () {
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function link(href, className, text) {
    var a = el("a", className, text);
    a.href = href;
    return a;
  }

  return { el: el, link: link };
})();

var FloorSite = (function () {
  "use strict";
  // sitegen.rule_path: a lettered part of a TDA rule (35-E, RP-10-H) is an anchor on its rule's page.
  var PART = /^((?:RP-)?\d+)-([A-Z])$/;
  function rulePath(id) {
    var at = id.indexOf(":"), source = id.slice(0, at), number = id.slice(at + 1);
    var part = source.indexOf("tda-") === 0 ? PART.exec(number) : null;
    return "rules/" + source + "/" + (part ? part[1] + ".html#" + part[2] : number + ".html");
  }
  var THEMES = ["system", "light", "dark"];
  // Text size steps, as a share of the browser's own default size (which the user may have set).
  var SIZES = [87.5, 100, 112.5, 125, 150, 175];
  var RECENT = 5;
  function theme() { var t = FloorStore.load("theme", "system"); return THEMES.indexOf(t) >= 0 ? t : "system"; }
  function size() { var s = FloorStore.load("text-size", 100); return SIZES.indexOf(s) >= 0 ? s : 100; }
  function applyDisplay() {
    var html = document.documentElement, t = theme(), s = size();
    if (t === "system") html.removeAttribute("data-theme"); else html.setAttribute("data-theme", t);
    if (s === 100) html.removeAttribute("data-size"); else html.setAttribute("data-size", String(s).replace(".", "-"));
    // The browser's bar takes the colour of the theme in use.
    document.querySelectorAll('meta[name="theme-color"]').forEach(function (meta) {
      var media = meta.getAttribute("media") || "";
      var shown = t === "system" ? (media.indexOf("dark") >= 0 ? "dark" : "light") : t;
      meta.setAttribute("content", meta.getAttribute(shown === "dark" ? "data-theme-dark" : "data-theme-light"));
    });
  }
  function remember(situation) {
    var list = FloorStore.load("recent", []).filter(function (x) { return x && x.id !== situation.id; });
    list.unshift({ id: situation.id, title: situation.title });
    FloorStore.save("recent", list.slice(0, RECENT));
  }
  return { rulePath: rulePath, THEMES: THEMES, SIZES: SIZES, theme: theme, size: size, applyDisplay: applyDisplay,
           remember: remember, recent: function () { return FloorStore.load("recent", []); } };
})();

(function () {
  "use strict";
  var html = document.documentElement;
  html.classList.add("js");
  if (FloorStore.load("holdem", false)) html.classList.add("holdem");
  FloorSite.applyDisplay();

  // Reading marks, per edition (source): "viewed:<source>" holds the ids of the rules opened.
  function viewed(source) { return FloorStore.load("viewed:" + source, []); }
  function setViewed(source, ids) { FloorStore.save("viewed:" + source, ids); }

  function showMarks() {
    document.querySelectorAll("[data-viewed-source]").forEach(function (el) {
      var ids = viewed(el.getAttribute("data-viewed-source"));
      el.textContent = "Viewed · " + ids.length + "/" + el.getAttribute("data-total");
    });
    document.querySelectorAll("li[data-rule-id]").forEach(function (li) {
      var id = li.getAttribute("data-rule-id");
      li.classList.toggle("seen", viewed(id.split(":")[0]).indexOf(id) >= 0);
    });
    document.querySelectorAll(".marks-note").forEach(function (el) { el.hidden = false; });
  }

  // A rule page marks the rule and the parts printed on it.
  function markRulePage(body) {
    var rule = body.getAttribute("data-rule"), source = body.getAttribute("data-source");
    if (!rule || body.getAttribute("data-page") !== "rule") return;
    var ids = [rule].concat((body.getAttribute("data-parts") || "").split(" ").filter(Boolean));
    function seen() { return viewed(source).indexOf(rule) >= 0; }
    function set(on) {
      var now = viewed(source).filter(function (x) { return ids.indexOf(x) < 0; });
      setViewed(source, on ? now.concat(ids) : now);
    }
    if (!seen()) set(true);
    var box = document.querySelector(".mark"), state = document.querySelector(".mark-state");
    var button = document.getElementById("mark-toggle");
    if (!box || !state || !button) return;
    function refresh() {
      state.textContent = seen() ? "✓ Marked as viewed in this browser." : "Not marked as viewed.";
      button.textContent = seen() ? "Mark as not read" : "Mark as viewed";
    }
    button.addEventListener("click", function () { set(!seen()); refresh(); });
    box.hidden = false;
    refresh();
  }

  function holdemToggle() {
    var button = document.getElementById("holdem-toggle");
    if (!button) return;
    function refresh() { button.setAttribute("aria-pressed", String(html.classList.contains("holdem"))); }
    button.addEventListener("click", function () {
      var on = !html.classList.contains("holdem");
      html.classList.toggle("holdem", on);
      FloorStore.save("holdem", on);
      refresh();
    });
    button.hidden = false;
    refresh();
  }

  function displaySettings() {
    var toggle = document.getElementById("settings-toggle"), panel = document.getElementById("settings");
    if (!toggle || !panel) return;
    var value = document.getElementById("size-value");
    function refresh() {
      panel.querySelectorAll("[data-theme-choice]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-theme-choice") === FloorSite.theme()));
      });
      var s = FloorSite.size(), at = FloorSite.SIZES.indexOf(s);
      if (value) value.textContent = s + " %";
      panel.querySelector('[data-size-step="-1"]').disabled = at <= 0;
      panel.querySelector('[data-size-step="1"]').disabled = at >= FloorSite.SIZES.length - 1;
    }
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = panel.hidden;
      panel.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
    });
    panel.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.hasAttribute("data-theme-choice")) FloorStore.save("theme", button.getAttribute("data-theme-choice"));
      if (button.hasAttribute("data-size-step")) {
        var at = FloorSite.SIZES.indexOf(FloorSite.size()) + Number(button.getAttribute("data-size-step"));
        FloorStore.save("text-size", FloorSite.SIZES[Math.max(0, Math.min(FloorSite.SIZES.length - 1, at))]);
      }
      FloorSite.applyDisplay();
      refresh();
    });
    refresh();
  }

  /* The offline copy. The service worker saves the site file by file and reports how far it got;
     this line says so, and says "ready" only when every file is saved. A service worker cannot
     exist on file://, where the folder itself is the copy. */
  function offline(root) {
    var line = document.getElementById("offline-status");
    function say(text, ready) {
      if (!line) return;
      line.textContent = text;
      line.classList.toggle("ready", Boolean(ready));
    }
    if (location.protocol === "file:") { say("Opened from a folder: everything works without a network while these files stay together.", true); return; }
    var web = location.protocol === "http:" || location.protocol === "https:";
    if (!web || !("serviceWorker" in navigator)) { say("This browser cannot keep an offline copy: it needs the network."); return; }
    var updated = false, hadController = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener("message", function (event) {
      var m = event.data || {};
      if (m.type !== "floorcall-progress") return;
      if (m.done >= m.total) say("✓ Ready offline: all " + m.total + " files saved (version " + m.version.slice(0, 7) + ")" + (updated ? ", updated." : "."), true);
      else if (m.finished) say("Saved for offline: " + m.done + " / " + m.total + " files. " + (m.total - m.done) + " could not be fetched; they are tried again when you next open a page.");
      else say("Saving for offline: " + m.done + " / " + m.total + " files…");
    });
    // A worker taking over a page that already had one is a new build (the first worker is not an update).
    navigator.serviceWorker.addEventListener("controllerchange", function () { if (hadController) updated = true; });
    say("Saving for offline…");
    navigator.serviceWorker.register(root + "sw.js").then(function (registration) {
      // Ask the worker (the active one, or the one being installed) where the copy stands; it resumes an unfinished copy.
      function ask() {
        var worker = registration.active || registration.waiting || registration.installing;
        if (worker) worker.postMessage({ type: "floorcall-status" });
      }
      ask();
      navigator.serviceWorker.ready.then(function (ready) { if (ready.active) ready.active.postMessage({ type: "floorcall-status" }); });
    }).catch(function () { say("No offline copy: this browser refused to keep one."); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    markRulePage(body);
    showMarks();
    holdemToggle();
    displaySettings();
    offline(body.getAttribute("data-root") || "");
  });
})();
