import { expect, test as setup } from "@playwright/test";

import { ACCOUNTS, PASSWORD, storageStateFor, type AccountName } from "./fixtures";

/**
 * Signs every e2e account in once; specs reuse the cookies with test.use({ storageState }).
 * The sign-in form is posted over HTTP, as the form does without JavaScript (a browser page per
 * account cost 8-11 s each, the suite's largest fixed cost; the form itself is tested in auth.spec.ts).
 * Each account signs in from its own client address (the server trusts X-Forwarded-For from
 * loopback), so the per-address sign-in limit never couples one account to another.
 */
(Object.keys(ACCOUNTS) as AccountName[]).forEach((account, index) => {
  setup(`sign in as ${account}`, async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { "X-Forwarded-For": `10.200.0.${index + 1}`, Origin: baseURL! },
    });
    const response = await request.post("/login", { form: { email: ACCOUNTS[account].email, password: PASSWORD }, maxRedirects: 0 });
    expect(response.status(), `sign-in of ${account}`).toBe(302);
    const location = response.headers().location;
    expect(location).toMatch(/^\/dashboard/);
    // Open the page the form leads to, as the browser did: it shows (and so clears) the sign-in's flash
    // toast, which would otherwise pop up over the first page a spec checks with axe.
    expect((await request.get(location)).status(), `${account}'s dashboard`).toBe(200);
    await request.storageState({ path: storageStateFor(account) });
    await request.dispose();
  });
});
