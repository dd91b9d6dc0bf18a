import { Form, Link, useSubmit } from "@remix-run/react";
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";

import { FormAlert } from "~/components/auth/auth-layout";
import { requestPasskeyOptions, usePasskeyCeremony } from "~/components/auth/passkey-ceremony";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { passkeyHostProblem } from "~/domain/passkey-host";

type Method = "totp" | "passkey";

/**
 * The second step of signing in to an account with a second factor: a code from the authenticator
 * app (or a recovery code), and/or one of the account's passkeys. The challenge rides in a hidden
 * field (it is the server's, stored hashed, 5 minutes, 5 tries), so the code works without
 * JavaScript; a passkey needs it (WebAuthn is a browser API), and the step says so.
 */
export function TwoFactorForm({
  challenge,
  redirectTo,
  error,
  methods,
}: {
  challenge: string;
  redirectTo?: string | null;
  error?: string | null;
  methods: Method[];
}) {
  const submitting = useIsPending();
  const withCode = methods.includes("totp");
  const withPasskey = methods.includes("passkey");
  return (
    <div className="space-y-5">
      <h2 id="two-factor-title" className="text-lg font-semibold text-slate-900">
        Two-factor sign-in
      </h2>
      <FormAlert id="two-factor-error" errors={error} />
      {withPasskey ? <PasskeyStep challenge={challenge} redirectTo={redirectTo} only={!withCode} /> : null}
      {withCode ? (
        <Form method="post" action="/login" className="space-y-5" aria-labelledby="two-factor-title">
          <p className="text-sm text-slate-600">Open your authenticator app and enter the 6-digit code it shows for BrandLift.</p>
          <input type="hidden" name="intent" value="second-factor" />
          <input type="hidden" name="challenge" value={challenge} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Field id="two-factor-code" label="Authentication code" hint="Lost your phone? Enter one of your recovery codes instead.">
            {(control) => (
              <Input
                {...control}
                name="code"
                required
                maxLength={40}
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                autoFocus={!withPasskey}
                placeholder="123456"
                aria-describedby={[control["aria-describedby"], error ? "two-factor-error" : null].filter(Boolean).join(" ") || undefined}
              />
            )}
          </Field>
          <Button type="submit" size="lg" className="w-full" loading={submitting}>
            Verify and sign in
          </Button>
        </Form>
      ) : null}
      <p className="text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
          Start over
        </Link>
      </p>
    </div>
  );
}

/** "Use your passkey": options for this step's account, the browser's dialog, then the answer posted to the sign-in action. */
function PasskeyStep({ challenge, redirectTo, only }: { challenge: string; redirectTo?: string | null; only: boolean }) {
  const submit = useSubmit();
  const [problem, setProblem] = useState<string | null | undefined>(undefined);
  const { busy, failure, run } = usePasskeyCeremony();
  useEffect(() => setProblem(passkeyHostProblem(window.location.hostname) ?? (browserSupportsWebAuthn() ? null : "This browser cannot use passkeys.")), []);
  if (problem === undefined) {
    return only ? <p className="text-sm text-slate-700">Your second step is a passkey, which needs JavaScript: turn it on to finish signing in.</p> : null;
  }
  if (problem) {
    return (
      <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-900">
        {problem}
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">Confirm with one of the passkeys you added to this account.</p>
      <Button
        type="button"
        size="lg"
        variant={only ? "primary" : "outline"}
        className="w-full"
        loading={busy}
        onClick={() =>
          run(async () => {
            const credential = await startAuthentication({ optionsJSON: await requestPasskeyOptions(challenge) });
            submit(
              { intent: "second-factor-passkey", challenge, credential: JSON.stringify(credential), ...(redirectTo ? { redirectTo } : {}) },
              { method: "post", action: "/login" },
            );
          })
        }
      >
        <KeyRound aria-hidden="true" className="size-5" />
        Use your passkey
      </Button>
      {failure ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
