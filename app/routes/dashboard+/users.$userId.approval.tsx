import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { APPROVAL_MODE_LABELS, APPROVAL_MODES, APPROVERS, APPROVERS_LABELS, MAX_REVIEW_HOURS, ON_DEADLINE, ON_DEADLINE_LABELS } from "~/domain/approvals";
import { approvalSchema } from "~/domain/schemas/approvals";
import { clientIdOf } from "~/models/clients.server";
import { approvalOf, setApproval } from "~/models/post-approvals.server";
import { readForm } from "~/web/body-limit.server";
import { loadCustomer, pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/users/:userId/approval (staff): the client's approval settings (decision 292): who
 * approves its posts, whether every approver must, what happens at the review deadline and how many
 * hours before publishing it falls. A plain form: it works without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { customer } = await loadCustomer(request, params.userId);
  const clientId = await clientIdOf(customer.id);
  if (!clientId) throw pageNotFound();
  return { userId: customer.id, approval: await approvalOf(clientId) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff, customer } = await loadCustomer(request, params.userId);
  const parsed = approvalSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
  await setApproval(staff, customer.id, parsed.data);
  return redirectWithToast(`/dashboard/users/${customer.id}/approval`, { type: "success", message: "Approval settings saved." });
}

const selectClass = "mt-1 block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-sm";

export default function ApprovalSettings() {
  const { approval } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <Form method="post" aria-labelledby="approval-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <h3 id="approval-heading" className="text-lg font-semibold text-slate-950">
        Approvals
      </h3>
      {failed?.error ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800">
          {failed.error}
        </p>
      ) : null}
      <label className="block text-sm font-medium text-slate-700">
        How posts are approved
        <select name="mode" defaultValue={approval.mode} className={selectClass}>
          {APPROVAL_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {APPROVAL_MODE_LABELS[mode]}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Approvers
        <select name="approvers" defaultValue={approval.approvers} className={selectClass}>
          {APPROVERS.map((value) => (
            <option key={value} value={value}>
              {APPROVERS_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        At the review deadline
        <select name="onDeadline" defaultValue={approval.onDeadline} className={selectClass}>
          {ON_DEADLINE.map((value) => (
            <option key={value} value={value}>
              {ON_DEADLINE_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <Field label="Review deadline, in hours before the post goes out" hint={`0 to ${MAX_REVIEW_HOURS}. Reminders go 24 hours before it and at it.`}>
        {(control) => (
          <Input {...control} name="reviewHours" type="number" min={0} max={MAX_REVIEW_HOURS} step={1} required defaultValue={approval.reviewHours} />
        )}
      </Field>
      <Button type="submit" loading={navigation.state === "submitting"}>
        Save approval settings
      </Button>
    </Form>
  );
}
