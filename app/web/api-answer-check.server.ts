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
  return driftOf(schema, value, asJson(value));
}

/** schemaDrift of a value whose JSON (`sent`, as it reads back) is already at hand. */
function driftOf(schema: z.ZodType, value: unknown, sent: unknown): string | null {
  const result = schema.safeParse(value);
  if (!result.success) return z.prettifyError(result.error);
  // The schema's parse drops keys it does not declare: the same JSON (keys in any order) means the
  // value sends nothing its schema does not name.
  const documented = asJson(result.data);
  if (sameJson(sent, documented)) return null;
  return `it sends ${canonicalJson(sent).slice(0, 400)} where its schema reads ${canonicalJson(documented).slice(0, 400)}`;
}

/** A value as its JSON text reads back: what is sent of it (dates as text, undefined keys dropped). */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** Two values read from JSON are the same JSON: objects compare by their keys whatever their order, arrays by position. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** JSON with every object's keys sorted, for the message: the two values side by side, key by key. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** Checks a value read from JSON (what is sent). */
function checkValue(schema: z.ZodType, value: unknown, request: Request) {
  const drift = driftOf(schema, value, value);
  if (drift === null) return;
  const { pathname } = new URL(request.url);
  throw new AnswerDriftError(`${request.method} ${pathname} answered outside its declared response: ${drift}`);
}

/**
 * Answers frozen by `lasting()` (the OpenAPI document, the catalogue) that matched a schema: they
 * cannot change, so each is checked once, not on every request that sends it.
 */
const matched = new WeakMap<z.ZodType, WeakSet<object>>();

function checkLasting(schema: z.ZodType, value: object, json: string, request: Request) {
  let values = matched.get(schema);
  if (values?.has(value)) return;
  checkValue(schema, JSON.parse(json), request);
  if (!values) matched.set(schema, (values = new WeakSet()));
  values.add(value);
}

async function checkAnswer(schema: z.ZodType, response: Response, request: Request) {
  const isJson = (response.headers.get("Content-Type") ?? "").startsWith("application/json");
  if (!isJson || response.status < 200 || response.status >= 300 || response.bodyUsed) return;
  checkValue(schema, await response.clone().json(), request);
}

/**
 * Holds a route's success to its declared `response` schema, outside production: a Response (its
 * JSON body), or the value about to be sent and its JSON text (checked as the text reads back).
 */
export async function checkDeclaredAnswer(schema: z.ZodType | undefined, result: Response | { value: unknown; json: string }, request: Request): Promise<void> {
  if (!checkAnswers || !schema) return;
  if (result instanceof Response) await checkAnswer(schema, result, request);
  else if (typeof result.value === "object" && result.value !== null && Object.isFrozen(result.value)) checkLasting(schema, result.value, result.json, request);
  else checkValue(schema, JSON.parse(result.json), request);
}
