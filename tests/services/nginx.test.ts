import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { hashPassword } from "~/utils/password.server";

import { ThreadClient } from "../support/chat-helpers";
import { createNodesDatabase, nodesAccount } from "../support/chat-nodes-helpers";
import { startNginx, type Nginx } from "../support/nginx";
import { privateRedis, type PrivateRedis } from "../support/private-services";
import { ensureBuild, freePort, startServer, type ServerProcess } from "../support/server-process";

/*
 * What a deployment runs: nginx (deploy/nginx.conf) in front of two production nodes that share
 * PostgreSQL, Redis and S3-compatible storage (s3rver). Sign-in, an order on the test checkout,
 * a report upload and download, and a chat across the two nodes, all through the proxy.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-nginx-suite-"));
let database: Awaited<ReturnType<typeof createNodesDatabase>>;
let redis: PrivateRedis;
let s3: S3rver;
let nginx: Nginx;
const nodes: ServerProcess[] = [];
const clients: ThreadClient[] = [];
let origin = "";

const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from(crypto.randomBytes(2048).toString("hex")), Buffer.from("\n%%EOF\n")]);

beforeAll(async () => {
  ensureBuild();
  if (!env.databaseUrl) throw new Error("DATABASE_URL is not set: this suite needs PostgreSQL.");
  database = await createNodesDatabase(env.databaseUrl, inject("databaseTemplate"));
  redis = await privateRedis();
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: path.join(dataDir, "s3"),
    configureBuckets: [{ name: "brandlift", configs: [] }],
  });
  const { port: s3Port } = await s3.run();
  const ports = [await freePort(), await freePort()];
  const proxyPort = await freePort();
  origin = `http://127.0.0.1:${proxyPort}`;
  const settings = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    APP_URL: origin,
    TRUST_PROXY: "loopback",
    SESSION_SECRET: "nginx-suite-secret-0123456789abcdef",
    S3_BUCKET: "brandlift",
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
  };
  nodes.push(...(await Promise.all(ports.map((port, i) => startServer({ ...settings, PORT: String(port), DATA_DIR: path.join(dataDir, `node-${i}`) })))));
  nginx = await startNginx(ports, proxyPort);
}, 240_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(nodes.map((n) => n.stop("SIGKILL")));
  await nginx?.stop();
  await s3?.close();
  await redis?.kill();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

async function staffWithPassword() {
  const email = `nginx-staff-${crypto.randomBytes(4).toString("hex")}@proxy.test`;
  const password = "proxy-suite-password";
  await database.database.db.insert(schema.users).values({ email, name: "Pat Proxy", role: "team", passwordHash: await hashPassword(password) });
  return { email, password };
}

describe("nginx in front of two nodes", () => {
  test("the proxy spreads requests over both nodes and serves hashed assets with a year-long cache", async () => {
    for (let i = 0; i < 6; i++) expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const upstreams = new Set(
      nginx
        .accessLog()
        .filter((l) => l.path === "/healthz")
        .map((l) => l.upstream),
    );
    expect(upstreams).toEqual(new Set(nodes.map((n) => `127.0.0.1:${n.port}`)));
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    const asset = /\/assets\/[^"]+\.js/.exec(await page.text())?.[0];
    expect(asset).toBeTruthy();
    const css = await fetch(`${origin}${asset}`);
    expect(css.status).toBe(200);
    expect(css.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  test("sign in with the form: the session cookie works on whichever node serves the next request", async () => {
    const staff = await staffWithPassword();
    const response = await fetch(`${origin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { ...FORM, Origin: origin },
      body: form({ email: staff.email, password: staff.password, redirectTo: "/dashboard" }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const dashboard = await fetch(`${origin}/dashboard/users`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("Pat Proxy");
    }
    for (const line of nginx.accessLog().filter((l) => l.path === "/dashboard/users")) served.add(line.upstream);
    expect(served.size).toBe(2);
  });

  test("an order paid on the test checkout, a report uploaded to S3 and downloaded, all through the proxy", async () => {
    const services = (await (await fetch(`${origin}/api/services`)).json()) as { data: Array<{ _id: string; name: string }> };
    const service = services.data[0]!;
    const email = `nginx-buyer-${crypto.randomBytes(4).toString("hex")}@proxy.test`;
    const ordered = await fetch(`${origin}/api/services/purchase`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, name: "Bo Buyer", services: [{ serviceId: service._id, pricingType: "one_time", quantity: 1 }] }),
    });
    expect(ordered.status).toBe(200);
    const { checkoutUrl } = ((await ordered.json()) as { data: { checkoutUrl: string } }).data;
    expect(checkoutUrl.startsWith(`${origin}/checkout/test/`)).toBe(true);
    const paid = await fetch(checkoutUrl, {
      method: "POST",
      redirect: "manual",
      headers: { ...FORM, Origin: origin },
      body: form({ intent: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123", cardholder: "Bo Buyer" }),
    });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toContain("/purchase/success?session_id=");
    const [buyer] = await database.database.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(buyer).toBeTruthy();

    const staff = await nodesAccount(database.database, "team", "Uma Upload");
    const upload = new FormData();
    upload.append("report", new Blob([PDF], { type: "application/pdf" }), "proxy-report.pdf");
    upload.append("title", "Proxy report");
    upload.append("userId", buyer!.id);
    const uploaded = await fetch(`${origin}/api/reports/service/${service._id}/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${staff.token}` },
      body: upload,
    });
    expect(uploaded.status).toBe(201);
    const report = ((await uploaded.json()) as { data: { _id: string } }).data;
    const link = await fetch(`${origin}/api/reports/${report._id}/download`, { headers: { Authorization: `Bearer ${staff.token}` } });
    expect(link.status).toBe(200);
    const { downloadUrl } = ((await link.json()) as { data: { downloadUrl: string } }).data;
    const file = await fetch(downloadUrl.startsWith("http") ? downloadUrl : `${origin}${downloadUrl}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("attachment");
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  test("chat through the proxy: a customer and staff on different nodes talk both ways", async () => {
    const customer = await nodesAccount(database.database, "user", "Cleo Client");
    const staff = await nodesAccount(database.database, "team", "Sid Support");
    const socketLines = () => nginx.accessLog().filter((l) => l.path.startsWith("/socket.io/"));
    // Round robin decides where each websocket lands; nginx logs an upgrade when it ends. Talk in
    // pairs until a pair sat on two nodes (the first or second pair, in practice).
    let crossNode = 0;
    for (let round = 0; round < 6 && crossNode === 0; round++) {
      const before = socketLines().length;
      const atCustomer = new ThreadClient(origin, customer.token, customer.id);
      await atCustomer.connected();
      while (atCustomer.catchUps === 0) await new Promise((r) => setTimeout(r, 20));
      // Shift the round robin by one more request each round.
      for (let i = 0; i < round; i++) await fetch(`${origin}/healthz`);
      const atStaff = new ThreadClient(origin, staff.token, customer.id);
      await atStaff.connected();
      expect((await atCustomer.send(`hello through nginx ${round}`)).ok).toBe(true);
      await atStaff.has([`hello through nginx ${round}`], 10_000);
      expect((await atStaff.send(`hello back ${round}`, customer.id)).ok).toBe(true);
      await atCustomer.has([`hello through nginx ${round}`, `hello back ${round}`], 10_000);
      atCustomer.close();
      atStaff.close();
      const deadline = Date.now() + 10_000;
      while (socketLines().length < before + 2) {
        if (Date.now() > deadline) throw new Error("nginx logged no websocket upgrades");
        await new Promise((r) => setTimeout(r, 50));
      }
      const pair = socketLines().slice(before, before + 2);
      expect(pair.every((l) => l.status === 101)).toBe(true);
      if (pair[0]!.upstream !== pair[1]!.upstream) crossNode++;
    }
    expect(crossNode).toBe(1);
  });
});
