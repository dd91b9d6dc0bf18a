import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, useActionData, useLoaderData } from "@remix-run/react";

import { ChangeLog, type ChangeLogEntry } from "~/components/catalogue/change-log";
import { PackagesForm, PlanForm, ServiceForm, type CatalogueReply } from "~/components/catalogue/forms";
import { Badge } from "~/components/ui/badge";
import { formatPlanPrice } from "~/domain/catalogue";
import { formatMoney } from "~/domain/format";
import { can } from "~/domain/permissions";
import { packagesFormSchema, planFormSchema, SERVICE_INTENTS, serviceFormSchema } from "~/domain/schemas/catalogue";
import type { z } from "~/domain/zod";
import { CatalogueFieldError, createService, readCatalogueForEditor, savePackages, updatePlan, updateService } from "~/models/catalogue.server";
import { HttpError } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/catalogue (staff): services (name, description, a-la-carte price, active, display
 * order), each service's three packages, the monthly plans, and the log of every change. The
 * landing page shows a change within its cache period; the next checkout charges the new price.
 */

async function requireCatalogueEditor(request: Request) {
  const user = await requireUser(request);
  if (!can(user, "catalogue:manage")) throw new Response("Not allowed", { status: 403 });
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCatalogueEditor(request);
  const catalogue = await readCatalogueForEditor();
  return {
    services: catalogue.services.map((service) => ({
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
    })),
    plans: catalogue.plans.map((plan) => ({ id: plan.id, key: plan.key, name: plan.name, priceCents: plan.priceCents, features: plan.features })),
    changes: catalogue.changes.map((change): ChangeLogEntry => ({ ...change, before: change.before ?? null, createdAt: change.createdAt.toISOString() })),
  };
}

const SCHEMAS = {
  [SERVICE_INTENTS.create]: serviceFormSchema,
  [SERVICE_INTENTS.update]: serviceFormSchema,
  [SERVICE_INTENTS.packages]: packagesFormSchema,
  [SERVICE_INTENTS.plan]: planFormSchema,
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCatalogueEditor(request);
  const form = await readForm(request);
  const formId = String(form.get("formId") ?? "").slice(0, 80);
  const intent = String(form.get("intent") ?? "") as keyof typeof SCHEMAS;
  const schema = SCHEMAS[intent];
  if (!schema) return data({ formId, result: { status: "error", error: { "": ["Please choose what to change."] } } } as CatalogueReply, { status: 400 });
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data<CatalogueReply>({ formId, result: submission.reply() }, { status: 400 });
  const actor = { id: user.id, name: user.name };
  try {
    const value = submission.value;
    let message: string;
    if (value.intent === SERVICE_INTENTS.create || value.intent === SERVICE_INTENTS.update) {
      const input = {
        name: value.name,
        description: value.description ?? null,
        priceCents: value.price,
        active: value.active === "on",
        sortOrder: value.displayOrder,
      };
      const service = value.intent === SERVICE_INTENTS.create ? await createService(actor, input) : await updateService(actor, value.id ?? "", input);
      message = value.intent === SERVICE_INTENTS.create ? `${service.name} was added.` : `${service.name} was saved.`;
    } else if (value.intent === SERVICE_INTENTS.packages) {
      await savePackages(
        actor,
        value.serviceId,
        value.tiers.map((tier) => ({ name: tier.name, description: tier.description, priceCents: tier.price ?? null, features: tier.features })),
      );
      message = "The packages were saved.";
    } else {
      const { id, price, features } = value as z.infer<typeof planFormSchema>;
      const plan = await updatePlan(actor, id, { priceCents: price, features });
      message = `${plan.name} was saved.`;
    }
    return redirectWithToast("/dashboard/catalogue", { type: "success", message });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result =
      error instanceof CatalogueFieldError
        ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
        : submission.reply({ formErrors: [error.message] });
    return data<CatalogueReply>({ formId, result }, { status: error.status });
  }
}

export default function CataloguePage() {
  const { services, plans, changes } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as CatalogueReply | undefined;
  return (
    <div className="space-y-10">
      <header className="space-y-1">
        <h2 className="text-xl font-bold text-slate-950">Catalogue</h2>
        <p className="text-sm text-slate-600">
          Prices here are what the landing page shows and what the next checkout charges. Orders already placed and running subscriptions keep the price they
          were bought at. A change shows on the landing page within a few seconds.
        </p>
      </header>

      <section aria-labelledby="services-heading" className="space-y-4">
        <h3 id="services-heading" className="text-lg font-semibold text-slate-950">
          Services
        </h3>
        {/* Keyed by the number of services: after an add it starts again closed and empty. */}
        <details key={services.length} className="rounded-card border border-brand-200 bg-white p-5 shadow-card" open={reply?.formId === "service-new"}>
          <summary className="cursor-pointer text-base font-semibold text-brand-800">Add a service</summary>
          <div className="mt-4">
            <ServiceForm reply={reply} />
          </div>
        </details>
        <ul className="space-y-4">
          {services.map((service) => (
            <li key={service.id} className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <div className="mb-4 flex flex-wrap items-center gap-3">
                <h4 className="text-base font-semibold text-slate-950">{service.name}</h4>
                <span className="text-sm font-semibold text-slate-700 tabular-nums">{formatMoney(service.priceCents / 100)}</span>
                {service.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>}
              </div>
              <ServiceForm service={service} reply={reply} />
              <details className="mt-4 border-t border-slate-100 pt-4" open={reply?.formId === `packages-${service.id}`}>
                <summary className="cursor-pointer text-sm font-semibold text-brand-800">
                  {service.packages.length === 3 ? "Packages (Our Services)" : "Add packages (shows the service under Our Services)"}
                  <span className="sr-only"> of {service.name}</span>
                </summary>
                <div className="mt-4">
                  <PackagesForm
                    serviceId={service.id}
                    serviceName={service.name}
                    servicePriceCents={service.priceCents}
                    tiers={service.packages}
                    reply={reply}
                  />
                </div>
              </details>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="plans-heading" className="space-y-4">
        <h3 id="plans-heading" className="text-lg font-semibold text-slate-950">
          Monthly plans
        </h3>
        <ul className="grid gap-4 lg:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.id} className="rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <h4 className="mb-3 flex flex-wrap items-baseline justify-between gap-2 text-base font-semibold text-slate-950">
                {plan.name} <span className="text-sm text-slate-700 tabular-nums">{formatPlanPrice(plan)}</span>
              </h4>
              <PlanForm plan={plan} reply={reply} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="changes-heading" className="space-y-4">
        <h3 id="changes-heading" className="text-lg font-semibold text-slate-950">
          Change log
        </h3>
        <ChangeLog changes={changes} />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Catalogue | BrandLift" }];
