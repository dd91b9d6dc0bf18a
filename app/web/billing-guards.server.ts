import { getSubscriptionFor, toSubscriptionJson } from "~/models/subscriptions.server";
import { requireUser } from "~/web/auth.server";
import { asPageError } from "~/web/guards.server";

/** The signed-in user and one plan they may see (their own; staff: any); otherwise the page's 404. */
export async function loadOwnSubscription(request: Request, subscriptionId: string | undefined) {
  const user = await requireUser(request);
  const row = await getSubscriptionFor(user, subscriptionId ?? "").catch(asPageError);
  return { user, row, subscription: await toSubscriptionJson(row) };
}
