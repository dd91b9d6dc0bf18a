import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { FormAlert } from "~/components/auth/auth-layout";
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
  const submission = parseWithZod(await readForm(request), { schema: approvalSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await setApproval(staff, customer.id, submission.value);
  return redirectWithToast(`/dashboard/users/${customer.id}/approval`, { type: "success", message: "Approval settings saved." });
}

const selectClass = "block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-sm";

export default function ApprovalSettings() {
  const { approval } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "approval-settings",
    lastResult: navigation.state === "idle" ? reply?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: approvalSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-labelledby="approval-heading"
      className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card"
    >
      <h3 id="approval-heading" className="text-lg font-semibold text-slate-950">
        Approvals
      </h3>
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field id={fields.mode.id} label="How posts are approved" error={fields.mode.errors}>
        {(control) => (
          <select {...control} name="mode" defaultValue={approval.mode} className={selectClass}>
            {APPROVAL_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {APPROVAL_MODE_LABELS[mode]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={fields.approvers.id} label="Approvers" error={fields.approvers.errors}>
        {(control) => (
          <select {...control} name="approvers" defaultValue={approval.approvers} className={selectClass}>
            {APPROVERS.map((value) => (
              <option key={value} value={value}>
                {APPROVERS_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={fields.onDeadline.id} label="At the review deadline" error={fields.onDeadline.errors}>
        {(control) => (
          <select {...control} name="onDeadline" defaultValue={approval.onDeadline} className={selectClass}>
            {ON_DEADLINE.map((value) => (
              <option key={value} value={value}>
                {ON_DEADLINE_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id={fields.reviewHours.id}
        label="Review deadline, in hours before the post goes out"
        error={fields.reviewHours.errors}
        hint={`0 to ${MAX_REVIEW_HOURS}. Reminders go 24 hours before it and at it.`}
      >
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
