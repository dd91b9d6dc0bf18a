import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";

import { AuthLayout, authLinks } from "~/components/auth/auth-layout";
import { Button, ButtonLink } from "~/components/ui/button";
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_MESSAGES } from "~/domain/notifications";
import { unsubscribe } from "~/models/notifications.server";
import { readUnsubscribeToken } from "~/utils/unsubscribe-links.server";

export const links = authLinks;

/**
 * /unsubscribe/:token: an e-mail's one-click unsubscribe (RFC 8058, docs/decisions/291). A mail
 * program POSTs `List-Unsubscribe=One-Click` and that kind of e-mail is off for that person, no
 * sign-in. Opening the link in a browser changes nothing (a mail scanner's visit is harmless): it
 * shows a plain form that does the same POST.
 */

export async function loader({ params }: LoaderFunctionArgs) {
  const target = readUnsubscribeToken(params.token ?? "");
  if (!target) return data({ label: null }, { status: 404 });
  return { label: NOTIFICATION_KIND_LABELS[target.kind] };
}

export async function action({ params }: ActionFunctionArgs) {
  const done = await unsubscribe(params.token ?? "");
  if (!done) return data({ done: null }, { status: 404 });
  return { done: done.label };
}

// The token never goes to another site in a Referer.
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

export default function Unsubscribe() {
  const { label } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (answer?.done) {
    return (
      <AuthLayout title="You are unsubscribed" subtitle={`We will no longer e-mail you about: ${answer.done}. You still see them in BrandLift.`}>
        <ButtonLink to="/login?redirectTo=/dashboard/notifications/settings" className="w-full" size="lg">
          Change your e-mail choices
        </ButtonLink>
      </AuthLayout>
    );
  }
  if (!label || answer) {
    return (
      <AuthLayout title="This unsubscribe link cannot be used" subtitle={NOTIFICATION_MESSAGES.badUnsubscribe}>
        <ButtonLink to="/login?redirectTo=/dashboard/notifications/settings" className="w-full" size="lg">
          Sign in to change your choices
        </ButtonLink>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Stop these e-mails?" subtitle={`You will no longer get e-mails about: ${label}. Security e-mails always come.`}>
      <form method="post">
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <Button type="submit" className="w-full" size="lg">
          Unsubscribe
        </Button>
      </form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Unsubscribe | BrandLift" }, { name: "robots", content: "noindex" }];
