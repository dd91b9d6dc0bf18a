import { describe, expect, test } from "vitest";

import { sitePath } from "./redirect";

const SITE = "https://brandlift.example";

describe("sitePath", () => {
  test.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard/services?tab=reports#top", "/dashboard/services?tab=reports#top"],
    ["/%2F/evil.example", "/%2F/evil.example"],
    ["/caf\u00e9", "/caf%C3%A9"],
    ["/q?x=\u0100", "/q?x=%C4%80"],
  ])("%j stays on the site as %j", (to, path) => {
    expect(sitePath(to, SITE)).toBe(path);
  });

  test.each([
    "//evil.example",
    "https://evil.example/x",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r//evil.example",
    "/x\u0000",
    "/x\u007f",
    "/x\u0085",
    "/.//evil.example",
    "/../..//evil.example",
    "dashboard",
    "",
    "/" + "a".repeat(3000),
    null,
    undefined,
  ])("%j is refused", (to) => {
    expect(sitePath(to, SITE)).toBeNull();
  });
});
