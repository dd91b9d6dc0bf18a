import { pino } from "pino";

import { env } from "./env.server";

/** A query parameter that is a credential: any name with "token" in it, a receipt's `key`, a signed link's `sig`. */
const SECRET_PARAM = /([?&](?:[^=&#\s]*token[^=&#\s]*|key|sig)=)[^&#\s]*/gi;
/** A calendar feed's address is its credential: the path segment after /calendar/ (decision 212); so is a review link's after /review/ (decision 293). */
const CALENDAR_FEED = /((?:^|:\/\/[^/?#\s]+)\/(?:calendar|review)\/)[^/?#\s]+/gi;

/**
 * The one redaction of links in the log (a path or a whole address): the value of
 * every secret query parameter (`/reset-password?token=…`, `/login/magic?token=…`, a socket's
 * `?token=`, `/receipts/…?key=…`, `/files/…?expires=…&sig=…`) and a calendar feed's token
 * (`/calendar/<token>.ics`) and a review link's (`/review/<token>`) are replaced, so logs never hold a working link.
 */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAM, "$1[redacted]").replace(CALENDAR_FEED, "$1[redacted]");
}

const url = (value: unknown) => (typeof value === "string" ? redactUrl(value) : value);

/** pino-http's request and response lines (server.ts): what a request log line carries. */
export const httpSerializers = {
  req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
};

export const logger = pino({
  level: env.isTest ? "silent" : env.logLevel,
  redact: ["req.headers.authorization", "req.headers.cookie", "password", "token"],
  // The `url` a route error logs with, and an e-mail's `link` (outbox mode), are redacted the same way.
  serializers: { url, link: url },
});
