/* Scaling-efficiency chart as inline SVG: log-2 node axis, one line per fabric, told apart by
   colour, dash pattern and marker shape, labelled at the line ends, with a hidden data table. */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  // Dark enough for 3:1 against white; never the only cue (dashes and markers differ too).
  // One style per fabric of the catalog (12 today); past that, styles repeat.
  var COLOURS = ["#0a5fa8", "#c2410c", "#047857", "#a3307a", "#6d28d9",
                 "#7c5e00", "#1b1f24", "#b3261e", "#0e7490", "#7a4b21", "#4d7c0f", "#9f1239"];
  var DASHES = ["", "8 4", "2 3", "10 3 2 3", "14 5", "5 2 1 2", "1 3", "10 2 2 2 2 2", "4 6",
                "16 3 3 3", "6 2", "12 4 2 4 2 4"];
  var MARKERS = ["circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross",
                 "star", "hexagon", "ring"];

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function markerPath(shape, x, y, r) {
    var s = r, h = r * 1.15, pts, i, a;
    switch (shape) {
      case "square": return "M" + (x - s) + " " + (y - s) + "h" + 2 * s + "v" + 2 * s + "h" + -2 * s + "z";
      case "triangle": return "M" + x + " " + (y - h) + "L" + (x + h) + " " + (y + s * 0.85) + "L" + (x - h) + " " + (y + s * 0.85) + "z";
      case "triangle-down": return "M" + x + " " + (y + h) + "L" + (x + h) + " " + (y - s * 0.85) + "L" + (x - h) + " " + (y - s * 0.85) + "z";
      case "diamond": return "M" + x + " " + (y - h) + "L" + (x + h) + " " + y + "L" + x + " " + (y + h) + "L" + (x - h) + " " + y + "z";
      case "plus": return "M" + (x - h) + " " + y + "H" + (x + h) + "M" + x + " " + (y - h) + "V" + (y + h);
      case "cross": return "M" + (x - s) + " " + (y - s) + "L" + (x + s) + " " + (y + s) + "M" + (x + s) + " " + (y - s) + "L" + (x - s) + " " + (y + s);
      case "star":
        pts = [];
        for (i = 0; i < 10; i++) {
          a = Math.PI / 5 * i - Math.PI / 2;
          var rr = i % 2 ? h * 0.45 : h * 1.1;
          pts.push((x + rr * Math.cos(a)).toFixed(2) + " " + (y + rr * Math.sin(a)).toFixed(2));
        }
        return "M" + pts.join("L") + "z";
      case "hexagon":
        pts = [];
        for (i = 0; i < 6; i++) {
          a = Math.PI / 3 * i;
          pts.push((x + h * Math.cos(a)).toFixed(2) + " " + (y + h * Math.sin(a)).toFixed(2));
        }
        return "M" + pts.join("L") + "z";
      default: // circle and ring
        return "M" + (x - s) + " " + y + "a" + s + " " + s + " 0 1 0 " + 2 * s + " 0a" + s + " " + s + " 0 1 0 " + -2 * s + " 0";
    }
  }

  function drawMarker(parent, index, x, y, r, colour) {
    var shape = MARKERS[index % MARKERS.length];
    var open = shape === "plus" || shape === "cross" || shape === "ring";
    return el("path", {
      d: markerPath(shape, x, y, r),
      fill: open ? (shape === "ring" ? "#fff" : "none") : colour,
      stroke: colour,
      "stroke-width": open ? 2.25 : 1
    }, parent);
  }

  function style(index) {
    return { colour: COLOURS[index % COLOURS.length], dash: DASHES[index % DASHES.length] };
  }

  function pct(v, digits) { return (v * 100).toFixed(digits === undefined ? 1 : digits) + "%"; }

  function fmtNumber(v) {
    if (!isFinite(v)) return "–";
    return Math.round(v).toLocaleString("en-US");
  }

  function swatch(index) {
    var st = style(index);
    var svg = el("svg", { width: 44, height: 16, viewBox: "0 0 44 16", "aria-hidden": "true", focusable: "false" });
    el("line", { x1: 2, y1: 8, x2: 42, y2: 8, stroke: st.colour, "stroke-width": 2.5, "stroke-dasharray": st.dash }, svg);
    drawMarker(svg, index, 22, 8, 4.5, st.colour);
    return svg;
  }

  /* Spread end labels so that none overlaps, keeping each as near its line end as possible. */
  function spread(items, gap, top, bottom) {
    items.sort(function (a, b) { return a.y - b.y; });
    var i;
    for (i = 0; i < items.length; i++) {
      items[i].ly = Math.max(items[i].y, top);
      if (i > 0 && items[i].ly < items[i - 1].ly + gap) items[i].ly = items[i - 1].ly + gap;
    }
    for (i = items.length - 1; i >= 0; i--) {
      var limit = i === items.length - 1 ? bottom : items[i + 1].ly - gap;
      if (items[i].ly > limit) items[i].ly = limit;
    }
    return items;
  }

  function render(container, tableContainer, legendContainer, seriesList, opts) {
    opts = opts || {};
    container.textContent = "";
    tableContainer.textContent = "";
    legendContainer.textContent = "";
    var series = (seriesList || []).filter(function (s) { return s.points && s.points.length; });
    if (!series.length) {
      var none = document.createElement("p");
      none.className = "hint";
      none.textContent = "No efficiency series for this result.";
      container.appendChild(none);
      return;
    }
    var unit = opts.throughputUnit || "tokens/s";
    var width = Math.max(300, Math.round(container.clientWidth || 720));
    var narrow = width < 560;
    var labelWidth = narrow ? 34 : 138;
    var margin = { top: 16, right: labelWidth + 12, bottom: 52, left: 58 };
    var gap = 14;
    var plotH = Math.max(narrow ? 220 : 280, series.length * gap + 10);
    var height = plotH + margin.top + margin.bottom;
    var plotW = width - margin.left - margin.right;

    var nodesAll = [], effAll = [];
    series.forEach(function (s) {
      s.points.forEach(function (p) { nodesAll.push(p.nodes); effAll.push(p.scaling_efficiency); });
    });
    var xMin = Math.min.apply(null, nodesAll), xMax = Math.max.apply(null, nodesAll);
    var lx0 = Math.log2(xMin), lx1 = Math.log2(xMax);
    if (lx1 === lx0) { lx0 -= 1; lx1 += 1; }
    var minEff = Math.min.apply(null, effAll);
    var step = minEff >= 0.8 ? 0.05 : 0.1;
    var yMin = Math.max(0, Math.min(1 - step * 2, Math.floor(minEff / step) * step));
    var yMax = 1.0;

    function X(n) { return margin.left + (Math.log2(n) - lx0) / (lx1 - lx0) * plotW; }
    function Y(e) { return margin.top + (yMax - Math.min(yMax, Math.max(yMin, e))) / (yMax - yMin) * plotH; }

    var titleId = "chart-svg-title", descId = "chart-svg-desc";
    var svg = el("svg", {
      viewBox: "0 0 " + width + " " + height, width: width, height: height,
      role: "img", "aria-labelledby": titleId + " " + descId, focusable: "false"
    });
    el("title", { id: titleId }, svg).textContent = "Scaling efficiency against node count, one line per fabric";
    el("desc", { id: descId }, svg).textContent = "Node count on a log-2 axis from " + xMin + " to " + xMax +
      "; scaling efficiency in percent. The same figures are in the table that follows.";

    // Grid and axes.
    var g = el("g", {}, svg);
    var y, yTicks = [];
    for (y = yMax; y >= yMin - 1e-9; y -= step) yTicks.push(Math.round(y * 1000) / 1000);
    yTicks.forEach(function (t) {
      el("line", { x1: margin.left, x2: margin.left + plotW, y1: Y(t), y2: Y(t), "class": "grid-line" }, g);
      var tx = el("text", { x: margin.left - 8, y: Y(t) + 4, "text-anchor": "end", "class": "tick" }, g);
      tx.textContent = Math.round(t * 100) + "%";
    });
    var xTicks = [];
    for (var p2 = Math.ceil(lx0); p2 <= Math.floor(lx1); p2++) xTicks.push(Math.pow(2, p2));
    nodesAll.forEach(function (n) { if (xTicks.indexOf(n) < 0 && Math.log2(n) % 1 !== 0 && xTicks.length < 12) xTicks.push(n); });
    xTicks.sort(function (a, b) { return a - b; });
    var lastTickX = -Infinity;
    xTicks.forEach(function (t) {
      el("line", { x1: X(t), x2: X(t), y1: margin.top, y2: margin.top + plotH, "class": "grid-line" }, g);
      if (X(t) - lastTickX < 22) return; // keep tick labels from touching
      lastTickX = X(t);
      var tx = el("text", { x: X(t), y: margin.top + plotH + 18, "text-anchor": "middle", "class": "tick" }, g);
      tx.textContent = String(t);
    });
    el("line", { x1: margin.left, x2: margin.left, y1: margin.top, y2: margin.top + plotH, "class": "axis" }, g);
    el("line", { x1: margin.left, x2: margin.left + plotW, y1: margin.top + plotH, y2: margin.top + plotH, "class": "axis" }, g);
    var xl = el("text", { x: margin.left + plotW / 2, y: height - 10, "text-anchor": "middle", "class": "axis-label" }, g);
    xl.textContent = "Nodes (log-2 scale)";
    var yl = el("text", { x: 0, y: 0, "text-anchor": "middle", "class": "axis-label",
      transform: "translate(14 " + (margin.top + plotH / 2) + ") rotate(-90)" }, g);
    yl.textContent = "Scaling efficiency (%)";

    // Lines, markers and end labels.
    var ends = [];
    series.forEach(function (s, i) {
      var st = style(i);
      var highlight = opts.highlightFabric && s.fabric === opts.highlightFabric;
      var line = el("g", { "class": "series", "data-fabric": s.fabric }, svg);
      var d = s.points.map(function (p, k) {
        return (k ? "L" : "M") + X(p.nodes).toFixed(1) + " " + Y(p.scaling_efficiency).toFixed(1);
      }).join("");
      el("path", { d: d, fill: "none", stroke: st.colour, "stroke-width": highlight ? 3.5 : 2,
        "stroke-dasharray": st.dash, "stroke-linejoin": "round", "stroke-linecap": "round" }, line);
      s.points.forEach(function (p) {
        drawMarker(line, i, X(p.nodes), Y(p.scaling_efficiency), narrow ? 3.5 : 4.5, st.colour);
      });
      var last = s.points[s.points.length - 1];
      ends.push({ i: i, s: s, x: X(last.nodes), y: Y(last.scaling_efficiency), colour: st.colour });
    });
    spread(ends, gap, margin.top + 4, margin.top + plotH);
    var labels = el("g", { "class": "end-labels" }, svg);
    ends.forEach(function (e) {
      var lx = margin.left + plotW + 8;
      el("path", { d: "M" + (e.x + 5) + " " + e.y + "L" + (lx - 2) + " " + e.ly, stroke: e.colour,
        "stroke-width": 1, fill: "none", opacity: 0.8 }, labels);
      var t = el("text", { x: lx, y: e.ly + 4, fill: e.colour, "class": "end-label",
        "font-weight": opts.highlightFabric === e.s.fabric ? "700" : "500" }, labels);
      t.textContent = narrow ? String(e.i + 1) : e.s.fabric;
    });
    container.appendChild(svg);

    // Legend: swatch (colour, dash, marker) and the fabric's full name.
    var ul = document.createElement("ul");
    ul.className = "legend";
    ul.setAttribute("aria-label", "Legend");
    series.forEach(function (s, i) {
      var li = document.createElement("li");
      li.appendChild(swatch(i));
      var span = document.createElement("span");
      span.textContent = (narrow ? (i + 1) + ": " : "") + s.fabric_name + " (" + s.fabric + ")" +
        (opts.highlightFabric === s.fabric ? " — rank 1" : "");
      li.appendChild(span);
      ul.appendChild(li);
    });
    legendContainer.appendChild(ul);

    // The same figures for screen readers.
    // A table ignores a 1px box, so the wrapper is what hides it visually.
    var hidden = document.createElement("div");
    hidden.className = "visually-hidden";
    var table = document.createElement("table");
    table.id = "chart-data";
    var cap = document.createElement("caption");
    cap.textContent = "Chart data: scaling efficiency, throughput and communication share by fabric and node count";
    table.appendChild(cap);
    var thead = table.createTHead().insertRow();
    ["Fabric", "Nodes", "Scaling efficiency", "Throughput (" + unit + ")", "Communication share"].forEach(function (h) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      thead.appendChild(th);
    });
    var tbody = table.createTBody();
    series.forEach(function (s) {
      s.points.forEach(function (p) {
        var row = tbody.insertRow();
        var th = document.createElement("th");
        th.scope = "row";
        th.textContent = s.fabric_name;
        row.appendChild(th);
        row.insertCell().textContent = String(p.nodes);
        row.insertCell().textContent = pct(p.scaling_efficiency);
        row.insertCell().textContent = fmtNumber(p.throughput);
        row.insertCell().textContent = pct(p.communication_share);
      });
    });
    hidden.appendChild(table);
    tableContainer.appendChild(hidden);
  }

  window.SizingChart = { render: render, swatch: swatch };
})();
