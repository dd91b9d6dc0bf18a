import { describe, expect, test } from "vitest";

import { countMatching, countOf, formatCents, formatFileSize, formatMoney } from "~/domain/format";

describe("formatFileSize", () => {
  test.each([
    [0, "0 Bytes"],
    [512, "512 Bytes"],
    [1023, "1023 Bytes"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [1_048_576, "1 MB"],
    [2_621_440, "2.5 MB"],
    [10 * 1024 * 1024, "10 MB"],
    [1_234_567, "1.18 MB"],
    [1024 ** 3, "1 GB"],
    [5 * 1024 ** 4, "5120 GB"],
  ])("%d bytes reads %s", (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  test("a missing or negative size reads as nothing", () => {
    expect(formatFileSize(-1)).toBe("0 Bytes");
    expect(formatFileSize(Number.NaN)).toBe("0 Bytes");
  });
});

describe("counts", () => {
  test("the noun and the verb agree with the number", () => {
    expect(countOf(1, "conversation")).toBe("1 conversation");
    expect(countOf(0, "conversation")).toBe("0 conversations");
    expect(countMatching(1, "conversation")).toBe("1 conversation matches");
    expect(countMatching(2, "conversation")).toBe("2 conversations match");
    expect(countMatching(3, "reply", "replies")).toBe("3 replies match");
  });
});

describe("formatMoney", () => {
  test.each([
    [28.99, "$28.99"],
    [38.99, "$38.99"],
    [50, "$50.00"],
    [0, "$0.00"],
    [1234.5, "$1,234.50"],
  ])("%d dollars reads %s", (dollars, expected) => {
    expect(formatMoney(dollars)).toBe(expected);
  });

  test("the currency code is case-insensitive", () => {
    expect(formatMoney(49, "USD")).toBe("$49.00");
  });

  test("US dollars read exactly as Intl's en-US currency format (formatted without Intl)", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const values = [
      0,
      -0,
      0.005,
      0.015,
      0.125,
      1.005,
      2.675,
      -0.001,
      -0.005,
      -1234.5,
      999.995,
      1000,
      999999.999,
      1e14 + 0.5,
      123456789.12,
      Number.NaN,
      Infinity,
      -Infinity,
      1e15,
      1e21,
    ];
    for (let i = 0; i < 2000; i++) values.push(Math.round((Math.random() - 0.3) * 10 ** (1 + (i % 9)) * 1000) / 1000);
    for (const value of values) expect([value, formatMoney(value)]).toEqual([value, intl.format(value)]);
  });

  test("other currencies still go through Intl", () => {
    expect(formatMoney(5, "eur")).toBe("€5.00");
  });
});

describe("formatCents", () => {
  test("screens hand it integer cents; it says what formatMoney says of the dollars", () => {
    expect(formatCents(2899)).toBe("$28.99");
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(-150)).toBe("-$1.50");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
    expect(formatCents(5, "eur")).toBe("€0.05");
    for (let cents = 0; cents < 2000; cents += 7) expect(formatCents(cents)).toBe(formatMoney(cents / 100));
  });
});
