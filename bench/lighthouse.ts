import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { benchServer, writeResult } from "./support";

/** Lighthouse mobile scores for / and /login on the production build. Target: 1.00 in all four. */
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const server = await benchServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME_PATH,
  chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const rows = [];
  for (const page of ["/", "/login"]) {
    const result = await lighthouse(`${server.url}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    const categories = result!.lhr.categories;
    const failing = Object.values(result!.lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
      .map((a) => `${a.id} (${a.score})`);
    const consoleErrors = (result!.lhr.audits["errors-in-console"]?.details as { items?: { description?: string; source?: string }[] } | undefined)?.items ?? [];
    for (const item of consoleErrors) console.log(`${page} console error: ${item.source ?? ""} ${item.description ?? ""}`);
    const ms = (id: string) => Math.round(result!.lhr.audits[id]?.numericValue ?? NaN);
    rows.push({
      page,
      fcpMs: ms("first-contentful-paint"),
      lcpMs: ms("largest-contentful-paint"),
      tbtMs: ms("total-blocking-time"),
      cls: result!.lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
      performance: categories.performance.score,
      accessibility: categories.accessibility.score,
      bestPractices: categories["best-practices"].score,
      seo: categories.seo.score,
      failingAudits: failing.join(", "),
    });
  }
  console.table(rows.map(({ failingAudits: _f, ...r }) => r));
  for (const row of rows) if (row.failingAudits) console.log(`${row.page} audits below 1: ${row.failingAudits}`);
  writeResult("lighthouse", rows);
} finally {
  await chrome.kill();
  await server.close();
}
