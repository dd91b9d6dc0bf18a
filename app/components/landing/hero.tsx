import { ArrowRight, Check, Gauge, LayoutDashboard, LogIn } from "lucide-react";

import { ReportCardIllustration } from "~/components/landing/report-card-illustration";
import { buttonClassName, ButtonLink } from "~/components/ui/button";

export type HeroProps = {
  /** When signed in, the hero points to the dashboard instead of the login. */
  user?: { name: string } | null;
};

const ON_DARK = "border-white/40 bg-transparent text-white hover:border-white hover:bg-white/10 hover:text-white focus-visible:outline-white";

const promises = ["No long-term contracts", "Reports in your dashboard", "A reply within 24 hours"];

export function Hero({ user }: HeroProps) {
  return (
    <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden bg-brand-950 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_85%_-10%,rgb(123_92_248/0.45),transparent),radial-gradient(40rem_24rem_at_0%_110%,rgb(249_115_22/0.22),transparent)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1.1fr_0.9fr] lg:px-8 lg:py-28">
        <div>
          <p className="text-sm font-semibold tracking-widest text-accent-300 uppercase">Social media branding agency</p>
          <h1 id="hero-heading" className="mt-4 text-display font-extrabold text-white">
            What would you grade your <span className="text-accent-300">social media page?</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-200">
            If the honest answer is anything below an A, you are leaving attention on the table. BrandLift audits, designs and runs social channels for growing
            brands, so every post looks like you and works for you.
          </p>
          <p className="mt-4 max-w-xl text-base text-slate-300">
            {user
              ? `Welcome back, ${user.name}. Your services, reports and messages are waiting in your dashboard.`
              : "Already working with us? Log in to follow your services, download your reports and message your team."}
          </p>
          <div className="mt-8 flex flex-wrap gap-4">
            {/* The grader is the first step we want a visitor to take; signing in is for those already with us. */}
            <ButtonLink to="/grade" variant="secondary" size="lg">
              <Gauge aria-hidden="true" className="size-5" />
              Grade my page free
            </ButtonLink>
            <ButtonLink to={user ? "/dashboard" : "/login"} variant="outline" size="lg" className={ON_DARK}>
              {user ? <LayoutDashboard className="size-5" /> : <LogIn className="size-5" />}
              {user ? "Go to dashboard" : "Login"}
            </ButtonLink>
            <a
              href="#a-la-carte"
              className={buttonClassName({
                variant: "outline",
                size: "lg",
                className: ON_DARK,
              })}
            >
              Explore services
              <ArrowRight className="size-5" />
            </a>
          </div>
          <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-3 text-sm font-medium text-slate-200">
            {promises.map((promise) => (
              <li key={promise} className="flex items-center gap-2">
                <Check className="size-4 text-accent-300" />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <ReportCardIllustration className="mx-auto w-full max-w-md lg:max-w-none" />
      </div>
    </section>
  );
}
