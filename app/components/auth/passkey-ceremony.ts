import { type startAuthentication } from "@simplewebauthn/browser";
import { useState } from "react";

type AuthenticationOptions = Parameters<typeof startAuthentication>[0]["optionsJSON"];

/** Passkey sign-in options from the server; with `challenge` when the passkey is the second step after a password. */
export async function requestPasskeyOptions(challenge?: string): Promise<AuthenticationOptions> {
  const response = await fetch("/api/auth/passkey/options", {
    method: "POST",
    headers: challenge ? { Accept: "application/json", "Content-Type": "application/json" } : { Accept: "application/json" },
    ...(challenge ? { body: JSON.stringify({ challenge }) } : {}),
  });
  const body = (await response.json()) as { data?: { options: AuthenticationOptions }; message?: string };
  if (!response.ok || !body.data) throw new Error(body.message ?? "Passkey sign-in is not available right now.");
  return body.data.options;
}

/** A passkey ceremony started by a button: busy while it runs, and its failure in words (a cancelled one said so). */
export function usePasskeyCeremony() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (ceremony: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await ceremony();
    } catch (caught) {
      const name = (caught as { name?: string }).name;
      setFailure(name === "NotAllowedError" || name === "AbortError" ? "Passkey sign-in was cancelled." : (caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}
