import { z } from "zod";

import { env } from "~/utils/env.server";

/**
 * Outside production every success is held to the route's declared `response` schema (the OpenAPI
 * document's): an answer that drifted from its document fails the test that made it, as a 500.
 * Production skips the check (the conformance test and these runs keep the two together).
 */
const checkAnswers = !env.isProduction;

class AnswerDriftError extends Error {
  override name = "AnswerDriftError";
}

/**
 * Why a value about to be sent does not match its schema (it fails the schema, or carries keys the
 * schema does not declare), or null when it matches: /api answers here, socket events in the API's
 * shape (app/realtime/wire-check.server.ts).
 */
export function schemaDrift(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (!result.success) return z.prettifyError(result.error);
  // The schema's parse drops keys it does not declare: the same JSON (keys sorted) means the value
  // sends nothing its schema does not name.
  const sent = canonicalJson(value);
  const documented = canonicalJson(result.data);
  return sent === documented ? null : `it sends ${sent.slice(0, 400)} where its schema reads ${documented.slice(0, 400)}`;
}

function checkValue(schema: z.ZodType, value: unknown, request: Request) {
  const drift = schemaDrift(schema, value);
  if (drift === null) return;
  const { pathname } = new URL(request.url);
  throw new AnswerDriftError(`${request.method} ${pathname} answered outside its declared response: ${drift}`);
}

/** JSON with every object's keys sorted, so two values compare by content, not key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

async function checkAnswer(schema: z.ZodType, response: Response, request: Request) {
  const isJson = (response.headers.get("Content-Type") ?? "").startsWith("application/json");
  if (!isJson || response.status < 200 || response.status >= 300 || response.bodyUsed) return;
  checkValue(schema, await response.clone().json(), request);
}

/**
 * Holds a route's success to its declared `response` schema, outside production: a Response (its
 * JSON body), or the value about to be sent, read only when the check runs (`value()`).
 */
export async function checkDeclaredAnswer(schema: z.ZodType | undefined, result: Response | (() => unknown), request: Request): Promise<void> {
  if (!checkAnswers || !schema) return;
  if (result instanceof Response) await checkAnswer(schema, result, request);
  else checkValue(schema, result(), request);
}
