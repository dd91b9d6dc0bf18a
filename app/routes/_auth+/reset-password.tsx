import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";

import { AuthErrorBoundary, AuthLayout, authLinks, FormAlert } from "~/components/auth/auth-layout";
import { inputProps, passwordInputProps } from "~/components/auth/conform";
import { TwoFactorForm } from "~/components/auth/two-factor-form";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot";
import { Field } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { resetPasswordSchema } from "~/domain/schemas/auth";
import { checkPasswordToken, passwordTokenPurpose, resetPasswordWithToken, TOKEN_FAILURES } from "~/models/password-tokens.server";
import { clientIp } from "~/utils/rate-limit.server";
import { sessionCookie } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { checkHoneypot } from "~/web/honeypot.server";
import { afterFirstFactor, completeBrowserSignIn } from "~/web/sign-in.server";
import { redirectWithToast } from "~/web/toast.server";

export const links = authLinks;

const SUCCESS_MESSAGE = "Password reset successfully. You can now log in with your new password.";
const FAILED_MESSAGE = "Failed to reset password. Please try again later.";
const SECRET_FIELDS = ["password", "confirmPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token")?.trim();
  if (!token) throw redirect("/forgot-password");
  // A link that cannot be used says so on opening, before a password is typed twice.
  const failure = await checkPasswordToken(token);
  // A new account's link (after the first order, or a staff invitation) sets a first password.
  const link = failure ? null : await passwordTokenPurpose(token);
  return {
    token,
    unusable: failure ? TOKEN_FAILURES[failure] : null,
    newAccount: link?.purpose === "set",
    invitedStaff: link?.purpose === "set" && link.role === "team",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  checkHoneypot(form);
  const token = form.get("token");
  if (typeof token !== "string" || token.trim() === "") throw redirect("/forgot-password");
  const submission = parseWithZod(form, { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
  }
  const outcome = await resetPasswordWithToken(submission.value.token, submission.value.password);
  if (!outcome.ok) {
    const result = submission.reply({ formErrors: [`Failed to reset password: ${outcome.message}`], hideFields: SECRET_FIELDS });
    return data({ result }, { status: 400 });
  }
  // A first password (after a purchase or an invitation) signs in, through the same decision as
  // every sign-in: an account with a second factor is asked for it first (decision 257).
  if (outcome.firstPassword) {
    const step = await afterFirstFactor(outcome.user, "cookie");
    if (step.kind === "two-factor") return data({ secondFactor: { challenge: step.challenge, redirectTo: null, error: null, methods: step.methods } });
    const welcome = `Welcome to ${outcome.user.role === "team" ? "the BrandLift team" : "BrandLift"}, ${outcome.user.name.split(" ")[0]}! Your password is set.`;
    // The account's first device: recorded without an e-mail (decision 233).
    return completeBrowserSignIn(request, outcome.user, null, clientIp(request, context), { quiet: true, message: welcome });
  }
  // Every session of the account has ended; this browser's cookie, if any, goes too.
  return redirectWithToast(
    "/login",
    { type: "success", message: SUCCESS_MESSAGE },
    { headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) } },
  );
}

export default function ResetPasswordPage() {
  const { token, unusable, newAccount, invitedStaff } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const secondFactor = actionData && "secondFactor" in actionData ? actionData.secondFactor : null;
  const navigation = useNavigation();
  const submitting = useIsPending();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: navigation.state === "idle" && actionData && "result" in actionData ? actionData.result : undefined,
    constraint: getZodConstraint(resetPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { token },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  const tokenInput = inputProps(fields.token, { type: "hidden" });
  const password = passwordInputProps(fields.password);
  const confirm = passwordInputProps(fields.confirmPassword);
  const backToSignIn = (
    <Link to="/login" className="inline-flex items-center gap-1.5 font-semibold text-brand-700 underline-offset-4 hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Sign In
    </Link>
  );

  if (secondFactor) {
    return (
      <AuthLayout title="Your password is set" subtitle="One more step: your account asks for a second factor.">
        <TwoFactorForm {...secondFactor} />
      </AuthLayout>
    );
  }
  if (unusable) {
    return (
      <AuthLayout title="Reset Password" subtitle="This link cannot set a password." footer={backToSignIn}>
        <div className="space-y-5">
          <FormAlert errors={unusable} />
          <p className="text-sm text-slate-700">
            <Link to="/forgot-password" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              Request another reset e-mail
            </Link>
          </p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={invitedStaff ? "Join the BrandLift Team" : newAccount ? "Set Your Password" : "Reset Password"}
      subtitle={
        invitedStaff
          ? "You have been invited to the team dashboard, where staff handle orders, customers, reports and messages. Choose a password (at least 8 characters) to sign in."
          : newAccount
            ? "Welcome to BrandLift! Choose a password for your new account (at least 8 characters) to sign in to your dashboard."
            : "Choose a new password for your account: at least 8 characters."
      }
      footer={backToSignIn}
    >
      <Form method="post" {...getFormProps(form)} className="relative space-y-5">
        <HoneypotField id="reset-website" />
        <input key={tokenInput.key} {...tokenInput.props} />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field id={fields.password.id} label="New Password" error={fields.password.errors}>
          <PasswordInput key={password.key} {...password.props} autoComplete="new-password" />
        </Field>
        <Field id={fields.confirmPassword.id} label="Confirm Password" error={fields.confirmPassword.errors}>
          <PasswordInput key={confirm.key} {...confirm.props} autoComplete="new-password" />
        </Field>
        {form.errors ? (
          <p className="text-sm text-slate-600">
            Need a new link?{" "}
            <Link to="/forgot-password" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              Request another reset e-mail
            </Link>
          </p>
        ) : null}
        <Button type="submit" size="lg" className="w-full" loading={submitting}>
          {newAccount ? "Set Password" : "Reset Password"}
        </Button>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.invitedStaff ? "Join the Team | BrandLift" : data?.newAccount ? "Set Your Password | BrandLift" : "Reset Password | BrandLift" },
  { name: "description", content: "Choose a new password for your BrandLift account." },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <AuthErrorBoundary title="Reset Password" fallback={FAILED_MESSAGE} retryTo="/forgot-password" />;
}
