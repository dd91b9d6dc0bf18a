import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

import { benchServer, signIn, writeResult } from "./support";

/**
 * Lighthouse mobile scores on the production build, each the median of LIGHTHOUSE_RUNS runs (3) by
 * performance score: the public / and /login (target 1.00 in all four categories), and two signed-in
 * dashboards, a customer's services and staff's inbox (target at least 0.95), reached with the demo
 * accounts' bearer tokens sent on every request of the page.
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
  const customer = (await signIn(server.url, "customer@brandlift.test")).token;
  const staff = (await signIn(server.url, "team@brandlift.test")).token;
  const pages: { page: string; token?: string }[] = [
    { page: "/" },
    { page: "/login" },
    { page: "/dashboard/services", token: customer },
    { page: "/dashboard/inbox", token: staff },
  ];
  for (const { page, token } of pages)
    for (let run = 1; run <= RUNS; run++) {
      const result = await lighthouse(`${server.url}${page}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        ...(token ? { extraHeaders: { Authorization: `Bearer ${token}` } } : {}),
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
  const medians = pages.map(({ page }) => {
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
