import autocannon from "autocannon";

import { bareServer, benchServer, rawGet, writeResult } from "./support";

/**
 * The landing page and a hashed CSS asset, each against a bare node:http server (its own process)
 * that sends the same bytes with the same headers. Target: the landing page at 0.9 of the bare
 * server's requests/s or better. Both asked with `Accept-Encoding: br`, as browsers do.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;

const run = (url: string) => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": "br, gzip" } });

const server = await benchServer();
try {
  await run(`${server.url}/`); // warm-up: fills the landing cache and JIT
  const landingSample = await rawGet(`${server.url}/`);
  const html = await (await fetch(`${server.url}/`)).text();
  // The stylesheet is inlined (decision 008): the page's first hashed script is the asset measured.
  const asset = /"(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!asset) throw new Error("no hashed asset on the landing page");
  const assetSample = await rawGet(`${server.url}${asset}`);

  const results: Record<string, number | string> = { connections: CONNECTIONS, seconds: DURATION };
  for (const [name, pathname, sample] of [
    ["landing", "/", landingSample],
    ["asset", asset, assetSample],
  ] as const) {
    const bare = await bareServer(sample);
    try {
      await run(`${bare.url}/`);
      const bareResult = await run(`${bare.url}/`);
      const ours = await run(`${server.url}${pathname}`);
      results[`${name}Encoding`] = String(sample.headers["content-encoding"] ?? "identity");
      results[`${name}Bytes`] = sample.body.length;
      results[`${name}BareRps`] = Math.round(bareResult.requests.average);
      results[`${name}Rps`] = Math.round(ours.requests.average);
      results[`${name}P99ms`] = ours.latency.p99;
      results[`${name}Ratio`] = Number((ours.requests.average / bareResult.requests.average).toFixed(2));
      results[`${name}Non2xx`] = ours.non2xx;
    } finally {
      bare.close();
    }
  }
  console.table(results);
  console.log(Number(results.landingRatio) >= 0.9 ? "PASS: landing ≥ 0.9 × a bare node:http server" : "FAIL: landing < 0.9 × a bare node:http server");
  writeResult("landing-throughput", results);
} finally {
  await server.close();
}
