/*
 * Links in chat text (decision 181): the text is cut into plain parts and link parts, which the
 * view renders as React text and <a> elements, never as HTML. Only http and https addresses
 * become links, written out in full (no bare "example.com", no "javascript:", "data:" or "mailto:"),
 * and never one with a user name or password in it ("https://bank.com@evil.test" stays text).
 */

export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

/** What every link in a message carries: a new tab, no opener, no referrer, no endorsement. */
export const LINK_REL = "noopener noreferrer nofollow";

// One pass, no nested quantifiers: linear in the length of the text. A host must follow the "//".
const CANDIDATE = /\bhttps?:\/\/[^\s<>"'`{}|\\^/][^\s<>"'`{}|\\^]*/gi;
const TRAILING = ".,;:!?'\"*_~";

/** Trailing punctuation belongs to the sentence; a closing bracket only when the link did not open one. Linear. */
function trimEnd(candidate: string): string {
  const open = { ")": 0, "]": 0 };
  const close = { ")": 0, "]": 0 };
  for (const c of candidate) {
    if (c === "(") open[")"] += 1;
    else if (c === "[") open["]"] += 1;
    else if (c === ")" || c === "]") close[c] += 1;
  }
  let end = candidate.length;
  while (end > 0) {
    const c = candidate[end - 1]!;
    if (TRAILING.includes(c)) end -= 1;
    else if ((c === ")" || c === "]") && open[c] < close[c]) {
      close[c] -= 1;
      end -= 1;
    } else break;
  }
  return candidate.slice(0, end);
}

/** The address a link may point at, or null when it should stay text. */
export function safeHref(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname || url.username || url.password) return null;
  return url.href;
}

/** The text as plain and link parts, in order; joining every part's text gives the input back. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = "";
  let at = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const candidate = trimEnd(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    plain += text.slice(at, match.index);
    if (plain) parts.push({ kind: "text", text: plain });
    plain = "";
    parts.push({ kind: "link", text: candidate, href });
    at = match.index + candidate.length;
  }
  plain += text.slice(at);
  if (plain) parts.push({ kind: "text", text: plain });
  return parts;
}
