import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";

import { answerClientError } from "./client-error.server";

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end("ok"));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const parse = (answer: string) => {
  const [head, body] = answer.split("\r\n\r\n");
  return { statusLine: head!.split("\r\n")[0], head: head!, body: JSON.parse(body!) as Record<string, unknown> };
};

test("a URL over the header limit answers 431 in the JSON error shape", async () => {
  const answer = parse(await raw(`GET /api/services?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
  expect(answer.head).toContain("Content-Type: application/json; charset=utf-8");
  expect(answer.head).toContain("Cache-Control: private, no-store");
  expect(answer.body).toMatchObject({ success: false, status: "error", code: "HEADERS_TOO_LARGE" });
});

test("a malformed request line answers 400 in the JSON error shape", async () => {
  const answer = parse(await raw("GET /api/services HTTP/9.9 nonsense\r\n\r\n"));
  expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
  expect(answer.body).toMatchObject({ success: false, code: "MALFORMED_REQUEST" });
});
