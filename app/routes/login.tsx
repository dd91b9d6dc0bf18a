import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useNavigation, useSearchParams, type ClientActionFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";

import { AuthErrorBoundary, AuthLayout, authLinks, FormAlert } from "~/components/auth/auth-layout";
import { inputProps, passwordInputProps } from "~/components/auth/conform";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot";
import { Field, Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { notify } from "~/components/ui/toaster";
import { useIsPending } from "~/components/ui/use-is-pending";
import { can } from "~/domain/permissions";
import { loginSchema } from "~/domain/schemas/auth";
import { hasAssignedWork } from "~/models/purchases.server";
import { createSession, revokeSession } from "~/models/sessions.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { clientIp } from "~/utils/rate-limit.server";
import { authenticateForm, InvalidCredentialsError, LOGIN_SUCCESS_MESSAGE } from "~/web/auth-form.server";
import { withSignInLimits } from "~/web/auth-limits.server";
import { getIdentity, safeRedirect, sessionCookieHeader } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { checkHoneypot } from "~/web/honeypot.server";
import { redirectWithToast } from "~/web/toast.server";

export const links = authLinks;

const LOGIN_FAILED_MESSAGE = "Login failed. Please check your credentials!";

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getIdentity(request)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  checkHoneypot(form);
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const fail = (message: string, status: number, headers?: Record<string, string>) =>
    data({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status, headers });

  let user;
  try {
    user = await withSignInLimits(clientIp(request, context), submission.value.email, () => authenticateForm(request));
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return fail(error.message, 401);
    if (error instanceof HttpError) return fail(error.message, error.status, error.headers);
    // The spec: an exception is 'Login failed. Please check your credentials!' on the form, not an error page.
    logger.error({ err: error }, "sign-in failed unexpectedly");
    return fail(LOGIN_FAILED_MESSAGE, 500);
  }

  // A fresh session id on every sign-in: a session the browser already had is ended (no fixation).
  const previous = await getIdentity(request);
  if (previous?.via === "cookie") await revokeSession(previous.token);
  const session = await createSession(user.id, "cookie");
  // Staff with open work assigned to them start on "My work" (issue 23); a redirectTo still wins.
  const home = can(user, "area:team") && (await hasAssignedWork(user.id)) ? "/dashboard/work" : "/dashboard";
  return redirectWithToast(
    safeRedirect(submission.value.redirectTo, home),
    { type: "success", message: LOGIN_SUCCESS_MESSAGE },
    { headers: { "Set-Cookie": await sessionCookieHeader(session.token, session.expiresAt) } },
  );
}

/** In the browser: no answer at all (offline) is the same 'Login failed…' on the form, and no page reload. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const body = { result: { status: "error" as const, error: { "": [LOGIN_FAILED_MESSAGE] } } };
    return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json" } }) as unknown as typeof body;
  }
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  // The spec: a failed sign-in is an error notice (toast) besides the form's own alert.
  useEffect(() => {
    const message = (actionData?.result?.error as Record<string, string[] | null> | undefined)?.[""]?.[0];
    if (message) void notify("error", message);
  }, [actionData]);
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const submitting = useIsPending();
  const [form, fields] = useForm({
    id: "login",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { redirectTo: searchParams.get("redirectTo") ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  const email = inputProps(fields.email, { type: "email" });
  const password = passwordInputProps(fields.password);
  const redirectTo = inputProps(fields.redirectTo, { type: "hidden" });

  return (
    <AuthLayout
      title="Welcome Back"
      subtitle="Sign in to your account to see your services, reports and messages."
      footer={
        <>
          New to BrandLift? Your account is created with your first order.{" "}
          <Link to="/#a-la-carte" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Browse services
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="relative space-y-5">
        <HoneypotField id="login-website" />
        <input key={redirectTo.key} {...redirectTo.props} />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field id={fields.email.id} label="Email" error={fields.email.errors}>
          <Input key={email.key} {...email.props} autoComplete="email" placeholder="you@company.com" />
        </Field>
        <div className="space-y-1.5">
          <div className="flex items-baseline justify-between gap-4">
            <label htmlFor={fields.password.id} className="block text-sm font-semibold text-slate-800">
              Password
            </label>
            <Link to="/forgot-password" className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
              Forgot your password?
            </Link>
          </div>
          <PasswordInput key={password.key} {...password.props} autoComplete="current-password" />
          {fields.password.errors ? (
            <p id={fields.password.errorId} role="alert" className="text-sm font-medium text-red-700">
              {fields.password.errors.join(" ")}
            </p>
          ) : null}
        </div>
        <Button type="submit" size="lg" className="w-full" loading={submitting}>
          Sign In
        </Button>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [
  { title: "Sign In | BrandLift" },
  { name: "description", content: "Sign in to your BrandLift dashboard to follow your services, download reports and message our team." },
];

export function ErrorBoundary() {
  return <AuthErrorBoundary title="Welcome Back" fallback={LOGIN_FAILED_MESSAGE} retryTo="/login" />;
}
