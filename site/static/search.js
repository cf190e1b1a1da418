/* Floorcall search: a port of floorcall.lookup.rank (Python) over the index sitegen emits.
 *
 * Classic script (no modules, no fetch) so it runs from file://; also loadable under node for the
 * parity test (tests/test_site.py), which checks that every posting value rebuilt here equals the
 * Python index and that both rankers put the same situation first for every dev case.
 * Every constant (stopwords, phrases, suffixes, weights, cutoffs) comes from the index: one source of truth.
 */
var FloorSearch = (function () {
  "use strict";

  var NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
  var ALNUM = /[\p{L}\p{N}]/u;
  var ASCII = /^[\x00-\x7f]*$/;

  function Ranker(data) {
    var c = data.constants;
    this.c = c;
    // Characters Python's unicodedata.combining() calls combining (emitted from Python: exact).
    this.combining = new RegExp("[" + data.combining + "]", "gu");
    this.stop = new Set(data.stop);
    this.phrases = new Map(Object.keys(data.phrases).map(function (k) { return [k, data.phrases[k]]; }));
    this.situations = data.situations;
    this.rules = data.rules;
    this.situationPostings = expand(data.situation_postings, data.situations.length, c, this.nameCounts(data.names));
    this.rulePostings = expand(data.rule_postings, data.rules.length, c, null);
    // Titles and aliases, processed once the way rapidfuzz.utils.default_process does.
    this.names = data.names.map(function (names) {
      return names.map(function (n) { return tokenSet(defaultProcess(n)); });
    });
  }

  /* Postings arrive packed (sitegen._pack_postings): per term, document gaps; for every posting, a
     code into tf_table (field-weighted tf x 10). A situation's title and aliases are counted here
     (`derived`, from the names the ranker has anyway) and added. BM25 is then recomputed exactly as
     lookup_index._postings does and rounded like Python's round(value, 4). */
  function unpackNumbers(text, alphabet) {
    var out = [], pending = 0;
    for (var i = 0; i < text.length; i++) {
      var value = alphabet.indexOf(text[i]);
      if (value >= 32) { pending = pending * 32 + value - 32; } else { out.push(pending * 32 + value); pending = 0; }
    }
    return out;
  }

  // Per term, [[doc, tf x 10], …] of the title and aliases fields (sitegen.name_counts).
  Ranker.prototype.nameCounts = function (names) {
    var self = this, fields = this.c.name_fields, byTerm = new Map();
    names.forEach(function (docNames, doc) {
      var counts = new Map();
      [[docNames[0] || "", fields.title], [docNames.slice(1).join(fields.joiner), fields.aliases]].forEach(function (field) {
        self.terms(field[0]).forEach(function (term) { counts.set(term, (counts.get(term) || 0) + field[1]); });
      });
      counts.forEach(function (tf10, term) {
        if (!byTerm.has(term)) byTerm.set(term, []);
        byTerm.get(term).push([doc, tf10]);
      });
    });
    return byTerm;
  };

  function expand(packed, nDocs, c, derived) {
    var terms = packed.terms ? packed.terms.split(" ") : [], gapLists = packed.docs.split(" ");  // no documents: no terms
    var tf10s = unpackNumbers(packed.tfs, c.pack_alphabet).map(function (code) { return packed.tf_table[code]; });
    var lengths = new Array(nDocs).fill(0), lists = [], next = 0;
    terms.forEach(function (term, t) {
      var merged = new Map(), doc = 0;
      ((derived && derived.get(term)) || []).forEach(function (pair) { merged.set(pair[0], pair[1]); });
      unpackNumbers(gapLists[t], c.pack_alphabet).forEach(function (gap) {
        doc += gap;
        merged.set(doc, (merged.get(doc) || 0) + tf10s[next++]);
      });
      var pairs = Array.from(merged.entries()).sort(function (x, y) { return x[0] - y[0]; });
      pairs.forEach(function (pair) { lengths[pair[0]] += pair[1]; });
      lists.push(pairs);
    });
    lengths = lengths.map(function (l) { return l / 10; });
    var average = nDocs ? lengths.reduce(function (a, b) { return a + b; }, 0) / nDocs : 1.0;
    var k1 = c.bm25_k1, b = c.bm25_b, map = new Map();
    terms.forEach(function (term, t) {
      var pairs = lists[t], frequency = pairs.length;
      var idf = Math.log(1 + (nDocs - frequency + 0.5) / (frequency + 0.5));
      map.set(term, pairs.map(function (pair) {
        var tf = pair[1] / 10;
        var norm = k1 * (1 - b + b * lengths[pair[0]] / average);
        return [pair[0], Number((idf * tf * (k1 + 1) / (tf + norm)).toFixed(4))];
      }));
    });
    return map;
  }

  /* ---- textnorm.py ---- */
  Ranker.prototype.fold = function (text) {
    text = String(text);
    // NFKD and dropping combining marks change nothing in plain ASCII: skip them for speed.
    if (!ASCII.test(text)) text = text.normalize("NFKD").replace(this.combining, "");
    return text.toLowerCase().replace(/\u2019/g, "'").replace(/&/g, " and ");
  };
  Ranker.prototype.words = function (text) {
    return this.fold(text).replace(/'/g, "").match(/[a-z0-9]+/g) || [];
  };
  Ranker.prototype.stem = function (word) {
    var c = this.c;
    if (/^[0-9]+$/.test(word)) return word;
    for (var i = 0; i < c.suffixes.length; i++) {
      var suffix = c.suffixes[i];
      if (word.endsWith(suffix) && word.length - suffix.length >= c.min_stem) {
        word = word.slice(0, word.length - suffix.length);
        var n = word.length;
        if ((suffix === "ing" || suffix === "ed") && n > c.min_stem && word[n - 1] === word[n - 2] && c.keep_double.indexOf(word[n - 1]) < 0) {
          word = word.slice(0, n - 1);
        }
        break;
      }
    }
    return word;
  };
  Ranker.prototype.terms = function (text) {
    var self = this, stems = this.words(text).map(function (w) { return self.stem(w); }), out = [];
    var i = 0;
    while (i < stems.length) {
      // The keys of every phrase length starting here, then the longest that is a phrase wins.
      var keys = [stems[i]], matched = false;
      for (var n = 1; n < Math.min(this.c.max_phrase, stems.length - i); n++) keys.push(keys[n - 1] + " " + stems[i + n]);
      for (var size = keys.length; size > 0; size--) {
        if (this.phrases.has(keys[size - 1])) { out.push.apply(out, this.phrases.get(keys[size - 1])); i += size; matched = true; break; }
      }
      if (!matched) { out.push(stems[i]); i += 1; }
    }
    return out.filter(function (t) { return !self.stop.has(t); });
  };

  /* ---- lookup.py ---- */
  Ranker.prototype.cleanQuery = function (query) {
    var chars = Array.from(String(query)).map(function (ch) { return ch !== " " && NON_PRINTABLE.test(ch) ? " " : ch; });
    var folded = chars.join("").split(" ").filter(Boolean).join(" ");
    return Array.from(folded).slice(0, this.c.max_query_chars).join("");
  };

  Ranker.prototype.queryTerms = function (query) {
    var c = this.c, weights = new Map(), unknown = [], expansions = {};
    var list = this.terms(query).slice(0, c.max_query_terms);
    for (var i = 0; i < list.length; i++) {
      var term = list[i];
      if (this.situationPostings.has(term) || this.rulePostings.has(term)) {
        weights.set(term, Math.max(weights.get(term) || 0, 1.0));
        continue;
      }
      var fixed = term.length >= c.typo_min_length && !/^[0-9]+$/.test(term) ? this.closestTerm(term) : null;
      if (fixed) {
        expansions[term] = fixed;
        weights.set(fixed, Math.max(weights.get(fixed) || 0, c.typo_weight));
      } else {
        unknown.push(term);
      }
    }
    return { weights: weights, unknown: unknown, expansions: expansions };
  };

  /* lookup._closest_term: the known term within one edit (two for long words), counting a swap of
     neighbours as one edit (OSA distance); ties go to the same first letter, the same length, the
     commoner term, then alphabetical order. */
  Ranker.prototype.closestTerm = function (term) {
    var c = this.c, a = Array.from(term), gap = c.typo_max_length_gap;
    var limit = a.length >= c.typo_long_word ? c.typo_max_edits_long : c.typo_max_edits;
    var best = null, bestKey = null;
    this.situationPostings.forEach(function (postings, choice) {
      var b = Array.from(choice);
      if (Math.abs(a.length - b.length) > gap) return;
      var edits = osa(a, b);
      if (edits > limit) return;
      var key = [edits, b[0] !== a[0] ? 1 : 0, b.length !== a.length ? 1 : 0, -postings.length, choice];
      if (bestKey === null || compareKeys(key, bestKey) < 0) { best = choice; bestKey = key; }
    });
    return best;
  };

  function compareKeys(x, y) {
    for (var i = 0; i < x.length; i++) {
      if (x[i] < y[i]) return -1;
      if (x[i] > y[i]) return 1;
    }
    return 0;
  }

  // Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
  function osa(a, b) {
    var rows = [];
    for (var i = 0; i <= a.length; i++) {
      rows.push(new Array(b.length + 1).fill(0));
      rows[i][0] = i;
    }
    for (var j = 0; j <= b.length; j++) rows[0][j] = j;
    for (i = 1; i <= a.length; i++) {
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
        rows[i][j] = d;
      }
    }
    return rows[a.length][b.length];
  }

  function bm25(postings, weights, size) {
    var scores = new Array(size).fill(0);
    weights.forEach(function (weight, term) {
      var list = postings.get(term) || [];
      for (var i = 0; i < list.length; i++) scores[list[i][0]] += weight * list[i][1];
    });
    return scores;
  }

  Ranker.prototype.rank = function (query, limit, ruleLimit) {
    var c = this.c, text = this.cleanQuery(query);
    limit = limit || 5;
    ruleLimit = ruleLimit === undefined ? 3 : ruleLimit;
    var q = this.queryTerms(text);
    var scores = bm25(this.situationPostings, q.weights, this.situations.length);
    var best = scores.reduce(function (m, s) { return Math.max(m, s); }, 0.0);
    if (text) {
      var processed = tokenSet(defaultProcess(text));
      for (var doc = 0; doc < this.names.length; doc++) {
        // Only a similarity that can count is computed in full (an upper bound screens the rest).
        var floor = scores[doc] > 0 ? c.fuzz_floor : 90, similarity = 0;
        this.names[doc].forEach(function (name) {
          similarity = Math.max(similarity, tokenSetRatio(processed, name, Math.max(floor, similarity)));
        });
        if (similarity >= c.fuzz_floor && (scores[doc] > 0 || similarity >= 90)) {
          scores[doc] += c.fuzz_weight * Math.max(best, 1.0) * similarity / 100;
        }
      }
    }
    var ruleScores = bm25(this.rulePostings, q.weights, this.rules.length);
    return {
      query: text,
      situations: top(this.situations, scores, limit, c.relative_cutoff),
      rules: top(this.rules, ruleScores, ruleLimit, c.relative_cutoff),
      unknown: q.unknown,
      expansions: q.expansions,
    };
  };

  function top(ids, scores, limit, relativeCutoff) {
    var best = scores.reduce(function (m, s) { return Math.max(m, s); }, 0.0);
    if (best <= 0) return [];
    var order = ids.map(function (_id, d) { return d; });
    order.sort(function (x, y) { return scores[y] - scores[x] || (ids[x] < ids[y] ? -1 : ids[x] > ids[y] ? 1 : 0); });
    return order.slice(0, limit).filter(function (d) { return scores[d] >= relativeCutoff * best; })
      .map(function (d) { return { id: ids[d], index: d, score: scores[d] }; });
  }

  /* ---- rapidfuzz (C++ build) ---- */
  // utils.default_process: letters and numbers kept (lowercased), everything else a space, trimmed.
  function defaultProcess(text) {
    text = String(text);
    if (ASCII.test(text)) return text.replace(/[^A-Za-z0-9]/g, " ").toLowerCase().replace(/^ +| +$/g, "");
    return Array.from(text).map(function (ch) {
      return ALNUM.test(ch) ? Array.from(ch.toLowerCase())[0] : " ";
    }).join("").replace(/^ +| +$/g, "");
  }

  function tokenSet(processed) {
    var tokens = Array.from(new Set(processed.split(/\s+/).filter(Boolean)));
    return { tokens: tokens, set: new Set(tokens) };
  }

  function joinedLength(tokens) {
    var n = tokens.length ? tokens.length - 1 : 0;
    tokens.forEach(function (t) { n += Array.from(t).length; });
    return n;
  }

  function byCodePoint(x, y) {
    var a = Array.from(x), b = Array.from(y);
    for (var i = 0; i < Math.min(a.length, b.length); i++) {
      var d = a[i].codePointAt(0) - b[i].codePointAt(0);
      if (d) return d;
    }
    return a.length - b.length;
  }

  function normDistance(dist, lensum) { return lensum ? 100 - 100 * dist / lensum : 100; }

  /* fuzz.token_set_ratio on processed strings. `atLeast` only lets it skip an LCS whose best
     possible score is below that value (it then returns the best of the cheap parts). */
  function tokenSetRatio(a, b, atLeast) {
    if (!a.tokens.length || !b.tokens.length) return 0;
    var intersect = a.tokens.filter(function (t) { return b.set.has(t); });
    var diffAB = a.tokens.filter(function (t) { return !b.set.has(t); }).sort(byCodePoint);
    var diffBA = b.tokens.filter(function (t) { return !a.set.has(t); }).sort(byCodePoint);
    if (intersect.length && (!diffAB.length || !diffBA.length)) return 100;
    var abJoined = Array.from(diffAB.join(" ")), baJoined = Array.from(diffBA.join(" "));
    var abLen = abJoined.length, baLen = baJoined.length, sectLen = joinedLength(intersect);
    var sep = sectLen !== 0 ? 1 : 0;
    var sectAbLen = sectLen + sep + abLen, sectBaLen = sectLen + sep + baLen;
    var cheap = 0;
    if (sectLen) {
      cheap = Math.max(normDistance(sep + abLen, sectLen + sectAbLen), normDistance(sep + baLen, sectLen + sectBaLen));
    }
    var lensum = sectAbLen + sectBaLen;
    var bound = normDistance(Math.abs(abLen - baLen), lensum);  // the LCS can only make it smaller
    if (bound < atLeast && cheap < atLeast) return Math.max(cheap, 0);
    var dist = abLen + baLen - 2 * lcs(abJoined, baJoined);
    return Math.max(normDistance(dist, lensum), cheap);
  }

  // Longest common subsequence length of two arrays of characters (Indel distance = sum - 2 * LCS).
  function lcs(a, b) {
    if (!a.length || !b.length) return 0;
    var prev = new Int32Array(b.length + 1), cur = new Int32Array(b.length + 1);
    for (var i = 1; i <= a.length; i++) {
      var ai = a[i - 1];
      for (var j = 1; j <= b.length; j++) {
        cur[j] = ai === b[j - 1] ? prev[j - 1] + 1 : (prev[j] > cur[j - 1] ? prev[j] : cur[j - 1]);
      }
      var swap = prev; prev = cur; cur = swap;
    }
    return prev[b.length];
  }

  return {
    Ranker: Ranker,
    load: function (data) { return new Ranker(data); },
    defaultProcess: defaultProcess,
    tokenSetRatio: function (s1, s2) { return tokenSetRatio(tokenSet(s1), tokenSet(s2), 0); },
  };
})();

if (typeof module === "object" && module.exports) module.exports = FloorSearch;
