import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useNavigation, useSearchParams, type ClientActionFunctionArgs } from "@remix-run/react";
import { useEffect } from "react";

import { AuthErrorBoundary, AuthLayout, authLinks, FormAlert } from "~/components/auth/auth-layout";
import { inputProps, passwordInputProps } from "~/components/auth/conform";
import { PasskeySignIn } from "~/components/auth/passkey-sign-in";
import { TwoFactorForm } from "~/components/auth/two-factor-form";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot";
import { Field, Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { notify } from "~/components/ui/toaster";
import { useIsPending } from "~/components/ui/use-is-pending";
import {
  forgotPasswordSchema,
  loginSchema,
  passkeyCredentialField,
  passkeySecondStepSchema,
  TWO_FACTOR_CODE_MESSAGES,
  twoFactorSchema,
} from "~/domain/schemas/auth";
import { MAGIC_LINK_MESSAGES } from "~/models/magic-links.server";
import { verifyPasskeySignIn } from "~/models/passkeys.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { clientIp } from "~/utils/rate-limit.server";
import { authenticateForm, InvalidCredentialsError } from "~/web/auth-form.server";
import { startMagicLink, withSignInLimits } from "~/web/auth-limits.server";
import { getIdentity } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { checkHoneypot } from "~/web/honeypot.server";
import { afterFirstFactor, answerChallenge, completeBrowserSignIn, secondStepMethods, type SecondStepMethod } from "~/web/sign-in.server";

export const links = authLinks;

const LOGIN_FAILED_MESSAGE = "Login failed. Please check your credentials!";

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getIdentity(request)) throw redirect("/dashboard");
  return null;
}

type LoginReply = {
  result?: SubmissionResult<string[]>;
  /** The second step (a second factor set): its challenge, how it may be answered, and what went wrong with the last answer. */
  secondFactor?: { challenge: string; redirectTo: string | null; error: string | null; methods: SecondStepMethod[] };
  magicLink?: { error: string | null; sent: string | null };
};

const formError = (message: string): SubmissionResult<string[]> => ({ status: "error", error: { "": [message] } });

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  checkHoneypot(form);
  if (form.get("intent") === "second-factor") return secondStep(request, form, clientIp(request, context));
  if (form.get("intent") === "second-factor-passkey") return secondStepWithPasskey(request, form, clientIp(request, context));
  if (form.get("intent") === "passkey") return passkeyStep(request, form, clientIp(request, context));
  if (form.get("intent") === "magic-link") return magicLinkStep(form, clientIp(request, context));
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    return data<LoginReply>({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const fail = (message: string, status: number, headers?: Record<string, string>) =>
    data<LoginReply>({ result: submission.reply({ formErrors: [message], hideFields: ["password"] }) }, { status, headers });

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
  const step = await afterFirstFactor(user, "cookie");
  if (step.kind === "two-factor") {
    return data<LoginReply>({
      secondFactor: { challenge: step.challenge, redirectTo: submission.value.redirectTo ?? null, error: null, methods: step.methods },
    });
  }
  return completeBrowserSignIn(request, user, submission.value.redirectTo, clientIp(request, context));
}

/** "E-mail me a sign-in link": the same answer whether or not the account exists. */
async function magicLinkStep(form: FormData, ip: string) {
  const parsed = forgotPasswordSchema.safeParse({ email: form.get("email") ?? undefined });
  if (!parsed.success) return data<LoginReply>({ magicLink: { error: parsed.error.issues[0]?.message ?? null, sent: null } }, { status: 400 });
  try {
    await startMagicLink(ip, parsed.data.email);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data<LoginReply>({ magicLink: { error: error.message, sent: null } }, { status: error.status, headers: error.headers });
  }
  return data<LoginReply>({ magicLink: { error: null, sent: MAGIC_LINK_MESSAGES.sent } });
}

/** A passkey's answer (posted by the page's script): both factors at once when it verified the person (decision 257). */
async function passkeyStep(request: Request, form: FormData, ip: string) {
  const parsed = passkeyCredentialField.safeParse(form.get("credential"));
  if (!parsed.success) return data<LoginReply>({ result: formError(parsed.error.issues[0]?.message ?? LOGIN_FAILED_MESSAGE) }, { status: 400 });
  try {
    const user = await verifyPasskeySignIn(parsed.data);
    return await completeBrowserSignIn(request, user, form.get("redirectTo"), ip);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data<LoginReply>({ result: formError(error.message) }, { status: error.status, headers: error.headers });
  }
}

/** The code of the second step: a wrong one asks again (401), a spent challenge starts over. */
async function secondStep(request: Request, form: FormData, ip: string) {
  const parsed = twoFactorSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const challengeIssue = parsed.error.issues.find((issue) => issue.path[0] === "challenge");
    if (challengeIssue) return data<LoginReply>({ result: formError(challengeIssue.message) }, { status: 400 });
    return secondStepAgain(form, parsed.error.issues[0]?.message ?? TWO_FACTOR_CODE_MESSAGES.codeRequired, 400);
  }
  return finishSecondStep(request, form, ip, () => answerChallenge(ip, parsed.data.challenge, "cookie", { code: parsed.data.code }), parsed.data.redirectTo);
}

/** The second step answered with one of the account's passkeys (posted by the step's script). */
async function secondStepWithPasskey(request: Request, form: FormData, ip: string) {
  const parsed = passkeySecondStepSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const challengeIssue = parsed.error.issues.find((issue) => issue.path[0] === "challenge");
    if (challengeIssue) return data<LoginReply>({ result: formError(challengeIssue.message) }, { status: 400 });
    return secondStepAgain(form, parsed.error.issues[0]?.message ?? LOGIN_FAILED_MESSAGE, 400);
  }
  const credential = parsed.data.credential;
  return finishSecondStep(request, form, ip, () => answerChallenge(ip, parsed.data.challenge, "cookie", { credential }), parsed.data.redirectTo);
}

async function finishSecondStep(request: Request, form: FormData, ip: string, answer: () => ReturnType<typeof answerChallenge>, redirectTo?: string) {
  try {
    return await completeBrowserSignIn(request, await answer(), redirectTo, ip);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.code === "CHALLENGE_EXPIRED") return data<LoginReply>({ result: formError(error.message) }, { status: 400 });
    return secondStepAgain(form, error.message, error.status, error.headers);
  }
}

/** The same second step again, with what went wrong (its ways of answering looked up anew). */
async function secondStepAgain(form: FormData, error: string, status: number, headers?: Record<string, string>) {
  const challenge = typeof form.get("challenge") === "string" ? String(form.get("challenge")) : "";
  const redirectTo = typeof form.get("redirectTo") === "string" ? String(form.get("redirectTo")) : null;
  return data<LoginReply>({ secondFactor: { challenge, redirectTo, error, methods: await secondStepMethods(challenge) } }, { status, headers });
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
  const submitting = useIsPending() && navigation.formData?.get("intent") !== "magic-link";
  const magicPending = useIsPending({ field: { name: "intent", value: "magic-link" } });
  const [form, fields] = useForm({
    id: "login",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { redirectTo: searchParams.get("redirectTo") ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  if (actionData?.secondFactor) {
    return (
      <AuthLayout title="Welcome Back" subtitle="One more step: your account asks for a second factor.">
        <TwoFactorForm {...actionData.secondFactor} />
      </AuthLayout>
    );
  }
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
          {/* "webauthn": the browser may offer passkeys in this field's autofill (conditional UI). */}
          <Input key={email.key} {...email.props} autoComplete="email webauthn" placeholder="you@company.com" />
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
      <div className="mt-5 space-y-5">
        <PasskeySignIn redirectTo={searchParams.get("redirectTo") ?? ""} />
        <details className="rounded-xl border border-slate-200 p-4" open={!!actionData?.magicLink}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">Get a one-time link by e-mail instead</summary>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="magic-link" />
            {actionData?.magicLink?.sent ? <FormAlert tone="success" errors={actionData.magicLink.sent} /> : null}
            <Field id="magic-link-email" label="Your e-mail address" error={actionData?.magicLink?.error}>
              {(control) => <Input {...control} name="email" type="email" autoComplete="email" required maxLength={254} placeholder="you@company.com" />}
            </Field>
            <Button type="submit" variant="outline" className="w-full" loading={magicPending}>
              E-mail me a link
            </Button>
          </Form>
        </details>
      </div>
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
