import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { confirmTwoFactorSetup, startTwoFactorSetup } from "~/models/two-factor.server";
import { action as magicPageAction, loader as magicPageLoader } from "~/routes/_auth+/login_.magic";
import { action as magicApiAction } from "~/routes/api+/auth+/magic-link";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";

import { callRoute } from "../support/call-route";
import { createAccount, uniqueEmail } from "../support/factories";
import { readOutbox, waitForOutboxEmail } from "../support/outbox";
import { formRequest, jsonRequest } from "../support/requests";
import { loadContext, nextIp } from "./authorization/helpers";

const ask = (email: string, ip = nextIp()) => magicApiAction({ request: jsonRequest("/api/auth/magic-link", { email }), params: {}, context: loadContext(ip) });
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const linkFor = async (email: string) => {
  await settleBackgroundTasks();
  const mail = await waitForOutboxEmail(email, (m) => m.subject === "Your BrandLift sign-in link");
  return mail.links.find((l) => l.includes("/login/magic?token="))!;
};

describe("magic-link sign-in", () => {
  test("the same answer whether or not the account exists; only a real account gets the e-mail", async () => {
    const account = await createAccount({ password: "magic link password" });
    const nobody = uniqueEmail("nobody");
    const [a, b] = [await ask(account.email), await ask(nobody)];
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    expect(await linkFor(account.email)).toMatch(/^http:\/\/localhost:\d+\/login\/magic\?token=[\w-]{43}$/);
    await settleBackgroundTasks();
    expect(readOutbox(nobody)).toEqual([]);
  });

  test("the link signs in once, within 15 minutes; opening it spends nothing", async () => {
    const account = await createAccount();
    await ask(account.email);
    const token = tokenOf(await linkFor(account.email));
    const page = await callRoute(magicPageLoader, `/login/magic?token=${token}`);
    expect(page.data).toEqual({ token });
    const used = await callRoute(magicPageAction, formRequest("/login/magic", { token }));
    expect(used.status).toBe(302);
    expect(used.location).toBe("/dashboard");
    expect(used.headers.get("Set-Cookie")).toContain("__session=");
    const again = await callRoute(magicPageAction, formRequest("/login/magic", { token }));
    expect(again.status).toBe(400);
    expect(again.data.error).toMatch(/not valid any more/);

    await ask(account.email);
    const late = tokenOf(await linkFor(account.email));
    const [row] = await db
      .select()
      .from(schema.magicLinks)
      .where(eq(schema.magicLinks.userId, account.id))
      .orderBy(schema.magicLinks.createdAt)
      .limit(1)
      .offset(1);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(15 * 60 * 1000);
    await db
      .update(schema.magicLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.magicLinks.userId, account.id));
    expect((await callRoute(magicPageAction, formRequest("/login/magic", { token: late }))).status).toBe(400);
  });

  test("with two-factor on, the link still asks for the code", async () => {
    const account = await createAccount();
    const { secret } = await startTwoFactorSetup(account.user);
    const { generateTOTP } = await import("@epic-web/totp");
    await confirmTwoFactorSetup(account.id, (await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" })).otp);
    await ask(account.email);
    const token = tokenOf(await linkFor(account.email));
    const used = await callRoute(magicPageAction, formRequest("/login/magic", { token }));
    expect(used.status).toBe(200);
    expect(used.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    expect(used.data.secondFactor.challenge).toEqual(expect.any(String));
  });

  test("limited like forgot-password: 5 an hour per e-mail", async () => {
    const email = uniqueEmail("limited");
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask(email)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
