import { z } from "zod";

import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { lasting } from "~/web/json-answer.server";
import { buildOpenApiDocument } from "~/web/openapi.server";

// Every route module under api+/ (its area folders too): a route appears in the document by declaring its schemas to apiRoute.
const routes = import.meta.glob<Record<string, unknown>>(["/app/routes/api+/**/*.ts", "!/app/routes/api+/openapi*", "!/app/routes/api+/**/*.test.ts"], {
  eager: true,
});

let document: Readonly<ReturnType<typeof buildOpenApiDocument>> | undefined;

export const loader = apiRoute(
  {
    method: "GET",
    auth: "none",
    summary: "This OpenAPI 3.1 document, generated from the routes' zod schemas.",
    response: z
      .object({ openapi: z.literal("3.1.0"), info: z.object({ title: z.string(), version: z.string() }).loose(), paths: z.record(z.string(), z.unknown()) })
      .loose(),
  },
  async () => {
    return openApiDocument();
  },
);

/** The same answer for the process's life: frozen, so its JSON text is made and checked once. */
function openApiDocument(): Readonly<ReturnType<typeof buildOpenApiDocument>> {
  document ??= lasting(buildOpenApiDocument({ ...routes, "/app/routes/api+/openapi[.]json.ts": { loader } }));
  return document;
}

export const action = methodNotAllowed;
