import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

import { errorBody } from "~/utils/http.server";
import { PRIVATE_CACHE_CONTROL } from "~/web/private-cache.server";

/*
 * A request Node cannot parse (a URL or headers over its limit, a malformed request line) is
 * answered by Node itself, with no body. This answers it in the JSON error shape instead, so /api
 * never answers anything else; browsers show the message. Installed on the http.Server (server.ts).
 */

const ANSWERS: Record<string, { status: number; message: string; code: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: "The request's URL or headers are too large.", code: "HEADERS_TOO_LARGE" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive.", code: "REQUEST_TIMEOUT" },
};
const MALFORMED = { status: 400, message: "The request could not be read.", code: "MALFORMED_REQUEST" };

export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  // A connection the client reset, or one already answered: nothing to say.
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const { status, message, code } = ANSWERS[error.code ?? ""] ?? MALFORMED;
  const body = JSON.stringify(errorBody(message, code));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: ${PRIVATE_CACHE_CONTROL}\r\n` +
      "X-Content-Type-Options: nosniff\r\n" +
      "Connection: close\r\n\r\n" +
      body,
  );
}
