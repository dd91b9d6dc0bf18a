import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { savedReplyJson, savedReplySchema } from "~/domain/schemas/workspace";
import { createSavedReply, listSavedReplies, toSavedReplyJson } from "~/models/saved-replies.server";
import { apiRoute } from "~/web/api.server";

/* GET /api/saved-replies, POST /api/saved-replies {title, body} — the team's saved replies. */

export const loader = apiRoute(
  { method: "GET", auth: "team", response: statusData(z.object({ replies: savedReplyJson.array() })), summary: "The team's saved replies, by title." },
  async () => ({ status: "success", data: { replies: (await listSavedReplies()).map(toSavedReplyJson) } }),
);

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    body: savedReplySchema,
    status: 201,
    response: statusData(z.object({ reply: savedReplyJson })),
    summary: "Save a reply for the team.",
  },
  async ({ user, body }) => ({ status: "success", data: { reply: toSavedReplyJson(await createSavedReply(user, body)) } }),
);
