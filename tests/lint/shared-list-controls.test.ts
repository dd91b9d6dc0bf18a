import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One look and one fix for every list: the staff lists page and search through one Pager (app/components/ui/pager.tsx) and
 * one SearchForm (app/components/ui/search-form.tsx), never a copy of their markup in a route.
 */
const root = path.resolve(import.meta.dirname, "../..");
const routes = readdirSync(path.join(root, "app/routes"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".tsx"));
const source = (file: string) => readFileSync(path.join(root, "app/routes", file), "utf8");

describe("one pager and one search form", () => {
  it("no route writes its own page links or search form", () => {
    const copies = routes.filter((file) => /Page \{page\} of|rel="(?:prev|next)"|role="search"/.test(source(file)));
    expect(copies).toEqual([]);
  });

  it.each([
    ["dashboard+/_staff+/orders+/_index.tsx", ["Pager"]],
    ["dashboard+/_staff+/subscriptions+/_index.tsx", ["Pager"]],
    ["dashboard+/_staff+/users+/_index.tsx", ["Pager", "SearchForm"]],
    ["dashboard+/_staff+/leads.tsx", ["Pager", "SearchForm"]],
    ["dashboard+/_staff+/inbox+/_layout.tsx", ["Pager", "SearchForm"]],
    ["dashboard+/_staff+/search.tsx", ["SearchForm"]],
  ])("%s uses %j", (file, components) => {
    for (const component of components) expect(source(file)).toMatch(new RegExp(`<${component}\\b`));
  });
});
