import { z } from "zod";

import { INBOX_FILTERS, INBOX_MAX_PAGE_SIZE, INBOX_PAGE_SIZE } from "~/domain/inbox";
import { statusData, threadJson } from "~/domain/schemas/api";
import { listThreads } from "~/models/inbox.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/chat/threads — the support inbox (team): every thread, latest message first, from the
 * thread summary. `status` open|closed, `search` by name, e-mail or message text; ours:
 * `filter` unassigned|mine|closed (mine = assigned to the caller).
 */

const limitMessage = `limit must be a number from 1 to ${INBOX_MAX_PAGE_SIZE}.`;
const query = z.object({
  status: z.enum(["open", "closed"], { message: "status must be open or closed." }).optional(),
  filter: z.enum(INBOX_FILTERS, { message: "filter must be all, unassigned, mine or closed." }).optional(),
  search: z.string().max(200, { message: "search must be at most 200 characters." }).optional(),
  page: z.coerce
    .number({ message: "page must be a positive number." })
    .int({ message: "page must be a positive number." })
    .min(1, { message: "page must be a positive number." })
    .default(1),
  limit: z.coerce
    .number({ message: limitMessage })
    .int({ message: limitMessage })
    .min(1, { message: limitMessage })
    .max(INBOX_MAX_PAGE_SIZE, { message: limitMessage })
    .default(INBOX_PAGE_SIZE),
});

const response = statusData(z.object({ threads: threadJson.array(), total: z.number().int() }));

export const loader = apiRoute(
  { method: "GET", auth: "team", query, response, summary: "The support inbox: every thread, latest message first (team)." },
  async ({ user, query }) => {
    const { threads, total } = await listThreads({ ...query, viewerId: user.id });
    return { status: "success", data: { threads, total } };
  },
);

export const action = methodNotAllowed;
