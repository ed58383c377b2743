// stackd dashboard: the live table of /api/v1/top, the stacks of one
// process (/api/v1/processes/PID) and its history (/api/v1/series).
// Plain DOM and SVG, no libraries: it is served by stackd on hosts that are
// often offline.
"use strict";

const state = { sort: "cpu_percent", selected: null, timer: null, warnBelow: 0.95 };
const COLORS = {
  retiring: "#2e7d32", bad_speculation: "#c62828", frontend_bound: "#6a1b9a",
  backend_bound: "#1565c0", smt_contention: "#8d6e63",
};
const PALETTE = ["#00838f", "#ef6c00", "#5d4037", "#455a64", "#ad1457", "#558b2f", "#283593"];
const PREFERRED = ["frontend_bound", "backend_bound", "bad_speculation", "retiring", "ipc",
  "gflops", "switches_per_cpu_s", "page_faults_per_cpu_s", "migrations_per_cpu_s"];

const $ = (id) => document.getElementById(id);

function fmt(v, key) {
  if (v === null || v === undefined) return "–";
  if (typeof v !== "number" || key === "pid" || key === "uid") return String(v);
  if (key === "cpu_percent") return v.toFixed(1) + "%";
  if (/_bound$|^retiring$|^bad_speculation$|_share$|coverage$/.test(key))
    return (v * 100).toFixed(1) + "%";
  if (key === "task_clock_ns") return (v / 1e9).toFixed(3) + " s";
  if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(1) + "M";
  if (Math.abs(v) >= 1e4) return (v / 1e3).toFixed(1) + "k";
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "muted";
}

// The daemon's writer, live: an outage shows while it lasts.
function showWriter(w) {
  const b = $("outage");
  if (!w || !w.failing) {
    b.hidden = true;
    return;
  }
  const since = new Date(w.failing_since_ns / 1e6).toLocaleTimeString();
  b.textContent = `Writes to the database are failing since ${since}: ${w.last_error} · ` +
    `${w.pending_intervals} interval(s) waiting in memory, ${w.dropped_intervals} dropped`;
  b.hidden = false;
}

// The headline of the collector's health: how much of the host's busy CPU
// time and of its switches stackd could charge to a process (last 60 s).
function showAttribution(a) {
  const el = $("attribution");
  if (!a) {
    el.textContent = "";
    return;
  }
  const pct = (x) => (100 * x).toFixed(1) + "%";
  state.warnBelow = a.warn_below;
  el.textContent = `attributed ${pct(a.cpu_share)} of busy CPU, ${pct(a.switch_share)} of ` +
    "switches (60 s)" + (a.low ? ` · LOW, below ${pct(a.warn_below)}: figures miss part of ` +
    "the host's work" : "");
  el.classList.toggle("low", a.low);
}

async function loadSystem() {
  try {
    const s = await getJSON("/api/v1/system");
    $("system").textContent = `${s.host} · model ${s.model} · stackd ${s.version} · up ` +
      `${Math.round(s.uptime_s)} s · lost records (60 s) ${s.collector.lost_records}`;
    showAttribution(s.attribution);
    showWriter(s.writer);
  } catch (e) {
    $("system").textContent = "system: " + e.message;
  }
}

function columnsOf(rows) {
  const keys = rows.length ? Object.keys(rows[0]) : [];
  const cols = ["pid", "comm", "cpu_percent", "context_switches"];
  for (const k of PREFERRED) if (keys.includes(k)) cols.push(k);
  cols.push("unit", "cmdline");
  return cols;
}

function renderTop(rows) {
  const cols = columnsOf(rows);
  const head = $("top").tHead, body = $("top").tBodies[0];
  head.replaceChildren();
  const tr = head.insertRow();
  for (const c of cols) {
    const th = document.createElement("th");
    th.textContent = c;
    th.dataset.col = c;
    if (c === "comm" || c === "unit" || c === "cmdline") th.className = "text";
    if (c === state.sort) th.classList.add("sorted");
    th.addEventListener("click", () => { state.sort = c; refresh(); });
    tr.appendChild(th);
  }
  body.replaceChildren();
  for (const row of rows) {
    const r = body.insertRow();
    r.dataset.pid = row.pid;
    if (state.selected === row.pid) r.className = "selected";
    for (const c of cols) {
      const td = r.insertCell();
      td.textContent = fmt(row[c], c);
      if (c === "comm" || c === "unit" || c === "cmdline") td.className = "text";
      if (c === "cmdline") td.title = row[c] || "";
    }
  }
}

async function refresh() {
  const params = new URLSearchParams({ window: $("window").value, sort: state.sort,
    limit: "50" });
  const comm = $("filter").value.trim();
  if (comm) params.set("comm", comm);
  try {
    renderTop((await getJSON("/api/v1/top?" + params)).rows);
    setStatus("updated " + new Date().toLocaleTimeString(), false);
  } catch (e) {
    setStatus(e.message, true);
  }
}

// One horizontal stacked bar of the given nodes (value = share of the whole).
function bar(nodes) {
  const div = document.createElement("div");
  div.className = "bar";
  nodes.forEach((n, i) => {
    const part = document.createElement("div");
    const w = Math.max(0, Math.min(1, n.value)) * 100;
    part.style.width = w + "%";
    part.style.background = COLORS[n.name] || PALETTE[i % PALETTE.length];
    part.title = `${n.name}: ${(n.value * 100).toFixed(1)}% (coverage ` +
      `${(n.coverage * 100).toFixed(0)}%)`;
    if (w > 8) part.textContent = n.name;
    div.appendChild(part);
  });
  return div;
}

// Level 3 under one level-2 node: perf's tma_* nodes are shares of
// cycles, not of the parent's slots, so each gets its own meter (they
// need not add up to the parent).
function levelThree(parent, nodes) {
  const box = document.createElement("div");
  box.className = "level3";
  const label = document.createElement("div");
  label.className = "legend";
  label.textContent = `${parent.name} → level 3 (share of cycles)`;
  box.appendChild(label);
  for (const n of nodes) {
    const row = document.createElement("div");
    row.className = "meter-row";
    const name = document.createElement("span");
    name.textContent = n.name;
    const meter = document.createElement("div");
    meter.className = "meter";
    const fill = document.createElement("div");
    fill.style.width = Math.max(0, Math.min(1, n.value)) * 100 + "%";
    meter.appendChild(fill);
    const value = document.createElement("span");
    value.textContent = (n.value * 100).toFixed(1) + "%";
    row.title = n.help + (n.perf_names ? ` (perf: ${n.perf_names.join(", ")})` : "");
    row.append(name, meter, value);
    box.appendChild(row);
  }
  return box;
}

function renderStacks(detail) {
  const box = $("stacks");
  box.replaceChildren();
  const byStack = {};
  const scalars = [];
  for (const m of detail.metrics) {
    if (m.stack) (byStack[m.stack] = byStack[m.stack] || []).push(m);
    else scalars.push(m);
  }
  for (const [name, nodes] of Object.entries(byStack)) {
    const sec = document.createElement("div");
    sec.className = "stack";
    const h = document.createElement("h4");
    h.textContent = name === "topdown" ? "Top-Down (share of slots)" : name;
    sec.appendChild(h);
    const top = nodes.filter((n) => !n.parent);
    sec.appendChild(bar(top));
    const legend = document.createElement("div");
    legend.className = "legend";
    legend.textContent = top.map((n) => `${n.name} ${(n.value * 100).toFixed(1)}%`).join(" · ");
    sec.appendChild(legend);
    for (const parent of top) {
      const kids = nodes.filter((n) => n.parent === parent.name);
      if (!kids.length) continue;
      const child = document.createElement("div");
      child.className = "children";
      const label = document.createElement("div");
      label.className = "legend";
      label.textContent = parent.name + " → " +
        kids.map((n) => `${n.name} ${(n.value * 100).toFixed(1)}%`).join(" · ");
      child.appendChild(label);
      // children as shares of their parent's width
      child.appendChild(bar(kids.map((k) => ({ ...k, value: parent.value > 0 ?
        k.value / parent.value : 0 }))));
      for (const kid of kids) {
        const grand = nodes.filter((n) => n.parent === kid.name);
        if (grand.length) child.appendChild(levelThree(kid, grand));
      }
      sec.appendChild(child);
    }
    box.appendChild(sec);
  }
  if (scalars.length) {
    const t = document.createElement("table");
    const hr = t.createTHead().insertRow();
    for (const c of ["metric", "value", "coverage"]) {
      const th = document.createElement("th");
      th.textContent = c;
      hr.appendChild(th);
    }
    const tb = t.createTBody();
    for (const m of scalars) {
      const r = tb.insertRow();
      r.insertCell().textContent = m.name;
      r.insertCell().textContent = fmt(m.value, m.name);
      r.insertCell().textContent = fmt(m.coverage, "coverage");
      r.title = m.help;
    }
    box.appendChild(t);
  }
}

function drawChart(series) {
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const pts = series.points.filter((p) => p.value !== null);
  $("chart-note").textContent = `${series.metric} (${series.unit}), ${pts.length} points, ` +
    `step ${series.step_ns / 1e9} s, from ${series.source}`;
  if (!pts.length) return;
  const t0 = series.from_ns, t1 = series.to_ns;
  const max = Math.max(...pts.map((p) => p.value)) || 1;
  const x = (t) => ((t - t0) / (t1 - t0)) * 800;
  const y = (v) => 190 - (v / max) * 180;
  // A stretch with no data is a gap, never a line across it: one polyline
  // per run of points (a lone point still shows, as a dot).
  const runs = [];
  for (const p of pts) {
    if (!runs.length || p.gap_before) runs.push([]);
    runs[runs.length - 1].push(p);
  }
  for (const run of runs) {
    const line = document.createElementNS(ns, "polyline");
    const xy = run.map((p) => `${x(p.t_ns).toFixed(1)},${y(p.value).toFixed(1)}`);
    line.setAttribute("points", (run.length === 1 ? [xy[0], xy[0]] : xy).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#1565c0");
    line.setAttribute("stroke-width", "2");
    line.setAttribute("stroke-linecap", "round");
    svg.appendChild(line);
  }
  // A point where stackd could not charge part of the host's time to
  // anyone may be low: an orange ring on it, saying how much was charged.
  const low = pts.filter((p) => p.low_attribution);
  for (const p of low) {
    const ring = document.createElementNS(ns, "circle");
    ring.setAttribute("class", "low-attribution");
    ring.setAttribute("cx", x(p.t_ns).toFixed(1));
    ring.setAttribute("cy", y(p.value).toFixed(1));
    ring.setAttribute("r", "5");
    ring.setAttribute("fill", "none");
    ring.setAttribute("stroke", "#e65100");
    ring.setAttribute("stroke-width", "2");
    const tip = document.createElementNS(ns, "title");
    tip.textContent = `attributed ${(100 * p.attributed_cpu).toFixed(1)}% of busy CPU, ` +
      `${(100 * p.attributed_switches).toFixed(1)}% of switches: may be missing time`;
    ring.appendChild(tip);
    svg.appendChild(ring);
  }
  if (runs.length > 1)
    $("chart-note").textContent += ` · ${runs.length - 1} gap(s) with no data`;
  if (low.length)
    $("chart-note").textContent += ` · ${low.length} point(s) with attributed share below ` +
      `${(100 * state.warnBelow).toFixed(0)}% (orange rings): they may be missing time`;
  const label = document.createElementNS(ns, "text");
  label.setAttribute("x", "4");
  label.setAttribute("y", "14");
  label.setAttribute("font-size", "12");
  label.textContent = "max " + fmt(max, series.metric);
  svg.appendChild(label);
}

async function loadSeries() {
  if (state.selected === null) return;
  const metric = $("series-metric").value || "cpu_percent";
  const params = new URLSearchParams({ who: "pid:" + state.selected, metric, from: "10m" });
  try {
    drawChart(await getJSON("/api/v1/series?" + params));
  } catch (e) {
    $("chart-note").textContent = e.message;
  }
}

async function select(pid) {
  state.selected = pid;
  for (const r of $("top").tBodies[0].rows)
    r.classList.toggle("selected", Number(r.dataset.pid) === pid);
  try {
    const d = await getJSON(`/api/v1/processes/${pid}?window=${$("window").value}`);
    $("detail").hidden = false;
    const p = d.processes[0];
    $("detail-title").textContent = `${p.comm} (pid ${p.pid})`;
    $("detail-meta").textContent = `${d.model} · CPU ${fmt(d.cpu_percent, "cpu_percent")} · ` +
      (p.unit ? p.unit + " · " : "") + (p.cmdline || "");
    renderStacks(d);
    const sel = $("series-metric");
    const current = sel.value;
    sel.replaceChildren();
    for (const name of ["cpu_percent", ...d.metrics.map((m) => m.name)]) {
      const o = document.createElement("option");
      o.value = o.textContent = name;
      sel.appendChild(o);
    }
    if ([...sel.options].some((o) => o.value === current)) sel.value = current;
    await loadSeries();
  } catch (e) {
    setStatus(e.message, true);
  }
}

function schedule() {
  clearInterval(state.timer);
  state.timer = setInterval(() => {
    if (!$("pause").checked) {
      refresh();
      loadSystem();
    }
  }, 2000);
}

// One listener on the table body, which outlives its rows: a click that
// lands while a refresh replaces the rows still selects the process.
$("top").tBodies[0].addEventListener("click", (e) => {
  const tr = e.target.closest("tr");
  if (tr && tr.dataset.pid) select(Number(tr.dataset.pid));
});
$("window").addEventListener("change", refresh);
$("filter").addEventListener("change", refresh);
$("series-metric").addEventListener("change", loadSeries);
loadSystem();
refresh();
schedule();
