import { methodNotAllowed } from "~/utils/http.server";
import { userAccessRoute } from "~/web/user-access-routes.server";

export const loader = methodNotAllowed;

/** POST /api/users/:id/disable (staff): its sessions, API tokens and sockets end at once; it cannot sign in. */
export const action = userAccessRoute("disable");
