import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ClipboardList } from "lucide-react";

import { PageHeader } from "~/components/dashboard/page-header";
import { Badge, StatusBadge } from "~/components/ui/badge";
import { Button, buttonClassName } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { EmptyState } from "~/components/ui/empty-state";
import { formatDate } from "~/domain/purchase";
import { endOfDay, WORK_FILTERS, workFormSchema, type WorkFilter } from "~/domain/schemas/work";
import { findPurchase, listAssignedPurchases, updatePurchase } from "~/models/purchases.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit } from "~/web/form-reply.server";
import { redirectWithToast } from "~/web/toast.server";

const FILTER_LABELS: Record<WorkFilter, string> = { all: "All", overdue: "Overdue", week: "Due this week" };

/** /dashboard/work (staff): the open purchases assigned to me, soonest due first (overdue on top). */
export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireTeam(request);
  const asked = new URL(request.url).searchParams.get("due") ?? "all";
  const filter: WorkFilter = (WORK_FILTERS as readonly string[]).includes(asked) ? (asked as WorkFilter) : "all";
  const rows = await listAssignedPurchases(staff.id, filter === "all" ? undefined : filter);
  const now = Date.now();
  return {
    filter,
    items: rows.map((r) => ({
      id: r.id,
      service: r.serviceName,
      customer: r.userId ? { id: r.userId, name: r.customerName ?? "Customer" } : null,
      status: r.status,
      dueAt: r.dueAt?.toISOString() ?? null,
      overdue: !!r.dueAt && r.dueAt.getTime() < now,
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: workFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const form = submission.value;
  const purchase = await findPurchase(form.purchaseId);
  // Only one's own work is changed here; anything else is the same 404.
  if (!purchase || purchase.assigneeId !== staff.id) return data({ result: submission.reply({ formErrors: ["Purchase not found."] }) }, { status: 404 });
  try {
    if (form.intent === "due") await updatePurchase(staff, purchase.id, { dueAt: form.dueOn ? endOfDay(form.dueOn) : null });
    if (form.intent === "complete") await updatePurchase(staff, purchase.id, { status: "completed" });
    if (form.intent === "unassign") await updatePurchase(staff, purchase.id, { assigneeId: null });
  } catch (error) {
    if (error instanceof HttpError) return data({ result: submission.reply({ formErrors: [error.message] }) }, httpErrorInit(error));
    throw error;
  }
  const message =
    form.intent === "due"
      ? `Due date of ${purchase.serviceName} saved.`
      : form.intent === "complete"
        ? `${purchase.serviceName} marked completed.`
        : `${purchase.serviceName} is no longer yours.`;
  return redirectWithToast(new URL(request.url).pathname + new URL(request.url).search, { type: "success", message });
}

export default function MyWork() {
  const { filter, items } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // One page of many small forms (one per purchase): what a form was refused for is said above the list.
  const refused = [...new Set(Object.values(actionData?.result.error ?? {}).flat())].join(" ");
  return (
    <section aria-labelledby="work-heading" className="space-y-6">
      <PageHeader
        id="work-heading"
        title="My work"
        description="Purchases assigned to you that are still in progress, soonest due first."
        actions={
          <nav aria-label="Filter my work" className="flex flex-wrap gap-2">
            {WORK_FILTERS.map((f) => (
              <Link
                key={f}
                to={f === "all" ? "/dashboard/work" : `/dashboard/work?due=${f}`}
                aria-current={f === filter ? "page" : undefined}
                className={buttonClassName({ size: "sm", variant: f === filter ? "primary" : "outline" })}
              >
                {FILTER_LABELS[f]}
              </Link>
            ))}
          </nav>
        }
      />
      {refused ? (
        <p role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm font-semibold text-red-800">
          {refused}
        </p>
      ) : null}
      {items.length === 0 ? (
        <EmptyState
          icon={ClipboardList}
          headingLevel="h3"
          title={filter === "all" ? "Nothing assigned to you" : filter === "overdue" ? "Nothing overdue" : "Nothing due this week"}
          text="Purchases assigned to you show up here. Assign work from a customer's page."
        />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card" aria-label="Assigned purchases">
          {items.map((item) => (
            <li key={item.id} className="grid gap-3 p-4 lg:grid-cols-[1fr_auto] lg:items-center" data-testid="work-item">
              <div className="min-w-0 space-y-1">
                <p className="font-semibold text-slate-950">{item.service}</p>
                <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  {item.customer ? (
                    <Link to={`/dashboard/users/${item.customer.id}`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
                      {item.customer.name}
                    </Link>
                  ) : (
                    <span>Guest</span>
                  )}
                  <StatusBadge status={item.status} />
                  {item.dueAt ? (
                    <Badge tone={item.overdue ? "danger" : "neutral"}>
                      {item.overdue ? "Overdue · " : "Due "}
                      {formatDate(item.dueAt)}
                    </Badge>
                  ) : (
                    <Badge>No due date</Badge>
                  )}
                </p>
              </div>
              <div className="flex flex-wrap items-end gap-2">
                <Form method="post" className="flex items-end gap-2">
                  <input type="hidden" name="intent" value="due" />
                  <input type="hidden" name="purchaseId" value={item.id} />
                  <label className="text-xs font-semibold text-slate-700">
                    Due date<span className="sr-only"> of {item.service}</span>
                    <input
                      type="date"
                      name="dueOn"
                      defaultValue={item.dueAt?.slice(0, 10) ?? ""}
                      className="mt-1 block min-h-10 rounded-lg border border-slate-300 px-2 text-sm"
                    />
                  </label>
                  <Button type="submit" size="sm" variant="outline">
                    Save<span className="sr-only"> due date of {item.service}</span>
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="complete" />
                  <input type="hidden" name="purchaseId" value={item.id} />
                  <Button type="submit" size="sm">
                    Mark completed<span className="sr-only"> {item.service}</span>
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="unassign" />
                  <input type="hidden" name="purchaseId" value={item.id} />
                  <Button type="submit" size="sm" variant="ghost" className={cn("text-slate-700")}>
                    Unassign<span className="sr-only"> {item.service}</span>
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "My work — BrandLift" }];
