import http from "node:http";

/**
 * Sends a body of `bytes` bytes (made of `chunk` repeated) as it would come from a slow or
 * hostile client: chunked unless `contentLength` is given, honouring backpressure, and resolves
 * with the answer as soon as it arrives, even while the body is still being sent. The server may
 * close the connection after answering; that ends the upload, not the test.
 */
export interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes the client managed to hand to the socket before the answer (or the close). */
  sent: number;
}

export function sendStreaming(
  url: string,
  options: { method?: string; headers?: Record<string, string>; bytes: number; chunk?: Buffer; contentLength?: boolean; prefix?: Buffer },
): Promise<StreamedAnswer> {
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, 0x61);
  const prefix = options.prefix ?? Buffer.alloc(0);
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentLength) headers["Content-Length"] = String(prefix.length + options.bytes);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(url, { method: options.method ?? "POST", headers, agent: false });
    request.on("response", (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts).toString("utf8"), sent });
        request.destroy();
      });
      response.on("error", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts).toString("utf8"), sent }));
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      if (prefix.length && sent === 0) {
        request.write(prefix);
        sent += prefix.length;
      }
      if (!answered && !request.destroyed && sent < prefix.length + options.bytes) {
        const remaining = prefix.length + options.bytes - sent;
        const piece = remaining >= chunk.length ? chunk : chunk.subarray(0, remaining);
        sent += piece.length;
        // One chunk, then the event loop: an answer that has arrived is read before the next write,
        // as a browser reads while it uploads. (Writing on in a tight loop, the client could pass the
        // server's linger budget before reading the 413, and the reset then threw the answer away.)
        if (request.write(piece)) setImmediate(write);
        else request.once("drain", write);
        return;
      }
      if (!answered && !request.destroyed) request.end();
    };
    write();
  });
}
