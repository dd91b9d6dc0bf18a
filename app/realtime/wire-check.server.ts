import type { z } from "zod";

import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { schemaDrift } from "~/web/api-answer-check.server";

const checkEvents = !env.isProduction;

/**
 * Outside production a socket event sent in the API's shape is held to its schema as /api answers
 * are (api-answer-check.server.ts), so a field added to a screen's type cannot reach sockets unseen:
 * an event that fails its schema, or carries a key it does not declare, is logged and not sent.
 * Production skips the check, as it does for answers.
 */
export function fitsWireSchema(event: string, schema: z.ZodType, value: unknown): boolean {
  if (!checkEvents) return true;
  const drift = schemaDrift(schema, value);
  if (drift === null) return true;
  logger.error({ event }, `${event} not sent, it drifted from its schema: ${drift}`);
  return false;
}
