import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";

import { issuePasswordToken, passwordLink } from "~/models/password-tokens.server";
import * as resetPassword from "~/routes/_auth+/reset-password";
import * as customerReports from "~/routes/dashboard+/_customer+/reports";
import * as userReports from "~/routes/dashboard+/_staff+/users+/$userId._index";
import { env } from "~/utils/env.server";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { postUpload, samples, uploadForm } from "../support/reports-cases";

/** The no-JavaScript paths (decisions 080–084) on the server side: grouped report e-mails, both upload errors without JavaScript, the set-password page. */

let staff: Account;
let customer: Account;
let services: Awaited<ReturnType<typeof catalogue>>;
let purchaseId: string;

const reportMails = () => fs.readdirSync(env.outboxDir).filter((f) => f.includes("grace.grouped"));

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount("team");
  customer = await createAccount("user", { name: "Grace Grouped", email: "grace.grouped@states.test" });
  purchaseId = (await createPurchase(customer.user.id, services[0]!)).purchase.id;
});

describe("report-ready e-mails are grouped", () => {
  it("nine uploads in a row send one e-mail; after the customer has looked, the next upload sends another", async () => {
    for (let i = 1; i <= 9; i++) {
      const response = await postUpload(staff, services[0]!.id, {
        file: { name: `week-${i}.pdf`, bytes: samples.pdf(), type: "application/pdf" },
        title: `Week ${i}`,
        userId: customer.user.id,
      });
      expect(response.status).toBe(201);
    }
    expect(reportMails()).toHaveLength(1);

    // The customer opens their Reports tab: the quiet period is over.
    const seen = await call(customerReports.loader, "/dashboard/reports", { auth: { cookie: customer.cookie } });
    expect((await readJson<{ reports: unknown[] }>(seen)).reports).toHaveLength(9);
    const tenth = await postUpload(staff, services[0]!.id, {
      file: { name: "week-10.pdf", bytes: samples.pdf(), type: "application/pdf" },
      title: "Week 10",
      userId: customer.user.id,
    });
    expect(tenth.status).toBe(201);
    expect(reportMails()).toHaveLength(2);
  });
});

describe("the upload form without JavaScript", () => {
  it("an empty submit answers both the title's and the file's message", async () => {
    const form = uploadForm({ title: "", userId: customer.user.id, purchaseId });
    // A browser sends an empty file field when nothing was chosen.
    form.append("report", new Blob([]), "");
    const response = await call(userReports.action, `/dashboard/users/${customer.user.id}?index&upload=${purchaseId}`, {
      auth: { cookie: staff.cookie },
      method: "POST",
      body: form,
      params: { userId: customer.user.id },
    });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({
      uploadFields: { title: "Please enter a report title", file: "Please select a file to upload" },
    });
  });
});

describe("the set-password page", () => {
  it("says so for a new account's link, and stays 'Reset Password' for a reset link", async () => {
    const newcomer = await createAccount("user");
    const setToken = await issuePasswordToken(newcomer.user.id, "set");
    const setPage = await call(resetPassword.loader, new URL(passwordLink(setToken)).pathname + new URL(passwordLink(setToken)).search);
    expect(await readJson(setPage)).toEqual({ token: setToken, newAccount: true, invitedStaff: false, unusable: null });

    const resetToken = await issuePasswordToken(newcomer.user.id, "reset");
    const resetPage = await call(resetPassword.loader, `/reset-password?token=${resetToken}`);
    expect(await readJson(resetPage)).toEqual({ token: resetToken, newAccount: false, invitedStaff: false, unusable: null });
  });
});
