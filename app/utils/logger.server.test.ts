import { symbols } from "pino";
import { afterEach, describe, expect, test } from "vitest";

import { httpSerializers, logger, redactUrl } from "./logger.server";

/** What the real logger writes, captured from its own stream while the test runs at info level. */
function captureLog(run: () => void): Record<string, unknown>[] {
  const stream = (logger as unknown as Record<symbol, { write: (line: string) => void }>)[symbols.streamSym]!;
  const write = stream.write;
  const lines: string[] = [];
  const level = logger.level;
  stream.write = (line: string) => void lines.push(line);
  logger.level = "info";
  try {
    run();
  } finally {
    logger.level = level;
    stream.write = write;
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

const SECRET = "s3cretVALUE_abcdefghijklmnopqrstuvwxyz0123456";

describe("redactUrl", () => {
  test.each([
    [`/reset-password?token=${SECRET}`, "/reset-password?token=[redacted]"],
    [`http://localhost:3000/login/magic?token=${SECRET}`, "http://localhost:3000/login/magic?token=[redacted]"],
    [`/account/undo-email?token=${SECRET}&x=1`, "/account/undo-email?token=[redacted]&x=1"],
    [`/socket.io/?EIO=4&transport=polling&token=${SECRET}`, "/socket.io/?EIO=4&transport=polling&token=[redacted]"],
    [`/receipts/order/abc?key=${SECRET}`, "/receipts/order/abc?key=[redacted]"],
    [`/files/reports/abc?expires=1700000000&sig=${SECRET}`, "/files/reports/abc?expires=1700000000&sig=[redacted]"],
    [`/files/chat/abc?sig=${SECRET}&expires=1`, "/files/chat/abc?sig=[redacted]&expires=1"],
    [`/calendar/${SECRET}.ics`, "/calendar/[redacted]"],
    [`/calendar/${SECRET}.ics?x=1`, "/calendar/[redacted]?x=1"],
    [`https://brandlift.example/calendar/${SECRET}.ics`, "https://brandlift.example/calendar/[redacted]"],
    [`Open: https://brandlift.example/files/reports/x?sig=${SECRET} now`, "Open: https://brandlift.example/files/reports/x?sig=[redacted] now"],
  ])("%s", (input, redacted) => {
    expect(redactUrl(input)).toBe(redacted);
    expect(redactUrl(input)).not.toContain(SECRET);
  });

  test("addresses without a secret are left as they are", () => {
    for (const plain of ["/dashboard/calendar?month=2026-05", "/dashboard/calendar/posts/abc", "/api/calendar/link", "/api/orders?monkey=1&design=2"]) {
      expect(redactUrl(plain)).toBe(plain);
    }
  });
});

describe("the log lines", () => {
  afterEach(() => {
    expect(logger.level).toBe("silent");
  });

  test("a request line, a route error's url and an outbox e-mail's link carry no secret", () => {
    const lines = captureLog(() => {
      logger.info({ req: httpSerializers.req({ id: "r1", method: "GET", url: `/calendar/${SECRET}.ics` }) }, "request completed");
      logger.error({ url: `http://localhost/receipts/order/1?key=${SECRET}` }, "unhandled route error");
      logger.info({ to: "a@example.test", link: `http://localhost/login/magic?token=${SECRET}` }, "e-mail written to outbox");
      logger.info({ to: "a@example.test", link: `http://localhost/files/reports/1?expires=1&sig=${SECRET}` }, "e-mail written to outbox");
    });
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ req: { url: "/calendar/[redacted]" } });
    expect(lines[1]).toMatchObject({ url: "http://localhost/receipts/order/1?key=[redacted]" });
    expect(lines[2]).toMatchObject({ link: "http://localhost/login/magic?token=[redacted]" });
  });
});
