import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

import type { Storage } from "./storage.server";

/*
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (decision 276). A backup is a folder:
 * the database (PostgreSQL: pg_dump's custom format, one consistent snapshot; the embedded
 * database: PGlite's data directory as a gzipped tar, taken while no node has it open), then every
 * stored file under files/, then manifest.json with each part's size and SHA-256, written last: a
 * folder without a manifest is not a backup. Restore checks every checksum before it writes
 * anything, and fills only an empty database and an empty storage.
 */

const execFileAsync = promisify(execFile);

export const MANIFEST = "manifest.json";
const FORMAT = "brandlift-backup";

export type DatabaseLocation = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

interface Part {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  database: Part & { kind: DatabaseLocation["kind"] };
  storage: { kind: Storage["kind"]; files: (Part & { key: string })[] };
}

/** A refusal the operator can act on: the CLI prints its message alone, without a stack. */
export class BackupError extends Error {
  name = "BackupError";
}

export async function backup(dir: string, source: { database: DatabaseLocation; storage: Storage }): Promise<Manifest> {
  const target = path.resolve(dir);
  if ((await entriesOf(target)).length > 0) throw new BackupError(`${target} is not empty: a backup goes into a new or empty folder.`);
  await fs.mkdir(path.join(target, "files"), { recursive: true });

  // The database first, then the files: a file uploaded meanwhile is one more file; a row never
  // names a file the backup lacks unless the file was deleted during the backup.
  const databaseFile = source.database.kind === "postgres" ? "database.pgdump" : "database.tar.gz";
  await (source.database.kind === "postgres"
    ? dumpPostgres(source.database.url, path.join(target, databaseFile))
    : dumpPglite(source.database.dataDir, path.join(target, databaseFile)));
  const database = { kind: source.database.kind, ...(await describe(target, databaseFile)) };

  const files: Manifest["storage"]["files"] = [];
  for await (const key of source.storage.list()) {
    const file = path.join("files", ...key.split("/"));
    await fs.mkdir(path.dirname(path.join(target, file)), { recursive: true });
    const hash = crypto.createHash("sha256");
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(await source.storage.get(key), counted, createWriteStream(path.join(target, file), { flags: "wx" }));
    files.push({ key, path: file.split(path.sep).join("/"), bytes, sha256: hash.digest("hex") });
  }

  const manifest: Manifest = { format: FORMAT, version: 1, createdAt: new Date().toISOString(), database, storage: { kind: source.storage.kind, files } };
  await fs.writeFile(path.join(target, MANIFEST), JSON.stringify(manifest, null, 2) + "\n", { flag: "wx" });
  return manifest;
}

export async function restore(dir: string, target: { database: DatabaseLocation; storage: Storage }): Promise<Manifest> {
  const source = path.resolve(dir);
  const manifest = await readManifest(source);
  if (manifest.database.kind !== target.database.kind) {
    throw new BackupError(
      `This backup holds ${manifest.database.kind === "postgres" ? "a PostgreSQL" : "an embedded"} database; the settings name ${target.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "the embedded database (no DATABASE_URL)"}.`,
    );
  }
  // Every part as the manifest says, before anything is written.
  for (const part of [manifest.database, ...manifest.storage.files]) {
    const found = await describe(source, part.path).catch(() => null);
    if (!found || found.bytes !== part.bytes || found.sha256 !== part.sha256)
      throw new BackupError(`${part.path} is missing or damaged: its checksum does not match the manifest.`);
  }
  await refuseNonEmptyDatabase(target.database);
  for await (const key of target.storage.list()) throw new BackupError(`The storage is not empty (it holds ${key}): restore fills only an empty storage.`);

  const databaseFile = path.join(source, manifest.database.path);
  await (target.database.kind === "postgres" ? restorePostgres(target.database.url, databaseFile) : restorePglite(target.database.dataDir, databaseFile));
  for (const file of manifest.storage.files) {
    await target.storage.put(file.key, createReadStream(path.join(source, file.path)), "application/octet-stream");
  }
  return manifest;
}

async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST), "utf8");
  } catch {
    throw new BackupError(`${dir} holds no ${MANIFEST}: it is not a finished backup.`);
  }
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== FORMAT || manifest.version !== 1)
    throw new BackupError(`${path.join(dir, MANIFEST)} is not a manifest of this app's backups (version 1).`);
  return manifest;
}

async function describe(dir: string, file: string): Promise<Part> {
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path.join(dir, file)) as Readable & AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { path: file, bytes, sha256: hash.digest("hex") };
}

async function entriesOf(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
}

/** pg_dump's custom format: one transaction's snapshot of the whole database, compressed. */
async function dumpPostgres(url: string, file: string) {
  await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${url}`]);
}

async function restorePostgres(url: string, file: string) {
  // One transaction: a restore that fails half-way leaves the database empty, ready for another try.
  await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url}`, file]);
}

async function run(command: string, args: string[]) {
  try {
    await execFileAsync(command, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { code, stderr } = error as { code?: string | number; stderr?: string };
    if (code === "ENOENT") throw new BackupError(`${command} was not found: install the PostgreSQL client tools (version 15 or newer, at least the server's).`);
    throw new BackupError(`${command} failed: ${(stderr ?? String(error)).trim()}`);
  }
}

/**
 * PGlite keeps its data directory in one process and lets a second one open it unchecked, so the
 * embedded database is copied only while no node runs: PGlite's postmaster.pid is there from open
 * to close.
 */
async function openPgliteAlone(dataDir: string): Promise<PGlite> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (
    await fs.access(pidFile).then(
      () => true,
      () => false,
    )
  ) {
    throw new BackupError(
      `The embedded database in ${dataDir} is open (${pidFile} exists): stop the node first. (A node that was killed leaves the file behind: start and stop it once.)`,
    );
  }
  if ((await entriesOf(dataDir)).length === 0) throw new BackupError(`There is no embedded database in ${dataDir}.`);
  return PGlite.create(dataDir);
}

async function dumpPglite(dataDir: string, file: string) {
  const client = await openPgliteAlone(dataDir);
  try {
    const tarball = await client.dumpDataDir("gzip");
    await fs.writeFile(file, Buffer.from(await tarball.arrayBuffer()), { flag: "wx" });
  } finally {
    await client.close();
  }
}

async function restorePglite(dataDir: string, file: string) {
  const client = await PGlite.create(dataDir, { loadDataDir: new Blob([await fs.readFile(file)]) });
  await client.close();
}

async function refuseNonEmptyDatabase(location: DatabaseLocation) {
  if (location.kind === "pglite") {
    const entries = await entriesOf(location.dataDir);
    if (entries.length > 0) throw new BackupError(`The embedded database folder ${location.dataDir} is not empty: restore fills only a new one.`);
    return;
  }
  const sql = postgres(location.url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [row] = await sql<{ tables: number }[]>`
      select count(*)::int as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;
    if (row!.tables > 0) throw new BackupError(`The database is not empty (${row!.tables} tables, sequences or views): restore fills only an empty database.`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
