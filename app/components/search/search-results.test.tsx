import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, test } from "vitest";

import type { SearchGroups, SearchHit } from "~/domain/search";

import { SearchResults } from "./search-results";

/** The search page's hits as the server draws them: a customer names their client when it is not named after them. */

const hit = (title: string, client: string): SearchHit => ({
  id: crypto.randomUUID(),
  href: "/dashboard/users/x",
  title,
  detail: "milo@example.test",
  client: { id: "11111111-1111-4111-8111-111111111111", name: client },
});

const render = (customers: SearchHit[]) => {
  const groups: SearchGroups = { customers, orders: [], threads: [], services: [] };
  return renderToStaticMarkup(
    <StaticRouter location="/dashboard/search?q=milo">
      <SearchResults q="milo" groups={groups} />
    </StaticRouter>,
  );
};

describe("the search's customer hits", () => {
  test("a member of a team shows the client's name beside theirs; a client of one named after them shows nothing more", () => {
    const html = render([hit("Milo Member", "Quayside Coffee"), hit("Nora Field", "Nora Field")]);
    expect(html).toMatch(/Milo Member<span data-testid="row-client"[^>]*>.*?Quayside Coffee<\/span>/);
    expect(html.match(/data-testid="row-client"/g)).toHaveLength(1);
  });
});
