import type { Locator, Page } from "@playwright/test";

import { ACCOUNTS, expect, storageStateFor, test } from "./fixtures";

/*
 * Every modal of the site is drawn over the page, not inside a section: its title and close
 * control are the topmost element at their centre and inside the viewport, at phone and desktop
 * width, opened by a click and opened straight from its URL (the no-JavaScript path).
 */

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

async function expectOnTop(page: Page, dialog: Locator) {
  await expect(dialog).toBeVisible();
  const viewport = page.viewportSize()!;
  const parts = [
    dialog.getByRole("heading", { level: 2 }).first(),
    dialog
      .getByRole("link", { name: "Close" })
      .or(dialog.getByRole("button", { name: "Close" }))
      .first(),
  ];
  for (const part of parts) {
    // A dialog drawn again as its page data arrives has no box for a moment: measure once it has one.
    await expect.poll(() => part.boundingBox()).not.toBeNull();
    const box = await part.boundingBox();
    expect(box).not.toBeNull();
    const { x, y, width, height } = box!;
    expect(x).toBeGreaterThanOrEqual(0);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(viewport.width);
    expect(y + height).toBeLessThanOrEqual(viewport.height);
    const topmost = await part.evaluate(
      (node, [cx, cy]) => {
        const hit = document.elementFromPoint(cx, cy);
        return !!hit && (hit === node || node.contains(hit));
      },
      [x + width / 2, y + height / 2],
    );
    expect(topmost).toBe(true);
  }
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });

    test("the Our Services detail modal, by click and from its URL @no-js", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("button", { name: /Content Creation Kit: \$38\.99/ }).click();
      const detail = page.getByRole("dialog", { name: "Content Creation Kit" });
      await expectOnTop(page, detail);
      await page.goto(`/?service=${new URL(page.url()).searchParams.get("service") ?? "content-creation-kit"}`);
      await expectOnTop(page, page.getByRole("dialog", { name: "Content Creation Kit" }));
    });

    test("the order modal of a package and of the picker @no-js", async ({ page, javaScriptEnabled }) => {
      await page.goto("/");
      await page.getByRole("button", { name: /Content Creation Kit: \$38\.99/ }).click();
      await page
        .getByRole("dialog", { name: "Content Creation Kit" })
        .getByRole("button", { name: /Order Now/ })
        .first()
        .click();
      await expectOnTop(page, page.getByRole("dialog", { name: "Complete your order" }));
      if (javaScriptEnabled) {
        await page.goto("/");
        await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
        await page.getByRole("button", { name: "Continue", exact: true }).click();
        await expectOnTop(page, page.getByRole("dialog", { name: "Complete your order" }));
      }
    });

    test("a plan's order modal @no-js", async ({ page }) => {
      await page.goto("/");
      await page.getByRole("button", { name: "Continue with PRO PACKAGE" }).click();
      await expectOnTop(page, page.getByRole("dialog", { name: "Subscribe to PRO PACKAGE" }));
    });

    test.describe("staff", () => {
      test.use({ storageState: storageStateFor("team") });
      test("the report upload modal @no-js", async ({ page }) => {
        await page.goto("/dashboard/users?search=casey");
        await page.getByRole("link", { name: `View Details of ${ACCOUNTS.customerB.name}` }).click();
        await page
          .getByRole("link", { name: /Upload Report/ })
          .first()
          .click();
        await expectOnTop(page, page.getByRole("dialog", { name: "Upload Report" }));
      });
    });
  });
}

test("the header's section links lead to the landing page's sections from every page", async ({ page }) => {
  for (const path of ["/terms", "/privacy", "/grade"]) {
    await page.goto(path);
    const services = page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Services" });
    await expect(services).toHaveAttribute("href", "/#a-la-carte");
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/terms");
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Plans" }).click();
  await expect(page).toHaveURL(/\/#subscription-options$/);
  await expect(page.locator("#subscription-options")).toBeInViewport();
});
