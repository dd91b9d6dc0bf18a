import { BadgeCheck, CircleDollarSign, Clock, ShoppingBag, Users } from "lucide-react";
import { formatMoney } from "~/components/ui/file-size";
import { StatCard } from "~/components/ui/stat-card";

export type OverviewCounts =
  | { role: "team"; totalRevenue: number; servicesBooked: number; totalActiveUsers: number }
  | { role: "user"; totalServicesBooked: number; completed: number; inProgress: number };

const number = new Intl.NumberFormat("en-US");

/** The overview cards of spec §2, from the server's counts (contracts §3). */
export function Overview({ counts }: { counts: OverviewCounts }) {
  return (
    <section aria-label="Overview" className="grid gap-4 sm:grid-cols-3">
      {counts.role === "team" ? (
        <>
          <StatCard label="Total Revenue" value={formatMoney(counts.totalRevenue)} icon={CircleDollarSign} />
          <StatCard label="Services Booked" value={number.format(counts.servicesBooked)} icon={ShoppingBag} />
          <StatCard label="Active Users" value={number.format(counts.totalActiveUsers)} icon={Users} />
        </>
      ) : (
        <>
          <StatCard label="Total Services Booked" value={number.format(counts.totalServicesBooked)} icon={ShoppingBag} />
          <StatCard label="Completed" value={number.format(counts.completed)} icon={BadgeCheck} />
          <StatCard label="In Progress" value={number.format(counts.inProgress)} icon={Clock} />
        </>
      )}
    </section>
  );
}
