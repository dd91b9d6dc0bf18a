import { getFormProps, useForm, type Submission, type SubmissionResult } from "@conform-to/react";
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
import { forgotPasswordSchema, loginSchema, passkeyCredentialField, passkeySecondStepSchema, twoFactorSchema } from "~/domain/schemas/auth";
import { z } from "~/domain/zod";
import { MAGIC_LINK_MESSAGES } from "~/models/magic-links.server";
import { verifyPasskeySignIn } from "~/models/passkeys.server";
import type { User } from "~/models/users.server";
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

/**
 * The sign-in page's forms, one schema per button (decision 305): the password (the main form, which
 * posts no intent), the e-mailed link, a passkey, and the second step answered with a code or a passkey.
 */
const loginForm = z.discriminatedUnion(
  "intent",
  [
    loginSchema.extend({ intent: z.literal("password").default("password") }),
    forgotPasswordSchema.extend({ intent: z.literal("magic-link") }),
    z.object({ intent: z.literal("passkey"), credential: passkeyCredentialField, redirectTo: z.string().optional() }),
    twoFactorSchema.extend({ intent: z.literal("second-factor") }),
    passkeySecondStepSchema.extend({ intent: z.literal("second-factor-passkey") }),
  ],
  { error: "Unknown action." },
);

/** Never sent back: the password, a second-factor code, a passkey's answer. */
const SECRET_FIELDS = ["password", "code", "credential"];

type LoginReply = {
  result: SubmissionResult<string[]>;
  /** The e-mailed link's form answered (its own errors, and what was sent). */
  intent?: "magic-link";
  sent?: string;
  /** The second step (a second factor set): its challenge and how it may be answered; its errors are the result's `code` or `credential`. */
  secondFactor?: { challenge: string; redirectTo: string | null; methods: SecondStepMethod[] };
};

type LoginSubmission = Submission<z.input<typeof loginForm>, string[], z.output<typeof loginForm>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  checkHoneypot(form);
  const ip = clientIp(request, context);
  const submission = parseWithZod(form, { schema: loginForm });
  if (submission.status !== "success") return refused(submission);
  const value = submission.value;
  switch (value.intent) {
    case "magic-link":
      return magicLinkStep(submission, value.email, ip);
    case "passkey":
      return passkeyStep(request, submission, () => verifyPasskeySignIn(value.credential), value.redirectTo, ip);
    case "second-factor":
      return finishSecondStep(request, submission, ip, "code", () => answerChallenge(ip, value.challenge, "cookie", { code: value.code }), value.redirectTo);
    case "second-factor-passkey":
      return finishSecondStep(
        request,
        submission,
        ip,
        "credential",
        () => answerChallenge(ip, value.challenge, "cookie", { credential: value.credential }),
        value.redirectTo,
      );
    case "password":
      break;
  }
  const fail = (message: string, status: number, headers?: Record<string, string>) =>
    data<LoginReply>({ result: submission.reply({ formErrors: [message], hideFields: SECRET_FIELDS }) }, { status, headers });

  let user;
  try {
    user = await withSignInLimits(ip, value.email, () => authenticateForm(request));
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
      result: submission.reply({ hideFields: SECRET_FIELDS }),
      secondFactor: { challenge: step.challenge, redirectTo: value.redirectTo ?? null, methods: step.methods },
    });
  }
  return completeBrowserSignIn(request, user, value.redirectTo, ip);
}

/** A refused form, said where its page shows it: a passkey's or a spent challenge's on the sign-in form, a wrong code on the second step. */
async function refused(submission: LoginSubmission) {
  const reply = (options: Parameters<LoginSubmission["reply"]>[0] = {}) => submission.reply({ ...options, hideFields: SECRET_FIELDS });
  const errors = (submission.status !== "success" ? submission.error : null) ?? {};
  const intent = submission.payload.intent;
  if (intent === "magic-link") return data<LoginReply>({ intent, result: reply() }, { status: 400 });
  if (intent === "passkey") return data<LoginReply>({ result: reply({ formErrors: [errors.credential?.[0] ?? LOGIN_FAILED_MESSAGE] }) }, { status: 400 });
  if (intent === "second-factor" || intent === "second-factor-passkey") {
    const challengeError = errors.challenge?.[0];
    if (challengeError) return data<LoginReply>({ result: reply({ formErrors: [challengeError] }) }, { status: 400 });
    return data<LoginReply>({ result: reply(), secondFactor: await secondStepAgain(submission) }, { status: 400 });
  }
  return data<LoginReply>({ result: reply() }, { status: 400 });
}

/** "E-mail me a sign-in link": the same answer whether or not the account exists. */
async function magicLinkStep(submission: LoginSubmission, email: string, ip: string) {
  try {
    await startMagicLink(ip, email);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result = submission.reply({ fieldErrors: { email: [error.message] } });
    return data<LoginReply>({ intent: "magic-link", result }, { status: error.status, headers: error.headers });
  }
  return data<LoginReply>({ intent: "magic-link", result: submission.reply({ resetForm: true }), sent: MAGIC_LINK_MESSAGES.sent });
}

/** A passkey's answer (posted by the page's script): both factors at once when it verified the person (decision 257). */
async function passkeyStep(request: Request, submission: LoginSubmission, verify: () => Promise<User>, redirectTo: string | undefined, ip: string) {
  try {
    return await completeBrowserSignIn(request, await verify(), redirectTo, ip);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result = submission.reply({ formErrors: [error.message], hideFields: SECRET_FIELDS });
    return data<LoginReply>({ result }, { status: error.status, headers: error.headers });
  }
}

/** The second step's answer: a wrong one asks again (401), a spent challenge starts over. */
async function finishSecondStep(
  request: Request,
  submission: LoginSubmission,
  ip: string,
  field: "code" | "credential",
  answer: () => ReturnType<typeof answerChallenge>,
  redirectTo?: string,
) {
  try {
    return await completeBrowserSignIn(request, await answer(), redirectTo, ip);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.code === "CHALLENGE_EXPIRED") {
      return data<LoginReply>({ result: submission.reply({ formErrors: [error.message], hideFields: SECRET_FIELDS }) }, { status: 400 });
    }
    const result = submission.reply({ fieldErrors: { [field]: [error.message] }, hideFields: SECRET_FIELDS });
    return data<LoginReply>({ result, secondFactor: await secondStepAgain(submission) }, { status: error.status, headers: error.headers });
  }
}

/** The same second step again (its ways of answering looked up anew). */
async function secondStepAgain(submission: LoginSubmission): Promise<NonNullable<LoginReply["secondFactor"]>> {
  const { challenge, redirectTo } = submission.payload;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return { challenge: text(challenge) ?? "", redirectTo: text(redirectTo), methods: await secondStepMethods(text(challenge) ?? "") };
}

/** In the browser: no answer at all (offline) is the same 'Login failed…' on the form, and no page reload. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const body = { result: { status: "error" as const, error: { "": [LOGIN_FAILED_MESSAGE] } } };
    // A Response, not data(): single fetch wraps a client action's other values in data() again. Remix
    // reads its JSON as the action data, and the page's type names that data, not the Response.
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
  const idle = navigation.state === "idle";
  const magicReply = actionData && "intent" in actionData && actionData.intent === "magic-link" ? actionData : undefined;
  const [form, fields] = useForm({
    id: "login",
    lastResult: idle && !magicReply ? actionData?.result : undefined,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { redirectTo: searchParams.get("redirectTo") ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginForm }),
  });
  const [magicForm, magicFields] = useForm({
    id: "magic-link",
    lastResult: idle ? magicReply?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginForm }),
  });
  if (actionData && "secondFactor" in actionData && actionData.secondFactor) {
    const errors = actionData.result.error as Record<string, string[] | null> | undefined;
    return (
      <AuthLayout title="Welcome Back" subtitle="One more step: your account asks for a second factor.">
        <TwoFactorForm {...actionData.secondFactor} error={errors?.code?.[0] ?? errors?.credential?.[0] ?? null} />
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
        <details className="rounded-xl border border-slate-200 p-4" open={!!magicReply}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">Get a one-time link by e-mail instead</summary>
          <Form method="post" {...getFormProps(magicForm)} className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="magic-link" />
            {magicReply?.sent ? <FormAlert tone="success" errors={magicReply.sent} /> : null}
            <FormAlert id={magicForm.errorId} errors={[...(magicForm.errors ?? []), ...(magicFields.intent.errors ?? [])]} />
            <Field id={magicFields.email.id} label="Your e-mail address" error={magicFields.email.errors}>
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
