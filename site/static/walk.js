/* A situation's walk: one question at a time, back and restart, ending on the ruling.
   Every state has its own address: #<question>=<answer>&…(&house=none), so a ruling can be shared.
   The rulings under both house modes were computed at build time by floorcall.walk.rule_for_house. */
(function () {
  "use strict";
  var dataNode = document.getElementById("walk-data"), box = document.getElementById("walker");
  if (!dataNode || !box) return;
  var tree = JSON.parse(dataNode.textContent);
  var root = document.body.getAttribute("data-root") || "";
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };

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

  function rulePath(id) {
    var at = id.indexOf(":");
    return root + "rules/" + id.slice(0, at) + "/" + id.slice(at + 1) + ".html";
  }

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
        li.appendChild(link(rulePath(id), "", rule.label + " — " + rule.title));
        if (rule.summary) li.appendChild(el("span", "cite-summary", rule.summary));
      } else {
        li.textContent = id;
      }
      list.appendChild(li);
    });
    return list;
  }

  function position(className, who, ruling, why, cites) {
    var div = el("div", "position " + className);
    div.appendChild(el("p", "who", who));
    div.appendChild(el("p", "verdict", ruling));
    if (why) div.appendChild(el("p", "why", why));
    if (cites && cites.length) div.appendChild(citeList(cites));
    return div;
  }

  function renderRuling(state, house) {
    var ruling = tree.outcomes[state.outcome] && tree.outcomes[state.outcome][house];
    var section = el("div", "ruling walk-ruling");
    if (!ruling) { section.appendChild(el("p", "notice", "This tree leads nowhere here: run `floor check`.")); return section; }
    var other = ruling.other_position;
    var positions = el("div", "positions" + (other ? " two" : ""));
    positions.appendChild(position("applied", house === "dttf" ? "Ruling (house rules apply)" : "Ruling (pure TDA 2024)",
      ruling.ruling, ruling.why, ruling.cites));
    if (other) positions.appendChild(position("other", other.label + " position", other.ruling, other.why, other.cite || []));
    section.appendChild(positions);
    if (ruling.house_note) section.appendChild(labelled("house-note", "House vs TDA: ", ruling.house_note));
    if (ruling.note_2019) section.appendChild(labelled("note-2019", "2019 procedure: ", ruling.note_2019));
    if (ruling.calc) {
      var calc = labelled("calc", "Do the arithmetic: ", "");
      calc.appendChild(el("code", "", ruling.calc));
      section.appendChild(calc);
    }
    return section;
  }

  function labelled(className, label, text) {
    var p = el("p", className);
    p.appendChild(el("strong", "", label));
    p.appendChild(document.createTextNode(text));
    return p;
  }

  function render(scroll) {
    var wanted = readHash(), house = wanted.house, state = advance(wanted.answers);
    box.textContent = "";

    var mode = el("p", "mode");
    mode.appendChild(document.createTextNode(house === "dttf" ? "House rules (DTTF) apply, TDA 2024 beside. " : "Pure TDA 2024, house rules beside. "));
    mode.appendChild(link(hashFor(state.path, house === "dttf" ? "none" : "dttf"), "switch",
      house === "dttf" ? "Show pure TDA 2024" : "Apply house rules (DTTF)"));
    box.appendChild(mode);

    if (state.path.length) {
      var taken = el("ol", "taken");
      taken.setAttribute("aria-label", "Answers so far");
      state.path.forEach(function (step, i) {
        var li = el("li");
        li.appendChild(el("span", "taken-ask", step.ask));
        li.appendChild(el("span", "taken-answer", step.label));
        li.appendChild(link(hashFor(state.path.slice(0, i), house), "change", "change"));
        taken.appendChild(li);
      });
      box.appendChild(taken);
    }

    if (state.question) {
      var question = tree.questions[state.question];
      box.appendChild(el("h2", "ask", question.ask));
      if (question.help) box.appendChild(el("p", "help", question.help));
      var answers = el("ul", "answers");
      question.answers.forEach(function (answer) {
        var li = el("li");
        var step = { question: state.question, answer: answer[0] };
        li.appendChild(link(hashFor(state.path.concat([step]), house), "answer-button", answer[1]));
        answers.appendChild(li);
      });
      box.appendChild(answers);
    } else {
      box.appendChild(renderRuling(state, house));
    }

    var controls = el("p", "controls");
    if (state.path.length) controls.appendChild(link(hashFor(state.path.slice(0, -1), house), "button back", "← Back"));
    if (state.path.length || house === "none") controls.appendChild(link(hashFor([], house), "button restart", "Restart"));
    if (state.outcome) controls.appendChild(link(location.href.split("#")[0] + hashFor(state.path, house), "button share", "Link to this ruling"));
    box.appendChild(controls);
    if (scroll && box.getBoundingClientRect().top < 0) box.scrollIntoView();
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
  window.addEventListener("hashchange", function () { render(true); });
  render(false);
})();
