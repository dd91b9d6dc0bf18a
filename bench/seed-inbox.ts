import { eq } from "drizzle-orm";

import { settleBackgroundTasks } from "~/utils/background.server";
import { database, db, schema } from "~/utils/db.server";

import { createTestUser, postInThread } from "../tests/support/factories";

/**
 * A staff inbox as one in use, on top of the e2e seed (run after tests/e2e/seed.ts, with its
 * DATABASE_URL): BENCH_INBOX_THREADS customers (default 40, so the inbox's first page is full) each
 * with a support thread of three to seven messages, the customer's and staff's in turn, one thread in
 * three left waiting on staff. Written through the chat's own store, as the tests' factories do.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/seed-inbox.ts
 */
const THREADS = Number(process.env.BENCH_INBOX_THREADS ?? 40);
const FIRST = ["Avery", "Brooks", "Carter", "Diaz", "Evans", "Foster", "Garcia", "Hughes", "Iqbal", "Jensen"];
const LAST = ["Bakery", "Studio", "Dental", "Fitness", "Florist", "Garage", "Law", "Cafe"];
const ASKED = [
  "Hi, when will the first drafts of the logo be ready?",
  "Could you move Friday's Instagram post to Monday? We are closed for the holiday.",
  "The report mentions our page speed. Is that something you can fix as well?",
  "We changed our opening hours, can you update the Google listing?",
  "Thanks for the new banner! Could the text be a little bigger on phones?",
  "Is it possible to add a second location to our plan?",
  "I can't find last month's invoice in the dashboard, where should I look?",
];
const ANSWERED = [
  "Hi! They will be in your dashboard by Thursday.",
  "Done: it now goes out on Monday at 10:00.",
  "Yes, we can. I have added it to this month's work and will let you know when it is live.",
  "Of course, thank you for telling us. It will be updated today.",
];

const [staff] = await db.select().from(schema.users).where(eq(schema.users.email, "team@brandlift.test"));
if (!staff) throw new Error("Run tests/e2e/seed.ts first: the inbox's replies come from team@brandlift.test.");
for (let i = 0; i < THREADS; i++) {
  const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
  const customer = await createTestUser({ name, email: `inbox-${i + 1}@bench.test` });
  const messages = 3 + (i % 5);
  for (let m = 0; m < messages; m++) {
    // Staff answer every other message; a thread in three ends on its customer's, waiting on staff.
    const fromStaff = m % 2 === 1 && !(i % 3 === 0 && m === messages - 1);
    if (fromStaff) await postInThread(customer, ANSWERED[(i + m) % ANSWERED.length]!, staff);
    else await postInThread(customer, ASKED[(i + m) % ASKED.length]!);
  }
}
await settleBackgroundTasks();
console.log(`seeded the inbox: ${THREADS} threads`);
await database.close();
// A script, done: connections the app opened on the way (Redis for live events) must not keep it alive.
process.exit(0);
