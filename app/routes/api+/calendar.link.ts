import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { calendarLinkFor, renewCalendarLink } from "~/models/calendar-links.server";
import { apiRoute } from "~/web/api.server";

/*
 * GET /api/calendar/link — the signed-in customer's private iCalendar link (made on first asking).
 * POST /api/calendar/link — a new link; the old one stops working at once (decision 212).
 */

const linkResponse = statusData(z.object({ url: z.string().url() }));

export const loader = apiRoute(
  {
    method: "GET",
    auth: "user",
    allow: "calendar:own",
    response: linkResponse,
    summary: "Your private iCalendar link (/calendar/<token>.ics): approved and published posts, for a calendar app.",
  },
  async ({ user }) => ({ status: "success", data: { url: await calendarLinkFor(user.id) } }),
);

export const action = apiRoute(
  {
    method: "POST",
    auth: "user",
    allow: "calendar:own",
    response: linkResponse,
    summary: "Renew your private iCalendar link: the previous link stops working at once.",
  },
  async ({ user }) => ({ status: "success", data: { url: await renewCalendarLink(user.id) } }),
);
