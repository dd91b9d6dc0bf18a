import { z } from "zod";

import { JSON_BODY_TYPES } from "~/web/api-input.server";
import { keyScope, type ApiHandler, type ApiSpec, type Method } from "~/web/api.server";

/*
 * The OpenAPI 3.1 document, built from what each /api route already declares to apiRoute: the
 * zod schemas it validates with and the response it promises. Nothing is written by hand, so
 * the document cannot drift from the code. See docs/api.md.
 */

type JsonSchema = Record<string, unknown>;
type RouteModules = Record<string, Record<string, unknown>>;

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input (message says which field and why).",
  401: "Not signed in, or the token has been revoked.",
  403: "Signed in, but not allowed (or a cross-site cookie request).",
  404: "Not found, or not yours.",
  405: "Method not allowed.",
  409: "Conflicts with what exists (a name or e-mail in use, a state that does not allow it).",
  413: "The body is over its limit (1 MiB, a 10 MiB upload, 1,000 form fields).",
  415: "The body's Content-Type is not one this operation takes.",
  429: "Too many requests; Retry-After says how many seconds to wait.",
  431: "The request's URL or headers are over the server's limit.",
  500: "Unexpected failure; the answer carries a requestId for the logs.",
  502: "A provider (Stripe) failed or could not be reached; nothing was changed.",
  503: "The database is briefly unavailable; Retry-After says when to try again.",
};

/**
 * A route file's flat-routes name: `+` folders (nested too) prefix their files' names and a folder's
 * `_layout` is the folder's own route, so `api+/services+/purchases.$id.ts` and `./api.services.purchases.$id.ts`
 * are both `api.services.purchases.$id`; a pathless folder (`_x+`) adds nothing.
 */
function flatRouteName(file: string): string {
  const parts = file.replace(/\.tsx?$/, "").split("/");
  let first = parts.length - 1;
  while (first > 0 && parts[first - 1]!.endsWith("+")) first--;
  const inFolder = parts.slice(first);
  if (inFolder.length > 1 && inFolder.at(-1) === "_layout") inFolder.pop();
  return inFolder
    .filter((part, i) => i === inFolder.length - 1 || !part.startsWith("_"))
    .map((part) => part.replace(/\+$/, ""))
    .join(".");
}

/** `./api.services.purchases.$id.ts` or `api+/services+/purchases.$id.ts` → `/api/services/purchases/{id}`; null for a splat route. */
export function apiPathFromFile(file: string): string | null {
  const name = flatRouteName(file);
  // Remix's flat routes: dots separate segments, `[.]` is a literal dot, `$name` a parameter.
  const segments = name.split(/\.(?![^[]*\])/);
  if (segments.includes("$")) return null;
  return "/" + segments.map((segment) => segment.replace(/\[\.\]/g, ".").replace(/^\$(.+)$/, "{$1}")).join("/");
}

/** The handlers a route module exports, keyed by the HTTP method each one declares. */
export function routeOperations(module: Record<string, unknown>): { method: Method; spec: ApiSpec }[] {
  const operations: { method: Method; spec: ApiSpec }[] = [];
  for (const exportName of ["loader", "action"] as const) {
    const handler = module[exportName] as Partial<ApiHandler> | undefined;
    for (const spec of handler?.api ?? []) {
      operations.push({ method: spec.method ?? (exportName === "loader" ? "GET" : "POST"), spec });
    }
  }
  return operations;
}

export function buildOpenApiDocument(modules: RouteModules) {
  const paths: Record<string, Record<string, unknown>> = {};
  // In the order of the routes' flat file names (`api.account.2fa.ts` before `api.account.ts`), whichever folders hold them.
  const flatFile = (file: string) => `${flatRouteName(file)}.ts`;
  for (const [file, module] of Object.entries(modules).sort(([a], [b]) => flatFile(a).localeCompare(flatFile(b)))) {
    const path = apiPathFromFile(file);
    if (!path) continue;
    for (const { method, spec } of routeOperations(module)) {
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = operation(path, method, spec);
    }
  }
  return {
    openapi: "3.1.0" as const,
    info: {
      title: "BrandLift API",
      version: "1.0.0",
      description: "JSON API of the BrandLift agency app. Every failure answers the Error shape. Reference: docs/api.md.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorSchema, "output") },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The token from POST /api/auth/login." },
        cookieAuth: { type: "apiKey", in: "cookie", name: "__session", description: "The browser session; state changes need a same-origin Origin header." },
        apiKeyAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key (blk_…) from /dashboard/api-keys: each operation lists the scope it needs; 600 calls a minute per key.",
        },
      },
    },
  };
}

function operation(path: string, method: Method, spec: ApiSpec) {
  const parameters = [...objectParameters(spec.params, "path"), ...objectParameters(spec.query, "query")];
  const status = spec.status ?? 200;
  const errors = declaredStatuses(spec, method).filter((code) => code !== status);
  const responses: Record<string, unknown> = {
    [status]: {
      description: "Success.",
      ...(spec.response ? { content: { [spec.produces ?? "application/json"]: { schema: jsonSchema(spec.response, "output") } } } : {}),
    },
  };
  for (const code of errors) {
    responses[code] = { description: ERROR_DESCRIPTIONS[code] ?? "Refused.", content: { "application/json": { schema: ERROR_REF } } };
  }
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    tags: [path.split("/")[2] ?? "api"],
    ...(spec.summary ? { summary: spec.summary } : {}),
    security: security(spec.auth, keyScope(spec, method)),
    "x-api-key-scope": spec.auth === "none" ? null : keyScope(spec, method),
    ...(spec.auth === "team" ? { description: "Staff only." } : spec.auth === "user" ? { description: "Customers only." } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body) } : {}),
    ...(spec.rawBody
      ? {
          requestBody: {
            required: true,
            content: { [spec.rawBody.contentType]: spec.rawBody.schema ? { schema: jsonSchema(spec.rawBody.schema, "input") } : {} },
          },
        }
      : {}),
    responses,
  };
}

function security(auth: ApiSpec["auth"], scope: string | null) {
  if (auth === "none") return [];
  // OpenAPI 3.1 lets a bearer scheme name what it needs: the API key's scope (absent: no key may call).
  const signedIn = [{ bearerAuth: [] }, { cookieAuth: [] }, ...(scope ? [{ apiKeyAuth: [scope] }] : [])];
  return auth === "optional" ? [{}, ...signedIn] : signedIn;
}

function requestBody(schema: z.ZodType) {
  const body = jsonSchema(schema, "input");
  return { required: true, content: Object.fromEntries(JSON_BODY_TYPES.map((type) => [type, { schema: body }])) };
}

function objectParameters(schema: z.ZodType | undefined, location: "path" | "query") {
  if (!schema) return [];
  const object = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === "path" || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** zod 4's own JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1); what cannot be expressed becomes `{}`. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/**
 * Every status an operation may answer: its success, what its config implies, and the ones its
 * handler declares. The OpenAPI document lists exactly these (the conformance test holds it to them).
 */
function declaredStatuses(spec: ApiSpec, method: Method): number[] {
  const statuses = new Set<number>([spec.status ?? 200, 405, 431, 500, 503, ...(spec.errors ?? [])]);
  const takesBody = !!(spec.body || spec.rawBody);
  if (spec.params || spec.query || takesBody) statuses.add(400);
  // A path parameter names something that may not exist (or is not the caller's).
  if (spec.params) statuses.add(404);
  if (takesBody) statuses.add(415);
  if (method !== "GET") statuses.add(413);
  if (spec.auth === "any" || spec.auth === "user" || spec.auth === "team") statuses.add(401);
  // A state change carrying the session cookie from another origin is refused before the route (same-origin.server).
  if (spec.auth === "user" || spec.auth === "team" || method !== "GET") statuses.add(403);
  if (spec.rateLimited) statuses.add(429);
  // An API key may be refused (a scope it lacks, a call no key makes) and runs out of calls a minute.
  if (spec.auth !== "none") statuses.add(403);
  if (spec.auth !== "none" && keyScope(spec, method)) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** The JSON error shape every /api failure answers with (errorBody in ~/utils/http.server). */
const errorSchema = z.object({
  success: z.literal(false),
  status: z.literal("error"),
  message: z.string(),
  error: z.string(),
  code: z.string().meta({ description: "Stable machine-readable code, e.g. INVALID_INPUT, RATE_LIMITED." }),
  requestId: z.string().optional(),
});
