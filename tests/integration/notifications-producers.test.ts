import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { listNotifications } from "~/models/notifications.server";
import { createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import * as serviceBrief from "~/routes/api+/services+/$id.brief";
import * as purchaseBrief from "~/routes/api+/services+/purchases.$id.brief";
import { db, schema } from "~/utils/db.server";

import { call } from "../support/dashboard-helpers";
import { bearerFor, catalogue, createAccount, type Account } from "../support/factories";
import { uniqueEmail } from "../support/requests";

/* Who is told what (docs/decisions/289): a paid order tells the team, a brief to answer tells the buyer, a submitted brief the team. */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

let staff: Account;
let services: Awaited<ReturnType<typeof catalogue>>;

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount({ role: "team", name: "Bell Staff" });
});

describe("notifications from orders and briefs", () => {
  test("a paid order with a brief: staff see the order, the buyer is asked for the brief, staff see it once submitted", async () => {
    const service = services[0]!;
    const questions = [{ key: "brand", label: "Brand name", kind: "text", required: true }];
    expect(
      (await call(serviceBrief.action, `/api/services/${service.id}/brief`, { auth: staff, method: "PUT", params: { id: service.id }, ...json({ questions }) }))
        .status,
    ).toBe(200);

    const email = uniqueEmail("bell");
    const started = await createServicesOrder({ name: "Bell Buyer", email }, [service.id]);
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
    expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");
    const [buyer] = await db.select().from(schema.users).where(eq(schema.users.email, email));

    const staffSees = await listNotifications(staff.id);
    expect(staffSees.find((item) => item.url === `/dashboard/orders/${order!.id}`)).toMatchObject({ kind: "order", title: "New order from Bell Buyer" });
    expect((await listNotifications(buyer!.id)).map((item) => item.kind)).toEqual(["brief_needed"]);

    const [purchase] = await db
      .select()
      .from(schema.purchases)
      .where(and(eq(schema.purchases.orderId, order!.id), eq(schema.purchases.serviceId, service.id)));
    const auth = { ...buyer!, user: buyer!, bearer: await bearerFor(buyer!.id) } as unknown as Account;
    const answer = () =>
      call(purchaseBrief.action, `/api/services/purchases/${purchase!.id}/brief`, {
        auth,
        method: "PUT",
        params: { id: purchase!.id },
        ...json({ answers: { brand: "Bell & Co" } }),
      });
    expect((await answer()).status).toBe(200);
    // A correction later tells no one again.
    expect((await answer()).status).toBe(200);
    const submitted = (await listNotifications(staff.id)).filter(
      (item) => item.title === `Brief submitted: ${service.name}` && item.url === `/dashboard/users/${buyer!.id}`,
    );
    expect(submitted).toHaveLength(1);
  });
});
