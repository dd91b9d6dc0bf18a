import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { AppStyles } from "~/components/inline-styles";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { useNonce } from "~/components/nonce";
import { useQuietAbortedLoads } from "~/components/quiet-aborted-loads";
import { ButtonLink } from "~/components/ui/button";
import { FlashBanner } from "~/components/ui/flash-banner";
import { Toaster } from "~/components/ui/toaster";
import stylesheet from "~/styles/tailwind.css?url";
import { env } from "~/utils/env.server";
import { getOptionalUser } from "~/web/auth.server";
import { getToast } from "~/web/toast.server";

export const links: LinksFunction = () => [
  // In production the stylesheet comes from AppStyles (inline on public pages, linked when signed in); here only for Vite's hot reload.
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: stylesheet }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, { toast, headers }] = await Promise.all([getOptionalUser(request), getToast(request)]);
  return data(
    {
      user: user ? { id: user.id, name: user.name, role: user.role } : null,
      toast,
      testMode: !env.stripe,
      // The footer's copyright year, from the server's clock at render (never the browser's).
      year: new Date().getUTCFullYear(),
    },
    headers ? { headers } : undefined,
  );
}

export const meta: MetaFunction = () => [
  { title: "BrandLift — Social media and branding agency" },
  { name: "description", content: "A-la-carte social media services, branding and monthly growth plans from BrandLift." },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // Hydration starts after the first paint (decision 008); tools that drive the page (the e2e
  // suite) wait for this mark before using what only JavaScript does.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useQuietAbortedLoads();
  const matches = useMatches();
  // Signed-in pages link the cached stylesheet; the sign-in pages fetch it ahead for the dashboard that follows.
  const signedIn = matches.some((match) => match.id.startsWith("routes/dashboard+"));
  const signingIn = matches.some((match) => match.id.startsWith("routes/_auth+"));
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#312e81" />
        <Meta />
        <AppStyles linked={signedIn} href={stylesheet} />
        {signingIn && !import.meta.env.DEV ? <link rel="prefetch" as="style" href={stylesheet} /> : null}
        <Links />
      </head>
      <body className="min-h-full bg-slate-50 text-slate-900 antialiased">
        {data?.testMode ? (
          // A landmark of its own, so every bit of the page sits in one (axe: region).
          <aside aria-label="Test mode" className="bg-amber-100 px-4 py-1 text-center text-sm text-amber-950">
            Test mode: payments use the built-in test checkout and no card is charged.
          </aside>
        ) : null}
        {children}
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  // An action's confirmation, drawn on the page that follows (decision 281); toasts are for what
  // only JavaScript does (a download, the upload modal).
  return (
    <>
      <FlashBanner flash={toast} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPage
            eyebrow="Error 404"
            title="Page not found"
            text="We couldn't find the page you were looking for. It may have moved, or the link may be mistyped."
          />
        ),
        403: () => <ErrorPage eyebrow="Error 403" title="Not allowed" text="Your account does not have access to this page." />,
      }}
      defaultStatusHandler={({ error }) => <ErrorPage eyebrow={`Error ${error.status}`} title="Something went wrong" text={UNEXPECTED} />}
      unexpectedErrorHandler={() => <ErrorPage eyebrow="Error" title="Something went wrong" text={UNEXPECTED} />}
    />
  );
}

const UNEXPECTED = "An unexpected error occurred on our side. Please try again in a moment.";

function ErrorPage({ eyebrow, title, text }: { eyebrow: string; title: string; text: string }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-6 py-24 text-center">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700">{eyebrow}</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-4 text-lg text-slate-600">{text}</p>
        <div className="mt-8 flex gap-3">
          <ButtonLink to="/">Go to Home Page</ButtonLink>
          <ButtonLink to="/dashboard" variant="outline">
            Dashboard
          </ButtonLink>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
