import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { noteJson, noteSchema } from "~/domain/schemas/workspace";
import { addThreadNote, toNoteJson } from "~/models/thread-notes.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/* POST /api/chat/threads/:customerId/notes {body} — an internal note on a customer's thread (team). */

const params = z.object({ customerId: uuidParam("Conversation not found.") });

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    body: noteSchema,
    status: 201,
    response: statusData(z.object({ note: noteJson })),
    summary: "Add an internal note to a customer's thread (team); never shown to the customer.",
  },
  async ({ user, params, body }) => {
    const note = await addThreadNote(user, params.customerId, body.body);
    return { status: "success", data: { note: toNoteJson(note) } };
  },
);

export const loader = methodNotAllowed;
