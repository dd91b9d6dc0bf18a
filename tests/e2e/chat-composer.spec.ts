import zlib from "node:zlib";
import type { Page, TestInfo } from "@playwright/test";

import { formatFileSize } from "~/domain/format";

import { expect, storageStateFor, test } from "./fixtures";

/*
 * The chat composer (decision 181), as a customer on Messages: Enter sends and Shift+Enter adds a
 * line, long words stay inside their bubble, links open safely in a new tab, a picked file waits in
 * a preview with an optional caption until Send (and can be removed), images load from their
 * stable address, and Word files go like the reports' files. At 1280 and 390 px.
 */

test.use({ storageState: storageStateFor("composer") });

/** A 160 × 100 PNG in two colours, so the thumbnail and its preview are seen in the screenshots. */
function png(width = 160, height = 100): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.concat([
      Buffer.from([0]),
      ...Array.from({ length: width }, (_, x) => Buffer.from(x < width / 2 === y < height / 2 ? [91, 33, 182] : [251, 191, 36])),
    ]),
  );
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const PNG = png();
/** The first bytes of a Word .docx: a zip whose first part is [Content_Types].xml. */
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26, 0), Buffer.from("[Content_Types].xml"), Buffer.alloc(400, 0)]);

async function openMessages(page: Page) {
  await page.goto("/dashboard/messages");
  const panel = page.getByRole("region", { name: "Support chat" });
  await expect(panel.getByText("Connected")).toBeVisible();
  const box = panel.getByRole("textbox", { name: "Message" });
  await expect(box).toBeEnabled();
  // The history is in (connected comes first: a count of the messages taken before it reads 0).
  await expect(panel.getByText("Loading messages")).toHaveCount(0);
  return { panel, box, messages: panel.getByTestId("chat-message") };
}

const stamp = () => Date.now().toString(36);

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 800 } });

    test("Enter sends, Shift+Enter adds a line; a long word wraps inside its bubble; links open safely in a new tab", async ({ page }, testInfo) => {
      const { panel, box, messages } = await openMessages(page);

      // Shift+Enter is a new line, not a send; the box grows with it.
      const first = `First line ${stamp()}`;
      await box.pressSequentially(first);
      const oneLine = (await box.boundingBox())!.height;
      await box.press("Shift+Enter");
      await box.pressSequentially("second line");
      await box.press("Shift+Enter");
      await box.pressSequentially("third line");
      await expect(box).toHaveValue(`${first}\nsecond line\nthird line`);
      expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine);
      await expect(messages.filter({ hasText: first })).toHaveCount(0);
      // Enter sends, with the lines kept.
      await box.press("Enter");
      await expect(box).toHaveValue("");
      const sent = messages.filter({ hasText: first }).getByTestId("message-text");
      await expect(sent).toHaveText(`${first}\nsecond line\nthird line`, { useInnerText: true });

      // A 300-character word: the bubble wraps it, nothing scrolls sideways.
      const word = `W${stamp()}${"x".repeat(300)}`;
      await box.fill(word);
      await box.press("Enter");
      const long = messages.filter({ hasText: word }).getByTestId("message-text");
      await expect(long).toBeVisible();
      const log = panel.getByRole("log", { name: "Conversation" });
      const [bubbleBox, logBox] = [(await long.boundingBox())!, (await log.boundingBox())!];
      expect(bubbleBox.x + bubbleBox.width).toBeLessThanOrEqual(logBox.x + logBox.width);
      expect(await log.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      expect(await long.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);

      // Links: http(s) only, new tab, no opener or referrer; markup stays text.
      const tag = stamp();
      await box.fill(`Brief: https://example.test/brief?id=${tag}. Also javascript:alert(1) and <img src=x onerror=alert(1)>`);
      await box.press("Enter");
      const withLink = messages.filter({ hasText: `id=${tag}` });
      const link = withLink.getByRole("link", { name: `https://example.test/brief?id=${tag}` });
      await expect(link).toHaveAttribute("href", `https://example.test/brief?id=${tag}`);
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
      await expect(withLink.getByRole("link")).toHaveCount(1);
      await expect(withLink.locator("img")).toHaveCount(0);
      await expect(withLink).toContainText("<img src=x onerror=alert(1)>");

      await shot(page, testInfo, `composer-text-${width}`);
    });

    test("a picked file waits in a preview: Remove drops it; a caption goes with it on Send; the image loads from its stable address", async ({
      page,
    }, testInfo) => {
      const { panel, box, messages } = await openMessages(page);
      const before = await messages.count();
      const name = `shot-${stamp()}.png`;

      await panel.getByLabel("Attach a file").setInputFiles({ name, mimeType: "image/png", buffer: PNG });
      const preview = panel.getByTestId("attachment-preview");
      await expect(preview).toContainText(name);
      await expect(preview).toContainText(`Image · ${formatFileSize(PNG.length)}`);
      await expect(preview.getByTestId("attachment-preview-image")).toHaveJSProperty("complete", true);
      // Nothing is sent by picking.
      await expect(messages).toHaveCount(before);
      await preview.getByRole("button", { name: `Remove ${name}` }).click();
      await expect(preview).toHaveCount(0);
      await expect(messages).toHaveCount(before);

      await panel.getByLabel("Attach a file").setInputFiles({ name, mimeType: "image/png", buffer: PNG });
      await expect(preview).toContainText(name);
      const caption = panel.getByRole("textbox", { name: "Caption" });
      await expect(caption).toHaveAttribute("placeholder", "Caption (optional)");
      await shot(page, testInfo, `composer-preview-${width}`);
      await caption.fill(`The new banner ${name}`);
      await caption.press("Enter");
      await expect(preview).toHaveCount(0);

      const sent = messages.filter({ hasText: `The new banner ${name}` });
      const thumbnail = sent.getByTestId("attachment-thumbnail");
      await expect(thumbnail).toHaveJSProperty("complete", true);
      // The log stays at the newest message after the image has grown it: the caption is in view.
      await expect(sent.getByTestId("message-text")).toBeInViewport();
      expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
      // A stable address, not a link that dies after five minutes.
      const src = (await thumbnail.getAttribute("src"))!;
      expect(src).toMatch(/^\/files\/chat\/[0-9a-f-]{36}$/);
      const served = await page.request.get(src);
      expect(served.status()).toBe(200);
      expect(served.headers()["cache-control"]).toBe("private, no-store");
      await expect(box).toBeVisible();
      await shot(page, testInfo, `composer-file-${width}`);
    });
  });
}

test("a Word file goes like a report's (DOCX), shown as a chip that downloads", async ({ page }) => {
  const { panel, messages } = await openMessages(page);
  const name = `brief-${stamp()}.docx`;
  await panel.getByLabel("Attach a file").setInputFiles({
    name,
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: DOCX,
  });
  await expect(panel.getByTestId("attachment-preview")).toContainText("Word document");
  await panel.getByRole("button", { name: "Send file" }).click();
  const chip = messages.filter({ hasText: name }).getByTestId("attachment-chip");
  await expect(chip).toContainText(`Word document · ${formatFileSize(DOCX.length)}`);
  const href = (await chip.getAttribute("href"))!;
  const download = page.waitForEvent("download");
  await chip.click();
  expect((await download).suggestedFilename()).toBe(name);
  expect((await page.request.get(href)).headers()["content-disposition"]).toMatch(/^attachment;/);
});

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });
}
