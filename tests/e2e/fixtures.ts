import fs from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3917);
export const E2E_DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? "data-e2e");
export const PASSWORD = "brandlift-demo";

/**
 * Accounts the e2e seed (tests/e2e/seed.ts) creates before the server starts. Each spec signs in
 * as its own accounts so that rate limits and state changes of one spec do not touch another.
 */
export const ACCOUNTS = {
  team: { email: "team@brandlift.test", name: "Taylor Brooks", role: "team" },
  customer: { email: "customer@brandlift.test", name: "Jordan Avery", role: "user" },
  customerB: { email: "casey@e2e.test", name: "Casey Lane", role: "user" },
  emptyCustomer: { email: "empty@e2e.test", name: "Emery Stone", role: "user" },
  resetter: { email: "reset@e2e.test", name: "Riley Reset", role: "user" },
  staff2: { email: "staff2@e2e.test", name: "Sam Staff", role: "team" },
  chatCustomer: { email: "chat@e2e.test", name: "Charlie Chat", role: "user" },
  inboxCustomer: { email: "inbox@e2e.test", name: "Indy Inbox", role: "user" },
  inboxStaff: { email: "inbox-staff@e2e.test", name: "Ivy Inbox", role: "team" },
  statesCustomer: { email: "states@e2e.test", name: "Stella States", role: "user" },
  statesStaff: { email: "states-staff@e2e.test", name: "Stan States", role: "team" },
  opsStaff: { email: "ops-staff@e2e.test", name: "Olive Ops", role: "team" },
  subscriber: { email: "subscriber@e2e.test", name: "Sasha Subscriber", role: "user" },
  workStaff: { email: "work-staff@e2e.test", name: "Wes Work", role: "team" },
  workCustomer: { email: "work@e2e.test", name: "Wren Work", role: "user" },
  composer: { email: "composer@e2e.test", name: "Cody Composer", role: "user" },
  pastDue: { email: "past-due@e2e.test", name: "Pax Pastdue", role: "user" },
  /** The own-data spec deletes these, one per project (with and without JavaScript). */
  ownData: { email: "own-data@e2e.test", name: "Olly Owndata", role: "user" },
  ownDataNoJs: { email: "own-data-nojs@e2e.test", name: "Nell Nojs", role: "user" },
  // Account security (tests/e2e/account-security.spec.ts): one account per project, as each turns two-factor on.
  securityJs: { email: "security-js@e2e.test", name: "Sage Secure", role: "user" },
  securityNoJs: { email: "security-nojs@e2e.test", name: "Noel Secure", role: "user" },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

/** A new account's unused set-password link (seeded for the screens spec; the account has no password yet). */
export const NEWCOMER = { email: "newcomer@e2e.test", name: "Nova Newcomer", setPasswordToken: "e2e-screens-newcomer-set-password-0123456789ab" } as const;

/** The session cookies of every account, made once by the global setup. */
export const storageStateFor = (account: AccountName) => path.join(E2E_DATA_DIR, "auth", `${account}.json`);

export async function signIn(page: Page, account: AccountName) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ACCOUNTS[account].email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

/**
 * Hydration starts after the first paint (decision 008): with JavaScript on, a test waits for the
 * root's mark after every `goto` and `reload`, as a person would not click within those milliseconds.
 * Before it, the page works as it does without JavaScript.
 */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Fails a test on any console error or uncaught page error. */
export const test = base.extend<{ consoleErrors: string[]; exactPages: void }>({
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args: Parameters<Page["goto"]>) => {
        const response = await goto(...args);
        await hydrated(page);
        return response;
      };
      page.reload = async (...args: Parameters<Page["reload"]>) => {
        const response = await reload(...args);
        await hydrated(page);
        return response;
      };
    }
    await provide(page);
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        // Chromium logs every 4xx answer as "Failed to load resource"; the tests assert those statuses themselves.
        if (msg.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) {
          errors.push(msg.text());
        }
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
  // Every HTML answer of the run carries its characters exactly: no NUL byte, no U+FFFD (issue 21).
  exactPages: [
    async ({ page }, use) => {
      const checks: Promise<string | null>[] = [];
      page.on("response", (response) => {
        if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) return;
        checks.push(
          response.body().then(
            (body) => (body.includes(0) || body.includes(REPLACEMENT_CHARACTER) ? `${response.url()}: ${body.includes(0) ? "NUL" : "U+FFFD"}` : null),
            // A body the browser no longer holds (the page navigated on before it was read).
            () => null,
          ),
        );
      });
      await use();
      const corrupt = (await Promise.all(checks)).filter((found) => found !== null);
      expect(corrupt, "pages with a NUL byte or U+FFFD").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

const REPLACEMENT_CHARACTER = Buffer.from("\uFFFD");

export function latestEmail(to: string): string | null {
  const outbox = path.join(E2E_DATA_DIR, "outbox");
  if (!fs.existsSync(outbox)) return null;
  const files = fs
    .readdirSync(outbox)
    .filter((f) => f.includes(to.replace(/[^a-z0-9@._-]/gi, "_")))
    .sort();
  const last = files.at(-1);
  return last ? fs.readFileSync(path.join(outbox, last), "utf8") : null;
}
