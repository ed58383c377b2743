// stackd dashboard, the drill-down's stacks: one target's metrics
// (/api/v1/processes/PID, /comms/, /units/) as `stackctl show` draws them -
// each node a bar against the same scale (a share against 1, a CPI part
// against the stack's positive sum), so a level-2 bar is as long as its
// share of the whole, never stretched to its parent - labelled in words
// from the API's own help, the identifier in the tooltip.  Loaded before
// app.js; uses its helpers (el, $, fmt*, human, NAMES, COLORS, PALETTE)
// only when called.
"use strict";

// Top-Down's own vocabulary (Yasin's tree, level 2) reads as words; the
// rest take their label from their help.
const TD_NAMES = {
  fetch_latency: "Fetch latency", fetch_bandwidth: "Fetch bandwidth",
  branch_mispredicts: "Branch mispredicts", machine_clears: "Machine clears",
  memory_bound: "Memory bound", core_bound: "Core bound", light_ops: "Light operations",
  heavy_ops: "Heavy operations",
};
const baseName = (name) => name.replace(/@.*/, "");   // a hybrid CPU's "name@cpu_atom"
// A stack's nodes' helps open with what they are parts of ("FLOPS stack:
// ", "frontend cycles: "): the stack's title says it once.
const PREFIX = /^([^:()]{1,40}): (?=.{10})/;
const helpPrefix = (help) => (PREFIX.exec(help || "") || [])[1] || null;

// A metric's label: the dashboard's name for the common ones, else the
// first clause of its help ("cycle-accounted CPI stack: stalled on L3
// misses (DRAM)" -> "Stalled on L3 misses"), at most ~60 characters.
function labelOf(m) {
  const b = baseName(m.name);
  if (NAMES[b] || TD_NAMES[b]) return NAMES[b] || TD_NAMES[b];
  let h = (m.help || "").replace(PREFIX, "")
    .replace(/^This (metric|category) (represents|estimates|approximates) (the )?/i, "");
  // a short aside stays out ("(MITE)", "(DRAM)"), a long one ends it
  h = h.replace(/ \([^()]{1,14}\)/g, "").split(/ \(| - |; |\. |: /)[0].trim();
  if (!h) return human(b);
  if (h.length > 62) h = h.slice(0, 60).replace(/\s+\S*$/, "") + "…";
  return h[0].toUpperCase() + h.slice(1);
}
const tipOf = (m) => `${m.name}: ${m.help || ""}` +
  (m.perf_names ? ` (perf: ${m.perf_names.join(", ")})` : "");

// The counter groups' coverage in words: how much of the CPU time they
// ran (they take turns on the counters), each group's events in the
// tooltip.
function coverageText(groups) {
  const cov = groups.map((g) => g.coverage).filter(Number.isFinite);
  if (!cov.length) return "";
  const lo = Math.min(...cov), hi = Math.max(...cov);
  const share = lo === hi ? fmtShare(lo) : `${fmtShare(lo)}–${fmtShare(hi)}`;
  return groups.length === 1 ? `the counters ran ${share} of the CPU time` :
    `each of the ${groups.length} counter groups ran ${share} of the CPU time (they take ` +
    "turns on the counters; the figures are scaled up from that share)";
}
const coverageTip = (groups) => groups.map((g) => `${g.name} (${Object.keys(g.counts || {})
  .join(", ")}): ${fmtShare(g.coverage)}`).join("\n");

function bar(nodes) {
  const div = el("div", { className: "bar" });
  nodes.forEach((n, i) => {
    const w = Math.max(0, Math.min(1, n.value)) * 100;
    const part = el("div", { title: `${labelOf(n)}: ${fmtShare(n.value)} (coverage ` +
      `${fmtShare(n.coverage)})`, style: `width:${w}%;background:${COLORS[baseName(n.name)] ||
      PALETTE[i % PALETTE.length]}` });
    if (w > 14) part.textContent = labelOf(n);
    div.append(part);
  });
  return div;
}

// One node as `stackctl show` prints it: its label indented by depth, a
// bar of value / scale, the value with its "~" and "!" marks, coverage.
function nodeRow(n, depth, scale, color, inCpi, unit) {
  const w = scale > 0 ? Math.max(0, Math.min(1, n.value / scale)) * 100 : 0;
  const row = el("div", { className: `meter-row depth${depth}`, title: tipOf(n) },
    el("span", { className: "label", textContent: labelOf(n) }),
    el("div", { className: "meter" }, el("div", { style: `width:${w}%;background:${color}` })),
    el("span", { className: "value", textContent: (inCpi ? fmtNum(n.value) : fmtShare(n.value)) +
      marks(n), title: unit || "" }),
    el("span", { className: "cov muted", textContent: fmtShare(n.coverage) }));
  row.dataset.name = n.name;
  row.dataset.value = n.value;
  row.dataset.scale = scale;
  return row;
}

// Level 3 under one level-2 node: perf's tma_* nodes are shares of
// cycles, not of the parent's slots, so each gets its own meter (they
// need not add up to the parent).
function levelThree(parent, nodes, color) {
  const box = el("div", { className: "level3" },
    el("div", { className: "legend", textContent: `${labelOf(parent)} → level 3 (each a ` +
      `share of cycles, not of ${labelOf(parent)}'s slots: they need not add up to it)` }));
  for (const n of nodes) box.append(nodeRow(n, 2, 1, color, false, "share of cycles"));
  return box;
}

// The regression CPI stack is an estimate from penalties fitted across the
// host's processes (docs/api.md, cpi_fit): its label and the fit's quality
// beside it, or why the model's stack is missing.
function cpiFitNote(fit, toNs) {
  if (!fit.fitted) return el("div", { className: "legend", textContent: fit.reason });
  const s = Math.max(0, (toNs - fit.created_ns) / 1e9);
  const ago = s < 90 ? `${s.toFixed(0)} s` : s < 5400 ? `${(s / 60).toFixed(0)} min` :
    `${(s / 3600).toFixed(0)} h`;
  const fix = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : "n/a");
  const procs = Number.isFinite(fit.processes) ?
    ` of ${fit.processes} process${fit.processes === 1 ? "" : "es"}` : "";
  return el("div", { className: "legend", textContent: `${fit.label}: R² ${fix(fit.r2, 2)} ` +
    `within processes on ${fit.rows.toLocaleString("en")} process-intervals${procs}, ` +
    `held-out error ` +
    `${Number.isFinite(fit.held_out_error) ? fix(100 * fit.held_out_error, 1) + "%" : "n/a"}, ` +
    `fitted ${ago} ago` +
    fit.dropped.map((x) => `; dropped ${x.regressor}: ${x.reason}`).join("") });
}

// CPI components are cycles per instruction, not shares: drawn as shares
// of their positive sum (the measured CPI; an overlap part is negative and
// listed, not drawn), labelled with their values.
const cpiShares = (top) => {
  const total = top.reduce((a, n) => a + Math.max(0, n.value), 0);
  return top.map((n) => ({ ...n, value: total > 0 ? Math.max(0, n.value) / total : 0 }));
};

// A row's approximation, as its help names it ("(approximation: ...)"),
// and what a sanity check flags in it (the API's "health"): a "~" and a
// "!" after its value, the text in the tooltip.
function approxOf(help) {
  const m = /\(((?:approximation|lower bound|upper bound|lower estimate)[^)]*)\)/.exec(help || "") ||
    /((?:approximation|unknown)[^.;]*)/.exec(help || "");
  return m ? m[1] : null;
}
function marks(n) {
  const a = approxOf(n.help);
  return (a ? "~" : "") + (n.health && n.health.length ? "!" : "");
}
function markNote(nodes) {
  const lines = [];
  for (const n of nodes) {
    const a = approxOf(n.help);
    if (a) lines.push(`~ ${labelOf(n)}: ${a}`);
    if (n.health && n.health.length) lines.push(`! ${labelOf(n)}: ${n.health.join("; ")}`);
  }
  return lines.length ? el("div", { className: "legend", textContent: lines.join(" · ") }) : null;
}

// A stack's heading: the API's (it names the stage whose slots they are),
// else by its unit; a hybrid CPU's are one per core type
// ("topdown@cpu_atom"), titled with it, as `stackctl show` does.
function stackTitle(d, name, inCpi, nodes) {
  if (d.stack_titles && d.stack_titles[name]) return d.stack_titles[name];
  const at = name.indexOf("@");
  if (at > 0) {
    const type = name.slice(at + 1);
    return `${type === "cpu_atom" ? "E-cores" : "P-cores"} (${type}): ` +
      stackTitle(d, name.slice(0, at), inCpi, nodes);
  }
  if (name === "topdown" && d.metrics.some((m) => m.core_type && m.core_type !== "both"))
    return "Top-Down, both core types: each one's shares weighted by its cycles";
  if (name === "cpi") return "CPI stack (cycles per instruction)";
  if (name === "cpi_cycles") return "Cycle-accounted CPI stack (cycles per instruction by cause)";
  if (name === "flops") return "FLOPS stack (share of the core's peak FLOP rate)";
  if (name === "frontend") return "Frontend delivery";
  // another stack: what its nodes' helps say they are parts of
  const pre = nodes && nodes.length ? helpPrefix(nodes[0].help) : null;
  const t = pre && nodes.every((n) => helpPrefix(n.help) === pre) ?
    pre[0].toUpperCase() + pre.slice(1) : human(baseName(name));
  return inCpi ? `${t} (cycles per instruction)` : t;
}

// A range "low–high"; a stage with no counter for it reads "unknown".
const rangeText = (r) => `${Number.isFinite(r.low) ? fmtShare(r.low) : "unknown"}–` +
  `${Number.isFinite(r.high) ? fmtShare(r.high) : "unknown"}`;

// The metrics split: nodes by stack, the _low/_high ranges by the metric
// they bound (a hybrid CPU's "x_low@cpu_core" under "x@cpu_core"), the
// rest as scalars.
function splitMetrics(metrics) {
  const byStack = {}, scalars = [], ranges = {};
  const names = new Set(metrics.map((m) => m.name));
  for (const m of metrics) {
    const r = /^(.*)_(low|high)(@.*)?$/.exec(m.name);
    const other = r ? `${r[1]}_${r[2] === "low" ? "high" : "low"}${r[3] || ""}` : null;
    if (r && (names.has(r[1] + (r[3] || "")) || names.has(other)))
      (ranges[r[1] + (r[3] || "")] = ranges[r[1] + (r[3] || "")] || {})[r[2]] = m.value;
    else if (m.stack) (byStack[m.stack] = byStack[m.stack] || []).push(m);
    else scalars.push(m);
  }
  return { byStack, scalars, ranges };
}

// One stack: its level 1 as one bar, then every node as its own row.
function stackSection(d, name, nodes, ranges) {
  const top = nodes.filter((n) => !n.parent);
  // a stack of ratios (CPI) is in cycles per instruction, not shares
  const cpi = top.length > 0 && top.every((n) => n.unit === "ratio");
  const scale = cpi ? top.reduce((a, n) => a + Math.max(0, n.value), 0) : 1;
  const sec = el("div", { className: "stack" },
    el("h3", { textContent: stackTitle(d, name, cpi, nodes) }),
    bar(cpi ? cpiShares(top) : top), el("div", { className: "legend", textContent: top.map((n) =>
      `${labelOf(n)} ` + (cpi ? fmtNum(n.value) : fmtShare(n.value)) + marks(n) +
      (ranges[n.name] ? ` (range ${rangeText(ranges[n.name])})` : "")).join(" · ") }));
  if (name === "cpi" && d.cpi_fit) sec.append(cpiFitNote(d.cpi_fit, d.window.to_ns));
  const tree = el("div", { className: "tree" }, el("div", { className: "meter-row head muted" },
    el("span", { textContent: cpi ? "cycles per instruction, bars against the measured CPI" :
      "share of the whole, every level against the same scale" }), el("span"),
    el("span", { className: "value", textContent: "value" }),
    el("span", { className: "cov", textContent: "coverage" })));
  top.forEach((parent, i) => {
    const color = COLORS[baseName(parent.name)] || PALETTE[i % PALETTE.length];
    tree.append(nodeRow(parent, 0, scale, color, cpi));
    for (const kid of nodes.filter((n) => n.parent === parent.name)) {
      tree.append(nodeRow(kid, 1, scale, color, cpi));
      const grand = nodes.filter((n) => n.parent === kid.name);
      if (grand.length) tree.append(levelThree(kid, grand, color));
    }
  });
  sec.append(tree);
  const note = markNote(nodes);
  if (note) sec.append(note);
  return sec;
}

function renderStacks(d) {
  const { byStack, scalars, ranges } = splitMetrics(d.metrics);
  const box = $("stacks");
  box.replaceChildren(...Object.entries(byStack).map(([name, nodes]) =>
    stackSection(d, name, nodes, ranges)));
  if (Object.keys(ranges).length)
    box.append(el("div", { className: "stack" }, el("h3", { textContent: d.ranges_title ||
      "Ranges: each loss at two pipeline stages" }), el("div", { className: "legend",
      textContent: Object.entries(ranges).map(([n, r]) =>
        `${labelOf(d.metrics.find((m) => m.name === n) || { name: n })} ${rangeText(r)}`)
        .join(" · ") })));
  if (d.cpi_fit && !byStack.cpi)
    box.append(el("div", { className: "stack" }, el("h3", { textContent: "CPI stack" }),
      cpiFitNote(d.cpi_fit, d.window.to_ns)));
  const t = el("table", { className: "scalars" });
  t.createTHead().append(el("tr", {}, ...["Metric", "Value", "Coverage"].map((h) =>
    el("th", { textContent: h, scope: "col", className: h === "Metric" ? "text" : "" }))));
  const tb = t.createTBody();
  for (const m of scalars) tb.append(el("tr", { title: tipOf(m) },
    el("td", { className: "text", textContent: labelOf(m) +
      (m.core_type && m.core_type !== "both" ? ` (${m.core_type})` : "") }),
    el("td", { textContent: fmtUnit(m.value, m.unit === "per_second" &&
      /\/s$/.test(labelOf(m)) ? "" : m.unit) + marks(m) }),
    el("td", { textContent: fmtShare(m.coverage) })));
  $("scalars").replaceChildren(...(scalars.length ? [el("h3", { textContent: "All figures" }), t] : []));
}
