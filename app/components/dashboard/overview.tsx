import { useLocation, useRevalidator } from "@remix-run/react";

import { BadgeCheck, CircleDollarSign, Clock, Repeat, ShoppingBag, Users } from "~/components/ui/icons";
import { SectionError } from "~/components/ui/section-error";
import { StatCard } from "~/components/ui/stat-card";
import { formatCents } from "~/domain/format";
import type { Section } from "~/domain/section";

export type OverviewCounts =
  | { role: "team"; totalRevenueCents: number; servicesBooked: number; totalActiveUsers: number; mrrCents?: number; activeSubscribers?: number }
  | { role: "user"; totalServicesBooked: number; completed: number; inProgress: number };

const number = new Intl.NumberFormat("en-US");
export const OVERVIEW_FAILED = "Failed to load the overview";

/**
 * The overview cards, from the server's counts. When they could not be read, the cards' place says
 * so, and Retry loads the page's data again (its loader, as the page itself reads it).
 */
export function Overview({ counts: given }: { counts: Section<OverviewCounts> | OverviewCounts }) {
  // Plain counts are a section that loaded.
  const counts: Section<OverviewCounts> = "ok" in given ? given : { ok: true, data: given };
  const location = useLocation();
  const revalidator = useRevalidator();
  const shown = counts.ok ? counts.data : null;
  if (!shown) {
    return (
      <section aria-label="Overview">
        <SectionError
          message={OVERVIEW_FAILED}
          retryHref={`${location.pathname}${location.search}`}
          onRetry={() => revalidator.revalidate()}
          retrying={revalidator.state !== "idle"}
          className="py-6"
        />
      </section>
    );
  }
  return (
    <section
      aria-label="Overview"
      className={
        shown.role === "team" && shown.mrrCents !== undefined ? "grid gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-5" : "grid gap-4 sm:grid-cols-3"
      }
    >
      {shown.role === "team" ? (
        <>
          <StatCard label="Total Revenue" value={formatCents(shown.totalRevenueCents)} icon={CircleDollarSign} />
          <StatCard label="Services Booked" value={number.format(shown.servicesBooked)} icon={ShoppingBag} />
          <StatCard label="Active Users" value={number.format(shown.totalActiveUsers)} icon={Users} />
          {shown.mrrCents !== undefined ? <StatCard label="Monthly Recurring Revenue" value={formatCents(shown.mrrCents)} icon={Repeat} /> : null}
          {shown.activeSubscribers !== undefined ? (
            <StatCard label="Active Subscribers" value={number.format(shown.activeSubscribers)} icon={BadgeCheck} />
          ) : null}
        </>
      ) : (
        <>
          <StatCard label="Total Services Booked" value={number.format(shown.totalServicesBooked)} icon={ShoppingBag} />
          <StatCard label="Completed" value={number.format(shown.completed)} icon={BadgeCheck} />
          <StatCard label="In Progress" value={number.format(shown.inProgress)} icon={Clock} />
        </>
      )}
    </section>
  );
}
