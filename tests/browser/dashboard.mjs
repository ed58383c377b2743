// Drive the dashboard in headless Chromium: the page loads without console
// errors, the spinner is in the live table, its stack view and history
// chart draw, the header shows the attributed share, and a screenshot is
// saved.  With "gap" after the screenshot's path, the target's history
// has a stretch with no data (the daemon was restarted): its chart must
// break the line there (two polylines, and the note says so).
// With "l3 FILE", the process detail is answered from FILE (`stackctl show
// --json` rows of the golden fixture's Skylake process: this VM has no PMU)
// and the Top-Down level 3 under the frontend must be drawn.
// Usage: node dashboard.mjs URL COMM SCREENSHOT [gap | l3 FILE]
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const [url, comm, shot, expect, rowsFile] = process.argv.slice(2);
const errors = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  if (expect === "l3") {
    const metrics = JSON.parse(readFileSync(rowsFile, "utf8"));
    await page.route("**/api/v1/processes/**", (route) => route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ model: "skl (constructed: golden fixture rows)", cpu_percent: 90,
        processes: [{ pid: 1001, comm, unit: null, cmdline: "constructed" }], metrics }),
    }));
  }
  await page.goto(url, { waitUntil: "load" });
  const row = page.locator("#top tbody tr", { hasText: comm }).first();
  await row.waitFor({ timeout: 15000 });
  const headers = await page.locator("#top thead th").allTextContents();
  if (!headers.includes("cpu_percent")) throw new Error("no cpu_percent column: " + headers);
  await page.locator("#top thead th", { hasText: "cpu_percent" }).click();
  // The table refreshes every 2 s and after the sort click: try the click
  // again if it raced a refresh, rather than fail on the page's timing.
  const stacks = page.locator("#detail:not([hidden]) #stacks > *").first();
  for (let attempt = 1; ; attempt++) {
    await row.click();
    try {
      await stacks.waitFor({ timeout: 3000 });
      break;
    } catch (e) {
      if (attempt === 4) {
        const status = await page.locator("#status").textContent().catch(() => "?");
        throw new Error(`no stack view after ${attempt} clicks (page status: ${status}): ${e.message}`);
      }
    }
  }
  await page.locator("#chart polyline").first().waitFor({ timeout: 10000 });
  if (expect === "l3") {
    const rows = await page.locator("#stacks .level3 .meter-row").allTextContents();
    if (rows.length < 8 || !rows.some((r) => r.startsWith("icache_misses")))
      throw new Error("no level 3 under the frontend: " + JSON.stringify(rows));
    console.log(`level 3 drawn: ${rows.length} nodes`);
  }
  if (expect === "gap") {
    const lines = await page.locator("#chart polyline").count();
    const note = await page.locator("#chart-note").textContent();
    if (lines < 2 || !/1 gap\(s\) with no data/.test(note))
      throw new Error(`the restart's gap is not drawn as a gap: ${lines} line(s), note "${note}"`);
    console.log(`gap drawn: ${lines} lines, note "${note}"`);
  }
  // The header's headline: the attributed share, from /api/v1/system.
  const attributed = await page.locator("#attribution").textContent();
  if (!/^attributed \d+\.\d% of busy CPU, \d+\.\d% of switches/.test(attributed))
    throw new Error("no attributed share in the header: " + attributed);
  const title = await page.locator("#detail-title").textContent();
  if (!title.includes(comm)) throw new Error("detail shows " + title);
  await page.screenshot({ path: shot, fullPage: true });
  if (errors.length) throw new Error("console errors: " + errors.join(" | "));
  console.log("ok: " + title);
} finally {
  await browser.close();
}
