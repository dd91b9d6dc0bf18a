import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
// Not re-exported by the package index: the adapter's own two halves.
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { sendStreaming } from "../../tests/support/streaming-client";
import { BODY_LIMITS, bodyLimit, bodyLimitErrors, byteLimitFor, readFormData, readText } from "./body-limit.server";

const MiB = 1024 * 1024;

/** A body stream with no Content-Length, as a chunked upload arrives. */
function streamed(bytes: number, chunk = "a".repeat(64 * 1024)) {
  let sent = 0;
  const encoded = new TextEncoder().encode(chunk);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const piece = encoded.subarray(0, Math.min(encoded.length, bytes - sent));
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
}

const post = (body: BodyInit, type: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: { "Content-Type": type }, duplex: "half" } as RequestInit);

describe("the readers", () => {
  test("a body over 1 MiB without Content-Length is refused while it streams", async () => {
    await expect(readText(post(streamed(2 * MiB), "application/json"))).rejects.toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" });
    expect(await readText(post(streamed(MiB), "application/json"))).toHaveLength(MiB);
  });

  test("a declared length over the limit is refused before reading", async () => {
    const request = new Request("http://localhost/x", { method: "POST", body: "{}", headers: { "Content-Length": String(2 * MiB) } });
    await expect(readText(request)).rejects.toMatchObject({ status: 413 });
  });

  test("forms: at most 1,000 fields; a malformed multipart is 400; anything but a form is 415", async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=1`).join("&");
    expect([...(await readFormData(post(fields(1000), "application/x-www-form-urlencoded"))).keys()]).toHaveLength(1000);
    await expect(readFormData(post(fields(1001), "application/x-www-form-urlencoded"))).rejects.toMatchObject({
      status: 413,
      message: "The form has too many fields.",
    });
    await expect(readFormData(post("--x\r\nbroken", "multipart/form-data; boundary=x"))).rejects.toMatchObject({ status: 400 });
    await expect(readFormData(post("garbage", "multipart/form-data"))).rejects.toMatchObject({ status: 400 });
    await expect(readFormData(post('{"a":1}', "application/json"))).rejects.toMatchObject({ status: 415 });
    const multipart = new FormData();
    multipart.set("title", "Hello");
    expect((await readFormData(new Request("http://localhost/x", { method: "POST", body: multipart }))).get("title")).toBe("Hello");
  });

  test("only upload routes take the upload limit, and only for multipart", () => {
    expect(byteLimitFor("/api/reports/service/abc/upload", "multipart/form-data; boundary=x")).toBe(BODY_LIMITS.uploadBytes);
    expect(byteLimitFor("/dashboard/users/abc", "multipart/form-data; boundary=x")).toBe(BODY_LIMITS.uploadBytes);
    expect(byteLimitFor("/dashboard/users/abc.data", "multipart/form-data; boundary=x")).toBe(BODY_LIMITS.uploadBytes);
    // A brief's form carries its files (decision 201).
    expect(byteLimitFor("/dashboard/services/abc/brief", "multipart/form-data; boundary=x")).toBe(BODY_LIMITS.uploadBytes);
    expect(byteLimitFor("/dashboard/plans/abc/brief.data", "multipart/form-data; boundary=x")).toBe(BODY_LIMITS.uploadBytes);
    expect(byteLimitFor("/dashboard/services/abc/brief", "application/x-www-form-urlencoded")).toBe(MiB);
    expect(byteLimitFor("/api/reports/service/abc/upload", "application/json")).toBe(MiB);
    expect(byteLimitFor("/login", "multipart/form-data; boundary=x")).toBe(MiB);
    expect(BODY_LIMITS.uploadBytes).toBe(10 * MiB + 64 * 1024);
  });
});

describe("the Express guard in front of a handler that reads like Remix", () => {
  let server: http.Server;
  let url: string;
  const reads: string[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(bodyLimit);
    // What @remix-run/express does with a route: a Fetch Request over the same IncomingMessage, then
    // the route's answer written out (which fails when the guard has answered already).
    app.all("*", async (req, res, next) => {
      try {
        const request = createRemixRequest(req, res);
        let response: Response;
        if (req.path.includes("/refused-early/") || req.path.includes("/refused-at-once/")) {
          // A route that refuses an upload at its first part: it lets the body go, then answers.
          await request.body?.cancel();
          if (req.path.includes("/refused-early/")) await new Promise((resolve) => setTimeout(resolve, 20));
          return void (await sendRemixResponse(res, Response.json({ refused: true }, { status: 413, headers: { Connection: "close" } })));
        }
        try {
          const type = request.headers.get("Content-Type") ?? "";
          const size = type.startsWith("application/json") ? (await request.text()).length : [...(await request.formData()).keys()].length;
          reads.push(`${req.path} ${size}`);
          response = Response.json({ size });
        } catch (error) {
          reads.push(`${req.path} failed: ${error instanceof Error ? error.name : String(error)}`);
          response = new Response("late", { status: 500 });
        }
        await sendRemixResponse(res, response);
      } catch (error) {
        next(error);
      }
    });
    app.use(bodyLimitErrors);
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a declared length over 1 MiB is a 413 in the error shape, and the handler never runs", async () => {
    reads.length = 0;
    const answer = await sendStreaming(`${url}/api/auth/login`, { headers: { "Content-Type": "application/json" }, bytes: 6 * MiB, contentLength: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      status: "error",
      message: "The request is too large.",
      error: "The request is too large.",
      code: "PAYLOAD_TOO_LARGE",
    });
    expect(reads).toEqual([]);
  });

  test("a chunked body is stopped at 1 MiB: 413, and the handler's read fails instead of buffering the rest", async () => {
    reads.length = 0;
    const answer = await sendStreaming(`${url}/api/auth/login`, { headers: { "Content-Type": "application/json" }, bytes: 50 * MiB });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    await expect.poll(() => reads).toHaveLength(1);
    expect(reads[0]).toBe("/api/auth/login failed: BodyLimitError");
  });

  test("a client still sending after the 413 reads it (the rest is thrown away), and a huge body is cut off", async () => {
    const declared = await fetch(`${url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat(6 * MiB) });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await declared.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const huge = await sendStreaming(`${url}/api/auth/login`, { headers: { "Content-Type": "application/json" }, bytes: 500 * MiB });
    expect(huge.status).toBe(413);
    await expect(
      new Promise((resolve) => {
        const request = http.request(`${url}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, agent: false });
        request.on("error", () => resolve("cut"));
        request.on("close", () => resolve("cut"));
        const chunk = Buffer.alloc(256 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 500 * MiB) {
            sent += chunk.length;
            if (!request.write(chunk)) return void request.once("drain", pump);
          }
          resolve(`all ${sent} bytes were taken`);
        };
        pump();
      }),
    ).resolves.toBe("cut");
  });

  test("a route that lets the body go before answering: its answer reaches a client still sending (no reset first)", async () => {
    const answer = await sendStreaming(`${url}/api/reports/service/refused-early/upload`, {
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      bytes: 8 * MiB,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ refused: true });
  });

  test("a route that lets the body go and answers at once: the connection is not closed on a client still sending", async () => {
    // A raw client that does not read for a while, as a busy one does. Its bytes sent after the
    // answer must still be taken (read and thrown away): a socket closed already answers the first
    // late write with a reset, and the next write fails with EPIPE, as the CI's upload client did
    // before it had read the answer.
    const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
    const failures: string[] = [];
    socket.on("error", (error: NodeJS.ErrnoException) => failures.push(error.code ?? error.message));
    await once(socket, "connect");
    socket.pause();
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const chunk = `${(64 * 1024).toString(16)}\r\n${"a".repeat(64 * 1024)}\r\n`;
    socket.write(
      "POST /api/reports/service/refused-at-once/upload HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n" +
        chunk,
    );
    await pause(300);
    socket.write(chunk);
    await pause(300);
    socket.write(chunk);
    await pause(100);
    const received: Buffer[] = [];
    socket.on("data", (part: Buffer) => received.push(part));
    socket.resume();
    socket.end("0\r\n\r\n");
    await Promise.race([once(socket, "close"), pause(2000)]);
    expect(failures).toEqual([]);
    const answer = Buffer.concat(received).toString("utf8");
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"refused":true}');
    socket.destroy();
  });

  test("urlencoded: over 1,000 fields is a 413 while streaming, well under 1 MiB", async () => {
    reads.length = 0;
    const answer = await sendStreaming(`${url}/login`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      bytes: 300_000 * 4,
      chunk: Buffer.from("a=1&".repeat(4096)),
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The form has too many fields." });
  });

  test("bodies within the limits reach the handler whole", async () => {
    reads.length = 0;
    const json = await sendStreaming(`${url}/api/auth/login`, { headers: { "Content-Type": "application/json" }, bytes: MiB });
    expect(reads).toEqual([`/api/auth/login ${MiB}`]);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body)).toEqual({ size: MiB });
    const form = await sendStreaming(`${url}/login`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      bytes: 999 * 4 + 3,
      chunk: Buffer.from("a=1&".repeat(999) + "a=1"),
    });
    expect(JSON.parse(form.body)).toEqual({ size: 1000 });
    const boundary = "----limit";
    const file = Buffer.alloc(5 * MiB, 0x62);
    const upload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await sendStreaming(`${url}/api/reports/service/abc/upload`, {
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      bytes: upload.length,
      chunk: upload,
    });
    expect(uploaded.status).toBe(200);
    const elsewhere = await sendStreaming(`${url}/login`, {
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      bytes: upload.length,
      chunk: upload,
    });
    expect(elsewhere.status).toBe(413);
  });
});
