import { seedCatalogue } from "#db/seed";
import { database, db, schema } from "~/utils/db.server";
import { seedDemo } from "~/utils/demo.server";
import { hashPassword } from "~/utils/password.server";
import { ACCOUNTS, PASSWORD } from "./fixtures";

await database.migrate();
await seedCatalogue(db);
await seedDemo();
const passwordHash = await hashPassword(PASSWORD);
for (const account of Object.values(ACCOUNTS)) {
  await db
    .insert(schema.users)
    .values({ email: account.email, name: account.name, role: account.role, passwordHash })
    .onConflictDoNothing();
}
await database.close();
