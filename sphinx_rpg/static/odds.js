/* sphinx-rpg odds with parameters (node:odds / node:table with :vary:).
 *
 * The build computed every combination with the engine and wrote it beside the table as JSON
 * (cell texts exactly as the static table prints them, probabilities as exact "n/d" for the chart).
 * This script only looks things up: it reveals the controls, swaps the table's caption, head and
 * body and redraws the chart, and keeps the choice in the URL hash (#<table id>?skill=2&lid=off) so
 * a link opens the same combination.  No engine, no eval, no dependency.
 */
(function () {
  "use strict";

  var COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
  var SVG = "http://www.w3.org/2000/svg";

  function element(name, attributes, text) {
    var node = name.indexOf("svg:") === 0 ? document.createElementNS(SVG, name.slice(4))
                                          : document.createElement(name);
    for (var key in attributes) node.setAttribute(key, attributes[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cell(tag, text, code, numeric) {
    var td = element(tag, tag === "th" ? { "class": "head" } : (numeric ? { "class": "rpg-num" } : {}));
    var p = element("p");
    if (code && text) {
      var literal = element("code", { "class": "docutils literal notranslate" });
      literal.appendChild(element("span", { "class": "pre" }, text));
      p.appendChild(literal);
    } else {
      p.textContent = text;
    }
    td.appendChild(p);
    return td;
  }

  function fillTable(table, data) {
    var caption = table.querySelector("caption .caption-text") || table.querySelector("caption");
    if (caption) caption.textContent = data.caption;
    var head = table.tHead, body = table.tBodies[0];
    var row = element("tr", { "class": "row-odd" });
    data.columns.forEach(function (name) { row.appendChild(cell("th", name, false, false)); });
    head.replaceChildren(row);
    var rows = data.rows.map(function (cells, number) {
      var tr = element("tr", { "class": number % 2 ? "row-odd" : "row-even" });
      cells.forEach(function (text, column) {
        tr.appendChild(cell("td", text, data.code[column], data.numeric[column]));
      });
      return tr;
    });
    body.replaceChildren.apply(body, rows);
  }

  function ratio(text) {
    if (text === null) return null;
    var parts = text.split("/");
    return 100 * Number(parts[0]) / Number(parts[1]);
  }

  /* The chart the build draws (sphinx_rpg/charts.py, the same steps in the same order), redrawn from
   * the data: x = first column, y = percent.  The browser tests compare the two drawings. */
  function chartSvg(data, kind) {
    var width = 560, height = 300, left = 52, right = 26, top = data.caption ? 30 : 12, bottom = 46;
    var names = Object.keys(data.series), xs = data.x.filter(function (x) { return x !== null; });
    if (!names.length || !xs.length) return null;
    var legend = [];  /* rows above the plot, wrapped at the right margin (charts.legend_places) */
    if (names.length > 1) {
      var at = left, row = 0;
      names.forEach(function (name) {
        var wide = 12 + 6 + 8.5 * name.length + 18;
        if (at + wide > width - right && at > left) { row += 1; at = left; }
        legend.push([at, top + 10 + 18 * row]);
        at += wide;
      });
      top += 18 * (row + 1) + 8;
    }
    var low = Math.min.apply(null, xs), high = Math.max.apply(null, xs);
    if (kind === "bar") { low -= 0.5; high += 0.5; }
    if (high === low) { low -= 1; high += 1; }
    var plotW = width - left - right, plotH = height - top - bottom;
    function X(x) { return left + (x - low) / (high - low) * plotW; }
    function Y(y) { return top + plotH - y / 100 * plotH; }
    var svg = element("svg:svg", { viewBox: "0 0 " + width + " " + height, role: "img",
                                   "aria-label": data.description || data.caption || "chart",
                                   "class": "rpg-odds-chart" });
    if (data.caption) svg.appendChild(element("svg:text", { x: width / 2, y: 18, "text-anchor": "middle" }, data.caption));
    [0, 25, 50, 75, 100].forEach(function (y) {
      svg.appendChild(element("svg:line", { x1: left, x2: width - right, y1: Y(y), y2: Y(y),
                                            stroke: "currentColor", "stroke-opacity": y ? 0.2 : 0.8 }));
      svg.appendChild(element("svg:text", { x: left - 6, y: Y(y) + 4, "text-anchor": "end" }, String(y)));
    });
    svg.appendChild(element("svg:text", { x: 12, y: top + plotH / 2, transform: "rotate(-90 12 " + (top + plotH / 2) + ")",
                                          "text-anchor": "middle" }, "%"));
    var step = Math.max(1, Math.ceil((Math.ceil(high) - Math.floor(low)) / 12));
    for (var t = Math.ceil(low); t <= high; t += step) {
      svg.appendChild(element("svg:text", { x: X(t), y: top + plotH + 18, "text-anchor": "middle" }, String(t)));
    }
    svg.appendChild(element("svg:text", { x: left + plotW / 2, y: height - 6, "text-anchor": "middle" }, data.columns[0]));
    var slot = plotW / (high - low) * 0.8 / names.length;
    names.forEach(function (name, number) {
      var colour = COLOURS[number % COLOURS.length], points = [];
      data.series[name].forEach(function (value, i) {
        var y = ratio(value), x = data.x[i];
        if (y === null || x === null) return;
        if (kind === "bar") {
          svg.appendChild(element("svg:rect", { x: X(x) - 0.4 * plotW / (high - low) + number * slot, y: Y(y),
                                                width: slot, height: Y(0) - Y(y), fill: colour }));
        } else {
          points.push(X(x) + "," + Y(y));
          svg.appendChild(element("svg:circle", { cx: X(x), cy: Y(y), r: 3, fill: colour }));
        }
      });
      if (points.length) svg.appendChild(element("svg:polyline", { points: points.join(" "), fill: "none",
                                                                     stroke: colour, "stroke-width": 1.5 }));
      if (legend.length) {
        svg.appendChild(element("svg:rect", { x: legend[number][0], y: legend[number][1] - 6, width: 12, height: 12,
                                              fill: colour }));
        svg.appendChild(element("svg:text", { x: legend[number][0] + 18, y: legend[number][1] + 5 }, name));
      }
    });
    return svg;
  }

  function setUp(box) {
    var script = box.querySelector("script.rpg-odds-data"), form = box.querySelector("form.rpg-odds-controls");
    var table = box.querySelector("table");
    if (!script || !form || !table) return;
    var data = JSON.parse(script.textContent);
    var selects = Array.prototype.slice.call(form.querySelectorAll("select"));

    function position() {
      return selects.reduce(function (at, select, number) {
        return at * data.params[number].values.length + select.selectedIndex;
      }, 0);
    }

    function show() {
      var shown = data.tables[data.index[position()]];
      fillTable(table, shown);
      if (data.chart && shown.series) {
        var holder = box.querySelector(".rpg-chart");
        if (!holder) { holder = element("div", { "class": "rpg-chart" }); box.insertBefore(holder, table); }
        var svg = chartSvg(shown, data.chart);
        if (svg) holder.replaceChildren(svg);
      }
    }

    function remember() {
      var query = selects.map(function (select, number) {
        return encodeURIComponent(data.params[number].name) + "=" +
               encodeURIComponent(data.params[number].values[select.selectedIndex]);
      }).join("&");
      history.replaceState(null, "", "#" + box.id + "?" + query);
    }

    function recall() { // address.js reads the address: a malformed or huge link changes nothing
      var params = window.rpgAddress ? window.rpgAddress.read(box.id) : null;
      if (!params) return false;
      params.forEach(function (value, name) {
        data.params.forEach(function (param, number) {
          var at = param.values.indexOf(value);
          if (param.name === name && at >= 0) selects[number].selectedIndex = at;
        });
      });
      return true;
    }

    /* The address takes the choice once the new table is painted: history.replaceState costs Chromium
     * 10-20 ms, which the table need not wait for; changes within one frame are remembered once. */
    var remembering = false;
    function rememberSoon() {
      if (remembering) return;
      remembering = true;
      requestAnimationFrame(function () { setTimeout(function () { remembering = false; remember(); }, 0); });
    }

    /* Screen readers hear which table now shows (the live region beside the form): the swap is silent. */
    var announce = box.querySelector(".rpg-odds-announce");
    function say() {
      if (!announce) return;
      var shown = data.tables[data.index[position()]];
      var chosen = selects.map(function (select, number) {
        var label = select.closest("label"), name = label && label.querySelector(".rpg-odds-label");
        return (name ? name.textContent : data.params[number].name) + " " + select.options[select.selectedIndex].text;
      }).join(", ");
      announce.textContent = "Table updated: " + (shown.caption ? shown.caption + ", " : "") + chosen + ", " +
        shown.rows.length + " rows.";
    }

    form.addEventListener("change", function () { show(); say(); rememberSoon(); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    var linked = recall();
    show();
    if (linked) box.scrollIntoView();
    window.addEventListener("hashchange", function () { if (recall()) show(); });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".rpg-odds-vary"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
