import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { BriefPage } from "~/components/brief/brief-page";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { briefPageAction, briefPageLoader } from "~/routes/dashboard+/brief/brief-page.server";

/** /dashboard/plans/:subscriptionId/brief: the plan's brief; its owner answers it, staff read it (brief/brief-page.server.ts). */

export async function loader({ request, params }: LoaderFunctionArgs) {
  return briefPageLoader(request, { kind: "subscription", id: params.subscriptionId ?? "" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return briefPageAction(request, { kind: "subscription", id: params.subscriptionId ?? "" });
}

export default function PlanBrief() {
  return <BriefPage data={useLoaderData<typeof loader>()} reply={useActionData<typeof action>()} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Brief for ${data?.title ?? "your plan"} — BrandLift dashboard` }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/services" backLabel="Back to services" />;
}
