import { z } from "zod";

import { chatAttachmentJson, statusData } from "~/domain/schemas/api";
import { receiveAttachment, toAttachmentJson } from "~/models/chat-attachments.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * POST /api/chat/attachments multipart `file`, `roomId` — a file for a chat message (thread
 * members). Images (jpeg, png, gif, webp) and PDFs up to 10 MiB, checked by extension and
 * content. The client then sends it: supportMessage / sendMessage with messageType "file" and
 * attachmentId. Someone else's room: 404, and nothing stays in storage. Per account: 10 uploads a
 * minute (429) and 200 MB kept (413); an upload never sent is removed after a day (decision 130).
 */

const response = statusData(z.object({ attachment: chatAttachmentJson }));

export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    scope: "messages:write",
    status: 201,
    errors: [404],
    response,
    summary: "Upload a file to send in a chat (thread members).",
    rawBody: {
      contentType: "multipart/form-data",
      schema: z.object({ file: z.string().meta({ format: "binary" }), roomId: z.string() }),
    },
  },
  async ({ user, request }) => {
    const row = await receiveAttachment(user, request);
    return { status: "success", data: { attachment: toAttachmentJson(row) } };
  },
);

export const loader = methodNotAllowed;
