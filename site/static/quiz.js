/* The quiz: one question at a time, feedback citing the rule, a running score.
   Progress stays in this browser (localStorage "floorcall:quiz"): {answers: {item id: choice}, topic}. */
(function () {
  "use strict";
  var data = window.FLOOR_QUIZ, box = document.getElementById("quiz"), card = document.getElementById("quiz-item");
  if (!data || !box || !card) return;
  // Choices arrive as numbers into one shared table of rulings (sitegen.quiz_payload).
  var items = data.items.map(function (item) {
    var copy = {};
    Object.keys(item).forEach(function (key) { copy[key] = item[key]; });
    copy.choices = item.choices.map(function (n) { return data.choices[n]; });
    return copy;
  });
  var root = document.body.getAttribute("data-root") || "";
  var topicSelect = document.getElementById("quiz-topic"), scoreLine = document.getElementById("quiz-score");
  var progress = FloorStore.load("quiz", null);
  if (!progress || typeof progress.answers !== "object" || progress.answers === null) progress = { answers: {}, topic: "" };
  var current = null;  // the id of the item on screen

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function save() { FloorStore.save("quiz", progress); }
  function pool() { return items.filter(function (item) { return !progress.topic || item.topic === progress.topic; }); }
  function answered(item) { return Object.prototype.hasOwnProperty.call(progress.answers, item.id); }

  function showScore() {
    var list = pool(), done = list.filter(answered);
    var right = done.filter(function (item) { return progress.answers[item.id] === item.answer; }).length;
    scoreLine.textContent = "Score: " + right + "/" + done.length + " · " + (list.length - done.length) + " to go";
  }

  function nextItem() {
    var list = pool();
    for (var i = 0; i < list.length; i++) if (!answered(list[i])) return list[i];
    return null;
  }

  function feedback(item) {
    var chosen = progress.answers[item.id], right = chosen === item.answer;
    var box = el("div", "feedback " + (right ? "right" : "wrong"));
    box.setAttribute("role", "status");
    box.appendChild(el("p", "verdict", right ? "Right." : "Not quite: the ruling is “" + item.choices[item.answer] + "”"));
    if (item.explanation) box.appendChild(el("p", "why", item.explanation));
    if (item.cites.length) {
      var list = el("ul", "cites");
      item.cites.forEach(function (cite) {
        var li = el("li");
        if (cite[1]) { var a = el("a", "", cite[0]); a.href = root + cite[1]; li.appendChild(a); } else { li.textContent = cite[0]; }
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    if (item.words) {  // the governing rule's words from the director's own imported copy (floor import)
      box.appendChild(el("p", "quote-label", "The rulebook's words, from " + item.words[1] + ":"));
      var quote = el("blockquote", "rule-text full-text");
      item.words[0].split("\n\n").forEach(function (paragraph) { quote.appendChild(el("p", "", paragraph)); });
      box.appendChild(quote);
    }
    var next = el("button", "button next", "Next question →");
    next.type = "button";
    next.addEventListener("click", function () { current = null; render(); });
    box.appendChild(next);
    return box;
  }

  function render() {
    showScore();
    card.textContent = "";
    var item = null;
    if (current) item = items.filter(function (x) { return x.id === current; })[0] || null;
    if (!item) item = nextItem();
    if (!item) {
      card.appendChild(el("p", "done", "You have answered every question" + (progress.topic ? " on " + progress.topic : "") + ". Start over to go again."));
      return;
    }
    current = item.id;
    card.setAttribute("data-item", item.id);
    card.appendChild(el("p", "topic", item.topic));
    card.appendChild(el("p", "prompt", item.prompt));
    var list = el("ol", "choices");
    item.choices.forEach(function (text, index) {
      var li = el("li"), button = el("button", "choice", text);
      button.type = "button";
      if (answered(item)) {
        button.disabled = true;
        if (index === item.answer) button.classList.add("correct");
        if (index === progress.answers[item.id] && index !== item.answer) button.classList.add("chosen-wrong");
      } else {
        button.addEventListener("click", function () {
          progress.answers[item.id] = index;
          save();
          render();
        });
      }
      li.appendChild(button);
      list.appendChild(li);
    });
    card.appendChild(list);
    if (answered(item)) card.appendChild(feedback(item));
  }

  topicSelect.value = progress.topic || "";
  topicSelect.addEventListener("change", function () {
    progress.topic = topicSelect.value;
    current = null;
    save();
    render();
  });
  document.getElementById("quiz-reset").addEventListener("click", function () {
    progress = { answers: {}, topic: progress.topic };
    current = null;
    save();
    render();
  });
  box.hidden = false;
  render();
})();
