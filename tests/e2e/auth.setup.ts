import { test as setup } from "@playwright/test";
import { ACCOUNTS, signIn, storageStateFor, type AccountName } from "./fixtures";

/** Signs every e2e account in once; specs reuse the cookies with test.use({ storageState }). */
for (const account of Object.keys(ACCOUNTS) as AccountName[]) {
  setup(`sign in as ${account}`, async ({ page }) => {
    await signIn(page, account);
    await page.context().storageState({ path: storageStateFor(account) });
  });
}
