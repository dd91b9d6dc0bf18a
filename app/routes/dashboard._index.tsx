import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";

/** The default tab by role: Users for staff, Services for customers. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return redirect(user.role === "team" ? "/dashboard/users" : "/dashboard/services");
}
