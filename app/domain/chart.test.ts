import { describe, expect, test } from "vitest";

import { compactDollars, roundTicks } from "./chart";

describe("roundTicks", () => {
  test("no data: 0 to 4 in ones, never fractions", () => {
    expect(roundTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(roundTicks(1)).toEqual([0, 1, 2, 3, 4]);
    expect(roundTicks(2.5)).toEqual([0, 1, 2, 3, 4]);
  });

  test("round steps up to the first tick at or above the data", () => {
    expect(roundTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(roundTicks(1280)).toEqual([0, 500, 1000, 1500]);
    expect(roundTicks(10_000)).toEqual([0, 5000, 10_000]);
    expect(roundTicks(42_317)).toEqual([0, 20_000, 40_000, 60_000]);
  });

  test("every tick is a distinct whole number, and its label too", () => {
    for (const max of [0, 0.4, 3, 9, 11, 99, 101, 999, 1001, 1049, 12_345, 987_654, 2_500_000]) {
      const ticks = roundTicks(max);
      expect(ticks.every(Number.isInteger), String(max)).toBe(true);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(new Set(ticks.map(compactDollars)).size, `labels of ${max}: ${ticks.map(compactDollars).join(" ")}`).toBe(ticks.length);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

test("compactDollars", () => {
  expect(compactDollars(0)).toBe("$0");
  expect(compactDollars(500)).toBe("$500");
  expect(compactDollars(1500)).toBe("$1.5k");
  expect(compactDollars(1250)).toBe("$1.25k");
  expect(compactDollars(2_500_000)).toBe("$2.5M");
});
