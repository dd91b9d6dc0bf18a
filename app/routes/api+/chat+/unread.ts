import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { getUnreadCountsForTeam } from "~/models/chat.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/chat/unread — the support inbox's unread messages per thread key (the customer's id; a
 * visitor thread's own id), only threads with any (team). The sidebar's live total asks for them
 * when a live event first changes a thread, where the page carries only the total
 * (docs/decisions/323-sidebar-unread-total.md).
 */

const response = statusData(z.object({ byCustomer: z.record(z.string(), z.number().int()) }));

export const loader = apiRoute(
  { method: "GET", auth: "team", response, summary: "Unread customer messages per support thread, those with any (team)." },
  async () => {
    const { byCustomer } = await getUnreadCountsForTeam();
    return { status: "success", data: { byCustomer } };
  },
);

export const action = methodNotAllowed;
