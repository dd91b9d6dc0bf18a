import { Link } from "@remix-run/react";
import { ArrowRight } from "lucide-react";

import { BriefsSection, GraderSection, NotesSection, OrdersSection, PlanSection, PurchasesSection } from "~/components/customer/customer-sections";
import type { CustomerProfile } from "~/domain/customer";

/** Beside an open conversation: who the customer is to us, from one profile read (models/customer-profile.server.ts). */
export function CustomerPane({ profile, noteError }: { profile: CustomerProfile; noteError?: string | null }) {
  return (
    <div className="space-y-3">
      <PlanSection profile={profile} idPrefix="pane" />
      <PurchasesSection profile={profile} idPrefix="pane" />
      <BriefsSection profile={profile} idPrefix="pane" />
      <OrdersSection profile={profile} idPrefix="pane" limit={3} />
      <GraderSection profile={profile} idPrefix="pane" />
      <NotesSection profile={profile} idPrefix="pane" error={noteError} />
      <Link to={`/dashboard/users/${profile.customer.id}`} className="row-link">
        Open the customer page
        <ArrowRight className="size-4" aria-hidden="true" />
      </Link>
    </div>
  );
}
