import { describe, expect, it } from "vitest";

import { isUniqueViolation, likePattern } from "./sql.server";

describe("likePattern", () => {
  it("matches the literal text, wildcards escaped", () => {
    expect(likePattern("a_b%c\\")).toBe("%a\\_b\\%c\\\\%");
  });
});

describe("isUniqueViolation", () => {
  const pg = { code: "23505", constraint_name: "users_email_unique", message: "duplicate key value violates unique constraint" };
  it("finds 23505 through a driver's wrapping, by constraint name or any", () => {
    const wrapped = new Error("Failed query", { cause: pg });
    expect(isUniqueViolation(wrapped)).toBe(true);
    expect(isUniqueViolation(wrapped, "users_email_unique")).toBe(true);
    expect(isUniqueViolation(wrapped, "services_slug_unique")).toBe(false);
  });
  it("is false for other errors", () => {
    expect(isUniqueViolation(new Error("boom", { cause: { code: "23503" } }))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
