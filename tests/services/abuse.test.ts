import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { connectPostgres, type Database } from "#db/client";
import { schema } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";
import { sendStreaming } from "../support/streaming-client";

/*
 * The abuse suite: what an attacker sends from outside, against a production build (a child
 * process on PostgreSQL and Redis), each hostile input of docs/permissions.md as a test: bodies
 * (size counted while streaming, fields, uploads, the webhook, malformed multipart), the redirect
 * after sign-in, control characters, sign-in and forgot-password limits, caching of signed-in
 * answers, and the node's memory and /healthz under eight concurrent 200 MiB bodies.
 * The figures are printed as "ABUSE <name>: <value>" for docs/faults.md.
 */

const MiB = 1024 * 1024;
const PASSWORD = "abuse suite password 1";
const adminUrl = process.env.DATABASE_URL!;
const name = `brandlift_abuse_${crypto.randomBytes(4).toString("hex")}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-abuse-"));
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });

let node: ServerProcess;
let database: Database;
let owner: { id: string; email: string };
let staffToken: string;
let serviceId: string;

function figure(label: string, value: number | string) {
  console.log(`ABUSE ${label}: ${value}`);
}

let ipCounter = 0;
/** A client address of its own (the node trusts X-Forwarded-For from loopback). */
const nextIp = () => `203.0.113.${(ipCounter = (ipCounter % 250) + 1)}`;

async function account(role: "user" | "team", label: string) {
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `${label}-${crypto.randomBytes(4).toString("hex")}@abuse.test`, name: label, role, passwordHash: await hashPassword(PASSWORD) })
    .returning();
  return user!;
}

beforeAll(async () => {
  ensureBuild();
  await admin.unsafe(`create database ${name} template ${inject("databaseTemplate")}`);
  database = connectPostgres(databaseUrl, { max: 2 });
  owner = await account("user", "owner");
  const staff = await account("team", "staff");
  staffToken = randomToken();
  await database.db
    .insert(schema.sessions)
    .values({ tokenHash: hashToken(staffToken), kind: "bearer", userId: staff.id, expiresAt: new Date(Date.now() + 3600_000) });
  // One process (no cluster workers), so its RSS is the node's.
  node = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL!,
    WEB_CONCURRENCY: "1",
    NODE_OPTIONS: `--import ${path.resolve(import.meta.dirname, "../support/event-loop-delay.mjs")}`,
  });
  os.setPriority(node.child.pid!, FAVOURED);
  const [service] = await database.db.select().from(schema.services).limit(1);
  serviceId = service!.id;
}, 240_000);

afterAll(async () => {
  await node?.stop("SIGTERM");
  await database?.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const url = (pathname: string) => `${node.url}${pathname}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postForm = (pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url(pathname), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": nextIp(), ...headers },
    body: form(fields),
  });
const postJson = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url(pathname), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

interface EventLoopFigures {
  max: number;
  p99: number;
  mean: number;
  busyMax: number;
}

/** How late the node's event loop ran since the last call (its own figure, see event-loop-delay.mjs). */
async function eventLoopDelay(): Promise<EventLoopFigures> {
  const seen = node.output().split("EVENT_LOOP_DELAY ").length;
  node.child.kill("SIGUSR2");
  for (let i = 0; node.output().split("EVENT_LOOP_DELAY ").length === seen; i++) {
    if (i > 200) throw new Error("the node did not report its event-loop delay");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return JSON.parse(node.output().split("EVENT_LOOP_DELAY ").at(-1)!.split("\n")[0]!) as EventLoopFigures;
}

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function rssBytes(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/*
 * The node and the /healthz prober run at a higher scheduling priority than this process (the
 * attacker) and anything else on the machine: the suites share two cores with other work, whose
 * load would otherwise show up as the node's latency. The attacker gets no such favour.
 */
const FAVOURED = -10;

/*
 * /healthz is timed from a process of its own: this one is busy pumping the attack's bytes, and
 * its own event loop would otherwise show up in the figures. It probes every 10 ms (one at a
 * time, on a kept-alive connection) until told to stop, then prints the timings.
 */
const PROBER = `
const timings = [];
let running = true;
process.stdin.once("data", () => (running = false));
(async () => {
  await fetch(process.argv[1]).then((r) => r.arrayBuffer());
  process.stdout.write("ready\\n");
  while (running) {
    const started = performance.now();
    await fetch(process.argv[1]).then((r) => r.arrayBuffer());
    timings.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  process.stdout.write(JSON.stringify(timings) + "\\n");
  process.exit(0);
})();
`;

async function startProber() {
  const child = spawn(process.execPath, ["-e", PROBER, url("/healthz")], { stdio: ["pipe", "pipe", "inherit"] });
  os.setPriority(child.pid!, FAVOURED);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve) => child.stdout.on("data", () => output.includes("ready") && resolve()));
  return async (): Promise<number[]> => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.write("stop\n");
    await exited;
    return JSON.parse(output.split("\n").filter(Boolean).at(-1)!) as number[];
  };
}

/** /healthz timings and the node's peak RSS while `work` runs. */
async function watch<T>(work: () => Promise<T>) {
  const pid = node.child.pid!;
  let peak = rssBytes(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 5);
  const stopProber = await startProber();
  let healthz: number[] | undefined;
  try {
    const result = await work();
    healthz = await stopProber();
    return { result, peak, healthz };
  } finally {
    clearInterval(sampler);
    if (!healthz) await stopProber();
  }
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const summary = (values: number[]) => [50, 95, 100].map((p) => percentile(values, p).toFixed(1)).join(" / ");

const errorShape = (code: string) => ({ success: false, status: "error", message: expect.any(String), error: expect.any(String), code });

describe("bodies are bounded before they are buffered", () => {
  test("a 6 MB JSON body is 413 (not 400), declared or streamed", async () => {
    const big = JSON.stringify({ email: "a@b.c", password: "x".repeat(6_000_000) });
    const declared = await postJson("/api/auth/login", big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ ...errorShape("PAYLOAD_TOO_LARGE"), requestId: expect.any(String) });
    const streamed = await sendStreaming(url("/api/auth/login"), { headers: { "Content-Type": "application/json" }, bytes: 6 * MiB });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject(errorShape("PAYLOAD_TOO_LARGE"));
  });

  test("urlencoded: over 1,000 fields is 413; 300,000 fields to /login do not stall /healthz", async () => {
    const fields = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join("&");
    expect((await fetch(url("/login"), { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: fields })).status).toBe(413);
    const flood = Buffer.from(Array.from({ length: 300_000 }, (_, i) => `f${i}=1`).join("&"));
    const floods = () =>
      Promise.all(
        Array.from({ length: 4 }, () =>
          sendStreaming(url("/login"), {
            headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": nextIp() },
            bytes: flood.length,
            chunk: flood,
          }),
        ),
      );
    await floods();
    // What four of them cost the node, on its own (no probes): the most it could hold its event loop.
    const cpuBefore = cpuMs(node.child.pid!);
    expect((await floods()).map((answer) => answer.status)).toEqual([413, 413, 413, 413]);
    const cpuFour = cpuMs(node.child.pid!) - cpuBefore;
    const idle = await watch(() => new Promise((resolve) => setTimeout(resolve, 1500)));
    const statuses: number[] = [];
    await eventLoopDelay();
    const started = Date.now();
    const { healthz } = await watch(async () => {
      while (Date.now() - started < 1500) {
        statuses.push(...(await floods()).map((answer) => answer.status));
      }
    });
    const delay = await eventLoopDelay();
    expect(new Set(statuses)).toEqual(new Set([413]));
    figure("300,000-field bodies to /login, all answered 413", statuses.length);
    figure("node CPU time for four of them at once (ms)", cpuFour.toFixed(0));
    figure("node event loop while they came: longest busy stretch; lateness max / p99 (ms)", `${delay.busyMax}; ${delay.max} / ${delay.p99}`);
    figure("/healthz while they came: median / p95 / slowest (ms)", summary(healthz));
    figure("/healthz idle before: median / p95 / slowest (ms)", summary(idle.healthz));
    // /healthz waits only for the node's event loop (and the database ping): the node never kept
    // its loop busy for 100 ms. The wall-clock figures above also carry the machine's other load.
    expect(delay.busyMax).toBeLessThan(100);
  });

  test("the webhook takes at most 1 MiB", async () => {
    const answer = await sendStreaming(url("/api/stripe/webhook"), {
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=x" },
      bytes: 2 * MiB,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject(errorShape("PAYLOAD_TOO_LARGE"));
  });

  test("an upload without Content-Length: an extra part cannot carry more than the 10 MiB file plus 64 KiB", async () => {
    const boundary = "----abuse";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nMonthly report\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="userId"\r\n\r\n${owner.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="extra"; filename="junk.bin"\r\n\r\n`,
    );
    const { result, peak } = await watch(() =>
      sendStreaming(url(`/api/reports/service/${serviceId}/upload`), {
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Authorization: `Bearer ${staffToken}` },
        prefix: head,
        bytes: 200 * MiB,
      }),
    );
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject(errorShape("PAYLOAD_TOO_LARGE"));
    figure("RSS peak during a 200 MiB multipart part without Content-Length (MB)", (peak / MiB).toFixed(0));
  });

  test("a malformed multipart body is 400 on the upload API and on a page form; a JSON route refuses multipart with 415", async () => {
    const headers = { "Content-Type": "multipart/form-data; boundary=xyz" };
    const body = '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\ncut short';
    const upload = await fetch(url(`/api/reports/service/${serviceId}/upload`), {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${staffToken}` },
      body,
    });
    expect(upload.status).toBe(400);
    expect(await upload.json()).toMatchObject(errorShape("MALFORMED_UPLOAD"));
    for (const [pathname, status] of [
      ["/login", 400],
      ["/forgot-password", 400],
      ["/api/auth/login", 415],
    ] as const) {
      const answer = await fetch(url(pathname), { method: "POST", headers: { ...headers, "X-Forwarded-For": nextIp() }, body });
      expect(answer.status, pathname).toBe(status);
    }
  });
});

describe("the redirect after sign-in stays on this site", () => {
  test.each([
    ["/\t/evil.example", "/dashboard"],
    ["/dashboard\u0001", "/dashboard"],
    ["//evil.example", "/dashboard"],
    ["/dashboard/services?q=\u0100", "/dashboard/services?q=%C4%80"],
  ])("redirectTo %j → %s, never a 500", async (redirectTo, location) => {
    const answer = await postForm("/login", { email: owner.email, password: PASSWORD, redirectTo });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(location);
  });
});

describe("control characters are refused with 400, never 500", () => {
  const NUL = "a\u0000b";

  test("search, order name, contact form, session_id, report title, file name", async () => {
    const bearer = { Authorization: `Bearer ${staffToken}` };
    const search = await fetch(url(`/api/users?search=${encodeURIComponent(NUL)}`), { headers: bearer });
    expect(search.status).toBe(400);
    expect(await search.json()).toMatchObject({ message: "The search contains characters that are not allowed (control or text-direction characters)" });

    const order = await postJson("/api/services/purchase", {
      name: NUL,
      email: "buyer@abuse.test",
      services: [{ serviceId, pricingType: "one_time", quantity: 1 }],
    });
    expect(order.status).toBe(400);
    expect(await order.json()).toMatchObject({ message: "Name contains characters that are not allowed (control or text-direction characters)" });

    const contact = await postForm("/?index", { intent: "contact", firstName: NUL, email: "visitor@abuse.test", message: "Hello" });
    expect(contact.status).toBe(400);
    const multiLine = await postForm("/?index", { intent: "contact", email: "visitor@abuse.test", message: "line one\r\n\tline two" });
    expect(multiLine.status).toBe(200);

    expect((await fetch(url(`/purchase/success?session_id=${encodeURIComponent(NUL)}`))).status).toBe(400);

    const upload = (fields: FormData) => fetch(url(`/api/reports/service/${serviceId}/upload`), { method: "POST", headers: bearer, body: fields });
    const pdf = () => new File([Buffer.from("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")], "report.pdf", { type: "application/pdf" });
    const titled = new FormData();
    titled.set("title", NUL);
    titled.set("userId", owner.id);
    titled.set("report", pdf());
    const title = await upload(titled);
    expect(title.status).toBe(400);
    expect(await title.json()).toMatchObject({ message: "The report title contains characters that are not allowed (control or text-direction characters)" });

    // A file name with a quote and a semicolon, written raw as a hostile client would.
    const boundary = "----name";
    const raw = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nReport\r\n--${boundary}\r\nContent-Disposition: form-data; name="userId"\r\n\r\n${owner.id}\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="a"b; c.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`,
      ),
    ]);
    const named = await fetch(url(`/api/reports/service/${serviceId}/upload`), {
      method: "POST",
      headers: { ...bearer, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: raw,
    });
    expect(named.status).toBe(400);
  });
});

describe("sign-in and forgot-password limits", () => {
  test("ten wrong passwords from rotating addresses do not lock the owner out; the 11th from one address and e-mail is 429", async () => {
    for (let i = 0; i < 10; i++) expect((await postJson("/api/auth/login", { email: owner.email, password: "wrong password" })).status).toBe(401);
    expect((await postJson("/api/auth/login", { email: owner.email, password: PASSWORD })).status).toBe(200);
    const ip = nextIp();
    for (let i = 0; i < 10; i++)
      expect((await postJson("/api/auth/login", { email: owner.email, password: "wrong password" }, { "X-Forwarded-For": ip })).status).toBe(401);
    const eleventh = await postJson("/api/auth/login", { email: owner.email, password: PASSWORD }, { "X-Forwarded-For": ip });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get("Retry-After")).toMatch(/^\d+$/);
    // The owner, elsewhere, still gets in.
    expect((await postJson("/api/auth/login", { email: owner.email, password: PASSWORD })).status).toBe(200);
  });

  test("forgot-password: one answer for an account and a stranger; the 21st from one address in an hour is 429", async () => {
    const known = await postJson("/api/auth/forgot-password", { email: owner.email });
    const unknown = await postJson("/api/auth/forgot-password", { email: "nobody@abuse.test" });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await known.json()).toEqual(await unknown.json());
    const ip = nextIp();
    for (let i = 0; i < 20; i++)
      expect((await postJson("/api/auth/forgot-password", { email: `many-${i}@abuse.test` }, { "X-Forwarded-For": ip })).status).toBe(200);
    expect((await postJson("/api/auth/forgot-password", { email: "one-more@abuse.test" }, { "X-Forwarded-For": ip })).status).toBe(429);
  });
});

describe("answers that depend on who is signed in are never cached", () => {
  test("dashboard HTML, its .data and /api are private, no-store; public pages and hashed assets stay cacheable", async () => {
    const signIn = await postForm("/login", { email: owner.email, password: PASSWORD });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("__session=");
    const signedIn = { Cookie: cookie };
    expect((await fetch(url("/dashboard"), { headers: signedIn })).headers.get("Cache-Control")).toBe("private, no-store");
    expect((await fetch(url("/dashboard.data"), { headers: signedIn })).headers.get("Cache-Control")).toBe("private, no-store");
    expect((await fetch(url("/api/services/my-purchases"), { headers: signedIn })).headers.get("Cache-Control")).toBe("private, no-store");
    expect((await fetch(url("/api/services"))).headers.get("Cache-Control")).toBe("private, no-store");
    expect((await fetch(url("/"), { headers: signedIn })).headers.get("Cache-Control")).toBe("private, no-store");

    const landing = await fetch(url("/"));
    expect(landing.status).toBe(200);
    expect(landing.headers.get("Cache-Control") ?? "").not.toContain("no-store");
    const asset = /\/assets\/[\w.-]+\.js/.exec(await landing.text())![0];
    const cached = await fetch(url(asset), { headers: signedIn });
    expect(cached.headers.get("Cache-Control")).toContain("immutable");
  });
});

describe("memory", () => {
  test("eight concurrent 200 MiB bodies leave RSS under +100 MB and /healthz under 100 ms", async () => {
    const attack = () =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          sendStreaming(url(i % 2 === 0 ? "/api/auth/login" : "/login"), {
            headers: { "Content-Type": i % 2 === 0 ? "application/json" : "application/x-www-form-urlencoded", "X-Forwarded-For": nextIp() },
            bytes: 200 * MiB,
            chunk: Buffer.alloc(256 * 1024, 0x61),
          }).catch(() => ({ status: 0, body: "", headers: {}, sent: 0 })),
        ),
      );
    await attack(); // warm-up: the first round pays for code paths and buffers once
    await new Promise((resolve) => setTimeout(resolve, 500));
    // What one round costs the node, on its own (no probes): the most it could hold its event loop.
    const cpuRoundStart = cpuMs(node.child.pid!);
    expect((await attack()).filter((answer) => answer.status !== 413 && answer.status !== 0)).toEqual([]);
    const cpuOneRound = cpuMs(node.child.pid!) - cpuRoundStart;
    const before = rssBytes(node.child.pid!);
    const rounds: number[][] = [];
    const idle = await watch(() => new Promise((resolve) => setTimeout(resolve, 2000)));
    // Includes the /healthz probes of the rounds (a few ms each): an upper bound.
    const cpuBefore = cpuMs(node.child.pid!);
    await eventLoopDelay();
    // Rounds for at least two seconds, so /healthz is asked often enough while they run.
    const started = Date.now();
    const { peak, healthz } = await watch(async () => {
      while (rounds.length < 3 || Date.now() - started < 2000) rounds.push((await attack()).map((answer) => answer.status));
    });
    const cpuAfter = cpuMs(node.child.pid!);
    const delay = await eventLoopDelay();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = rssBytes(node.child.pid!);
    const growth = (peak - before) / MiB;
    figure("RSS before eight concurrent 200 MiB bodies (MB)", (before / MiB).toFixed(0));
    figure("RSS peak during three rounds of them (MB)", (peak / MiB).toFixed(0));
    figure("RSS growth at the peak (MB)", growth.toFixed(1));
    figure("RSS growth after (MB)", ((after - before) / MiB).toFixed(1));
    const cpuPerRound = (cpuAfter - cpuBefore) / rounds.length;
    figure("node CPU time for one round of eight bodies, alone (ms)", cpuOneRound.toFixed(0));
    figure("node CPU time per round of eight bodies, /healthz probes included (ms)", cpuPerRound.toFixed(0));
    figure("node event loop during the rounds: longest busy stretch; lateness max / p99 (ms)", `${delay.busyMax}; ${delay.max} / ${delay.p99}`);
    figure("/healthz idle: median / p95 / slowest (ms)", summary(idle.healthz));
    figure("/healthz during the rounds: median / p95 / slowest (ms)", summary(healthz));
    figure("/healthz probes during the rounds", healthz.length);
    const answered = rounds.flat().filter((status) => status === 413).length;
    figure("bodies answered 413 (the others: cut off after the answer, while still sending)", `${answered} of ${rounds.flat().length}`);
    // An attacker that keeps sending after the 413 may lose the answer to the cut; nothing else happens.
    expect(rounds.flat().filter((status) => status !== 413 && status !== 0)).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    expect(growth).toBeLessThan(100);
    // /healthz waits only for the node's event loop (and the database ping): the node never kept
    // its loop busy for 100 ms. The wall-clock figures above also carry the machine's other load.
    expect(delay.busyMax).toBeLessThan(100);
    expect(node.child.exitCode).toBeNull();
  }, 120_000);
});
