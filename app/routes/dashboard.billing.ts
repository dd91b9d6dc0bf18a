import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "~/domain/permissions";
import { billingPortalUrl } from "~/models/billing.server";
import { HttpError } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/billing: "Manage billing". Opens a Stripe customer portal session (with a key) or our
 * test billing page. A GET too, so the failed-payment e-mail's link lands in the same place.
 */
async function openBilling(request: Request) {
  const user = await requireUser(request);
  if (!can(user, "billing:manage")) throw redirect("/dashboard");
  try {
    return redirect(await billingPortalUrl(user));
  } catch (error) {
    if (error instanceof HttpError) return redirectWithToast("/dashboard/services", { type: "error", message: error.message });
    throw error;
  }
}

export const loader = ({ request }: LoaderFunctionArgs) => openBilling(request);
export const action = ({ request }: ActionFunctionArgs) => openBilling(request);
