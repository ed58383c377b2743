// Drive the dashboard in headless Chromium against a running stackd.
// Every mode: no console errors (a CSP violation is one); the host chart
// has labelled time ticks and answers a hover; the health line shows the
// attributed share and the sampling mode; the table has human titles; a row opens the
// drill-down beside the table at 1,400 px; the deep link round-trips
// (#/process/PID?window=1h reopens it, a window click updates it); Enter
// on a focused row opens it; at 390 px nothing scrolls sideways.
//   live: the process COMM is in the table; model software: the page says
//         there is no PMU.  Screenshots dashboard-1400.png, -390.png.
//   gap:  stackd was stopped and started again: the host chart draws
//         that stretch as a gap (two runs, a shaded "no data" rect).
//   demo: stackd --demo: the header says the data is constructed, the
//         table's bars are Top-Down L1, level 3 is drawn under the
//         frontend; the sampling mode is mixed (its newest minute has
//         periodic seconds) and the host chart marks those points.
//         Screenshot dashboard-demo.png.
// STACKD_SCREENSHOT=FILE (demo mode only; unset: nothing more is written)
// also saves the 1,400 x 900 px view with the drill-down open as FILE:
// the README's docs/dashboard.png (docs/design.md says how to refresh it).
// Usage: node dashboard.mjs URL COMM OUTDIR live|gap|demo
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
    const l3 = await page.locator("#stacks .level3 .meter-row").allTextContents();
    check(l3.length >= 8 && l3.some((r) => r.startsWith("icache_misses")),
      "no level 3 under the frontend: " + JSON.stringify(l3));
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
} finally {
  await browser.close();
}
