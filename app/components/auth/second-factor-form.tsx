import { Form, Link } from "@remix-run/react";

import { FormAlert } from "~/components/auth/auth-layout";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";

/**
 * The second step of signing in to an account with two-factor on: the challenge rides in a hidden
 * field (it is the server's, stored hashed, 5 minutes, 5 tries), so the step works without JavaScript.
 */
export function SecondFactorForm({ challenge, redirectTo, error }: { challenge: string; redirectTo?: string | null; error?: string | null }) {
  const submitting = useIsPending();
  return (
    <Form method="post" action="/login" className="space-y-5" aria-labelledby="second-factor-title">
      <h2 id="second-factor-title" className="text-lg font-semibold text-slate-900">
        Two-factor sign-in
      </h2>
      <p className="text-sm text-slate-600">Open your authenticator app and enter the 6-digit code it shows for BrandLift.</p>
      <input type="hidden" name="intent" value="second-factor" />
      <input type="hidden" name="challenge" value={challenge} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FormAlert id="second-factor-error" errors={error} />
      <Field id="second-factor-code" label="Authentication code" hint="Lost your phone? Enter one of your recovery codes instead.">
        {(control) => (
          <Input
            {...control}
            name="code"
            required
            maxLength={40}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            placeholder="123456"
            aria-describedby={[control["aria-describedby"], error ? "second-factor-error" : null].filter(Boolean).join(" ") || undefined}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={submitting}>
        Verify and sign in
      </Button>
      <p className="text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
          Start over
        </Link>
      </p>
    </Form>
  );
}
