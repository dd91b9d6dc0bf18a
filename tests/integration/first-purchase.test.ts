import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import * as resetRoute from "~/routes/_auth+/reset-password";
import * as landing from "~/routes/_index";
import * as checkoutRoute from "~/routes/checkout.[test].$sessionId";
import * as overview from "~/routes/dashboard+/_customer+/services._index";
import * as dashboard from "~/routes/dashboard+/_index";
import * as receiptRoute from "~/routes/receipts.$kind.$id";
import { db, schema } from "~/utils/db.server";
import { getOptionalUser } from "~/web/auth.server";
import { getToast } from "~/web/toast.server";

import { parseEmail, passwordLinkIn } from "../fakes/email-links";
import { settle } from "../support/call-route";
import { driverCallsDuring } from "../support/driver-calls";
import { readOutbox } from "../support/outbox";
import { CONTEXT, formRequest, freshContext, seedServices, uniqueEmail } from "../support/payments-helpers";

/* A first purchase on the test checkout, then the buyer's first sign-in from the e-mails (decision 145). */

let services: Awaited<ReturnType<typeof seedServices>>;
beforeAll(async () => {
  services = await seedServices();
});

const cookiesFrom = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

async function buy(email: string) {
  const ordered = (
    await settle(() =>
      landing.action({
        request: formRequest("/?index", { intent: "order", name: "Robin First", email, services: services[5].id }),
        params: {},
        context: freshContext(),
      }),
    )
  ).response;
  const location = ordered.headers.get("Location")!;
  const sessionId = location.split("/checkout/test/")[1];
  const fields = { intent: "pay", cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123", cardholder: "Robin First" };
  await settle(() => checkoutRoute.action({ request: formRequest(`/checkout/test/${sessionId}`, fields), params: { sessionId }, context: CONTEXT }));
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.stripeSessionId, sessionId));
  return order;
}

describe("first purchase → first sign-in", () => {
  test("the confirmation e-mail's receipt link opens for the buyer, who has no password yet; a wrong key is a 404", async () => {
    const email = uniqueEmail("first");
    const order = await buy(email);
    const confirmation = readOutbox(email).find((e) => e.subject === "Your BrandLift order is confirmed")!;
    const link = parseEmail(confirmation.raw).links.find((l) => l.includes("/receipts/order/"))!;
    expect(link).toContain(`/receipts/order/${order.id}?key=`);

    const opened = await settle(() => receiptRoute.loader({ request: new Request(link), params: { kind: "order", id: order.id }, context: CONTEXT }));
    expect(opened.status).toBe(200);
    expect((opened as { data: { receipt: { totalCents: number; customer: { email: string } } } }).data.receipt).toMatchObject({
      totalCents: order.totalCents,
      customer: { email },
    });
    const forged = `${link.slice(0, -4)}AAAA`;
    const refused = await settle(() => receiptRoute.loader({ request: new Request(forged), params: { kind: "order", id: order.id }, context: CONTEXT }));
    expect(refused.status).toBe(404);
    // The key is for this receipt only.
    const other = await buy(uniqueEmail("other"));
    const borrowed = link.replace(order.id, other.id);
    const stolen = await settle(() => receiptRoute.loader({ request: new Request(borrowed), params: { kind: "order", id: other.id }, context: CONTEXT }));
    expect(stolen.status).toBe(404);
  });

  test("setting the password signs the buyer in with 'Welcome', sends no alarm, and the first dashboard visit says Welcome", async () => {
    const email = uniqueEmail("first");
    await buy(email);
    const setPassword = readOutbox(email).find((e) => e.subject === "Set your BrandLift password")!;
    expect(setPassword.text).toContain("expires in 7 days");
    const token = new URL(passwordLinkIn(setPassword.raw)).searchParams.get("token")!;

    const done = (
      await settle(() =>
        resetRoute.action({
          request: formRequest("/reset-password", { token, password: "my first password", confirmPassword: "my first password" }),
          params: {},
          context: CONTEXT,
        }),
      )
    ).response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    const cookie = cookiesFrom(done.headers);
    const toast = (await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
    expect(toast).toMatchObject({ type: "success", message: expect.stringMatching(/^Welcome/) });
    expect(toast?.message).not.toContain("reset");
    expect((await getOptionalUser(new Request("http://localhost/", { headers: { Cookie: cookie } })))?.email).toBe(email);
    expect(readOutbox(email).map((e) => e.subject)).not.toContain("Your BrandLift password was changed");

    const request = (path: string) => ({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: CONTEXT });
    const visit = () => settle(() => overview.loader(request("/dashboard/services")));
    // The password lands on /dashboard, which sends a customer on to their overview, where the welcome is.
    expect((await settle(() => dashboard.loader(request("/dashboard")))).location).toBe("/dashboard/services");
    const welcomes = async () => {
      const { result, calls } = await driverCallsDuring(visit);
      return { firstVisit: result.data.firstVisit, writes: calls.filter((call) => /^update "users"/.test(call.text)).length };
    };
    expect(await welcomes()).toEqual({ firstVisit: true, writes: 1 });
    // The identity the page already read says the account was welcomed: no update of its row.
    expect(await welcomes()).toEqual({ firstVisit: false, writes: 0 });
  });
});
