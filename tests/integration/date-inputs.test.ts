import { describe, expect, test } from "vitest";

import * as orders from "~/routes/api+/orders";
import * as posts from "~/routes/api+/posts+/_layout";
import * as purchase from "~/routes/api+/services+/purchases.$id";
import * as ordersCsv from "~/routes/dashboard+/_staff+/orders+/export[.]csv";
import * as work from "~/routes/dashboard+/_staff+/work";
import * as calendarPage from "~/routes/dashboard+/calendar";

import { call, catalogue, createAccount, createPurchase, readJson } from "../support/dashboard-helpers";

/*
 * Every date a client or a screen gives goes through one check (app/domain/dates.ts): a date out
 * of the years 1970–2999 or that does not exist is a 400 naming the field, never a 500 (decision 261).
 */

const OUT_OF_RANGE_DAYS = ["0000-01-01", "275760-09-13", "+275760-09-13", "1969-12-31", "3000-01-01", "2026-02-30"];
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

describe("dates out of range are a 400 naming the field", () => {
  test.each(OUT_OF_RANGE_DAYS)("GET /api/posts?from=%s and to=", async (day) => {
    const staff = await createAccount("team");
    for (const field of ["from", "to"]) {
      const response = await call(posts.loader, `/api/posts?${field}=${encodeURIComponent(day)}`, { auth: staff });
      expect(response.status).toBe(400);
      expect((await readJson<{ message: string; code: string }>(response)).message).toMatch(new RegExp(`^${field} must be an ISO 8601 date`));
    }
    const instant = await call(posts.loader, `/api/posts?from=${encodeURIComponent(`${day}T00:00:00Z`)}`, { auth: staff });
    expect(instant.status).toBe(400);
  });

  test("GET /api/posts still takes a day or an instant in range", async () => {
    const staff = await createAccount("team");
    expect((await call(posts.loader, "/api/posts?from=2026-01-01&to=2026-02-01T00:00:00%2B01:00", { auth: staff })).status).toBe(200);
  });

  test("POST /api/posts with a scheduledAt out of range", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    for (const scheduledAt of ["0000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "3000-01-01T00:00:00Z"]) {
      const response = await call(posts.action, "/api/posts", { auth: staff, method: "POST", ...json({ customerId: customer.id, channel: "x", scheduledAt }) });
      expect(response.status).toBe(400);
      expect((await readJson<{ message: string }>(response)).message).toMatch(/^scheduledAt must be an ISO 8601 date and time.*between 1970 and 2999/);
    }
  });

  test("GET /api/orders and the orders CSV with from or to out of range", async () => {
    const staff = await createAccount("team");
    for (const day of OUT_OF_RANGE_DAYS) {
      const list = await call(orders.loader, `/api/orders?from=${encodeURIComponent(day)}`, { auth: staff });
      expect(list.status).toBe(400);
      expect((await readJson<{ message: string }>(list)).message).toBe("From must be a date like 2026-11-23, between 1970 and 2999.");
      const csv = await call(ordersCsv.loader, `/dashboard/orders/export.csv?to=${encodeURIComponent(day)}`, { auth: { cookie: staff.cookie } });
      expect(csv.status).toBe(400);
      expect((await readJson<{ message: string }>(csv)).message).toBe("To must be a date like 2026-11-23, between 1970 and 2999.");
    }
  });

  test("PATCH /api/services/purchases/:id with a dueAt out of range; the work page's due date too", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const [service] = await catalogue();
    const { purchase: bought } = await createPurchase(customer.id, service!, { status: "in_progress" });
    const response = await call(purchase.action, `/api/services/purchases/${bought.id}`, {
      auth: staff,
      method: "PATCH",
      params: { id: bought.id },
      ...json({ dueAt: "0000-01-01T00:00:00Z" }),
    });
    expect(response.status).toBe(400);
    expect((await readJson<{ message: string }>(response)).message).toMatch(/^dueAt must be an ISO 8601 date and time/);
    const form = await call(work.action, "/dashboard/work", {
      auth: { cookie: staff.cookie },
      method: "POST",
      body: new URLSearchParams({ intent: "due", purchaseId: bought.id, dueOn: "0000-01-01" }),
    });
    expect(form.status).toBe(400);
  });

  test("the calendar page: a month or week out of range or malformed is a 400 naming it; none is the current month", async () => {
    const customer = await createAccount("user");
    for (const [query, field] of [
      ["month=0000-01", "month"],
      ["month=275760-09", "month"],
      ["month=2026-13", "month"],
      ["view=week&week=0000-01-03", "week"],
      ["view=week&week=275760-09-13", "week"],
    ] as const) {
      const response = await call(calendarPage.loader, `/dashboard/calendar?${query}`, { auth: { cookie: customer.cookie } });
      expect(response.status, query).toBe(400);
      expect(await response.text()).toMatch(new RegExp(`^${field} must be a`));
    }
    expect((await call(calendarPage.loader, "/dashboard/calendar", { auth: { cookie: customer.cookie } })).status).toBe(200);
    expect((await call(calendarPage.loader, "/dashboard/calendar?month=2026-05", { auth: { cookie: customer.cookie } })).status).toBe(200);
  });

  test("the calendar page's new draft with a date out of range is refused on its form", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const response = await call(calendarPage.action, "/dashboard/calendar", {
      auth: { cookie: staff.cookie },
      method: "POST",
      body: new URLSearchParams({ intent: "create", customerId: customer.id, channel: "x", date: "0000-01-01", time: "10:00" }),
    });
    expect(response.status).toBe(400);
  });
});
