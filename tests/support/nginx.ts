import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { freePort } from "./server-process";

/*
 * nginx (Debian's) in front of app nodes, configured from deploy/nginx.conf itself: only the
 * upstream ports, the listen address and the file locations change, so the suite tests the file
 * a deployment uses. An access log records which node served each request.
 */

const NGINX = fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
const CONF = path.resolve(import.meta.dirname, "../../deploy/nginx.conf");

export interface Nginx {
  url: string;
  port: number;
  /** `path upstream-address status` of every request so far. */
  accessLog(): Array<{ path: string; upstream: string; status: number }>;
  stop(): Promise<void>;
}

export function renderNginxConf(source: string, options: { port: number; upstreams: number[]; prefix: string }) {
  const servers = options.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n");
  const rendered = source
    .replace(/(# @upstreams\n)(?:\s*server [^\n]+\n)+/, `$1${servers}\n`)
    .replace(/(# @listen\n)\s*listen [^\n]+\n/, `$1    listen 127.0.0.1:${options.port};\n`)
    .replace(/^pid [^\n]+$/m, `pid ${options.prefix}/nginx.pid;`)
    .replace(/^error_log [^\n]+$/m, `error_log ${options.prefix}/error.log warn;`)
    .replace(
      "access_log off;",
      [
        `log_format upstreams '$request_uri $upstream_addr $status';`,
        `  access_log ${options.prefix}/access.log upstreams;`,
        ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${options.prefix}/${t};`),
      ].join("\n"),
    );
  if (!rendered.includes(`127.0.0.1:${options.port}`) || !rendered.includes(servers))
    throw new Error("deploy/nginx.conf lost its @upstreams / @listen markers");
  return `user root;\n${rendered}`;
}

/** Starts nginx on `port` (default: a free one) once the upstream nodes answer. */
export async function startNginx(upstreams: number[], port?: number): Promise<Nginx> {
  if (!fs.existsSync(NGINX) && NGINX.startsWith("/")) throw new Error("nginx is not installed: apt-get install -y nginx-light");
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-nginx-"));
  port ??= await freePort();
  const conf = path.join(prefix, "nginx.conf");
  fs.writeFileSync(conf, renderNginxConf(fs.readFileSync(CONF, "utf8"), { port, upstreams, prefix }));
  let output = "";
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || i > 100) throw new Error(`nginx did not start:\n${output}\n${safeRead(path.join(prefix, "error.log"))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    accessLog() {
      return safeRead(path.join(prefix, "access.log"))
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [p, upstream, status] = line.split(" ");
          return { path: p!, upstream: upstream!, status: Number(status) };
        });
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function safeRead(file: string) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
