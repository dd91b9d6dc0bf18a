import { describe, expect, test } from "vitest";

import { findPlan } from "~/models/catalogue.server";
import { inviteMember } from "~/models/clients.server";
import { getSessionUser } from "~/models/sessions.server";
import * as receiptsPage from "~/routes/dashboard+/_customer+/receipts";
import { db, schema } from "~/utils/db.server";

import { call, readJson } from "../support/dashboard-helpers";
import { catalogue, createAccount, sessionCookieFor, uniqueEmail } from "../support/factories";

/** /dashboard/receipts: a billing member reaches their client's plans from here, each by its name. */
describe("the receipts page", () => {
  test("a billing member sees the client's plans by the catalogue's name, not the plan's key", async () => {
    await catalogue();
    const owner = await createAccount({ role: "user", name: "Olga Owner" });
    await db.insert(schema.subscriptions).values({ userId: owner.id, planId: "starter", status: "active", priceCents: 4900 });
    const { member } = await inviteMember((await getSessionUser(owner.bearer, "bearer"))!, {
      email: uniqueEmail("books"),
      name: "Bea Books",
      role: "billing",
    });
    const page = await call(receiptsPage.loader, "/dashboard/receipts", { auth: { cookie: await sessionCookieFor(member.id) } });
    expect(page.status).toBe(200);
    const { plans } = await readJson<{ plans: { name: string; status: string }[] }>(page);
    const starter = await findPlan("starter");
    expect(starter?.name).toBeTruthy();
    expect(plans).toEqual([expect.objectContaining({ name: starter!.name, status: "active" })]);
    expect(starter!.name).not.toBe("starter");
  });
});
