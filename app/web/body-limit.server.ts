import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { ErrorRequestHandler, Response as ExpressResponse, RequestHandler } from "express";

import { MAX_MEDIA_BYTES } from "~/domain/calendar";
import { MAX_FORM_FIELDS, MAX_REPORT_BYTES, TOO_MANY_FIELDS_MESSAGE } from "~/domain/report";
import { errorBody, HttpError, httpErrorResponse } from "~/utils/http.server";
import { PRIVATE_CACHE_CONTROL } from "~/web/private-cache.server";

/*
 * Request bodies are bounded in one place, before anything buffers them. The
 * Express guard `bodyLimit` sits in front of the Remix handler: it refuses a declared length over
 * the limit without reading a byte, and counts bytes (and urlencoded fields) as they stream, so a
 * body without Content-Length is stopped at the limit too. The readers below (`readText`,
 * `readFormData`) apply the same limits to a Fetch Request, for the routes' own reading and for
 * tests that call a route without Express.
 */

export const BODY_LIMITS = {
  /** JSON, urlencoded, the Stripe webhook and any other body. */
  bytes: 1024 * 1024,
  /** Fields of an urlencoded or multipart form. */
  fields: MAX_FORM_FIELDS,
  /** A multipart upload: the file plus this much of other fields and framing. */
  uploadBytes: MAX_REPORT_BYTES + 64 * 1024,
  /** A post's image or video (the content calendar): the 50 MiB file plus the same envelope. */
  mediaUploadBytes: MAX_MEDIA_BYTES + 64 * 1024,
  /** An e-mailed reply, raw (POST /api/inbound/email): a 10 MiB attachment grows by a third in base64. */
  inboundEmailBytes: 25 * 1024 * 1024,
} as const;

/** Routes that take a multipart file upload; every other body gets the 1 MiB limit. */
export const UPLOAD_PATHS: RegExp[] = [
  /^\/api\/reports\/service\/[^/]+\/upload$/,
  /^\/dashboard\/users\/[^/]+(?:\/?|\.data)$/,
  /^\/dashboard\/users\/[^/]+\/plans\/[^/]+(?:\/?|\.data)$/,
  /^\/api\/subscriptions\/[^/]+\/reports$/,
  /^\/api\/chat\/attachments$/,
  /^\/dashboard\/(?:services|plans)\/[^/]+\/brief(?:\/?|\.data)$/,
  // The chat's message form (a file may go with it): the customer's Messages and a thread of the inbox.
  /^\/dashboard\/messages(?:\/?|\.data)$/,
  /^\/dashboard\/inbox\/[^/]+(?:\/?|\.data)$/,
];

/** Routes that take a post's media: the larger limit. */
const MEDIA_UPLOAD_PATHS: RegExp[] = [/^\/api\/posts\/[^/]+\/media$/, /^\/dashboard\/calendar\/posts\/[^/]+(?:\/?|\.data)$/];

export const PAYLOAD_TOO_LARGE_MESSAGE = "The request is too large.";
export { TOO_MANY_FIELDS_MESSAGE };
export const MALFORMED_FORM_MESSAGE = "The form could not be read. Please try again.";
export const UNSUPPORTED_FORM_MESSAGE = "Send the form as application/x-www-form-urlencoded or multipart/form-data.";

/** What the guard hands a route whose body it stopped: the route's reader fails with this. */
export class BodyLimitError extends HttpError {
  constructor(message = PAYLOAD_TOO_LARGE_MESSAGE) {
    super(413, message, "PAYLOAD_TOO_LARGE");
    this.name = "BodyLimitError";
  }
}

/** By name: server.ts and the Remix build each bundle their own copy of this module. */
export function isBodyLimitError(error: unknown): boolean {
  const named = (value: unknown) => value instanceof Error && value.name === "BodyLimitError";
  return named(error) || (error instanceof Error && named(error.cause));
}

const isMultipart = (type: string) => type.toLowerCase().startsWith("multipart/form-data");
const isUrlencoded = (type: string) => type.toLowerCase().startsWith("application/x-www-form-urlencoded");

/** The byte limit of a body sent to `pathname` with this Content-Type. */
export function byteLimitFor(pathname: string, contentType: string): number {
  if (pathname === "/api/inbound/email") return BODY_LIMITS.inboundEmailBytes;
  if (isMultipart(contentType) && MEDIA_UPLOAD_PATHS.some((path) => path.test(pathname))) return BODY_LIMITS.mediaUploadBytes;
  return isMultipart(contentType) && UPLOAD_PATHS.some((path) => path.test(pathname)) ? BODY_LIMITS.uploadBytes : BODY_LIMITS.bytes;
}

const AMPERSAND = 0x26;
function countAmpersands(chunk: Uint8Array) {
  let count = 0;
  for (let i = chunk.indexOf(AMPERSAND); i !== -1; i = chunk.indexOf(AMPERSAND, i + 1)) count++;
  return count;
}

/** Counts a body as it streams; `add` answers the error to stop with, or null. */
export function bodyCounter(pathname: string, contentType: string) {
  const limit = byteLimitFor(pathname, contentType);
  const countFields = isUrlencoded(contentType);
  let bytes = 0;
  let fields = 1;
  return {
    limit,
    add(chunk: Uint8Array): BodyLimitError | null {
      bytes += chunk.byteLength;
      if (bytes > limit) return new BodyLimitError();
      if (countFields) {
        fields += countAmpersands(chunk);
        if (fields > BODY_LIMITS.fields) return new BodyLimitError(TOO_MANY_FIELDS_MESSAGE);
      }
      return null;
    },
  };
}

/**
 * After a 413 the rest of the body is read and thrown away for a little while (the answer is
 * already out), so that a client still sending sees the answer instead of a reset; past these
 * bounds the connection is cut. A body never costs more reading than this, and none of it is kept.
 */
export const LINGER = { bytes: 16 * 1024 * 1024, ms: 5000 };

/** Responses the guard has answered itself; whatever the route answers later is dropped. */
const answered = new WeakSet<object>();

function refuse(req: IncomingMessage, res: ExpressResponse, error: BodyLimitError) {
  answered.add(res);
  if (res.headersSent) return discardRest(req, () => res.end());
  const payload = JSON.stringify(errorBody(error.message, error.code, res.locals?.requestId as string | undefined));
  res.statusCode = 413;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(payload));
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
  // The whole answer leaves now; the response ends once the rest of the body is drained or cut.
  res.write(payload);
  const end = res.end.bind(res);
  // This is the only answer: whatever the route sends later (it runs on, its read failing) is dropped.
  res.write = (() => true) as typeof res.write;
  res.end = (() => res) as typeof res.end;
  discardRest(req, () => end());
}

/** Requests whose rest is being read and thrown away, and what waits for the end of that. */
const discarding = new WeakMap<IncomingMessage, { over: boolean; then: (() => void)[] }>();

function discardRest(req: IncomingMessage, done: () => void) {
  if (req.complete || req.destroyed) return done();
  req.removeAllListeners("data");
  const state = { over: false, then: [done] };
  discarding.set(req, state);
  const finish = (cut: boolean) => {
    if (state.over) return;
    state.over = true;
    clearTimeout(timer);
    for (const next of state.then) next();
    if (cut) req.socket?.destroy();
  };
  const timer = setTimeout(() => finish(true), LINGER.ms);
  timer.unref();
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > LINGER.bytes) finish(true);
  });
  req.once("end", () => finish(false));
  req.once("close", () => finish(false));
  req.resume();
}

/** Each connection's latest request with a body (the one its lingering close is for). */
const latestRequest = new WeakMap<Socket, IncomingMessage>();

/**
 * An answer that closes the connection (`Connection: close`, as a refused upload's 413 does) while
 * the client is still sending: once the answer ends, Node closes the socket, the client's next bytes
 * meet a reset, and the client can lose the answer to it (its write fails with EPIPE before it reads
 * what came). So the close is a lingering one: the answer ends and our side of the connection is
 * shut (the client sees the whole answer), and the socket is closed once the rest of the body has
 * been read and thrown away, within LINGER, as after our own 413.
 */
function closeAfterTheBody(req: IncomingMessage) {
  const socket = req.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || typeof socket.destroySoon !== "function") return;
  // Once per connection (a kept-alive one carries many requests): the wrapper closes after the latest.
  if (!latestRequest.has(socket)) {
    const destroySoon = socket.destroySoon.bind(socket);
    // Node's HTTP server calls it when the last answer of a connection has ended.
    socket.destroySoon = () => {
      const current = latestRequest.get(socket);
      const pending = current && discarding.get(current);
      if (!current || current.complete || current.destroyed || socket.destroyed || pending?.over) return destroySoon();
      socket.end();
      const close = () => socket.destroy();
      if (pending) pending.then.push(close);
      else discardRest(current, close);
    };
  }
  latestRequest.set(socket, req);
}

/** Express guard in front of the Remix handler (see the module comment). */
export const bodyLimit: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!(declared > 0) && req.headers["transfer-encoding"] === undefined) return next();
  const counter = bodyCounter(req.path, req.headers["content-type"] ?? "");
  if (declared > counter.limit) return refuse(req, res, new BodyLimitError());

  // Paused before listening, so this listener does not start the flow: the route's reader does,
  // and both see every chunk, this one first.
  req.pause();
  const count = (chunk: Buffer) => {
    const error = counter.add(chunk);
    if (!error) return;
    // Nothing more reaches the route's reader: it fails with the error, and the answer is a 413.
    req.removeAllListeners("data");
    if (req.listenerCount("error") > 0) req.emit("error", error);
    refuse(req, res, error);
  };
  req.on("data", count);
  lingerWhenAbandoned(req);
  closeAfterTheBody(req);
  next();
};

/**
 * A route that answers before reading the whole body (an upload refused at its first part) lets
 * the Fetch body go, and Remix's stream then destroys the request, and with it the socket, while the
 * client is still sending: the reset can reach the client before the answer and throw it away. While
 * the connection is alive, that destroy reads the rest and throws it away instead, within LINGER, as
 * after our own 413; a request whose connection has gone is destroyed as before.
 */
function lingerWhenAbandoned(req: IncomingMessage) {
  const destroy = req.destroy.bind(req);
  req.destroy = ((error?: Error) => {
    if (req.complete || !req.socket || req.socket.destroyed) return destroy(error);
    req.destroy = destroy;
    discardRest(req, () => {});
    return req;
  }) as typeof req.destroy;
}

/** After the guard answered, the route's own (late) answer cannot be sent: drop it quietly. */
export const bodyLimitErrors: ErrorRequestHandler = (error, req, res, next) => {
  if (answered.has(res) || isBodyLimitError(error)) {
    if (!res.headersSent) refuse(req, res, new BodyLimitError());
    return;
  }
  next(error);
};

/** Reads a Fetch Request's body as text, at most `limit` bytes, counting as it streams. */
export async function readText(request: Request, limit = BODY_LIMITS.bytes): Promise<string> {
  return new TextDecoder().decode(await readBytes(request, limit));
}

/** Reads a Fetch Request's body as bytes, at most `limit`, counting as it streams (a raw e-mail). */
export async function readBytes(request: Request, limit: number, countFields = false): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > limit) throw new BodyLimitError();
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let fields = 1;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new BodyLimitError();
      if (countFields) {
        fields += countAmpersands(value);
        if (fields > BODY_LIMITS.fields) throw new BodyLimitError(TOO_MANY_FIELDS_MESSAGE);
      }
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    if (error instanceof HttpError) throw error;
    if (isBodyLimitError(error)) throw new BodyLimitError();
    throw new HttpError(400, MALFORMED_FORM_MESSAGE, "MALFORMED_BODY");
  }
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads an urlencoded or multipart form within the limits: at most 1 MiB (`upload`: a multipart form
 * carrying files, the upload limit of its UPLOAD_PATHS route) and 1,000 fields; a
 * malformed multipart body is a 400 and any other type a 415, never a 500. Throws HttpError.
 */
export async function readFormData(request: Request, { upload = false }: { upload?: boolean } = {}): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (isUrlencoded(type)) {
    const params = new URLSearchParams(new TextDecoder().decode(await readBytes(request, BODY_LIMITS.bytes, true)));
    const form = new FormData();
    for (const [name, value] of params) form.append(name, value);
    return form;
  }
  if (!isMultipart(type)) throw new HttpError(415, UNSUPPORTED_FORM_MESSAGE, "UNSUPPORTED_MEDIA_TYPE");
  const bytes = await readBytes(request, upload ? BODY_LIMITS.uploadBytes : BODY_LIMITS.bytes);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new HttpError(400, MALFORMED_FORM_MESSAGE, "MALFORMED_BODY");
  }
  if ([...form.keys()].length > BODY_LIMITS.fields) throw new BodyLimitError(TOO_MANY_FIELDS_MESSAGE);
  return form;
}

/** `readFormData` for page actions: a refusal is thrown as a Response in the error shape. */
export async function readForm(request: Request, options: { upload?: boolean } = {}): Promise<FormData> {
  try {
    return await readFormData(request, options);
  } catch (error) {
    if (error instanceof HttpError) throw httpErrorResponse(error);
    throw error;
  }
}
