import type { User } from "~/models/users.server";

/**
 * The authorization table (tests/integration/authorization.test.ts): each area's
 * `<area>.rows.ts` exports `rows: AuthorizationRow[]` and, optionally, `fixtures` that create the
 * records its paths point at. The runner calls every row as every actor over both transports.
 */

export type Actor = "anonymous" | "customerA" | "customerB" | "team";
export type Transport = "cookie" | "bearer";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A status, optionally with where a redirect must point (a string is a prefix). */
export type Outcome = number | { status: number; location?: string | RegExp };
/** The same outcome over both transports, or one per transport. */
export type Expected = Outcome | { cookie: Outcome; bearer: Outcome };

export interface Fixtures {
  customerA: User;
  customerB: User;
  team: User;
  /** Ids made by the rows files' `fixtures` functions, by the names they chose. */
  ids: Record<string, string>;
}

/** Who is calling, for paths and bodies that differ per call (e.g. a fresh record each time). */
export interface Call {
  actor: Actor;
  transport: Transport;
  user: User | null;
}

export type RowBody = { json: unknown } | { form: Record<string, string> } | { multipart: () => FormData };
type PerCall<T> = T | ((fixtures: Fixtures, call: Call) => T | Promise<T>);

export interface AuthorizationRow {
  /** The route module's file name in app/routes, e.g. "api+/users.$id.purchases.ts". */
  route: string;
  method: Method;
  /** The URL path and query; its params must fit the route file's pattern. */
  path: PerCall<string>;
  body?: PerCall<RowBody>;
  headers?: Record<string, string>;
  expect: Record<Actor, Expected>;
  /** Shown in the test name when one route has several rows. */
  note?: string;
}

export interface RowsModule {
  rows: AuthorizationRow[];
  fixtures?: (base: Omit<Fixtures, "ids">) => Promise<Record<string, string>>;
}
