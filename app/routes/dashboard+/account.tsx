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

const forms = {
  name: z.object({ name: accountNameSchema }),
  email: emailChangeFormSchema,
  password: passwordFormSchema,
  "end-session": z.object({ sessionId: z.string().min(1) }),
};
type Intent = keyof typeof forms;
type Reply = { intent: Intent; fieldErrors?: Record<string, string>; formError?: string };

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
  const form = Object.fromEntries(await readForm(request));
  const intent = String(form.intent ?? "") as Intent;
  if (!(intent in forms)) return data<Reply>({ intent: "name", formError: "Please choose what to change." }, { status: 400 });
  const parsed = forms[intent].safeParse(form);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
    return data<Reply>({ intent, fieldErrors }, { status: 400 });
  }
  const user = identity.user;
  try {
    switch (intent) {
      case "name": {
        const { name } = parsed.data as z.infer<typeof forms.name>;
        await updateName(user.id, name);
        return redirectWithToast("/dashboard/account", { type: "success", message: "Your name was saved." });
      }
      case "email": {
        const { email, currentPassword } = parsed.data as z.infer<typeof forms.email>;
        const { pendingEmail } = await requestEmailChange(user.id, { email, currentPassword }, clientIp(request, context));
        return redirectWithToast("/dashboard/account", { type: "success", message: ACCOUNT_MESSAGES.emailRequested(pendingEmail) });
      }
      case "password": {
        const { currentPassword, newPassword } = parsed.data as z.infer<typeof forms.password>;
        await changePassword(identity, { currentPassword, newPassword }, clientIp(request, context));
        return redirectWithToast("/dashboard/account", { type: "success", message: "Your password was changed. Every other device has been signed out." });
      }
      case "end-session": {
        const { sessionId } = parsed.data as z.infer<(typeof forms)["end-session"]>;
        await endSessionById(user.id, sessionId);
        if (sessionId === identity.sessionId) return redirectWithToast("/login", { type: "success", message: "You signed out of this device." });
        return redirectWithToast("/dashboard/account", { type: "success", message: "That session was signed out." });
      }
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const field = error.code === "WRONG_PASSWORD" ? "currentPassword" : null;
    return data<Reply>(field ? { intent, fieldErrors: { [field]: error.message } } : { intent, formError: error.message }, {
      status: error.status,
      headers: error.headers,
    });
  }
}

export default function AccountPage() {
  const { account, sessions, canDeleteAccount } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const errorsFor = (intent: Intent) => (reply?.intent === intent ? reply : undefined);
  const name = errorsFor("name");
  const email = errorsFor("email");
  const password = errorsFor("password");
  const ending = errorsFor("end-session");
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
        <Form method="post" className="flex flex-wrap items-end gap-3" aria-labelledby="name-heading">
          <input type="hidden" name="intent" value="name" />
          <FormError message={name?.formError} />
          <Field id="account-name" label="Name" error={name?.fieldErrors?.name} className="min-w-60 flex-1">
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
        <Form ref={emailForm} method="post" className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="email-heading">
          <input type="hidden" name="intent" value="email" />
          <FormError message={email?.formError} />
          <Field id="account-email" label="New e-mail address" error={email?.fieldErrors?.email}>
            {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
          </Field>
          <Field id="email-current-password" label="Current password" error={email?.fieldErrors?.currentPassword}>
            {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
          </Field>
          <Button type="submit" className="justify-self-start" loading={pending("email")}>
            Send confirmation link
          </Button>
        </Form>
      </Panel>

      <Panel icon={<KeyRound aria-hidden="true" className="size-5" />} title="Password" id="password-heading">
        <p className="text-sm text-slate-600">Changing your password signs out every other device and API token.</p>
        <Form ref={passwordForm} method="post" className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="password-heading">
          <input type="hidden" name="intent" value="password" />
          <FormError message={password?.formError} />
          <Field id="current-password" label="Current password" error={password?.fieldErrors?.currentPassword}>
            {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
          </Field>
          <Field id="new-password" label="New password" error={password?.fieldErrors?.newPassword}>
            {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" required minLength={8} maxLength={128} />}
          </Field>
          <Field id="confirm-password" label="Confirm new password" error={password?.fieldErrors?.confirmPassword}>
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
        <FormError message={ending?.formError} />
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

function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="w-full rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}

export const meta: MetaFunction = () => [{ title: "Account — BrandLift dashboard" }];
