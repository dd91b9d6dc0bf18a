import { useSubmit } from "@remix-run/react";
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";

import { Button } from "~/components/ui/button";
import { passkeyHostProblem } from "~/domain/passkey-host";

async function requestOptions() {
  const response = await fetch("/api/auth/passkey/options", { method: "POST", headers: { Accept: "application/json" } });
  const body = (await response.json()) as { data?: { options: Parameters<typeof startAuthentication>[0]["optionsJSON"] }; message?: string };
  if (!response.ok || !body.data) throw new Error(body.message ?? "Passkey sign-in is not available right now.");
  return body.data.options;
}

/**
 * Sign in with a passkey: offered in the e-mail field's autofill where the browser can (conditional
 * UI), and by a button. The answer is posted to the sign-in action like any form, which makes the
 * session. Needs JavaScript (WebAuthn is a browser API): without it neither is shown, nor on a host
 * where passkeys cannot work (an IP address: the security page says why).
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const submit = useSubmit();
  const [supported, setSupported] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = (credential: Awaited<ReturnType<typeof startAuthentication>>) =>
    submit({ intent: "passkey", credential: JSON.stringify(credential), redirectTo }, { method: "post", action: "/login" });

  useEffect(() => {
    if (!browserSupportsWebAuthn() || passkeyHostProblem(window.location.hostname)) return;
    setSupported(true);
    let stopped = false;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      try {
        const credential = await startAuthentication({ optionsJSON: await requestOptions(), useBrowserAutofill: true });
        if (!stopped) finish(credential);
      } catch {
        // Aborted by the button (or by leaving the page), or no passkey picked: nothing to say.
      }
    })();
    return () => {
      stopped = true;
      WebAuthnAbortService.cancelCeremony();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one conditional request per visit
  }, []);

  if (!supported) return null;
  return (
    <div className="space-y-2">
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        loading={busy}
        onClick={async () => {
          setError(null);
          setBusy(true);
          try {
            finish(await startAuthentication({ optionsJSON: await requestOptions() }));
          } catch (caught) {
            const name = (caught as { name?: string }).name;
            setError(name === "NotAllowedError" || name === "AbortError" ? "Passkey sign-in was cancelled." : (caught as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <KeyRound aria-hidden="true" className="size-5" />
        Use a passkey
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
