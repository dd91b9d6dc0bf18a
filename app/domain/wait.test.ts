import { describe, expect, it } from "vitest";

import { tooManyAttemptsMessage, waitPhrase } from "./wait";

describe("rate-limit messages say how long to wait", () => {
  it.each([
    [1, "in 1 second"],
    [45.2, "in 46 seconds"],
    [60, "in 1 minute"],
    [61, "in 2 minutes"],
    [600, "in 10 minutes"],
    [3599, "in about an hour"],
    [3600, "in about an hour"],
    [3 * 3600, "in about 3 hours"],
  ])("%s s → %s", (seconds, phrase) => {
    expect(waitPhrase(seconds)).toBe(phrase);
  });

  it("the forgot-password limit (an hour) is not 'a moment'", () => {
    expect(tooManyAttemptsMessage(3540)).toBe("Too many attempts. Please try again in about an hour.");
  });
});
