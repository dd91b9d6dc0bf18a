import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * Every screen at a phone's 390 × 844 and a laptop's 1280 × 800, for visitors, customers and
 * staff, with its modals and menus open: a screenshot in test-results/screens/ (to look at), and
 * axe with zero violations of any impact. Phones also check that nothing overflows sideways.
 */

const SCREENS_DIR = path.resolve("test-results/screens");
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
  const href = await page.getByRole("link", { name: /View Details/ }).first().getAttribute("href");
  expect(href).toBeTruthy();
  return href!;
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
];

const staffScreens: Screen[] = [
  { name: "staff-users", path: "/dashboard/users", ready: heading("Users") },
  {
    name: "staff-user-detail",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page.getByRole("link", { name: /View Details/ }).first().click();
      await expect(page.getByRole("navigation", { name: "Customer" })).toBeVisible();
    },
  },
  {
    name: "staff-upload-modal",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page.getByRole("link", { name: /View Details/ }).first().click();
      await page.getByRole("link", { name: /Upload Report/ }).first().click();
      await expect(page.getByRole("dialog", { name: "Upload Report" })).toBeVisible();
    },
  },
  {
    name: "staff-user-message",
    path: () => Promise.resolve(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`),
    ready: async (page) => {
      await page.getByRole("link", { name: /View Details/ }).first().click();
      await page.getByRole("navigation", { name: "Customer" }).getByRole("link", { name: /^Message/ }).click();
      await expect(page.getByRole("region", { name: "Support chat" }).getByPlaceholder("Type Message Here")).toBeEnabled();
    },
  },
];

async function capture(page: Page, screen: Screen, viewport: (typeof VIEWPORTS)[number]) {
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  const target = typeof screen.path === "string" ? screen.path : await screen.path(page);
  await page.goto(target);
  await screen.ready(page, viewport);
  // Let transitions settle before the picture and the audit.
  await page.waitForLoadState("networkidle");
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, `${screen.name}-${viewport.name}.png`), fullPage: true });

  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(violations, `axe on ${screen.name} at ${viewport.name}`).toEqual([]);

  // Nothing sticks out sideways on a phone (the page never scrolls horizontally).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${screen.name} at ${viewport.name}`).toBeLessThanOrEqual(0);
}

function screensFor(role: "visitor" | AccountName, screens: Screen[]) {
  test.describe(`${role} screens`, () => {
    if (role !== "visitor") test.use({ storageState: storageStateFor(role) });
    for (const screen of screens) {
      for (const viewport of VIEWPORTS) {
        test(`${screen.name} at ${viewport.name} px: screenshot and axe`, async ({ page }) => {
          await capture(page, screen, viewport);
        });
      }
    }
  });
}

screensFor("visitor", visitorScreens);
screensFor("statesCustomer", customerScreens);
screensFor("statesStaff", staffScreens);
