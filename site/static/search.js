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
    this.ruleIds = new Set(data.rules);
    this.outOfScope = data.out_of_scope || [];
    this.citing = unpackCiting(data.citing || {}, data.rules, c.pack_alphabet);
    this.sourceAliases = c.source_aliases || {};
    this.situationPostings = expand(data.situation_postings, data.situations.length, c, this.nameCounts(data.names));
    this.rulePostings = expand(data.rule_postings, data.rules.length, c, null);
    // Titles and aliases, processed once the way rapidfuzz.utils.default_process does.
    this.namesText = [].concat.apply([], data.names);
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

  // rule index -> the situations citing it, first-cited first (index._citing), as packed numbers.
  function unpackCiting(packed, rules, alphabet) {
    var out = new Map();
    Object.keys(packed).forEach(function (rule) { out.set(rules[Number(rule)], unpackNumbers(packed[rule], alphabet)); });
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
    var reference = this.ruleReference(text);
    if (reference !== null) return this.referenceResult(text, reference, limit);
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
    var situations = top(this.situations, scores, limit, c.relative_cutoff);
    var whyWeak = this.weakness(text, q.weights, q.unknown, situations);
    return {
      query: text,
      situations: situations,
      rules: top(this.rules, ruleScores, ruleLimit, c.relative_cutoff),
      unknown: q.unknown,
      expansions: q.expansions,
      confident: !whyWeak,
      whyWeak: whyWeak,
      outOfScope: this.outOfScopeMarker(text) !== null,
      reference: null,
    };
  };

  /* ---- rulebook.rule_reference: '44', 'tda 53', '53-B', 'rule 35e', 'rp 10 h', '2019 rp-5' ---- */
  // Python's re is Unicode-aware: \d is any decimal digit (int() reads them all) and \b sees
  // letters of every script. Unicode encodes each set of decimal digits as a run 0..9, so a
  // digit's value is its distance from the start of its run, modulo 10.
  var DIGIT = /\p{Nd}/u;
  function digitValue(ch) {
    var cp = ch.codePointAt(0), start = cp;
    while (start > 0 && DIGIT.test(String.fromCodePoint(start - 1))) start--;
    return (cp - start) % 10;
  }
  var REFERENCE_PREFIX = /^(tda[ -]?2024|tda[ -]?2019|rp[ -]?2019|2019|2024|tda|dttf|wpa)(?![\p{L}\p{N}_])[\s:]*/u;
  var NUMBER_FORM = /^(?:rule\s*)?(rp)?\s*-?\s*(\p{Nd}{1,4})\s*-?\s*([a-h])?$/u;

  Ranker.prototype.numberForm = function (text) {
    var match = NUMBER_FORM.exec(text.trim().toLowerCase());
    if (!match) return null;
    var value = 0;
    Array.from(match[2]).forEach(function (ch) { value = value * 10 + digitValue(ch); });
    var number = match[1] ? "RP-" + value : String(value);
    return match[3] ? number + "-" + match[3].toUpperCase() : number;
  };

  Ranker.prototype.ruleReference = function (query) {
    var text = String(query).toLowerCase().split(/\s+/).filter(Boolean).join(" "), source = "tda-2024";
    var match = REFERENCE_PREFIX.exec(text);
    if (match) {
      var key = match[1].replace(/ /g, "").replace(/_/g, "-");
      if (!Object.prototype.hasOwnProperty.call(this.sourceAliases, key)) return null;  // Python: an unknown source
      source = this.sourceAliases[key];
      text = text.slice(match[0].length);
    }
    var number = this.numberForm(text);
    if (number === null) return null;
    var candidates = [source + ":" + number];
    if (!match && number.indexOf("RP") === 0) candidates.push("tda-2019:" + number);
    for (var i = 0; i < candidates.length; i++) if (this.ruleIds.has(candidates[i])) return candidates[i];
    return null;
  };

  // lookup._reference_result: that rule first, then the situations that cite it.
  Ranker.prototype.referenceResult = function (text, reference, limit) {
    var self = this, citing = (this.citing.get(reference) || []).slice(0, Math.min(limit, this.c.reference_situations));
    return {
      query: text,
      situations: citing.map(function (doc) { return { id: self.situations[doc], index: doc, score: 1.0 }; }),
      rules: [{ id: reference, index: this.rules.indexOf(reference), score: 1.0 }],
      unknown: [], expansions: {}, confident: true, whyWeak: "", outOfScope: false, reference: reference,
    };
  };

  /* ---- lookup._weakness and _coverage: why no situation fits well ("" when one does) ---- */
  // The first out-of-scope marker whose terms run in the query's terms, or null.
  Ranker.prototype.outOfScopeMarker = function (text) {
    var query = this.terms(text);
    for (var m = 0; m < this.outOfScope.length; m++) {
      var marker = this.outOfScope[m];
      for (var i = 0; i + marker.length <= query.length; i++) {
        var same = true;
        for (var j = 0; j < marker.length && same; j++) same = query[i + j] === marker[j];
        if (same) return marker;
      }
    }
    return null;
  };

  Ranker.prototype.weakness = function (text, weights, unknown, situations) {
    var marker = this.outOfScopeMarker(text);
    if (marker) return "'" + marker.join(" ") + "' is outside what these rules decide";
    if (!situations.length) return "no situation matches";
    var best = situations[0];
    if (round3(best.score) < this.c.confident_score) return "the best match is weak";
    if (this.coverage(best.index, weights, unknown) < this.c.confident_coverage) return "the best match explains little of the query";
    return "";
  };

  Ranker.prototype.coverage = function (doc, weights, unknown) {
    var size = this.situations.length, postingsOf = this.situationPostings;
    var rarest = Math.log(1 + (size - 0.5) / 1.5);
    var total = rarest * unknown.length, held = 0.0;
    weights.forEach(function (weight, term) {
      var postings = postingsOf.get(term) || [];
      var idf = postings.length ? Math.log(1 + (size - postings.length + 0.5) / (postings.length + 0.5)) : rarest;
      total += idf * weight;
      if (postings.some(function (pair) { return pair[0] === doc; })) held += idf * weight;
    });
    return total ? held / total : 0.0;
  };

  function round3(x) { return Math.round(x * 1000) / 1000; }

  /* ---- as you type (the site only; `floor lookup` has whole queries) ----
     The last word, still being typed, is read as the likeliest known word it begins: one that
     completes a phrase with the words before it ("out of tur" is "out of turn", so "oot"),
     else the commonest ("dealer expo" is "dealer exposed", "a ca" is "a card"). Known words are
     the vocabulary's stems, the words of the situations' names and of the phrase table, counted
     by how many situations hold them; a one-letter stub is left out rather than matched, unless
     it ends a phrase ("out of t"); a stub that is already a known word is left as it is. */
  Ranker.prototype.complete = function (query) {
    var text = this.cleanQuery(query);
    if (!text || /\s$/.test(String(query)) || this.ruleReference(text) !== null) return text;
    var cut = text.lastIndexOf(" "), head = cut < 0 ? "" : text.slice(0, cut + 1);
    var stub = this.words(text.slice(cut + 1)).join("");
    if (!stub || /[^a-z]/.test(stub)) return text;
    // A whole word is taken as typed: "a card" is not "a cards", "on the deal" not "on the dealer".
    if (stub.length >= this.c.prefix_min_length && this.isKnownWord(stub)) return text;
    var self = this, before = this.words(head).map(function (w) { return self.stem(w); });
    var phrased = this.phraseCompletion(before, stub);
    if (phrased) return head + phrased;
    if (stub.length < this.c.prefix_min_length) return head.trim();
    var candidates = this.completions(stub);
    return candidates.length ? head + candidates[0] : text;
  };

  // The commonest known word beginning with `stub` that ends a phrase begun by the words before it
  // ("out of t" -> "turn"), or null. Even one letter will do here: the phrase says the rest.
  Ranker.prototype.phraseCompletion = function (before, stub) {
    if (!before.length) return null;
    this.completions(stub);  // builds the known words
    for (var i = 0; i < this.allWords.length; i++) {
      var word = this.allWords[i];
      if (word.indexOf(stub) !== 0) continue;
      var last = this.stem(word);
      for (var size = Math.min(this.c.max_phrase, before.length + 1); size > 1; size--) {
        if (this.phrases.has(before.slice(before.length - size + 1).concat([last]).join(" "))) return word;
      }
    }
    return null;
  };

  Ranker.prototype.isKnownWord = function (word) {
    this.completions(word);  // builds the known words
    if (!this.wordSet) this.wordSet = new Set(this.allWords);
    return this.wordSet.has(word);
  };

  // Known words beginning with `stub`, commonest first, at most prefix_candidates of them.
  Ranker.prototype.completions = function (stub) {
    if (!this.knownWords) {
      var self = this, weight = new Map();
      var add = function (word, n) { if (/^[a-z]+$/.test(word)) weight.set(word, (weight.get(word) || 0) + n); };
      var frequency = function (word) { return (self.situationPostings.get(self.stem(word)) || []).length; };
      this.situationPostings.forEach(function (postings, term) { add(term, postings.length); });
      this.namesText.forEach(function (name) { self.words(name).forEach(function (w) { add(w, 1 + frequency(w)); }); });
      this.phrases.forEach(function (_value, key) { key.split(" ").forEach(function (w) { add(w, 1); }); });
      // Every known word, commonest first (stopwords too: a phrase may end in one, "all in").
      this.allWords = Array.from(weight.entries())
        .sort(function (x, y) { return y[1] - x[1] || x[0].length - y[0].length || (x[0] < y[0] ? -1 : 1); })
        .map(function (entry) { return entry[0]; });
      this.knownWords = this.allWords.filter(function (word) { return !self.stop.has(self.stem(word)); });
    }
    var out = [];
    for (var i = 0; i < this.knownWords.length && out.length < this.c.prefix_candidates; i++) {
      if (this.knownWords[i].indexOf(stub) === 0) out.push(this.knownWords[i]);
    }
    return out;
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
