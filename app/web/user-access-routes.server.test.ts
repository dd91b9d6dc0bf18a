import { expect, test } from "vitest";
import { z } from "zod";

import * as disableRoute from "~/routes/api+/users+/$id.disable";
import * as enableRoute from "~/routes/api+/users+/$id.enable";

import { userAccessRoute } from "./user-access-routes.server";

/**
 * A route's declared spec as data: its schemas as JSON Schema. Deep equality of zod objects would
 * also compare what zod caches inside a schema once it has parsed (another test file of the same
 * worker may have sent these routes a request).
 */
function declared(route: { api: readonly Record<string, unknown>[] }) {
  return route.api.map((spec) =>
    Object.fromEntries(
      Object.entries(spec).map(([key, value]) => [key, value instanceof z.ZodType ? z.toJSONSchema(value, { unrepresentable: "any" }) : value]),
    ),
  );
}

test("disabling and enabling an account are one route in two settings: the same operation but for its summary and the 409", () => {
  expect(declared(disableRoute.action)).toEqual(declared(userAccessRoute("disable")));
  expect(declared(enableRoute.action)).toEqual(declared(userAccessRoute("enable")));
  const [{ summary: disableSummary, errors: disableErrors, ...disable }] = declared(disableRoute.action) as [Record<string, unknown>];
  const [{ summary: enableSummary, errors: enableErrors, ...enable }] = declared(enableRoute.action) as [Record<string, unknown>];
  expect(disable).toEqual(enable);
  expect(disableSummary).not.toEqual(enableSummary);
  expect(disableErrors).toBeUndefined();
  expect(enableErrors).toEqual([409]);
});
