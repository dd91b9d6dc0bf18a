import { type z } from "zod";

import { HttpError } from "~/utils/http.server";
import { readFormData, readText } from "~/web/body-limit.server";

/*
 * What an /api route takes in, before its handler runs: a path that decodes, params, query and
 * body held to their zod schemas, and a body in a media type the route takes (else 415).
 */

/** Whether the URL's path is valid percent-encoding. */
export function decodablePath(url: string) {
  try {
    decodeURIComponent(new URL(url).pathname);
    return true;
  } catch {
    return false;
  }
}

/** Input held to its schema; the first issue's message is the 400's. */
export function parse(schema: z.ZodType | undefined, input: unknown) {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HttpError(400, issue?.message ?? "Invalid input.", "INVALID_INPUT");
  }
  return result.data;
}

/** The media types a JSON route's body may come in (the document lists them). */
export const JSON_BODY_TYPES = ["application/json", "application/x-www-form-urlencoded"];
const mediaType = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
const unsupportedMediaType = (expected: string) => new HttpError(415, `Send the body as ${expected}.`, "UNSUPPORTED_MEDIA_TYPE");

export function checkMediaType(request: Request, expected: string) {
  if (mediaType(request) !== expected) throw unsupportedMediaType(expected);
}

/** A JSON route's body: JSON, or an urlencoded form (HTML forms); any other type is a 415. */
export async function readBody(request: Request): Promise<unknown> {
  const type = mediaType(request);
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(await readFormData(request));
  if (type !== "application/json" && type !== "") throw unsupportedMediaType(JSON_BODY_TYPES[0]!);
  const text = await readText(request);
  if (!text.trim()) return {};
  // Without a Content-Type only an empty body is taken (it then fails validation with the field's message).
  if (type === "") throw unsupportedMediaType(JSON_BODY_TYPES[0]!);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.", "MALFORMED_JSON");
  }
}
