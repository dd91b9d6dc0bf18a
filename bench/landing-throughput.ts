import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchServer, writeResult } from "./support";

/**
 * The landing page and a hashed CSS asset, each against a bare node:http server (its own process)
 * that sends the same bytes with the same headers. Target: the landing page at half the bare
 * server's requests/s or better. Both asked with `Accept-Encoding: br`, as browsers do.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const ENCODING = { "accept-encoding": "br, gzip" };

function rawGet(url: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: ENCODING }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** A bare server in a child process, answering with exactly these bytes and headers. */
async function bareServer(sample: { headers: http.IncomingHttpHeaders; body: Buffer }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bare-"));
  const headers = Object.fromEntries(Object.entries(sample.headers).filter(([name]) => !["content-length", "date", "connection", "keep-alive", "transfer-encoding"].includes(name)));
  fs.writeFileSync(path.join(dir, "body"), sample.body);
  fs.writeFileSync(path.join(dir, "headers.json"), JSON.stringify(headers));
  const child = spawn(process.execPath, [path.resolve("bench/bare-server.mjs"), path.join(dir, "body"), path.join(dir, "headers.json")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) => child.stdout.on("data", (d: Buffer) => { const m = /PORT (\d+)/.exec(String(d)); if (m) resolve(Number(m[1])); }));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => { child.kill("SIGTERM"); fs.rmSync(dir, { recursive: true, force: true }); },
  };
}

const run = (url: string) => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: ENCODING });

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
  for (const [name, pathname, sample] of [["landing", "/", landingSample], ["asset", asset, assetSample]] as const) {
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
  console.log(Number(results.landingRatio) >= 0.5 ? "PASS: landing ≥ 0.5 × a bare node:http server" : "FAIL: landing < 0.5 × a bare node:http server");
  writeResult("landing-throughput", results);
} finally {
  await server.close();
}
