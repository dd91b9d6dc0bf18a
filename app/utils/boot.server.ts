import { seedCatalogue } from "#db/seed";
import { database, db } from "./db.server";
import { DEMO_PASSWORD, seedDemo } from "./demo.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { redis } from "./redis.server";

/** Start-up work of one node: migrate, seed the catalogue if empty, demo accounts on the embedded database. */
export async function boot() {
  await database.migrate();
  if (await seedCatalogue(db)) logger.info("seeded the service catalogue");
  const demo = database.kind === "pglite" ? await seedDemo() : null;
  return {
    database: database.kind,
    demoLogins: demo?.map((account) => ({ ...account, password: DEMO_PASSWORD })) ?? [],
    appUrl: env.appUrl,
  };
}

export async function shutdown() {
  if (redis) await redis.quit().catch(() => redis?.disconnect());
  await database.close();
}

export async function healthy() {
  try {
    await Promise.race([database.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000))]);
    return true;
  } catch {
    return false;
  }
}
