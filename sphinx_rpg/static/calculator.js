/* sphinx-rpg dice calculator (node:calculator): exact odds computed by the book's own engine.
 *
 * Nothing heavy loads before the page itself.  Once a calculator scrolls into view, the page falls
 * idle, or the reader uses it (focus, Compute) or opens a share link, a Web Worker
 * (calculator-worker.js) starts Pyodide and installs the engine wheel the build wrote
 * (_static/rpg/calculator.json names both, with their sizes); each calculator shows what is loading
 * and how much of it has arrived.  Every question is
 * answered by rules.calculator.answer_json, the function behind `rpg odds`.  A question that takes
 * too long, or the Cancel button, terminates the worker: the page never hangs.  The expression, the
 * system and the target are kept in the URL's hash (#dice=3d6&dc=10): that is the share link.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var STATIC = new URL(".", script ? script.src : location.href).href;
  // How long the page waits (ms): Pyodide's cold start on a slow machine; one answer (the engine's work
  // bound answers or refuses well within it).  A page may change them: window.rpgCalculatorLimits.
  var LIMITS = window.rpgCalculatorLimits = { start: 120000, answer: 20000 };
  var SVG = "http://www.w3.org/2000/svg";

  // -- the worker, shared by every calculator of the page ----------------------------------------
  var engine = null; // {worker, ready: Promise, asks: {id: {resolve, timer, deadline}}}
  var nextId = 1;

  function manifest() {
    return fetch(STATIC + "rpg/calculator.json", { cache: "no-cache" }).then(function (response) {
      if (!response.ok) throw new Error("the calculator's files are missing from the site (HTTP " + response.status + ")");
      return response.json();
    });
  }

  function stop(reason) {
    if (!engine) return;
    progressed({ stage: "stopped" }, {});
    var asks = engine.asks;
    engine.worker.terminate();
    engine.rejectStart(new Error(reason));
    engine = null;
    Object.keys(asks).forEach(function (id) {
      clearTimeout(asks[id].timer);
      asks[id].resolve({ error: reason });
    });
  }

  //: What each stage of the start loads, in a reader's words (the sizes come from the manifest).
  var STAGES = { python: "Python (Pyodide)", engine: "the rules engine", systems: "the game systems",
                 warm: "a first answer" };

  function megabytes(bytes) { return (bytes / 1e6).toFixed(1) + " MB"; }

  /* Every calculator of the page shows how far the start is: what is loading and how much of it has
   * arrived (``message.loaded`` bytes of ``sizes[stage]``); gone once the engine is ready. */
  function progressed(message, sizes) {
    (window.rpgCalculators || []).forEach(function (calc) {
      var box = calc.progress;
      if (!box) return;
      if (message.stage === "ready" || message.stage === "stopped") { box.hidden = true; return; }
      var total = sizes[message.stage] || 0, loaded = Math.min(message.loaded || 0, total || Infinity);
      var words = "Starting the calculator: loading " + STAGES[message.stage];
      if (total) words += ", " + megabytes(loaded) + " of " + megabytes(total);
      box.querySelector(".rpg-calculator-progress-text").textContent = words + "\u2026";
      var bar = box.querySelector("progress");
      var whole = (sizes.python || 0) + (sizes.engine || 0);
      var done = message.stage === "python" ? loaded : message.stage === "engine" ? (sizes.python || 0) + loaded : whole;
      if (whole) { bar.max = whole; bar.value = Math.min(done, whole); } else bar.removeAttribute("value");
      box.hidden = false;
    });
  }

  function startEngine() {
    if (engine) return engine.ready;
    var current = { asks: {}, worker: null, began: performance.now() };
    engine = current;
    current.ready = new Promise(function (resolve, reject) {
      current.rejectStart = reject;
      var timer = setTimeout(function () {
        if (engine === current) stop("the calculator did not start within " + LIMITS.start / 1000 + " s");
      }, LIMITS.start);
      manifest().then(function (files) {
        if (engine !== current) return;
        var folder = STATIC + "rpg/";
        var worker = new Worker(STATIC + "calculator-worker.js", { type: "module" });
        current.worker = worker;
        worker.onmessage = function (event) {
          var message = event.data;
          if (message.type === "progress") {
            current.progress = message;
            progressed(message, files.sizes || {});
          } else if (message.type === "ready") {
            clearTimeout(timer);
            progressed({ stage: "ready" }, {});
            current.startMs = message.ms;
            // where the start went (ms: total, pyodide, engine, systems, firstAnswer), for bench/calculator.py
            var marks = message.marks || {};
            window.rpgCalculatorStart = Object.assign({ total: message.ms, began: current.began,
              worker: marks.workerAt ? marks.workerAt - performance.timeOrigin - current.began : undefined,
              ready: performance.now() }, marks);
            resolve(message.ms);
          } else if (message.type === "failed") {
            clearTimeout(timer);
            if (engine === current) stop("the calculator could not start: " + message.message);
          } else if (message.type === "answer" && current.asks[message.id]) {
            var ask = current.asks[message.id];
            // an answer that comes after its limit is stopped as the timer would have stopped it: on a
            // busy machine the answer's message may be handled before the overdue timer's
            if (performance.now() > ask.deadline) {
              if (engine === current) stop("stopped: no answer within " + LIMITS.answer / 1000 + " s");
              return;
            }
            delete current.asks[message.id];
            clearTimeout(ask.timer);
            var received = performance.now(), data;
            try { data = JSON.parse(message.json); } catch (e) { data = { error: "the engine's answer was not JSON" }; }
            data.ms = message.ms;
            // where the answer's time went (ms), for bench/calculator.py: not part of the answer itself
            Object.defineProperty(data, "timing", { enumerable: false, value: {
              queued: message.queued, python: message.ms, transfer: performance.timeOrigin + received - message.sent,
              parse: performance.now() - received } });
            ask.resolve(data);
          }
        };
        worker.onerror = function (event) {
          event.preventDefault();
          if (engine === current) stop("the calculator stopped: " + (event.message || "the worker failed to load"));
        };
        var pyodide = new URL(files.pyodide, folder).href;
        worker.postMessage({ type: "start", pyodide: pyodide, wheel: new URL(files.wheel, folder).href,
                             stdlib: files.stdlib ? new URL(files.stdlib, pyodide).href : undefined,
                             bytecode: files.bytecode ? new URL(files.bytecode, folder).href : undefined,
                             systems: pageSystems(), first: firstSystems() });
      }).catch(function (error) {
        clearTimeout(timer);
        if (engine === current) stop(String(error.message || error));
      });
    });
    current.ready.catch(function () {}); // a failed start is reported through each question
    // a worker not yet created cannot be terminated: stop() must still work
    current.worker = { terminate: function () {} };
    return current.ready;
  }

  /* The systems the build wrote into the page (never one from a link), the one the first calculator
   * shows first: the worker imports that one before it is ready, the others after the first answer. */
  function pageSystems() {
    var specs = [], shown = (window.rpgCalculators || [])[0];
    if (firstSystems()) specs.push(shown.form.elements.system.value);
    (window.rpgCalculators || []).forEach(function (calc) {
      calc.settings.systems.forEach(function (s) { specs.push(s.spec); });
    });
    return specs.filter(function (spec, i) { return specs.indexOf(spec) === i; });
  }

  function firstSystems() { // 1 when the first calculator shows one of the page's systems, else 0
    var shown = (window.rpgCalculators || [])[0];
    var spec = shown && shown.form.elements.system.value;
    return spec && shown.system(spec) ? 1 : 0;
  }

  function ask(question) {
    startEngine();
    var current = engine;
    return new Promise(function (resolve) {
      var id = nextId++;
      current.ready.then(function () {
        if (engine !== current) return;
        current.asks[id] = {
          resolve: resolve,
          deadline: performance.now() + LIMITS.answer,
          timer: setTimeout(function () {
            if (engine === current) stop("stopped: no answer within " + LIMITS.answer / 1000 + " s");
          }, LIMITS.answer)
        };
        current.worker.postMessage({ type: "ask", id: id, kind: question.kind || "odds", notation: question.notation,
                                     system: question.system || null, dc: question.dc, under: question.under,
                                     seed: question.seed, systems: question.systems, every: question.every === true,
                                     atMost: question.atMost === true,
                                     asked: performance.timeOrigin + performance.now() });
      }, function (error) { resolve({ error: String(error.message || error) }); });
      current.asks[id] = { resolve: resolve, timer: null };
    });
  }

  // -- one calculator ------------------------------------------------------------------------------
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function Calculator(root, index) {
    this.root = root;
    this.index = index;
    this.settings = JSON.parse(root.querySelector(".rpg-calculator-data").textContent);
    this.form = root.querySelector("form");
    this.status = root.querySelector(".rpg-calculator-status");
    this.result = root.querySelector(".rpg-calculator-result");
    this.share = root.querySelector(".rpg-calculator-share");
    this.cancel = root.querySelector("[data-action=cancel]");
    this.rollButton = root.querySelector("[data-action=roll]");
    this.rolled = root.querySelector(".rpg-calculator-rolled");
    this.rolls = 0;
    this.lastRoll = null;
    this.asked = 0;
    this.last = null;
    var self = this;
    var select = this.form.elements.system;
    select.value = select.getAttribute("data-default") || "";
    this.form.hidden = false;
    // how far the engine's start is (see progressed): not a live region, the status says when it is done
    this.progress = el("div", { "class": "rpg-calculator-progress", hidden: "" });
    this.progress.appendChild(el("span", { "class": "rpg-calculator-progress-text" }));
    this.progress.appendChild(el("progress", { "aria-label": "Starting the calculator" }));
    this.form.parentNode.insertBefore(this.progress, this.form.nextSibling);
    if (engine && engine.progress) progressed(engine.progress, {});
    this.form.addEventListener("submit", function (event) { event.preventDefault(); self.compute(); });
    this.form.addEventListener("focusin", function () { startEngine(); }, { once: true });
    this.form.elements.mode.addEventListener("change", function () { self.label(); });
    select.addEventListener("change", function () {
      var system = self.system(select.value);
      if (system) self.form.elements.notation.value = system.example;
    });
    this.cancel.addEventListener("click", function () { stop("cancelled"); });
    root.addEventListener("click", function (event) { // a fraction cut short: whole (or cut again) on a click or tap
      var cell = event.target.closest && event.target.closest(".rpg-calculator-fraction");
      if (!cell || (window.getSelection && String(window.getSelection()))) return;
      var whole = cell.classList.toggle("rpg-calculator-whole");
      if (cell.classList.contains("rpg-calculator-cut")) cell.textContent = whole ? cell.title : shortened(cell.title);
    });
    root.addEventListener("copy", function (event) { // what is copied holds each cut-short fraction whole
      var selection = window.getSelection();
      if (!selection || !selection.rangeCount || !event.clipboardData) return;
      var range = selection.getRangeAt(0), text = selection.toString(), changed = false;
      root.querySelectorAll(".rpg-calculator-cut:not(.rpg-calculator-whole)").forEach(function (cell) {
        if (!range.intersectsNode(cell) || text.indexOf(cell.textContent) < 0) return;
        text = text.replace(cell.textContent, cell.title); // in page order: the first one left is this cell's
        changed = true;
      });
      if (!changed) return;
      event.clipboardData.setData("text/plain", text);
      event.preventDefault();
    });
    this.rollButton.addEventListener("click", function () { self.roll(); });
    this.label();
  }

  Calculator.prototype.system = function (spec) {
    return this.settings.systems.filter(function (s) { return s.spec === spec; })[0] || null;
  };

  Calculator.prototype.label = function () {
    var under = this.form.elements.mode.value === "under";
    var name = this.settings.target_name || "DC"; // the game's word: DC for most, TN for SPURG
    this.form.querySelector(".rpg-calculator-target").firstChild.textContent = under ? (name === "DC" ? "Target" : name) : name;
  };

  Calculator.prototype.question = function () {
    var f = this.form.elements;
    var target = f.target.value.trim();
    return {
      notation: f.notation.value, system: f.system.value,
      dc: f.mode.value === "dc" && target ? target : null,
      under: f.mode.value === "under" && target ? target : null,
      atMost: f.mode.value === "under", // rolling under: the table's running total is P(<= result)
      systems: this.settings.systems.map(function (s) { return s.spec; })
    };
  };

  Calculator.prototype.fill = function (params) {
    var f = this.form.elements;
    if (params.has("system")) {
      var spec = params.get("system");
      if (!this.system(spec) && spec) {
        var option = el("option", { value: spec }, spec); // shown as asked; the engine refuses it
        f.system.appendChild(option);
      }
      f.system.value = spec;
    } else {
      f.system.value = "";
    }
    f.notation.value = params.get("dice") || "";
    f.mode.value = params.has("under") ? "under" : "dc";
    f.target.value = params.get(params.has("under") ? "under" : "dc") || "";
    this.label();
  };

  Calculator.prototype.link = function () {
    var q = this.question();
    var params = new URLSearchParams();
    params.set("dice", q.notation);
    if (q.system) params.set("system", q.system);
    if (q.dc !== null) params.set("dc", q.dc);
    if (q.under !== null) params.set("under", q.under);
    return location.href.split("#")[0] + "#" + params.toString();
  };

  /* Ask the form's question (or ``question``: "Show all" asks the last one again with every row). */
  Calculator.prototype.compute = function (question) {
    var self = this;
    question = question || this.question();
    var number = ++this.asked;
    var link = question.every ? this.share.href : this.link();
    // the result is what is rebuilt: the status beside it is read out as soon as it changes
    this.result.setAttribute("aria-busy", "true");
    this.cancel.hidden = false;
    this.status.className = "rpg-calculator-status";
    this.status.textContent = engine && engine.startMs !== undefined ? "Computing\u2026"
      : "Starting the calculator (the rules engine loads once)\u2026";
    return ask(question).then(function (data) {
      if (number !== self.asked) return data; // a newer question is on its way
      self.last = data;
      if (data.error) {
        self.status.className = "rpg-calculator-status rpg-calculator-error";
        self.status.textContent = data.error;
        self.result.textContent = "";
        return self.answered(number, data);
      }
      self.lastQuestion = question;
      var t0 = performance.now();
      self.show(data);
      if (data.timing) data.timing.shown = performance.now() - t0;
      self.share.href = link;
      self.share.hidden = false;
      if (self.index === 0) self.keepInAddress(link, number);
      return self.answered(number, data);
    });
  };

  /* The address bar takes the share link of question ``number`` once its answer is painted (unless a
   * newer question came, or the address changed, meanwhile: replacing a link the reader just opened
   * would make its hashchange ask the old question again): history.replaceState costs Chromium
   * 10-20 ms, which the answer need not wait for. */
  Calculator.prototype.keepInAddress = function (link, number) {
    var self = this;
    if (!history.replaceState) return;
    var before = location.href; // a navigation meanwhile (a link opened, a hash typed) is the reader's: kept
    requestAnimationFrame(function () {
      setTimeout(function () {
        if (number === self.asked && location.href === before && before !== link) {
          history.replaceState(null, "", link);
        }
      }, 0);
    });
  };

  /* Question ``number`` is answered and on the page. */
  Calculator.prototype.answered = function (number, data) {
    this.result.removeAttribute("aria-busy");
    this.cancel.hidden = true;
    this.root.setAttribute("data-answered", String(number));
    return data;
  };

  /* Roll the dice once with the engine (rpg roll's code); ``seed`` defaults to a fresh random one,
   * shown with the roll so `rpg roll ... --seed N` gives the same dice. */
  Calculator.prototype.roll = function (seed) {
    var self = this;
    var question = this.question();
    question.kind = "roll";
    if (seed === undefined) {
      var word = new Uint32Array(1);
      crypto.getRandomValues(word);
      seed = word[0];
    }
    question.seed = seed;
    var number = ++this.rolls;
    this.cancel.hidden = false;
    this.rolled.className = "rpg-calculator-rolled";
    this.rolled.textContent = "Rolling\u2026";
    return ask(question).then(function (data) {
      if (number !== self.rolls) return data;
      if (!self.result.hasAttribute("aria-busy")) self.cancel.hidden = true;
      self.lastRoll = data;
      if (data.error) {
        self.rolled.className = "rpg-calculator-rolled rpg-calculator-error";
        self.rolled.textContent = data.error;
      } else {
        var verdict = data.success === null ? "" : data.success ? " \u2014 success" : " \u2014 failure";
        self.rolled.textContent = "Rolled " + data.text + verdict + " (seed " + data.seed + ")";
      }
      self.root.setAttribute("data-rolled", String(number));
      return data;
    });
  };

  /* Show an answer: the summary, the chart and the table (a long one shows the rows in view). */
  Calculator.prototype.show = function (data) {
    this.status.className = "rpg-calculator-status";
    this.status.textContent = "Mean " + data.mean_text + ", standard deviation " + data.sd_text + ".";
    if (data.target) this.status.appendChild(this.chance(data.target));
    this.result.textContent = "";
    this.result.appendChild(this.chart(data));
    var table = this.table(data);
    this.result.appendChild(table.wrap);
    this.renderRows = table.render;
    table.render();
    if (data.folded) this.result.appendChild(this.folds(data));
  };

  /* " P(result ≥ 360) = 27.3%, exactly 1234…": the percentage first, then the exact fraction, cut
   * short like the table's long fractions (whole on hover, on click or tap, and when copied). */
  Calculator.prototype.chance = function (target) {
    var sign = target.kind === "at least" ? "\u2265" : "\u2264";
    var span = el("span", { "class": "rpg-calculator-chance" },
                  " P(result " + sign + " " + target.value + ") = " + target.percent + ", exactly ");
    span.appendChild(fraction("span", target.p));
    return span;
  };

  //: The characters a long fraction keeps when cut short: about what its column shows (a phone's
  //: narrower column cuts it further, with CSS).  The page lays out 16 digits, not 80, per cell.
  var FRACTION_CUT = 16;

  /* A cell (``tag``) holding a fraction: cut short with "…" when too long for its column (class
   * rpg-calculator-cut), the whole on hover (title), on a click or tap (for touch screens), which
   * toggles the whole in place, and in what a copy puts on the clipboard (see Calculator). */
  function fraction(tag, text) {
    var cut = text.length > FRACTION_CUT + 2;
    return el(tag, { "class": "rpg-calculator-fraction" + (cut ? " rpg-calculator-cut" : ""), title: text },
              cut ? shortened(text) : text);
  }

  function shortened(text) { return text.slice(0, FRACTION_CUT) + "\u2026"; }

  /* Does ``row`` (one outcome, or a folded tail from..to) succeed against the target? */
  Calculator.prototype.succeeds = function (data, row) {
    if (!data.target) return false;
    var low = row.from !== undefined ? row.from : row.outcome, high = row.to !== undefined ? row.to : row.outcome;
    if (typeof low !== "number" || typeof high !== "number") return false;
    return data.target.kind === "at least" ? low >= data.target.value : high <= data.target.value;
  };

  /* Does every outcome of chart bar ``i`` succeed against the target? */
  Calculator.prototype.barSucceeds = function (data, i) {
    return this.succeeds(data, { outcome: data.chart.first[i], from: data.chart.first[i], to: data.chart.last[i] });
  };

  /* The chart of every outcome but the negligible tails, binned by the engine to at most 300 bars
   * (rules.odds.chart_bins: a bar of a long distribution sums a run of outcomes; its height is in
   * thousandths of the tallest bar's), drawn as one <path> for the bars that miss and one for those
   * that succeed (every outcome of the bar does): a few elements whatever the number of outcomes.
   * Pointing at a bar shows its outcomes and their summed chance. */
  Calculator.prototype.chart = function (data) {
    var chart = data.chart, first = chart.first, last = chart.last, heights = chart.heights, n = first.length;
    var width = 600, height = 160, gap = n > 60 ? 0 : 1, bar = width / Math.max(n, 1);
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 " + width + " " + (height + 18));
    svg.setAttribute("class", "rpg-calculator-chart");
    svg.setAttribute("role", "img");
    var binned = chart.size > 1 ? "; each bar sums the chances of " + chart.size + " results in a row" +
      (chart.last_size < chart.size ? " (the last bar " + chart.last_size + ")" : "") : "";
    svg.setAttribute("aria-label", "Chart of P(= result) for each result of " + data.notation + ", from " +
                     first[0] + " to " + last[n - 1] + binned + "; the table below lists the chances");
    var paths = { miss: [], hit: [] };
    var self = this;
    var run = null; // the bars of one class next to each other: one outline when they touch
    function close() {
      if (run && !gap) run.d.push("V" + height + "Z");
      run = null;
    }
    for (var i = 0; i < n; i++) {
      var kind = self.barSucceeds(data, i) ? "hit" : "miss";
      var h = Math.max(heights[i] / 1000 * height, 1); // every bar is possible: at least 1 unit
      var x = i * bar + gap / 2, top = (height - h).toFixed(2);
      if (gap) {
        paths[kind].push("M" + x.toFixed(2) + " " + height + "V" + top + "h" + Math.max(bar - gap, 0.5).toFixed(2) +
                         "V" + height + "Z");
        continue;
      }
      if (!run || run.kind !== kind) {
        close();
        run = { kind: kind, d: paths[kind] };
        run.d.push("M" + x.toFixed(2) + " " + height);
      }
      run.d.push("V" + top + "H" + (x + bar).toFixed(2));
    }
    close();
    ["miss", "hit"].forEach(function (kind) {
      if (!paths[kind].length) return;
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", paths[kind].join(""));
      path.setAttribute("class", kind === "hit" ? "rpg-calculator-bar rpg-calculator-hit" : "rpg-calculator-bar");
      svg.appendChild(path);
    });
    var step = Math.ceil(n / 12);
    for (var j = 0; j < n; j += step) {
      var text = document.createElementNS(SVG, "text"), middle = j * bar + bar / 2;
      text.setAttribute("x", middle.toFixed(2));
      text.setAttribute("y", String(height + 14));
      // a label at either edge of the chart is kept inside it
      text.setAttribute("text-anchor", middle < 20 ? "start" : middle > width - 20 ? "end" : "middle");
      text.textContent = String(first[j]);
      svg.appendChild(text);
    }
    var readout = document.createElementNS(SVG, "text");
    readout.setAttribute("class", "rpg-calculator-readout");
    readout.setAttribute("x", String(width - 4));
    readout.setAttribute("y", "14");
    readout.setAttribute("text-anchor", "end");
    svg.appendChild(readout);
    svg.addEventListener("pointermove", function (event) {
      var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      var index = Math.floor(point.x / bar);
      readout.textContent = index >= 0 && index < n ? self.barLabel(data, index) + ": " + chart.percents[index] : "";
    });
    svg.addEventListener("pointerleave", function () { readout.textContent = ""; });
    return svg;
  };

  /* "350" for a bar of one outcome, "4001\u20134034" for a bar of a run of them. */
  Calculator.prototype.barLabel = function (data, i) {
    var first = data.chart.first[i], last = data.chart.last[i];
    return first === last ? String(first) : first + "\u2013" + last;
  };

  //: A table of more rows than this (Show all of a long distribution) holds only the rows in view, and
  //: BUFFER_ROWS on either side: 10,000 rows would take seconds to lay out, in one piece or in slices.
  //: Such a table's rows are ROW_EM high, and the first FIRST_ROWS are about what its box shows.
  var VIRTUAL_ROWS = 150, BUFFER_ROWS = 30, ROW_EM = 2, FIRST_ROWS = 16;

  /* The table of the answer's rows: {wrap, render}.  A real <table> whatever its length; a long one
   * holds the rows in view (with aria-rowindex, and aria-rowcount on the table) between two spacer rows
   * as high as the rows left out, and render() (at each scroll, the next frame) swaps them. */
  Calculator.prototype.table = function (data) {
    var wrap = el("div", { "class": "rpg-calculator-table-wrap" });
    var table = el("table", { "class": "rpg-calculator-table docutils" });
    var head = el("tr");
    var under = data.cumulative === "at most"; // a roll-under reader's running total: this result or less
    ["Result", "P(= result)", "%", under ? "P(\u2264 result)" : "P(\u2265 result)", "%"].forEach(function (t) { head.appendChild(el("th", { scope: "col" }, t)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    table.appendChild(body);
    wrap.appendChild(table);
    var self = this, rows = data.rows, n = rows.length;
    if (n <= VIRTUAL_ROWS) {
      rows.forEach(function (row) { body.appendChild(self.row(data, row)); });
      return { wrap: wrap, render: function () {} };
    }
    wrap.classList.add("rpg-calculator-virtual");
    // a box of its own that the keyboard scrolls too (arrows, Page Down) once focused
    wrap.setAttribute("tabindex", "0");
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "Every result of " + data.notation + ", " + n + " rows");
    table.setAttribute("aria-rowcount", String(n + 1)); // the header row is row 1
    var columns = el("colgroup"); // fixed widths (calculator.css): columns that do not jump while scrolling
    for (var c = 0; c < 5; c++) columns.appendChild(el("col", { "class": "rpg-calculator-col" + c }));
    table.insertBefore(columns, thead);
    function spacer() {
      var tr = el("tr", { "class": "rpg-calculator-spacer", "aria-hidden": "true" });
      tr.appendChild(el("td", { colspan: "5" }));
      body.appendChild(tr);
      return tr.firstChild;
    }
    var above = spacer(), below = spacer(), first = 0, last = 0;
    function show(from, to) { // rows[from:to] between the spacers, reusing those already there
      var keep = Math.max(from, first), stop = Math.min(to, last);
      if (keep >= stop) { // nothing in common: every row goes
        while (above.parentNode.nextSibling !== below.parentNode) body.removeChild(above.parentNode.nextSibling);
        keep = stop = first = last = from;
      }
      while (first < keep) { body.removeChild(above.parentNode.nextSibling); first++; }
      while (last > stop) { body.removeChild(below.parentNode.previousSibling); last--; }
      var part = document.createDocumentFragment();
      for (var i = from; i < first; i++) part.appendChild(self.row(data, rows[i], i));
      body.insertBefore(part, above.parentNode.nextSibling);
      part = document.createDocumentFragment();
      for (var j = last; j < to; j++) part.appendChild(self.row(data, rows[j], j));
      body.insertBefore(part, below.parentNode);
      first = from;
      last = to;
      above.style.height = from * ROW_EM + "em"; // every row is ROW_EM high (calculator.css)
      below.style.height = (n - to) * ROW_EM + "em";
    }
    /* The rows in view and BUFFER_ROWS on either side.  Nothing is measured before the reader scrolls:
     * the first rows go in with the rest of the answer, without a layout of their own. */
    function render() {
      if (!wrap.scrollTop && !last) return show(0, Math.min(n, FIRST_ROWS + BUFFER_ROWS));
      if (!wrap.isConnected) return;
      var em = parseFloat(getComputedStyle(table).fontSize) || 16, height = ROW_EM * em; // the rows' em (smaller on a phone)
      var top = Math.max(wrap.scrollTop - thead.getBoundingClientRect().height, 0);
      var from = Math.max(Math.floor(top / height) - BUFFER_ROWS, 0);
      var to = Math.min(Math.ceil((top + wrap.clientHeight) / height) + BUFFER_ROWS, n);
      if (from !== first || to !== last) show(from, to);
    }
    var pending = false;
    wrap.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; render(); });
    }, { passive: true });
    /* A box that changes width (a phone turned, a window resized past calculator.css's phone width) may
     * change the rows' height too: keep the same rows in view and place them again, before that frame
     * is painted. */
    var seenWidth = -1, seenEm = 0;
    if (window.ResizeObserver) new ResizeObserver(function (entries) {
      var width = entries[entries.length - 1].contentRect.width;
      var em = parseFloat(getComputedStyle(table).fontSize) || 16;
      if (seenWidth >= 0 && width !== seenWidth) {
        if (seenEm && em !== seenEm) wrap.scrollTop = wrap.scrollTop * em / seenEm;
        render();
      }
      seenWidth = width;
      seenEm = em;
    }).observe(wrap);
    return { wrap: wrap, render: render };
  };

  /* One row of the table (``index``: its place, in a table holding only the rows in view): the result (or a folded tail), its chances as fractions and percentages. */
  Calculator.prototype.row = function (data, row, index) {
    var classes = (this.succeeds(data, row) ? "rpg-calculator-hit " : "") + (row.from !== undefined ? "rpg-calculator-fold" : "");
    var tr = el("tr", classes ? { "class": classes.trim() } : {});
    if (index !== undefined) tr.setAttribute("aria-rowindex", String(index + 2)); // in a table holding the rows in view
    tr.appendChild(el("th", { scope: "row" }, String(row.outcome)));
    // a fraction of 80 digits would push the percentages out of sight: cut short, whole on hover or click
    tr.appendChild(fraction("td", row.p));
    tr.appendChild(el("td", {}, row.percent));
    var under = data.cumulative === "at most";
    tr.appendChild(fraction("td", under ? row.p_le : row.p_ge));
    tr.appendChild(el("td", {}, under ? row.percent_le : row.percent_ge));
    return tr;
  };

  /* Below a folded table: what the first and last rows hold, and a button for a row per outcome. */
  Calculator.prototype.folds = function (data) {
    var self = this;
    var note = el("p", { "class": "rpg-calculator-folds" });
    var shown = data.rows.filter(function (row) { return row.from === undefined; }).length;
    note.appendChild(document.createTextNode(shown + " of " + data.outcomes + " results have rows of their own; " +
      "the rarest at each end share one row (\u2264 or \u2265), with their exact total. "));
    var button = el("button", { type: "button", "data-action": "all" }, "Show all " + data.outcomes + " rows");
    button.addEventListener("click", function () {
      button.disabled = true;
      self.compute(Object.assign({}, self.lastQuestion, { every: true }));
    });
    note.appendChild(button);
    return note;
  };

  function init() {
    var calculators = [];
    document.querySelectorAll(".rpg-calculator").forEach(function (root, index) {
      calculators.push(new Calculator(root, index));
    });
    window.rpgCalculators = calculators;
    function follow() { // a share link, opened or pasted into this tab: show its answer
      var params = window.rpgAddress ? window.rpgAddress.read() : null; // never throws, bounded
      if (calculators.length && params && params.get("dice")) {
        calculators[0].fill(params);
        calculators[0].compute();
      }
    }
    window.addEventListener("hashchange", follow);
    follow();
    startSoon(calculators);
  }

  /* The engine starts before the reader asks: once a calculator is (nearly) in view, or once the page
   * has loaded and fallen idle, whichever comes first; a question asked sooner starts it at once. */
  function startSoon(calculators) {
    if (!calculators.length) return;
    if (window.IntersectionObserver) {
      var watch = new IntersectionObserver(function (entries) {
        if (entries.some(function (entry) { return entry.isIntersecting; })) { watch.disconnect(); startEngine(); }
      }, { rootMargin: "200px" });
      calculators.forEach(function (calc) { watch.observe(calc.root); });
    }
    function idle() {
      if (window.requestIdleCallback) requestIdleCallback(function () { startEngine(); }, { timeout: 5000 });
      else setTimeout(startEngine, 2000);
    }
    if (document.readyState === "complete") idle(); else window.addEventListener("load", idle, { once: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
