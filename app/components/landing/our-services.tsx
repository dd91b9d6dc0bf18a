import { ChevronRight } from "lucide-react";
import { useState } from "react";

import { SectionHeading } from "~/components/landing/section-heading";
import { serviceArt } from "~/components/landing/service-art";
import { ServiceDetailModal } from "~/components/landing/service-detail-modal";
import type { PackageView, ShowcaseService } from "~/domain/catalogue";
import { formatCents } from "~/domain/format";

export type OurServicesProps = {
  /** "Order Now" in the detail modal; the modal has closed by the time this runs. */
  onOrderNow?: (service: ShowcaseService, servicePackage: PackageView) => void;
  /** Active services with their three packages, from the catalogue. */
  services: ShowcaseService[];
  /** `?service=<id>`: the detail modal open from the URL (how a price opens it without JavaScript). */
  openServiceId?: string | null;
};

export function OurServices({ services, onOrderNow, openServiceId }: OurServicesProps) {
  const [selected, setSelected] = useState<ShowcaseService | null>(() => services.find((s) => s.slug === openServiceId) ?? null);

  return (
    <section id="our-services" aria-labelledby="our-services-heading" className="render-when-near bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="our-services-heading" eyebrow="Most booked" title="Our Services">
          Start with one focused service. Each comes in three packages, so you pay only for the depth you need.
        </SectionHeading>
        <ul className="mt-14 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li key={service.slug} className="flex">
              <ServiceCard service={service} onOpen={() => setSelected(service)} />
            </li>
          ))}
        </ul>
      </div>
      <ServiceDetailModal service={selected} onClose={() => setSelected(null)} onOrderNow={onOrderNow} />
    </section>
  );
}

function ServiceCard({ service, onOpen }: { service: ShowcaseService; onOpen: () => void }) {
  const art = serviceArt(service.slug);
  return (
    <article className="flex w-full flex-col overflow-hidden rounded-card border border-slate-200 bg-white shadow-card transition-shadow hover:shadow-lift">
      <img src={art.image} alt="" width={640} height={360} loading="lazy" decoding="async" className="aspect-video w-full bg-brand-50 object-cover" />
      <div className="flex flex-1 flex-col p-6">
        <h3 className="text-xl font-semibold text-slate-950">{service.name}</h3>
        <p className="mt-3 line-clamp-3 flex-1 text-sm leading-relaxed text-slate-600">{service.description}</p>
        <div className="mt-6 flex items-center justify-between gap-4 border-t border-slate-100 pt-5">
          <span className="text-sm text-slate-600">Packages from</span>
          {/* A GET form: without JavaScript the price loads /?service=<id>, which opens the detail modal. */}
          <form
            method="get"
            action="/"
            onSubmit={(event) => {
              event.preventDefault();
              onOpen();
            }}
          >
            <input type="hidden" name="service" value={service.slug} />
            <button
              type="submit"
              aria-haspopup="dialog"
              className="group inline-flex min-h-11 items-center gap-1 rounded-full bg-brand-50 py-2 pr-3 pl-4 text-lg font-bold text-brand-700 tabular-nums transition-colors hover:bg-brand-600 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <span className="sr-only">{service.name}: </span>
              {formatCents(Math.min(...service.packages.map((tier) => tier.priceCents)))}
              <span className="sr-only">, see packages</span>
              <ChevronRight className="size-5 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
            </button>
          </form>
        </div>
      </div>
    </article>
  );
}
