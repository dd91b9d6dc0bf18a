import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";

import { AuthLayout, authLinks } from "~/components/auth/auth-layout";
import { Button, ButtonLink } from "~/components/ui/button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { checkEmailUndo, undoEmailChange, type EmailUndoResult } from "~/models/account.server";
import { readForm } from "~/web/body-limit.server";

export const links = authLinks;

/**
 * /account/undo-email?token=: the link the old address gets when an account's e-mail changes
 * (decision 126). Opening it only asks (a mail scanner's visit changes nothing); the button puts
 * the old address back, once, within seven days, and signs out every device.
 */

const statusOf = (result: EmailUndoResult) => (result.ok ? 200 : result.failure === "taken" ? 409 : 400);

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await checkEmailUndo(token);
  return data({ token: result.ok ? token : "", result }, { status: statusOf(result) });
}

export async function action({ request }: ActionFunctionArgs) {
  const token = String((await readForm(request)).get("token") ?? "");
  const result = await undoEmailChange(token);
  return data({ done: result }, { status: statusOf(result) });
}

/*
 * "same-origin", not "no-referrer": either way the token in this URL never goes to another site in a
 * Referer, but under "no-referrer" a browser sends `Origin: null` on the form's document POST (the
 * path without JavaScript), which the forgery check (web/same-origin.server.ts) rightly refuses as
 * an opaque origin. tests/integration/account-undo-page.test.ts
 */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

export default function UndoEmail() {
  const { token, result } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>()?.done;
  const busy = useIsPending();
  if (done?.ok) {
    return (
      <AuthLayout
        title="E-mail address restored"
        subtitle={
          <>
            Your account uses <strong>{done.email}</strong> again and every device has been signed out. Choose a new password now.
          </>
        }
      >
        <ButtonLink to="/forgot-password" className="w-full" size="lg">
          Choose a new password
        </ButtonLink>
      </AuthLayout>
    );
  }
  const failure = done && !done.ok ? done.message : !result.ok ? result.message : null;
  if (failure || !result.ok) {
    return (
      <AuthLayout title="E-mail address not restored" subtitle={failure}>
        <ButtonLink to="/login" className="w-full" size="lg">
          Go to sign in
        </ButtonLink>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Restore your e-mail address?"
      subtitle={
        <>
          Your account's e-mail address was changed. If that was not you, put <strong>{result.email}</strong> back: every device will be signed out.
        </>
      }
    >
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <Button type="submit" className="w-full" size="lg" loading={busy}>
          Restore my e-mail address
        </Button>
      </Form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Restore your e-mail | BrandLift" }, { name: "robots", content: "noindex" }];
