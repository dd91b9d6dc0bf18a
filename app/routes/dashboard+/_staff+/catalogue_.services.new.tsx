import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";

import { ServiceForm, type CatalogueReply } from "~/components/catalogue/forms";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { SERVICE_INTENTS } from "~/domain/schemas/catalogue";
import { catalogueFormAction } from "~/routes/dashboard+/_staff+/catalogue/catalogue-form.server";
import { requireCatalogueEditor } from "~/web/guards.server";

/** /dashboard/catalogue/services/new (staff): add a service; saved, it opens its own page (where its packages are added). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCatalogueEditor(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return catalogueFormAction(request, [SERVICE_INTENTS.create]);
}

export default function NewServicePage() {
  const reply = useActionData<typeof action>() as CatalogueReply | undefined;
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard/catalogue">Catalogue</BackLink>
      <PageHeader id="service-heading" title="Add a service" description="Active services show on the landing page and can be ordered at once." />
      <section aria-labelledby="service-heading" className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <ServiceForm reply={reply} />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Add a service | BrandLift" }];
