import { Form, useNavigation } from "@remix-run/react";

import { AddPasskey } from "~/components/auth/add-passkey";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { formatDate } from "~/domain/purchase";
import type { PasskeyProof } from "~/domain/schemas/auth";

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The security page's passkeys: each with its dates, a rename form and a remove button (plain
 * forms: no JavaScript needed), then "Add a passkey" (which needs JavaScript).
 */
export function PasskeysPanel({
  passkeys,
  error,
  proof,
  siteHost,
}: {
  passkeys: Passkey[];
  error?: string;
  proof: { kind: PasskeyProof; recent: boolean };
  siteHost: string;
}) {
  const navigation = useNavigation();
  const pending = (intent: string, id: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("passkeyId") === id;
  return (
    <>
      <p className="text-sm text-slate-700">
        Sign in with your fingerprint, face or device PIN instead of a password: a passkey that checks it is you counts as both factors. After your password, a
        passkey is also your second step.
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {passkeys.length > 0 ? (
        <ul className="mt-4 divide-y divide-slate-200" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-semibold break-words text-slate-900">{passkey.name}</p>
                <p className="text-sm text-slate-600">
                  Added <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time>
                  {passkey.lastUsedAt ? (
                    <>
                      {" "}
                      · last used <time dateTime={passkey.lastUsedAt}>{formatDate(passkey.lastUsedAt)}</time>
                    </>
                  ) : null}
                </p>
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700">
                    Rename<span className="sr-only"> passkey {passkey.name}</span>
                  </summary>
                  <Form method="post" className="mt-2 flex flex-wrap items-end gap-2" aria-label={`Rename passkey ${passkey.name}`}>
                    <input type="hidden" name="intent" value="rename-passkey" />
                    <input type="hidden" name="passkeyId" value={passkey.id} />
                    <Field id={`passkey-name-${passkey.id}`} label="New name" className="min-w-48 flex-1">
                      {(control) => <Input {...control} name="name" defaultValue={passkey.name} required maxLength={60} />}
                    </Field>
                    <Button type="submit" variant="outline" size="sm" loading={pending("rename-passkey", passkey.id)}>
                      Save name
                    </Button>
                  </Form>
                </details>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-passkey" />
                <input type="hidden" name="passkeyId" value={passkey.id} />
                <Button type="submit" variant="outline" size="sm" loading={pending("remove-passkey", passkey.id)}>
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
        <AddPasskey proof={proof.kind} recent={proof.recent} siteHost={siteHost} />
      </div>
    </>
  );
}
