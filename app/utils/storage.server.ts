import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";

import { env } from "./env.server";

/** Where report files live: local disk under STORAGE_DIR, or S3-compatible storage with S3_*. */
export interface Storage {
  kind: "disk" | "s3";
  /** Streams the body in; rejects (and leaves nothing behind) if the stream errors. */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Every stored key (backups read them all; a disk upload still being written is left out). */
  list(): AsyncIterable<string>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/._-]*$/;

function assertKey(key: string) {
  if (!KEY_PATTERN.test(key) || key.includes("..")) throw new Error(`Invalid storage key: ${key}`);
}

export function diskStorage(root: string): Storage {
  const resolve = (key: string) => {
    assertKey(key);
    return path.join(root, key);
  };
  return {
    kind: "disk",
    async put(key, body) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.part`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: "wx" }));
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      const file = resolve(key);
      await fs.access(file);
      return createReadStream(file);
    },
    async delete(key) {
      await fs.rm(resolve(key), { force: true });
    },
    async *list() {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      });
      const keys = entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(".part"))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
        .sort();
      yield* keys;
    },
  };
}

export function s3Storage(config: NonNullable<typeof env.s3>): Storage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: !!config.endpoint,
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
  });
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertKey(key);
      const upload = new Upload({ client, params: { Bucket: config.bucket, Key: key, Body: body, ContentType: contentType } });
      try {
        await upload.done();
      } catch (error) {
        await upload.abort().catch(() => {});
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key })).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      assertKey(key);
      const result = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key }));
      return result.Body as Readable;
    },
    async delete(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

export function createStorage(): Storage {
  return env.s3 ? s3Storage(env.s3) : diskStorage(env.storageDir);
}

export const storage = createStorage();

export function putBuffer(key: string, buffer: Buffer, contentType: string) {
  return storage.put(key, Readable.from([buffer]), contentType);
}
