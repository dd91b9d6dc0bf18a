import { getUnreadCountsForTeam } from "~/models/chat.server";

const perRequest = new WeakMap<Request, ReturnType<typeof getUnreadCountsForTeam>>();

/**
 * Staff's unread counts per customer, read once per request: the sidebar's badges (the dashboard
 * layout) and a customer's page (its Message tab) show the same figures, and their loaders run side
 * by side for one document.
 */
export function teamUnreadCounts(request: Request): ReturnType<typeof getUnreadCountsForTeam> {
  let counts = perRequest.get(request);
  if (!counts) {
    counts = getUnreadCountsForTeam();
    perRequest.set(request, counts);
  }
  return counts;
}
