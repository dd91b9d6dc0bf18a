import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** The S3_* settings a test file puts in process.env (before it imports the app, which reads them once). */
export interface S3Settings {
  port: number;
  S3_BUCKET: string;
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
}

/**
 * A file's S3 settings, put into process.env: its own bucket on a random port, or, where one worker
 * runs the S3 files against one import of the app (project `unit-s3`, VITEST_SHARED_S3=1), the
 * worker's one endpoint (set by tests/setup/shared-s3.ts) and bucket, on which each file starts its
 * own s3rver with a fresh directory.
 */
export function s3Settings(bucket: string): S3Settings {
  const shared = process.env.VITEST_SHARED_S3 === "1";
  const port = shared ? Number(new URL(process.env.S3_ENDPOINT!).port) : 40_000 + Math.floor(Math.random() * 20_000);
  const settings = {
    S3_BUCKET: shared ? "brandlift-files" : bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
  };
  Object.assign(process.env, settings);
  return { port, ...settings };
}

/** A client of the fake bucket, for checking what the app stored. */
export function s3Client(s3: S3Settings) {
  return new S3Client({
    region: s3.S3_REGION,
    endpoint: s3.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.S3_ACCESS_KEY_ID, secretAccessKey: s3.S3_SECRET_ACCESS_KEY },
  });
}

/** s3rver on the settings' port with their bucket, in a scratch directory; `close` removes both. */
export async function startS3rver(s3: S3Settings) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ port: s3.port, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: s3.S3_BUCKET, configs: [] }] });
  await server.run();
  return {
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
