import { Clock, Handshake, Palette, Target, TrendingUp, type LucideIcon } from "lucide-react";

import { SectionHeading } from "~/components/landing/section-heading";
import { cn } from "~/components/ui/cn";

type Benefit = { icon: LucideIcon; title: string; text: string };

const benefits: Benefit[] = [
  {
    icon: Target,
    title: "Strategy first, posts second",
    text: "Every post ties back to a goal we set together, whether that is awareness, leads or sales. Nothing is published just to fill the calendar.",
  },
  {
    icon: Palette,
    title: "Unmistakably on-brand",
    text: "Designers and copywriters who learn your voice, so your feed looks and sounds like one brand instead of five freelancers.",
  },
  {
    icon: TrendingUp,
    title: "Results you can see",
    text: "Reports land in your dashboard with plain-language takeaways: what worked, what did not and what we will change next month.",
  },
  {
    icon: Clock,
    title: "Fast, dependable turnaround",
    text: "A real person replies within one business day, and we contact you within 24 hours of every order to get started.",
  },
  {
    icon: Handshake,
    title: "No lock-in, ever",
    text: "Month-to-month plans and content you own outright. Clients stay because the work pays off, not because of a contract.",
  },
];

// Five cards: three on the first row, two centred on the second (lg); the last spans the row on sm.
const placement = ["", "", "", "lg:col-start-2", "sm:col-span-2 lg:col-span-2"];

export function WhyChooseUs() {
  return (
    <section
      id="why-choose-us"
      aria-labelledby="why-choose-us-heading"
      className="render-when-near relative isolate overflow-hidden bg-brand-950 py-20 text-white sm:py-24"
    >
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-[radial-gradient(50rem_26rem_at_100%_0%,rgb(123_92_248/0.35),transparent)]" />
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="why-choose-us-heading" eyebrow="The BrandLift difference" title="Why choose us?" tone="dark">
          A small senior team with one job: making your brand the one people stop scrolling for.
        </SectionHeading>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-6">
          {benefits.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className={cn("rounded-card border border-white/10 bg-white/5 p-7 lg:col-span-2", placement[index])}>
              <span className="flex size-12 items-center justify-center rounded-2xl bg-accent-400 text-slate-950">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-white">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-300">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
