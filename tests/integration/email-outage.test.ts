import { eq } from "drizzle-orm";
import { afterAll, describe, expect, test, vi } from "vitest";

import { createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import { requestPasswordReset, sendSetPasswordEmail } from "~/models/password-tokens.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { JobEngine, jobs } from "~/utils/jobs.server";

import { travelJobs } from "../support/jobs";
import { seedServices, uniqueEmail } from "../support/payments-helpers";
import { createTestUser } from "./authorization/helpers";

/*
 * SMTP refusing mail, then the node restarting, then SMTP back: every e-mail asked for arrives, once.
 * SMTP_URL is set before the app's modules load (the env is read once).
 */
const { smtp } = await vi.hoisted(async () => {
  const { startFakeSmtp } = await import("../fakes/smtp");
  const server = await startFakeSmtp();
  process.env.SMTP_URL = server.url;
  return { smtp: server };
});

const restarted = new JobEngine();
afterAll(async () => {
  await restarted.stop();
  await smtp.close();
});

const states = async () => (await db.select({ subject: schema.emails.subject, state: schema.emails.state }).from(schema.emails)).map((row) => row.state);

const ORDER_EMAILS = ["Your BrandLift order is confirmed", "Set your BrandLift password", expect.stringMatching(/^New order: Gail Guest/)];

describe("durable e-mail", () => {
  test("SMTP refusing, then a restart, then SMTP back: each e-mail arrives once", async () => {
    const user = await createTestUser({ password: "old password 1" });
    const buyer = await createTestUser();
    smtp.refusing = true;

    // The callers carry on: the e-mails are stored and their first attempt failed.
    await requestPasswordReset(user.email);
    await sendSetPasswordEmail(buyer);
    await sendEmail({ to: ["team@example.test"], subject: "New order", heading: "A new order has been paid", paragraphs: ["…"] });
    expect(smtp.messages).toEqual([]);
    expect(await states()).toEqual(["retrying", "retrying", "retrying"]);

    // The node stops; another process starts on the same database. Still refused an hour on.
    await jobs.stop();
    await travelJobs(3600);
    expect(await restarted.runDue()).toBe(3);
    expect(smtp.messages).toEqual([]);
    const attempts = await db.select({ attempts: schema.emails.attempts, error: schema.emails.lastError }).from(schema.emails);
    expect(attempts.map((row) => row.attempts)).toEqual([2, 2, 2]);
    expect(attempts[0]!.error).toMatch(/451/);

    // SMTP is back: the next attempt of each delivers it.
    smtp.refusing = false;
    await travelJobs(7200);
    expect(await restarted.runDue()).toBe(3);
    expect(await states()).toEqual(["sent", "sent", "sent"]);
    // Later rounds send nothing again.
    await travelJobs(86_400);
    expect(await restarted.runDue()).toBe(0);
    const received = smtp.messages.map((message) => `${message.envelopeTo.join(",")} ${message.subject}`).sort();
    expect(received).toEqual(
      [`${user.email} Reset your BrandLift password`, `${buyer.email} Set your BrandLift password`, "team@example.test New order"].sort(),
    );
  });

  test("a guest pays while SMTP refuses: the confirmation, the set-password link and the team's notice are stored with the order and arrive once", async () => {
    await jobs.stop();
    const team = await createTestUser({ role: "team" });
    const [service] = await seedServices();
    const email = uniqueEmail("outage");
    smtp.refusing = true;
    const started = await createServicesOrder({ name: "Gail Guest", email }, [service!.id]);
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
    expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");

    const stored = await db.select().from(schema.emails).where(eq(schema.emails.orderId, order!.id));
    expect(stored).toHaveLength(3);
    expect(stored.map((row) => row.subject)).toEqual(expect.arrayContaining(ORDER_EMAILS));
    expect(stored.every((row) => row.state === "retrying")).toBe(true);

    smtp.refusing = false;
    await travelJobs(7200);
    expect(await restarted.runDue()).toBe(3);
    await travelJobs(86_400);
    expect(await restarted.runDue()).toBe(0);
    const received = smtp.messages.filter((message) => message.envelopeTo.includes(email) || message.subject.startsWith("New order: Gail Guest"));
    expect(received).toHaveLength(3);
    expect(received.map((message) => message.subject)).toEqual(expect.arrayContaining(ORDER_EMAILS));
    expect(received.find((message) => message.subject.startsWith("New order"))!.envelopeTo).toContain(team.email);
  });
});
