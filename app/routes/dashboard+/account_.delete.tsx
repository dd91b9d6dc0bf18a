import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AlertTriangle, ArrowLeft } from "lucide-react";

import { Button, ButtonLink } from "~/components/ui/button";
import { Field } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { LIVE_SUBSCRIPTION_STATUSES } from "~/domain/billing";
import { accountDeleteFormSchema, OWN_DATA_MESSAGES } from "~/domain/own-data";
import { can } from "~/domain/permissions";
import { deleteCustomerAccount } from "~/models/account-deletion.server";
import { listSubscriptionsForUser } from "~/models/subscriptions.server";
import { HttpError } from "~/utils/http.server";
import { clientIp } from "~/utils/rate-limit.server";
import { endSession, requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/account/delete (customers): what deleting the account does, then the password and a
 * tick box, posted as a plain form (works without JavaScript). Staff are sent back to their
 * account page: their accounts are disabled by the team, not deleted.
 */

type Reply = { fieldErrors?: Record<string, string>; formError?: string };

async function requireCustomer(request: Request) {
  const user = await requireUser(request);
  if (!can(user, "area:customer")) throw redirect("/dashboard/account");
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const plans = await listSubscriptionsForUser(user.id);
  return { hasLivePlan: plans.some((plan) => (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(plan.status)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const parsed = accountDeleteFormSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
    return data<Reply>({ fieldErrors }, { status: 400 });
  }
  try {
    await deleteCustomerAccount(user.id, parsed.data.password, clientIp(request, context));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const reply: Reply = error.code === "WRONG_PASSWORD" ? { fieldErrors: { password: error.message } } : { formError: error.message };
    return data<Reply>(reply, { status: error.status, headers: error.headers });
  }
  // The session is already gone; the browser's cookie goes too.
  return redirectWithToast("/", { type: "success", message: OWN_DATA_MESSAGES.deleted }, { headers: { "Set-Cookie": await endSession(request) } });
}

export default function DeleteAccountPage() {
  const { hasLivePlan } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
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

        {hasLivePlan ? (
          <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
            {OWN_DATA_MESSAGES.activePlan}
          </p>
        ) : null}

        <Form method="post" className="grid gap-4 sm:max-w-md" aria-labelledby="delete-heading">
          {reply?.formError ? (
            <p role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {reply.formError}
            </p>
          ) : null}
          <Field id="delete-password" label="Your password" error={reply?.fieldErrors?.password}>
            {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" required />}
          </Field>
          <div>
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                required
                aria-invalid={reply?.fieldErrors?.confirm ? true : undefined}
                aria-describedby={reply?.fieldErrors?.confirm ? "delete-confirm-error" : undefined}
                className="mt-0.5 size-5 shrink-0 accent-red-700"
              />
              <span>I understand that my account and its data will be deleted for good.</span>
            </label>
            {reply?.fieldErrors?.confirm ? (
              <p id="delete-confirm-error" role="alert" className="mt-1 text-sm font-medium text-red-700">
                {reply.fieldErrors.confirm}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="danger" loading={busy} className="justify-self-start">
            Delete my account
          </Button>
        </Form>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Delete your account — BrandLift dashboard" }];
