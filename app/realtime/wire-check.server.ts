import type { z } from "zod";

import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { schemaDrift } from "~/web/api-answer-check.server";

const checkEvents = !env.isProduction;

/**
 * Outside production a socket event sent in the API's shape is held to its schema as /api answers
 * are (api-answer-check.server.ts), so a field added to a screen's type cannot reach sockets unseen:
 * an event that fails its schema, or carries a key it does not declare, is not sent, and is logged.
 * Under test the log is silent and a drifted event would show only as one that never arrives, so
 * there it is written to the console instead, which fails the test that sent it with the schema's
 * message (every test project's setup fails a test on console.error). Production skips the check,
 * as it does for answers.
 */
export function fitsWireSchema(event: string, schema: z.ZodType, value: unknown): boolean {
  if (!checkEvents) return true;
  const drift = schemaDrift(schema, value);
  if (drift === null) return true;
  const message = `${event} not sent, it drifted from its schema: ${drift}`;
  if (env.isTest) console.error(message);
  else logger.error({ event }, message);
  return false;
}
