import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { BriefSection } from "~/components/brief/question-editor";
import { ChangeLog } from "~/components/catalogue/change-log";
import { PackagesForm, ServiceForm, type CatalogueReply } from "~/components/catalogue/forms";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { Badge } from "~/components/ui/badge";
import { formatCents } from "~/domain/format";
import { SERVICE_INTENTS } from "~/domain/schemas/catalogue";
import { getBriefQuestions } from "~/models/briefs.server";
import { readServiceForEditor } from "~/models/catalogue.server";
import { catalogueFormAction, toChangeLogEntry } from "~/routes/dashboard+/_staff+/catalogue/catalogue-form.server";
import { pageNotFound, requireCatalogueEditor } from "~/web/guards.server";

/*
 * /dashboard/catalogue/services/:serviceId (staff): one service's details, its three "Our
 * Services" packages, and its own changes. Each form posts here and comes back with a toast.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCatalogueEditor(request);
  const service = await readServiceForEditor(params.serviceId ?? "");
  if (!service) throw pageNotFound();
  return {
    service: {
      id: service.id,
      name: service.name,
      description: service.description,
      priceCents: service.priceCents,
      active: service.active,
      sortOrder: service.sortOrder,
      packages: service.packages.map((tier) => ({
        tier: tier.tier,
        name: tier.name,
        description: tier.description,
        priceCents: tier.priceCents,
        features: tier.features,
      })),
    },
    changes: service.changes.map(toChangeLogEntry),
    questions: await getBriefQuestions("service", service.id),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return catalogueFormAction(request, [SERVICE_INTENTS.update, SERVICE_INTENTS.packages], { subject: "service", id: params.serviceId ?? "" });
}

export default function ServicePage() {
  const { service, changes, questions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as CatalogueReply | undefined;
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard/catalogue">Catalogue</BackLink>
      <PageHeader
        id="service-heading"
        title={service.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-800 tabular-nums">{formatCents(service.priceCents)}</span>
            {service.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>}
          </span>
        }
      />
      <section aria-labelledby="details-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <h3 id="details-heading" className="text-lg font-semibold text-slate-950">
          Details
        </h3>
        {/* Keyed by the service: another service's page starts from its own values. */}
        <ServiceForm key={service.id} service={service} reply={reply} />
      </section>
      <section aria-labelledby="packages-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <div>
          <h3 id="packages-heading" className="text-lg font-semibold text-slate-950">
            Packages
          </h3>
          <p className="text-sm text-slate-600">
            {service.packages.length === 3
              ? "Shown as a card under Our Services on the landing page."
              : "No packages yet: saving three shows the service as a card under Our Services."}
          </p>
        </div>
        <PackagesForm
          key={service.id}
          serviceId={service.id}
          serviceName={service.name}
          servicePriceCents={service.priceCents}
          tiers={service.packages}
          reply={reply}
        />
      </section>
      <BriefSection subjectId={service.id} subjectName={service.name} questions={questions} reply={reply} />
      <section aria-labelledby="history-heading" className="space-y-3">
        <h3 id="history-heading" className="text-lg font-semibold text-slate-950">
          Changes to this service
        </h3>
        <ChangeLog changes={changes} />
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.service.name ?? "Service"} | Catalogue | BrandLift` }];
