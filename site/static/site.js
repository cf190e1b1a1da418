/* Floorcall: what every page needs. Loaded in <head> (blocking, tiny) so the page is styled for
   JavaScript and Hold'em mode before it first paints. Storage is this browser's localStorage only. */
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

(function () {
  "use strict";
  var html = document.documentElement;
  html.classList.add("js");
  if (FloorStore.load("holdem", false)) html.classList.add("holdem");

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

  function markRulePage(body) {
    var rule = body.getAttribute("data-rule"), source = body.getAttribute("data-source");
    if (!rule) return;
    var ids = viewed(source);
    if (ids.indexOf(rule) < 0) { ids.push(rule); setViewed(source, ids); }
    var box = document.querySelector(".mark"), state = document.querySelector(".mark-state");
    var button = document.getElementById("mark-toggle");
    if (!box || !state || !button) return;
    function refresh() {
      var seen = viewed(source).indexOf(rule) >= 0;
      state.textContent = seen ? "✓ Marked as viewed in this browser." : "Not marked as viewed.";
      button.textContent = seen ? "Mark as not read" : "Mark as viewed";
    }
    button.addEventListener("click", function () {
      var now = viewed(source), at = now.indexOf(rule);
      if (at >= 0) now.splice(at, 1); else now.push(rule);
      setViewed(source, now);
      refresh();
    });
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

  // Installable and offline over http(s); a service worker cannot exist on file://.
  function registerServiceWorker(root) {
    var web = location.protocol === "http:" || location.protocol === "https:";
    if (!web || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(root + "sw.js").catch(function () { /* the site works without it */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    markRulePage(body);
    showMarks();
    holdemToggle();
    registerServiceWorker(body.getAttribute("data-root") || "");
  });
})();
