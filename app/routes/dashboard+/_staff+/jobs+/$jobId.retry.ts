import type { ActionFunctionArgs } from "@remix-run/node";

import { z } from "~/domain/zod";
import { retryJob } from "~/models/background-jobs.server";
import { requireTeam } from "~/web/auth.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/** POST /dashboard/jobs/:jobId/retry (staff): a failed job queued again with one more attempt. */
export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const jobId = z.uuid().safeParse(params.jobId);
  if (!jobId.success || !(await retryJob(staff, jobId.data))) throw pageNotFound();
  return redirectWithToast("/dashboard/jobs", { type: "success", message: "The job is queued again." });
}
