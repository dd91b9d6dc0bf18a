/**
 * Where to go after sign-in: only a path of this site. `to` is parsed against the site's own
 * origin and must stay on it; a backslash or a control character anywhere refuses it outright,
 * because browsers drop tabs and newlines and read `\` as `/` (`/\t/evil.example` is
 * `//evil.example` to them). Anything else, or anything unparsable, gives null.
 */
export function sitePath(to: unknown, siteUrl: string): string | null {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2048) return null;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(to)) return null;
  let url: URL;
  let site: URL;
  try {
    site = new URL(siteUrl);
    url = new URL(to, site);
  } catch {
    return null;
  }
  if (url.origin !== site.origin) return null;
  // The parser's output is percent-encoded (safe in a Location header); `/.//x` must not become `//x`.
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? null : path;
}
