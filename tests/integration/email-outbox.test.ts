import fs from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { jobs } from "~/utils/jobs.server";

import { jobsOf, travelJobs } from "../support/jobs";
import { readOutbox } from "../support/outbox";

/* Without SMTP_URL the outbox's .eml files are written by the same stored-row-and-job path. */
describe("the outbox through the queue", () => {
  test("an e-mail is a row and a job; a failed write is retried and the file written once", async () => {
    const { id } = await sendEmail({ to: "outbox@example.test", subject: "Hello", heading: "Hello", paragraphs: ["First."] });
    expect(readOutbox("outbox@example.test").map((email) => email.subject)).toEqual(["Hello"]);
    const [row] = await db.select().from(schema.emails).where(eq(schema.emails.id, id));
    expect(row).toMatchObject({ state: "sent", attempts: 1, recipient: "outbox@example.test" });
    expect((await jobsOf("email")).map((job) => job.state)).toEqual(["completed"]);

    // The outbox cannot be written (a file stands where its folder goes): the e-mail waits.
    fs.rmSync(env.outboxDir, { recursive: true });
    fs.writeFileSync(env.outboxDir, "");
    const second = await sendEmail({ to: "outbox@example.test", subject: "Again", heading: "Again", paragraphs: ["Second."] });
    expect((await db.select().from(schema.emails).where(eq(schema.emails.id, second.id)))[0]).toMatchObject({ state: "retrying", attempts: 1 });

    fs.rmSync(env.outboxDir);
    await travelJobs(120);
    expect(await jobs.runDue()).toBe(1);
    expect(readOutbox("outbox@example.test").map((email) => email.subject)).toEqual(["Again"]);
    expect((await db.select().from(schema.emails).where(eq(schema.emails.id, second.id)))[0]).toMatchObject({ state: "sent", attempts: 2 });
  });
});
