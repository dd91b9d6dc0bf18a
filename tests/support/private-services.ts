import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import postgres from "postgres";

import { freePort } from "./server-process";

/*
 * Services of a test's own, on free ports, that the test may kill and restart: never the shared
 * PostgreSQL (5432) or Redis (6379) other people on this machine use.
 */

const PG_BIN = "/usr/lib/postgresql/15/bin";
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PrivateRedis {
  url: string;
  port: number;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** SIGKILL: no goodbye to the clients, like a crashed host. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: connections stay open but nothing answers, like a host stuck in swap. */
  pause(): void;
  resume(): void;
}

/** `redis-server --port <free> --save "" --appendonly no`: nothing survives a kill. */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    child.once("error", () => {});
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => {});
    for (let i = 0; ; i++) {
      if (
        await probe.connect().then(
          () => true,
          () => false,
        )
      )
        break;
      if (i > 100) throw new Error("redis-server did not start: is it installed (apt-get install redis-server)?");
      await delay(50);
    }
    probe.disconnect();
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once("exit", r));
    running.kill("SIGKILL");
    await exited;
  };
  const signal = (name: NodeJS.Signals) => {
    const running = child as ChildProcess | null;
    if (running && running.exitCode === null) running.kill(name);
  };
  await start();
  return { url, port, start, kill, pause: () => signal("SIGSTOP"), resume: () => signal("SIGCONT") };
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: open connections are terminated (SQLSTATE 57P01), then it is gone. */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * A throwaway PostgreSQL 15 cluster: initdb into a temporary directory owned by `postgres`
 * (initdb refuses root), pg_ctl on a free port, the socket in that directory, no fsync.
 */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-pg-"));
  const data = path.join(dir, "data");
  const log = path.join(dir, "postgres.log");
  const port = await freePort();
  const asPostgres =
    process.getuid?.() === 0
      ? (cmd: string, args: string[]) => ["runuser", ["-u", "postgres", "--", cmd, ...args]] as const
      : (cmd: string, args: string[]) => [cmd, args] as const;
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) => {
    const [bin, argv] = asPostgres(`${PG_BIN}/${cmd}`, args);
    execFileSync(bin, [...argv], { stdio: "pipe" });
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;

  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const start = async () => {
    run("pg_ctl", ["-D", data, "-o", options, "-l", log, "-w", "-t", "30", "start"]);
    // pg_ctl -w waits for the socket; wait until a query answers over TCP too.
    for (let i = 0; ; i++) {
      const sql = postgres(url(), { max: 1, connect_timeout: 2, onnotice: () => {} });
      const ok = await sql`select 1`.then(
        () => true,
        () => false,
      );
      await sql.end({ timeout: 1 });
      if (ok) return;
      if (i > 100) throw new Error(`private PostgreSQL did not answer:\n${fs.readFileSync(log, "utf8")}`);
      await delay(100);
    }
  };
  const stop = async () => {
    run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    async destroy() {
      try {
        await stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a database in a private cluster; the app nodes migrate it when they boot. */
export async function createDatabase(cluster: PrivatePostgres, name: string) {
  const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return cluster.url(name);
}
