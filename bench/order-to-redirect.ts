import { FAKE_WEBHOOK_SECRET, startFakeStripe } from "../tests/fakes/stripe";
import { benchServer, writeResult } from "./support";

/*
 * Order → checkout redirect: how long a visitor waits between "Submit Order" and the browser
 * leaving for the checkout page. Measured on the production build for the landing form
 * (POST /?index → 302) and the JSON API (POST /api/services/purchase → checkoutUrl), first with
 * the built-in test checkout, then through the real `stripe` SDK against the local fake Stripe.
 * Each request comes from its own X-Forwarded-For address (trusted from loopback) so the order
 * rate limit (20 a minute per IP) measures nothing here. Target: p95 under 150 ms.
 */
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100);
const CONCURRENCY = 10;

let ip = 0;
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;

async function measure(url: string, serviceIds: string[], kind: "form" | "api") {
  const once = async () => {
    const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@bench.test`;
    const started = performance.now();
    let ok: boolean;
    if (kind === "form") {
      const body = new URLSearchParams({ intent: "order", name: "Bench Buyer", email });
      for (const id of serviceIds) body.append("services", id);
      const response = await fetch(`${url}/?index`, { method: "POST", body, redirect: "manual", headers: { "X-Forwarded-For": nextIp() } });
      ok = response.status === 302 && !!response.headers.get("Location")?.includes("checkout");
      await response.arrayBuffer();
    } else {
      const response = await fetch(`${url}/api/services/purchase`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
        body: JSON.stringify({ name: "Bench Buyer", email, services: serviceIds.map((serviceId) => ({ serviceId, pricingType: "one_time", quantity: 1 })) }),
      });
      const json = (await response.json()) as { data?: { checkoutUrl?: string } };
      ok = response.status === 200 && !!json.data?.checkoutUrl;
    }
    if (!ok) throw new Error(`${kind} order did not answer a checkout redirect`);
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) await once(); // warm-up
  const sequential: number[] = [];
  for (let i = 0; i < ORDERS; i++) sequential.push(await once());
  const concurrent: number[] = [];
  for (let i = 0; i < ORDERS / CONCURRENCY; i++) concurrent.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, once))));
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
    return { p50ms: at(0.5), p95ms: at(0.95), p99ms: at(0.99), maxMs: at(1) };
  };
  return { sequential: stats(sequential), [`concurrent${CONCURRENCY}`]: stats(concurrent) };
}

async function run(label: string, env: Record<string, string>) {
  const server = await benchServer(env);
  try {
    const services = (await (await fetch(`${server.url}/api/services`)).json()) as { data: { _id: string }[] };
    const picked = services.data.slice(0, 3).map((s) => s._id);
    const rows = [];
    for (const kind of ["form", "api"] as const) {
      const result = await measure(server.url, picked, kind);
      for (const [mode, stats] of Object.entries(result)) rows.push({ gateway: label, request: kind, mode, ...stats });
    }
    return rows;
  } finally {
    await server.close();
  }
}

const fake = await startFakeStripe();
try {
  const rows = [
    ...(await run("test checkout", {})),
    ...(await run("stripe SDK → fake", { STRIPE_SECRET_KEY: "sk_test_bench", STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, STRIPE_API_URL: fake.url })),
  ];
  console.log(`order → checkout redirect, ${ORDERS} orders of 3 services each (sequential, then ${CONCURRENCY} at a time)`);
  console.table(rows);
  const worst = Math.max(...rows.filter((r) => r.mode === "sequential").map((r) => r.p95ms));
  console.log(worst < 150 ? `PASS: worst sequential p95 ${worst} ms < 150 ms` : `FAIL: worst sequential p95 ${worst} ms ≥ 150 ms`);
  writeResult("order-to-redirect", { orders: ORDERS, concurrency: CONCURRENCY, rows });
} finally {
  await fake.close();
}
