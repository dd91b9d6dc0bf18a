import crypto from "node:crypto";

import { passwordLinkIn } from "../fakes/email-links";
import { ACCOUNTS, axeAndPicture, expect, hydrated, latestEmail, signIn, test } from "./fixtures";

/*
 * Client teams (decision 295): an owner invites a colleague as approver on the Team page; the
 * invitation's link sets their password; signed in, the approver sees the work (Services, Calendar)
 * but not Receipts. With and without JavaScript.
 */

const withJs = (project: string) => project !== "no-js";

test("an owner invites an approver, who sets a password and sees the work but not the receipts @no-js", async ({ page, browser }, testInfo) => {
  const js = withJs(testInfo.project.name);
  const tag = `${testInfo.project.name}-${crypto.randomBytes(3).toString("hex")}`;
  const invitee = { name: `Avery Approver ${tag}`, email: `approver-${tag}@e2e.test`, password: `approver-password-${tag}` };

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "companyOwner");
  await page.goto("/dashboard/company");
  if (js) await hydrated(page);
  await expect(page.getByRole("heading", { level: 2, name: ACCOUNTS.companyOwner.name })).toBeVisible();

  const invite = page.getByRole("form", { name: "Invite a colleague" });
  await invite.getByLabel("Name").fill(invitee.name);
  await invite.getByLabel("E-mail").fill(invitee.email);
  await invite.getByRole("radio", { name: /^Approver/ }).check();
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${invitee.email} as approver.`)).toBeVisible();
  const row = page.getByTestId("client-member").filter({ hasText: invitee.email });
  await expect(row).toContainText("Approver");
  await expect(row).toContainText("Invited");
  await expect(invite.getByLabel("Name")).toHaveValue("");

  if (js) {
    await axeAndPicture(page, "company-1280");
    await page.screenshot({ path: "/tmp/company-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await axeAndPicture(page, "company-390");
    await page.screenshot({ path: "/tmp/company-390.png", fullPage: true });
    const html = await page.content();
    expect(Buffer.byteLength(html), "the Team page's HTML").toBeLessThanOrEqual(40 * 1024);
  }

  let link = "";
  await expect
    .poll(
      () => {
        const raw = latestEmail(invitee.email);
        return raw?.includes("/reset-password?token=") ? (link = passwordLinkIn(raw)) : "";
      },
      { message: `the invitation to ${invitee.email} in the outbox` },
    )
    .toContain("/reset-password?token=");

  // A browser of the approver's own, signed in as nobody.
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    javaScriptEnabled: js,
    viewport: { width: 1280, height: 900 },
    extraHTTPHeaders: { "X-Forwarded-For": "10.250.0.95" },
  });
  try {
    const approver = await context.newPage();
    const url = new URL(link);
    await approver.goto(url.pathname + url.search);
    await expect(approver.getByRole("heading", { name: "Set Your Password" })).toBeVisible();
    await approver.getByLabel("New Password").fill(invitee.password);
    await approver.getByLabel("Confirm Password").fill(invitee.password);
    await approver.getByRole("button", { name: "Set Password" }).click();
    // Choosing the password signs a new account in: the approver's dashboard starts with the work.
    await expect(approver).toHaveURL(/\/dashboard\/services$/, { timeout: 30_000 });
    const nav = approver.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("link", { name: "Services" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Calendar" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Receipts" })).toHaveCount(0);

    await approver.goto("/dashboard/company");
    const me = approver.getByTestId("client-member").filter({ hasText: invitee.email });
    await expect(me).toContainText("You");
    await expect(me).not.toContainText("Invited");
    await expect(approver.getByRole("form", { name: "Invite a colleague" })).toHaveCount(0);

    // Signed out, the approver signs in with the password they chose.
    await approver.context().clearCookies();
    await approver.goto("/login");
    await approver.getByLabel("Email").fill(invitee.email);
    await approver.getByLabel("Password", { exact: true }).fill(invitee.password);
    await approver.getByRole("button", { name: "Sign In" }).click();
    await expect(approver).toHaveURL(/\/dashboard\/services$/, { timeout: 30_000 });
  } finally {
    await context.close();
  }
});
