import { readCustomerBadges, readStaffBadges } from "~/models/badges.server";
import { getUnreadCountsForTeam } from "~/models/chat.server";
import { oncePerRequest } from "~/utils/request-context.server";

/**
 * Staff's unread counts per customer, read once per request: the sidebar's badges (the dashboard
 * layout) and a customer's page (its Message tab) show the same figures, and their loaders run side
 * by side for one document. The layout passes `read` (its badges' one statement) and, running first,
 * is the one that reads.
 */
export function teamUnreadCounts(
  request: Request,
  read: () => ReturnType<typeof getUnreadCountsForTeam> = getUnreadCountsForTeam,
): ReturnType<typeof getUnreadCountsForTeam> {
  return oncePerRequest(request, "team-unread", read);
}

/** The dashboard layout's badges for staff (unread chat and the bell), one statement per request. */
export function staffBadges(request: Request, userId: string): ReturnType<typeof readStaffBadges> {
  return oncePerRequest(request, "staff-badges", () => readStaffBadges(userId));
}

/** The dashboard layout's badges for a client of one (its thread's unread count and the bell), one statement per request. */
export function customerBadges(request: Request, userId: string): ReturnType<typeof readCustomerBadges> {
  return oncePerRequest(request, "customer-badges", () => readCustomerBadges(userId));
}
