import { describe, expect, test } from "vitest";

import { preferredEncoding } from "~/web/compression.server";

describe("the encoding a whole answer goes out in", () => {
  test.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["BR;Q=0.0, gzip;q=0", null],
    ["br;q=0.5", "br"],
    ["*", "br"],
    ["*, br;q=0", "gzip"],
    ["*;q=0, gzip", "gzip"],
    ["*;q=0", null],
    ["deflate", null],
  ] as const)("Accept-Encoding %j → %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
