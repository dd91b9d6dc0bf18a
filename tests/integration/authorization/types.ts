import type { ClientCapability, ClientRole } from "~/domain/clients";
import type { User } from "~/models/users.server";

/**
 * The authorization table (tests/integration/authorization-{1,2,3}.test.ts, tests/integration/authorization/suite.ts): each area's
 * `<area>.rows.ts` exports `rows: AuthorizationRow[]` and, optionally, `fixtures` that create the
 * records its paths point at. The runner calls every row as every actor over both transports.
 */

export type Actor = "anonymous" | "customerA" | "customerB" | "team";
/**
 * Customer A's colleagues: members of customer A's client (customer A is its first owner), one per
 * role. Customer B stays another client.
 */
export type Member = "ownerA2" | "approverA" | "memberA" | "billingA";
export const MEMBER_ROLES: Record<Member, ClientRole> = { ownerA2: "owner", approverA: "approver", memberA: "member", billingA: "billing" };
export type Caller = Actor | Member;
export type Transport = "cookie" | "bearer";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A status, optionally with where a redirect must point (a string is a prefix). */
export type Outcome = number | { status: number; location?: string | RegExp };
/** The same outcome over both transports, or one per transport. */
export type Expected = Outcome | { cookie: Outcome; bearer: Outcome };

export interface Fixtures extends Record<Member, User> {
  customerA: User;
  customerB: User;
  team: User;
  /** Ids made by the rows files' `fixtures` functions, by the names they chose. */
  ids: Record<string, string>;
}

/** Who is calling, for paths and bodies that differ per call (e.g. a fresh record each time). */
export interface Call {
  actor: Caller;
  transport: Transport;
  user: User | null;
}

export type RowBody = { json: unknown } | { form: Record<string, string> } | { multipart: () => FormData };
type PerCall<T> = T | ((fixtures: Fixtures, call: Call) => T | Promise<T>);

export interface AuthorizationRow {
  /** The route module's file name in app/routes, e.g. "api+/users+/$id.purchases.ts". */
  route: string;
  method: Method;
  /** The URL path and query; its params must fit the route file's pattern. */
  path: PerCall<string>;
  body?: PerCall<RowBody>;
  headers?: Record<string, string>;
  expect: Record<Actor, Expected>;
  /**
   * What the customer side of the row needs of a member's role (the role table of
   * docs/permissions.md); "any": nothing beyond being signed in (their own account, security).
   * A member whose role covers it gets customer A's outcome, others `refused`. Required where
   * customer A's outcome differs from a signed-out visitor's (the runner checks).
   */
  needs?: ClientCapability | "any";
  /** What a member whose role does not cover `needs` gets (default 403: the role's refusal). */
  refused?: Expected;
  /** A member's outcome where it is neither of those. */
  members?: Partial<Record<Member, Expected>>;
  /** Shown in the test name when one route has several rows. */
  note?: string;
}

export interface RowsModule {
  rows: AuthorizationRow[];
  /** What every row of the file `needs` unless it names its own. */
  needs?: AuthorizationRow["needs"];
  fixtures?: (base: Omit<Fixtures, "ids">) => Promise<Record<string, string>>;
}
