import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { benchServer, writeResult } from "./support";

/**
 * Landing page throughput against a static file of the same bytes served by the same server
 * (express.static + compression, as every static file is). Target: half the static file's
 * requests/s or better.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;

const server = await benchServer();
const staticPath = path.resolve("build/client/__bench-landing.html");
try {
  fs.writeFileSync(staticPath, await (await fetch(`${server.url}/`)).text());
  const run = (path: string) =>
    autocannon({ url: `${server.url}${path}`, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": "gzip" } });
  await run("/"); // warm-up: fills the landing cache and JIT
  const staticFile = await run("/__bench-landing.html");
  const staticSmall = await run("/favicon.svg");
  const landing = await run("/");
  const ratio = landing.requests.average / staticFile.requests.average;
  const result = {
    connections: CONNECTIONS,
    seconds: DURATION,
    staticSameBytesRps: Math.round(staticFile.requests.average),
    staticFaviconRps: Math.round(staticSmall.requests.average),
    landingRps: Math.round(landing.requests.average),
    landingP99ms: landing.latency.p99,
    ratio: Number(ratio.toFixed(2)),
    ratioToFavicon: Number((landing.requests.average / staticSmall.requests.average).toFixed(2)),
    non2xx: landing.non2xx + staticFile.non2xx,
  };
  console.table(result);
  console.log(ratio >= 0.5 ? "PASS: landing ≥ 0.5 × static" : "FAIL: landing < 0.5 × static");
  writeResult("landing-throughput", result);
} finally {
  fs.rmSync(staticPath, { force: true });
  await server.close();
}
