import fs from "node:fs";
import { expect, test } from "vitest";

import { buildSprite, SPRITE_FILE, spriteIconNames } from "../../../scripts/icon-sprite.mjs";

test("the sprite holds exactly the icons icons.tsx names, drawn as lucide draws them (else run node scripts/icon-sprite.mjs)", async () => {
  const names = spriteIconNames();
  expect(names).toContain("inbox");
  expect(names).toContain("log-out");
  const committed = fs.readFileSync(SPRITE_FILE, "utf8");
  expect(committed).toBe(await buildSprite(names));
  expect([...committed.matchAll(/<symbol id="([a-z0-9-]+)"/g)].map((m) => m[1])).toEqual(names);
  // An alias (history) gets the shapes of the icon it stands for.
  expect(committed).toMatch(/<symbol id="history" viewBox="0 0 24 24"[^>]*><path /);
});
