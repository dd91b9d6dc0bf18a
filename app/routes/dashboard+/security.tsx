import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { KeyRound, ShieldAlert, ShieldCheck, Smartphone } from "lucide-react";
import type { ReactNode } from "react";

import { AddPasskey } from "~/components/auth/add-passkey";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { formatDate } from "~/domain/purchase";
import { codeSchema, passkeyCredentialField } from "~/domain/schemas/auth";
import { getAccount } from "~/models/account.server";
import { addPasskey, listPasskeys, removePasskey } from "~/models/passkeys.server";
import {
  confirmTotpSetup,
  disableTotp,
  otpauthUrl,
  pendingTotpSecret,
  qrCodeSvg,
  regenerateRecoveryCodes,
  startTotpSetup,
  twoFactorStatus,
} from "~/models/two-factor.server";
import { HttpError } from "~/utils/http.server";
import { clientIp } from "~/utils/rate-limit.server";
import { requireIdentity } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { withCodeLimits } from "~/web/sign-in.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/security (every role): two-factor sign-in with an authenticator app (set up with a
 * QR code drawn on the server, or the secret typed in; verified by a first code; ten recovery
 * codes shown once, made anew with a code; turned off with a code). With TEAM_2FA=required it is the one page a staff
 * account without a second factor may open. Plain forms: the same with and without JavaScript.
 */

type Intent = "start-2fa" | "verify-2fa" | "new-recovery-codes" | "disable-2fa" | "add-passkey" | "remove-passkey";
type Reply = { intent: Intent; error?: string; recoveryCodes?: string[] };
const INTENTS: Intent[] = ["start-2fa", "verify-2fa", "new-recovery-codes", "disable-2fa", "add-passkey", "remove-passkey"];

export async function loader({ request }: LoaderFunctionArgs) {
  const identity = await requireIdentity(request);
  const userId = identity.user.id;
  const [account, status, pending, passkeys] = await Promise.all([
    getAccount(userId),
    twoFactorStatus(userId),
    pendingTotpSecret(userId),
    listPasskeys(userId),
  ]);
  const setup = pending && !status.enabled ? { secret: pending, qrSvg: await qrCodeSvg(otpauthUrl(pending, account.email)) } : null;
  return {
    required: identity.setupOnly,
    twoFactor: { enabled: status.enabled, enabledAt: status.enabledAt?.toISOString() ?? null, recoveryCodesLeft: status.recoveryCodesLeft },
    setup,
    passkeys,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const identity = await requireIdentity(request);
  const user = identity.user;
  const form = Object.fromEntries(await readForm(request));
  const intent = String(form.intent ?? "") as Intent;
  if (!INTENTS.includes(intent)) return data<Reply>({ intent: "start-2fa", error: "Please choose what to change." }, { status: 400 });
  try {
    if (intent === "add-passkey") {
      const credential = passkeyCredentialField.safeParse(form.credential);
      if (!credential.success) return data<Reply>({ intent, error: credential.error.issues[0]?.message }, { status: 400 });
      const passkey = await addPasskey(user.id, credential.data as unknown as RegistrationResponseJSON, null, request.headers.get("User-Agent"));
      return redirectWithToast("/dashboard/security#passkeys", { type: "success", message: `Passkey added (${passkey.name}).` });
    }
    if (intent === "remove-passkey") {
      const removed = await removePasskey(user.id, String(form.passkeyId ?? ""));
      return redirectWithToast("/dashboard/security#passkeys", { type: "success", message: `Passkey removed (${removed.name}).` });
    }
    if (intent === "start-2fa") {
      await startTotpSetup(user);
      return redirectWithToast("/dashboard/security#two-factor", { type: "info", message: "Scan the QR code, then enter the code your app shows." });
    }
    const parsed = codeSchema.safeParse(form);
    if (!parsed.success) return data<Reply>({ intent, error: parsed.error.issues[0]?.message }, { status: 400 });
    const ip = clientIp(request, context);
    if (intent === "verify-2fa") {
      const { recoveryCodes } = await withCodeLimits(ip, user.id, () => confirmTotpSetup(user.id, parsed.data.code));
      // Shown this once, in the answer itself (no redirect): they are stored only hashed.
      return data<Reply>({ intent, recoveryCodes });
    }
    if (intent === "new-recovery-codes") {
      const { recoveryCodes } = await withCodeLimits(ip, user.id, () => regenerateRecoveryCodes(user.id, parsed.data.code));
      return data<Reply>({ intent, recoveryCodes });
    }
    await withCodeLimits(ip, user.id, () => disableTotp(user.id, parsed.data.code));
    return redirectWithToast("/dashboard/security", { type: "success", message: "Two-factor sign-in is off." });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data<Reply>({ intent, error: error.message }, { status: error.status, headers: error.headers });
  }
}

export default function SecurityPage() {
  const { required, twoFactor, setup, passkeys } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const errorFor = (intent: Intent) => (reply?.intent === intent ? reply.error : undefined);
  const recoveryCodes = reply?.intent === "verify-2fa" || reply?.intent === "new-recovery-codes" ? reply.recoveryCodes : undefined;

  return (
    <section aria-labelledby="security-heading" className="space-y-6">
      <h2 id="security-heading" className="text-xl font-bold text-slate-950">
        Sign-in security
      </h2>

      {required ? (
        <p role="alert" className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm font-medium text-amber-900">
          <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
          Your team requires two-factor sign-in. Set up an authenticator app or add a passkey below to use the rest of the dashboard.
        </p>
      ) : null}

      {recoveryCodes ? (
        <Panel icon={<ShieldCheck aria-hidden="true" className="size-5" />} title="Your recovery codes" id="recovery-heading">
          <p className="text-sm text-slate-700">
            {reply?.intent === "new-recovery-codes" ? "New recovery codes: the old ones no longer work." : "Two-factor sign-in is on."} Keep these codes
            somewhere safe: each one signs you in once if you lose your phone. <strong>They are shown only now.</strong>
          </p>
          <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-base sm:max-w-md" aria-labelledby="recovery-heading">
            {recoveryCodes.map((code) => (
              <li key={code} className="rounded-lg bg-slate-100 px-3 py-2 text-center text-slate-900">
                {code}
              </li>
            ))}
          </ol>
        </Panel>
      ) : null}

      <Panel icon={<Smartphone aria-hidden="true" className="size-5" />} title="Two-factor sign-in (authenticator app)" id="two-factor">
        {twoFactor.enabled ? (
          <>
            <p className="text-sm text-slate-700">
              <span className="mr-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">On</span>
              Since {twoFactor.enabledAt ? <time dateTime={twoFactor.enabledAt}>{formatDate(twoFactor.enabledAt)}</time> : null}. Signing in asks for a code
              from your app. {twoFactor.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            <Form method="post" className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="new-codes-heading">
              <h4 id="new-codes-heading" className="font-semibold text-slate-900">
                New recovery codes
              </h4>
              <input type="hidden" name="intent" value="new-recovery-codes" />
              <CodeField
                id="new-codes-code"
                error={errorFor("new-recovery-codes")}
                hint="A current code from your app, or a recovery code. The old codes stop working."
              />
              <Button type="submit" variant="outline" className="justify-self-start" loading={pending("new-recovery-codes")}>
                Make new recovery codes
              </Button>
            </Form>
            <Form method="post" className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="disable-2fa-heading">
              <h4 id="disable-2fa-heading" className="font-semibold text-slate-900">
                Turn two-factor off
              </h4>
              <input type="hidden" name="intent" value="disable-2fa" />
              <CodeField id="disable-code" error={errorFor("disable-2fa")} hint="A current code from your app, or a recovery code." />
              <Button type="submit" variant="outline" className="justify-self-start" loading={pending("disable-2fa")}>
                Turn off two-factor
              </Button>
            </Form>
          </>
        ) : setup ? (
          <div className="grid gap-6 sm:grid-cols-[auto_1fr] sm:items-start">
            <div
              role="img"
              aria-label="QR code to scan with your authenticator app"
              className="size-48 rounded-xl border border-slate-200 bg-white p-2 [&>svg]:size-full"
              dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
            />
            <div className="space-y-4">
              <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
                <li>Scan the QR code with an authenticator app (1Password, Google Authenticator, Authy…).</li>
                <li>
                  Can&apos;t scan? Enter this key by hand:{" "}
                  <code data-testid="totp-secret" className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm break-all text-slate-900">
                    {setup.secret}
                  </code>
                </li>
                <li>Enter the 6-digit code the app shows.</li>
              </ol>
              <Form method="post" className="grid gap-4 sm:max-w-xs" aria-labelledby="verify-2fa-heading">
                <h4 id="verify-2fa-heading" className="sr-only">
                  Verify your authenticator
                </h4>
                <input type="hidden" name="intent" value="verify-2fa" />
                <CodeField id="verify-code" error={errorFor("verify-2fa")} />
                <Button type="submit" className="justify-self-start" loading={pending("verify-2fa")}>
                  Verify and turn on
                </Button>
              </Form>
            </div>
          </div>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              Off. With two-factor on, signing in also asks for a 6-digit code from an app on your phone, so a stolen password alone is not enough.
            </p>
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="start-2fa" />
              {errorFor("start-2fa") ? (
                <p role="alert" className="mb-3 text-sm font-medium text-red-700">
                  {errorFor("start-2fa")}
                </p>
              ) : null}
              <Button type="submit" loading={pending("start-2fa")}>
                Set up two-factor
              </Button>
            </Form>
          </>
        )}
      </Panel>

      <Panel icon={<KeyRound aria-hidden="true" className="size-5" />} title="Passkeys" id="passkeys">
        <p className="text-sm text-slate-700">
          Sign in with your fingerprint, face or device PIN instead of a password. A passkey counts as both factors: no code is asked.
        </p>
        {errorFor("add-passkey") || errorFor("remove-passkey") ? (
          <p role="alert" className="mt-3 text-sm font-medium text-red-700">
            {errorFor("add-passkey") ?? errorFor("remove-passkey")}
          </p>
        ) : null}
        {passkeys.length > 0 ? (
          <ul className="mt-4 divide-y divide-slate-200" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <li key={passkey._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-semibold text-slate-900">{passkey.name}</p>
                  <p className="text-sm text-slate-600">
                    Added <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time>
                    {passkey.lastUsedAt ? (
                      <>
                        {" "}
                        · last used <time dateTime={passkey.lastUsedAt}>{formatDate(passkey.lastUsedAt)}</time>
                      </>
                    ) : null}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-passkey" />
                  <input type="hidden" name="passkeyId" value={passkey._id} />
                  <Button
                    type="submit"
                    variant="outline"
                    size="sm"
                    loading={pending("remove-passkey") && navigation.formData?.get("passkeyId") === passkey._id}
                  >
                    Remove<span className="sr-only"> passkey {passkey.name}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-slate-600">No passkeys yet.</p>
        )}
        <div className="mt-4">
          <AddPasskey />
        </div>
      </Panel>
    </section>
  );
}

function CodeField({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <Field id={id} label="Authentication code" error={error} hint={hint}>
      {(control) => <Input {...control} name="code" required maxLength={40} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} />}
    </Field>
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

export const meta: MetaFunction = () => [{ title: "Sign-in security — BrandLift dashboard" }];
