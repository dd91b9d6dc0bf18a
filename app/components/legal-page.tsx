import { Link } from "@remix-run/react";

import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

/** The layout of /terms and /privacy: a title, dated sections, and a link to the other page. */
export function LegalPage({ title, sections, seeAlso }: { title: string; sections: LegalSection[]; seeAlso: { to: string; label: string } }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-16 sm:px-6">
        <h1 className="text-4xl font-bold tracking-tight text-slate-950">{title}</h1>
        <p className="mt-3 text-slate-600">Last updated 1 March 2023</p>
        {sections.map((section) => (
          <section key={section.title} className="mt-10">
            <h2 className="text-2xl font-semibold text-slate-950">{section.title}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph} className="mt-4 leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
        <p className="mt-12 text-slate-700">
          See also our{" "}
          <Link to={seeAlso.to} className="font-semibold text-brand-700 underline underline-offset-4">
            {seeAlso.label}
          </Link>
          .
        </p>
      </main>
      <SiteFooter />
    </div>
  );
}
