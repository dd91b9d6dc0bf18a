import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";

import { privateRedis } from "../../support/private-services";
import { s3EnvOf, startFakeS3 } from "../../support/s3rver";
import { startServer, type ServerProcess } from "../../support/server-process";
import { NODES } from "./nodes";

/*
 * The deployment the delivery story runs on in its second configuration (playwright.nodes.config.ts):
 * PostgreSQL (a fresh database on the shared server), a private Redis, a fake S3 bucket (s3rver), the
 * e2e seed, then two production nodes, each answering on its own port with its own APP_URL. Runs
 * until Playwright stops it; the database is dropped at the next start.
 */

const adminUrl = process.env.E2E_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${NODES.database}`;

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${NODES.database} with (force)`);
await admin.unsafe(`create database ${NODES.database}`);
await admin.end();

fs.rmSync(NODES.dataDir, { recursive: true, force: true });
fs.mkdirSync(NODES.dataDir, { recursive: true });
const redis = await privateRedis();
const s3 = await startFakeS3("e2e-nodes");
const s3Env = s3EnvOf(s3);

const shared = {
  DATABASE_URL: databaseUrl.toString(),
  REDIS_URL: redis.url,
  DATA_DIR: NODES.dataDir,
  // Both nodes sign sessions with one secret, as a deployment's nodes do.
  SESSION_SECRET: "e2e-nodes-session-secret-0123456789abcdef",
  ...s3Env,
};

// Asynchronously: the fake bucket answers from this process while the seed runs.
const seed = spawn("npx", ["tsx", path.resolve(import.meta.dirname, "../seed.ts")], {
  env: { ...process.env, ...shared, E2E_DATA_DIR: NODES.dataDir },
  stdio: "inherit",
});
const [code] = (await once(seed, "exit")) as [number | null];
if (code !== 0) throw new Error(`the e2e seed failed on PostgreSQL (exit ${code})`);

const nodes: ServerProcess[] = [];
for (const port of [NODES.customerPort, NODES.staffPort]) {
  nodes.push(await startServer({ ...shared, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` }, { timeoutMs: 90_000 }));
}
console.log(`two nodes on ${nodes.map((node) => node.url).join(" and ")}, PostgreSQL ${NODES.database}, Redis ${redis.url}, S3 ${s3.S3_ENDPOINT}`);

async function stop() {
  await Promise.allSettled(nodes.map((node) => node.stop()));
  await Promise.allSettled([redis.kill(), s3.close()]);
  process.exit(0);
}
process.once("SIGTERM", () => void stop());
process.once("SIGINT", () => void stop());
