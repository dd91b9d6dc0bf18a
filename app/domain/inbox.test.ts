import { describe, expect, test } from "vitest";

import { fillReplyPlaceholders } from "./inbox";

describe("saved reply placeholders", () => {
  test("{name}, {first_name} and {email} are filled with the customer's details, however spaced or cased", () => {
    const person = { name: "Charlie Chat", email: "charlie@example.test" };
    expect(fillReplyPlaceholders("Hi {name}! ({ First_Name } at {email})", person)).toBe("Hi Charlie Chat! (Charlie at charlie@example.test)");
  });

  test("a visitor who gave no name is greeted as 'there'; other braces stay as written", () => {
    expect(fillReplyPlaceholders("Hi {first_name}, see {docs}", { name: null, email: "v@example.test" })).toBe("Hi there, see {docs}");
  });
});
