// Drive the dashboard in headless Chromium against a running stackd.
// Every mode: no console errors (a CSP violation is one); the host chart
// has labelled time ticks and answers a hover; the health line shows the
// attributed share and the sampling mode; the table has human titles; a row opens the
// drill-down beside the table at 1,400 px; the deep link round-trips
// (#/process/PID?window=1h reopens it, a window click updates it); Enter
// on a focused row opens it; at 390 px nothing scrolls sideways.
//   live: the process COMM is in the table; model software: the page says
//         there is no PMU.  Screenshots dashboard-1400.png, -390.png.
//         The data move (stackd runs with --interval 1s): the page is
//         loaded twice, 5 s apart, with its series requests held back by
//         0..1.4 s each (a slow link or a busy daemon: the newest interval
//         moves between them), and every host chart draws data both times
//         and after the page's own refresh in between (the charts were
//         blank when their series were joined on exact times).  The table
//         pages ("show more" past the first 40 rows).  A deep link at
//         900 px lands on the drill-down (it lies over the table).  Last,
//         stackd is stopped (STACKD_PID, SIGTERM; the caller checks its
//         exit): a banner says so, every panel is marked, the health line
//         is greyed (dashboard-offline.png).
//   gap:  stackd was stopped and started again: the host chart draws
//         that stretch as a gap (two runs, a shaded "no data" rect).
//   demo: stackd --demo: the header says the data is constructed, the
//         table's bars are Top-Down L1, level 3 is drawn under the
//         frontend; the sampling mode is mixed (its newest minute has
//         periodic seconds) and the host chart marks those points.  The
//         drill-down speaks in words, each label taken from the metric's
//         help in the API (no identifiers such as cyc_cpi_mem_l1 or
//         td_l1), and every node's bar is its value against one scale, as
//         `stackctl show` draws it (level 2 not stretched to its parent).
//         Screenshot dashboard-demo.png.
// STACKD_SCREENSHOT=FILE (demo mode only; unset: nothing more is written)
// also saves the 1,400 x 900 px view with the drill-down open as FILE:
// the README's docs/dashboard.png (docs/design.md says how to refresh it).
// Usage: node dashboard.mjs URL COMM OUTDIR live|gap|demo (live: STACKD_PID set)
import { chromium } from "playwright-core";

const [url, comm, outdir, mode] = process.argv.slice(2);
const errors = [];
const check = (ok, what) => { if (!ok) throw new Error(what); };

// The table refreshes every 2 s: a click or key press that races a
// refresh is tried again rather than failing on the page's timing.
async function openRow(page, how) {
  const row = page.locator("#top tbody tr[tabindex]", { hasText: comm }).first();
  await row.waitFor({ timeout: 15000 });
  const title = page.locator("#detail-body:not([hidden]) #detail-title", { hasText: comm });
  for (let attempt = 1; ; attempt++) {
    if (how === "enter") {
      await row.focus();
      await page.keyboard.press("Enter");
    } else {
      await row.click();
    }
    try {
      await title.waitFor({ timeout: 3000 });
      return;
    } catch (e) {
      if (attempt === 4) {
        const status = await page.locator("#status").textContent().catch(() => "?");
        throw new Error(`no drill-down after ${attempt} tries by ${how} (status: ${status})`);
      }
    }
  }
}

async function hostChart(page) {
  const svg = page.locator("#host-charts svg.chart").first();
  await svg.waitFor({ timeout: 15000 });
  const ticks = (await svg.locator(".xtick").allTextContents()).filter((t) => /\d/.test(t));
  check(ticks.length >= 2, "host chart without labelled time ticks: " + JSON.stringify(ticks));
  // hover the CPU busy panel's newest point: its time and value show
  const busy = page.locator("#host-charts .panel", { hasText: "CPU busy" }).locator(".hit");
  const box = await busy.boundingBox();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  const tip = await page.locator("#tooltip:not([hidden])").textContent({ timeout: 3000 });
  check(/CPU busy: \d+(\.\d)?%/.test(tip), "no hover value on the host chart: " + tip);
  await page.mouse.move(0, 0);
  return { ticks, tip };
}

// Every host chart draws data: the points of its lines (or bands, two
// edges each), read from the SVG, at least half of the CPU busy chart's,
// which every bucket of the host has.  Returns the charts' counts and the
// newest data stackd holds (/api/v1/system).
async function chartsHaveData(page, what) {
  await page.locator("#host-charts svg.chart").first().waitFor({ timeout: 15000 });
  const charts = await page.evaluate(() => [...document.querySelectorAll("#host-charts .panel")]
    .map((p) => {
      const pairs = (e) => e.getAttribute("points").trim().split(/\s+/).length;
      let n = 0;
      for (const e of p.querySelectorAll("polyline.line")) n += pairs(e);
      for (const e of p.querySelectorAll("polygon.band")) n = Math.max(n, pairs(e) / 2);
      return { title: p.querySelector("h3").textContent, points: n };
    }));
  const busy = charts.find((c) => /^CPU busy/.test(c.title));
  check(busy && busy.points > 0, `${what}: no CPU busy points: ${JSON.stringify(charts)}`);
  for (const c of charts)
    check(c.points >= Math.max(1, busy.points / 2),
      `${what}: "${c.title}" draws ${c.points} points, CPU busy ${busy.points}: blank`);
  const sys = await (await page.request.get(new URL("/api/v1/system", url).href)).json();
  return { counts: charts.map((c) => c.points).join("/"), newest: sys.database.newest_ns };
}

// The page's series requests held back 0, 0.7 or 1.4 s in turn, so the
// requests of one load reach stackd in different intervals.
async function staggerSeries(page) {
  let n = 0;
  await page.route(/\/api\/v1\/series\?/, async (route) => {
    await new Promise((r) => setTimeout(r, (n++ % 3) * 700));
    await route.continue();
  });
}

// Two loads 5 s apart, and the page's own refresh between them.
async function liveCharts(page) {
  await staggerSeries(page);
  await page.goto(url, { waitUntil: "load" });
  const a = await chartsHaveData(page, "first load");
  await page.waitForTimeout(5000); // the 5m charts refresh every 4 s
  const r = await chartsHaveData(page, "after the page's refresh");
  await page.goto(url, { waitUntil: "load" });
  const b = await chartsHaveData(page, "second load, 5 s later");
  check(b.newest > a.newest, `the data did not move: newest ${a.newest} then ${b.newest}`);
  await page.unroute(/\/api\/v1\/series\?/);
  console.log(`live charts, points per chart: ${a.counts}, after a refresh ${r.counts}, ` +
    `5 s later ${b.counts}; newest moved ${((b.newest - a.newest) / 1e9).toFixed(1)} s`);
}

// The table stops at 40 rows; "show more" adds 40.
async function paging(page) {
  const rows = page.locator("#top tbody tr");
  await rows.nth(39).waitFor({ timeout: 15000 });
  const first = await rows.count();
  check(first === 40, `the first page has ${first} rows, not 40`);
  const more = page.locator("#more:not([hidden])");
  check(/show 40 more/.test(await more.textContent({ timeout: 5000 })), "no 'show more'");
  await more.click();
  await rows.nth(40).waitFor({ timeout: 10000 });
  const note = await page.locator("#table-note").textContent();
  check(/^80 of \d+ processes/.test(note), "after 'show more': " + note);
  console.log(`paging: 40 rows, then "${note}"`);
}

// At 900 px a deep link lands on the drill-down: its title in the
// viewport, over the table, not covered.
async function deepNarrow(pid) {
  const p = await browser.newPage({ viewport: { width: 900, height: 900 } });
  p.on("pageerror", (e) => errors.push(String(e)));
  await p.goto(new URL(`/#/process/${pid}?window=5m`, url).href, { waitUntil: "load" });
  const title = p.locator("#detail-body:not([hidden]) #detail-title", { hasText: `pid ${pid}` });
  await title.waitFor({ timeout: 10000 });
  const box = await title.boundingBox();
  check(box.y >= 0 && box.y + box.height <= 900,
    `at 900 px the deep link's detail title is at y ${box.y}, outside the 900 px viewport`);
  const onTop = await p.evaluate(() => {
    const r = document.getElementById("detail-title").getBoundingClientRect();
    const e = document.elementFromPoint(r.x + 5, r.y + r.height / 2);
    return !!e && !!e.closest("#detail");
  });
  check(onTop, "at 900 px the detail title is covered");
  console.log(`deep link at 900 px: detail title at y ${box.y.toFixed(0)}`);
  await p.close();
}

// stackd stops: a banner, every panel marked, the health line greyed.
async function offline(page) {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.waitForTimeout(1000); // the charts redraw for the width, while stackd answers
  process.kill(Number(process.env.STACKD_PID), "SIGTERM");
  await page.locator("#offline:not([hidden])").waitFor({ timeout: 10000 });
  const banner = await page.locator("#offline").textContent();
  check(/not answering since \d/.test(banner), "banner: " + banner);
  for (const id of ["host-view", "table-pane", "detail"]) {
    const mark = page.locator(`#${id} > .offline-mark`);
    check(await mark.isVisible() && /No answer from stackd since/.test(await mark.textContent()),
      `#${id} is not marked as stale`);
  }
  const [cls, color] = await page.evaluate(() => [document.getElementById("health").className,
    getComputedStyle(document.getElementById("attribution")).color]);
  check(/\bstale\b/.test(cls) && color === "rgb(120, 144, 156)",
    `the health line is not greyed: class "${cls}", color ${color}`);
  check(await page.locator("#host-charts svg.chart").count() > 0, "the charts were blanked");
  check(!/Failed to fetch/.test(await page.locator("body").innerText()), "'Failed to fetch'");
  await page.screenshot({ path: `${outdir}/dashboard-offline.png`, fullPage: true });
  console.log(`stopped: "${banner}"; 3 panels marked, health greyed`);
}

// The drill-down in words and absolute bars: each row's label from its
// metric's help (the API's text) or the Top-Down tree's own names, and its
// bar value / scale wide, level 2 included.
async function drillDown(page, pid) {
  const d = await (await page.request.get(new URL(`/api/v1/processes/${pid}?window=300s`,
    url).href)).json();
  const byName = new Map(d.metrics.map((m) => [m.name, m]));
  const text = await page.locator("#stacks").innerText() +
    await page.locator("#coverage").innerText();
  const ids = text.match(/\b[a-z0-9]+_[a-z0-9_]+\b|cyc cpi|dsb p only|td_l1/g);
  check(!ids, "identifiers in the drill-down: " + JSON.stringify(ids));
  const rows = await page.locator("#stacks .meter-row[data-name]").evaluateAll((rs) => rs.map((r) =>
    ({ name: r.dataset.name, scale: Number(r.dataset.scale),
      label: r.querySelector(".label").textContent,
      frac: r.querySelector(".meter > div").getBoundingClientRect().width /
        r.querySelector(".meter").getBoundingClientRect().width })));
  const words = { fetch_latency: "fetch latency", fetch_bandwidth: "fetch bandwidth",
    memory_bound: "memory bound", core_bound: "core bound", branch_mispredicts: "branch mispredicts",
    machine_clears: "machine clears", light_ops: "light op", heavy_ops: "heavy op",
    retiring: "retiring", bad_speculation: "bad speculation", frontend_bound: "frontend bound",
    backend_bound: "backend bound" };
  let level2 = 0;
  for (const r of rows) {
    const m = byName.get(r.name);
    check(m, "a row of no metric: " + r.name);
    const label = r.label.replace(/…$/, "").toLowerCase();
    const help = m.help.toLowerCase().replace(/ \([^()]{1,14}\)/g, "");
    check(help.includes(label) || (words[r.name] && label.includes(words[r.name])),
      `"${r.label}" is neither in ${r.name}'s help ("${m.help}") nor its name in words`);
    const want = Math.max(0, Math.min(1, m.value / r.scale));
    check(Math.abs(r.frac - want) < 0.02,
      `${r.name}: bar ${r.frac.toFixed(3)} of the width, its value/scale is ${want.toFixed(3)}`);
    if (m.stack === "topdown" && m.parent && byName.get(m.parent) && !byName.get(m.parent).parent) {
      check(r.scale === 1, `${r.name}: a level-2 share drawn against ${r.scale}, not 1`);
      level2++;
    }
  }
  check(level2 >= 6, `only ${level2} level-2 rows`);
  console.log(`drill-down: ${rows.length} rows in words, ${level2} level-2 bars absolute`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: "load" });
  const { ticks, tip } = await hostChart(page);
  console.log(`host chart: ticks ${ticks.join(" ")}; hover "${tip}"`);
  const health = await page.locator("#attribution").textContent();
  check(/^attributed \d+(\.\d)?% of busy CPU, \d+(\.\d)?% of switches/.test(health),
    "no attributed share in the health line: " + health);
  const sampling = await page.locator("#sampling").textContent();
  check(/^ · sampling: (per-switch \(exact\)|periodic \(statistical\)|mixed, \d+\.\d% per-switch \(exact\) and (\d+\.\d|<0\.1)% periodic \(statistical\))/
    .test(sampling), "no sampling mode in the health line: " + sampling);
  await page.locator("#top tbody tr").first().waitFor({ timeout: 15000 });
  const heads = await page.locator("#top thead th").allTextContents();
  check(heads.includes("CPU %") && !heads.some((h) => /_/.test(h)), "table titles: " + heads);

  await openRow(page, "click");
  const table = await page.locator("#table-pane").boundingBox();
  const detail = await page.locator("#detail").boundingBox();
  check(detail.x >= table.x + table.width - 1 && detail.y < table.y + table.height,
    `drill-down not beside the table: table ${JSON.stringify(table)}, detail ${JSON.stringify(detail)}`);
  const hash = await page.evaluate(() => location.hash);
  const m = /^#\/process\/(\d+)\?window=5m/.exec(hash);
  check(m, "the URL does not name the open process: " + hash);

  if (mode === "gap") {
    const svg = page.locator("#host-charts svg.chart").first();
    const runs = Number(await svg.getAttribute("data-runs"));
    const gaps = await svg.locator("rect.gap").count();
    const note = await page.locator("#host-note").textContent();
    check(runs >= 2 && gaps >= 1 && /gap\(s\) with no data/.test(note),
      `the restart's gap is not drawn as a gap: ${runs} runs, ${gaps} gap rects, note "${note}"`);
    console.log(`gap drawn: ${runs} runs, note "${note}"`);
    await page.screenshot({ path: `${outdir}/dashboard-gap.png`, fullPage: true });
  }
  if (mode === "demo") {
    const label = await page.locator("#demo:not([hidden])").textContent();
    check(/constructed data, not measured/i.test(label), "no demo label: " + label);
    const segs = await page.locator("#top tbody tr").first().locator(".bar.mini > div").count();
    check(segs >= 4, `the table's bar is not Top-Down level 1: ${segs} segments`);
    const l3 = await page.locator("#stacks .level3 .meter-row").evaluateAll((rs) =>
      rs.map((r) => r.dataset.name));
    check(l3.length >= 8 && l3.includes("icache_misses"),
      "no level 3 under the frontend: " + JSON.stringify(l3));
    await drillDown(page, m[1]);
    check(/mixed/.test(sampling), "the demo's periodic seconds are not said: " + sampling);
    const marks = page.locator("#host-charts svg.chart .periodic");
    await marks.first().waitFor({ timeout: 10000 });
    console.log(`demo: "${label}", ${segs} bar segments, level 3 drawn: ${l3.length} nodes; ` +
      `"${sampling.trim()}", ${await marks.count()} periodic points marked`);
    await page.screenshot({ path: `${outdir}/dashboard-demo.png`, fullPage: true });
    if (process.env.STACKD_SCREENSHOT) {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.waitForTimeout(500); // the charts redraw for the new size
      await page.screenshot({ path: process.env.STACKD_SCREENSHOT });
      await page.setViewportSize({ width: 1400, height: 1000 });
      console.log(`screenshot: ${process.env.STACKD_SCREENSHOT}`);
    }
  }
  if (mode === "live") {
    const model = (await (await page.request.get(new URL("/api/v1/system", url).href)).json()).model;
    const note = await page.locator("#nopmu").textContent();
    check(model !== "software" || /^No PMU/.test(note), "model software but no 'No PMU' note");
    await page.screenshot({ path: `${outdir}/dashboard-1400.png`, fullPage: true });
    await paging(page);
    await deepNarrow(m[1]);
    const charts = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    charts.on("pageerror", (e) => errors.push(String(e)));
    await liveCharts(charts);
    await charts.close();
  }

  // The deep link, in a fresh page: the same process, the window it names.
  const deep = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  deep.on("console", (msg) => { if (msg.type() === "error") errors.push(msg.text()); });
  deep.on("pageerror", (e) => errors.push(String(e)));
  await deep.goto(new URL(`/#/process/${m[1]}?window=1h`, url).href, { waitUntil: "load" });
  await deep.locator("#detail-body:not([hidden]) #detail-title", { hasText: `pid ${m[1]}` })
    .waitFor({ timeout: 10000 });
  check(await deep.locator("#windows button[aria-pressed=true]").textContent() === "1h",
    "the deep link's window is not selected");
  await deep.locator("#windows button", { hasText: "6h" }).click();
  const after = await deep.evaluate(() => location.hash);
  check(after === `#/process/${m[1]}?window=6h`, "the URL did not follow the window: " + after);
  console.log(`deep link round-trips: ${hash} -> #/process/${m[1]}?window=1h -> ${after}`);

  // Keyboard: Enter on a focused row opens it.
  await deep.locator("#detail-close").click();
  const kb = page;
  await kb.goto(url, { waitUntil: "load" });
  await openRow(kb, "enter");

  // A phone: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500); // the charts redraw for the new width
  const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth,
    document.documentElement.clientWidth]);
  check(sw <= cw, `sideways scroll at 390 px: scrollWidth ${sw} > clientWidth ${cw}`);
  if (mode === "live")
    await page.screenshot({ path: `${outdir}/dashboard-390.png`, fullPage: true });
  check(!errors.length, "console errors: " + errors.join(" | "));
  console.log(`ok (${mode}): 390 px scrollWidth ${sw} <= ${cw}`);
  // the browser logs each refused request as an error: expected from here
  if (mode === "live") await offline(page);
} finally {
  await browser.close();
}
