/* The quiz: practice scheduled by FSRS (static/schedule.js, as `floor quiz --name` schedules) and the
   certification-style exam (the papers of `floor quiz --exam --seed N`, with a countdown).

   Progress stays in this browser (localStorage "floorcall:quiz"), saved at every answer:
   {version: 2, cards: {item id: card}, log: [[id, time, rating, right]], topic, newPerDay, extra,
    last (the answer on screen, so its rating can still change), recent, current, mode,
    exam (the paper being taken), exams (results)}.
   A version-1 store ({answers: {id: choice}}) is carried forward: each answer becomes one review.

   The questions come in two files (sitegen.quiz_files): static/quiz-data.js, small, with a few items
   of every topic, so the first question shows at once; and the rest with the exam papers, loaded
   behind it and joined on (its tables carry on the first file's numbering). Until the rest is here,
   a browser whose saved progress names questions not yet loaded (or an exam) waits for it. The
   scheduler (ts-fsrs) loads behind the first question too. */
(function () {
  "use strict";
  var data = window.FLOOR_QUIZ, box = document.getElementById("quiz"), card = document.getElementById("quiz-item");
  if (!data || !box || !card || !window.FloorSchedule) return;
  var S = window.FloorSchedule;
  var STARTER = data.items.length, complete = !data.rest, started = false;
  // ts-fsrs (static/fsrs.js) is wanted only once an answer is to be scheduled: it loads behind the
  // first question with the rest, and an answer given before it is here waits for it.
  var scheduled = !!window.FSRS, afterScheduler = [];
  function ready() { return complete && scheduled; }
  var VERSION = 2, DEFAULT_NEW = 20, MORE_NEW = 10, RECENT = 10, LOG_LIMIT = 20000, HOUR = 3600 * 1000;
  var KIND_NAMES = {
    "scenario": "what is the ruling", "house": "house rules vs TDA 2024", "rule": "which rule says this",
    "addendum": "Illustration Addendum", "arithmetic": "the arithmetic", "true-false": "true or false",
    "select-all": "select all that apply", "which-part": "which rule part decides"
  };
  // Texts arrive as numbers into one shared table, citations as rule ids (sitegen.quiz_payload).
  var text = function (k) { return data.texts[k]; };
  function unpack(row, n) {
    var item = {}, copy = {};
    data.fields.forEach(function (field, i) { item[field] = row[i]; });
    Object.keys(item).forEach(function (key) { copy[key] = item[key]; });
    copy.choices = item.choices.map(text);
    copy.prompt = item.prompt.map(text).join("\n");
    copy.explanation = item.explanation.map(text).join(" ");
    copy.walk = text(item.walk);
    copy.link = text(item.link);
    copy.cites = item.cites.map(function (id) { return data.rules[id] || [id, ""]; });
    copy.answers = item.answers && item.answers.length ? item.answers : [item.answer];
    copy.n = n;
    return copy;
  }
  var items = data.items.map(unpack);
  var byId = {};
  items.forEach(function (item) { byId[item.id] = item; });

  // The rest of the questions and the exam papers: appended to the first file's tables.
  function join(rest) {
    var from = data.items.length;
    data.texts = data.texts.concat(rest.texts);
    Object.keys(rest.rules).forEach(function (id) { data.rules[id] = rest.rules[id]; });
    data.items = data.items.concat(rest.items);
    data.exam.papers = rest.papers;
    delete data.rest;
    rest.items.forEach(function (row, i) {
      var item = unpack(row, from + i);
      items.push(item);
      byId[item.id] = item;
    });
    complete = true;
    ordered = null;
  }
  var exam = data.exam || { count: 40, minutes: 100, pass: 90, papers: [] };
  var root = document.body.getAttribute("data-root") || "";
  var topicSelect = document.getElementById("quiz-topic"), newInput = document.getElementById("quiz-new");
  var scoreLine = document.getElementById("quiz-score"), clock = document.getElementById("exam-clock");
  var practiceButton = document.getElementById("mode-practice"), examButton = document.getElementById("mode-exam");
  var resetButton = document.getElementById("quiz-reset");
  var progress = null, ticking = null, pendingChoice = [], handInArmed = false, focusOn = null;

  // ------------------------------------------------------------ storage

  function blank() {
    return { version: VERSION, cards: {}, log: [], topic: "", newPerDay: DEFAULT_NEW, extra: null, last: null,
             recent: [], current: null, mode: "practice", exam: null, exams: [], seed: Math.floor(Math.random() * 4294967296) };
  }

  function load() {
    var stored = FloorStore.load("quiz", null);
    if (!stored || typeof stored !== "object") return blank();
    if (stored.version === VERSION && stored.cards && typeof stored.cards === "object") {
      var fresh = blank();
      Object.keys(fresh).forEach(function (key) { if (!(key in stored)) stored[key] = fresh[key]; });
      return stored;
    }
    return migrate(stored);
  }

  function migrate(old) {
    // Each old answer becomes one review, dated a day back so it does not use up today's new items.
    var moved = blank(), when = new Date(Date.now() - 24 * HOUR);
    moved.topic = typeof old.topic === "string" ? old.topic : "";
    if (old.answers && typeof old.answers === "object") {
      Object.keys(old.answers).forEach(function (id) {
        var item = byId[id];
        if (!item) return;
        var right = old.answers[id] === item.answer, rating = S.ratingFor(right);
        moved.cards[id] = S.review(null, rating, when);
        moved.log.push([id, when.toISOString(), rating, right ? 1 : 0]);
      });
      moved.v1 = old.answers;  // the old answers themselves, kept as they were
    }
    FloorStore.save("quiz", moved);
    return moved;
  }

  // Saved progress that names a question not loaded yet, an old store to carry forward or an exam
  // in hand: wait for the rest of the questions and the scheduler rather than lose any of it.
  function mustWait() {
    if (ready()) return false;
    var stored = FloorStore.load("quiz", null);
    if (!stored || typeof stored !== "object") return false;
    if (stored.version !== VERSION) return !!(stored.answers && Object.keys(stored.answers).length);
    var named = Object.keys(stored.cards || {}).concat([stored.current, stored.last && stored.last.id]);
    return stored.mode === "exam" || named.some(function (id) { return id && !byId[id]; });
  }

  function save() {
    if (progress.log.length > LOG_LIMIT) progress.log = progress.log.slice(-LOG_LIMIT);
    FloorStore.save("quiz", progress);
  }

  // ------------------------------------------------------------ small helpers

  var el = FloorDom.el;

  function button(text, className, onClick) {
    var node = el("button", className || "button", text);
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  function sameSet(a, b) {
    var x = a.slice().sort(), y = b.slice().sort();
    return x.length === y.length && x.every(function (v, i) { return v === y[i]; });
  }

  function countdown(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  function random(seed) {  // mulberry32: a small seeded generator, so this browser's order of new items is stable
    return function () {
      seed = (seed + 0x6D2B79F5) | 0;
      var t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function inTopic(item) { return !progress.topic || item.topic === progress.topic; }

  function today() { return S.dayStart(new Date()).toISOString(); }

  function introducedToday() {
    var start = S.dayStart(new Date()).getTime();
    return Object.keys(progress.cards).filter(function (id) {
      var c = progress.cards[id];
      return c.introduced && new Date(c.introduced).getTime() >= start;
    }).length;
  }

  function newAllowance() {
    var extra = progress.extra && progress.extra.day === today() ? progress.extra.count : 0;
    return Math.max(0, (progress.newPerDay || 0) + extra - introducedToday());
  }

  function citeList(item) {
    var list = el("ul", "cites");
    item.cites.forEach(function (cite) {
      var li = el("li");
      if (cite[1]) { var a = el("a", "", cite[0]); a.href = root + cite[1]; li.appendChild(a); } else { li.textContent = cite[0]; }
      list.appendChild(li);
    });
    return list;
  }

  function walkLine(item) {
    var p = el("p", "walk");
    if (item.link) {
      var a = el("a", "", "Walk it on the site");
      a.href = root + item.link;
      p.appendChild(a);
    }
    if (item.walk) {
      p.appendChild(document.createTextNode(item.link ? " · in the terminal: " : "In the terminal: "));
      p.appendChild(el("code", "", item.walk.split("\n")[0]));
    }
    return p;
  }

  // ------------------------------------------------------------ practice: what comes next

  function recentDraws() {
    var seen = {};
    progress.recent.forEach(function (id) { (byId[id] ? byId[id].draws : []).forEach(function (d) { seen[d] = true; }); });
    return seen;
  }

  function fresh(item, busy) { return !item.draws.some(function (d) { return busy[d]; }); }

  function key(name) {  // a number of this browser's own for a name: the same whatever else is loaded
    var h = 2166136261;
    for (var i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
    return random((progress.seed ^ h) >>> 0)();
  }

  function newOrder() {
    // Topics in turn, in an order of this browser's own (as the terminal spreads new items by topic);
    // in each topic the first file's items first. Keys, not a shuffle, so that the order of what is
    // loaded stays the same when the rest of the questions arrive.
    var groups = {}, names = [], keys = {};
    items.forEach(function (item) {
      keys[item.id] = (item.n < STARTER ? 0 : 1) + key(item.id);
      if (!groups[item.topic]) { groups[item.topic] = []; names.push(item.topic); }
      groups[item.topic].push(item);
    });
    names.sort(function (a, b) { return key("topic:" + a) - key("topic:" + b); });
    names.forEach(function (name) { groups[name].sort(function (a, b) { return keys[a.id] - keys[b.id]; }); });
    var order = [];
    for (var more = true; more;) {
      more = false;
      names.forEach(function (name) { if (groups[name].length) { order.push(groups[name].shift()); more = true; } });
    }
    return order;
  }
  var ordered = null;

  function nextItem() {
    var now = new Date(), busy = recentDraws();
    var due = items.filter(function (item) {
      var c = progress.cards[item.id];
      return inTopic(item) && c && S.isDue(c, now);
    }).sort(function (a, b) { return new Date(progress.cards[a.id].due) - new Date(progress.cards[b.id].due); });
    var pick = due.filter(function (item) { return fresh(item, busy); })[0] || due[0];
    if (pick) return pick;
    if (newAllowance() <= 0) return null;
    ordered = ordered || newOrder();
    var unseen = ordered.filter(function (item) { return inTopic(item) && !progress.cards[item.id]; });
    return unseen.filter(function (item) { return fresh(item, busy); })[0] || unseen[0] || null;
  }

  function nextDue() {
    var soonest = null;
    items.forEach(function (item) {
      var c = progress.cards[item.id];
      if (c && inTopic(item) && (!soonest || new Date(c.due) < new Date(soonest.due))) soonest = c;
    });
    return soonest;
  }

  // ------------------------------------------------------------ practice: answering and rating

  function answer(item, chosen) {
    if (!scheduled) { afterScheduler.push(function () { answer(item, chosen); }); return; }
    var now = new Date(), right = sameSet(chosen, item.answers), before = progress.cards[item.id] || null;
    var rating = S.ratingFor(right);
    progress.cards[item.id] = S.review(before, rating, now);
    progress.log.push([item.id, now.toISOString(), rating, right ? 1 : 0]);
    progress.last = { id: item.id, before: before, at: now.toISOString(), chosen: chosen, right: right, rating: rating };
    progress.recent = progress.recent.concat([item.id]).slice(-RECENT);
    progress.current = null;
    save();
    focusOn = ".feedback .verdict";
    render();
  }

  function rate(rating) {
    var last = progress.last;
    if (!last || !last.right) return;
    if (!scheduled) { afterScheduler.push(function () { rate(rating); }); return; }
    progress.cards[last.id] = S.review(last.before, rating, new Date(last.at));
    last.rating = rating;
    var entry = progress.log[progress.log.length - 1];
    if (entry && entry[0] === last.id) entry[2] = rating;
    save();
    focusOn = '.rate[data-rating="' + rating + '"]';
    render();
  }

  function showScore() {
    var now = new Date(), pool = items.filter(inTopic), seen = 0, due = 0;
    pool.forEach(function (item) {
      var c = progress.cards[item.id];
      if (c) { seen++; if (S.isDue(c, now)) due++; }
    });
    var right = progress.log.filter(function (e) { return e[3]; }).length;
    scoreLine.textContent = "Due now: " + due + " · new left today: " + newAllowance() + " · seen " + seen + "/" + pool.length +
      (progress.log.length ? " · right " + Math.round(100 * right / progress.log.length) + "%" : "");
  }

  function choiceList(item, onPick, picked, reveal) {
    var list = el("ol", "choices" + (item.kind === "select-all" ? " several" : ""));
    item.choices.forEach(function (text, index) {
      var li = el("li"), choice = el("button", "choice");
      choice.type = "button";
      choice.appendChild(el("span", "choice-text", text));
      choice.setAttribute("data-index", String(index));
      if (item.kind === "select-all") choice.setAttribute("aria-pressed", picked.indexOf(index) >= 0 ? "true" : "false");
      if (reveal) {
        choice.disabled = true;
        // Marked in words as well as colour.
        if (item.answers.indexOf(index) >= 0) {
          choice.classList.add("correct");
          choice.appendChild(el("span", "choice-mark", picked.indexOf(index) >= 0 ? "✓ Right answer, yours" : "✓ Right answer"));
        }
        if (picked.indexOf(index) >= 0 && item.answers.indexOf(index) < 0) {
          choice.classList.add("chosen-wrong");
          choice.appendChild(el("span", "choice-mark", "✗ Your answer"));
        }
      } else {
        choice.addEventListener("click", function () { onPick(index, choice); });
      }
      li.appendChild(choice);
      list.appendChild(li);
    });
    return list;
  }

  function questionHead(item, number) {
    var head = el("p", "topic", (number ? number + " · " : "") + item.topic + " · " + (KIND_NAMES[item.kind] || item.kind));
    return head;
  }

  function prompt(item) {
    var p = el("p", "prompt", item.prompt);
    p.tabIndex = -1;  // focus comes here with each new question
    return p;
  }

  function waitingLine(text) {
    card.appendChild(el("p", "hint loading", text));
  }

  function renderPractice() {
    showScore();
    card.textContent = "";
    card.removeAttribute("data-item");
    var last = progress.last;
    if (last && byId[last.id]) return renderFeedback(byId[last.id], last);
    var item = progress.current && byId[progress.current] && inTopic(byId[progress.current]) ? byId[progress.current] : nextItem();
    if (!item && !complete) { waitingLine("Loading more questions…"); return; }
    if (!item) {
      var soon = nextDue(), done = el("div", "done");
      done.appendChild(el("p", "", "Nothing is due now" + (progress.topic ? " on " + progress.topic : "") +
        ", and today's new questions are done." + (soon ? " The next review falls due " + S.wait(soon, new Date()) + "." : "")));
      done.appendChild(button("Learn " + MORE_NEW + " more today", "button more-new", function () {
        var extra = progress.extra && progress.extra.day === today() ? progress.extra.count : 0;
        progress.extra = { day: today(), count: extra + MORE_NEW };
        save();
        render();
      }));
      card.appendChild(done);
      return;
    }
    if (progress.current !== item.id) { progress.current = item.id; save(); }
    pendingChoice = [];
    card.setAttribute("data-item", item.id);
    card.appendChild(questionHead(item));
    card.appendChild(prompt(item));
    if (item.kind === "select-all") {
      var check = button("Check my answer", "button check", function () { if (pendingChoice.length) answer(item, pendingChoice.slice()); });
      card.appendChild(choiceList(item, function (index, node) {
        var at = pendingChoice.indexOf(index);
        if (at >= 0) pendingChoice.splice(at, 1); else pendingChoice.push(index);
        node.setAttribute("aria-pressed", at >= 0 ? "false" : "true");
      }, [], false));
      card.appendChild(check);
    } else {
      card.appendChild(choiceList(item, function (index) { answer(item, [index]); }, [], false));
    }
  }

  function renderFeedback(item, last) {
    card.setAttribute("data-item", item.id);
    card.appendChild(questionHead(item));
    card.appendChild(el("p", "prompt", item.prompt));
    card.appendChild(choiceList(item, null, last.chosen, true));
    var box = el("div", "feedback " + (last.right ? "right" : "wrong"));
    box.setAttribute("role", "status");
    var answers = item.answers.map(function (i) { return "“" + item.choices[i] + "”"; }).join(" and ");
    var verdict = el("p", "verdict", last.right ? "✓ Right." : "✗ Not quite: the answer is " + answers);
    verdict.tabIndex = -1;  // focus comes here after an answer
    box.appendChild(verdict);
    // Next straight under the verdict: on a phone it is on screen without scrolling past the cites.
    box.appendChild(button("Next question →", "button next", function () { progress.last = null; save(); focusOn = ".prompt"; render(); }));
    if (item.explanation) box.appendChild(el("p", "why", item.explanation));
    if (item.cites.length) box.appendChild(citeList(item));
    if (item.walk || item.link) box.appendChild(walkLine(item));
    var c = progress.cards[item.id];
    if (c) box.appendChild(el("p", "due", "Comes back " + S.wait(c, new Date()) + "."));
    if (last.right) {
      var rates = el("p", "rates");
      rates.appendChild(document.createTextNode("How was it? "));
      [[S.AGAIN, "a guess"], [S.HARD, "hard"], [S.GOOD, "good"], [S.EASY, "easy"]].forEach(function (pair) {
        var b = button(pair[1], "rate", function () { rate(pair[0]); });
        b.setAttribute("data-rating", String(pair[0]));
        b.setAttribute("aria-pressed", last.rating === pair[0] ? "true" : "false");
        rates.appendChild(b);
      });
      box.appendChild(rates);
    }
    if (item.words) {  // the governing rule's words from the director's own imported copy (floor import)
      box.appendChild(el("p", "quote-label", "The rulebook's words, from " + item.words[1] + ":"));
      var quote = el("blockquote", "rule-text full-text");
      item.words[0].split("\n\n").forEach(function (paragraph) { quote.appendChild(el("p", "", paragraph)); });
      box.appendChild(quote);
    }
    card.appendChild(box);
  }

  // ------------------------------------------------------------ the exam

  function paperOf(run) {
    return exam.papers.filter(function (p) { return p.seed === run.seed; })[0] || null;
  }

  function secondsLeft(run) {
    return (new Date(run.started).getTime() + run.minutes * 60 * 1000 - Date.now()) / 1000;
  }

  function startExam() {
    if (!ready()) return;
    var taken = progress.exams.map(function (e) { return e.seed; });
    var untaken = exam.papers.filter(function (p) { return taken.indexOf(p.seed) < 0; });
    var pool = untaken.length ? untaken : exam.papers;
    if (!pool.length) return;
    var paper = pool[untaken.length ? 0 : Math.floor(Math.random() * pool.length)];
    progress.exam = { seed: paper.seed, started: new Date().toISOString(), minutes: exam.minutes, pass: exam.pass,
                      answers: {}, position: 0, finished: false };
    save();
    focusOn = ".prompt";
    render();
  }

  function examItem(paper, position) {
    var row = paper.items[position], item = byId[items[row[0]].id], order = row[1];
    var shown = {};
    Object.keys(item).forEach(function (key) { shown[key] = item[key]; });
    shown.choices = order.map(function (i) { return item.choices[i]; });
    shown.answers = item.answers.map(function (i) { return order.indexOf(i); });
    shown.order = order;
    return shown;
  }

  function commit(run, paper, item, picked) {
    var original = picked.map(function (i) { return item.order[i]; });
    run.answers[run.position] = original;
    var now = new Date(), right = sameSet(original, byId[item.id].answers), before = progress.cards[item.id] || null;
    var rating = S.ratingFor(right);
    progress.cards[item.id] = S.review(before, rating, now);  // an exam answer is a review too, as in the terminal
    progress.log.push([item.id, now.toISOString(), rating, right ? 1 : 0]);
    run.position += 1;
    if (run.position >= paper.items.length) finishExam(run, paper, "done");
    save();
    focusOn = run.finished ? ".exam-score" : ".prompt";
    render();
  }

  function grade(run, paper) {
    var results = paper.items.map(function (row, position) {
      var item = byId[items[row[0]].id], chosen = run.answers[position] || null;
      return { item: item, chosen: chosen, right: !!chosen && sameSet(chosen, item.answers), position: position };
    });
    var score = results.filter(function (r) { return r.right; }).length;
    return { results: results, score: score, total: results.length,
             passed: results.length > 0 && score * 100 >= run.pass * results.length };
  }

  function finishExam(run, paper, status) {
    if (run.finished) return;
    var graded = grade(run, paper);
    run.finished = true;
    run.status = status;
    run.ended = new Date().toISOString();
    progress.exams.push({ seed: run.seed, at: run.ended, score: graded.score, total: graded.total, passed: graded.passed, status: status });
  }

  function tick() {
    var run = progress.exam;
    if (!run || run.finished || progress.mode !== "exam") { clock.hidden = true; return; }
    var left = secondsLeft(run);
    clock.hidden = false;
    clock.textContent = countdown(left) + " left";
    clock.classList.toggle("low", left <= 600);
    if (left <= 0) {
      finishExam(run, paperOf(run), "timed-out");
      save();
      render();
    }
  }

  function renderExamIntro() {
    card.appendChild(el("h2", "", "The exam"));
    card.appendChild(el("p", "", exam.count + " questions across every topic, " + exam.minutes + " minutes, " + exam.pass +
      "% to pass. No feedback until you hand in; then your score, each topic and every question you missed, with the rule that decides it."));
    var start = button(ready() ? "Start the exam" : "Loading the exam papers…", "button start-exam", startExam);
    start.disabled = !ready();
    card.appendChild(start);
    if (progress.exams.length) {
      card.appendChild(el("h3", "", "Your exams"));
      var list = el("ul", "exam-history");
      progress.exams.slice(-5).forEach(function (e) {
        list.appendChild(el("li", "", e.at.slice(0, 16).replace("T", " ") + " — " + e.score + " of " + e.total + " — " + (e.passed ? "PASS" : "FAIL")));
      });
      card.appendChild(list);
    }
  }

  function renderExamQuestion(run, paper) {
    var item = examItem(paper, run.position), picked = [];
    card.setAttribute("data-item", item.id);
    card.appendChild(questionHead(item, "Question " + (run.position + 1) + " of " + paper.items.length));
    card.appendChild(prompt(item));
    var nextButton = button(run.position + 1 < paper.items.length ? "Next →" : "Hand in", "button next", function () {
      if (picked.length) commit(run, paper, item, picked.slice());
    });
    nextButton.disabled = true;
    card.appendChild(choiceList(item, function (index, node) {
      if (item.kind === "select-all") {
        var at = picked.indexOf(index);
        if (at >= 0) picked.splice(at, 1); else picked.push(index);
        node.setAttribute("aria-pressed", at >= 0 ? "false" : "true");
      } else {
        picked = [index];
        card.querySelectorAll(".choice").forEach(function (b) { b.setAttribute("aria-pressed", b === node ? "true" : "false"); });
      }
      nextButton.disabled = !picked.length;
    }, [], false));
    var controls = el("p", "exam-controls");
    controls.appendChild(nextButton);
    controls.appendChild(button(handInArmed ? "Click again to hand in now" : "Hand in now", "link-button hand-in", function () {
      if (!handInArmed) { handInArmed = true; render(); return; }
      handInArmed = false;
      finishExam(run, paper, "done");
      save();
      render();
    }));
    card.appendChild(controls);
    card.appendChild(el("p", "hint", "Saved after every answer: close the page and come back, the clock keeps running."));
  }

  function renderExamResult(run, paper) {
    var graded = grade(run, paper), topics = {};
    card.appendChild(el("h2", "", "Exam result"));
    var verdict = el("p", "exam-score " + (graded.passed ? "pass" : "fail"),
      "Exam score: " + graded.score + " of " + graded.total + " (" + Math.round(1000 * graded.score / graded.total) / 10 + "%) — " +
      (graded.passed ? "PASS" : "FAIL") + " (pass mark " + run.pass + "%)");
    verdict.tabIndex = -1;
    card.appendChild(verdict);
    var used = Math.min((new Date(run.ended).getTime() - new Date(run.started).getTime()) / 1000, run.minutes * 60);
    card.appendChild(el("p", "", "Time used: " + countdown(used) + " of " + countdown(run.minutes * 60) +
      (run.status === "timed-out" ? " (time ran out)" : "") + " · paper " + run.seed + " (floor quiz --exam --seed " + run.seed + ")"));
    graded.results.forEach(function (r) {
      var row = topics[r.item.topic] = topics[r.item.topic] || [0, 0];
      row[0] += r.right ? 1 : 0;
      row[1] += 1;
    });
    var table = el("table", "by-topic"), head = el("tr");
    ["Topic", "Right", "Of"].forEach(function (t) { head.appendChild(el("th", "", t)); });
    table.appendChild(head);
    Object.keys(topics).sort().forEach(function (t) {
      var tr = el("tr");
      tr.appendChild(el("td", "", t));
      tr.appendChild(el("td", "num", String(topics[t][0])));
      tr.appendChild(el("td", "num", String(topics[t][1])));
      table.appendChild(tr);
    });
    card.appendChild(table);
    var missed = graded.results.filter(function (r) { return !r.right; });
    card.appendChild(el("h3", "", "Missed (" + missed.length + ")"));
    missed.forEach(function (r) {
      var item = r.item, block = el("div", "missed");
      block.appendChild(el("p", "topic", "Question " + (r.position + 1) + " · " + item.topic + " · " + (KIND_NAMES[item.kind] || item.kind)));
      block.appendChild(el("p", "prompt", item.prompt));
      block.appendChild(el("p", "given", "Your answer: " + (r.chosen ? r.chosen.map(function (i) { return item.choices[i]; }).join(" + ") : "(no answer)")));
      block.appendChild(el("p", "ruling", "Answer: " + item.answers.map(function (i) { return item.choices[i]; }).join(" + ")));
      if (item.explanation) block.appendChild(el("p", "why", item.explanation));
      if (item.cites.length) block.appendChild(citeList(item));
      if (item.walk || item.link) block.appendChild(walkLine(item));
      card.appendChild(block);
    });
    var again = el("p", "exam-controls");
    again.appendChild(button("Take another exam", "button start-exam", function () { progress.exam = null; startExam(); }));
    again.appendChild(button("Back to practice", "link-button", function () { progress.exam = null; setMode("practice"); }));
    card.appendChild(again);
  }

  function renderExam() {
    card.textContent = "";
    card.removeAttribute("data-item");
    var run = progress.exam, paper = run ? paperOf(run) : null;
    if (run && !paper && !complete) { waitingLine("Loading the exam…"); return; }
    scoreLine.textContent = run && !run.finished ? "Exam · paper " + run.seed + " · " + run.position + " of " + (paper ? paper.items.length : "?") + " answered" : "";
    if (!run || !paper) { progress.exam = null; renderExamIntro(); tick(); return; }
    if (!run.finished && secondsLeft(run) <= 0) { finishExam(run, paper, "timed-out"); save(); }
    if (run.finished) renderExamResult(run, paper); else renderExamQuestion(run, paper);
    tick();
  }

  // ------------------------------------------------------------ the page

  function setMode(mode) {
    progress.mode = mode;
    save();
    render();
  }

  function render() {
    var inExam = progress.mode === "exam";
    practiceButton.setAttribute("aria-pressed", inExam ? "false" : "true");
    examButton.setAttribute("aria-pressed", inExam ? "true" : "false");
    document.querySelectorAll(".practice-only").forEach(function (node) { node.hidden = inExam; });
    if (inExam) renderExam(); else { clock.hidden = true; renderPractice(); }
    var target = focusOn && card.querySelector(focusOn);
    focusOn = null;
    if (target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "nearest" });
    }
  }

  // Start over asks first, saying what would go; the record of exams taken is kept.
  var confirmBox = document.getElementById("quiz-confirm"), confirmText = document.getElementById("quiz-confirm-text");

  function closeConfirm() {
    confirmBox.hidden = true;
    resetButton.hidden = false;
  }

  function wipe() {
    var exams = progress.exams;
    progress = blank();
    progress.exams = exams;
    ordered = null;
    save();
    closeConfirm();
    focusOn = ".prompt";
    render();
  }

  function start() {
    if (started) return;
    started = true;
    progress = load();
    topicSelect.value = progress.topic || "";
    topicSelect.addEventListener("change", function () {
      progress.topic = topicSelect.value;
      progress.current = null;
      save();
      render();
    });
    newInput.value = String(progress.newPerDay);
    newInput.addEventListener("change", function () {
      var value = parseInt(newInput.value, 10), before = progress.newPerDay;
      progress.newPerDay = isNaN(value) ? DEFAULT_NEW : Math.max(0, Math.min(500, value));
      newInput.value = String(progress.newPerDay);
      if (progress.newPerDay === before) return;  // a second change on blur: redrawing would swallow the tap that blurred it
      save();
      render();
    });
    practiceButton.addEventListener("click", function () { setMode("practice"); });
    examButton.addEventListener("click", function () { setMode("exam"); });
    resetButton.addEventListener("click", function () {
      var count = Object.keys(progress.cards).length;
      if (!count && !progress.exam) { wipe(); return; }
      confirmText.textContent = "Wipe your progress on " + count + (count === 1 ? " question" : " questions") +
        " saved in this browser? Your exam results are kept. This cannot be undone.";
      confirmBox.hidden = false;
      resetButton.hidden = true;
      document.getElementById("quiz-reset-no").focus();
    });
    document.getElementById("quiz-reset-no").addEventListener("click", function () { closeConfirm(); resetButton.focus(); });
    document.getElementById("quiz-reset-yes").addEventListener("click", wipe);
    render();
    ticking = window.setInterval(tick, 1000);
    window.addEventListener("pagehide", function () { window.clearInterval(ticking); });
  }

  // The scheduler and the rest of the questions, behind the first one: classic scripts, so they
  // load from file:// too. The scheduler is asked for first: it is small, and an answer waits for it.
  var waitForAll = false;

  function arrived() {
    if (!started) { if (!waitForAll || ready()) start(); return; }
    if (scheduled && afterScheduler.length) {
      var queue = afterScheduler;
      afterScheduler = [];
      queue.forEach(function (fn) { fn(); });
    }
    // Only what waited is redrawn: a question on screen keeps its place and the focus.
    if (card.querySelector(".loading")) return render();
    var startButton = card.querySelector(".start-exam[disabled]");
    if (startButton && ready()) { startButton.disabled = false; startButton.textContent = "Start the exam"; }
    if (progress.mode !== "exam") showScore();
  }

  function loadScript(src, landed, what) {
    var script = document.createElement("script");
    script.src = root + src;
    script.addEventListener("load", function () {
      if (!landed()) return script.dispatchEvent(new Event("error"));
      arrived();
    });
    script.addEventListener("error", function () {
      if (!started || afterScheduler.length) {
        card.textContent = "";
        waitingLine(what + " did not load: reload the page to try again.");
      }
    });
    document.head.appendChild(script);
  }

  box.hidden = false;
  waitForAll = mustWait();
  if (waitForAll) waitingLine("Loading your progress…"); else start();
  if (!scheduled) {
    loadScript(box.getAttribute("data-scheduler"), function () { scheduled = !!window.FSRS; return scheduled; }, "The scheduler");
  }
  if (!complete) {
    loadScript(data.rest, function () {
      if (!window.FLOOR_QUIZ_REST) return false;
      join(window.FLOOR_QUIZ_REST);
      return true;
    }, "The rest of the questions");
  }
})();
