import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";

import { AuthErrorBoundary, AuthLayout, authLinks, FormAlert } from "~/components/auth/auth-layout";
import { TwoFactorForm } from "~/components/auth/two-factor-form";
import { Button } from "~/components/ui/button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { consumeMagicLink, MAGIC_LINK_MESSAGES } from "~/models/magic-links.server";
import { clientIp } from "~/utils/rate-limit.server";
import { readForm } from "~/web/body-limit.server";
import { afterFirstFactor, completeBrowserSignIn, type SecondStepMethod } from "~/web/sign-in.server";

export const links = authLinks;

/*
 * /login/magic?token=…: the e-mailed sign-in link. Opening it only shows a button (mail scanners
 * that fetch links do not spend it); the POST spends it once. An account with a second factor is
 * asked for it next (a code or a passkey), on the sign-in form's second step.
 */

const tokenOf = (value: unknown) => (typeof value === "string" && value.length > 0 && value.length <= 200 ? value : null);

export function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  if (!token) throw redirect("/login");
  return { token };
}

type Reply = { error?: string; secondFactor?: { challenge: string; redirectTo: null; error: null; methods: SecondStepMethod[] } };

export async function action({ request, context }: ActionFunctionArgs) {
  const token = tokenOf((await readForm(request)).get("token"));
  const user = token ? await consumeMagicLink(token) : null;
  if (!user) return data<Reply>({ error: MAGIC_LINK_MESSAGES.invalid }, { status: 400 });
  const step = await afterFirstFactor(user, "cookie");
  if (step.kind === "two-factor") return data<Reply>({ secondFactor: { challenge: step.challenge, redirectTo: null, error: null, methods: step.methods } });
  return completeBrowserSignIn(request, user, null, clientIp(request, context));
}

export default function MagicLinkPage() {
  const { token } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const submitting = useIsPending();
  if (reply?.secondFactor) {
    return (
      <AuthLayout title="Welcome Back" subtitle="One more step: your account asks for a second factor.">
        <TwoFactorForm {...reply.secondFactor} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Sign in with your link" subtitle="Your e-mailed link signs you in once, within 15 minutes of asking for it.">
      {reply?.error ? (
        <div className="space-y-5">
          <FormAlert errors={reply.error} />
          <Link to="/login" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </div>
      ) : (
        <Form method="post" className="space-y-5">
          <input type="hidden" name="token" value={token} />
          <Button type="submit" size="lg" className="w-full" loading={submitting}>
            Continue to your dashboard
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Sign in with your link | BrandLift" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <AuthErrorBoundary title="Sign in with your link" fallback="The link could not be opened. Please try again." retryTo="/login" />;
}
