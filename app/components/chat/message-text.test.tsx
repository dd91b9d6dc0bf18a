import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";

import { MessageText } from "./message-text";

const html = (text: string) => renderToStaticMarkup(<MessageText text={text} own={false} />);

describe("MessageText", () => {
  test("an address is a link to a new tab without opener, referrer or endorsement", () => {
    expect(html("Your report: https://brandlift.test/r/1.")).toBe(
      'Your report: <a href="https://brandlift.test/r/1" target="_blank" rel="noopener noreferrer nofollow" class="font-medium text-brand-700 underline underline-offset-2">https://brandlift.test/r/1</a>.',
    );
  });

  test("markup and script-like addresses stay text; no element but the links is made", () => {
    const out = html(`<img src=x onerror=alert(1)> javascript:alert(1) https://a.test/"><script>alert(1)</script>`);
    expect(out).not.toMatch(/<(img|script)/);
    expect(out).not.toContain('href="javascript');
    expect(out.match(/<a /g)).toHaveLength(1);
    expect(out).toContain('href="https://a.test/"');
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
