import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { createUser } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";

import { decodeEmail, emailsTo, seedServices, uniqueEmail } from "../../tests/support/payments-helpers";
import { cancelCheckoutSession, createServicesOrder, findOrderBySession, fulfilCheckoutSession, orderLines, testCheckoutSession } from "./orders.server";

/* The fulfilment rules on the embedded database, through the built-in test checkout's sessions. */

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});

async function pendingOrder(email = uniqueEmail(), name = "Robin Rowe") {
  const started = await createServicesOrder({ name, email }, [services[0].id]);
  return (await findOrderBySession(started.sessionId))!;
}

describe("orderLines", () => {
  test("lists the services in the picker's order, whatever their names, as the order modal did", async () => {
    // Two services whose names sort the other way round from their place in the picker.
    const inPicker = [...services].sort((x, y) => x.sortOrder - y.sortOrder);
    const a = inPicker.find((x, i) => inPicker.slice(i + 1).some((y) => y.name.localeCompare(x.name) < 0))!;
    const b = inPicker.slice(inPicker.indexOf(a) + 1).find((y) => y.name.localeCompare(a.name) < 0)!;
    const started = await createServicesOrder({ name: "Line Order", email: uniqueEmail() }, [b.id, a.id]);
    const order = (await findOrderBySession(started.sessionId))!;
    expect((await orderLines(order)).map((line) => line.name)).toEqual([a.name, b.name]);
  });
});

describe("fulfilCheckoutSession", () => {
  test("three callers at the same moment: exactly one fulfils, one confirmation is sent", async () => {
    const order = await pendingOrder();
    const session = testCheckoutSession(order, true);
    const outcomes = await Promise.all([fulfilCheckoutSession(session), fulfilCheckoutSession(session), fulfilCheckoutSession(session)]);
    expect(outcomes.filter((o) => o === "fulfilled")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already-fulfilled")).toHaveLength(2);
    expect(emailsTo(order.email).filter((m) => m.includes("Your BrandLift order is confirmed"))).toHaveLength(1);
  });

  test("an existing account (any e-mail case) is reused, keeps its password and gets no set-password link", async () => {
    const email = uniqueEmail("returning");
    const existing = await createUser({ email, name: "Returning Customer", password: "correct-horse-battery" });
    const order = await pendingOrder(email.toUpperCase(), "Someone Else");
    expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("fulfilled");
    const [paid] = await db.select().from(schema.orders).where(eq(schema.orders.id, order.id));
    expect(paid.userId).toBe(existing.id);
    const [account] = await db.select().from(schema.users).where(eq(schema.users.id, existing.id));
    expect(account).toMatchObject({ name: "Returning Customer", passwordHash: existing.passwordHash, role: "user" });
    const mails = emailsTo(email.toUpperCase()).map(decodeEmail);
    expect(mails.some((m) => m.includes("/reset-password?token="))).toBe(false);
  });

  test("an unpaid session, a session of another order and a cancelled order are never fulfilled", async () => {
    const order = await pendingOrder();
    expect(await fulfilCheckoutSession(testCheckoutSession(order, false))).toBe("unpaid");
    expect(await fulfilCheckoutSession({ ...testCheckoutSession(order, true), id: "cs_test_someone_else" })).toBe("unknown-order");
    expect(await fulfilCheckoutSession({ ...testCheckoutSession(order, true), client_reference_id: "not-a-uuid" })).toBe("unknown-order");
    await cancelCheckoutSession(testCheckoutSession(order));
    expect(await fulfilCheckoutSession(testCheckoutSession(order, true))).toBe("already-fulfilled");
    const [row] = await db.select().from(schema.orders).where(eq(schema.orders.id, order.id));
    expect(row).toMatchObject({ status: "cancelled", userId: null });
  });
});
