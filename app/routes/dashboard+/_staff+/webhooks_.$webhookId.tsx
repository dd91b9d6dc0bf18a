import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";

import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Button } from "~/components/ui/button";
import { z } from "~/domain/zod";
import { getWebhook, listDeliveries, redeliver } from "~/models/webhooks.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/webhooks/:webhookId (team): a webhook's delivery log, newest first: each event with its
 * state, tries, the next try, the body sent and the last answer; Send again delivers one now with the
 * same event id. Forms: no JavaScript needed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireTeam(request);
  const id = z.uuid().safeParse(params.webhookId);
  const webhook = id.success ? await getWebhook(id.data) : null;
  if (!webhook) throw pageNotFound();
  return { webhook, deliveries: await listDeliveries(webhook.id) };
}

// "Send again": the delivery to send again.
const redeliverForm = z.object({ deliveryId: z.uuid() });

export async function action({ request, params }: ActionFunctionArgs) {
  await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: redeliverForm });
  const webhookId = z.uuid().safeParse(params.webhookId);
  // A webhook or delivery id that is not one is a missing delivery.
  if (!webhookId.success || submission.status !== "success") throw pageNotFound();
  const back = `/dashboard/webhooks/${webhookId.data}`;
  try {
    if (!(await redeliver(webhookId.data, submission.value.deliveryId))) throw pageNotFound();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) return redirectWithToast(back, { type: "error", message: error.message });
    throw error;
  }
  return redirectWithToast(back, { type: "success", message: "The event is being sent again." });
}

const when = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";
const STATUS_STYLE = { pending: "text-amber-700", delivered: "text-emerald-700", failed: "font-semibold text-red-700" } as const;

export default function WebhookDeliveries() {
  const { webhook, deliveries } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="deliveries-heading" className="space-y-6">
      <BackLink to="/dashboard/webhooks">Back to webhooks</BackLink>
      <PageHeader
        id="deliveries-heading"
        title="Delivery log"
        description={`${webhook.url} · ${webhook.active ? "On" : `Off${webhook.disabledReason ? `: ${webhook.disabledReason}` : ""}`} · ${webhook.events.join(", ")}`}
      />
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-600">No events have been sent to this webhook yet.</p>
      ) : (
        <ul aria-label="Deliveries" className="space-y-3">
          {deliveries.map((delivery) => (
            <li key={delivery.id} data-testid="delivery" className="space-y-2 rounded-card border border-slate-200 bg-white p-4 text-sm shadow-card">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="space-y-1">
                  <p className="font-semibold text-slate-950">
                    <code className="font-mono">{delivery.event}</code> <span className={STATUS_STYLE[delivery.status]}>{delivery.status}</span>
                  </p>
                  <p className="text-slate-600">
                    Event {delivery.eventId} · {when(delivery.createdAt)} · {delivery.attempts} {delivery.attempts === 1 ? "try" : "tries"}
                    {delivery.nextAttemptAt && delivery.status === "pending" ? ` · next at ${when(delivery.nextAttemptAt)}` : ""}
                  </p>
                  {delivery.response ? (
                    <p className="text-slate-700">
                      Last answer: {delivery.response.status ?? "none"}
                      {delivery.response.error ? ` (${delivery.response.error})` : ""}
                    </p>
                  ) : null}
                </div>
                <Form method="post">
                  <input type="hidden" name="deliveryId" value={delivery.id} />
                  <Button type="submit" variant="outline" size="sm">
                    Send again<span className="sr-only"> event {delivery.eventId}</span>
                  </Button>
                </Form>
              </div>
              <details>
                <summary className="cursor-pointer text-slate-700">Request and answer</summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap">{delivery.requestBody}</pre>
                {delivery.response?.body ? (
                  <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap">{delivery.response.body}</pre>
                ) : null}
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Webhook deliveries — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/webhooks" backLabel="Back to webhooks" />;
}
