import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test, vi } from "vitest";

import { connectPostgres, wrapPglite, type Database } from "../../db/client";
import { s3EnvOf, startFakeS3, type FakeS3 } from "../support/s3rver";

/*
 * npm run backup, then npm run restore into an empty database and an empty storage, then the app
 * on those serves the same report downloads, byte for byte. In `npm test`: the embedded database
 * and files on disk; in `npm run test:services`: PostgreSQL and S3 (the fake). The app is imported
 * here only after this file has pointed it at its source database, and imported again (modules
 * reset) once pointed at the restored one.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEST_DATABASE = Symbol.for("brandlift.test-database");
const adminUrl = process.env.DATABASE_URL || undefined;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-backup-"));
const backupDir = path.join(root, "backup");

interface Side {
  dataDir: string;
  database: Database;
  settings: Record<string, string>;
  close(): Promise<void>;
}

const sides: Side[] = [];
const fakes: FakeS3[] = [];
let source: Side;
let target: Side;

/** A database and a storage: the source is migrated (as a node leaves it), the target empty. */
async function side(name: string, migrated: boolean): Promise<Side> {
  const dataDir = path.join(root, name);
  fs.mkdirSync(dataDir);
  let made: Side;
  if (adminUrl) {
    const s3 = await startFakeS3();
    fakes.push(s3);
    // A database of its own: migrated (the template) for the source, empty for a restore.
    const dbName = `brandlift_backup_${crypto.randomBytes(5).toString("hex")}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(migrated ? `create database ${dbName} template ${inject("databaseTemplate")}` : `create database ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    const database = connectPostgres(url.toString(), { max: 3 });
    made = {
      dataDir,
      database,
      settings: { DATABASE_URL: url.toString(), ...s3EnvOf(s3) },
      async close() {
        await database.close();
        await admin.unsafe(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      },
    };
  } else {
    const pgliteDir = path.join(dataDir, "pglite");
    const client = migrated ? await PGlite.create(pgliteDir, { loadDataDir: new Blob([fs.readFileSync(inject("databaseTemplate"))]) }) : undefined;
    const database = client ? wrapPglite(client) : (undefined as unknown as Database);
    made = { dataDir, database, settings: { DATABASE_URL: "", S3_BUCKET: "" }, close: async () => void (await made.database?.close()) };
  }
  sides.push(made);
  return made;
}

/** Points the app (imported after this) at a side: its database through the test hook, its settings in process.env. */
function useSide(s: Side) {
  (globalThis as Record<symbol, unknown>)[TEST_DATABASE] = s.database;
  Object.assign(process.env, { DATA_DIR: s.dataDir, ...s.settings });
}

/**
 * `npm run backup|restore -- <dir>` as an operator runs it (tsx's loader, the same script and
 * settings), with a side's settings. Node is started with tsx's loader itself rather than through
 * tsx's command, which only starts that same Node process and relays its signals and exit code; and,
 * as in the test processes, with PGlite's WebAssembly on V8's baseline compiler only: the process
 * lives for one command (decision 256). Each spawn costs about 0.3 CPU-s less, the same answers.
 */
async function cli(command: "backup" | "restore", s: Side, dir = backupDir) {
  const run = promisify(execFile)(process.execPath, ["--liftoff-only", "--import", "tsx", "scripts/backup.ts", command, dir], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: s.dataDir, ...s.settings },
  });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

async function importApp() {
  const helpers = await import("../support/dashboard-helpers");
  const reports = await import("../support/reports-cases");
  return { ...helpers, ...reports };
}

type Downloaded = { reportId: string; bytes: Buffer; type: string | null; disposition: string | null };
const before: Downloaded[] = [];
let customer: { user: { id: string } };

async function download(app: Awaited<ReturnType<typeof importApp>>, reportId: string): Promise<Downloaded> {
  const { response } = await app.downloadThroughSignedUrl(customer as never, reportId);
  expect(response.status).toBe(200);
  return {
    reportId,
    bytes: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get("Content-Type"),
    disposition: response.headers.get("Content-Disposition"),
  };
}

beforeAll(async () => {
  source = await side("source", true);
  target = await side("target", false);
  useSide(source);
  const app = await importApp();
  const services = await app.catalogue();
  const staff = await app.createAccount("team");
  customer = await app.createAccount("user", { name: "Backup Customer", email: "backup.customer@backup.test" });
  await app.createPurchase(customer.user.id, services[0]);
  const files = [
    { name: "Audit.pdf", bytes: app.samples.pdf(), type: "application/pdf" },
    { name: "Figures.png", bytes: app.samples.png(), type: "image/png" },
  ];
  for (const file of files) {
    const response = await app.postUpload(staff, services[0].id, { file, title: file.name, userId: customer.user.id });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: { _id: string } };
    before.push(await download(app, data._id));
  }
  expect(before.map((d) => d.bytes.length)).toEqual(files.map((f) => f.bytes.length));
}, 300_000);

afterAll(async () => {
  for (const s of sides) await s.close().catch(() => {});
  for (const fake of fakes) await fake.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe(`backup and restore (${adminUrl ? "PostgreSQL and S3" : "the embedded database and files on disk"})`, () => {
  test("a backup goes only into a new or empty folder", async () => {
    const used = path.join(root, "used");
    fs.mkdirSync(used);
    fs.writeFileSync(path.join(used, "notes.txt"), "an older backup's notes");
    const result = await cli("backup", source, used);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: ${used} is not empty: a backup goes into a new or empty folder.`);
    expect(fs.readdirSync(used)).toEqual(["notes.txt"]);
  });

  // PostgreSQL copies a live database consistently (pg_dump's snapshot); the embedded one cannot be shared.
  if (!adminUrl) {
    test("the embedded database is not copied while a node has it open", async () => {
      const result = await cli("backup", source, path.join(root, "refused"));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("is open");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(fs.existsSync(path.join(root, "refused", "manifest.json"))).toBe(false);
    });
  }

  test("a restored database and storage serve the same report downloads, byte for byte", async () => {
    // The embedded database is one process's: the node stops before its backup.
    if (!adminUrl) await source.database.close();
    const backedUp = await cli("backup", source);
    expect(backedUp.stderr).not.toContain("Error");
    expect(backedUp.stdout).toMatch(/^Backed up the (PostgreSQL|embedded) database and 2 stored files/);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, "manifest.json"), "utf8")) as {
      database: { kind: string; sha256: string };
      storage: { files: { bytes: number; sha256: string }[] };
    };
    expect(manifest.database.kind).toBe(adminUrl ? "postgres" : "pglite");
    expect(manifest.database.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.storage.files.map((f) => f.bytes).sort()).toEqual(before.map((d) => d.bytes.length).sort());

    const restored = await cli("restore", target);
    expect(restored.stderr).not.toContain("Error");
    expect(restored.stdout).toMatch(/^Restored the (PostgreSQL|embedded) database and 2 stored files/);

    // The app, imported afresh, on the restored database and storage.
    if (!adminUrl) target.database = wrapPglite(await PGlite.create(path.join(target.dataDir, "pglite")));
    useSide(target);
    vi.resetModules();
    const app = await importApp();
    for (const was of before) {
      const now = await download(app, was.reportId);
      expect(now.bytes.equals(was.bytes)).toBe(true);
      expect(now.type).toBe(was.type);
      expect(now.disposition).toBe(was.disposition);
    }
  }, 300_000);

  test("restore refuses a database or a storage that is not empty, and a damaged backup", async () => {
    const again = await cli("restore", target);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: The (database|embedded database folder .*) is not empty/m);

    // An empty database but a storage that holds a file.
    const other = await side("other", false);
    Object.assign(process.env, { DATA_DIR: other.dataDir, ...other.settings });
    vi.resetModules();
    const { putBuffer } = await import("~/utils/storage.server");
    await putBuffer("reports/left-behind.txt", Buffer.from("x"), "text/plain");
    const storageFull = await cli("restore", other);
    expect(storageFull.code).toBe(1);
    expect(storageFull.stderr).toContain("The storage is not empty (it holds reports/left-behind.txt)");

    // A file of the backup changed after it was written: nothing is restored.
    const damaged = path.join(root, "damaged");
    fs.cpSync(backupDir, damaged, { recursive: true });
    const [file] = fs.readdirSync(path.join(damaged, "files"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const filePath = path.join(file!.parentPath, file!.name);
    const bytes = fs.readFileSync(filePath);
    bytes[0] = bytes[0]! ^ 0xff;
    fs.writeFileSync(filePath, bytes);
    const fresh = await side("fresh", false);
    const refused = await cli("restore", fresh, damaged);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/files\/.* is missing or damaged/);
    if (!adminUrl) expect(fs.existsSync(path.join(fresh.dataDir, "pglite"))).toBe(false);
  }, 300_000);
});
