import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound, Mail, MonitorSmartphone, ShieldCheck, UserRound } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";

import { OwnDataPanel } from "~/components/account/own-data-panel";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { ACCOUNT_MESSAGES, accountNameSchema, emailChangeFormSchema, passwordFormSchema } from "~/domain/billing";
import { can } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { z } from "~/domain/zod";
import { changePassword, endSessionById, getAccount, listSessions, requestEmailChange, updateName } from "~/models/account.server";
import { HttpError } from "~/utils/http.server";
import { clientIp } from "~/utils/rate-limit.server";
import { getIdentity, requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/account (every role): name, e-mail (confirmed by a link to the new address),
 * password (current one first; every other session ends) and the signed-in sessions, each with
 * "Sign out". Plain forms: they work the same with and without JavaScript.
 */

// One schema per button (decision 305); an unknown intent is said on the name form, as before.
const accountForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("name"), name: accountNameSchema }),
    emailChangeFormSchema.extend({ intent: z.literal("email") }),
    passwordFormSchema.safeExtend({ intent: z.literal("password") }),
    z.object({ intent: z.literal("end-session"), sessionId: z.string({ error: "Please choose a session." }).min(1) }),
  ],
  { error: "Please choose what to change." },
);
type Intent = z.infer<typeof accountForm>["intent"];
const INTENTS: readonly string[] = ["name", "email", "password", "end-session"];
/** Never sent back. */
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const identity = (await getIdentity(request))!;
  const [account, sessions] = await Promise.all([getAccount(identity.user.id), listSessions(identity.user.id, identity.sessionId)]);
  return {
    account: { name: account.name, email: account.email, role: account.role, createdAt: account.createdAt.toISOString() },
    sessions,
    canDeleteAccount: can(identity.user, "area:customer"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request);
  const identity = (await getIdentity(request))!;
  const submission = parseWithZod(await readForm(request), { schema: accountForm });
  if (submission.status !== "success") {
    const posted = String(submission.payload.intent ?? "");
    const intent = (INTENTS.includes(posted) ? posted : "name") as Intent;
    const result = submission.reply({ hideFields: PASSWORD_FIELDS, formErrors: submission.error?.intent ?? undefined });
    return data({ intent, result }, { status: 400 });
  }
  const value = submission.value;
  const user = identity.user;
  try {
    switch (value.intent) {
      case "name":
        await updateName(user.id, value.name);
        return redirectWithToast("/dashboard/account", { type: "success", message: "Your name was saved." });
      case "email": {
        const { pendingEmail } = await requestEmailChange(user.id, { email: value.email, currentPassword: value.currentPassword }, clientIp(request, context));
        return redirectWithToast("/dashboard/account", { type: "success", message: ACCOUNT_MESSAGES.emailRequested(pendingEmail) });
      }
      case "password":
        await changePassword(identity, { currentPassword: value.currentPassword, newPassword: value.newPassword }, clientIp(request, context));
        return redirectWithToast("/dashboard/account", { type: "success", message: "Your password was changed. Every other device has been signed out." });
      case "end-session":
        await endSessionById(user.id, value.sessionId);
        if (value.sessionId === identity.sessionId) return redirectWithToast("/login", { type: "success", message: "You signed out of this device." });
        return redirectWithToast("/dashboard/account", { type: "success", message: "That session was signed out." });
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result =
      error.code === "WRONG_PASSWORD"
        ? submission.reply({ hideFields: PASSWORD_FIELDS, fieldErrors: { currentPassword: [error.message] } })
        : submission.reply({ hideFields: PASSWORD_FIELDS, formErrors: [error.message] });
    return data({ intent: value.intent, result }, { status: error.status, headers: error.headers });
  }
}

export default function AccountPage() {
  const { account, sessions, canDeleteAccount } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const idle = navigation.state === "idle";
  const formFor = (intent: Intent) => ({
    id: `account-${intent}`,
    lastResult: idle && reply?.intent === intent ? reply.result : undefined,
    shouldValidate: "onSubmit" as const,
    onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema: accountForm }),
  });
  const [nameForm, name] = useForm(formFor("name"));
  const [emailFormMeta, email] = useForm(formFor("email"));
  const [passwordFormMeta, password] = useForm(formFor("password"));
  const endingErrors = reply?.intent === "end-session" ? Object.values(reply.result.error ?? {}).flat() : undefined;
  // With JavaScript the page stays mounted: once a change went through, its form is emptied again.
  const emailForm = useRef<HTMLFormElement>(null);
  const passwordForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (navigation.state !== "idle" || reply) return;
    emailForm.current?.reset();
    passwordForm.current?.reset();
  }, [navigation.state, reply]);

  return (
    <section aria-labelledby="account-heading" className="space-y-6">
      <h2 id="account-heading" className="text-xl font-bold text-slate-950">
        Account
      </h2>

      <Panel icon={<UserRound aria-hidden="true" className="size-5" />} title="Your name" id="name-heading">
        <Form method="post" {...getFormProps(nameForm)} className="flex flex-wrap items-end gap-3" aria-labelledby="name-heading">
          <input type="hidden" name="intent" value="name" />
          <FormError id={nameForm.errorId} messages={nameForm.errors} />
          <Field id={name.name.id} label="Name" error={name.name.errors} className="min-w-60 flex-1">
            {(control) => <Input {...control} name="name" defaultValue={account.name} autoComplete="name" required maxLength={100} />}
          </Field>
          <Button type="submit" loading={pending("name")}>
            Save name
          </Button>
        </Form>
      </Panel>

      <Panel icon={<Mail aria-hidden="true" className="size-5" />} title="E-mail address" id="email-heading">
        <p className="text-sm text-slate-600">
          Signed in as <strong className="text-slate-900">{account.email}</strong>. A new address takes effect when you open the confirmation link we send to it
          (valid for one hour); your current address is told, with a link to undo the change.
        </p>
        <Form ref={emailForm} method="post" {...getFormProps(emailFormMeta)} className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="email-heading">
          <input type="hidden" name="intent" value="email" />
          <FormError id={emailFormMeta.errorId} messages={emailFormMeta.errors} />
          <Field id={email.email.id} label="New e-mail address" error={email.email.errors}>
            {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
          </Field>
          <Field id={email.currentPassword.id} label="Current password" error={email.currentPassword.errors}>
            {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
          </Field>
          <Button type="submit" className="justify-self-start" loading={pending("email")}>
            Send confirmation link
          </Button>
        </Form>
      </Panel>

      <Panel icon={<KeyRound aria-hidden="true" className="size-5" />} title="Password" id="password-heading">
        <p className="text-sm text-slate-600">Changing your password signs out every other device and API token.</p>
        <Form ref={passwordForm} method="post" {...getFormProps(passwordFormMeta)} className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="password-heading">
          <input type="hidden" name="intent" value="password" />
          <FormError id={passwordFormMeta.errorId} messages={passwordFormMeta.errors} />
          <Field id={password.currentPassword.id} label="Current password" error={password.currentPassword.errors}>
            {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
          </Field>
          <Field id={password.newPassword.id} label="New password" error={password.newPassword.errors}>
            {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" required minLength={8} maxLength={128} />}
          </Field>
          <Field id={password.confirmPassword.id} label="Confirm new password" error={password.confirmPassword.errors}>
            {(control) => <PasswordInput {...control} name="confirmPassword" autoComplete="new-password" required />}
          </Field>
          <Button type="submit" className="justify-self-start" loading={pending("password")}>
            Change password
          </Button>
        </Form>
      </Panel>

      <Panel icon={<ShieldCheck aria-hidden="true" className="size-5" />} title="Two-factor sign-in and passkeys" id="security-link-heading">
        <p className="text-sm text-slate-600">
          Ask for a code from an authenticator app when you sign in, or sign in with a passkey.{" "}
          <Link to="/dashboard/security" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Manage sign-in security
          </Link>
        </p>
      </Panel>

      <Panel icon={<KeyRound aria-hidden="true" className="size-5" />} title="API keys" id="api-keys-link-heading">
        <p className="text-sm text-slate-600">
          Let another tool (Zapier, Make, n8n, a script) call BrandLift as you, with only the scopes you choose.{" "}
          <Link to="/dashboard/api-keys" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Manage API keys
          </Link>
        </p>
      </Panel>

      <Panel icon={<MonitorSmartphone aria-hidden="true" className="size-5" />} title="Signed-in sessions" id="sessions-heading">
        <FormError messages={endingErrors} />
        <ul className="divide-y divide-slate-200" aria-labelledby="sessions-heading">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-semibold text-slate-900">
                  {session.device}
                  {session.current ? (
                    <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">This device</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-600">
                  Last seen <time dateTime={session.lastSeenAt}>{formatDate(session.lastSeenAt)}</time> · signed in{" "}
                  <time dateTime={session.createdAt}>{formatDate(session.createdAt)}</time>
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="sessionId" value={session.id} />
                <Button type="submit" variant="outline" size="sm">
                  Sign out<span className="sr-only"> {session.current ? "this device" : session.device}</span>
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      </Panel>

      <OwnDataPanel canDelete={canDeleteAccount} />
    </section>
  );
}

function Panel({ icon, title, id, children }: { icon: ReactNode; title: string; id: string; children: ReactNode }) {
  return (
    <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
      <h3 id={id} className="mb-3 flex items-center gap-2 text-lg font-semibold text-slate-950">
        {icon}
        {title}
      </h3>
      {children}
    </div>
  );
}

function FormError({ id, messages }: { id?: string; messages?: readonly (string | null)[] | null }) {
  const message = messages?.filter(Boolean).join(" ");
  if (!message) return null;
  return (
    <p id={id} role="alert" className="w-full rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}

export const meta: MetaFunction = () => [{ title: "Account — BrandLift dashboard" }];
