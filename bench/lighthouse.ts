import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

import { benchServer, writeResult } from "./support";

/**
 * Lighthouse mobile scores for / and /login on the production build, each the median of
 * LIGHTHOUSE_RUNS runs (3) by performance score. Target: 1.00 in all four.
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const server = await benchServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME_PATH,
  chromeFlags: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  type Row = {
    page: string;
    run: number;
    fcpMs: number;
    lcpMs: number;
    tbtMs: number;
    cls: number;
    performance: number | null;
    accessibility: number | null;
    bestPractices: number | null;
    seo: number | null;
    failingAudits: string;
  };
  const rows: Row[] = [];
  for (const page of ["/", "/login"])
    for (let run = 1; run <= RUNS; run++) {
      const result = await lighthouse(`${server.url}${page}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      });
      const categories = result!.lhr.categories;
      const failing = Object.values(result!.lhr.audits)
        .filter(
          (a) =>
            a.score !== null &&
            a.score < 1 &&
            a.scoreDisplayMode !== "informative" &&
            a.scoreDisplayMode !== "notApplicable" &&
            a.scoreDisplayMode !== "manual",
        )
        .map((a) => `${a.id} (${a.score})`);
      const consoleErrors =
        (result!.lhr.audits["errors-in-console"]?.details as { items?: { description?: string; source?: string }[] } | undefined)?.items ?? [];
      for (const item of consoleErrors) console.log(`${page} console error: ${item.source ?? ""} ${item.description ?? ""}`);
      const ms = (id: string) => Math.round(result!.lhr.audits[id]?.numericValue ?? NaN);
      rows.push({
        page,
        run,
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
  for (const row of rows) if (row.failingAudits) console.log(`${row.page} run ${row.run} audits below 1: ${row.failingAudits}`);
  const medians = ["/", "/login"].map((page) => {
    const runs = rows.filter((r) => r.page === page).sort((a, b) => (a.performance ?? 0) - (b.performance ?? 0));
    return runs[Math.floor(runs.length / 2)];
  });
  console.log("median of the runs, by performance:");
  console.table(medians.map(({ failingAudits: _f, ...r }) => r));
  writeResult("lighthouse", { runs: rows, medians });
} finally {
  await chrome.kill();
  await server.close();
}
