import { expect, test } from "vitest";

import * as disableRoute from "~/routes/api+/users+/$id.disable";
import * as enableRoute from "~/routes/api+/users+/$id.enable";

import { userAccessRoute } from "./user-access-routes.server";

test("disabling and enabling an account are one route in two settings: the same operation but for its summary and the 409", () => {
  const [disable] = disableRoute.action.api;
  const [enable] = enableRoute.action.api;
  expect(disableRoute.action.api).toEqual(userAccessRoute("disable").api);
  expect(enableRoute.action.api).toEqual(userAccessRoute("enable").api);
  const { summary: _disableSummary, errors: disableErrors, ...disableRest } = disable!;
  const { summary: _enableSummary, errors: enableErrors, ...enableRest } = enable!;
  expect(disableRest).toEqual(enableRest);
  expect(disableErrors).toBeUndefined();
  expect(enableErrors).toEqual([409]);
});
