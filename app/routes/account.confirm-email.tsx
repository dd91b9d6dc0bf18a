import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { AuthLayout, authLinks } from "~/components/auth/auth-layout";
import { ButtonLink } from "~/components/ui/button";
import { confirmEmailChange } from "~/models/account.server";

export const links = authLinks;

/**
 * /account/confirm-email?token=: opening the link sent to the new address applies the e-mail change
 * (once, within an hour); the old address is told. Used, expired or unknown links change nothing;
 * an address another account took in the meantime is a 409.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await confirmEmailChange(token);
  if (result.ok) return { ok: true as const, email: result.user.email, message: null };
  return data({ ok: false as const, email: null, message: result.message }, { status: result.failure === "taken" ? 409 : 400 });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });

export default function ConfirmEmail() {
  const result = useLoaderData<typeof loader>();
  return (
    <AuthLayout
      title={result.ok ? "E-mail address changed" : "E-mail address not changed"}
      subtitle={
        result.ok ? (
          <>
            Your account now uses <strong>{result.email}</strong>. Use it the next time you sign in.
          </>
        ) : (
          result.message
        )
      }
    >
      <ButtonLink to="/dashboard/account" className="w-full" size="lg">
        Go to your account
      </ButtonLink>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail | BrandLift" }, { name: "robots", content: "noindex" }];
