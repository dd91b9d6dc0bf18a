import path from "node:path";

import { env } from "~/utils/env.server";

import { connectDatabase } from "./client";

const database = connectDatabase({ url: env.databaseUrl, dataDir: path.join(env.dataDir, "pglite") });
await database.migrate();
await database.close();
console.log(`Migrations applied (${database.kind}).`);
