import { z } from "zod";

import { chatAttachmentJson, statusData } from "~/domain/schemas/api";
import { createAttachmentUrl, getAttachmentFor, toAttachmentJson } from "~/models/chat-attachments.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/** GET /api/chat/attachments/:id — a signed link to the file, valid five minutes, for the thread's members only. */

const params = z.object({ id: uuidParam("Attachment not found.") });
const response = statusData(z.object({ attachment: chatAttachmentJson, downloadUrl: z.string() }));

export const loader = apiRoute(
  { method: "GET", auth: "any", params, response, summary: "A short-lived signed link to a chat attachment (thread members)." },
  async ({ user, params }) => {
    const row = await getAttachmentFor(user, params.id);
    return { status: "success", data: { attachment: toAttachmentJson(row), downloadUrl: createAttachmentUrl(row.id) } };
  },
);

export const action = methodNotAllowed;
