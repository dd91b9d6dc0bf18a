import { useLocation } from "@remix-run/react";
import { BadgeCheck, CircleDollarSign, Clock, Repeat, ShoppingBag, Users } from "lucide-react";
import { useState } from "react";

import { SectionError } from "~/components/ui/section-error";
import { StatCard } from "~/components/ui/stat-card";
import { dollarsToCents, formatCents } from "~/domain/format";
import type { Section } from "~/domain/section";

export type OverviewCounts =
  | { role: "team"; totalRevenueCents: number; servicesBooked: number; totalActiveUsers: number; mrrCents?: number; activeSubscribers?: number }
  | { role: "user"; totalServicesBooked: number; completed: number; inProgress: number };

const number = new Intl.NumberFormat("en-US");
export const OVERVIEW_FAILED = "Failed to load the overview";

/**
 * The overview cards, from the server's counts. When they could not be read, the
 * cards' place says so, and Retry asks GET /api/users/count again (only the counts).
 */
export function Overview({ counts: given, role }: { counts: Section<OverviewCounts> | OverviewCounts; role?: "user" | "team" }) {
  // Plain counts are a section that loaded.
  const counts: Section<OverviewCounts> = "ok" in given ? given : { ok: true, data: given };
  const location = useLocation();
  const [retried, setRetried] = useState<OverviewCounts | null>(null);
  const [retrying, setRetrying] = useState(false);
  const shown = counts.ok ? counts.data : retried;
  if (!shown) {
    const retry = async () => {
      setRetrying(true);
      try {
        const response = await fetch("/api/users/count", { headers: { Accept: "application/json" }, credentials: "same-origin" });
        // The API's counts: staff's revenue comes in dollars, screens take cents.
        const body = (await response.json()) as { data?: { serviceCounts?: Record<string, number> } };
        const { totalRevenue, ...counts } = body.data?.serviceCounts ?? {};
        if (response.ok && body.data?.serviceCounts) {
          setRetried({
            role: role ?? "user",
            ...counts,
            ...(totalRevenue === undefined ? {} : { totalRevenueCents: dollarsToCents(totalRevenue) }),
          } as OverviewCounts);
        }
      } catch (error) {
        console.warn("overview counts failed:", error);
      } finally {
        setRetrying(false);
      }
    };
    return (
      <section aria-label="Overview">
        <SectionError
          message={OVERVIEW_FAILED}
          retryHref={`${location.pathname}${location.search}`}
          onRetry={() => void retry()}
          retrying={retrying}
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
