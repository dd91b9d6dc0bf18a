import { describe, expect, test, vi } from "vitest";

import { handleError } from "~/entry.server";
import { logger } from "~/utils/logger.server";

import { BASE_URL, CONTEXT } from "../support/requests";

/* A request no route takes (405, 404) is the client's mistake: logged at info level, never as an error. */

const errorsOf = (message: string, method = "POST") => {
  const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
  const info = vi.spyOn(logger, "info").mockImplementation(() => undefined);
  const request = new Request(`${BASE_URL}/terms`, { method });
  try {
    handleError(new Error(message), { request, params: {}, context: CONTEXT });
    return { error: error.mock.calls.length, info: info.mock.calls.length };
  } finally {
    error.mockRestore();
    info.mockRestore();
  }
};

describe("the route error log", () => {
  test.each([
    'You made a POST request to "/terms" but did not provide an `action` for route "routes/terms", so there is no way to handle the request.',
    'You made a GET request to "/api/x" but did not provide a `loader` for route "routes/api+/x", so there is no way to handle the request.',
    'Invalid request method "PROPFIND"',
    'No route matches URL "/nowhere"',
  ])("%s is logged at info level", (message) => {
    expect(errorsOf(message)).toEqual({ error: 0, info: 1 });
  });

  test("a real failure is still an error", () => {
    expect(errorsOf("Cannot read properties of undefined (reading 'id')")).toEqual({ error: 1, info: 0 });
  });
});
