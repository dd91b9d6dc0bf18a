import { describe, expect, test } from "vitest";

import {
  formatPostTime,
  monthGrid,
  packCustomers,
  periodDays,
  periodMonth,
  periodView,
  resolveTimeZone,
  staffMoveRefusal,
  unpackCustomers,
  zonedToUtc,
} from "./calendar";

describe("post times in the viewer's zone", () => {
  test("written with the zone named", () => {
    expect(formatPostTime("2024-12-03T13:00:00Z", "Europe/Paris")).toBe("Tue 3 Dec, 14:00 CET");
    expect(formatPostTime("2024-07-03T13:00:00Z", "Europe/Paris")).toBe("Wed 3 Jul, 15:00 CEST");
    expect(formatPostTime("2024-12-03T13:00:00Z", "UTC")).toBe("Tue 3 Dec, 13:00 UTC");
  });

  test("a wall-clock time in a zone is the right UTC instant, across daylight saving", () => {
    expect(zonedToUtc("2024-12-03", "14:00", "Europe/Paris")?.toISOString()).toBe("2024-12-03T13:00:00.000Z");
    expect(zonedToUtc("2024-07-03", "14:00", "Europe/Paris")?.toISOString()).toBe("2024-07-03T12:00:00.000Z");
    expect(zonedToUtc("2024-03-10", "09:00", "America/New_York")?.toISOString()).toBe("2024-03-10T13:00:00.000Z");
    expect(zonedToUtc("2024-02-30", "09:00", "UTC")).toBeNull();
    expect(zonedToUtc("2024-02-03", "25:00", "UTC")).toBeNull();
  });

  test("an unknown or hostile zone is UTC", () => {
    expect(resolveTimeZone("Europe/Paris")).toBe("Europe/Paris");
    for (const zone of ["Mars/Olympus", "", null, "a\u0000b", "x".repeat(100)]) expect(resolveTimeZone(zone)).toBe("UTC");
  });

  test("a month view is whole weeks from Monday", () => {
    const days = monthGrid("2026-12");
    expect(days[0]).toBe("2026-11-30");
    expect(days.at(-1)).toBe("2027-01-03");
    expect(days.length % 7).toBe(0);
  });

  test("a period gives the screen its title, days and neighbours", () => {
    expect(periodView({ view: "month", month: "2026-12" })).toEqual({
      view: "month",
      title: "December 2026",
      days: monthGrid("2026-12"),
      month: "2026-12",
      previous: "month=2026-11",
      next: "month=2027-01",
    });
    const week = periodView({ view: "week", week: "2026-12-28" });
    expect(week).toMatchObject({ title: "Week of Mon 28 Dec", month: "2026-12", previous: "view=week&week=2026-12-21", next: "view=week&week=2027-01-04" });
    expect(week.days).toEqual(["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03"]);
  });

  test("a period's days and month, without the rest of its view (the loader's window and quota)", () => {
    expect(periodDays({ view: "month", month: "2026-12" })).toEqual(monthGrid("2026-12"));
    expect(periodDays({ view: "week", week: "2026-12-28" })).toEqual(periodView({ view: "week", week: "2026-12-28" }).days);
    expect(periodMonth({ view: "month", month: "2026-12" })).toBe("2026-12");
    // A week across two months belongs to its Monday's.
    expect(periodMonth({ view: "week", week: "2026-11-30" })).toBe("2026-11");
  });
});

test("staff status moves", () => {
  expect(staffMoveRefusal("draft", "in_review")).toBeNull();
  expect(staffMoveRefusal("approved", "published")).toBeNull();
  expect(staffMoveRefusal("in_review", "published")).toBe("Only an approved post can be marked published.");
  expect(staffMoveRefusal("published", "draft")).toBe("A published post can no longer be changed.");
});

describe("the staff calendar's customers on the wire (decision 325)", () => {
  const planned = { id: "0b6c4a52-1d0e-4b8a-9f57-3c2d8e1a7b90", name: "Ana + Bo Bakery", livePlan: true };
  const newcomer = { id: "e2f0a9d4-6c3b-4e71-8a25-b9d04c6f1e38", name: "Nova  Newcomer", livePlan: false };

  test("a line each, in order, the live plan marked: read back the same", () => {
    const packed = packCustomers([planned, newcomer]);
    expect(packed).toBe(`+${planned.id} Ana + Bo Bakery\n${newcomer.id} Nova  Newcomer`);
    expect(unpackCustomers(packed)).toEqual([planned, newcomer]);
  });

  test("none is an empty string; a line break in a name reads back as a space", () => {
    expect(packCustomers([])).toBe("");
    expect(unpackCustomers("")).toEqual([]);
    expect(unpackCustomers(packCustomers([{ ...newcomer, name: "Two\r\nLines" }]))).toEqual([{ ...newcomer, name: "Two Lines" }]);
  });
});
