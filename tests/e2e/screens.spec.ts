import type { Page } from "@playwright/test";

import { ACCOUNTS, axeAndPicture, expect, NEWCOMER, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * Every screen at a phone's 390 × 844 and a laptop's 1280 × 800, for visitors, customers and
 * staff, with its modals and menus open: a screenshot in test-results/screens/ (to look at), and
 * axe with zero violations of any impact. Phones also check that nothing overflows sideways.
 */

const VIEWPORTS = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 800 },
] as const;

type Screen = {
  name: string;
  path: string | ((page: Page) => Promise<string>);
  /** Waits for the screen's content, then opens what should be open (a modal, a menu). */
  ready: (page: Page, viewport: (typeof VIEWPORTS)[number]) => Promise<void>;
};

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { name }).first()).toBeVisible();
};

async function firstDetail(page: Page, listPath: string) {
  await page.goto(listPath);
  const href = await page
    .getByRole("link", { name: /View Details/ })
    .first()
    .getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

/** Staff's detail page of an account, found by its e-mail on the users list. */
const userDetail = (email: string) => async (page: Page) => {
  await page.goto(`/dashboard/users?search=${encodeURIComponent(email)}`);
  const href = await page
    .getByRole("link", { name: /View Details/ })
    .first()
    .getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
};

/** The subscriber's plan page, from the plan card on their services page. */
async function planPage(page: Page) {
  await page.goto("/dashboard/services");
  const href = await page
    .getByRole("region", { name: "Your plan" })
    .getByRole("link", { name: /Open plan/ })
    .first()
    .getAttribute("href");
  expect(href).toMatch(/^\/dashboard\/plans\//);
  return href!;
}

/** Staff's page of the subscriber's plan, from the Plans section of the customer's detail page. */
async function staffPlanPage(page: Page) {
  await page.goto(await userDetail(ACCOUNTS.subscriber.email)(page));
  const href = await page
    .getByRole("region", { name: "Plans" })
    .getByRole("link", { name: /Plan reports/ })
    .first()
    .getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
}

/** A grade's report card, made once by answering the questionnaire on /grade (its own client address: the grader is rate limited). */
let gradePath: string | null = null;
async function gradeReport(page: Page) {
  if (gradePath) return gradePath;
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.202.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}` });
  await page.goto("/grade");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Followers").fill("2000");
  await page.getByLabel("Posts per week").fill("2");
  await page.getByLabel("Average likes per post").fill("60");
  await page.getByLabel("Average comments per post").fill("6");
  // With an e-mail: the grade also makes a lead for the staff's Leads screen.
  await page.getByLabel("E-mail (optional)").fill(`screens-${Date.now().toString(36)}@e2e-grade.test`);
  await page.getByRole("button", { name: "Get my grade" }).click();
  await expect(page).toHaveURL(/\/grade\/[0-9a-f-]{36}$/);
  gradePath = new URL(page.url()).pathname;
  return gradePath;
}

const visitorScreens: Screen[] = [
  { name: "landing", path: "/", ready: heading("A-La-Carte Services") },
  {
    name: "landing-menu",
    path: "/",
    ready: async (page, viewport) => {
      await heading("A-La-Carte Services")(page);
      // Phones open the header menu; wide screens show the links in the header.
      if (viewport.width < 768) await page.getByRole("banner").getByLabel("Menu").click();
      await expect(page.getByRole("banner").getByRole("link", { name: "Plans" })).toBeVisible();
    },
  },
  {
    name: "landing-order-modal",
    path: "/",
    ready: async (page) => {
      await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Complete your order" })).toBeVisible();
    },
  },
  {
    name: "landing-service-modal",
    path: "/",
    ready: async (page) => {
      await page.getByRole("button", { name: /Content Creation Kit: \$/ }).click();
      await expect(page.getByRole("dialog", { name: "Content Creation Kit" })).toBeVisible();
    },
  },
  {
    name: "landing-plan-modal",
    path: "/?planId=pro",
    ready: async (page) => {
      await expect(page.getByRole("dialog", { name: /Subscribe to PRO/ })).toBeVisible();
    },
  },
  { name: "login", path: "/login", ready: heading("Welcome Back") },
  { name: "forgot-password", path: "/forgot-password", ready: heading("Forgot Password") },
  { name: "reset-password", path: "/reset-password?token=not-a-real-token", ready: heading("Reset Password") },
  { name: "purchase-success", path: "/purchase/success", ready: heading(/Payment Successful|Payment/) },
  { name: "purchase-cancel", path: "/purchase/cancel", ready: heading("Payment Cancelled by You") },
  { name: "terms", path: "/terms", ready: heading("Terms of Service") },
  { name: "privacy", path: "/privacy", ready: heading("Privacy Policy") },
  { name: "not-found", path: "/no-such-page", ready: heading("Page not found") },
  {
    name: "set-password",
    path: `/reset-password?token=${NEWCOMER.setPasswordToken}`,
    ready: heading("Set Your Password"),
  },
  {
    name: "grade",
    path: "/grade",
    ready: async (page) => {
      await heading("What would you grade your social media page?")(page);
      await page.waitForLoadState("networkidle");
      // Part-way through: the live score shows.
      await page.getByLabel("Followers").fill("2000");
      await page.getByLabel("Posts per week").fill("2");
      await page.getByLabel("Average likes per post").fill("60");
      await page.getByLabel("Average comments per post").fill("6");
      await expect(page.getByText(/Your score so far:/)).toBeVisible();
    },
  },
  {
    name: "grade-errors",
    path: "/grade",
    ready: async (page) => {
      await heading("What would you grade your social media page?")(page);
      await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: "Get my grade" }).click();
      await expect(page.getByLabel("Followers")).toHaveAttribute("aria-invalid", "true");
    },
  },
  { name: "grade-report", path: gradeReport, ready: heading(/^[A-F]: \d+\/100$/) },
  {
    name: "grade-report-order-modal",
    path: async (page) => `${await gradeReport(page)}?order=1`,
    ready: async (page) => {
      await expect(page.getByRole("dialog", { name: "Order the recommended services" })).toBeVisible();
    },
  },
];

const customerScreens: Screen[] = [
  { name: "customer-services", path: "/dashboard/services", ready: heading("Purchased Services") },
  {
    name: "customer-service-detail",
    path: (page) => firstDetail(page, "/dashboard/services"),
    ready: async (page) => {
      await expect(page.getByRole("navigation", { name: "Service" })).toBeVisible();
    },
  },
  {
    name: "customer-service-message",
    path: async (page) => `${await firstDetail(page, "/dashboard/services")}/message`,
    ready: async (page) => {
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
  { name: "customer-reports", path: "/dashboard/reports", ready: heading("Your Reports") },
  {
    name: "customer-messages",
    path: "/dashboard/messages",
    ready: async (page) => {
      await heading("Messages")(page);
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
  { name: "customer-account", path: "/dashboard/account", ready: heading("Account") },
  { name: "customer-account-delete", path: "/dashboard/account/delete", ready: heading("Delete your account") },
  { name: "customer-receipts", path: "/dashboard/receipts", ready: heading("Receipts") },
  { name: "customer-billing-no-plan", path: "/billing/test", ready: heading("Manage billing") },
];

const subscriberScreens: Screen[] = [
  { name: "subscriber-calendar", path: "/dashboard/calendar", ready: heading("Content calendar") },
  {
    name: "subscriber-services",
    path: "/dashboard/services",
    ready: async (page) => {
      await expect(page.getByRole("region", { name: "Your plan" }).getByRole("article").first()).toBeVisible();
    },
  },
  {
    name: "subscriber-plan",
    path: planPage,
    ready: async (page) => {
      await expect(page.getByRole("navigation", { name: "Plan" })).toBeVisible();
    },
  },
  {
    name: "subscriber-plan-message",
    path: async (page) => `${await planPage(page)}/message`,
    ready: async (page) => {
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
  { name: "subscriber-receipts", path: "/dashboard/receipts", ready: heading("Receipts") },
  {
    name: "subscriber-billing",
    path: "/billing/test",
    ready: async (page) => {
      await heading("Manage billing")(page);
      await expect(page.getByRole("article").first()).toBeVisible();
    },
  },
];

const staffScreens: Screen[] = [
  { name: "staff-overview", path: "/dashboard", ready: heading("Overview") },
  { name: "staff-work", path: "/dashboard/work", ready: heading("My work") },
  { name: "staff-users", path: "/dashboard/users", ready: heading("Users") },
  { name: "staff-calendar", path: "/dashboard/calendar", ready: heading("Content calendar") },
  {
    name: "staff-user-detail",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page
        .getByRole("link", { name: /View Details/ })
        .first()
        .click();
      await expect(page.getByRole("navigation", { name: "Customer" })).toBeVisible();
    },
  },
  {
    name: "staff-upload-modal",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page
        .getByRole("link", { name: /View Details/ })
        .first()
        .click();
      await page
        .getByRole("link", { name: /Upload Report/ })
        .first()
        .click();
      await expect(page.getByRole("dialog", { name: "Upload Report" })).toBeVisible();
    },
  },
  {
    name: "staff-user-message",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page
        .getByRole("link", { name: /View Details/ })
        .first()
        .click();
      await page
        .getByRole("navigation", { name: "Customer" })
        .getByRole("link", { name: /^Message/ })
        .click();
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
  { name: "staff-inbox", path: "/dashboard/inbox", ready: heading("Inbox") },
  {
    name: "staff-inbox-thread",
    path: `/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.inboxCustomer.email)}`,
    ready: async (page) => {
      await page.getByTestId("thread-row").first().getByRole("link").click();
      await expect(page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}/);
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
  { name: "staff-orders", path: "/dashboard/orders", ready: heading("Orders and payments") },
  {
    name: "staff-order-detail",
    path: "/dashboard/orders",
    ready: async (page) => {
      await page
        .getByRole("link", { name: /^View order of / })
        .first()
        .click();
      await heading(/^Order of /)(page);
    },
  },
  { name: "staff-catalogue", path: "/dashboard/catalogue", ready: heading("Catalogue") },
  { name: "staff-catalogue-new-service", path: "/dashboard/catalogue/services/new", ready: heading("Add a service") },
  {
    name: "staff-catalogue-service",
    path: "/dashboard/catalogue",
    ready: async (page) => {
      await page.getByRole("link", { name: "Social Media Audit" }).first().click();
      await heading("Social Media Audit")(page);
      await expect(page.getByRole("form", { name: "Packages of Social Media Audit" })).toBeVisible();
    },
  },
  {
    name: "staff-catalogue-plan",
    path: "/dashboard/catalogue",
    ready: async (page) => {
      await page.getByRole("link", { name: "VIP TREATMENT" }).first().click();
      await heading("VIP TREATMENT")(page);
    },
  },
  {
    name: "staff-search",
    path: "/dashboard/search?q=stella",
    ready: async (page) => {
      await expect(page.getByRole("region", { name: /^Customers/ })).toBeVisible();
    },
  },
  {
    name: "staff-search-palette",
    path: "/dashboard/orders",
    ready: async (page) => {
      await heading("Orders and payments")(page);
      await page.keyboard.press("Control+k");
      await page.getByRole("dialog", { name: "Search" }).getByRole("combobox").fill("stella");
      await expect(page.getByRole("dialog", { name: "Search" }).getByRole("option").first()).toBeVisible();
    },
  },
  { name: "staff-team", path: "/dashboard/team", ready: heading("Team") },
  { name: "staff-leads", path: "/dashboard/leads", ready: heading("Leads") },
  { name: "staff-account", path: "/dashboard/account", ready: heading("Account") },
  {
    name: "staff-subscriber-detail",
    path: userDetail(ACCOUNTS.subscriber.email),
    ready: async (page) => {
      await expect(page.getByRole("region", { name: "Plans" })).toBeVisible();
    },
  },
  {
    name: "staff-plan",
    path: staffPlanPage,
    ready: async (page) => {
      await expect(page.getByRole("region", { name: "Plan reports" })).toBeVisible();
    },
  },
  {
    name: "staff-plan-upload-modal",
    path: staffPlanPage,
    ready: async (page) => {
      await page
        .getByRole("link", { name: /Upload Report/ })
        .first()
        .click();
      await expect(page.getByRole("dialog", { name: "Upload Report" })).toBeVisible();
    },
  },
];

/** Both widths in one page: the screen's address is found once, each width loads it afresh. */
async function capture(page: Page, screen: Screen) {
  let target: string | null = null;
  for (const viewport of VIEWPORTS) {
    await test.step(`at ${viewport.name} px`, async () => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      target ??= typeof screen.path === "string" ? screen.path : await screen.path(page);
      await page.goto(target);
      await screen.ready(page, viewport);
      await axeAndPicture(page, `${screen.name}-${viewport.name}`);
    });
  }
}

function screensFor(role: "visitor" | AccountName, screens: Screen[]) {
  test.describe(`${role} screens`, () => {
    if (role !== "visitor") test.use({ storageState: storageStateFor(role) });
    for (const screen of screens) {
      test(`${screen.name} at ${VIEWPORTS.map((v) => v.name).join(" and ")} px: screenshots and axe`, async ({ page }) => {
        // Two pictures and two audits: twice a story's time.
        test.setTimeout(120_000);
        await capture(page, screen);
      });
    }
  });
}

screensFor("visitor", visitorScreens);
screensFor("statesCustomer", customerScreens);
screensFor("subscriber", subscriberScreens);
screensFor("statesStaff", staffScreens);
// "My work" with assigned purchases (one overdue).
screensFor("workStaff", [
  { name: "staff-work-assigned", path: "/dashboard/work", ready: async (page) => void (await expect(page.getByTestId("work-item").first()).toBeVisible()) },
]);
