// stackd dashboard: the host's CPU over time (/api/v1/series who=host),
// the process table (/api/v1/top) and, beside it, one process's or group's
// full stack and history (/api/v1/processes/PID, /comms/, /units/).  The
// view lives in the URL (#/process/1234?window=1h) so a link reopens it.
// Plain DOM and hand-made SVG, no libraries: stackd serves it on hosts that
// are often offline, under a CSP that allows only its own files.
"use strict";

const WINDOWS = [ // label, seconds, series step (s): at most ~400 points
  ["5m", 300, 1], ["1h", 3600, 10], ["6h", 21600, 60], ["1d", 86400, 300],
  ["7d", 604800, 1800], ["30d", 2592000, 7200]];
const TOP_MAX_S = 86400; // /api/v1/top's window limit (docs/api.md)
const L1 = ["retiring", "bad_speculation", "frontend_bound", "backend_bound", "smt_contention"];
const COLORS = {
  retiring: "#2e7d32", bad_speculation: "#c62828", frontend_bound: "#6a1b9a",
  backend_bound: "#1565c0", smt_contention: "#8d6e63", cpu: "#00838f",
};
const PALETTE = ["#00838f", "#ef6c00", "#5d4037", "#455a64", "#ad1457", "#558b2f", "#283593"];
const NAMES = { // human names of the API's fields
  retiring: "Retiring", bad_speculation: "Bad speculation", frontend_bound: "Frontend bound",
  backend_bound: "Backend bound", smt_contention: "SMT contention", ipc: "IPC", cpi: "CPI",
  gflops: "GFLOP/s", cpu_percent: "CPU %", switches_per_cpu_s: "Switches per CPU-second",
  page_faults_per_cpu_s: "Faults per CPU-second", migrations_per_cpu_s: "Migrations per CPU-second",
};
const BY_KEY = { process: "comm", comm: "comm", unit: "unit", user: "user",
  namespace: "namespace", pod: "pod", container: "container" };
// Kubernetes' groupings: a pod is named within its namespace, a container
// within its pod; they have no drill-down (group by process and filter).
const K8S_BY = { namespace: ["namespace"], pod: ["namespace", "pod"],
  container: ["namespace", "pod", "container"] };
const groupName = (r) => (K8S_BY[state.by] ? K8S_BY[state.by].map((k) => r[k] || "–").join("/") :
  r[BY_KEY[state.by]]);

const state = {
  window: "5m", by: "process", sort: null, filter: "", target: null, system: null,
  rows: [], columns: [], metric: "cpu_percent", busy: false, timers: [],
  limit: 40, // the table's rows asked for: 40 more per "show more"
  lastAnswer: 0, offlineSince: 0, // ms: the daemon's last answer; 0: it answers
};
const PAGE = 40;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// ---- number formats: every figure on the page goes through these -------
function fmtNum(v, digits = 1) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(digits) + " G";
  if (a >= 1e6) return (v / 1e6).toFixed(digits) + " M";
  if (a >= 1e4) return (v / 1e3).toFixed(digits) + " k";
  if (a >= 100 || v === 0) return v.toFixed(0);
  return v.toFixed(a >= 10 ? 1 : 2);
}
const fmtCount = (v) => (Number.isFinite(v) ? (v >= 1e4 ? fmtNum(v) : String(Math.round(v))) : "–");
const fmtPct = (v) => (Number.isFinite(v) ? v.toFixed(v >= 99.95 || v === 0 ? 0 : 1) + "%" : "–");
const fmtShare = (v) => (Number.isFinite(v) ? fmtPct(100 * v) : "–");
const fmtRate = (v) => (Number.isFinite(v) ? fmtNum(v) + "/s" : "–");
function fmtUnit(v, unit) {
  if (unit === "fraction") return fmtShare(v);
  if (unit === "percent") return fmtPct(v);
  if (unit === "per_second") return fmtRate(v);
  return fmtNum(v, 2);
}
function fmtTime(ns, withDate, withSeconds) {
  const d = new Date(ns / 1e6);
  const opt = { hour: "2-digit", minute: "2-digit", hour12: false };
  if (withSeconds) opt.second = "2-digit";
  if (withDate) Object.assign(opt, { month: "short", day: "numeric" });
  return d.toLocaleString(undefined, opt);
}
const human = (name) => NAMES[name] || name.replace(/_/g, " ");
function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
}
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// Every request goes through here: a fetch that gets no answer at all
// (the daemon stopped, the host went away) turns the page to its failure
// state; the next answer turns it back and reloads every panel.
async function getJSON(url) {
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    goOffline();
    throw new Error("stackd is not answering");
  }
  const wasOffline = state.offlineSince > 0;
  state.lastAnswer = Date.now();
  if (wasOffline) goOnline();
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// The failure state: a banner, every panel marked as showing the last
// figures it had (kept, not blanked: they are still the newest known),
// the health line greyed.  The page keeps asking every 2 s.
const PANELS = ["host-view", "table-pane", "detail"];
function goOffline() {
  if (!state.offlineSince) state.offlineSince = Date.now();
  const since = fmtTime(state.offlineSince * 1e6, false, true);
  const asOf = state.lastAnswer ? fmtTime(state.lastAnswer * 1e6, false, true) : "never";
  const b = $("offline");
  b.hidden = false;
  b.textContent = `stackd is not answering since ${since}: everything below is as of ` +
    `${asOf} and does not update (trying again every 2 s)`;
  document.body.classList.add("offline");
  $("health").classList.add("stale");
  for (const id of PANELS) {
    const sec = $(id);
    let mark = sec.querySelector(":scope > .offline-mark");
    if (!mark) {
      mark = el("p", { className: "offline-mark" });
      sec.prepend(mark);
    }
    mark.textContent = `No answer from stackd since ${since}: as of ${asOf}, not updating`;
  }
  setStatus("not answering", true);
}
function goOnline() {
  state.offlineSince = 0;
  $("offline").hidden = true;
  document.body.classList.remove("offline");
  $("health").classList.remove("stale");
  for (const m of document.querySelectorAll(".offline-mark")) m.remove();
  // everything again, from the daemon as it is now
  setTimeout(() => { loadHost(); refreshTop(); loadDetail(); }, 0);
}
function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "muted";
}
const windowSpec = () => WINDOWS.find((w) => w[0] === state.window) || WINDOWS[0];
const hasTopDown = () => state.system && state.system.pipeline_width > 0;

// ---- the URL: #/process/1234?window=1h, #/comm/NAME, #/unit/NAME, #/ ----
function hashOf() {
  const q = new URLSearchParams({ window: state.window });
  if (state.by !== "process") q.set("by", state.by);
  if (state.filter) q.set("filter", state.filter);
  const t = state.target;
  return "#/" + (t ? `${t.kind}/${encodeURIComponent(t.id)}` : "") + "?" + q;
}
function readHash() {
  const m = /^#\/(?:(process|comm|unit)\/([^?]+))?(?:\?(.*))?$/.exec(location.hash);
  if (!m) return;
  const q = new URLSearchParams(m[3] || "");
  if (WINDOWS.some((w) => w[0] === q.get("window"))) state.window = q.get("window");
  if (BY_KEY[q.get("by")]) state.by = q.get("by");
  state.filter = q.get("filter") || "";
  state.target = m[1] ? { kind: m[1], id: decodeURIComponent(m[2]) } : null;
}
function writeHash() {
  const h = hashOf();
  if (location.hash !== h) history.replaceState(null, "", h);
  $("detail-link").href = h;
}

// ---- header: identity, demo label, health line -------------------------
function showWriter(w) {
  const b = $("outage");
  b.hidden = !w || !w.failing;
  if (b.hidden) return;
  const since = fmtTime(w.failing_since_ns, false, true);
  b.textContent = `Writes to the database are failing since ${since}: ${w.last_error} · ` +
    `${w.pending_intervals} interval(s) waiting in memory, ${w.dropped_intervals} dropped`;
}

// How much of the host's work stackd could charge to processes, which
// sampling mode measured it (per switch, exact; periodic, statistical:
// the API's text, lib/sampling_mode.h), how much of the time the counters
// covered, and what the collector lost (60 s).
function showHealth(s) {
  const a = s.attribution, c = s.collector || {}, m = s.sampling_mode;
  const cov = (s.groups || []).map((g) => g.coverage).filter(Number.isFinite);
  const lost = (c.lost_records || 0) + (c.lost_samples || 0) + (c.dropped || 0);
  const parts = [];
  if (a) parts.push(`attributed ${fmtShare(a.cpu_share)} of busy CPU, ` +
    `${fmtShare(a.switch_share)} of switches` + (a.low ? ` · LOW (below ` +
    `${fmtShare(a.warn_below)}): figures miss part of the host's work` : ""));
  if (cov.length) parts.push(`counter coverage ${fmtShare(Math.min(...cov))}` +
    (cov.length > 1 ? `–${fmtShare(Math.max(...cov))}` : "") + " of CPU time");
  parts.push(`losses ${lost ? fmtCount(lost) + " (records, samples, dropped)" : "none"}`);
  const h = $("health");
  const periodic = !!(m && m.periodic_share > 0);
  h.replaceChildren(el("span", { id: "attribution", textContent: parts[0] || "" }),
    ...(m ? [el("span", { id: "sampling", className: periodic ? "" : "muted",
      textContent: ` · sampling: ${m.text}` + (periodic ? ": figures there are estimates" : ""),
      title: "per-switch: every context switch sampled, exact; periodic: a clock sampler, " +
        "statistically fair over time, where sampling every switch would cost more than " +
        "max_sampling_cost" })] : []),
    el("span", { className: "muted", textContent: " · " + parts.slice(1).join(" · ") + " (last 60 s)" }));
  h.classList.toggle("low", !!(a && a.low));
  h.classList.toggle("periodic", periodic);
}

function showNoPmu(s) {
  const p = $("nopmu");
  p.hidden = s.pipeline_width > 0;
  if (p.hidden) return;
  p.textContent = `No PMU: this host's hardware counters cannot be read (model "${s.model}"` +
    (s.model_reason ? `: ${s.model_reason}` : "") + "). Shown instead: CPU time, context " +
    "switches and page faults per process. On a host with a PMU stackd adds the Top-Down " +
    "breakdown (frontend, bad speculation, backend, retiring; levels 2 and 3), IPC and FLOPS.";
}

async function loadSystem() {
  const s = await getJSON("/api/v1/system");
  const first = !state.system;
  state.system = s;
  $("system").textContent = `${s.host} · ${s.model} · ${s.window ? s.window.ncpus : "?"} CPUs · ` +
    `stackd ${s.version}` + (s.uptime_s !== null ? ` · up ${fmtNum(s.uptime_s / 60, 0)} min` : "");
  const demo = $("demo");
  demo.hidden = !s.demo;
  demo.textContent = s.demo ? s.demo.toUpperCase() : "";
  showHealth(s);
  showWriter(s.writer);
  showNoPmu(s);
  if (first) loadHost();
}

// ---- charts: time axis, value axis, gaps as gaps, hover values ---------
// One run of points is one line (or band); a point with gap_before starts
// a new run, and the empty stretch is shaded and labelled "no data".
function runsOf(pts) {
  const runs = [];
  for (const p of pts) {
    if (!runs.length || p.gap) runs.push([]);
    runs[runs.length - 1].push(p);
  }
  return runs;
}
function timeTicks(from, to, maxTicks) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
    43200, 86400, 172800, 604800].map((s) => s * 1e9);
  const step = steps.find((s) => (to - from) / s <= maxTicks) || steps[steps.length - 1];
  const off = new Date().getTimezoneOffset() * 60e9; // ticks on local hours and days
  const ticks = [];
  for (let t = Math.ceil((from - off) / step) * step + off; t <= to; t += step) ticks.push(t);
  return { ticks, step };
}

// The smallest 1, 2 or 5 x 10^k at or above v: round axis labels.
function niceCeil(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((c) => c >= v);
}

// chart(box, {from, to, step, series: [{label, color, pts: [{t, v, gap, low, periodic}]}],
//   stacked, yMax, fmt, height}): draws into box (an SVG and its legend).
function chart(box, o) {
  const W = Math.max(260, box.clientWidth || 600), H = o.height || 150;
  const L = 52, R = 10, T = 8, B = 22, pw = W - L - R, ph = H - T - B;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    class: "chart", "aria-label": o.series.map((s) => s.label).join(", ") + " over time" });
  const x = (t) => L + ((t - o.from) / (o.to - o.from)) * pw;
  const base = o.series[0].pts;
  let max = o.yMax || 0;
  if (!o.yMax) {
    for (let i = 0; i < base.length; i++) {
      const vals = o.series.map((s) => (s.pts[i] ? s.pts[i].v : 0) || 0);
      max = Math.max(max, o.stacked ? vals.reduce((a, b) => a + b, 0) : Math.max(...vals));
    }
    max = niceCeil(max);
  }
  const y = (v) => T + ph - (Math.min(v, max) / max) * ph;
  for (const v of [0, max / 2, max]) { // value axis: three labelled grid lines
    svg.append(svgEl("line", { x1: L, x2: L + pw, y1: y(v), y2: y(v), class: "grid" }));
    const lab = svgEl("text", { x: L - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" });
    lab.textContent = o.fmt(v);
    svg.append(lab);
  }
  const span = o.to - o.from;
  const { ticks, step } = timeTicks(o.from, o.to, Math.max(2, Math.floor(pw / 90)));
  for (const t of ticks) { // time axis
    svg.append(svgEl("line", { x1: x(t), x2: x(t), y1: T + ph, y2: T + ph + 4, class: "axis" }));
    const lab = svgEl("text", { x: x(t), y: H - 5, class: "tick xtick", "text-anchor": "middle" });
    lab.textContent = fmtTime(t, span > 86400e9 || step >= 86400e9, step < 60e9);
    svg.append(lab);
  }
  svg.append(svgEl("line", { x1: L, x2: L + pw, y1: T + ph, y2: T + ph, class: "axis" }));
  const runs = runsOf(base.map((p, i) => ({ ...p, i })));
  for (let r = 1; r < runs.length; r++) { // the gaps, shaded
    const a = runs[r - 1][runs[r - 1].length - 1].t + o.step, b = runs[r][0].t;
    const g = svgEl("rect", { x: x(a), y: T, width: Math.max(1, x(b) - x(a)), height: ph, class: "gap" });
    g.append(svgEl("title"));
    g.firstChild.textContent = "no data";
    svg.append(g);
  }
  const cum = base.map(() => 0);
  for (const s of o.series) {
    for (const run of runs) {
      const idx = run.map((p) => p.i).filter((i) => s.pts[i] && Number.isFinite(s.pts[i].v));
      if (!idx.length) continue;
      const top = idx.map((i) => [x(base[i].t), y(cum[i] + s.pts[i].v)]);
      if (top.length === 1) top.push([top[0][0] + 2, top[0][1]]); // a lone point still shows
      const fmtPts = (pts) => pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
      if (o.stacked) {
        const bottom = idx.map((i) => [x(base[i].t), y(cum[i])]);
        if (bottom.length === 1) bottom.push([bottom[0][0] + 2, bottom[0][1]]);
        svg.append(svgEl("polygon", { points: fmtPts(top.concat(bottom.reverse())),
          fill: s.color, class: "band" }));
      } else {
        svg.append(svgEl("polyline", { points: fmtPts(top), stroke: s.color, class: "line" }));
      }
    }
    if (o.stacked) base.forEach((p, i) => { cum[i] += (s.pts[i] && s.pts[i].v) || 0; });
  }
  // A point where stackd could not charge part of the host's time to
  // anyone may be low: an orange ring on it.
  if (!o.stacked) for (const p of o.series[0].pts.filter((q) => q.low)) {
    svg.append(svgEl("circle", { cx: x(p.t), cy: y(p.v), r: 4, class: "low-attribution" }));
  }
  // A point measured partly in periodic mode is an estimate: a violet
  // diamond under it on the time axis (a stacked chart too: its bands are
  // as statistical as a line).
  for (const p of o.series[0].pts.filter((q) => q.periodic > 0)) {
    const cx = x(p.t), cy = T + ph;
    svg.append(svgEl("polygon", { class: "periodic",
      points: `${cx},${cy - 4} ${cx + 4},${cy} ${cx},${cy + 4} ${cx - 4},${cy}` }));
  }
  const cross = svgEl("line", { y1: T, y2: T + ph, class: "crosshair", visibility: "hidden" });
  const hit = svgEl("rect", { x: L, y: T, width: pw, height: ph, class: "hit" });
  svg.append(cross, hit);
  svg.dataset.runs = runs.length;
  // the points drawn (any series): 0 is a chart with nothing on it
  svg.dataset.points = base.filter((p, i) => o.series.some((s) => s.pts[i] &&
    Number.isFinite(s.pts[i].v))).length;
  hit.addEventListener("pointermove", (e) => hover(e, svg, o, x, cross, pw, L));
  hit.addEventListener("pointerleave", () => {
    cross.setAttribute("visibility", "hidden");
    $("tooltip").hidden = true;
  });
  const legend = el("div", { className: "legend" }, ...o.series.map((s) =>
    el("span", {}, el("i", { className: "swatch", style: `background:${s.color}` }), s.label)));
  box.replaceChildren(svg, legend);
  return runs.length - 1;
}

function hover(e, svg, o, x, cross, pw, L) {
  const rect = svg.getBoundingClientRect();
  const t = o.from + ((e.clientX - rect.left) * (svg.viewBox.baseVal.width / rect.width) - L) /
    pw * (o.to - o.from);
  const base = o.series[0].pts;
  let best = -1;
  const shown = (i) => o.series.some((s) => s.pts[i] && Number.isFinite(s.pts[i].v));
  for (let i = 0; i < base.length; i++)
    if (shown(i) && (best < 0 || Math.abs(base[i].t - t) < Math.abs(base[best].t - t))) best = i;
  const tip = $("tooltip");
  if (best < 0 || Math.abs(base[best].t - t) > 1.5 * o.step + (o.to - o.from) / 200) {
    cross.setAttribute("visibility", "hidden");
    tip.textContent = `${fmtTime(t, o.to - o.from > 86400e9, true)}: no data`;
  } else {
    const p = base[best];
    cross.setAttribute("x1", x(p.t));
    cross.setAttribute("x2", x(p.t));
    cross.setAttribute("visibility", "visible");
    tip.replaceChildren(el("b", { textContent: fmtTime(p.t, o.to - o.from > 86400e9, true) }),
      ...o.series.map((s) => el("div", {}, el("i", { className: "swatch",
        style: `background:${s.color}` }), `${s.label}: ${o.fmt(s.pts[best] ? s.pts[best].v : NaN)}`)),
      ...(p.low ? [el("div", { className: "warn", textContent: "attributed share low here" })] : []),
      ...(p.periodic > 0 ? [el("div", { className: "periodic", textContent:
        `${fmtShare(p.periodic)} of CPU time sampled periodically here (statistical)` })] : []));
  }
  tip.hidden = false;
  tip.style.left = Math.min(e.pageX + 12, document.documentElement.clientWidth - 220) + "px";
  tip.style.top = e.pageY + 12 + "px";
}

// ---- the host view ----------------------------------------------------
async function series(who, metric) {
  const [, secs, step] = windowSpec();
  const q = new URLSearchParams({ who, metric, from: secs + "s", step: step + "s" });
  return getJSON("/api/v1/series?" + q);
}
const pointsOf = (s, f) => s.points.map((p) => ({ t: p.t_ns, v: f(p), gap: p.gap_before,
  low: p.low_attribution,
  // the target's own share (an older daemon: the host's)
  periodic: (p.target_periodic_share ?? p.periodic_share) || 0 }));
// b's values on a's points, joined by bucket (b may lack some): each
// point's bucket counted in steps from a's from_ns.  The API starts its
// buckets on multiples of the step, so two answers share their times
// however far the data moved between the requests; an older stackd
// anchored them on the newest interval's end, less than a step apart from
// one answer to the next, and the rounding still meets them.
function alignOn(a, b) {
  const step = a.step_ns || 1, at = (t) => Math.round((t - a.from_ns) / step);
  const byK = new Map(b.points.map((p) => [at(p.t_ns), p.value]));
  return a.points.map((p) => { const k = at(p.t_ns); return byK.has(k) ? byK.get(k) : NaN; });
}

async function loadHost() {
  if (!state.system) return;
  const ncpus = (state.system.window && state.system.window.ncpus) || 1;
  const [, secs, step] = windowSpec();
  try {
    const cpu = await series("host", "cpu_percent");
    // a database younger than the window: the axis starts at its oldest data
    const oldest = state.system.database ? state.system.database.oldest_ns : 0;
    const o = { from: Math.max(cpu.from_ns, oldest), to: cpu.to_ns, step: step * 1e9 };
    const busy = pointsOf(cpu, (p) => p.value / ncpus);
    const panels = [];
    if (hasTopDown()) {
      const names = L1.filter((n) => n !== "smt_contention" || state.system.model === "zen4");
      const parts = await Promise.all(names.map((n) => series("host", n)));
      panels.push({ title: "Top-Down level 1 (share of the model's slots, busy CPUs together)",
        stacked: true, yMax: 1, fmt: fmtShare, series: names.map((n, k) => ({ label: human(n),
          color: COLORS[n], pts: alignOn(cpu, parts[k]).map((v, i) => ({ ...busy[i], v })) })) });
    }
    panels.push({ title: `CPU busy (share of all ${ncpus} CPUs)`, yMax: 100, fmt: fmtPct,
      series: [{ label: "CPU busy", color: COLORS.cpu, pts: busy }] });
    if (!hasTopDown()) {
      const [sw, pf] = await Promise.all([series("host", "switches_per_cpu_s"),
        series("host", "page_faults_per_cpu_s")]);
      // per CPU-second x CPU-seconds per second = per second of wall time
      const perWall = (s) => alignOn(cpu, s).map((v, i) => ({ ...busy[i], low: false,
        v: v * cpu.points[i].value / 100 }));
      panels.push({ title: "Context switches per second", fmt: fmtRate,
        series: [{ label: "switches/s", color: PALETTE[1], pts: perWall(sw) }] });
      panels.push({ title: "Page faults per second", fmt: fmtRate,
        series: [{ label: "faults/s", color: PALETTE[2], pts: perWall(pf) }] });
    }
    const box = $("host-charts");
    box.replaceChildren(...panels.map(() => el("div", { className: "panel" })));
    let gaps = 0;
    panels.forEach((p, i) => {
      const div = box.children[i];
      div.append(el("h3", { textContent: p.title }), el("div"));
      gaps = chart(div.lastChild, { ...o, ...p, height: p.stacked ? 170 : 110 });
    });
    $("host-note").textContent = `${cpu.points.length} points of ${fmtNum(step, 0)} s from ` +
      `${cpu.source} over the last ${state.window}` + (gaps ? ` · ${gaps} gap(s) with no ` +
      "data (stackd did not run), shaded" : "") + (secs > (state.system.database ?
      (state.system.database.newest_ns - state.system.database.oldest_ns) / 1e9 : secs) ?
      " · the database holds less than this window" : "") +
      (busy.some((p) => p.periodic > 0) ? " · violet diamonds: measured partly in periodic " +
      "mode (statistical estimates, not exact)" : "");
  } catch (e) {
    if (!state.offlineSince) $("host-note").textContent = "host series: " + e.message;
  }
}

// ---- the process table ------------------------------------------------
function globRe(glob) {
  if (!/[*?[]/.test(glob)) glob = "*" + glob + "*";
  const re = glob.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp("^" + re + "$", "i");
}
const perWall = (row, perCpu) => (Number.isFinite(row[perCpu]) ?
  row[perCpu] * row.cpu_percent / 100 : NaN);

// The columns shown: [title, sort key, cell(row), class, tooltip].
function tableColumns() {
  const td = hasTopDown();
  const cols = [];
  const key = BY_KEY[state.by];
  cols.push([state.by === "process" ? "Process" : { comm: "Command", unit: "Unit",
    user: "User", namespace: "Namespace", pod: "Namespace/Pod",
    container: "Namespace/Pod/Container" }[state.by], key, (r) => nameCell(r), "text name", ""]);
  if (state.by !== "process") cols.push(["Procs", "processes", (r) => fmtCount(r.processes), "opt",
    "processes summed"]);
  cols.push(["CPU %", "task_clock_ns", (r) => cpuCell(r), "", "CPU time as a share of one CPU " +
    "(~: partly measured in periodic mode, statistical)"]);
  cols.push([td ? "Top-Down L1" : "CPU", td ? "frontend_bound_slots" : "task_clock_ns",
    (r) => stackBar(r), "barcol", td ? "Top-Down slots (the model's slot stage): retiring, bad speculation, frontend, backend" :
      "CPU time, one CPU = full bar"]);
  cols.push(["Switches/s", "context_switches", (r) => fmtRate(r.context_switches / spanS()), "opt",
    "context switches per second"]);
  if (!td) cols.push(["Faults/s", "page_faults", (r) => fmtRate(perWall(r, "page_faults_per_cpu_s")),
    "opt", "page faults per second (estimated from the time the counter ran)"]);
  if (td) cols.push(["IPC", "ipc", (r) => fmtNum(r.ipc, 2), "opt", "instructions per cycle"]);
  if (td) cols.push(["GFLOP/s", "gflops", (r) => fmtNum(r.gflops, 2), "opt2", "floating-point operations"]);
  if (state.rows && state.rows.some((r) => r.health)) cols.push(["Health", "task_clock_ns",
    (r) => el("span", { className: r.health ? "health-bad" : "", textContent: r.health ? "!" : "",
      title: r.health || "" }), "text", "a value no core can produce (sanity check): hover for which"]);
  if (state.by === "process") cols.push(["User", "user", (r) => r.user || "–", "text opt2", ""]);
  if (state.by === "process") cols.push(["Unit", "unit", (r) => r.unit || "–", "text opt2 clip", ""]);
  return cols;
}
// CPU % and, when some of the row's own CPU time was measured in periodic
// mode (its figures are statistical there), a violet "~" saying how much.
function cpuCell(r) {
  if (!(r.periodic_share > 0)) return fmtPct(r.cpu_percent);
  return el("span", {}, document.createTextNode(fmtPct(r.cpu_percent)),
    el("span", { className: "periodic-mark", textContent: "~",
      title: `${fmtShare(r.periodic_share)} of this row's CPU time sampled periodically ` +
        "(statistical); the rest per switch (exact)" }));
}
function spanS() {
  return state.topWindow ? Math.max(1, (state.topWindow.to_ns - state.topWindow.from_ns) / 1e9) : 1;
}
function nameCell(r) {
  if (state.by !== "process") return el("span", { textContent: groupName(r) || "–" });
  return el("span", {}, el("span", { textContent: r.comm }),
    el("span", { className: "pid", textContent: " " + r.pid }));
}
function stackBar(r) {
  const bar = el("div", { className: "bar mini" });
  const parts = hasTopDown() ? L1.filter((n) => Number.isFinite(r[n])).map((n) => [n, r[n]]) :
    [["cpu", Math.min(1, r.cpu_percent / 100)]];
  for (const [n, v] of parts) {
    bar.append(el("div", { style: `width:${Math.max(0, Math.min(1, v)) * 100}%;` +
      `background:${COLORS[n]}`, title: `${human(n)} ${fmtShare(v)}` }));
  }
  bar.title = parts.map(([n, v]) => `${human(n)} ${fmtShare(v)}`).join(" · ");
  return bar;
}
const rowKey = (r) => (state.by === "process" ? String(r.pid) : String(groupName(r)));
const rowTarget = (r) => (state.by === "process" ? { kind: "process", id: String(r.pid) } :
  state.by === "user" || K8S_BY[state.by] ? null : { kind: state.by, id: r[BY_KEY[state.by]] });

function renderTop() {
  const cols = tableColumns();
  const re = state.filter ? globRe(state.filter) : null;
  const rows = state.rows.filter((r) => !re || [r.comm, r.unit, r.user, r.cmdline, r.pid]
    .some((v) => v !== null && v !== undefined && re.test(String(v))));
  const head = $("top").tHead, body = $("top").tBodies[0];
  const tr = el("tr");
  let marked = false; // one arrow, on the first column of the answer's sort
  for (const [title, sort, , cls, tip] of cols) {
    const b = el("button", { type: "button", textContent: title, title: tip ? `${tip}; sort` : "sort" });
    b.addEventListener("click", () => { state.sort = sort; refreshTop(); });
    const sorted = !marked && state.sortShown === sort;
    marked = marked || sorted;
    tr.append(el("th", { className: cls + (sorted ? " sorted" : ""), scope: "col" }, b));
  }
  head.replaceChildren(tr);
  const focused = document.activeElement && document.activeElement.dataset ?
    document.activeElement.dataset.key : null;
  body.replaceChildren(...rows.map((r) => {
    const row = el("tr");
    row.dataset.key = rowKey(r);
    const t = rowTarget(r);
    if (t) {
      row.tabIndex = 0;
      row.dataset.kind = t.kind;
      row.dataset.id = t.id;
      if (state.target && state.target.kind === t.kind && state.target.id === t.id)
        row.className = "selected";
    }
    if (r.cmdline) row.title = r.cmdline;
    for (const [, , cell, cls] of cols) {
      const v = cell(r);
      row.append(el("td", { className: cls }, v));
    }
    return row;
  }));
  if (focused) for (const r of body.rows) if (r.dataset.key === focused) r.focus();
  $("table-note").textContent = `${rows.length} of ${state.total} ${state.by === "process" ?
    "processes" : "groups"} · last ${state.topLabel}` + (re ? ` · filter ${state.filter}` : "") +
    (state.by === "user" ? " · a user has no drill-down: group by process and filter" : "");
  // the rows past the first pages: "show more", PAGE at a time
  const more = $("more");
  const left = state.total - state.rows.length;
  more.hidden = !!re || left <= 0;
  more.textContent = `show ${Math.min(PAGE, left)} more (${state.rows.length} of ${state.total})`;
}

async function refreshTop() {
  const [label, secs] = windowSpec();
  const topSecs = Math.min(secs, TOP_MAX_S);
  const q = new URLSearchParams({ window: topSecs + "s", by: state.by,
    limit: state.filter ? "0" : String(state.limit) });
  if (state.sort) q.set("sort", state.sort);
  try {
    const t = await getJSON("/api/v1/top?" + q);
    state.rows = t.rows;
    state.total = t.total_rows;
    state.topWindow = t.window;
    state.sortShown = t.sort;
    state.topLabel = secs > TOP_MAX_S ? "24 h (the table's limit; the charts cover " + label + ")" :
      label;
    renderTop();
    setStatus("updated " + fmtTime(Date.now() * 1e6, false, true), false);
  } catch (e) {
    if (!state.offlineSince) setStatus(e.message, true);
  }
}

function apiPathOf(t) {
  return t.kind === "process" ? `/api/v1/processes/${encodeURIComponent(t.id)}` :
    `/api/v1/${t.kind === "comm" ? "comms" : "units"}/${encodeURIComponent(t.id)}`;
}
const whoOf = (t) => (t.kind === "process" ? "pid:" : t.kind + ":") + t.id;

async function loadDetail() {
  const t = state.target;
  $("detail-empty").hidden = !!t;
  $("detail-body").hidden = !t;
  // below 1,100 px the open detail lies over the table (style.css)
  $("detail").classList.toggle("open", !!t);
  writeHash();
  if (!t) return;
  for (const r of $("top").tBodies[0].rows)
    r.classList.toggle("selected", r.dataset.kind === t.kind && r.dataset.id === t.id);
  const [label, secs] = windowSpec();
  try {
    const d = await getJSON(`${apiPathOf(t)}?window=${Math.min(secs, TOP_MAX_S)}s`);
    if (state.target !== t) return;
    const p = d.processes[0];
    $("detail-title").textContent = t.kind === "process" ? `${p.comm} (pid ${p.pid})` :
      `${t.kind === "comm" ? "command" : "unit"} ${t.id} (${d.process_count} processes)`;
    $("detail-meta").textContent = [`CPU ${fmtPct(d.cpu_percent)} of one CPU`,
      `last ${label}`, p.user ? "user " + p.user : null, p.unit, d.model,
      d.sampling_mode && d.sampling_mode.periodic_share > 0 ?
        "host sampling: " + d.sampling_mode.text : null,
      d.periodic_share > 0 ? `this target: ${fmtShare(d.periodic_share)} sampled periodically ` +
        "(statistical)" : null,
      t.kind === "process" ? p.cmdline : null].filter(Boolean).join(" · ");
    $("coverage").replaceChildren(el("b", { textContent: "Coverage: " }),
      document.createTextNode(coverageText(d.groups)));
    $("coverage").title = coverageTip(d.groups);
    renderStacks(d);
    const sel = $("series-metric");
    sel.replaceChildren(el("option", { value: "cpu_percent", textContent: human("cpu_percent") }),
      ...d.metrics.filter((m) => !/_(low|high)(@.*)?$/.test(m.name)).map((m) =>
        el("option", { value: m.name, title: m.help, textContent: labelOf(m) +
          (m.core_type && m.core_type !== "both" ? ` (${m.core_type})` : "") })));
    sel.value = [...sel.options].some((o) => o.value === state.metric) ? state.metric : "cpu_percent";
    await loadDetailSeries();
  } catch (e) {
    if (state.offlineSince) return; // the last detail stays, marked
    $("detail-title").textContent = `${t.kind} ${t.id}`;
    $("detail-meta").textContent = e.message;
    $("stacks").replaceChildren();
  }
}

async function loadDetailSeries() {
  const t = state.target;
  if (!t) return;
  const [, , step] = windowSpec();
  try {
    const s = await series(whoOf(t), $("series-metric").value || "cpu_percent");
    const pts = pointsOf(s, (p) => p.value);
    const oldest = state.system.database ? state.system.database.oldest_ns : 0;
    const gaps = chart($("detail-chart"), { from: Math.max(s.from_ns, oldest), to: s.to_ns,
      step: step * 1e9,
      fmt: (v) => fmtUnit(v, s.unit), height: 140, yMax: s.unit === "fraction" ? 1 : null,
      series: [{ label: $("series-metric").selectedOptions[0] ?
        $("series-metric").selectedOptions[0].textContent : human(s.metric), color: "#1565c0", pts }] });
    const low = pts.filter((p) => p.low).length;
    const periodic = pts.filter((p) => p.periodic > 0).length;
    $("chart-note").textContent = `${pts.length} points from ${s.source}` +
      (gaps ? ` · ${gaps} gap(s) with no data` : "") + (low ? ` · ${low} point(s) with the ` +
      "attributed share low (orange rings): they may be missing time" : "") +
      (periodic ? ` · ${periodic} point(s) measured partly in periodic mode (violet ` +
      "diamonds): statistical estimates, not exact" : "");
  } catch (e) {
    if (!state.offlineSince) $("chart-note").textContent = e.message;
  }
}

// ---- wiring -----------------------------------------------------------
function renderWindows() {
  $("windows").replaceChildren(...WINDOWS.map(([w]) => {
    const b = el("button", { type: "button", textContent: w });
    b.setAttribute("aria-pressed", String(w === state.window));
    b.addEventListener("click", () => { state.window = w; applyState(); });
    return b;
  }));
}
function applyState() {
  renderWindows();
  $("by").value = state.by;
  $("filter").value = state.filter;
  writeHash();
  loadHost();
  refreshTop();
  loadDetail();
}
function open(t) {
  state.target = t;
  loadDetail();
  // one column: the drill-down lies over the table, from its top
  if (t) $("detail").scrollTop = 0;
}

$("top").tBodies[0].addEventListener("click", (e) => {
  const tr = e.target.closest("tr");
  if (tr && tr.dataset.kind) open({ kind: tr.dataset.kind, id: tr.dataset.id });
});
$("top").tBodies[0].addEventListener("keydown", (e) => {
  const tr = e.target.closest("tr");
  if (!tr) return;
  if ((e.key === "Enter" || e.key === " ") && tr.dataset.kind) {
    e.preventDefault();
    open({ kind: tr.dataset.kind, id: tr.dataset.id });
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    const next = e.key === "ArrowDown" ? tr.nextElementSibling : tr.previousElementSibling;
    if (next) next.focus();
  }
});
$("detail-close").addEventListener("click", () => open(null));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && state.target) open(null);
});
$("more").addEventListener("click", () => {
  state.limit += PAGE;
  refreshTop();
});
$("by").addEventListener("change", () => {
  state.by = $("by").value;
  state.sort = null;
  state.limit = PAGE;
  writeHash();
  refreshTop();
});
$("filter").addEventListener("input", () => {
  state.filter = $("filter").value.trim();
  writeHash();
  refreshTop();
});
$("series-metric").addEventListener("change", () => {
  state.metric = $("series-metric").value;
  loadDetailSeries();
});
window.addEventListener("hashchange", () => { readHash(); applyState(); });
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { loadHost(); loadDetailSeries(); }, 200);
});

async function tick(n) {
  if ($("pause").checked || state.busy) return;
  state.busy = true;
  try {
    await loadSystem();
    await refreshTop();
    if (n % (state.window === "5m" ? 2 : 15) === 0) await loadHost();
    if (n % 5 === 0 && state.target) await loadDetail();
  } catch (e) {
    if (!state.offlineSince) setStatus(e.message, true);
  } finally {
    state.busy = false;
  }
}

readHash();
renderWindows();
$("by").value = state.by;
$("filter").value = state.filter;
loadSystem().then(() => { refreshTop(); loadDetail(); }).catch((e) => setStatus(e.message, true));
let ticks = 0;
setInterval(() => tick(++ticks), 2000);
