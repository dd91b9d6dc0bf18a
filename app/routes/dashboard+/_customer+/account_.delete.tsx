import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AlertTriangle, ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";

import { Button, ButtonLink } from "~/components/ui/button";
import { Field } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { formatCents } from "~/domain/format";
import { accountDeleteFormSchema, OWN_DATA_MESSAGES } from "~/domain/own-data";
import { can } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { deleteCustomerAccount, livePlansToEnd } from "~/models/account-deletion.server";
import { HttpError } from "~/utils/http.server";
import { clientIp } from "~/utils/rate-limit.server";
import { endSession, requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit } from "~/web/form-reply.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/account/delete (customers): what deleting the account does, then the password and a
 * tick box, posted as a plain form (works without JavaScript). While a plan runs, the same form
 * offers to end it now, prorated as Stripe does, or points to the plan's page to let it run out
 * (decision 282). Staff are sent back to their account page: their accounts are disabled by the
 * team, not deleted.
 */

async function requireCustomer(request: Request) {
  const user = await requireUser(request);
  if (!can(user, "area:customer")) throw redirect("/dashboard/account");
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  return { plans: await livePlansToEnd(user.id) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const submission = parseWithZod(await readForm(request), { schema: accountDeleteFormSchema });
  // The password never goes back to the page.
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  try {
    await deleteCustomerAccount(user.id, submission.value.password, clientIp(request, context), { endPlans: submission.value.endPlans === "yes" });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const refused: { fieldErrors?: Record<string, string[]>; formErrors?: string[] } =
      error.code === "WRONG_PASSWORD"
        ? { fieldErrors: { password: [error.message] } }
        : error.code === "SUBSCRIPTION_ACTIVE"
          ? { fieldErrors: { endPlans: [error.message] } }
          : { formErrors: [error.message] };
    return data({ result: submission.reply({ ...refused, hideFields: ["password"] }) }, httpErrorInit(error));
  }
  // The session is already gone; the browser's cookie goes too.
  return redirectWithToast("/", { type: "success", message: OWN_DATA_MESSAGES.deleted }, { headers: { "Set-Cookie": await endSession(request) } });
}

export default function DeleteAccountPage() {
  const { plans } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "delete-account",
    lastResult: navigation.state === "idle" ? reply?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountDeleteFormSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  return (
    <section aria-labelledby="delete-heading" className="max-w-2xl space-y-6">
      <ButtonLink to="/dashboard/account" variant="outline" size="sm">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to your account
      </ButtonLink>
      <div className="space-y-4 rounded-card border-2 border-red-200 bg-white p-6 shadow-card">
        <h2 id="delete-heading" className="flex items-center gap-2 text-xl font-bold text-slate-950">
          <AlertTriangle aria-hidden="true" className="size-5 shrink-0 text-red-700" />
          Delete your account
        </h2>
        <p className="text-sm text-slate-700">This cannot be undone. When you delete your account:</p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>your name and e-mail address are removed from our records, and you can no longer sign in;</li>
          <li>every device and API token is signed out at once;</li>
          <li>your messages, the files you sent and your reports are deleted;</li>
          <li>your orders stay on our books, as the law asks, without your name or e-mail.</li>
        </ul>
        <p className="text-sm text-slate-700">
          Want a copy first?{" "}
          <a href="/api/account/export" download className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
            Download your data
          </a>{" "}
          (a zip of your records and reports).
        </p>

        {plans.length > 0 ? <LivePlans plans={plans} /> : null}

        <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:max-w-md" aria-labelledby="delete-heading">
          {form.errors?.length ? (
            <p id={form.errorId} role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {form.errors.join(" ")}
            </p>
          ) : null}
          <Field id="delete-password" label="Your password" error={fields.password.errors}>
            {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" required />}
          </Field>
          {plans.length > 0 ? (
            <TickBox name="endPlans" error={fields.endPlans.errors?.join(" ")}>
              {plans.length === 1 ? "End my plan now" : "End my plans now"}, prorated as described above.
            </TickBox>
          ) : null}
          <TickBox name="confirm" error={fields.confirm.errors?.join(" ")}>
            I understand that my account and its data will be deleted for good.
          </TickBox>
          <Button type="submit" variant="danger" loading={busy} className="justify-self-start">
            Delete my account
          </Button>
        </Form>
      </div>
    </section>
  );
}

type LivePlan = ReturnType<typeof useLoaderData<typeof loader>>["plans"][number];

/** A plan still running: when it renews or ends, what ending it now gives back, and the other way. */
function LivePlans({ plans }: { plans: LivePlan[] }) {
  return (
    <section aria-labelledby="live-plans-heading" className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-4 text-sm text-amber-950">
      <h3 id="live-plans-heading" className="font-semibold">
        {plans.length === 1 ? "Your plan is still running" : "Your plans are still running"}
      </h3>
      <ul className="space-y-2">
        {plans.map((plan) => (
          <li key={plan.id}>
            <strong>{plan.name}</strong>
            {plan.periodEnd ? `, ${plan.cancelAtPeriodEnd ? "ends" : "renews"} on ${formatDate(plan.periodEnd)}` : ""}. Ending it now stops it today; Stripe
            prorates the unused part of this period, about <strong>{formatCents(plan.unusedCents, plan.currency)}</strong>, as a credit on its final invoice.{" "}
            <a href={`/dashboard/plans/${plan.id}`} className="font-semibold underline underline-offset-2">
              Open the plan
            </a>{" "}
            to let it run to the end of the period instead (Manage billing), then come back.
          </li>
        ))}
      </ul>
      <p>To delete your account now, tick the box below: the plan ends first, then the account is deleted.</p>
    </section>
  );
}

/** A required tick box with its error under it (said again by the field's description). */
function TickBox({ name, error, children }: { name: string; error?: string; children: ReactNode }) {
  const errorId = `delete-${name}-error`;
  return (
    <div>
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          name={name}
          value="yes"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 size-5 shrink-0 accent-red-700"
        />
        <span>{children}</span>
      </label>
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Delete your account — BrandLift dashboard" }];
