import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { BriefSection } from "~/components/brief/question-editor";
import { ChangeLog } from "~/components/catalogue/change-log";
import { PlanForm, type CatalogueReply } from "~/components/catalogue/forms";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { formatPlanPrice } from "~/domain/catalogue";
import { SERVICE_INTENTS } from "~/domain/schemas/catalogue";
import { getBriefQuestions } from "~/models/briefs.server";
import { readPlanForEditor } from "~/models/catalogue.server";
import { catalogueFormAction, toChangeLogEntry } from "~/routes/dashboard+/_staff+/catalogue/catalogue-form.server";
import { pageNotFound, requireCatalogueEditor } from "~/web/guards.server";

/*
 * /dashboard/catalogue/plans/:planId (staff): a monthly plan's price and features, and its changes.
 * The next sign-up pays the new price; running subscriptions keep theirs.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCatalogueEditor(request);
  const plan = await readPlanForEditor(params.planId ?? "");
  if (!plan) throw pageNotFound();
  return {
    plan: { id: plan.id, name: plan.name, priceCents: plan.priceCents, features: plan.features },
    changes: plan.changes.map(toChangeLogEntry),
    questions: await getBriefQuestions("plan", plan.id),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return catalogueFormAction(request, [SERVICE_INTENTS.plan], { subject: "plan", id: params.planId ?? "" });
}

export default function PlanPage() {
  const { plan, changes, questions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as CatalogueReply | undefined;
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard/catalogue">Catalogue</BackLink>
      <PageHeader
        id="plan-heading"
        title={plan.name}
        description={`${formatPlanPrice(plan)}. The next sign-up pays a new price; running plans keep the price they were bought at.`}
      />
      <section aria-labelledby="plan-heading" className="max-w-2xl rounded-card border border-slate-200 bg-white p-5 shadow-card">
        <PlanForm key={plan.id} plan={plan} reply={reply} />
      </section>
      <BriefSection subjectId={plan.id} subjectName={plan.name} questions={questions} reply={reply} />
      <section aria-labelledby="history-heading" className="space-y-3">
        <h3 id="history-heading" className="text-lg font-semibold text-slate-950">
          Changes to this plan
        </h3>
        <ChangeLog changes={changes} />
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.plan.name ?? "Plan"} | Catalogue | BrandLift` }];
