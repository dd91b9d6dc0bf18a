import type { LinksFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CircleAlert, CircleCheck } from "lucide-react";
import type { ReactNode } from "react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { cn } from "~/components/ui/cn";
import { Logo } from "~/components/ui/logo";

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Below the card, e.g. a link back to sign in. */
  footer?: ReactNode;
};

const PARSED_ID = "auth-parsed";

// `blocking` is not among Remix's link attributes (it renders whatever it is given): a named object,
// which may carry more than the type names, where a literal in place would be refused.
const renderBlocking = { rel: "expect", href: `#${PARSED_ID}`, blocking: "render" };

/**
 * The screens' `links`: the first paint waits until the card has been parsed. The card is centred
 * vertically, so a paint of half the card (the parser yielding mid-page) moved it when the rest
 * came in: a layout shift of 0.08–0.10 on a phone. `rel=expect` is ignored where unsupported.
 */
export const authLinks: LinksFunction = () => [renderBlocking];

/** The sign-in, forgot-password and reset-password screens: a brand panel and one form card. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className="grid min-h-screen lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-brand-950 px-12 py-10 text-white lg:flex lg:flex-col lg:justify-between">
        <div aria-hidden="true" className="absolute -top-24 -right-24 size-96 rounded-full bg-brand-600/40 blur-3xl" />
        <div aria-hidden="true" className="absolute -bottom-32 -left-16 size-80 rounded-full bg-accent-500/25 blur-3xl" />
        <Link
          to="/"
          aria-label="BrandLift home"
          className="relative w-fit rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white"
        >
          <Logo tone="light" />
        </Link>
        <div className="relative max-w-md">
          <p className="font-display text-4xl leading-tight font-bold tracking-tight text-white">What would you grade your social media page?</p>
          <p className="mt-4 text-lg text-slate-300">Your services, reports and a direct line to our team, all in one dashboard.</p>
        </div>
        <p className="relative text-sm text-slate-300">© 2023 BrandLift. All rights reserved.</p>
      </aside>
      <main className="flex items-center justify-center bg-slate-50 px-4 py-12 sm:px-8">
        <div className="w-full max-w-md">
          <Link
            to="/"
            aria-label="BrandLift home"
            className="mb-8 inline-flex rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600 lg:hidden"
          >
            <Logo />
          </Link>
          <div className="rounded-card border border-slate-200 bg-white p-6 shadow-card sm:p-8">
            <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
            {subtitle ? <p className="mt-2 text-slate-600">{subtitle}</p> : null}
            <div className="mt-8">{children}</div>
          </div>
          {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
        </div>
        {/* Parsed last: the first paint waits for it (authLinks). */}
        <span id={PARSED_ID} hidden />
      </main>
    </div>
  );
}

/** A message about the whole form (wrong credentials, rate limit, a spent link). */
export function FormAlert({ id, errors, tone = "error" }: { id?: string; errors?: readonly string[] | string | null; tone?: "error" | "success" }) {
  const text = typeof errors === "string" ? errors : errors?.filter(Boolean).join(" ");
  if (!text) return null;
  const Icon = tone === "error" ? CircleAlert : CircleCheck;
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "flex gap-3 rounded-xl border p-3 text-sm font-medium",
        tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-900",
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>{text}</p>
    </div>
  );
}

/**
 * The error boundary of the auth screens: a 400 thrown with a text body (a bot's honeypot) shows
 * that text, anything else the screen's own message from the spec, and a way to try again.
 */
export function AuthErrorBoundary({ title, fallback, retryTo }: { title: string; fallback: string; retryTo: string }) {
  const view = (message: string) => <AuthErrorView title={title} message={message} retryTo={retryTo} />;
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 400: ({ error }) => view(typeof error.data === "string" ? error.data : fallback) }}
      defaultStatusHandler={() => view(fallback)}
      unexpectedErrorHandler={() => view(fallback)}
    />
  );
}

function AuthErrorView({ title, message, retryTo }: { title: string; message: string; retryTo: string }) {
  return (
    <AuthLayout title={title}>
      <FormAlert errors={message} />
      <div className="mt-6 flex flex-wrap gap-3">
        <a href={retryTo} className="inline-flex min-h-11 items-center rounded-full bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700">
          Try again
        </a>
        <Link to="/" className="inline-flex min-h-11 items-center rounded-full px-5 text-sm font-semibold text-slate-700 hover:bg-slate-100">
          Go to Home Page
        </Link>
      </div>
    </AuthLayout>
  );
}
