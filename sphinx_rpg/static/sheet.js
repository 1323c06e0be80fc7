/* sphinx-rpg character sheets (node:sheet): derived values computed in the page as the reader types.
 *
 * The build writes each sheet's fields and the engine's parsed formulas (rules.formula.Formula.tree)
 * as JSON next to the form.  Arithmetic is exact, as in the engine: rationals of BigInts, so
 * floor((AGI + VIT) / 2) rounds exactly as Python's Fraction does.  No dependency, no eval.
 */
(function () {
  "use strict";

  var MAX_DIGITS = 15; // an input longer than this is refused: the work per keystroke stays small

  // -- exact rationals ----------------------------------------------------------------------------
  function gcd(a, b) {
    if (a < 0n) a = -a;
    if (b < 0n) b = -b;
    while (b) { var t = a % b; a = b; b = t; }
    return a;
  }
  function rat(n, d) {
    if (d === undefined) d = 1n;
    if (d === 0n) throw new Error("division by zero");
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d) || 1n;
    return { n: n / g, d: d / g };
  }
  function floorDiv(n, d) { // d > 0
    var q = n / d;
    if (n % d !== 0n && n < 0n) q -= 1n;
    return q;
  }
  function compare(a, b) {
    var l = a.n * b.d, r = b.n * a.d;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  var BINARY = {
    "+": function (a, b) { return rat(a.n * b.d + b.n * a.d, a.d * b.d); },
    "-": function (a, b) { return rat(a.n * b.d - b.n * a.d, a.d * b.d); },
    "*": function (a, b) { return rat(a.n * b.n, a.d * b.d); },
    "/": function (a, b) { return rat(a.n * b.d, a.d * b.n); },
    "//": function (a, b) { var q = rat(a.n * b.d, a.d * b.n); return rat(floorDiv(q.n, q.d)); }
  };
  var CALLS = {
    floor: function (x) { return rat(floorDiv(x.n, x.d)); },
    ceil: function (x) { return rat(-floorDiv(-x.n, x.d)); },
    abs: function (x) { return rat(x.n < 0n ? -x.n : x.n, x.d); },
    min: function () { return Array.prototype.reduce.call(arguments, function (a, b) { return compare(b, a) < 0 ? b : a; }); },
    max: function () { return Array.prototype.reduce.call(arguments, function (a, b) { return compare(b, a) > 0 ? b : a; }); }
  };

  function evaluate(tree, lookup) {
    switch (tree[0]) {
      case "num": return rat(BigInt(tree[1]), BigInt(tree[2]));
      case "name": return lookup(tree[1]);
      case "neg": var x = evaluate(tree[1], lookup); return rat(-x.n, x.d);
      case "bin":
        if (!BINARY.hasOwnProperty(tree[1])) throw new Error("unknown operator " + tree[1]);
        return BINARY[tree[1]](evaluate(tree[2], lookup), evaluate(tree[3], lookup));
      case "call":
        if (!CALLS.hasOwnProperty(tree[1])) throw new Error("unknown function " + tree[1]);
        return CALLS[tree[1]].apply(null, tree.slice(2).map(function (t) { return evaluate(t, lookup); }));
    }
    throw new Error("unknown formula part " + tree[0]);
  }
  function show(x) { return x.d === 1n ? x.n.toString() : x.n.toString() + "/" + x.d.toString(); }

  // -- one sheet ----------------------------------------------------------------------------------
  function boundsText(field) {
    if (field.min !== null && field.max !== null) return "from " + field.min + " to " + field.max;
    if (field.min !== null) return field.min + " or more";
    if (field.max !== null) return "at most " + field.max;
    return "";
  }
  function check(field, text) { // an error message, or "" when the value is allowed
    text = text.trim();
    if (text === "") return field.label + ": fill in a whole number";
    if (!/^-?\d+$/.test(text) || text.replace("-", "").length > MAX_DIGITS) {
      return field.label + ": a whole number" + (boundsText(field) ? ", " + boundsText(field) : "");
    }
    var value = BigInt(text);
    if ((field.min !== null && value < BigInt(field.min)) || (field.max !== null && value > BigInt(field.max))) {
      return field.label + " must be " + boundsText(field) + " (the rules' bounds)";
    }
    return "";
  }

  function Sheet(box) {
    this.box = box;
    this.data = JSON.parse(box.querySelector("script.rpg-sheet-data").textContent);
    this.inputs = {};
    this.outputs = {};
    var self = this;
    box.querySelectorAll("input.rpg-sheet-input").forEach(function (el) { self.inputs[el.dataset.key] = el; });
    box.querySelectorAll("output.rpg-sheet-value").forEach(function (el) { self.outputs[el.dataset.key] = el; });
    this.budgetOutputs = {};
    this.budgetTotals = {};
    box.querySelectorAll("output.rpg-sheet-budget").forEach(function (el) { self.budgetOutputs[el.dataset.budget] = el; });
    box.querySelectorAll("select[data-budget]").forEach(function (el) {
      self.budgetTotals[el.dataset.budget] = el;
      el.addEventListener("change", function () { self.update(); });
    });
    this.status = box.querySelector(".rpg-sheet-status");
    box.addEventListener("input", function (event) {
      if (event.target.classList && event.target.classList.contains("rpg-sheet-input")) {
        box.classList.add("rpg-sheet-filled"); // a reader's own values print; an untouched sheet prints blank
        self.update();
      }
    });
    box.querySelectorAll("[data-action]").forEach(function (el) {
      var action = el.dataset.action;
      el.addEventListener(action === "load" ? "change" : "click", function () { self[action](el); });
    });
  }
  Sheet.prototype.fields = function (kinds) {
    return this.data.fields.filter(function (f) { return kinds.indexOf(f.kind) >= 0; });
  };
  Sheet.prototype.reset = function () {
    var self = this;
    this.fields(["input", "parameter"]).forEach(function (f) {
      // the rules' starting value when the node has one, else 0 (average, untrained) or the nearest bound
      var start = typeof f.start === "number" ? f.start : f.min !== null && f.min > 0 ? f.min : f.max !== null && f.max < 0 ? f.max : 0;
      if (self.inputs[f.key]) self.inputs[f.key].value = String(start);
    });
    this.box.classList.remove("rpg-sheet-filled");
    this.update();
    this.say("");
  };
  Sheet.prototype.update = function () {
    var self = this, values = {};
    this.fields(["input", "parameter"]).forEach(function (f) {
      var el = self.inputs[f.key];
      if (!el) return;
      var problem = check(f, el.value);
      var message = document.getElementById(el.getAttribute("aria-describedby"));
      if (message) message.textContent = problem;
      if (problem) el.setAttribute("aria-invalid", "true"); else el.removeAttribute("aria-invalid");
      if (!problem) values[f.key] = rat(BigInt(el.value.trim()));
    });
    this.fields(["derived"]).forEach(function (f) {
      var el = self.outputs[f.key];
      var missing = Object.keys(f.variables).filter(function (name) { return !values.hasOwnProperty(f.variables[name]); });
      var text = "\u2014", title = "";
      if (missing.length) {
        title = "waiting for a valid value of " + missing.join(", ");
      } else {
        try {
          values[f.key] = evaluate(f.tree, function (name) { return values[f.variables[name]]; });
          text = show(values[f.key]);
        } catch (error) {
          title = error.message;
        }
      }
      if (el) { (el.querySelector(".rpg-sheet-number") || el).textContent = text; el.title = title; }
    });
    this.updateBudgets(values);
    return values;
  };
  // "7 of 10 points spent", or "12 of 10 points spent: 2 over the budget"; a cap: "2 (at most 1): 1 too
  // many" (rules.budgets.budget_message)
  function budgetMessage(budget, spent, total) { // total: a BigInt
    var over = BINARY["-"](spent, rat(total));
    if (budget.kind === "cap") {
      var count = show(spent) + " (at most " + total.toString() + ")";
      return over.n > 0n ? count + ": " + show(over) + " too many" : count;
    }
    var text = show(spent) + " of " + total.toString() + " " + budget.unit + " spent";
    return over.n > 0n ? text + ": " + show(over) + " over the budget" : text;
  }
  Sheet.prototype.total = function (budget) {
    var menu = this.budgetTotals[budget.uid];
    return menu ? BigInt(menu.value) : BigInt(budget.total);
  };
  Sheet.prototype.updateBudgets = function (values) {
    var self = this;
    (this.data.budgets || []).forEach(function (budget) {
      var el = self.budgetOutputs[budget.uid];
      if (!el) return;
      var missing = Object.keys(budget.variables).filter(function (name) { return !values.hasOwnProperty(budget.variables[name]); });
      var text = "\u2014", title = "", over = false;
      if (missing.length) {
        title = "waiting for a valid value of " + missing.join(", ");
      } else {
        try {
          var spent = evaluate(budget.tree, function (name) { return values[budget.variables[name]]; });
          var total = self.total(budget);
          text = budgetMessage(budget, spent, total);
          over = compare(spent, rat(total)) > 0;
        } catch (error) {
          title = error.message;
        }
      }
      el.textContent = text;
      el.title = title;
      el.classList.toggle("rpg-sheet-over", over);
      // what an untouched sheet prints instead of its computed count: a blank to fill in by hand
      var limit = self.total(budget).toString();
      el.setAttribute("data-blank", budget.kind === "cap" ? "____ (at most " + limit + ")"
                                                          : "____ of " + limit + " " + budget.unit + " spent");
    });
  };
  var BUDGET_PREFIX = "budget:"; // a budget's chosen total travels as "budget:<uid>" in saves and links
  Sheet.prototype.values = function () {
    var out = {}, self = this;
    Object.keys(this.inputs).forEach(function (key) { out[key] = self.inputs[key].value.trim(); });
    Object.keys(this.budgetTotals).forEach(function (uid) { out[BUDGET_PREFIX + uid] = self.budgetTotals[uid].value; });
    return out;
  };
  Sheet.prototype.fill = function (values) { // key -> text or number; unknown keys are ignored
    var self = this, count = 0;
    Object.keys(values).forEach(function (key) {
      var el = self.inputs.hasOwnProperty(key) ? self.inputs[key] : null;
      var value = values[key];
      var uid = key.indexOf(BUDGET_PREFIX) === 0 ? key.slice(BUDGET_PREFIX.length) : null;
      var menu = uid !== null && Object.prototype.hasOwnProperty.call(self.budgetTotals, uid) ? self.budgetTotals[uid] : null;
      if (menu && Array.prototype.some.call(menu.options, function (o) { return o.value === String(value); })) {
        menu.value = String(value); // only a total the rules offer
        return;
      }
      if (el && (typeof value === "number" || typeof value === "string") && String(value).length <= MAX_DIGITS + 1) {
        el.value = String(value);
        count += 1;
      }
    });
    if (count) this.box.classList.add("rpg-sheet-filled");
    this.update();
    return count;
  };
  Sheet.prototype.say = function (text) { if (this.status) this.status.textContent = text; };
  Sheet.prototype.save = function () {
    var numbers = {}, values = this.values();
    Object.keys(values).forEach(function (key) { if (/^-?\d+$/.test(values[key])) numbers[key] = Number(values[key]); });
    var blob = new Blob([JSON.stringify({ system: this.data.system, version: this.data.version, values: numbers }, null, 2)],
                        { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = this.data.system + "-sheet.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
    this.say("Saved as " + link.download);
  };
  Sheet.prototype.load = function (input) {
    var self = this, file = input.files && input.files[0];
    if (!file) return;
    file.text().then(function (text) {
      var saved;
      try { saved = JSON.parse(text); } catch (error) { saved = null; }
      if (!saved || typeof saved.values !== "object" || saved.system !== self.data.system) {
        self.say("Not a saved " + self.data.system + " sheet: nothing loaded");
      } else {
        self.say("Loaded " + self.fill(saved.values) + " values from " + file.name);
      }
      input.value = "";
    });
  };
  Sheet.prototype.link = function () {
    var params = new URLSearchParams(), values = this.values();
    params.set("sheet", this.data.system);
    Object.keys(values).forEach(function (key) { params.set(key, values[key]); });
    return location.href.split("#")[0] + "#" + params.toString();
  };
  Sheet.prototype.share = function () {
    var url = this.link(), self = this;
    history.replaceState(null, "", url);
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { self.say("Link copied (it is also the page's address now)"); },
                                              function () { self.say("The page's address is now the link"); });
    } else {
      this.say("The page's address is now the link");
    }
  };
  Sheet.prototype.fromHash = function () {
    var params = window.rpgAddress ? window.rpgAddress.read() : null; // never throws, bounded
    if (!params || params.get("sheet") !== this.data.system) return false;
    var values = {};
    params.forEach(function (value, key) { if (key !== "sheet") values[key] = value; });
    this.fill(values);
    return true;
  };

  function start() {
    var sheets = [];
    document.querySelectorAll("div.rpg-sheet").forEach(function (box) {
      if (!box.querySelector("script.rpg-sheet-data")) return;
      var sheet = new Sheet(box);
      sheet.reset();
      sheet.fromHash();
      box.classList.add("rpg-sheet-live");
      sheets.push(sheet);
    });
    window.rpgSheets = sheets; // for the browser test and for readers' own scripts
  }
  window.rpgSheetEvaluate = function (tree, values) { // exposed for tests: values name -> integer text
    return show(evaluate(tree, function (name) { return rat(BigInt(values[name])); }));
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
