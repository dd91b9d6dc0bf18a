import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** The S3_* settings a test file puts in process.env (inside vi.hoisted, before the app reads them). */
export interface S3Settings {
  port: number;
  S3_BUCKET: string;
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
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
