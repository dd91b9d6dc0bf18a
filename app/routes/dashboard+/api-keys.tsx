import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeyRound, Plus } from "lucide-react";

import { FormAlert } from "~/components/auth/auth-layout";
import { inputProps } from "~/components/auth/conform";
import { Button } from "~/components/ui/button";
import { CopyableValue } from "~/components/ui/copyable-value";
import { Field, FieldError, Input, Label } from "~/components/ui/input";
import { API_KEY_NAME_MAX, apiKeyCreateSchema, mayHoldScope, SCOPE_LABELS, SCOPES, type Scope } from "~/domain/api-keys";
import { formatDate } from "~/domain/purchase";
import { z } from "~/domain/zod";
import { createApiKey, listApiKeys, revokeApiKey } from "~/models/api-keys.server";
import { HttpError } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit } from "~/web/form-reply.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/api-keys (every role, linked from the account page): make an API key with scopes
 * within the account's own rights (the key is shown once, with a copy button once JavaScript runs),
 * see each key's first characters and last use, revoke one. Plain forms: the same without
 * JavaScript. Decision 284.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { apiKeys: await listApiKeys(user.id), scopes: SCOPES.filter((scope) => mayHoldScope(user, scope)) };
}

// Each button's intent with its own fields (a form posted without one makes a key); a key's id is checked by the model.
const apiKeyForm = z.discriminatedUnion(
  "intent",
  [
    apiKeyCreateSchema.extend({ intent: z.literal("create").default("create") }),
    z.object({ intent: z.literal("revoke"), keyId: z.string().max(100).default("") }),
  ],
  { error: "Unknown action." },
);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: apiKeyForm });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  if (submission.value.intent === "revoke") {
    try {
      await revokeApiKey(user, submission.value.keyId);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return redirectWithToast("/dashboard/api-keys", { type: "error", message: error.message });
      throw error;
    }
    return redirectWithToast("/dashboard/api-keys", { type: "success", message: "API key revoked: calls made with it are refused from now on." });
  }
  try {
    const created = await createApiKey(user, submission.value);
    return { result: submission.reply({ resetForm: true }), created };
  } catch (error) {
    // A scope beyond the account's rights (403), too many keys (409): said on the form.
    if (error instanceof HttpError && error.status < 500)
      return data({ result: submission.reply({ formErrors: [error.message] }), created: null }, httpErrorInit(error));
    throw error;
  }
}

export default function ApiKeysPage() {
  const { apiKeys, scopes } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "new-api-key",
    lastResult: navigation.state === "idle" ? reply?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiKeyForm }),
  });
  const name = inputProps(fields.name, { type: "text" });
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  return (
    <section aria-labelledby="api-keys-heading" className="space-y-6">
      <div>
        <h2 id="api-keys-heading" className="text-xl font-bold text-slate-950">
          API keys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A key lets another tool (Zapier, Make, n8n, a script) call the BrandLift API as you, limited to the scopes you give it. Send it as{" "}
          <code className="rounded bg-slate-100 px-1">Authorization: Bearer &lt;key&gt;</code>. Keys keep working when you change your password: revoke any you
          do not recognise. Back to{" "}
          <Link to="/dashboard/account" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            your account
          </Link>
          .
        </p>
      </div>

      {reply?.created ? <NewKey apiKey={reply.created.key} name={reply.created.apiKey.name} /> : null}

      <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <h3 id="new-key-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold text-slate-950">
          <Plus aria-hidden="true" className="size-5" />
          Make a key
        </h3>
        <Form method="post" {...getFormProps(form)} aria-labelledby="new-key-heading" className="grid gap-4 sm:max-w-lg">
          <input type="hidden" name="intent" value="create" />
          <FormAlert id={form.errorId} errors={[...(form.errors ?? []), ...(fields.intent.errors ?? [])]} />
          <Field id={fields.name.id} label="Name" error={fields.name.errors} hint="Where the key is used, e.g. “n8n publishing flow”.">
            <Input key={name.key} {...name.props} maxLength={API_KEY_NAME_MAX} autoComplete="off" />
          </Field>
          <fieldset aria-describedby={fields.scopes.errors ? fields.scopes.errorId : undefined} className="space-y-2">
            <legend className="text-sm font-semibold text-slate-900">Scopes</legend>
            {scopes.map((scope: Scope) => (
              <div key={scope} className="flex items-start gap-2">
                <input
                  id={`scope-${scope}`}
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={scope === "read"}
                  className="mt-1 size-4 rounded border-slate-300"
                />
                <Label htmlFor={`scope-${scope}`} className="font-normal">
                  <code className="font-semibold">{scope}</code>: {SCOPE_LABELS[scope]}
                </Label>
              </div>
            ))}
            <FieldError id={fields.scopes.errorId} errors={fields.scopes.errors} />
          </fieldset>
          <Button type="submit" className="justify-self-start" loading={creating}>
            Make key
          </Button>
        </Form>
      </div>

      <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card">
        <h3 id="keys-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold text-slate-950">
          <KeyRound aria-hidden="true" className="size-5" />
          Your keys
        </h3>
        {apiKeys.length === 0 ? (
          <p className="text-sm text-slate-600">No API keys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-labelledby="keys-heading" data-testid="api-keys">
            {apiKeys.map((key) => (
              <li key={key._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-900">
                    {key.name} <code className="ml-1 rounded bg-slate-100 px-1 text-sm font-normal">{key.prefix}…</code>
                  </p>
                  <p className="text-sm text-slate-600">
                    {key.scopes.join(", ")} · made <time dateTime={key.createdAt}>{formatDate(key.createdAt)}</time> ·{" "}
                    {key.lastUsedAt ? (
                      <>
                        last used <time dateTime={key.lastUsedAt}>{formatDate(key.lastUsedAt)}</time>
                      </>
                    ) : (
                      "never used"
                    )}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="keyId" value={key._id} />
                  <Button type="submit" size="sm" variant="danger">
                    Revoke<span className="sr-only"> {key.name}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** The new key, this once: selected on focus, copied with a button once JavaScript runs. */
function NewKey({ apiKey, name }: { apiKey: string; name: string }) {
  return (
    <div role="status" className="space-y-3 rounded-card border border-emerald-300 bg-emerald-50 p-5">
      <p className="font-semibold text-emerald-900">Your new key “{name}”: copy it now, it will not be shown again.</p>
      <CopyableValue
        id="new-api-key-value"
        testId="new-api-key"
        label="API key"
        value={apiKey}
        copyLabel="Copy key"
        copiedMessage="Key copied."
        withoutJavaScript={<p className="text-sm text-emerald-900">Select the key and copy it (Ctrl+C or ⌘C).</p>}
      />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "API keys — BrandLift dashboard" }];
