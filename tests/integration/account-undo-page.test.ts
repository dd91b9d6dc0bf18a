import { expect, test } from "vitest";

import * as entry from "~/entry.server";
import * as root from "~/root";
import * as confirmPage from "~/routes/account.confirm-email";
import * as undoEmailPage from "~/routes/account.undo-email";
import * as accountApi from "~/routes/api+/account+/_layout";
import { settleBackgroundTasks } from "~/utils/background.server";
import { env } from "~/utils/env.server";
import { forgeryRefusal } from "~/web/same-origin.server";

import { decodeEmail, emailsTo, freshContext } from "../support/payments-helpers";
import { handlerFor } from "../support/remix-build";
import { bearerFor, createTestUser, sessionCookieFor, uniqueEmail } from "./authorization/helpers";

/*
 * The undo-email page without JavaScript: a browser's document GET, then the form's document POST
 * (no `.data`), through the forgery check as server.ts mounts it and Remix's request handler with
 * the real root and page modules. The browser's Origin on that POST follows the page's
 * Referrer-Policy (Fetch: a "no-referrer" page posts `Origin: null`), so it is derived, not assumed.
 */

const PASSWORD = "correct-horse-battery";
const APP = new URL(env.appUrl).origin;

const handler = handlerFor(entry, [
  { id: "root", path: "", module: root },
  { id: "routes/account.undo-email", parentId: "root", path: "account/undo-email", module: undoEmailPage },
]);

/** What the server answers a browser's request: the forgery check first, then Remix (with the Host the Express adapter passes). */
async function serve(request: Request) {
  request.headers.set("Host", new URL(request.url).host);
  const url = new URL(request.url);
  const refusal = forgeryRefusal({ method: request.method, url: url.pathname + url.search, headers: Object.fromEntries(request.headers) });
  if (refusal) return { status: refusal.status, html: "" };
  const response = await handler(request, freshContext());
  return { status: response.status, html: await response.text(), referrerPolicy: response.headers.get("Referrer-Policy") };
}

/** The Origin a browser puts on a same-origin form POST from a page with this Referrer-Policy (Fetch, "append a request Origin header"). */
const formPostOrigin = (referrerPolicy: string | null | undefined) => (referrerPolicy?.split(",").at(-1)?.trim() === "no-referrer" ? "null" : APP);

/** Opens the link as a browser does and presses the button without JavaScript: the form posts to the page's own URL. */
async function openAndRestore(token: string, cookie?: string) {
  const pageUrl = `${APP}/account/undo-email?token=${token}`;
  const page = await serve(new Request(pageUrl, { headers: cookie ? { Cookie: cookie } : {} }));
  const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1]?.replaceAll("&amp;", "&") ?? "/account/undo-email";
  return serve(
    new Request(`${APP}${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: formPostOrigin(page.referrerPolicy), ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams({ token }),
    }),
  );
}

/** An account whose e-mail was changed (confirmed), and the undo link the old address got. */
async function changedAccount() {
  const user = await createTestUser({ password: PASSWORD });
  const next = uniqueEmail("moved");
  const bearer = await bearerFor(user.id);
  const request = new Request(`${APP}/api/account`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
    body: JSON.stringify({ email: next, currentPassword: PASSWORD }),
  });
  expect((await accountApi.action({ request, params: {}, context: freshContext() } as never)).status).toBe(200);
  await settleBackgroundTasks();
  const confirm = /\/account\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(decodeEmail(emailsTo(next).at(-1) ?? ""))![1];
  await confirmPage.loader({ request: new Request(`${APP}/account/confirm-email?token=${confirm}`), params: {}, context: freshContext() });
  await settleBackgroundTasks();
  const undo = /\/account\/undo-email\?token=([A-Za-z0-9_-]+)/.exec(decodeEmail(emailsTo(user.email).at(-1) ?? ""))![1];
  return { user, undo };
}

test("without JavaScript, a signed-out visitor restores the address: 200 and the 'restored' page", async () => {
  const { user, undo } = await changedAccount();
  const answer = await openAndRestore(undo);
  expect(answer.status).toBe(200);
  expect(answer.html).toContain("E-mail address restored");
  expect(answer.html).toContain(user.email);
});

test("without JavaScript, the signed-in account restores its address (every session ends in that request): 200", async () => {
  const { user, undo } = await changedAccount();
  const answer = await openAndRestore(undo, await sessionCookieFor(user.id));
  expect(answer.status).toBe(200);
  expect(answer.html).toContain("E-mail address restored");
  expect(answer.html).toContain(user.email);
});

test("without JavaScript, a used or invalid token is a 400 page, never a 500", async () => {
  const { user, undo } = await changedAccount();
  expect((await openAndRestore(undo)).status).toBe(200);
  const cookie = await sessionCookieFor(user.id);
  for (const token of [undo, "not-a-real-token"]) {
    for (const signedIn of [undefined, cookie]) {
      const answer = await serve(
        new Request(`${APP}/account/undo-email?token=${token}`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: APP, ...(signedIn ? { Cookie: signedIn } : {}) },
          body: new URLSearchParams({ token }),
        }),
      );
      expect(answer.status).toBe(400);
      expect(answer.html).toContain("E-mail address not restored");
    }
  }
});
