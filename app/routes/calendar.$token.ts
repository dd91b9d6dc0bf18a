import type { LoaderFunctionArgs } from "@remix-run/node";

import { calendarFeed } from "~/models/calendar-links.server";

/*
 * GET /calendar/:token.ics — a customer's private iCalendar feed: one event per approved or
 * published post. The link is the credential (decision 212): an unknown or renewed token is a
 * plain 404, never a page, so a calendar app shows a plain error.
 */

const headers = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff" };

export async function loader({ params }: LoaderFunctionArgs) {
  const match = /^(.+)\.ics$/.exec(params.token ?? "");
  const feed = match ? await calendarFeed(match[1]!) : null;
  if (feed === null) return new Response("Not found.\n", { status: 404, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(feed, {
    headers: { ...headers, "Content-Type": "text/calendar; charset=utf-8", "Content-Disposition": 'inline; filename="brandlift-posts.ics"' },
  });
}
