import { useSubmit } from "@remix-run/react";
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";

import { requestPasskeyOptions, usePasskeyCeremony } from "~/components/auth/passkey-ceremony";
import { Button } from "~/components/ui/button";
import { passkeyHostProblem } from "~/domain/passkey-host";

/**
 * Sign in with a passkey: offered in the e-mail field's autofill where the browser can (conditional
 * UI), and by a button. The answer is posted to the sign-in action like any form, which makes the
 * session. Needs JavaScript (WebAuthn is a browser API): without it neither is shown, nor on a host
 * where passkeys cannot work (an IP address: the security page says why).
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const submit = useSubmit();
  const [supported, setSupported] = useState(false);
  const { busy, failure, run } = usePasskeyCeremony();

  const finish = (credential: Awaited<ReturnType<typeof startAuthentication>>) =>
    submit({ intent: "passkey", credential: JSON.stringify(credential), redirectTo }, { method: "post", action: "/login" });

  useEffect(() => {
    if (!browserSupportsWebAuthn() || passkeyHostProblem(window.location.hostname)) return;
    setSupported(true);
    let stopped = false;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      try {
        const credential = await startAuthentication({ optionsJSON: await requestPasskeyOptions(), useBrowserAutofill: true });
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
        onClick={() => run(async () => finish(await startAuthentication({ optionsJSON: await requestPasskeyOptions() })))}
      >
        <KeyRound aria-hidden="true" className="size-5" />
        Use a passkey
      </Button>
      {failure ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
