import { listActiveServices, toServiceJson } from "~/models/services.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed } from "~/utils/http.server";

/** GET /api/services: the active a-la-carte catalogue in display order. Public. */
export const loader = apiRoute({ auth: "none" }, async () => {
  const services = await listActiveServices();
  return { success: true, data: services.map(toServiceJson) };
});

export const action = methodNotAllowed;
