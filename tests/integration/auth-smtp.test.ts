import { afterAll, describe, expect, test, vi } from "vitest";

import { sendSetPasswordEmail } from "~/models/password-tokens.server";
import { verifyLogin } from "~/models/users.server";
import { action as forgotAction } from "~/routes/_auth+/forgot-password";
import { action as resetAction } from "~/routes/_auth+/reset-password";
import { env } from "~/utils/env.server";

import { passwordLinkIn } from "../fakes/email-links";
import { outboxFiles } from "../support/outbox";
import { formRequest } from "../support/requests";
import { createTestUser, loadContext } from "./authorization/helpers";

/*
 * With SMTP_URL set, account e-mails go over SMTP: nodemailer's real SMTP transport talks to a
 * real local SMTP server (smtp-server). env is read when app modules load, so SMTP_URL is set
 * here, before any import below is evaluated.
 */
const { smtp } = await vi.hoisted(async () => {
  const { startFakeSmtp } = await import("../fakes/smtp");
  const server = await startFakeSmtp();
  process.env.SMTP_URL = server.url;
  return { smtp: server };
});

afterAll(() => smtp.close());

const post = (handler: typeof forgotAction | typeof resetAction, path: string, fields: Record<string, string>) =>
  handler({ request: formRequest(path, fields), params: {}, context: loadContext() });

describe("account e-mail over SMTP", () => {
  test("forgot → reset e-mail over SMTP → reset → 'password changed' e-mail over SMTP", async () => {
    expect(env.smtpUrl).toBe(smtp.url);
    const user = await createTestUser({ password: "old password 1", name: "Sam Mailer" });
    await post(forgotAction, "/forgot-password", { email: user.email });

    const reset = await smtp.waitFor(user.email, (m) => m.subject === "Reset your BrandLift password");
    expect(reset.text).toContain("Hi Sam Mailer,");
    expect(reset.raw).toMatch(/^Content-Type: text\/html/im);
    const link = passwordLinkIn(reset.raw);
    expect(link.startsWith(`${env.appUrl}/reset-password?token=`)).toBe(true);

    const token = new URL(link).searchParams.get("token")!;
    const response = (await post(resetAction, "/reset-password", { token, password: "new password 1", confirmPassword: "new password 1" })) as Response;
    expect(response.status).toBe(302);
    expect((await verifyLogin(user.email, "new password 1"))?.id).toBe(user.id);

    await smtp.waitFor(user.email, (m) => m.subject === "Your BrandLift password was changed");
    expect(outboxFiles(user.email)).toEqual([]);
  });

  test("a new account's set-password e-mail goes over SMTP too", async () => {
    const user = await createTestUser();
    const link = await sendSetPasswordEmail(user);
    const email = await smtp.waitFor(user.email, (m) => m.subject === "Set your BrandLift password");
    expect(passwordLinkIn(email.raw)).toBe(link);
  });
});
