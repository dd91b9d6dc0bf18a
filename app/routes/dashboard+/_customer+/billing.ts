import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";

import { can } from "~/domain/permissions";
import { z } from "~/domain/zod";
import { billingPortalUrl, paymentMethodUrl, retryPayment } from "~/models/billing.server";
import { HttpError } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/billing: "Manage billing". Opens a Stripe customer portal session (with a key) or our
 * test billing page. A GET too, so the failed-payment e-mail's link lands in the same place.
 * A past-due plan's two steps post here too: "Update payment method" (the portal's payment-method
 * flow, or the test page's card step) and "Retry payment" (the open invoice, paid now).
 */
const stepForm = z.object({
  intent: z.enum(["manage", "payment-method", "retry"]).default("manage"),
  subscriptionId: z.string().max(100).optional(),
});

async function openBilling(request: Request, step: z.infer<typeof stepForm> = { intent: "manage" }) {
  const user = await requireUser(request);
  if (!can(user, "billing:manage")) throw redirect("/dashboard");
  const back = step.subscriptionId ? `/dashboard/plans/${encodeURIComponent(step.subscriptionId)}` : "/dashboard/services";
  try {
    if (step.intent === "retry") {
      const outcome = await retryPayment(user, step.subscriptionId ?? "");
      return redirectWithToast(back, outcome);
    }
    if (step.intent === "payment-method") return redirect(await paymentMethodUrl(user, step.subscriptionId ?? ""));
    return redirect(await billingPortalUrl(user));
  } catch (error) {
    if (error instanceof HttpError) return redirectWithToast(error.status === 404 ? "/dashboard/services" : back, { type: "error", message: error.message });
    throw error;
  }
}

export const loader = ({ request }: LoaderFunctionArgs) => openBilling(request);
export async function action({ request }: ActionFunctionArgs) {
  // "Manage billing" may be a bare POST (no fields); anything with a body is read within the limits.
  const form = request.headers.get("Content-Type") ? await readForm(request) : new FormData();
  const submission = parseWithZod(form, { schema: stepForm });
  if (submission.status !== "success") return redirectWithToast("/dashboard/services", { type: "error", message: "Please choose what to do in billing." });
  return openBilling(request, submission.value);
}
