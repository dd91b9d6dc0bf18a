import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const BUILD_DIR = path.join(ROOT, process.env.BUILD_DIR ?? "build");
const SERVER = path.join(BUILD_DIR, "server.js");

/** Builds the production server unless the build was made from exactly these sources. */
export { ensureBuild } from "../../scripts/ensure-build.mjs";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `node build/server.js` with only the given settings (plus PATH) and waits for /healthz.
 * `nodeArgs`: flags for node itself (`--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startServer(env: Record<string, string>, options: { timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  let output = "";
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(options.nodeArgs ?? []), SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    port,
    child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the server expecting it to refuse to boot; resolves with its exit code and output. */
export function runServerExpectingFailure(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Signs a demo account in with the seeds' password (POST /api/auth/login): its bearer token and its
 * user's id. A refusal throws with the answer (a bench would otherwise measure a sign-in page).
 */
export async function signIn(baseUrl: string, email: string): Promise<{ token: string; user: { _id: string } }> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "brandlift-demo" }),
  });
  const body = (await response.json()) as { data?: { token?: string; user?: { _id: string } } };
  if (!response.ok || !body.data?.token || !body.data.user) throw new Error(`could not sign in as ${email}: ${response.status} ${JSON.stringify(body)}`);
  return { token: body.data.token, user: body.data.user };
}

/** The Origin a browser on the app sends: APP_URL's, by default localhost and the server's port. */
export const appOrigin = (baseUrl: string) => baseUrl.replace("//127.0.0.1:", "//localhost:");

/** A browser's state change reaching the server at `baseUrl` as if through a proxy for APP_URL's host (the forgery guard's two checks). */
export const sameOriginHeaders = (baseUrl: string) => ({ Origin: appOrigin(baseUrl), "X-Forwarded-Host": new URL(appOrigin(baseUrl)).host });

/** A browser's sign-in through the form: the session cookie it gets (name=value, ready for a Cookie header). */
export async function signInCookie(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...sameOriginHeaders(baseUrl) },
    body: new URLSearchParams({ email, password: "brandlift-demo" }),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="));
  if (response.status !== 302 || !session) throw new Error(`could not sign in as ${email} through the form: ${response.status}`);
  return session.split(";")[0]!;
}
