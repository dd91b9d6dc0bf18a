import { z } from "zod";

import { deleteSavedReply } from "~/models/saved-replies.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/* DELETE /api/saved-replies/:id — remove a saved reply (team). */

const params = z.object({ id: z.string() });

export const action = apiRoute(
  { method: "DELETE", auth: "team", params, response: z.object({ status: z.literal("success") }), summary: "Delete a saved reply." },
  async ({ params }) => {
    await deleteSavedReply(params.id);
    return { status: "success" };
  },
);

export const loader = methodNotAllowed;
