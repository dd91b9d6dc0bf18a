import { methodNotAllowed } from "~/utils/http.server";
import { userAccessRoute } from "~/web/user-access-routes.server";

export const loader = methodNotAllowed;

/** POST /api/users/:id/enable (staff): it can sign in again. */
export const action = userAccessRoute("enable");
