import { eq } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";

import * as resendRoute from "~/routes/dashboard+/_staff+/emails.$emailId.resend";
import * as jobsPage from "~/routes/dashboard+/_staff+/jobs+/_layout";
import * as retryRoute from "~/routes/dashboard+/_staff+/jobs+/$jobId.retry";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { defineJob, JobEngine } from "~/utils/jobs.server";

import { call, createAccount } from "../support/dashboard-helpers";
import { uniqueEmail } from "../support/factories";
import { jobsOf, travelJobs } from "../support/jobs";
import { readOutbox } from "../support/outbox";

/*
 * The staff's view of the job engine (/dashboard/jobs: work by kind, failed jobs with their error,
 * Retry) and an e-mail's "Send again", as the pages call them: staff only, audited.
 */

const node = new JobEngine();
afterAll(() => node.stop());

let healthy = false;
defineJob({
  kind: "test-page-flaky",
  retryLimit: 0,
  retryDelaySeconds: 1,
  leaseSeconds: 60,
  run: async () => {
    if (!healthy) throw new Error("the receiver answered 503");
  },
});

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

describe("/dashboard/jobs", () => {
  test("staff see a failed job by kind with its error, retry it (audited), and it runs; a customer is refused", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const id = await node.enqueue("test-page-flaky");
    await node.runDue();
    expect((await jobsOf("test-page-flaky"))[0]!.state).toBe("failed");

    const page = await call(jobsPage.loader, "/dashboard/jobs", { auth: { cookie: staff.cookie } });
    expect(page.status).toBe(200);
    const data = (await page.json()) as {
      kinds: { kind: string; failed: number }[];
      failed: { id: string; kind: string; error: string | null }[];
    };
    expect(data.kinds.find((row) => row.kind === "test-page-flaky")).toMatchObject({ failed: 1 });
    expect(data.failed).toContainEqual(expect.objectContaining({ id, kind: "test-page-flaky", error: "the receiver answered 503" }));

    const refused = await call(jobsPage.loader, "/dashboard/jobs", { auth: { cookie: customer.cookie } });
    expect(refused.status).toBe(403);
    const refusedRetry = await call(retryRoute.action, `/dashboard/jobs/${id}/retry`, {
      auth: { cookie: customer.cookie },
      method: "POST",
      params: { jobId: id },
    });
    expect(refusedRetry.status).toBe(403);

    healthy = true;
    const retried = await call(retryRoute.action, `/dashboard/jobs/${id}/retry`, { auth: { cookie: staff.cookie }, method: "POST", params: { jobId: id } });
    expect(retried.status).toBe(302);
    expect(retried.headers.get("Location")).toBe("/dashboard/jobs");
    await travelJobs(5);
    await node.runDue();
    expect((await jobsOf("test-page-flaky"))[0]!.state).toBe("completed");
    const audit = await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.targetId, id));
    expect(audit.map((entry) => entry.action)).toEqual(["job.retry"]);

    // A job that is not (or no longer) failed: the page's 404.
    const again = await call(retryRoute.action, `/dashboard/jobs/${id}/retry`, { auth: { cookie: staff.cookie }, method: "POST", params: { jobId: id } });
    expect(again.status).toBe(404);
  });
});

describe("Send again", () => {
  test("staff send a stored e-mail again and return to the page it was listed on; an unknown id is a 404; a customer is refused", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const to = uniqueEmail("again");
    const { id } = await sendEmail({ to, subject: "Your receipt", heading: "Receipt", paragraphs: ["Thank you."] });
    expect(readOutbox(to)).toHaveLength(1);

    const resent = await call(resendRoute.action, `/dashboard/emails/${id}/resend`, {
      auth: { cookie: staff.cookie },
      method: "POST",
      params: { emailId: id },
      ...form({ back: `/dashboard/users/${customer.id}` }),
    });
    expect(resent.status).toBe(302);
    expect(resent.headers.get("Location")).toBe(`/dashboard/users/${customer.id}`);
    await node.runDue();
    expect(readOutbox(to).length).toBeGreaterThanOrEqual(2);
    const audit = await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.targetId, id));
    expect(audit.map((entry) => entry.action)).toEqual(["email.resend"]);

    // Another site's address as `back` is not followed.
    const elsewhere = await call(resendRoute.action, `/dashboard/emails/${id}/resend`, {
      auth: { cookie: staff.cookie },
      method: "POST",
      params: { emailId: id },
      ...form({ back: "https://evil.example/" }),
    });
    expect(elsewhere.headers.get("Location")).toBe("/dashboard");

    const unknown = crypto.randomUUID();
    expect(
      (
        await call(resendRoute.action, `/dashboard/emails/${unknown}/resend`, {
          auth: { cookie: staff.cookie },
          method: "POST",
          params: { emailId: unknown },
          ...form({}),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(resendRoute.action, `/dashboard/emails/${id}/resend`, {
          auth: { cookie: customer.cookie },
          method: "POST",
          params: { emailId: id },
          ...form({}),
        })
      ).status,
    ).toBe(403);
  });
});
