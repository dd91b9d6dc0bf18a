import { database, db } from "~/utils/db.server";

export interface DriverCall {
  method: string;
  text: string;
}

/**
 * The driver calls the app makes while `run` runs: each a round trip to the database (a
 * transaction, several). Counted at the driver, PGlite's or postgres.js's pool, below our code.
 */
export async function driverCallsDuring<T>(run: () => Promise<T>): Promise<{ result: T; calls: DriverCall[] }> {
  const calls: DriverCall[] = [];
  if (database.watchCalls) {
    const unwatch = database.watchCalls((call) => calls.push(call));
    try {
      return { result: await run(), calls };
    } finally {
      unwatch();
    }
  }
  // PGlite's client is a plain object: its own methods are wrapped while `run` runs.
  const client = (db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const originals = ["query", "exec", "transaction"].map((name) => [name, client[name]!] as const);
  for (const [name, original] of originals) {
    client[name] = function (this: unknown, ...args: unknown[]) {
      calls.push({ method: name, text: typeof args[0] === "string" ? args[0] : "" });
      return original.apply(this, args);
    };
  }
  try {
    return { result: await run(), calls };
  } finally {
    for (const [name, original] of originals) client[name] = original;
  }
}
