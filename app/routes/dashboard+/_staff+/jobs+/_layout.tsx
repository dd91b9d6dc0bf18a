import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { SectionBoundary } from "~/components/ui/section-error";
import { jobsOverview } from "~/models/background-jobs.server";
import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/jobs (staff): the job engine's work by kind (queued, running, failed), the failed jobs
 * with their errors and a Retry button each, and what runs or waits now. docs/decisions/270.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  const overview = await jobsOverview();
  const json = (job: (typeof overview.failed)[number]) => ({
    ...job,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    nextAttemptAt: job.nextAttemptAt.toISOString(),
  });
  return { kinds: overview.kinds, failed: overview.failed.map(json), running: overview.running.map(json), waiting: overview.waiting.map(json) };
}

type JobsData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function JobsPage() {
  return <JobsView {...useLoaderData<typeof loader>()} />;
}

const when = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

function JobsView({ kinds, failed, running, waiting }: JobsData) {
  return (
    <section aria-labelledby="jobs-heading" className="space-y-6">
      <h2 id="jobs-heading" className="text-xl font-bold text-slate-950">
        Background jobs
      </h2>
      <div className="relative overflow-x-auto rounded-card border border-slate-200 bg-white shadow-card">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Jobs by kind</caption>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-5 py-3 font-semibold">
                Kind
              </th>
              {["Queued", "Running", "Failed", "Done"].map((label) => (
                <th key={label} scope="col" className="px-5 py-3 text-right font-semibold">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {kinds.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-5 py-3 text-slate-600">
                  No jobs yet.
                </td>
              </tr>
            ) : (
              kinds.map((kind) => (
                <tr key={kind.kind}>
                  <th scope="row" className="px-5 py-3 font-medium text-slate-900">
                    {kind.kind}
                  </th>
                  <td className="px-5 py-3 text-right tabular-nums">{kind.queued}</td>
                  <td className="px-5 py-3 text-right tabular-nums">{kind.running}</td>
                  <td className={`px-5 py-3 text-right tabular-nums ${kind.failed > 0 ? "font-semibold text-red-700" : ""}`}>{kind.failed}</td>
                  <td className="px-5 py-3 text-right tabular-nums">{kind.completed}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <JobList id="failed-jobs" title="Failed" empty="No failed jobs." jobs={failed} retry />
      <JobList id="running-jobs" title="Running" empty="Nothing is running." jobs={running} />
      <JobList id="waiting-jobs" title="Waiting" empty="Nothing is waiting." jobs={waiting} />
    </section>
  );
}

function JobList({ id, title, empty, jobs, retry = false }: { id: string; title: string; empty: string; jobs: JobsData["failed"]; retry?: boolean }) {
  return (
    <section aria-labelledby={id} className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <h3 id={id} className="font-bold text-slate-950">
        {title}
      </h3>
      {jobs.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {jobs.map((job) => (
            <li key={job.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
              <div className="min-w-0 space-y-1">
                <p className="font-medium text-slate-900">{job.kind}</p>
                <p className="text-slate-600">
                  Queued {when(job.createdAt)} · {job.attempts} {job.attempts === 1 ? "attempt" : "attempts"}
                  {job.state === "retry" ? ` · next at ${when(job.nextAttemptAt)}` : ""}
                </p>
                {job.error ? <p className="text-xs break-all text-slate-600">Error: {job.error}</p> : null}
              </div>
              {retry ? (
                <Form method="post" action={`/dashboard/jobs/${job.id}/retry`}>
                  <Button type="submit" variant="outline" size="sm">
                    Retry<span className="sr-only"> {job.kind}</span>
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Background jobs — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<JobsData> message="Failed to load the jobs" render={(data) => <JobsView {...data} />} />;
}
