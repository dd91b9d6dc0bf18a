import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The shared component classes of the stylesheet (`@layer components` in app/styles/tailwind.css)
 * each have one definition: a second rule of the same name merges into the first, and the list that
 * uses one gets the other's shape (as happened once with two `.row-link`s).
 */
const css = fs.readFileSync(path.resolve(import.meta.dirname, "../../app/styles/tailwind.css"), "utf8");

describe("component classes", () => {
  it("defines each class once", () => {
    const names = [...css.matchAll(/^\s*\.([a-z][a-z0-9-]*)\s*(?:,|\{)/gm)].map(([, name]) => name!);
    expect(names.length).toBeGreaterThan(5);
    const seen = new Set<string>();
    const twice = names.filter((name) => (seen.has(name) ? true : (seen.add(name), false)));
    expect(twice).toEqual([]);
  });
});
