import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

import { loader } from "~/routes/api+/openapi[.]json";
import { methodNotAllowed } from "~/utils/http.server";
import { apiPathFromFile, routeOperations } from "~/web/openapi.server";

/*
 * Every route file under app/routes/api+/ (its area folders too) is in GET /api/openapi.json with its request and response
 * schemas. The files are listed from the disk, so a new route fails here until it is built with
 * apiRoute and declares `response` (and `method` on an action): see docs/api.md.
 */

const routesDir = path.resolve(import.meta.dirname, "../../app/routes");
const routeFiles = readdirSync(path.join(routesDir, "api+"), { recursive: true, encoding: "utf8" })
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .map((file) => `api+/${file.split(path.sep).join("/")}`)
  .sort();
/** The splat route answers the JSON 404 for paths no route claims; it has no path of its own. */
const NOT_DOCUMENTED = new Set(["api+/$.ts"]);

async function fetchDocument() {
  const response = await loader({
    request: new Request("http://localhost/api/openapi.json"),
    params: {},
    context: { requestId: "openapi-test", cspNonce: "", clientIp: "127.0.0.1" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
      >
    >;
    components: { schemas: Record<string, unknown> };
  };
}

describe("GET /api/openapi.json", () => {
  test("is an OpenAPI 3.1 document anyone may read", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: expect.arrayContaining(["success", "message", "code"]) });
    expect(document.paths["/api/openapi.json"]?.get).toBeDefined();
  });

  test.each(routeFiles.filter((file) => !NOT_DOCUMENTED.has(file)))("%s is documented with its request and response schemas", async (file) => {
    const module = (await import(path.join(routesDir, file))) as Record<string, unknown>;
    const apiPath = apiPathFromFile(file);
    expect(apiPath, "a documented route has a path of its own").toBeTruthy();

    for (const exportName of ["loader", "action"]) {
      const handler = module[exportName];
      if (handler === undefined || handler === methodNotAllowed) continue;
      expect((handler as { api?: unknown }).api, `${file}: export ${exportName} must be built with apiRoute (app/web/api.server.ts)`).toBeInstanceOf(Array);
      if (exportName === "action") {
        for (const spec of (handler as { api: { method?: string }[] }).api) {
          expect(spec.method, `${file}: an action declares its method to apiRoute`).toMatch(/^(POST|PUT|PATCH|DELETE)$/);
        }
      }
    }

    const operations = routeOperations(module);
    expect(operations.length, `${file}: at least one method`).toBeGreaterThan(0);
    const document = await fetchDocument();
    for (const { method, spec } of operations) {
      const operation = document.paths[apiPath!]?.[method.toLowerCase()];
      expect(operation, `${method} ${apiPath} is in the document`).toBeDefined();
      expect(spec.response, `${method} ${apiPath} declares its response schema`).toBeDefined();
      const success = operation!.responses[String(spec.status ?? 200)];
      expect(success?.content?.[spec.produces ?? "application/json"]?.schema, `${method} ${apiPath} has a response schema`).toBeDefined();
      expect(operation!.responses["500"], "the error shape is documented").toBeDefined();
      if (spec.body || spec.rawBody) expect(operation!.requestBody, `${method} ${apiPath} has a request body`).toBeDefined();
      const documented = (where: string) => (operation!.parameters ?? []).filter((parameter) => parameter.in === where).map((parameter) => parameter.name);
      for (const name of apiPath!.match(/\{(\w+)\}/g) ?? []) expect(documented("path")).toContain(name.slice(1, -1));
      if (spec.query) expect(documented("query").length, `${method} ${apiPath} documents its query`).toBeGreaterThan(0);
    }
  });
});
