import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound, ShieldAlert, ShieldCheck, Smartphone } from "lucide-react";
import type { ReactNode } from "react";

import { PasskeysPanel } from "~/components/account/passkeys-panel";
import { RecoveryCodes } from "~/components/account/recovery-codes";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { formatDate } from "~/domain/purchase";
import { codeSchema, passkeyCredentialField, passkeyRenameSchema } from "~/domain/schemas/auth";
import { z } from "~/domain/zod";
import { getAccount } from "~/models/account.server";
import { addPasskey, listPasskeys, removePasskey, renamePasskey } from "~/models/passkeys.server";
import {
  disableTwoFactor,
  otpauthUrl,
  pendingTotpSecret,
  qrCodeSvg,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  twoFactorStatus,
} from "~/models/two-factor.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { clientIp } from "~/utils/rate-limit.server";
import { requireIdentity } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { passkeyProofOf } from "~/web/passkey-proof.server";
import { turnOnTwoFactor, withCodeLimits } from "~/web/sign-in.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/security (every role): two-factor sign-in with an authenticator app (set up with a
 * QR code drawn on the server, or the secret typed in; verified by a first code; ten recovery
 * codes shown once, made anew with a code; turned off with a code) and passkeys (added after the
 * owner confirms, renamed, removed). With TEAM_2FA=required it is the one page a staff account
 * without a second factor may open. Plain forms, the same with and without JavaScript, except adding
 * a passkey (WebAuthn is a browser API).
 */

// One schema per button (decision 305); a passkey's id is checked by the model (an unknown one is refused there).
const passkeyId = z.string().max(100).default("");
const securityForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("start-2fa") }),
    codeSchema.extend({ intent: z.literal("verify-2fa") }),
    codeSchema.extend({ intent: z.literal("new-recovery-codes") }),
    codeSchema.extend({ intent: z.literal("disable-2fa") }),
    z.object({ intent: z.literal("add-passkey"), credential: passkeyCredentialField }),
    passkeyRenameSchema.extend({ intent: z.literal("rename-passkey"), passkeyId }),
    z.object({ intent: z.literal("remove-passkey"), passkeyId }),
  ],
  { error: "Please choose what to change." },
);
type Intent = z.infer<typeof securityForm>["intent"];
const INTENTS: readonly string[] = ["start-2fa", "verify-2fa", "new-recovery-codes", "disable-2fa", "add-passkey", "rename-passkey", "remove-passkey"];
/** Never sent back: codes and a passkey's answer. */
const SECRET_FIELDS = ["code", "credential"];
type Reply = { intent: Intent; result: SubmissionResult<string[]>; recoveryCodes?: string[] };

export async function loader({ request }: LoaderFunctionArgs) {
  const identity = await requireIdentity(request);
  const userId = identity.user.id;
  const [account, status, pending, passkeys, proof] = await Promise.all([
    getAccount(userId),
    twoFactorStatus(userId),
    pendingTotpSecret(userId),
    listPasskeys(userId),
    passkeyProofOf(userId, identity.sessionId),
  ]);
  const setup = pending && !status.enabled ? { secret: pending, qrSvg: await qrCodeSvg(otpauthUrl(pending, account.email)) } : null;
  return {
    required: identity.setupOnly,
    twoFactor: { enabled: status.enabled, enabledAt: status.enabledAt?.toISOString() ?? null, recoveryCodesLeft: status.recoveryCodesLeft },
    setup,
    passkeys,
    passkeyProof: { kind: proof.proof, recent: !!proof.recentUntil && proof.recentUntil.getTime() > Date.now() },
    // Passkeys belong to APP_URL's host name: the page says where they cannot work (an IP address).
    siteHost: new URL(env.appUrl).hostname,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const identity = await requireIdentity(request);
  const user = identity.user;
  const submission = parseWithZod(await readForm(request), { schema: securityForm });
  if (submission.status !== "success") {
    const posted = String(submission.payload.intent ?? "");
    const intent = (INTENTS.includes(posted) ? posted : "start-2fa") as Intent;
    return data<Reply>({ intent, result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
  }
  const value = submission.value;
  const ip = clientIp(request, context);
  try {
    switch (value.intent) {
      case "add-passkey": {
        const passkey = await addPasskey(user.id, value.credential, null, request.headers.get("User-Agent"));
        return redirectWithToast("/dashboard/security#passkeys", { type: "success", message: `Passkey added (${passkey.name}).` });
      }
      case "rename-passkey": {
        const renamed = await renamePasskey(user.id, value.passkeyId, value.name);
        return redirectWithToast("/dashboard/security#passkeys", { type: "success", message: `Passkey renamed (${renamed.name}).` });
      }
      case "remove-passkey": {
        const removed = await removePasskey(user.id, value.passkeyId);
        return redirectWithToast("/dashboard/security#passkeys", { type: "success", message: `Passkey removed (${removed.name}).` });
      }
      case "start-2fa":
        await startTwoFactorSetup(user);
        return redirectWithToast("/dashboard/security#two-factor", { type: "info", message: "Scan the QR code, then enter the code your app shows." });
      case "verify-2fa": {
        // Every other session and token of the account ends, as after a password change.
        const { recoveryCodes } = await turnOnTwoFactor(identity, value.code, ip);
        // Shown this once, in the answer itself (no redirect): they are stored only hashed.
        return data<Reply>({ intent: value.intent, result: submission.reply({ resetForm: true }), recoveryCodes });
      }
      case "new-recovery-codes": {
        const { recoveryCodes } = await withCodeLimits(ip, user.id, () => regenerateRecoveryCodes(user.id, value.code));
        return data<Reply>({ intent: value.intent, result: submission.reply({ resetForm: true }), recoveryCodes });
      }
      case "disable-2fa":
        await withCodeLimits(ip, user.id, () => disableTwoFactor(user.id, value.code));
        return redirectWithToast("/dashboard/security", { type: "success", message: "Two-factor sign-in is off." });
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result = submission.reply({ formErrors: [error.message], hideFields: SECRET_FIELDS });
    return data<Reply>({ intent: value.intent, result }, { status: error.status, headers: error.headers });
  }
}

export default function SecurityPage() {
  const { required, twoFactor, setup, passkeys, passkeyProof, siteHost } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = (intent: Intent) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const idle = navigation.state === "idle";
  // Each form's errors, the server's and the browser's (the same schema), said under its field.
  const formFor = (intent: Intent) => ({
    id: `security-${intent}`,
    lastResult: idle && reply?.intent === intent ? reply.result : undefined,
    shouldValidate: "onSubmit" as const,
    onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema: securityForm }),
  });
  const [newCodesForm] = useForm(formFor("new-recovery-codes"));
  const [disableForm] = useForm(formFor("disable-2fa"));
  const [verifyForm] = useForm(formFor("verify-2fa"));
  const errorsOf = (form: { allErrors: Record<string, string[]> }) => Object.values(form.allErrors).flat().join(" ") || undefined;
  const errorFor = (intent: Intent) =>
    reply?.intent === intent
      ? Object.values(reply.result.error ?? {})
          .flat()
          .filter(Boolean)
          .join(" ") || undefined
      : undefined;
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
          <RecoveryCodes codes={recoveryCodes} headingId="recovery-heading" />
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
            <Form method="post" {...getFormProps(newCodesForm)} className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="new-codes-heading">
              <h4 id="new-codes-heading" className="font-semibold text-slate-900">
                New recovery codes
              </h4>
              <input type="hidden" name="intent" value="new-recovery-codes" />
              <CodeField
                id="new-codes-code"
                error={errorsOf(newCodesForm)}
                hint="A current code from your app, or a recovery code. The old codes stop working."
              />
              <Button type="submit" variant="outline" className="justify-self-start" loading={pending("new-recovery-codes")}>
                Make new recovery codes
              </Button>
            </Form>
            <Form method="post" {...getFormProps(disableForm)} className="mt-4 grid gap-4 sm:max-w-md" aria-labelledby="disable-2fa-heading">
              <h4 id="disable-2fa-heading" className="font-semibold text-slate-900">
                Turn two-factor off
              </h4>
              <input type="hidden" name="intent" value="disable-2fa" />
              <CodeField id="disable-code" error={errorsOf(disableForm)} hint="A current code from your app, or a recovery code." />
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
              <Form method="post" {...getFormProps(verifyForm)} className="grid gap-4 sm:max-w-xs" aria-labelledby="verify-2fa-heading">
                <h4 id="verify-2fa-heading" className="sr-only">
                  Verify your authenticator
                </h4>
                <input type="hidden" name="intent" value="verify-2fa" />
                <CodeField id="verify-code" error={errorsOf(verifyForm)} />
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
        <PasskeysPanel
          passkeys={passkeys}
          error={errorFor("add-passkey") ?? errorFor("rename-passkey") ?? errorFor("remove-passkey")}
          proof={passkeyProof}
          siteHost={siteHost}
        />
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
