import { redirect, type ActionFunctionArgs } from "@remix-run/node";

import { endSession } from "~/web/auth.server";
import { redirectWithToast } from "~/web/toast.server";

/** POST only: ends the session server-side (the row is deleted), clears the cookie, goes home. */
export async function action({ request }: ActionFunctionArgs) {
  const clearedCookie = await endSession(request);
  return redirectWithToast("/", { type: "success", message: "Logged out successfully!" }, { headers: { "Set-Cookie": clearedCookie } });
}

// Signing out is a state change, so a link or a prefetch can never do it.
export function loader() {
  return redirect("/");
}
