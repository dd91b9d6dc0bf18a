import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { requireTeam } from "~/web/auth.server";

/**
 * /dashboard/customers/:customerId: the customer page's former address. Staff have one page per
 * customer, /dashboard/users/:id (decision 280); links kept from before lead there.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireTeam(request);
  throw redirect(`/dashboard/users/${encodeURIComponent(params.customerId ?? "")}`, 301);
}
