/* The quiz: one question at a time, feedback citing the rule, a running score.
   Progress stays in this browser (localStorage "floorcall:quiz"): {answers: {item id: choice}, topic, current}.

   The page loads a small first file (a few questions of every topic, sitegen.quiz_files) and shows
   a question at once; each topic's file loads behind it. A session starts on a random topic and
   goes round the topics, never serving an item about the situation (or rule) of the last few. */
(function () {
  "use strict";
  var data = window.FLOOR_QUIZ, box = document.getElementById("quiz"), card = document.getElementById("quiz-item");
  if (!data || !box || !card) return;
  var RECENT_REFS = 5;  // an item's situation is not served again within this many questions
  var root = document.body.getAttribute("data-root") || "";
  var topicSelect = document.getElementById("quiz-topic"), scoreLine = document.getElementById("quiz-score");
  var items = [], byId = {}, loaded = {}, waiting = false;
  var session = { shown: {}, refs: [] };  // this visit only: how often each topic came up, the last situations
  var progress = FloorStore.load("quiz", null);
  if (!progress || typeof progress.answers !== "object" || progress.answers === null) progress = { answers: {}, topic: "" };

  // Choices arrive as numbers into a table of rulings (sitegen.quiz_payload).
  function add(payload) {
    payload.items.forEach(function (item) {
      if (byId[item.id]) return;
      var copy = {};
      Object.keys(item).forEach(function (key) { copy[key] = item[key]; });
      copy.choices = item.choices.map(function (n) { return payload.choices[n]; });
      byId[copy.id] = copy;
      items.push(copy);
    });
  }
  add(data.starter);

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function save() { FloorStore.save("quiz", progress); }
  function inPool(item) { return !progress.topic || item.topic === progress.topic; }
  function answered(item) { return Object.prototype.hasOwnProperty.call(progress.answers, item.id); }
  function allLoaded() { return data.topics.every(function (t) { return loaded[t.topic]; }); }
  function random(list) { return list[Math.floor(Math.random() * list.length)]; }

  function showScore() {
    var total = 0;
    data.topics.forEach(function (t) { if (!progress.topic || t.topic === progress.topic) total += t.count; });
    var done = 0, right = 0;
    Object.keys(progress.answers).forEach(function (id) {
      var item = byId[id], topic = item ? item.topic : null;
      if (item && !inPool(item)) return;
      if (!item && progress.topic) return;  // not loaded yet: counted once its topic is
      done++;
      if (item && progress.answers[id] === item.answer) right++;
    });
    scoreLine.textContent = "Score: " + right + "/" + done + " · " + Math.max(0, total - done) + " to go";
  }

  // The next item: from the topic shown least this session (a random one of those), about a
  // situation not among the last few; null when nothing loaded is left to ask.
  function nextItem() {
    var open = items.filter(function (item) { return inPool(item) && !answered(item); });
    if (!open.length) return null;
    var topics = {};
    open.forEach(function (item) { topics[item.topic] = true; });
    var names = Object.keys(topics), least = Infinity;
    names.forEach(function (t) { least = Math.min(least, session.shown[t] || 0); });
    var topic = random(names.filter(function (t) { return (session.shown[t] || 0) === least; }));
    var ofTopic = open.filter(function (item) { return item.topic === topic; });
    var fresh = ofTopic.filter(function (item) { return session.refs.indexOf(item.ref) < 0; });
    if (!fresh.length) fresh = open.filter(function (item) { return session.refs.indexOf(item.ref) < 0; });
    return random(fresh.length ? fresh : ofTopic);
  }

  function serve(item) {
    session.shown[item.topic] = (session.shown[item.topic] || 0) + 1;
    session.refs.push(item.ref);
    if (session.refs.length > RECENT_REFS) session.refs.shift();
    progress.current = item.id;
    save();
  }

  function feedback(item) {
    var chosen = progress.answers[item.id], right = chosen === item.answer;
    var fb = el("div", "feedback " + (right ? "right" : "wrong"));
    var verdict = el("p", "verdict", right ? "✓ Right." : "✗ Not quite: the ruling is marked “Right answer” above.");
    verdict.tabIndex = -1;
    fb.appendChild(verdict);
    var next = el("button", "button next", "Next question →");
    next.type = "button";
    next.addEventListener("click", function () { progress.current = null; render(true); });
    fb.appendChild(next);
    if (item.explanation) fb.appendChild(el("p", "why", item.explanation));
    if (item.cites.length) {
      var list = el("ul", "cites");
      item.cites.forEach(function (cite) {
        var li = el("li");
        if (cite[1]) { var a = el("a", "", cite[0]); a.href = root + cite[1]; li.appendChild(a); } else { li.textContent = cite[0]; }
        list.appendChild(li);
      });
      fb.appendChild(list);
    }
    return { node: fb, focus: verdict };
  }

  function render(moveFocus) {
    showScore();
    card.textContent = "";
    var item = progress.current ? byId[progress.current] || null : null;
    if (item && !inPool(item)) item = null;
    if (!item) {
      item = nextItem();
      if (item) serve(item);
    }
    if (!item) {
      if (!allLoaded()) { waiting = true; card.appendChild(el("p", "hint", "Loading more questions…")); return; }
      card.appendChild(el("p", "done", "You have answered every question" + (progress.topic ? " on " + progress.topic : "") + ". Start over to go again."));
      return;
    }
    waiting = false;
    card.setAttribute("data-item", item.id);
    card.appendChild(el("p", "topic", item.topic));
    var prompt = el("h2", "prompt", item.prompt);
    prompt.tabIndex = -1;
    card.appendChild(prompt);
    var list = el("ol", "choices"), done = answered(item);
    item.choices.forEach(function (text, index) {
      var li = el("li"), button = el("button", "choice");
      button.type = "button";
      button.appendChild(el("span", "choice-text", text));
      if (done) {
        button.disabled = true;
        if (index === item.answer) { button.classList.add("correct"); button.appendChild(el("span", "choice-mark", "✓ Right answer")); }
        if (index === progress.answers[item.id] && index !== item.answer) { button.classList.add("chosen-wrong"); button.appendChild(el("span", "choice-mark", "✗ Your answer")); }
      } else {
        button.addEventListener("click", function () {
          progress.answers[item.id] = index;
          save();
          render(true);
        });
      }
      li.appendChild(button);
      list.appendChild(li);
    });
    card.appendChild(list);
    var target = prompt;
    if (done) {
      var fb = feedback(item);
      card.appendChild(fb.node);
      target = fb.focus;
    }
    if (moveFocus) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "nearest" });
    }
  }

  // Each topic's file, one after another behind the first question (sequentially: the first
  // question's own requests come first on a slow line).
  function loadTopics(queue) {
    if (!queue.length) return;
    var topic = queue[0];
    var script = document.createElement("script");
    script.src = root + topic.file;
    script.addEventListener("load", function () {
      var part = (window.FLOOR_QUIZ_PARTS || {})[topic.topic];
      if (part) add(part);
      loaded[topic.topic] = true;
      showScore();
      if (waiting) render(false);
      loadTopics(queue.slice(1));
    });
    script.addEventListener("error", function () { loaded[topic.topic] = true; loadTopics(queue.slice(1)); });
    document.body.appendChild(script);
  }

  topicSelect.value = progress.topic || "";
  topicSelect.addEventListener("change", function () {
    progress.topic = topicSelect.value;
    progress.current = null;
    save();
    render(false);
  });

  var reset = document.getElementById("quiz-reset"), confirmBox = document.getElementById("quiz-confirm");
  var confirmText = document.getElementById("quiz-confirm-text");
  reset.addEventListener("click", function () {
    var count = Object.keys(progress.answers).length;
    if (!count) { progress.current = null; save(); render(true); return; }
    confirmText.textContent = "Wipe all " + count + " answers saved in this browser? This cannot be undone.";
    confirmBox.hidden = false;
    reset.hidden = true;
    document.getElementById("quiz-reset-no").focus();
  });
  document.getElementById("quiz-reset-no").addEventListener("click", function () {
    confirmBox.hidden = true;
    reset.hidden = false;
    reset.focus();
  });
  document.getElementById("quiz-reset-yes").addEventListener("click", function () {
    progress = { answers: {}, topic: progress.topic, current: null };
    session = { shown: {}, refs: [] };
    save();
    confirmBox.hidden = true;
    reset.hidden = false;
    render(true);
  });

  box.hidden = false;
  render(false);
  // The first topic files to load are the one chosen (if any), then the rest.
  var order = data.topics.slice().sort(function (a, b) { return (b.topic === progress.topic) - (a.topic === progress.topic); });
  setTimeout(function () { loadTopics(order); }, 0);
})();
