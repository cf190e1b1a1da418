/* A situation's walk: one question at a time, back and restart, ending on the ruling.
   Every state has its own address: #<question>=<answer>&…(&house=none), so a ruling can be shared.
   The rulings under both house modes were computed at build time by floorcall.walk.rule_for_house.

   The ruling screen follows the CLI's first screen: the verdict and the one line on house vs TDA,
   then Back / Restart / Share, then the governing rule's words; the reasons, the other position,
   every rule cited and where facts come from are folded below. After each answer focus moves to
   the new question or to the ruling, so a keyboard or a screen reader carries on from there. */
(function () {
  "use strict";
  var dataNode = document.getElementById("walk-data"), box = document.getElementById("walker");
  if (!dataNode || !box) return;
  var tree = JSON.parse(dataNode.textContent);
  var root = document.body.getAttribute("data-root") || "";
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };
  var COPIED_MS = 4000;

  var el = FloorDom.el, link = FloorDom.link;

  // A button that goes to a state of the walk (a new history entry, so the browser's Back works too).
  function stepButton(hash, className, text) {
    var button = el("button", className, text);
    button.type = "button";
    button.addEventListener("click", function () {
      if (location.hash === hash || (hash === "#" && !location.hash)) render(true);
      else location.hash = hash;
    });
    return button;
  }

  function rulePath(id) { return root + FloorSite.rulePath(id); }

  function readHash() {
    var answers = {}, house = "dttf";
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      if (!pair) return;
      var at = pair.indexOf("="), key, value;
      try {
        key = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
        value = decodeURIComponent(at < 0 ? "" : pair.slice(at + 1));
      } catch (e) { return; }
      if (key === "house") house = value === "none" ? "none" : "dttf";
      else answers[key] = value;
    });
    return { answers: answers, house: house };
  }

  function hashFor(path, house) {
    var parts = path.map(function (step) { return encodeURIComponent(step.question) + "=" + encodeURIComponent(step.answer); });
    if (house === "none") parts.push("house=none");
    return "#" + parts.join("&");
  }

  // Follow the answers from the start; an answer off the path (or unknown) is ignored, as in walk.advance.
  function advance(answers) {
    var node = tree.start, path = [], seen = {};
    while (has(tree.questions, node) && !has(seen, node)) {
      seen[node] = true;
      var question = tree.questions[node], chosen = null;
      question.answers.forEach(function (answer) { if (answer[0] === answers[node]) chosen = answer; });
      if (!chosen) return { question: node, path: path };
      path.push({ question: node, answer: chosen[0], ask: question.ask, label: chosen[1] });
      node = chosen[2];
    }
    return { outcome: node, path: path };
  }

  function citeList(ids) {
    var list = el("ul", "cites");
    ids.forEach(function (id) {
      var rule = tree.rules[id], li = el("li");
      if (rule) {
        li.appendChild(link(rulePath(id), "", rule.heading));
        if (rule.summary) li.appendChild(el("span", "cite-summary", rule.summary));
      } else {
        li.textContent = id;
      }
      list.appendChild(li);
    });
    return list;
  }

  function labelled(className, label, text) {
    var p = el("p", className);
    p.appendChild(el("strong", "", label));
    p.appendChild(document.createTextNode(text));
    return p;
  }

  // The governing rule (the first cited): its words, marked as the rulebook's or as ours.
  function governing(id) {
    var rule = tree.rules[id];
    if (!rule) return null;
    var section = el("section", "governing");
    section.setAttribute("aria-label", "The governing rule");
    var head = el("p", "governing-head");
    head.appendChild(link(rulePath(id), "", rule.heading));
    section.appendChild(head);
    var words = rule.words;
    section.appendChild(el("p", "words-note", words.note));
    section.appendChild(el(words.kind === "summary" ? "p" : "blockquote", "words words-" + words.kind, words.text));
    // An opening-only quote: our summary of the rest follows, as on the terminal's first screen.
    if (words.summary) section.appendChild(labelled("words words-summary", "In our words: ", words.summary));
    return section;
  }

  function shareControl(ruling) {
    var wrap = el("span", "share-wrap");
    var button = el("button", "button share", "Share");
    button.type = "button";
    var note = el("span", "share-status");
    note.setAttribute("role", "status");
    button.addEventListener("click", function () {
      var url = location.href;
      var done = function (text) {
        note.textContent = text;
        clearTimeout(note.timer);
        note.timer = setTimeout(function () { note.textContent = ""; }, COPIED_MS);
      };
      if (navigator.share) {
        navigator.share({ title: tree.title, text: tree.title + ": " + ruling.ruling, url: url })
          .then(function () { done("Shared."); }, function () { /* the user closed the share sheet */ });
        return;
      }
      copy(url).then(function () { done("Link copied."); }, function () { offerLink(wrap, url); done("Copy the link below."); });
    });
    wrap.appendChild(button);
    wrap.appendChild(note);
    return wrap;
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var field = el("textarea", "visually-hidden");
      field.value = text;
      document.body.appendChild(field);
      field.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      field.remove();
      if (ok) resolve(); else reject(new Error("no clipboard"));
    });
  }

  function offerLink(wrap, url) {
    if (wrap.querySelector("input")) return;
    var field = el("input", "share-link");
    field.type = "text";
    field.readOnly = true;
    field.value = url;
    field.setAttribute("aria-label", "Link to this ruling");
    wrap.appendChild(field);
    field.focus();
    field.select();
  }

  function controls(state, house, ruling) {
    var row = el("div", "controls");
    if (state.path.length) row.appendChild(stepButton(hashFor(state.path.slice(0, -1), house), "button back", "← Back"));
    if (state.path.length || house === "none") row.appendChild(stepButton(hashFor([], house), "button restart", "Restart"));
    if (ruling) row.appendChild(shareControl(ruling));
    return row;
  }

  function answersSoFar(state, house) {
    var taken = el("ol", "taken");
    taken.setAttribute("aria-label", "Answers so far");
    state.path.forEach(function (step, i) {
      var li = el("li"), text = el("span", "taken-text");
      text.appendChild(el("span", "taken-ask", step.ask));
      text.appendChild(el("span", "taken-answer", step.label));
      li.appendChild(text);
      var change = stepButton(hashFor(state.path.slice(0, i), house), "button change", "Change");
      change.setAttribute("aria-label", "Change: " + step.ask);
      li.appendChild(change);
      taken.appendChild(li);
    });
    return taken;
  }

  function modeLine(state, house) {
    var mode = el("p", "mode");
    mode.appendChild(document.createTextNode(house === "dttf" ? "House rules (DTTF) apply, TDA 2024 beside. " : "Pure TDA 2024, house rules beside. "));
    mode.appendChild(link(hashFor(state.path, house === "dttf" ? "none" : "dttf"), "switch",
      house === "dttf" ? "Show pure TDA 2024" : "Apply house rules (DTTF)"));
    return mode;
  }

  function renderRuling(state, house) {
    var ruling = tree.outcomes[state.outcome] && tree.outcomes[state.outcome][house];
    var section = el("div", "ruling walk-ruling");
    if (!ruling) { section.appendChild(el("p", "notice", "This tree leads nowhere here: run `floor check`.")); return { node: section }; }
    var heading = el("h2", "ruling-head", house === "dttf" ? "Ruling · house rules (DTTF) in force" : "Ruling · pure TDA 2024 in force");
    heading.tabIndex = -1;
    section.appendChild(heading);
    var verdict = el("div", "position applied");
    verdict.appendChild(el("p", "verdict", ruling.ruling));
    section.appendChild(verdict);
    if (ruling.house_line) section.appendChild(el("p", "house-line", ruling.house_line));
    section.appendChild(controls(state, house, ruling));
    var words = ruling.cites.length ? governing(ruling.cites[0]) : null;
    if (words) section.appendChild(words);
    if (ruling.calc) {
      var calc = labelled("calc", "Do the arithmetic: ", "");
      calc.appendChild(el("code", "", ruling.calc));
      section.appendChild(calc);
    }
    if (state.path.length) section.appendChild(answersSoFar(state, house));

    var other = ruling.other_position, more = el("details", "more");
    var count = ruling.cites.length + (other && other.cite ? other.cite.length : 0);
    more.appendChild(el("summary", "", "Why, " + (other ? "the " + other.label + " position, " : "") + "and every rule cited (" + count + ")"));
    if (ruling.why) more.appendChild(labelled("why", "Why: ", ruling.why));
    if (ruling.house_note) more.appendChild(labelled("house-note", "House vs TDA: ", ruling.house_note));
    if (other) {
      var box = el("div", "position other");
      box.appendChild(el("p", "who", other.label + " position"));
      box.appendChild(el("p", "verdict", other.ruling));
      if (other.why) box.appendChild(el("p", "why", other.why));
      if (other.cite && other.cite.length) box.appendChild(citeList(other.cite));
      more.appendChild(box);
    }
    if (ruling.note_2019) more.appendChild(labelled("note-2019", "2019 procedure: ", ruling.note_2019));
    more.appendChild(el("p", "who", "Rules cited, primary first"));
    more.appendChild(citeList(ruling.cites));
    section.appendChild(more);
    if (ruling.sourcing) {
      var sourcing = el("details", "sourcing");
      sourcing.appendChild(el("summary", "", "Where this comes from"));
      sourcing.appendChild(el("p", "", ruling.sourcing));
      section.appendChild(sourcing);
    }
    return { node: section, focus: heading };
  }

  function siblings() {
    if (!tree.siblings || !tree.siblings.length) return null;
    var box = el("nav", "siblings");
    box.setAttribute("aria-label", "Similar situations");
    box.appendChild(el("p", "siblings-head", "Not this? See:"));
    var list = el("ul", "sibling-list");
    tree.siblings.forEach(function (s) {
      var li = el("li");
      li.appendChild(link(root + s.path, "", s.title));
      list.appendChild(li);
    });
    box.appendChild(list);
    return box;
  }

  function render(moveFocus) {
    var wanted = readHash(), house = wanted.house, state = advance(wanted.answers), focus = null;
    box.textContent = "";

    if (state.question) {
      if (state.path.length) box.appendChild(answersSoFar(state, house));
      var question = tree.questions[state.question];
      var ask = el("h2", "ask", question.ask);
      ask.tabIndex = -1;
      focus = ask;
      box.appendChild(ask);
      var answers = el("ul", "answers");
      question.answers.forEach(function (answer) {
        var li = el("li");
        var step = { question: state.question, answer: answer[0] };
        var button = stepButton(hashFor(state.path.concat([step]), house), "answer-button", answer[1]);
        button.setAttribute("data-step", state.question + "=" + answer[0]);
        li.appendChild(button);
        answers.appendChild(li);
      });
      box.appendChild(answers);
      if (question.help) box.appendChild(el("p", "help", question.help));
      if (state.path.length || house === "none") box.appendChild(controls(state, house, null));
    } else {
      var ruling = renderRuling(state, house);
      box.appendChild(ruling.node);
      focus = ruling.focus;
      FloorSite.remember({ id: tree.id, title: tree.title });
    }
    var near = siblings();
    if (near) box.appendChild(near);
    box.appendChild(modeLine(state, house));
    if (moveFocus && focus) {
      focus.focus({ preventScroll: true });
      if (focus.getBoundingClientRect().top < 0 || focus.getBoundingClientRect().top > window.innerHeight * 0.5) {
        box.scrollIntoView({ block: "start" });
      }
    }
  }

  // The whole tree stays available, folded away, below the walk.
  var whole = document.getElementById("tree");
  if (whole) {
    var fold = el("details", "whole-tree");
    fold.appendChild(el("summary", "", "Every question and ruling (the whole tree)"));
    whole.parentNode.insertBefore(fold, whole);
    fold.appendChild(whole);
  }
  box.hidden = false;
  render(false);
  window.addEventListener("hashchange", function () { render(true); });
})();
