import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Plus, Trash2 } from "lucide-react";

import { FormAlert } from "~/components/auth/auth-layout";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, FieldError, Input } from "~/components/ui/input";
import { WEBHOOK_EVENTS, WebhookCreateSchema } from "~/domain/webhooks";
import { z } from "~/domain/zod";
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "~/models/webhooks.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/webhooks (team): the addresses events are sent to (docs/integrations.md). Add one (its
 * signing secret is shown here once), turn one on or off, delete one; each opens its delivery log.
 * Forms: no JavaScript needed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  return { webhooks: await listWebhooks() };
}

// Each button's intent with its own fields. A webhook's id that is not one is a missing webhook (404).
const webhookForm = z.discriminatedUnion(
  "intent",
  [
    WebhookCreateSchema.extend({ intent: z.literal("create") }),
    z.object({ intent: z.literal("toggle"), webhookId: z.uuid(), active: z.string().max(10).optional() }),
    z.object({ intent: z.literal("delete"), webhookId: z.uuid() }),
  ],
  { error: "Unknown action." },
);

export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: webhookForm });
  if (submission.status !== "success") {
    const intent = submission.payload.intent;
    if (intent === "toggle" || intent === "delete") throw pageNotFound();
    return data({ result: submission.reply(), created: null }, { status: 400 });
  }
  const step = submission.value;
  if (step.intent === "delete") {
    if (!(await deleteWebhook(staff, step.webhookId))) throw pageNotFound();
    return redirectWithToast("/dashboard/webhooks", { type: "success", message: "Webhook deleted." });
  }
  if (step.intent === "toggle") {
    const active = step.active === "true";
    if (!(await updateWebhook(staff, step.webhookId, { active }))) throw pageNotFound();
    return redirectWithToast("/dashboard/webhooks", { type: "success", message: active ? "Webhook turned on." : "Webhook turned off." });
  }
  // Answered (not redirected) so the secret is on this page once, and never again.
  const created = await createWebhook(staff, { url: step.url, events: step.events });
  return { result: submission.reply({ resetForm: true }), created: { url: created.webhook.url, secret: created.secret } };
}

export default function Webhooks() {
  const { webhooks } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "new-webhook",
    lastResult: navigation.state === "idle" ? answer?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookForm }),
  });
  // An event that is not one is told on the list of events, like none chosen.
  const eventErrors = Object.values(fields.events.allErrors).flat();
  return (
    <section aria-labelledby="webhooks-heading" className="space-y-6">
      <PageHeader
        id="webhooks-heading"
        title="Webhooks"
        description="Events sent to other tools (n8n, Zapier, a publishing tool), each signed with the webhook's secret. See docs/integrations.md."
      />
      {answer?.created ? (
        <div role="status" className="rounded-card border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950">
          <p className="font-semibold">Webhook added for {answer.created.url}. Copy its signing secret now: it is not shown again.</p>
          <code data-testid="webhook-secret" className="mt-2 block rounded bg-white px-2 py-1 font-mono break-all">
            {answer.created.secret}
          </code>
        </div>
      ) : null}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        {webhooks.length === 0 ? (
          <EmptyState icon={Plus} title="No webhooks yet" text="Add the first one with the form." />
        ) : (
          <ul aria-label="Webhooks" className="divide-y divide-slate-200 self-start rounded-card border border-slate-200 bg-white shadow-card">
            {webhooks.map((webhook) => (
              <li key={webhook.id} data-testid="webhook" className="space-y-2 px-4 py-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <Link to={`/dashboard/webhooks/${webhook.id}`} className="font-semibold break-all text-brand-700 hover:underline">
                      {webhook.url}
                    </Link>
                    <p className="mt-1 text-sm text-slate-600">{webhook.events.join(", ")}</p>
                    <p className={`mt-1 text-sm ${webhook.active ? "text-emerald-700" : "font-semibold text-red-700"}`}>
                      {webhook.active ? "On" : `Off${webhook.disabledReason ? `: ${webhook.disabledReason}` : ""}`}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Form method="post">
                      <input type="hidden" name="intent" value="toggle" />
                      <input type="hidden" name="webhookId" value={webhook.id} />
                      <input type="hidden" name="active" value={webhook.active ? "false" : "true"} />
                      <Button type="submit" variant="outline" size="sm">
                        {webhook.active ? "Turn off" : "Turn on"}
                        <span className="sr-only"> {webhook.url}</span>
                      </Button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="webhookId" value={webhook.id} />
                      <Button type="submit" variant="ghost" size="sm">
                        <Trash2 className="size-4" aria-hidden="true" />
                        Delete<span className="sr-only"> {webhook.url}</span>
                      </Button>
                    </Form>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
        <Form
          method="post"
          {...getFormProps(form)}
          aria-labelledby="new-webhook-heading"
          className="space-y-4 self-start rounded-card border border-slate-200 bg-white p-5 shadow-card"
        >
          <h3 id="new-webhook-heading" className="text-lg font-semibold text-slate-950">
            Add a webhook
          </h3>
          <input type="hidden" name="intent" value="create" />
          <FormAlert id={form.errorId} errors={[...(form.errors ?? []), ...(fields.intent.errors ?? [])]} />
          <Field id={fields.url.id} label="Address (https://…)" error={fields.url.errors}>
            {(control) => <Input {...control} name="url" type="url" required maxLength={2000} autoComplete="off" />}
          </Field>
          <fieldset aria-describedby={eventErrors.length > 0 ? fields.events.errorId : undefined} className="space-y-1">
            <legend className="text-sm font-medium text-slate-900">Events</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" name="events" value={event} className="size-4 rounded border-slate-300" />
                <code className="font-mono">{event}</code>
              </label>
            ))}
            <FieldError id={fields.events.errorId} errors={eventErrors} />
          </fieldset>
          <Button type="submit">
            <Plus className="size-4" aria-hidden="true" />
            Add webhook
          </Button>
        </Form>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Webhooks — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the dashboard" />;
}
