import { breaksTextRule, controlCharacterMessage } from "./zod";

/*
 * The staff search (/dashboard/search, decision 191): what the page and the Ctrl+K
 * palette show. One group per kind, each hit a link.
 */

export const SEARCH_KINDS = ["customers", "orders", "threads", "services"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  customers: "Customers",
  orders: "Orders",
  threads: "Conversations",
  services: "Services",
};

/** Hits shown per kind; the group links to its full list for more. */
export const SEARCH_GROUP_LIMIT = 5;
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 200;

export interface SearchHit {
  id: string;
  href: string;
  title: string;
  detail: string;
  /** A customer's or a conversation's client (by `id`, decision 309); shown beside the title when its name is not the person's. */
  client?: { id: string; name: string };
}

export type SearchGroups = Record<SearchKind, SearchHit[]>;

/** What GET /dashboard/search answers (the page and the palette): `groups` is null when no search ran. */
export interface SearchAnswer {
  q: string;
  problem: string | null;
  groups: SearchGroups | null;
}

/** Why a search was not run, in the words the page shows (`refused`: the text itself is not allowed); null when it can run. */
export function searchProblem(q: string): { message: string; refused: boolean } | null {
  if (breaksTextRule(q)) return { message: `${controlCharacterMessage("The search")}.`, refused: true };
  if (q.length > SEARCH_MAX_LENGTH) return { message: `The search must be at most ${SEARCH_MAX_LENGTH} characters.`, refused: true };
  if (q.length < SEARCH_MIN_LENGTH) return { message: `Type at least ${SEARCH_MIN_LENGTH} characters.`, refused: false };
  return null;
}
