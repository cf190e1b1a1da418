/* FSRS in the browser, scheduled exactly as `floor quiz` schedules with the Python package fsrs
   (engines/schedule.py): ts-fsrs (static/fsrs.js) with its default parameters, learning steps
   1 and 10 minutes, relearning 10 minutes, retention 0.9, no fuzz.

   One difference between the two packages is smoothed here: py-fsrs counts the days since the last
   review as whole 24-hour periods, ts-fsrs as calendar days in UTC. Handing ts-fsrs a last review
   moved to the same time of day, that many whole days back, makes the two counts equal; nothing
   else of the card is touched. tests/test_schedule.py runs this file in node beside the Python
   package and compares every due date.

   A card here is plain JSON: {state, step, stability, difficulty, due, last_review, seen, right,
   introduced}, times as ISO strings, the same fields as the terminal's database. */
var FloorSchedule = (function () {
  "use strict";
  var DAY = 24 * 60 * 60 * 1000;
  var AGAIN = 1, HARD = 2, GOOD = 3, EASY = 4;
  var DAY_STARTS_AT_HOUR = 4;  // a study day runs from 4 a.m. to 4 a.m., as in the terminal
  var HARD_FIRST_STEP_MINUTES = (1 + 10) / 2;  // the mean of the two learning steps
  var scheduler = null;

  function fsrs() {
    if (!scheduler) scheduler = FSRS.fsrs({ enable_fuzz: false });
    return scheduler;
  }

  function time(value) { return value ? new Date(value) : null; }

  function toPackage(card, now) {
    if (!card) return FSRS.createEmptyCard(now);
    var last = time(card.last_review);
    if (last) {
      var whole = Math.floor((now.getTime() - last.getTime()) / DAY);
      last = new Date(now.getTime() - Math.max(0, whole) * DAY);
    }
    return {
      due: time(card.due), stability: card.stability, difficulty: card.difficulty, elapsed_days: 0,
      scheduled_days: 0, reps: card.seen || 0, lapses: 0, learning_steps: card.step || 0,
      state: card.state, last_review: last
    };
  }

  function review(card, rating, now) {
    now = now || new Date();
    var next = fsrs().next(toPackage(card, now), now, rating).card;
    var due = next.due;
    var learningStepZero = !card || (card.state === 1 && !card.step);
    if (rating === HARD && learningStepZero && next.state === 1) {
      // Hard on the first learning step waits halfway between the steps, 5.5 minutes: ts-fsrs rounds
      // that to whole minutes, py-fsrs does not.
      due = new Date(now.getTime() + HARD_FIRST_STEP_MINUTES * 60 * 1000);
    }
    return {
      state: next.state, step: next.state === 2 ? null : next.learning_steps, stability: next.stability,
      difficulty: next.difficulty, due: due.toISOString(), last_review: now.toISOString(),
      seen: (card ? card.seen || 0 : 0) + 1, right: (card ? card.right || 0 : 0) + (rating === AGAIN ? 0 : 1),
      introduced: card && card.introduced ? card.introduced : now.toISOString()
    };
  }

  function ratingFor(correct, said) {
    if (!correct) return AGAIN;
    return said >= AGAIN && said <= EASY ? said : GOOD;
  }

  function retrievability(card, now) {
    if (!card || !card.last_review || card.stability === null || card.stability === undefined) return 0;
    var t = Math.max(0, Math.floor(((now || new Date()).getTime() - new Date(card.last_review).getTime()) / DAY));
    return FSRS.forgetting_curve(FSRS.default_w[20], t, card.stability);
  }

  function isDue(card, now) { return new Date(card.due).getTime() <= (now || new Date()).getTime(); }

  function dayStart(now) {
    var start = new Date(now.getTime());
    start.setHours(DAY_STARTS_AT_HOUR, 0, 0, 0);
    if (now.getTime() < start.getTime()) start.setDate(start.getDate() - 1);
    return start;
  }

  function wait(card, now) {
    var seconds = (new Date(card.due).getTime() - now.getTime()) / 1000;
    if (seconds <= 0) return "now";
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) return "in " + Math.max(minutes, 1) + " min";
    var hours = Math.round(seconds / 3600);
    if (hours < 36) return "in " + hours + " h";
    return "in " + Math.round(seconds / 86400) + " days";
  }

  return { AGAIN: AGAIN, HARD: HARD, GOOD: GOOD, EASY: EASY, review: review, ratingFor: ratingFor,
           retrievability: retrievability, isDue: isDue, dayStart: dayStart, wait: wait };
})();
