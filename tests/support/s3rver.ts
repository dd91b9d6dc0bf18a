import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** The S3_* settings the app reads (once, at its first import). */
export interface S3Env {
  S3_BUCKET: string;
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
}

/** A running fake bucket: its settings, and `close` (which leaves nothing behind). */
export interface FakeS3 extends S3Env {
  close(): Promise<void>;
}

/** A fake that can also be emptied in place (the shared worker's, between files). */
interface ResettableFakeS3 extends FakeS3 {
  reset(): Promise<void>;
}

/** The bucket of every fake: each fake is a server of its own (or, in a shared worker, emptied per file). */
const BUCKET = "brandlift-files";
const WORKER_S3 = Symbol.for("brandlift.test-worker-s3");

/**
 * s3rver with one bucket in a scratch directory, listening on a port the system gives it (port 0): no
 * other process can take the port between its choice and its use, as one chosen ahead could be.
 */
export async function startFakeS3(bucket = BUCKET): Promise<ResettableFakeS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const configureBuckets = [{ name: bucket, configs: [] }];
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets });
  const { port } = await server.run();
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    /** Empties the store and makes the bucket again, as a new server would have it. */
    async reset() {
      server.reset();
      await server.configureBuckets();
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Only the settings of a fake (for a child process's environment or process.env). */
export function s3EnvOf(s3: FakeS3): S3Env {
  const { S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = s3;
  return { S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY };
}

/**
 * The worker's one fake bucket for project `unit-fakes` (tests/setup/shared-s3.ts), whose files share
 * one import of the app: started by the worker's first file and listening for the worker's life,
 * its settings in process.env before that file imports the app.
 */
export async function startWorkerS3() {
  const global = globalThis as Record<symbol, unknown>;
  if (global[WORKER_S3]) return;
  const s3 = await startFakeS3();
  global[WORKER_S3] = s3;
  Object.assign(process.env, s3EnvOf(s3));
}

/**
 * A test file's fake bucket, empty, its settings in process.env (call it before importing the app).
 * In a shared worker (VITEST_SHARED_S3=1) it is the worker's one server, emptied now and again at
 * `close`; elsewhere a server of the file's own.
 */
export async function fakeS3ForFile(): Promise<FakeS3> {
  const worker = (globalThis as Record<symbol, unknown>)[WORKER_S3] as ResettableFakeS3 | undefined;
  if (process.env.VITEST_SHARED_S3 === "1") {
    if (!worker) throw new Error("VITEST_SHARED_S3=1 without the worker's fake bucket: tests/setup/shared-s3.ts starts it");
    await worker.reset();
    return { ...s3EnvOf(worker), close: () => worker.reset() };
  }
  const s3 = await startFakeS3();
  Object.assign(process.env, s3EnvOf(s3));
  return s3;
}

/** A client of the fake bucket, for checking what the app stored. */
export function s3Client(s3: S3Env) {
  return new S3Client({
    region: s3.S3_REGION,
    endpoint: s3.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.S3_ACCESS_KEY_ID, secretAccessKey: s3.S3_SECRET_ACCESS_KEY },
  });
}
