import { test as setup } from "@playwright/test";

import { ACCOUNTS, signIn, storageStateFor, type AccountName } from "./fixtures";

/**
 * Signs every e2e account in once; specs reuse the cookies with test.use({ storageState }).
 * Each account signs in from its own client address (the server trusts X-Forwarded-For from
 * loopback), so the per-address sign-in limit never couples one account to another.
 */
(Object.keys(ACCOUNTS) as AccountName[]).forEach((account, index) => {
  setup(`sign in as ${account}`, async ({ page }) => {
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.200.0.${index + 1}` });
    await signIn(page, account);
    await page.context().storageState({ path: storageStateFor(account) });
  });
});
