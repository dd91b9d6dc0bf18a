import { useSubmit } from "@remix-run/react";
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";

import { Button } from "~/components/ui/button";

/**
 * "Add a passkey": creation options from the server, the browser's own dialog, then the answer is
 * posted to the security page's action like any form. WebAuthn is a browser API: without
 * JavaScript the page says so instead of showing the button.
 */
export function AddPasskey() {
  const submit = useSubmit();
  const [supported, setSupported] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  if (supported === null) {
    return <p className="text-sm text-slate-600">Adding a passkey needs JavaScript: your browser shows its own passkey dialog.</p>;
  }
  if (!supported) return <p className="text-sm text-slate-600">This browser cannot make passkeys.</p>;
  return (
    <div className="space-y-2">
      <Button
        type="button"
        loading={busy}
        onClick={async () => {
          setError(null);
          setBusy(true);
          try {
            const response = await fetch("/api/account/passkeys/options", { method: "POST", headers: { Accept: "application/json" } });
            const body = (await response.json()) as { data?: { options: Parameters<typeof startRegistration>[0]["optionsJSON"] }; message?: string };
            if (!response.ok || !body.data) throw new Error(body.message ?? "Passkeys are not available right now.");
            const credential = await startRegistration({ optionsJSON: body.data.options });
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
        <KeyRound aria-hidden="true" className="size-5" />
        Add a passkey
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
