import { statusMessage } from "~/domain/schemas/api";
import { revokeSession } from "~/models/sessions.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { sessionCookie } from "~/web/auth.server";

/** POST /api/auth/logout: the bearer token (or the browser session) stops working at once. */
export const action = apiRoute(
  { method: "POST", auth: "any", duringSetup: true, response: statusMessage, summary: "Sign out: the token or session stops working at once." },
  async ({ identity }) => {
    await revokeSession(identity!.token);
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (identity!.via === "cookie") headers.append("Set-Cookie", await sessionCookie.serialize("", { maxAge: 0 }));
    return Response.json({ status: "success", message: "Logged out successfully!" }, { headers });
  },
);

export const loader = methodNotAllowed;
