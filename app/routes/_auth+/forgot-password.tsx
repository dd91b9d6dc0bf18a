import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { ArrowLeft, MailCheck } from "lucide-react";
import type { FormEvent } from "react";

import { AuthErrorBoundary, AuthLayout, authLinks, FormAlert } from "~/components/auth/auth-layout";
import { inputProps } from "~/components/auth/conform";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot";
import { Field, Input } from "~/components/ui/input";
import { notify } from "~/components/ui/toaster";
import { useIsPending } from "~/components/ui/use-is-pending";
import { forgotPasswordSchema } from "~/domain/schemas/auth";
import { clientIp } from "~/utils/rate-limit.server";
import { startPasswordReset } from "~/web/auth-limits.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit, replyOnHttpError } from "~/web/form-reply.server";
import { checkHoneypot } from "~/web/honeypot.server";

export const links = authLinks;

const SUBMITTING_MESSAGE = "Submitting your request...";
const FAILED_MESSAGE = "Failed to send reset email. Please try again later.";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  checkHoneypot(form);
  const submission = parseWithZod(form, { schema: forgotPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sentTo: null }, { status: 400 });
  }
  const email = submission.value.email;
  const refused = await replyOnHttpError(
    () => startPasswordReset(clientIp(request, context), email),
    (error) => data({ result: submission.reply({ formErrors: [error.message] }), sentTo: null }, httpErrorInit(error)),
  );
  if (refused) return refused;
  // The same answer whether or not the account exists: the lookup happens after it.
  return { result: submission.reply(), sentTo: email };
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  const announce = (event: FormEvent<HTMLFormElement>) => {
    if (!event.defaultPrevented) void notify("info", SUBMITTING_MESSAGE);
  };
  const backToSignIn = (
    <Link to="/login" className="inline-flex items-center gap-1.5 font-semibold text-brand-700 underline-offset-4 hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Sign In
    </Link>
  );

  if (actionData?.sentTo) {
    return (
      <AuthLayout title="Check Your Email" footer={backToSignIn}>
        <div className="flex gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <MailCheck aria-hidden="true" className="size-6" />
          </span>
          <div className="space-y-3 text-slate-700">
            <p>
              If an account exists for <strong className="font-semibold break-words text-slate-950">{actionData.sentTo}</strong>, we have sent it a link to
              reset your password.
            </p>
            <p className="text-sm text-slate-600">The link works once and expires in one hour. Check your spam folder if it does not arrive.</p>
          </div>
        </div>
        <Form method="post" onSubmit={announce} className="relative mt-8">
          <HoneypotField id="resend-website" />
          <input type="hidden" name="email" value={actionData.sentTo} />
          <Button type="submit" variant="outline" className="w-full" loading={submitting}>
            Resend
          </Button>
        </Form>
      </AuthLayout>
    );
  }

  const email = inputProps(fields.email, { type: "email" });
  return (
    <AuthLayout
      title="Forgot Password"
      subtitle="Enter the e-mail address of your account and we will send you a link to reset your password."
      footer={backToSignIn}
    >
      <Form
        method="post"
        {...getFormProps(form)}
        onSubmit={(event) => {
          form.onSubmit(event);
          announce(event);
        }}
        className="relative space-y-5"
      >
        <HoneypotField id="forgot-website" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field id={fields.email.id} label="Email" error={fields.email.errors}>
          <Input key={email.key} {...email.props} autoComplete="email" placeholder="you@company.com" />
        </Field>
        <Button type="submit" size="lg" className="w-full" loading={submitting}>
          Reset Password
        </Button>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [
  { title: "Forgot Password | BrandLift" },
  { name: "description", content: "Reset the password of your BrandLift account: we e-mail you a secure link." },
];

export function ErrorBoundary() {
  return <AuthErrorBoundary title="Forgot Password" fallback={FAILED_MESSAGE} retryTo="/forgot-password" />;
}
