import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "~/domain/permissions";
import { requireUser } from "~/web/auth.server";

/** The default tab by role: Users for staff, Services for customers. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return redirect(can(user, "users:list") ? "/dashboard/users" : "/dashboard/services");
}
