import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";

import { z } from "~/domain/zod";
import { resendEmail } from "~/models/emails.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

// The page to go back to: a dashboard page, else the dashboard.
const resendForm = z.object({
  back: z
    .string()
    .regex(/^\/dashboard\/[\w/-]*$/)
    .optional()
    .catch(undefined),
});

/** POST /dashboard/emails/:emailId/resend (staff): a stored e-mail sent again, then back to the page it was listed on. */
export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: resendForm });
  const emailId = z.uuid().safeParse(params.emailId);
  if (!emailId.success || !(await resendEmail(staff, emailId.data))) throw pageNotFound();
  const back = submission.status === "success" ? submission.value.back : undefined;
  return redirectWithToast(back ?? "/dashboard", { type: "success", message: "The e-mail is on its way again." });
}
