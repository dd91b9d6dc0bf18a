import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";

import { logger } from "~/utils/logger.server";

/*
 * Socket.IO long-polling behind WEB_CONCURRENCY workers. A polling session is a series of HTTP
 * requests, and the workers share one port: the kernel hands each connection to any worker, so a
 * request can reach a worker that does not hold its session ("Session ID unknown"). Without a
 * sticky balancer in the primary, each worker names its sessions (`<worker id>.<random>`) and
 * listens on a private Unix socket; a request (or the upgrade to WebSocket) carrying another
 * worker's session id is passed to that worker there. The primary stays out of the data path.
 * docs/decisions/121-polling-across-workers.md
 */

/** The private socket of worker `workerId` of the primary `primaryPid`. */
export function workerSocketPath(primaryPid: number, workerId: number) {
  return path.join(os.tmpdir(), `brandlift-${primaryPid}-w${workerId}.sock`);
}

/** What an engine.io server offers that this needs (socket.io's `io.engine`). */
export interface EngineLike {
  generateId(req: http.IncomingMessage): string | PromiseLike<string>;
  handleRequest(req: http.IncomingMessage, res: http.ServerResponse): void;
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
}

const SID = /^(\d+)\./;
/** engine.io's own answer to an unknown session: the client starts a new one. */
const UNKNOWN_SESSION = JSON.stringify({ code: 1, message: "Session ID unknown" });
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

/** The worker that holds the session a request names, or null (a handshake, a session of no worker). */
export function sessionWorker(url: string | undefined): number | null {
  const sid = new URL(url ?? "/", "http://worker").searchParams.get("sid");
  const match = sid ? SID.exec(sid) : null;
  return match ? Number(match[1]) : null;
}

/**
 * Makes `engine` (in worker `workerId` of `primaryPid`) name its sessions after the worker and
 * hand requests for other workers' sessions to them. Resolves once the private socket listens;
 * the returned function closes it.
 */
export async function routePollingToWorkers(engine: EngineLike, workerId: number, primaryPid: number): Promise<() => void> {
  const handleRequest = engine.handleRequest.bind(engine);
  const handleUpgrade = engine.handleUpgrade.bind(engine);
  const socketOf = (id: number) => workerSocketPath(primaryPid, id);

  engine.generateId = () => `${workerId}.${crypto.randomBytes(15).toString("base64url")}`;
  engine.handleRequest = (req, res) => {
    const owner = sessionWorker(req.url);
    if (owner === null || owner === workerId) return handleRequest(req, res);
    forwardRequest(socketOf(owner), req, res);
  };
  engine.handleUpgrade = (req, socket, head) => {
    const owner = sessionWorker(req.url);
    if (owner === null || owner === workerId) return handleUpgrade(req, socket, head);
    forwardUpgrade(socketOf(owner), req, socket, head);
  };

  // Requests that other workers pass here: straight to this worker's engine.
  const inbound = http.createServer((req, res) => handleRequest(req, res));
  inbound.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(req, socket, head));
  const socketPath = socketOf(workerId);
  fs.rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    inbound.once("error", reject);
    inbound.listen(socketPath, () => resolve());
  });
  inbound.on("error", (error) => logger.warn({ err: error }, "worker polling socket failed"));
  return () => {
    inbound.close();
    inbound.closeAllConnections();
    fs.rmSync(socketPath, { force: true });
  };
}

function forwardRequest(socketPath: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  const upstream = http.request({ socketPath, method: req.method, path: req.url, headers }, (answer) => {
    const answerHeaders = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    res.writeHead(answer.statusCode ?? 502, answerHeaders);
    answer.pipe(res);
  });
  // The worker is gone (replaced after a crash): its sessions are too; the client starts a new one.
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(400, { "Content-Type": "application/json" }).end(UNKNOWN_SESSION);
    else res.destroy();
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

function forwardUpgrade(socketPath: string, req: http.IncomingMessage, socket: Duplex, head: Buffer) {
  const upstream = net.connect(socketPath, () => {
    let lines = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
    upstream.write(`${lines}\r\n`);
    if (head.length) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on("error", () => socket.destroy());
  socket.on("error", () => upstream.destroy());
  socket.on("close", () => upstream.destroy());
  upstream.on("close", () => socket.destroy());
}
