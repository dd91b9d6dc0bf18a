import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Plus } from "lucide-react";

import { ChangeLog } from "~/components/catalogue/change-log";
import { PlansTable, ServicesTable, type LastChangeView } from "~/components/catalogue/tables";
import { PageHeader } from "~/components/dashboard/page-header";
import { ButtonLink } from "~/components/ui/button";
import { SERVICE_INTENTS } from "~/domain/schemas/catalogue";
import { readCatalogueForEditor, type LastChange } from "~/models/catalogue.server";
import { catalogueFormAction, toChangeLogEntry } from "~/routes/dashboard+/_staff+/catalogue/catalogue-form.server";
import { requireCatalogueEditor } from "~/web/guards.server";

/*
 * /dashboard/catalogue (staff, decision 190): the services in the landing page's order (name, price,
 * status, display order with up and down, packages, last change) and the monthly plans, each
 * name opening its own page to edit; then the latest changes. `?changes=all` shows the last 200.
 * A change shows on the landing page within a few seconds; the next checkout charges the new price.
 */

const RECENT_CHANGES = 8;
const ALL_CHANGES = 200;

const lastChangeView = (change: LastChange | null): LastChangeView | null => (change ? { at: change.at.toISOString(), by: change.by } : null);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCatalogueEditor(request);
  const allChanges = new URL(request.url).searchParams.get("changes") === "all";
  const catalogue = await readCatalogueForEditor(allChanges ? ALL_CHANGES : RECENT_CHANGES + 1);
  return {
    services: catalogue.services.map((service) => ({
      id: service.id,
      name: service.name,
      priceCents: service.priceCents,
      active: service.active,
      sortOrder: service.sortOrder,
      packageCount: service.packages.length,
      lastChange: lastChangeView(service.lastChange),
    })),
    plans: catalogue.plans.map((plan) => ({
      id: plan.id,
      name: plan.name,
      priceCents: plan.priceCents,
      featureCount: plan.features.length,
      lastChange: lastChangeView(plan.lastChange),
    })),
    changes: catalogue.changes.slice(0, allChanges ? ALL_CHANGES : RECENT_CHANGES).map(toChangeLogEntry),
    moreChanges: !allChanges && catalogue.changes.length > RECENT_CHANGES,
  };
}

/** The up and down buttons; every other form posts to its own page. */
export async function action({ request }: ActionFunctionArgs) {
  return catalogueFormAction(request, [SERVICE_INTENTS.move]);
}

export default function CataloguePage() {
  const { services, plans, changes, moreChanges } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <PageHeader
        id="catalogue-heading"
        title="Catalogue"
        description="What the landing page offers and what the next checkout charges. Orders already placed and running plans keep their price."
        actions={
          <ButtonLink to="/dashboard/catalogue/services/new" size="sm">
            <Plus className="size-4" aria-hidden="true" />
            Add a service
          </ButtonLink>
        }
      />

      <section aria-labelledby="services-heading" className="space-y-3">
        <h3 id="services-heading" className="text-lg font-semibold text-slate-950">
          Services <span className="text-sm font-normal text-slate-600">({services.length})</span>
        </h3>
        {services.length === 0 ? <p className="text-sm text-slate-600">No services yet.</p> : <ServicesTable services={services} />}
      </section>

      <section aria-labelledby="plans-heading" className="space-y-3">
        <h3 id="plans-heading" className="text-lg font-semibold text-slate-950">
          Monthly plans
        </h3>
        <PlansTable plans={plans} />
      </section>

      <section aria-labelledby="changes-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="changes-heading" className="text-lg font-semibold text-slate-950">
            Change log
          </h3>
          {moreChanges ? (
            <Link to="?changes=all" className="text-sm font-semibold text-brand-700 hover:underline">
              Show all changes
            </Link>
          ) : null}
        </div>
        <ChangeLog changes={changes} />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Catalogue | BrandLift" }];
