import type { ActionFunctionArgs } from "@remix-run/node";

import { z } from "~/domain/zod";
import { resendEmail } from "~/models/emails.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/** POST /dashboard/emails/:emailId/resend (staff): a stored e-mail sent again, then back to the page it was listed on. */
export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const form = await readForm(request);
  const emailId = z.uuid().safeParse(params.emailId);
  if (!emailId.success || !(await resendEmail(staff, emailId.data))) throw pageNotFound();
  const back = String(form.get("back") ?? "");
  return redirectWithToast(/^\/dashboard\/[\w/-]*$/.test(back) ? back : "/dashboard", { type: "success", message: "The e-mail is on its way again." });
}
