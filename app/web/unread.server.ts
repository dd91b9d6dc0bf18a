import { getUnreadCountsForTeam } from "~/models/chat.server";
import { oncePerRequest } from "~/utils/request-context.server";

/**
 * Staff's unread counts per customer, read once per request: the sidebar's badges (the dashboard
 * layout) and a customer's page (its Message tab) show the same figures, and their loaders run side
 * by side for one document.
 */
export function teamUnreadCounts(request: Request): ReturnType<typeof getUnreadCountsForTeam> {
  return oncePerRequest(request, "team-unread", getUnreadCountsForTeam);
}
