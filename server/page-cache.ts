import type http from "node:http";
import type express from "express";

import { COMPRESSION_THRESHOLD, compressWhole, preferredEncoding } from "~/web/compression.server";
import { carriesSession } from "~/web/private-cache.server";

import { requestContext, requestIdFrom } from "./request-context";

/*
 * A signed-in page (a document or its `.data`) rendered for one browser is answered again from memory
 * when the same browser asks for the same address while nothing in the data has changed since, on any
 * node (app/utils/data-generation.server.ts), within a few seconds. The key holds everything a render
 * reads from the request: the address, the whole Cookie header (the session, and any other cookie) or
 * the Authorization header (a script's session token), User-Agent, Accept and the encoding it goes
 * out in. Only a 200 of HTML or `.data` without Set-Cookie is kept, and only when no data changed
 * while it rendered. A revoked session, a changed role or any
 * other write moves the number, so the next request renders again and sees it. Decision 326.
 */

interface Entry {
  generation: number;
  at: number;
  status: number;
  headers: [string, string | string[]][];
  body: Buffer;
}

/** Headers that belong to one answer and are made again for each. */
const PER_ANSWER = new Set(["x-request-id", "content-length", "date", "connection", "keep-alive", "transfer-encoding"]);
const KEPT_TYPE = /^text\/(html|x-script)\b/;

export interface PageCacheOptions {
  /** The data's generation now, or null when it cannot be trusted (nothing is reused then). */
  generation: () => number | null;
  /** How long an answer is reused at most, whatever happens: pages that show the time stay near it. */
  ttlMs?: number;
  /** Bytes of bodies kept at most; the oldest go first. */
  maxBytes?: number;
  /** A body longer than this is not kept. */
  maxEntryBytes?: number;
}

export function createPageCache(options: PageCacheOptions) {
  const ttl = options.ttlMs ?? 5_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const maxEntryBytes = options.maxEntryBytes ?? 256 * 1024;
  const entries = new Map<string, Entry>();
  const flights = new Map<string, Flight>();
  /** Requests waiting for a render in flight. */
  let waiting = 0;
  let bytes = 0;

  const keyOf = (req: http.IncomingMessage): string | null => {
    if (req.method !== "GET") return null;
    const url = req.url ?? "";
    const { headers } = req;
    const { cookie, authorization } = headers;
    // Signed in (the session cookie, as privateCache tells it) or a script's token; never the JSON API or a build file.
    if ((authorization === undefined && !carriesSession(headers)) || url.startsWith("/api/") || url.startsWith("/assets/")) return null;
    return `${url}\n${preferredEncoding(headers["accept-encoding"]) ?? ""}\n${cookie ?? ""}\n${authorization ?? ""}\n${headers["user-agent"] ?? ""}\n${headers.accept ?? ""}`;
  };

  const forget = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.body.length;
  };

  const keep = (key: string, entry: Entry) => {
    const old = entries.get(key);
    if (old) forget(key, old);
    entries.set(key, entry);
    bytes += entry.body.length;
    // A Map iterates in insertion order: the first keys are the oldest.
    for (const [oldKey, oldEntry] of entries) {
      if (bytes <= maxBytes) break;
      forget(oldKey, oldEntry);
    }
  };

  const fresh = (entry: Entry) => entry.generation === options.generation() && Date.now() - entry.at <= ttl;

  const send = (req: http.IncomingMessage, res: http.ServerResponse, entry: Entry) => {
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("X-Request-Id", requestIdFrom(req.headers["x-request-id"]));
    res.setHeader("Content-Length", entry.body.length);
    res.setHeader("X-Page-Cache", "hit");
    res.statusCode = entry.status;
    res.end(entry.body);
  };

  return {
    /**
     * Before Express: answers from memory and returns true; or, while the same request is being
     * rendered, waits for that render and returns true (its answer if it was kept, else `fallback`
     * runs: the request goes on to Express); or returns false and leaves the request alone.
     */
    handleFast(req: http.IncomingMessage, res: http.ServerResponse, fallback: () => void): boolean {
      if (entries.size === 0 && flights.size === 0) return false;
      const key = keyOf(req);
      if (key === null) return false;
      const entry = entries.get(key);
      if (entry) {
        if (fresh(entry)) {
          send(req, res, entry);
          return true;
        }
        forget(key, entry);
      }
      // A burst of one browser's requests after a change renders once: the others take its answer.
      const flight = flights.get(key);
      if (!flight) return false;
      waiting++;
      void flight.promise.then((kept) => {
        waiting--;
        if (kept && fresh(kept)) send(req, res, kept);
        else fallback();
      });
      return true;
    },

    /** In Express, just before Remix: what Remix answers to a request that could be reused is kept. */
    middleware: ((req, res, next) => {
      const key = keyOf(req);
      const generation = key === null ? null : options.generation();
      if (key === null || generation === null) return next();
      const at = Date.now();
      // The first render of a key in flight is the one its followers wait for (handleFast).
      let flight: Flight | undefined;
      if (!flights.has(key)) flights.set(key, (flight = newFlight()));
      const settle = (kept: Entry | null) => {
        if (!flight) return;
        if (flights.get(key) === flight) flights.delete(key);
        flight.settle(kept);
        flight = undefined;
      };
      // An answer that never ended (the client left, the render failed) releases its followers too.
      res.once("close", () => settle(null));
      // The request's scope (server.ts runs every request in one): a loader may say its answer is not to be reused.
      const scope = requestContext.getStore();
      const chunks: Buffer[] = [];
      let size = 0;
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
      // Whether the app encoded the body itself (a document): known before the first byte goes down,
      // where compression() would add its own header for what it is about to encode.
      let encodedByApp: boolean | undefined;
      // A page with a section that failed to load says no-store itself (privateCache then writes its own
      // Cache-Control over every signed-in answer as the head goes out): such a page is not kept.
      let refused = false;
      const collect = (chunk: unknown, encoding: unknown) => {
        if (encodedByApp === undefined) {
          encodedByApp = res.getHeader("content-encoding") !== undefined;
          refused = /no-store|no-cache/.test(String(res.getHeader("cache-control") ?? ""));
        }
        if (chunk === undefined || chunk === null || typeof chunk === "function" || size > maxEntryBytes) return;
        const piece = Buffer.isBuffer(chunk)
          ? chunk
          : typeof chunk === "string"
            ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
            : Buffer.from(chunk as Uint8Array);
        chunks.push(piece);
        size += piece.length;
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        collect(chunk, rest[0]);
        return write(chunk, ...rest);
      }) as express.Response["write"];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        collect(chunk, rest[0]);
        const result = end(chunk, ...rest);
        if (!refused && !scope?.notReusable && keepable(res, size, maxEntryBytes) && options.generation() === generation) {
          const encoding = encodedByApp ? undefined : preferredEncoding(req.headers["accept-encoding"]);
          store(key, generation, at, res, Buffer.concat(chunks), encoding).then(settle, () => settle(null));
        } else {
          settle(null);
        }
        return result;
      }) as express.Response["end"];
      next();
    }) as express.RequestHandler,

    /** How many answers are kept, their bytes, and the requests waiting for a render (tests, metrics). */
    size: () => ({ entries: entries.size, bytes, waiting }),
  };

  /** `encoding`: undefined when the body is already encoded as its headers say; else what to encode the plain body in. */
  async function store(
    key: string,
    generation: number,
    at: number,
    res: express.Response,
    body: Buffer,
    encoding: "br" | "gzip" | null | undefined,
  ): Promise<Entry | null> {
    const plain = encoding !== undefined;
    const headers = Object.entries(res.getHeaders())
      .filter(([name, value]) => value !== undefined && !PER_ANSWER.has(name) && !(plain && name === "content-encoding"))
      .map(([name, value]) => [name, typeof value === "number" ? String(value) : value] as [string, string | string[]]);
    // A `.data` answer is compressed by compression() as it streams: kept compressed, once.
    let out = body;
    if (plain && encoding && body.length >= COMPRESSION_THRESHOLD) {
      out = await compressWhole(body, encoding);
      headers.push(["content-encoding", encoding]);
    }
    if (options.generation() !== generation) return null;
    const entry: Entry = { generation, at, status: res.statusCode, headers, body: out };
    keep(key, entry);
    return entry;
  }
}

/** A render in flight: what it kept (null: nothing) once it has answered. */
interface Flight {
  promise: Promise<Entry | null>;
  settle(kept: Entry | null): void;
}

function newFlight(): Flight {
  let settle!: (kept: Entry | null) => void;
  const promise = new Promise<Entry | null>((resolve) => (settle = resolve));
  return { promise, settle };
}

function keepable(res: express.Response, size: number, maxEntryBytes: number): boolean {
  if (res.statusCode !== 200 || size > maxEntryBytes || res.getHeader("set-cookie") !== undefined) return false;
  const type = res.getHeader("content-type");
  return typeof type === "string" && KEPT_TYPE.test(type);
}
