import { describe, expect, test } from "vitest";

import { linkify, safeHref, type TextPart } from "~/domain/linkify";

const links = (text: string) => linkify(text).filter((p): p is Extract<TextPart, { kind: "link" }> => p.kind === "link");
const joined = (parts: TextPart[]) => parts.map((p) => p.text).join("");

describe("linkify", () => {
  test("http and https addresses become links between plain text; the text reads as typed", () => {
    const text = "See https://brandlift.test/reports?id=7&x=1 and http://example.com/a#b now";
    expect(linkify(text)).toEqual([
      { kind: "text", text: "See " },
      { kind: "link", text: "https://brandlift.test/reports?id=7&x=1", href: "https://brandlift.test/reports?id=7&x=1" },
      { kind: "text", text: " and " },
      { kind: "link", text: "http://example.com/a#b", href: "http://example.com/a#b" },
      { kind: "text", text: " now" },
    ]);
  });

  test("text without a link is one plain part; empty text is no part", () => {
    expect(linkify("just words, example.com and www.example.com")).toEqual([{ kind: "text", text: "just words, example.com and www.example.com" }]);
    expect(linkify("")).toEqual([]);
  });

  test("sentence punctuation and unopened brackets stay outside; balanced brackets stay in", () => {
    expect(links("Look: https://a.test/x. Then https://b.test/y, ok? (https://c.test/z) 'https://d.test/q'!")).toMatchObject([
      { text: "https://a.test/x" },
      { text: "https://b.test/y" },
      { text: "https://c.test/z" },
      { text: "https://d.test/q" },
    ]);
    expect(links("https://en.wikipedia.org/wiki/Brand_(marketing)")[0]).toMatchObject({ text: "https://en.wikipedia.org/wiki/Brand_(marketing)" });
  });

  test("hostile input: other schemes, markup, quotes and credentials never make a link that escapes", () => {
    for (const text of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(document.cookie)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "vbscript:msgbox(1)",
      "mailto:a@b.test",
      "file:///etc/passwd",
      "//evil.test/path",
      "https://",
      "http:///nohost",
    ]) {
      expect(links(text), text).toEqual([]);
      expect(joined(linkify(text))).toBe(text);
    }
    // A link stops before markup and quotes: nothing after it can become an attribute or a tag.
    const markup = `https://a.test/"onmouseover="alert(1) <script>alert(1)</script> https://b.test/<img src=x onerror=alert(1)>`;
    expect(links(markup).map((l) => l.href)).toEqual(["https://a.test/", "https://b.test/"]);
    expect(joined(linkify(markup))).toBe(markup);
    // "javascript:" in front of an address leaves only the address as a link.
    expect(links("javascript:https://a.test/")).toEqual([{ kind: "link", text: "https://a.test/", href: "https://a.test/" }]);
    // A user name or password hides the real host: text, not a link.
    expect(links("https://bank.test@evil.test/login https://u:p@evil.test/")).toEqual([]);
  });

  test("the href is the parsed address: spaces, unicode and control characters cannot slip into it", () => {
    const [link] = links("https://exämple.test/päth?q=ä");
    expect(link!.href).toBe("https://xn--exmple-cua.test/p%C3%A4th?q=%C3%A4");
    expect(safeHref("https://a.test/\u0000x")).toBe("https://a.test/%00x");
    expect(safeHref("https://a.test/\nx")).toBe("https://a.test/x");
    for (const part of links("https://a.test/x\u202Egnp.exe\u0001")) expect([...part.href].every((c) => c > " " && c <= "~")).toBe(true);
  });

  test("a long hostile text is cut in linear time", () => {
    const text = `${"https://a.test/".repeat(2000)} ${"(".repeat(50_000)}https://b.test/${")".repeat(50_000)} ${"x".repeat(100_000)}`;
    const started = performance.now();
    const parts = linkify(text);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(joined(parts)).toBe(text);
  });
});
