import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, test } from "vitest";
import type { z } from "zod";

import { loader as openApiLoader } from "~/routes/api+/openapi[.]json";
import type { ApiSpec } from "~/web/api.server";
import { apiPathFromFile, routeOperations } from "~/web/openapi.server";

import { bearerFor, createTestUser } from "../support/factories";
import { invalidValues, sample, validate, type Root, type Schema } from "../support/json-schema";
import { loadContext } from "./authorization/helpers";

/*
 * Conformance to GET /api/openapi.json, from the document itself: every operation is called with
 * parameters and a body generated valid from its schemas, then with one invalid field at a time and
 * with a Content-Type it does not take. Every answer's status must be one the operation declares
 * and its body must match the schema declared for that status. Bodies valid by the document must
 * be valid for the server's own schema, and invalid ones refused by it.
 */

type Parameter = { name: string; in: "path" | "query"; required: boolean; schema: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Document = Root & { paths: Record<string, Record<string, Operation>> };
type Handler = (args: ActionFunctionArgs) => Promise<Response>;

const modules = import.meta.glob<Record<string, unknown>>(["/app/routes/api+/**/*.ts", "!/app/routes/api+/**/*.test.ts"], { eager: true });
const routes = new Map(
  Object.entries(modules)
    .map(([file, module]) => [apiPathFromFile(file), module] as const)
    .filter((entry): entry is [string, Record<string, unknown>] => entry[0] !== null),
);

let document: Document;
const tokens: Record<"team" | "user", string> = { team: "", user: "" };
let userIds: Record<"team" | "user", string>;

beforeAll(async () => {
  const response = await openApiLoader({ request: new Request("http://localhost/api/openapi.json"), params: {}, context: loadContext() });
  document = (await response.json()) as Document;
  const [team, user] = await Promise.all([createTestUser({ role: "team" }), createTestUser()]);
  userIds = { team: team.id, user: user.id };
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

function handlerFor(path: string, method: string): { handler: Handler; spec: ApiSpec } {
  const module = routes.get(path);
  if (!module) throw new Error(`no route module for ${path}`);
  const found = routeOperations(module).find((candidate) => candidate.method === method);
  if (!found) throw new Error(`${method} ${path} is not in its module`);
  const exportName = method === "GET" ? "loader" : "action";
  return { handler: module[exportName] as Handler, spec: found.spec };
}

type Call = { params?: Record<string, string>; query?: Record<string, string>; body?: string; contentType?: string };

async function call(path: string, method: string, { params = {}, query = {}, body, contentType }: Call) {
  const { handler, spec } = handlerFor(path, method);
  const actor = spec.auth === "team" ? "team" : spec.auth === "user" || spec.auth === "any" ? "user" : null;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (actor) headers.Authorization = `Bearer ${(tokens[actor] = await bearerFor(userIds[actor]))}`;
  if (contentType) headers["Content-Type"] = contentType;
  const url = new URL(`http://localhost${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const request = new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const response = await handler({ request, params, context: loadContext() });
  // A file (an export) is checked by its own tests; here only that its status is declared.
  if (!(response.headers.get("Content-Type") ?? "").includes("json"))
    return { status: response.status, body: await response.arrayBuffer().then(() => undefined) };
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The answer's status is declared and its body is what the document says for that status. */
function expectConforms(operation: Operation, label: string, answer: { status: number; body: unknown }) {
  const declared = operation.responses[String(answer.status)];
  expect(declared, `${label}: status ${answer.status} is not declared (${JSON.stringify(answer.body)})`).toBeDefined();
  const schema = declared!.content?.["application/json"]?.schema;
  if (schema) expect(validate(schema, answer.body, document), `${label}: body of ${answer.status}`).toEqual([]);
}

const parametersIn = (operation: Operation, where: "path" | "query") => (operation.parameters ?? []).filter((p) => p.in === where);
const validParams = (operation: Operation) => Object.fromEntries(parametersIn(operation, "path").map((p) => [p.name, String(sample(p.schema, document))]));
const validQuery = (operation: Operation) =>
  Object.fromEntries(
    parametersIn(operation, "query")
      .filter((p) => p.required)
      .map((p) => [p.name, String(sample(p.schema, document))]),
  );

/** One field of a body (nested objects included) made invalid, or left out when required. */
function bodyMutations(schema: Schema, valid: Record<string, unknown>, at: string[] = []): { why: string; body: Record<string, unknown> }[] {
  const out: { why: string; body: Record<string, unknown> }[] = [];
  const set = (path: string[], value: unknown, remove = false) => {
    const copy = structuredClone(valid);
    let target = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
    if (remove) delete target[path.at(-1)!];
    else target[path.at(-1)!] = value;
    return copy;
  };
  let node = valid as Record<string, unknown>;
  for (const key of at) node = node[key] as Record<string, unknown>;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...at, name];
    if ((schema.required ?? []).includes(name)) out.push({ why: `${path.join(".")} missing`, body: set(path, undefined, true) });
    for (const { why, value } of invalidValues(property, document)) out.push({ why: `${path.join(".")}: ${why}`, body: set(path, value) });
    if (property.properties && typeof node[name] === "object" && node[name] !== null) out.push(...bodyMutations(property, valid, path));
  }
  return out;
}

/** What a URL can carry that its schema refuses: text for a number, a string breaking a bound, format or enum. */
function parameterInvalidValues(schema: Schema) {
  const numeric = [schema.type].flat().some((type) => type === "number" || type === "integer");
  return invalidValues(schema, document).filter(({ value }) => (numeric ? value === "text" || typeof value === "number" : typeof value === "string"));
}

describe("every operation answers as GET /api/openapi.json says", () => {
  test("valid calls, invalid fields, parameters and media types", async () => {
    expect(operations().length).toBeGreaterThan(40);
    const failures: string[] = [];
    const check = (label: string, run: () => void) => {
      try {
        run();
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message.split("\n")[0]}`);
      }
    };

    for (const { path, method, operation } of operations()) {
      const label = `${method} ${path}`;
      const { spec } = handlerFor(path, method);
      const params = validParams(operation);
      const query = validQuery(operation);
      const jsonBody = operation.requestBody?.content["application/json"]?.schema;
      const otherType = Object.keys(operation.requestBody?.content ?? {}).find(
        (type) => type !== "application/json" && type !== "application/x-www-form-urlencoded",
      );

      // A valid call (a multipart upload or a signed webhook cannot be generated: their refusals are below).
      if (!otherType && !spec.rawBody) {
        const body = jsonBody ? sample(jsonBody, document) : undefined;
        const answer = await call(path, method, {
          params,
          query,
          ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: "application/json" }),
        });
        check(`${label} valid`, () => expectConforms(operation, `${label} valid`, answer));
      }

      // The document and the server's schema agree on what a valid body is, both ways.
      if (jsonBody && spec.body) {
        const valid = sample(jsonBody, document) as Record<string, unknown>;
        check(`${label} valid body`, () =>
          expect(spec.body!.safeParse(valid).error?.issues[0]?.message, `${label}: a body valid by the document`).toBeUndefined(),
        );
        for (const { why, body } of bodyMutations(jsonBody, valid)) {
          check(`${label} ${why}`, () =>
            expect((spec.body as z.ZodType).safeParse(body).success, `${label}: ${why} is accepted by the server's schema`).toBe(false),
          );
          const answer = await call(path, method, { params, query, body: JSON.stringify(body), contentType: "application/json" });
          check(`${label} ${why}`, () => {
            expect(answer.status, `${label}: ${why}`).toBe(400);
            expectConforms(operation, `${label}: ${why}`, answer);
          });
        }
      }

      // A Content-Type the operation does not take: 415.
      if (operation.requestBody) {
        const wrong = otherType ? "application/json" : "text/plain";
        const answer = await call(path, method, { params, query, body: "{}", contentType: wrong });
        check(`${label} as ${wrong}`, () => {
          expect(answer.status, `${label} as ${wrong}`).toBe(415);
          expectConforms(operation, `${label} as ${wrong}`, answer);
        });
      }

      // Parameters invalid by their schema: a declared refusal (400, or 404 for an id).
      for (const parameter of operation.parameters ?? []) {
        for (const { why, value } of parameterInvalidValues(parameter.schema)) {
          const call_ =
            parameter.in === "path"
              ? { params: { ...params, [parameter.name]: String(value) }, query }
              : { params, query: { ...query, [parameter.name]: String(value) } };
          const body = jsonBody ? { body: JSON.stringify(sample(jsonBody, document)), contentType: "application/json" } : {};
          const answer = await call(path, method, { ...call_, ...body });
          check(`${label} ${parameter.name}: ${why}`, () => {
            expect([400, 404], `${label} ${parameter.in} ${parameter.name}: ${why} answered ${answer.status}`).toContain(answer.status);
            expectConforms(operation, `${label} ${parameter.name}: ${why}`, answer);
          });
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
