import crypto from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { describe, expect, test } from "vitest";

import { connectPostgres, wrapPglite, type Database } from "#db/client";
import { CATALOGUE, seedCatalogue } from "#db/seed";
import { schema } from "~/utils/db.server";

async function tableNames(database: Database) {
  const rows = (await database.db.execute("select table_name from information_schema.tables where table_schema = current_schema() order by 1")) as unknown as
    { rows?: { table_name: string }[] } | { table_name: string }[];
  return (Array.isArray(rows) ? rows : (rows.rows ?? [])).map((r) => r.table_name);
}

/** An empty database of the kind this suite runs on (PGlite, or PostgreSQL with DATABASE_URL). */
async function emptyDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = wrapPglite(new PGlite());
    return Object.assign(database, { drop: () => database.close() });
  }
  const name = `brandlift_empty_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = connectPostgres(target.toString(), { max: 2 });
  return Object.assign(database, {
    async drop() {
      await database.close();
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.end();
    },
  });
}

// Every migration on a fresh database, twice: a loaded machine takes longer than the default 20 s.
describe("migrations", { timeout: 90_000 }, () => {
  test("apply to an empty database, and again as a no-op", async () => {
    const database = await emptyDatabase();
    try {
      await database.migrate();
      await database.migrate();
      const tables = await tableNames(database);
      for (const table of [
        "users",
        "sessions",
        "password_tokens",
        "services",
        "orders",
        "purchases",
        "reports",
        "chat_messages",
        "chat_read_positions",
        "stripe_events",
        "contact_messages",
        "subscriptions",
      ]) {
        expect(tables).toContain(table);
      }
    } finally {
      await database.drop();
    }
  });

  test("the catalogue seed fills an empty catalogue once", async () => {
    const database = await emptyDatabase();
    try {
      await database.migrate();
      expect(await seedCatalogue(database.db)).toBe(true);
      expect(await seedCatalogue(database.db)).toBe(false);
      const services = await database.db.select().from(schema.services);
      expect(services).toHaveLength(CATALOGUE.length);
      expect(services.length).toBeGreaterThanOrEqual(9);
    } finally {
      await database.drop();
    }
  });

  test("an e-mail is taken once, whatever its case", async () => {
    const database = await emptyDatabase();
    try {
      await database.migrate();
      await database.db.insert(schema.users).values({ email: "Ada@Example.com", name: "Ada" });
      await expect(database.db.insert(schema.users).values({ email: "ada@example.com", name: "Ada 2" })).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });
});
