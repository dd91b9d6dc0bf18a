import { pino } from "pino";

import { env } from "./env.server";

/**
 * Links with a secret in their query (`/reset-password?token=…`, `/account/confirm-email?token=…`,
 * a socket's `?token=`): the value of every query parameter whose name has "token" in it is
 * replaced, so logs never hold a working link.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&][^=&#]*token[^=&#]*=)[^&#]*/gi, "$1[redacted]");
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
  // The `url` a route error logs with is redacted the same way.
  serializers: { url },
});
