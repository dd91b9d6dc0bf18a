import { useSubmit } from "@remix-run/react";
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";

import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { passkeyHostProblem } from "~/domain/passkey-host";
import type { PasskeyProof } from "~/domain/schemas/auth";

/**
 * "Add a passkey": the owner confirms (a code when the authenticator app is on, else the password;
 * an account with neither must have just signed in), the server answers creation options, the
 * browser shows its own dialog, then the answer is posted to the security page's action like any
 * form. WebAuthn is a browser API: without JavaScript the page says so instead of showing the
 * button, and on a host where passkeys cannot work it says why.
 */
export function AddPasskey({ proof, recent, siteHost }: { proof: PasskeyProof; recent: boolean; siteHost: string }) {
  const submit = useSubmit();
  const [support, setSupport] = useState<{ problem: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(
    () =>
      setSupport({
        problem: passkeyHostProblem(window.location.hostname, siteHost) ?? (browserSupportsWebAuthn() ? null : "This browser cannot make passkeys."),
      }),
    [siteHost],
  );

  if (support === null) {
    return <p className="text-sm text-slate-600">Adding a passkey needs JavaScript: your browser shows its own passkey dialog.</p>;
  }
  if (support.problem) {
    return (
      <p role="status" data-testid="passkey-unavailable" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-900">
        {support.problem}
      </p>
    );
  }
  if (proof === "recent-sign-in" && !recent) {
    return (
      <p className="text-sm text-slate-700">
        Your account has no password, so adding a passkey needs a fresh sign-in: sign out, sign in again with a link e-mailed to you, then add the passkey
        within 10 minutes.
      </p>
    );
  }
  return (
    <form
      className="grid gap-3 sm:max-w-md"
      aria-label="Add a passkey"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(null);
        setBusy(true);
        try {
          const body = proof === "code" ? { code: secret } : proof === "password" ? { password: secret } : {};
          const response = await fetch("/api/account/passkeys/options", {
            method: "POST",
            headers: { Accept: "application/json", "Content-Type": "application/json" },
            body: JSON.stringify(body),
          });
          const answer = (await response.json()) as { data?: { options: Parameters<typeof startRegistration>[0]["optionsJSON"] }; message?: string };
          if (!response.ok || !answer.data) throw new Error(answer.message ?? "Passkeys are not available right now.");
          setSecret("");
          const credential = await startRegistration({ optionsJSON: answer.data.options });
          submit({ intent: "add-passkey", credential: JSON.stringify(credential) }, { method: "post" });
        } catch (caught) {
          const name = (caught as { name?: string }).name;
          setError(
            name === "NotAllowedError" || name === "AbortError"
              ? "No passkey was added (the dialog was closed)."
              : name === "InvalidStateError"
                ? "This device already has a passkey for your account."
                : (caught as Error).message,
          );
        } finally {
          setBusy(false);
        }
      }}
    >
      {proof === "password" ? (
        <Field id="passkey-password" label="Your password" hint="To confirm it is you adding a passkey." error={error}>
          {(control) => (
            <PasswordInput {...control} value={secret} onChange={(event) => setSecret(event.target.value)} autoComplete="current-password" required />
          )}
        </Field>
      ) : proof === "code" ? (
        <Field id="passkey-code" label="Authentication code" hint="A current code from your app, or a recovery code: to confirm it is you." error={error}>
          {(control) => (
            <Input
              {...control}
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
              required
              maxLength={40}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
            />
          )}
        </Field>
      ) : error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="justify-self-start" loading={busy}>
        <KeyRound aria-hidden="true" className="size-5" />
        Add a passkey
      </Button>
    </form>
  );
}
