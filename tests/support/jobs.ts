import { database } from "~/utils/db.server";

/*
 * Time for the job engine without waiting: pg-boss dates its jobs with the database's clock, so a
 * test moves every job's dates back instead of sleeping (a retry due in an hour is due now).
 */
export async function travelJobs(seconds: number) {
  await database.execute(
    `update pgboss.job set start_after = start_after - $1::int * interval '1 second',
       started_on = started_on - $1::int * interval '1 second', created_on = created_on - $1::int * interval '1 second'`,
    [seconds],
  );
}

/** The jobs of one kind, oldest first, as pg-boss holds them. */
export async function jobsOf(kind: string) {
  const { rows } = await database.execute(
    `select id, state::text as state, retry_count as "retryCount", start_after as "startAfter", output from pgboss.job where name = $1 order by created_on, id`,
    [kind],
  );
  return rows as { id: string; state: string; retryCount: number; startAfter: Date; output: { message?: string } | null }[];
}
