import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Field, Input, Textarea } from "~/components/ui/input";
import { formatCents } from "~/domain/format";
import { refundFormSchema } from "~/domain/schemas/subscriptions";

/** What was typed, shown again after a refusal (cut to the field's length). */
const typed = (value: unknown, max = 500) => (typeof value === "string" ? value.slice(0, max) : undefined);

/** What the order page's action answered: a refused step (conform's result, with what was typed) or the confirmation to show. */
export type RefundResult =
  | { result: SubmissionResult<string[]> }
  | {
      confirm: {
        amountCents: number;
        leftCents: number;
        currency: string;
        email: string;
        full: boolean;
        endsPlan: boolean;
        reason: string;
        refundKey: string;
        amountInput: string;
      };
    }
  | undefined;

/**
 * The order page's refund (decision 176): the amount (empty: what is left) and a reason, then a
 * confirmation step that says what is refunded to whom; the confirming button is the danger one.
 */
export function RefundPanel({
  orderId,
  currency,
  leftCents,
  refundable,
  refundKey,
  result,
  busy,
}: {
  orderId: string;
  currency: string;
  /** What is left to refund, in cents. */
  leftCents: number;
  refundable: boolean;
  refundKey: string;
  result: RefundResult;
  busy: boolean;
}) {
  const lastResult = result && "result" in result ? result.result : undefined;
  const [form, fields] = useForm({
    id: "refund",
    lastResult: busy ? undefined : lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundFormSchema }),
  });
  // A stale form's key (reload the page) and a refusal of the whole form are said with the amount, where the step starts.
  const amountErrors = [...(fields.amount.errors ?? []), ...(fields.refundKey.errors ?? []), ...(form.errors ?? [])];
  if (result && "confirm" in result) {
    const step = result.confirm;
    const amount = formatCents(step.amountCents, step.currency);
    return (
      <div className="mt-4">
        <ConfirmStep
          title={`Refund ${amount}?`}
          fields={{ amount: step.amountInput, reason: step.reason, refundKey: step.refundKey }}
          confirmLabel={`Refund ${amount}`}
          cancelTo={`/dashboard/orders/${orderId}`}
          cancelLabel="Don't refund"
          busy={busy}
        >
          <p>
            <strong>{amount}</strong> goes back to the card that paid
            {step.full ? ", everything left of this order" : `, of ${formatCents(step.leftCents, step.currency)} left`}. {step.email} is told by e-mail. A
            refund cannot be undone.
          </p>
          {step.endsPlan ? <p className="font-semibold text-red-800">This is the plan's sign-up refunded in full: the plan ends now.</p> : null}
          <p>
            Reason: <span className="font-medium break-words">{step.reason}</span>
          </p>
        </ConfirmStep>
      </div>
    );
  }
  if (!refundable) {
    return amountErrors.length > 0 ? (
      <p role="alert" className="mt-3 text-sm font-semibold text-red-700">
        {amountErrors.join(" ")}
      </p>
    ) : null;
  }
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-3 sm:grid-cols-[16rem_1fr]" aria-label="Refund this order">
      <input type="hidden" name="refundKey" value={refundKey} />
      <Field id={fields.amount.id} label={`Amount to refund (up to ${formatCents(leftCents, currency)})`} error={amountErrors} hint="Empty: everything left.">
        {(control) => (
          <Input
            {...control}
            key={fields.amount.key}
            name="amount"
            inputMode="decimal"
            placeholder={(leftCents / 100).toFixed(2)}
            defaultValue={typed(fields.amount.initialValue)}
          />
        )}
      </Field>
      <Field id={fields.reason.id} label="Reason (shown in the order's history)" error={fields.reason.errors}>
        {(control) => (
          <Textarea {...control} key={fields.reason.key} name="reason" rows={2} required maxLength={500} defaultValue={typed(fields.reason.initialValue)} />
        )}
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" variant="outline" loading={busy}>
          Review refund
        </Button>
        <p className="mt-2 text-xs text-slate-600">
          Nothing is refunded yet: the next step shows the amount for you to confirm. The customer is told by e-mail.
        </p>
      </div>
    </Form>
  );
}
